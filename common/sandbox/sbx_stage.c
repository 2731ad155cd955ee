/* sbx_stage.c - the Java stage record decoder. */
#include "common/sandbox/sbx_stage.h"

#include <string.h>

#include "common/base/bounded_rw.h"

void
sbx_stage_init(struct sbx_stage *s)
{
	memset(s, 0, sizeof *s);
	s->state = SBX_STAGE_NEED;
}

enum sbx_stage_rc
sbx_stage_feed(struct sbx_stage *s, const uint8_t *p, size_t n, size_t *used)
{
	size_t take, off = 0;
	struct rd r;
	const uint8_t *magic;

	*used = 0;
	if (s->state != SBX_STAGE_NEED)
		return (enum sbx_stage_rc)s->state;
	if (s->have < SBX_STAGE_HEADER_LEN) {
		take = SBX_STAGE_HEADER_LEN - s->have;
		take = take < n ? take : n;
		if (take > 0)
			memcpy(s->hdr + s->have, p, take);
		s->have += take;
		off = take;
		*used = off;
		if (s->have < SBX_STAGE_HEADER_LEN)
			return SBX_STAGE_NEED;
		r = rd_init(s->hdr, SBX_STAGE_HEADER_LEN);
		/* the length is checked here, before any detail byte is
		 * copied into detail[SBX_DETAIL_MAX] */
		if (rd_bytes(&r, SBX_STAGE_MAGIC_LEN, &magic) ||
		    rd_u8(&r, &s->status) || rd_u32(&r, &s->len) ||
		    memcmp(magic, SBX_STAGE_MAGIC, SBX_STAGE_MAGIC_LEN) != 0 ||
		    s->status > SBX_STAGE_ERROR || s->len > SBX_DETAIL_MAX) {
			s->state = SBX_STAGE_BAD;
			return SBX_STAGE_BAD;
		}
	}
	/* have >= HEADER_LEN and have <= HEADER_LEN + len <= the buffer */
	take = SBX_STAGE_HEADER_LEN + s->len - s->have;
	take = take < n - off ? take : n - off;
	if (take > 0)
		memcpy(s->detail + (s->have - SBX_STAGE_HEADER_LEN), p + off,
		    take);
	s->have += take;
	off += take;
	*used = off;
	if (s->have < SBX_STAGE_HEADER_LEN + s->len)
		return SBX_STAGE_NEED;
	s->state = SBX_STAGE_DONE;
	return SBX_STAGE_DONE;
}
