/* fuzz_revfloor.c - revfloor_parse under arbitrary bytes. Invariants: on
 * success the bytes are exactly what revfloor_write would write for the
 * serial and digest parsed (one spelling per value); on failure *why is
 * set. */
#include <stdio.h>
#include <string.h>

#include "common/policy/revfloor.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t digest[REVFLOOR_DIGEST_LEN];
	char text[REVFLOOR_FILE_MAX + 1];
	const char *why = NULL;
	uint64_t serial;
	int n;

	if (revfloor_parse(data, size, &serial, digest, &why) != 0) {
		FUZZ_ASSERT(why != NULL);
		return 0;
	}
	n = snprintf(text, sizeof text, "airlock-revocation-floor 1\n"
	    "serial %llu\nsha256 ", (unsigned long long)serial);
	for (size_t i = 0; i < REVFLOOR_DIGEST_LEN; i++)
		n += snprintf(text + n, sizeof text - (size_t)n, "%02x",
		    digest[i]);
	text[n++] = '\n';
	FUZZ_ASSERT((size_t)n == size && memcmp(text, data, size) == 0);
	return 0;
}
