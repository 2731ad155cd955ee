/* chacha20_test.c - common/chacha20 against RFC 8439's vectors (2.3.2 one
 * block, 2.4.2 the sunscreen text) and against BearSSL's portable
 * br_chacha20_ct_run byte for byte: every length 0..1100 (the four-block
 * path, the one-block tail and partial blocks), counters that wrap at
 * 2^32, chunked streams, and the returned counter. */
#include <bearssl.h>
#include <string.h>

#include "common/wire/chacha20.h"
#include "tap.h"

static const char text[] = "Ladies and Gentlemen of the class of '99: If I "
    "could offer you only one tip for the future, sunscreen would be it.";

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

/* RFC 8439's vectors: 2.3.2, the key stream of one block (counter 1);
 * 2.4.2, 114 bytes of text (counter 1) */
static void
test_rfc(void)
{
	uint8_t key[32], block_iv[12], block_out[64], text_iv[12];
	uint8_t text_out[114], buf[114];

	ok(tap_unhex(key, 32, "000102030405060708090a0b0c0d0e0f"
	    "101112131415161718191a1b1c1d1e1f") == 0 &&
	    tap_unhex(block_iv, 12, "000000090000004a00000000") == 0 &&
	    tap_unhex(block_out, 64, "10f1e7e4d13b5915500fdd1fa32071c4"
	    "c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2"
	    "b5129cd1de164eb9cbd083e8a2503c4e") == 0 &&
	    tap_unhex(text_iv, 12, "000000000000004a00000000") == 0 &&
	    tap_unhex(text_out, 114, "6e2e359a2568f98041ba0728dd0d6981"
	    "e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593dabcd62b357"
	    "1639d624e65152ab8f530c359f0861d807ca0dbf500d6a6156a38e088a22b65e"
	    "52bc514d16ccf806818ce91ab77937365af90bbf74a35be6b40b8eedf2785e42"
	    "874d") == 0, "the RFC's vectors decode");
	memset(buf, 0, 64);
	ok(chacha20_xor(key, block_iv, 1, buf, 64) == 2 &&
	    memcmp(buf, block_out, 64) == 0, "RFC 8439 2.3.2: one block of "
	    "key stream, counter 1 -> 2");
	memcpy(buf, text, sizeof buf);
	ok(chacha20_xor(key, text_iv, 1, buf, sizeof buf) == 3 &&
	    memcmp(buf, text_out, sizeof buf) == 0, "RFC 8439 2.4.2: the "
	    "114-byte text, a partial last block counted");
	ok(chacha20_xor(key, text_iv, 1, buf, sizeof buf) == 3 &&
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
