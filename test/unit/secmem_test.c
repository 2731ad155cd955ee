/* secmem_test.c - constant-time compare and zero test answer, wipe zeroes. */
#include <string.h>

#include "common/base/secmem.h"
#include "tap.h"

int
main(void)
{
	unsigned char a[32], b[32], w[16];

	memset(a, 0x5a, sizeof a);
	memcpy(b, a, sizeof b);
	ok(ct_equal(a, b, sizeof a) == 1, "equal buffers compare equal");
	for (size_t i = 0; i < sizeof a; i += 31) {
		b[i] ^= 0x80;
		ok(ct_equal(a, b, sizeof a) == 0, "a flip at byte %zu differs", i);
		b[i] ^= 0x80;
	}
	ok(ct_equal(a, b, 0) == 1, "zero-length compare is equal");
	memset(b, 0, sizeof b);
	ok(ct_is_zero(b, sizeof b) == 1, "all zero bytes are zero");
	for (size_t i = 0; i < sizeof b; i += 31) {
		b[i] = 0x01;
		ok(ct_is_zero(b, sizeof b) == 0, "one set bit at byte %zu is not "
		    "zero", i);
		b[i] = 0;
	}
	ok(ct_is_zero(a, 0) == 1, "zero bytes are all zero");
	memset(w, 0xff, sizeof w);
	secure_wipe(w, sizeof w);
	ok(w[0] == 0 && w[15] == 0 && memcmp(w, w + 1, 15) == 0,
	    "wipe zeroes every byte");
	return tap_done();
}
