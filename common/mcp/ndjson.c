/* ndjson.c - newline-delimited lines from a stream, bounded. */
#include "common/mcp/ndjson.h"

#include <string.h>

void
ndjson_init(struct ndjson *f, uint8_t *buf, size_t cap)
{
	*f = (struct ndjson){ buf, cap, 0, 0, 0 };
}

enum ndjson_next
ndjson_take(struct ndjson *f, const uint8_t *p, size_t n, size_t *used,
    const uint8_t **line, size_t *len)
{
	const uint8_t *nl = n ? memchr(p, '\n', n) : NULL;
	size_t upto = nl ? (size_t)(nl - p) : n;	/* bytes of this line */

	*used = nl ? upto + 1 : n;
	if (f->skipping) {		/* the rest of a line too long */
		f->skipping = nl == NULL;
		return NDJSON_NEED;
	}
	if (upto > f->cap - f->len) {
		/* past cap: drop what is held, skip to the newline */
		f->len = 0;
		f->skipping = nl == NULL;
		f->lines++;
		return NDJSON_TOO_LONG;
	}
	if (!nl) {
		memcpy(f->buf + f->len, p, upto);
		f->len += upto;
		return NDJSON_NEED;
	}
	f->lines++;
	if (f->len == 0) {		/* whole in the input: no copy */
		*line = p;
		*len = upto;
		return NDJSON_LINE;
	}
	memcpy(f->buf + f->len, p, upto);
	*line = f->buf;
	*len = f->len + upto;
	f->len = 0;
	return NDJSON_LINE;
}
