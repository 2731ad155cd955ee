/* sbx_stage.c - the Java stage record decoder. */
#include "sbx_stage.h"

#include <string.h>

static uint64_t
be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

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
		s->len = (uint32_t)be(s->hdr + SBX_STAGE_MAGIC_LEN + 1, 4);
		s->status = s->hdr[SBX_STAGE_MAGIC_LEN];
		/* the length is checked here, before any detail byte is
		 * copied into detail[SBX_DETAIL_MAX] */
		if (memcmp(s->hdr, SBX_STAGE_MAGIC, SBX_STAGE_MAGIC_LEN) != 0 ||
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
