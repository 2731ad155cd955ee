/* errstream.c - a peer's stderr and our records on one fd (errstream.h). */
#include "common/base/errstream.h"

#include <stdio.h>
#include <string.h>

/* Room always kept in the queue for records of ours. */
#define RECORD_ROOM (2 * LOG_LINE_MAX)
/* The most one formatting step adds: a JSON record, or a human
 * character (LOG_ESCAPE_STEP_MAX) or the prefix with its marker. */
#define STEP_MAX LOG_LINE_MAX

static const char marker[] = "server: ";

int
errstream_init(struct errstream *s, int fd, int json, const char *prog)
{
	memset(s, 0, offsetof(struct errstream, in));
	s->in_off = s->in_len = 0;
	s->json = json;
	s->dead = 0;
	s->at_line_start = 1;
	s->held = 0;
	s->dropped = 0;
	s->prefix_len = (size_t)snprintf(s->prefix, sizeof s->prefix, "%.60s: ",
	    prog);
	return fd_writer_init_shared(&s->q, fd);
}

int
errstream_can_put(const struct errstream *s)
{
	return s->in_off == s->in_len;
}

void
errstream_put(struct errstream *s, const uint8_t *p, size_t n)
{
	if (s->dead || n > sizeof s->in) {
		s->dropped += n;
		return;
	}
	memcpy(s->in, p, n);
	s->in_off = 0;
	s->in_len = n;
}

static void
put(struct errstream *s, const void *p, size_t n)
{
	(void)fd_writer_append(&s->q, p, n);	/* room was checked by the caller */
}

static void
release_held(struct errstream *s)
{
	put(s, s->prefix, s->held);
	s->held = 0;
}

/* One peer character in human form (log_stream_step). A character cut at a payload's end is written as its
 * bytes, \xNN each. */
static void
human_char(struct errstream *s)
{
	uint8_t c = s->in[s->in_off];
	char tmp[LOG_ESCAPE_STEP_MAX];

	if (s->at_line_start || s->held > 0) {
		if (c == (uint8_t)s->prefix[s->held]) {
			s->in_off++;
			s->at_line_start = 0;
			if (++s->held == s->prefix_len) {
				put(s, marker, sizeof marker - 1);
				release_held(s);
			}
			return;
		}
		release_held(s);
	}
	put(s, tmp, log_stream_step(s->in, s->in_len, &s->in_off, tmp));
	s->at_line_start = c == '\n';
}

/* One JSON record: the input up to a newline or LOG_STREAM_PIECE bytes. */
static void
json_piece(struct errstream *s)
{
	const uint8_t *p = s->in + s->in_off;
	size_t left = s->in_len - s->in_off, n = 0;
	char rec[LOG_LINE_MAX];
	int eol = 0;

	while (n < left && n < LOG_STREAM_PIECE && p[n] != '\n')
		n++;
	if (n < left && p[n] == '\n')
		eol = 1;
	put(s, rec, log_stream_record(rec, "server", p, n, eol));
	s->in_off += n + (size_t)eol;
}

/* Format input while the queue keeps room for records and one step. */
static void
format(struct errstream *s)
{
	while (s->in_off < s->in_len &&
	    fd_writer_room(&s->q) >= RECORD_ROOM + STEP_MAX) {
		if (s->json)
			json_piece(s);
		else
			human_char(s);
	}
}

void
errstream_flush(struct errstream *s)
{
	if (s->dead)
		return;
	for (;;) {
		uint64_t before = s->q.total;

		format(s);
		if (fd_writer_flush(&s->q) != 0) {
			errstream_abandon(s);
			return;
		}
		/* stop when nothing is left or the fd took nothing more */
		if (!errstream_busy(s) || s->q.total == before)
			return;
	}
}

void
errstream_record(struct errstream *s, const char *line, size_t n)
{
	if (s->dead) {
		s->dropped += n;
		return;
	}
	if (!s->json && s->held > 0)
		release_held(s);
	if (fd_writer_room(&s->q) < n + 1) {
		s->dropped += n;
		return;
	}
	if (!s->json && !s->at_line_start)
		put(s, "\n", 1);
	put(s, line, n);
	s->at_line_start = 1;
	errstream_flush(s);
}

int
errstream_busy(const struct errstream *s)
{
	return !s->dead && (s->in_off < s->in_len || fd_writer_busy(&s->q));
}

void
errstream_finish(struct errstream *s)
{
	if (!s->dead && !s->json && s->held > 0 &&
	    fd_writer_room(&s->q) >= s->held)
		release_held(s);
}

void
errstream_abandon(struct errstream *s)
{
	s->dropped += (s->in_len - s->in_off) + (s->q.len - s->q.off);
	s->in_off = s->in_len = 0;
	s->q.off = s->q.len = 0;
	s->dead = 1;
}
