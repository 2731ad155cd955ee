/* chacha20.c - ChaCha20 (RFC 8439), four blocks at a time. */
#include "common/wire/chacha20.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/base/secmem.h"

/* Everything derived from the key lives here, in chacha20_xor's frame,
 * and is wiped once at its end: no key stream or state is left behind on
 * the stack, at no cost per block. */
struct work {
	uint32_t s[16];		/* the input block */
	uint32_t x[16];		/* one block's rounds */
	uint8_t ks[64];		/* one block's key stream */
#if defined(__SSE2__)
	__m128i in[16], v[16];	/* four blocks' input and rounds */
	__m128i row[4];		/* their key stream, 16 bytes a block */
#endif
};

/* RFC 8439's words are little-endian, unlike the wire format (bounded_rw.h). */
static uint32_t
load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* The 16-word input block of RFC 8439 section 2.3, counter cc. */
static void
init_state(uint32_t s[16], const void *key, const void *iv, uint32_t cc)
{
	const uint8_t *k = key, *n = iv;

	s[0] = 0x61707865;	/* "expand 32-byte k" */
	s[1] = 0x3320646e;
	s[2] = 0x79622d32;
	s[3] = 0x6b206574;
	for (int i = 0; i < 8; i++)
		s[4 + i] = load32(k + 4 * i);
	s[12] = cc;
	for (int i = 0; i < 3; i++)
		s[13 + i] = load32(n + 4 * i);
}

#define ROTL(v, c) (((v) << (c)) | ((v) >> (32 - (c))))
#define QR(a, b, c, d) do { \
	a += b; d ^= a; d = ROTL(d, 16); \
	c += d; b ^= c; b = ROTL(b, 12); \
	a += b; d ^= a; d = ROTL(d, 8); \
	c += d; b ^= c; b = ROTL(b, 7); \
} while (0)

/* ChaCha20's 20 rounds on the 16 words x[0..15] with quarter round Q
 * (scalar or four blocks at once): ten column-then-diagonal pairs. */
#define TWENTY_ROUNDS(Q, x) do { \
	for (int r_ = 0; r_ < 10; r_++) { \
		Q(x[0], x[4], x[8], x[12]); \
		Q(x[1], x[5], x[9], x[13]); \
		Q(x[2], x[6], x[10], x[14]); \
		Q(x[3], x[7], x[11], x[15]); \
		Q(x[0], x[5], x[10], x[15]); \
		Q(x[1], x[6], x[11], x[12]); \
		Q(x[2], x[7], x[8], x[13]); \
		Q(x[3], x[4], x[9], x[14]); \
	} \
} while (0)

/* One block: XOR up to 64 bytes of p with the key stream of w->s. */
static void
block_xor(struct work *w, uint8_t *p, size_t n)
{
	const uint32_t *s = w->s;
	uint32_t *x = w->x;
	uint8_t *ks = w->ks;

	memcpy(x, s, sizeof w->x);
	TWENTY_ROUNDS(QR, x);
	for (int i = 0; i < 16; i++) {
		uint32_t v = x[i] + s[i];

		ks[4 * i] = (uint8_t)v;
		ks[4 * i + 1] = (uint8_t)(v >> 8);
		ks[4 * i + 2] = (uint8_t)(v >> 16);
		ks[4 * i + 3] = (uint8_t)(v >> 24);
	}
	for (size_t i = 0; i < n; i++)
		p[i] ^= ks[i];
}

#if defined(__SSE2__)
/* Four blocks in parallel: v[i] holds word i of blocks cc..cc+3, one per
 * 32-bit lane, so a quarter round is 12 vector operations for all four.
 * SSE2 has no rotate: shift left, shift right, or. */
#define VROTL(v, c) _mm_or_si128(_mm_slli_epi32((v), (c)), \
	_mm_srli_epi32((v), 32 - (c)))
#define VQR(a, b, c, d) do { \
	a = _mm_add_epi32(a, b); d = _mm_xor_si128(d, a); d = VROTL(d, 16); \
	c = _mm_add_epi32(c, d); b = _mm_xor_si128(b, c); b = VROTL(b, 12); \
	a = _mm_add_epi32(a, b); d = _mm_xor_si128(d, a); d = VROTL(d, 8); \
	c = _mm_add_epi32(c, d); b = _mm_xor_si128(b, c); b = VROTL(b, 7); \
} while (0)

/* XOR 256 bytes at p with the key stream of blocks w->s[12] .. +3. */
static void
four_blocks_xor(struct work *w, uint8_t *p)
{
	__m128i *in = w->in, *v = w->v;

	for (int i = 0; i < 16; i++)
		in[i] = _mm_set1_epi32((int)w->s[i]);
	in[12] = _mm_add_epi32(in[12], _mm_set_epi32(3, 2, 1, 0));
	memcpy(v, in, sizeof w->v);
	TWENTY_ROUNDS(VQR, v);
	/* words 4g..4g+3 of the four blocks: a 4x4 transpose turns lanes
	 * into rows, row b being block b's bytes 16g..16g+15 */
	for (int g = 0; g < 4; g++) {
		__m128i a = _mm_add_epi32(v[4 * g], in[4 * g]);
		__m128i b = _mm_add_epi32(v[4 * g + 1], in[4 * g + 1]);
		__m128i c = _mm_add_epi32(v[4 * g + 2], in[4 * g + 2]);
		__m128i d = _mm_add_epi32(v[4 * g + 3], in[4 * g + 3]);
		__m128i ab0 = _mm_unpacklo_epi32(a, b);
		__m128i ab1 = _mm_unpackhi_epi32(a, b);
		__m128i cd0 = _mm_unpacklo_epi32(c, d);
		__m128i cd1 = _mm_unpackhi_epi32(c, d);
		__m128i *row = w->row;

		row[0] = _mm_unpacklo_epi64(ab0, cd0);
		row[1] = _mm_unpackhi_epi64(ab0, cd0);
		row[2] = _mm_unpacklo_epi64(ab1, cd1);
		row[3] = _mm_unpackhi_epi64(ab1, cd1);
		for (int blk = 0; blk < 4; blk++) {
			uint8_t *q = p + 64 * blk + 16 * g;
			__m128i x = _mm_loadu_si128((const __m128i *)q);

			_mm_storeu_si128((__m128i *)q,
			    _mm_xor_si128(x, row[blk]));
		}
	}
}
#endif

uint32_t
chacha20_xor(const void *key, const void *iv, uint32_t cc, void *data,
    size_t len)
{
	struct work w;
	uint8_t *p = data;
	uint32_t next;

	init_state(w.s, key, iv, cc);
#if defined(__SSE2__)
	for (; len >= 256; p += 256, len -= 256, w.s[12] += 4)
		four_blocks_xor(&w, p);
#endif
	for (; len > 0; w.s[12]++) {
		size_t n = len < 64 ? len : 64;

		block_xor(&w, p, n);
		p += n;
		len -= n;
	}
	next = w.s[12];
	secure_wipe(&w, sizeof w);
	return next;
}
