/* frame.c - resumable u16-length record decoder and header encoder. */
#include "common/wire/frame.h"

#include <string.h>

#include "common/base/bounded_rw.h"

static const char *const type_names[] = {
	[FRAME_SPAWN] = "spawn", [FRAME_STARTED] = "started",
	[FRAME_STDIN] = "stdin", [FRAME_STDIN_EOF] = "stdin_eof",
	[FRAME_STDOUT] = "stdout", [FRAME_STDERR] = "stderr",
	[FRAME_EXIT] = "exit", [FRAME_ERROR] = "error",
	[FRAME_PING] = "ping", [FRAME_PONG] = "pong",
};

int
frame_type_known(unsigned t)
{
	return t < sizeof type_names / sizeof type_names[0] && type_names[t];
}

const char *
frame_type_name(unsigned t)
{
	return frame_type_known(t) ? type_names[t] : "unknown";
}

void
frame_decoder_init(struct frame_decoder *d, uint8_t *body, size_t cap)
{
	memset(d, 0, sizeof *d);
	d->body = body;
	d->cap = cap > FRAME_RECORD_MAX ? FRAME_RECORD_MAX : cap;
}

enum frame_status
frame_feed(struct frame_decoder *d, const uint8_t *in, size_t len,
    size_t *used)
{
	size_t off = 0;

	*used = 0;
	if (d->bad)
		return FRAME_BAD;
	if (d->in_body && d->have == d->want) {	/* previous record taken */
		d->in_body = 0;
		d->have = 0;
		d->want = 0;
	}
	/* the header a byte at a time, big-endian: it may arrive split
	 * across reads, which struct rd does not resume */
	while (!d->in_body && off < len) {
		d->want = d->want << 8 | in[off++];
		if (++d->have == FRAME_HEADER_LEN) {
			*used = off;
			if (d->want == 0 || d->want > d->cap) {
				d->bad = 1;
				return FRAME_BAD;
			}
			d->in_body = 1;
			d->have = 0;
		}
	}
	if (d->in_body) {
		size_t n = d->want - d->have;

		if (n > len - off)
			n = len - off;
		memcpy(d->body + d->have, in + off, n);
		d->have += n;
		off += n;
		if (d->have > d->high)
			d->high = d->have;
	}
	*used = off;
	return d->in_body && d->have == d->want ? FRAME_OK : FRAME_NEED;
}

int
frame_header(uint8_t out[FRAME_HEADER_LEN], size_t n)
{
	struct wr w = wr_init(out, FRAME_HEADER_LEN);

	if (n == 0 || n > FRAME_RECORD_MAX)
		return -1;
	wr_u16(&w, (uint16_t)n);
	return w.bad ? -1 : 0;
}
