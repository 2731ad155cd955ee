/* chacha20_test.c - common/chacha20 against RFC 8439's vectors (2.3.2 one
 * block, 2.4.2 the sunscreen text) and against BearSSL's portable
 * br_chacha20_ct_run byte for byte: every length 0..1100 (the four-block
 * path, the one-block tail and partial blocks), counters that wrap at
 * 2^32, chunked streams, and the returned counter. */
#include <bearssl.h>
#include <string.h>

#include "common/wire/chacha20.h"
#include "tap.h"

static const uint8_t rfc_key[32] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};

/* 2.3.2: the key stream of one block, counter 1 */
static const uint8_t block_iv[12] = {
	0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x4a, 0x00, 0x00, 0x00, 0x00,
};
static const uint8_t block_out[64] = {
	0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15,
	0x50, 0x0f, 0xdd, 0x1f, 0xa3, 0x20, 0x71, 0xc4,
	0xc7, 0xd1, 0xf4, 0xc7, 0x33, 0xc0, 0x68, 0x03,
	0x04, 0x22, 0xaa, 0x9a, 0xc3, 0xd4, 0x6c, 0x4e,
	0xd2, 0x82, 0x64, 0x46, 0x07, 0x9f, 0xaa, 0x09,
	0x14, 0xc2, 0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2,
	0xb5, 0x12, 0x9c, 0xd1, 0xde, 0x16, 0x4e, 0xb9,
	0xcb, 0xd0, 0x83, 0xe8, 0xa2, 0x50, 0x3c, 0x4e,
};

/* 2.4.2: 114 bytes of text, counter 1 */
static const uint8_t text_iv[12] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4a, 0x00, 0x00, 0x00, 0x00,
};
static const char text[] = "Ladies and Gentlemen of the class of '99: If I "
    "could offer you only one tip for the future, sunscreen would be it.";
static const uint8_t text_out[114] = {
	0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80,
	0x41, 0xba, 0x07, 0x28, 0xdd, 0x0d, 0x69, 0x81,
	0xe9, 0x7e, 0x7a, 0xec, 0x1d, 0x43, 0x60, 0xc2,
	0x0a, 0x27, 0xaf, 0xcc, 0xfd, 0x9f, 0xae, 0x0b,
	0xf9, 0x1b, 0x65, 0xc5, 0x52, 0x47, 0x33, 0xab,
	0x8f, 0x59, 0x3d, 0xab, 0xcd, 0x62, 0xb3, 0x57,
	0x16, 0x39, 0xd6, 0x24, 0xe6, 0x51, 0x52, 0xab,
	0x8f, 0x53, 0x0c, 0x35, 0x9f, 0x08, 0x61, 0xd8,
	0x07, 0xca, 0x0d, 0xbf, 0x50, 0x0d, 0x6a, 0x61,
	0x56, 0xa3, 0x8e, 0x08, 0x8a, 0x22, 0xb6, 0x5e,
	0x52, 0xbc, 0x51, 0x4d, 0x16, 0xcc, 0xf8, 0x06,
	0x81, 0x8c, 0xe9, 0x1a, 0xb7, 0x79, 0x37, 0x36,
	0x5a, 0xf9, 0x0b, 0xbf, 0x74, 0xa3, 0x5b, 0xe6,
	0xb4, 0x0b, 0x8e, 0xed, 0xf2, 0x78, 0x5e, 0x42,
	0x87, 0x4d,
};

/* A fixed pseudo-random filler (xorshift), so failures reproduce. */
static uint32_t seed = 0x2545f491;

static void
fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 17;
		seed ^= seed << 5;
		p[i] = (uint8_t)seed;
	}
}

static void
test_rfc(void)
{
	uint8_t buf[114];

	memset(buf, 0, 64);
	ok(chacha20_xor(rfc_key, block_iv, 1, buf, 64) == 2 &&
	    memcmp(buf, block_out, 64) == 0, "RFC 8439 2.3.2: one block of "
	    "key stream, counter 1 -> 2");
	memcpy(buf, text, sizeof buf);
	ok(chacha20_xor(rfc_key, text_iv, 1, buf, sizeof buf) == 3 &&
	    memcmp(buf, text_out, sizeof buf) == 0, "RFC 8439 2.4.2: the "
	    "114-byte text, a partial last block counted");
	ok(chacha20_xor(rfc_key, text_iv, 1, buf, sizeof buf) == 3 &&
	    memcmp(buf, text, sizeof buf) == 0, "XOR again gives the text "
	    "back");
}

/* ours and BearSSL's on the same key, iv, counter and bytes */
static int
same_as_bearssl(size_t len, uint32_t cc)
{
	static uint8_t a[1200], b[1200];
	uint8_t key[32], iv[12];
	uint32_t ra, rb;

	fill(key, sizeof key);
	fill(iv, sizeof iv);
	fill(a, len);
	memcpy(b, a, len);
	ra = chacha20_xor(key, iv, cc, a, len);
	rb = br_chacha20_ct_run(key, iv, cc, b, len);
	return ra == rb && memcmp(a, b, len) == 0;
}

static void
test_against_bearssl(void)
{
	static const uint32_t counters[] = { 0, 1, 0x7fffffff, 0xfffffffd,
		0xfffffffe, 0xffffffff };
	size_t bad = 0, first_bad = 0;

	for (size_t len = 0; len <= 1100; len++)
		if (!same_as_bearssl(len, 1) && bad++ == 0)
			first_bad = len;
	ok(bad == 0, "every length 0..1100 matches br_chacha20_ct_run, "
	    "returned counter included (%zu differ, first %zu)", bad,
	    first_bad);
	bad = 0;
	for (size_t i = 0; i < sizeof counters / sizeof *counters; i++)
		for (size_t len = 250; len <= 520; len += 15)
			bad += !same_as_bearssl(len, counters[i]);
	ok(bad == 0, "counters near 2^32 wrap inside the four-block path "
	    "as BearSSL's do (%zu differ)", bad);
}

static void
test_chunks(void)
{
	static uint8_t whole[4096], parts[4096];
	uint8_t key[32], iv[12];
	uint32_t cc = 1;
	size_t off = 0;
	static const size_t step[] = { 64, 256, 320, 1024, 192, 64, 128 };

	fill(key, sizeof key);
	fill(iv, sizeof iv);
	fill(whole, sizeof whole);
	memcpy(parts, whole, sizeof parts);
	(void)chacha20_xor(key, iv, 1, whole, sizeof whole);
	for (size_t i = 0; off < sizeof parts; i = (i + 1) % 7) {
		size_t n = sizeof parts - off < step[i] ? sizeof parts - off :
		    step[i];

		cc = chacha20_xor(key, iv, cc, parts + off, n);
		off += n;
	}
	ok(memcmp(whole, parts, sizeof whole) == 0 && cc == 1 + 4096 / 64,
	    "a stream in chunks of whole blocks equals it in one call");
}

int
main(void)
{
	test_rfc();
	test_against_bearssl();
	test_chunks();
	return tap_done();
}
