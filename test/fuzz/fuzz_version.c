/* fuzz_version.c - the versions hint under arbitrary bytes. Invariants: a
 * parsed mask holds only versions 1..VERSION_MAX and is not empty, and it
 * encodes back to exactly the input (one spelling per mask). */
#include <string.h>

#include "common/wire/version.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t again[VERSION_HINT_MAX];
	uint32_t mask;
	size_t n;

	if (version_hint_parse(data, size, &mask) != 0)
		return 0;
	FUZZ_ASSERT(mask != 0 && (mask & 1u) == 0);
	n = version_hint_encode(mask, again, sizeof again);
	FUZZ_ASSERT(n == size && memcmp(again, data, n) == 0);
	return 0;
}
