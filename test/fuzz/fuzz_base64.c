/* fuzz_base64.c - arbitrary bytes through the strict base64 and hex
 * decoders, with a round-trip oracle. Invariants: a decoding that
 * passes re-encodes to its input exactly (base64: one spelling per
 * value) or to its input in lower case (hex); decoding in place gives
 * the same bytes; the room is exact (the decoded length passes, one byte
 * less is refused, nothing written past cap); a refusal names an offset
 * inside the input, or its end for the length and room; and the input
 * taken as bytes encodes to text each decoder gives back. */
#include <string.h>

#include "common/base/base64.h"
#include "fuzz.h"

#define IN_MAX 4096

static char text[BASE64_ENCODED_LEN(IN_MAX) + 1];
static uint8_t dec[IN_MAX + 1], place[IN_MAX];

static void
check_decoder(long (*decode)(const char *, size_t, uint8_t *, size_t,
    size_t *), long (*encode)(const uint8_t *, size_t, char *, size_t),
    const char *in, size_t n, int lower)
{
	size_t at;
	long r = decode(in, n, dec, IN_MAX, &at), r2;

	if (r < 0) {
		FUZZ_ASSERT(r >= TEXTDEC_PAD && at <= n);
		FUZZ_ASSERT((r == TEXTDEC_LENGTH || r == TEXTDEC_ROOM) ==
		    (at == n));
		return;
	}
	FUZZ_ASSERT((size_t)r <= n);
	FUZZ_ASSERT(encode(dec, (size_t)r, text, sizeof text) == (long)n);
	for (size_t i = 0; i < n; i++) {
		char c = in[i];

		if (lower && c >= 'A' && c <= 'F')
			c = (char)(c + 32);
		FUZZ_ASSERT(text[i] == c);
	}
	memcpy(place, in, n);
	r2 = decode((const char *)place, n, place, n, &at);
	FUZZ_ASSERT(r2 == r && memcmp(place, dec, (size_t)r) == 0);
	/* the room, exactly: the guard byte past cap stays untouched */
	dec[r] = 0xa5;
	FUZZ_ASSERT(decode(in, n, dec, (size_t)r, &at) == r && dec[r] == 0xa5);
	if (r > 0)
		FUZZ_ASSERT(decode(in, n, dec, (size_t)r - 1, &at) ==
		    TEXTDEC_ROOM);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t at;
	long n;

	if (size > IN_MAX)
		return 0;
	check_decoder(base64_decode, base64_encode, (const char *)data, size,
	    0);
	check_decoder(hex_decode, hex_encode, (const char *)data, size, 1);
	/* the other way: any bytes encode to text the decoders take back */
	n = base64_encode(data, size, text, sizeof text);
	FUZZ_ASSERT(n == (long)BASE64_ENCODED_LEN(size));
	FUZZ_ASSERT(base64_decode(text, (size_t)n, dec, IN_MAX, &at) ==
	    (long)size && memcmp(dec, data, size) == 0);
	if (size <= IN_MAX / 2) {
		n = hex_encode(data, size, text, sizeof text);
		FUZZ_ASSERT(n == (long)HEX_ENCODED_LEN(size));
		FUZZ_ASSERT(hex_decode(text, (size_t)n, dec, IN_MAX, &at) ==
		    (long)size && memcmp(dec, data, size) == 0);
	}
	return 0;
}
