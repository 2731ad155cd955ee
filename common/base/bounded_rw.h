/* bounded_rw.h - a bounded reader over untrusted bytes, and its twin writer.
 * Every accessor checks the remaining length first (never off + n > len,
 * which can wrap) and returns -1 without moving when it does not fit. */
#ifndef AIRLOCK_BOUNDED_RW_H
#define AIRLOCK_BOUNDED_RW_H

#include <stddef.h>
#include <stdint.h>

struct rd {
	const uint8_t *p;
	size_t len, off;	/* invariant: off <= len */
};

static inline struct rd
rd_init(const void *p, size_t len)
{
	return (struct rd){ (const uint8_t *)p, len, 0 };
}

static inline size_t
rd_left(const struct rd *r)
{
	return r->len - r->off;
}

static inline int
rd_bytes(struct rd *r, size_t n, const uint8_t **out)
{
	if (n > r->len - r->off)
		return -1;
	*out = r->p + r->off;
	r->off += n;
	return 0;
}

static inline int
rd_u8(struct rd *r, uint8_t *v)
{
	const uint8_t *b;

	if (rd_bytes(r, 1, &b))
		return -1;
	*v = b[0];
	return 0;
}

static inline int
rd_u16(struct rd *r, uint16_t *v)
{
	const uint8_t *b;

	if (rd_bytes(r, 2, &b))
		return -1;
	*v = (uint16_t)((unsigned)b[0] << 8 | b[1]);
	return 0;
}

static inline int
rd_u32(struct rd *r, uint32_t *v)
{
	const uint8_t *b;

	if (rd_bytes(r, 4, &b))
		return -1;
	*v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	    (uint32_t)b[2] << 8 | b[3];
	return 0;
}

static inline int
rd_u64(struct rd *r, uint64_t *v)
{
	uint32_t hi, lo;

	if (rd_left(r) < 8 || rd_u32(r, &hi) || rd_u32(r, &lo))
		return -1;
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

/* A u16-length-prefixed string; the bytes are not NUL-terminated. */
static inline int
rd_str16(struct rd *r, const uint8_t **s, size_t *n)
{
	uint16_t len;
	size_t save = r->off;

	if (rd_u16(r, &len) || rd_bytes(r, len, s)) {
		r->off = save;
		return -1;
	}
	*n = len;
	return 0;
}

static inline int
rd_done(const struct rd *r)
{
	return r->off == r->len;
}

/* Writer: a failed put sets bad and every later put is a no-op, so an
 * encoder checks once at the end. */
struct wr {
	uint8_t *p;
	size_t cap, off;	/* invariant: off <= cap */
	int bad;
};

static inline struct wr
wr_init(void *p, size_t cap)
{
	return (struct wr){ (uint8_t *)p, cap, 0, 0 };
}

static inline void
wr_bytes(struct wr *w, const void *src, size_t n)
{
	if (w->bad || n > w->cap - w->off) {
		w->bad = 1;
		return;
	}
	for (size_t i = 0; i < n; i++)
		w->p[w->off + i] = ((const uint8_t *)src)[i];
	w->off += n;
}

static inline void
wr_u8(struct wr *w, uint8_t v)
{
	wr_bytes(w, &v, 1);
}

static inline void
wr_u16(struct wr *w, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	wr_bytes(w, b, 2);
}

static inline void
wr_u32(struct wr *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16),
		(uint8_t)(v >> 8), (uint8_t)v };

	wr_bytes(w, b, 4);
}

static inline void
wr_u64(struct wr *w, uint64_t v)
{
	wr_u32(w, (uint32_t)(v >> 32));
	wr_u32(w, (uint32_t)v);
}

static inline void
wr_str16(struct wr *w, const void *s, size_t n)
{
	if (n > UINT16_MAX) {
		w->bad = 1;
		return;
	}
	wr_u16(w, (uint16_t)n);
	wr_bytes(w, s, n);
}

#endif
