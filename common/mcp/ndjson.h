/* ndjson.h - newline-delimited messages (MCP's stdio framing: one JSON-RPC
 * message a line, no newline inside one) cut from a byte stream, with a
 * maximum line length. Pure: no I/O, no allocation; the caller owns the
 * buffer of max bytes.
 *
 * A line longer than max is never held whole: ndjson_take reports it as
 * NDJSON_TOO_LONG once, then skips its bytes up to and including its
 * newline, so a hostile writer can make the framer neither grow nor
 * stall. */
#ifndef AIRLOCK_NDJSON_H
#define AIRLOCK_NDJSON_H

#include <stddef.h>
#include <stdint.h>

struct ndjson {
	uint8_t *buf;		/* cap bytes, the caller's */
	size_t cap, len;	/* a partial line so far: buf[0..len) */
	int skipping;		/* inside a line already reported too long */
	uint64_t lines;		/* lines reported (TOO_LONG included) */
};

enum ndjson_next {
	NDJSON_NEED,		/* all input taken; no whole line yet */
	NDJSON_LINE,		/* *line, *len: one line, newline excluded */
	NDJSON_TOO_LONG		/* a line passed cap bytes (reported once) */
};

/* A framer over buf[0..cap). */
void ndjson_init(struct ndjson *f, uint8_t *buf, size_t cap);

/* Take input from p[0..n), *used bytes of it: on NDJSON_LINE the line is
 * in *line (valid until the next call: it points into p or into the
 * buffer); call again with the rest (p + *used). The line's bytes end
 * before its '\n'; a '\r' before it stays (JSON whitespace). */
enum ndjson_next ndjson_take(struct ndjson *f, const uint8_t *p, size_t n,
    size_t *used, const uint8_t **line, size_t *len);

/* Bytes held of a partial line (0 between lines). */
static inline size_t
ndjson_pending(const struct ndjson *f)
{
	return f->len;
}

#endif
