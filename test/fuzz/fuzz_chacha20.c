/* fuzz_chacha20.c - common/chacha20 against BearSSL's portable ChaCha20
 * on arbitrary keys, nonces, counters and lengths. Input: 32 bytes of
 * key, 12 of nonce, 4 of counter (little-endian), then the data.
 * Invariant: the same bytes and the same returned counter. */
#include <bearssl.h>
#include <string.h>

#include "common/wire/chacha20.h"
#include "fuzz.h"

static uint8_t a[70000], b[70000];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len;
	uint32_t cc;

	if (size < 48 || size - 48 > sizeof a)
		return 0;
	len = size - 48;
	cc = (uint32_t)data[44] | (uint32_t)data[45] << 8 |
	    (uint32_t)data[46] << 16 | (uint32_t)data[47] << 24;
	memcpy(a, data + 48, len);
	memcpy(b, data + 48, len);
	FUZZ_ASSERT(chacha20_xor(data, data + 32, cc, a, len) ==
	    br_chacha20_ct_run(data, data + 32, cc, b, len));
	FUZZ_ASSERT(memcmp(a, b, len) == 0);
	return 0;
}
