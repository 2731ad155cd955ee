/* fuzz_b64url.c - base64url without padding (common/base/b64url.c) under
 * arbitrary bytes: the token and key texts that reach it. Invariants: a
 * text is accepted only when encoding what it decoded to gives the same
 * text back (one spelling per value, so no padding, no character outside
 * the alphabet, no stray trailing bits), the decoded length is the one
 * the encoded length implies, and a room one byte short refuses it;
 * every byte string encodes to B64URL_ENCODED_LEN characters that decode
 * back to it. */
#include <string.h>

#include "common/base/b64url.h"
#include "fuzz.h"

#define MAXIN 1024

static uint8_t out[MAXIN], raw[MAXIN];
static char text[MAXIN * 2];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long n, e;

	if (size > MAXIN)
		size = MAXIN;
	n = b64url_decode((const char *)data, size, out, sizeof out);
	if (n >= 0) {
		FUZZ_ASSERT((size_t)B64URL_ENCODED_LEN((size_t)n) == size);
		e = b64url_encode(out, (size_t)n, text, sizeof text);
		FUZZ_ASSERT(e == (long)size && memcmp(text, data, size) == 0);
		if (n > 0)
			FUZZ_ASSERT(b64url_decode((const char *)data, size, out,
			    (size_t)n - 1) == -1);
	}
	/* the other way: the input as bytes */
	e = b64url_encode(data, size, text, sizeof text);
	FUZZ_ASSERT(e == (long)B64URL_ENCODED_LEN(size));
	FUZZ_ASSERT(b64url_encode(data, size, text, (size_t)e) == -1);
	n = b64url_decode(text, (size_t)e, raw, sizeof raw);
	FUZZ_ASSERT(n == (long)size && memcmp(raw, data, size) == 0);
	return 0;
}
