/* fuzz_envlist.c - the relay's forwarding list over arbitrary bytes.
 * Invariants: a refusal says why in printable text; an accepted list holds
 * only valid, distinct, non-AIRLOCK_ names that rejoin to the input. */
#include <string.h>

#include "common/base/envlist.h"
#include "fuzz.h"

static struct envlist l;

static int
name_ok(const char *k)
{
	size_t n = strlen(k);

	if (n == 0 || n > ENV_KEY_MAX || (k[0] >= '0' && k[0] <= '9') ||
	    (n >= 8 && memcmp(k, "AIRLOCK_", 8) == 0))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(k[i] == '_' || (k[i] >= 'A' && k[i] <= 'Z') ||
		    (k[i] >= 'a' && k[i] <= 'z') || (k[i] >= '0' && k[i] <= '9')))
			return 0;
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char joined[ENVLIST_MAX * (ENV_KEY_MAX + 1) + 1];
	char err[256];
	size_t off = 0;

	memset(&l, 0, sizeof l);
	err[0] = '\0';
	if (envlist_parse(&l, (const char *)data, size, err, sizeof err) != 0) {
		size_t n = strnlen(err, sizeof err);

		FUZZ_ASSERT(n > 0 && n < sizeof err);
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(err[i] >= 0x20 && err[i] < 0x7f);
		return 0;
	}
	FUZZ_ASSERT(l.n <= ENVLIST_MAX);
	for (size_t i = 0; i < l.n; i++) {
		size_t n = strlen(l.key[i]);

		FUZZ_ASSERT(name_ok(l.key[i]));
		for (size_t j = 0; j < i; j++)
			FUZZ_ASSERT(strcmp(l.key[i], l.key[j]) != 0);
		if (i)
			joined[off++] = ',';
		memcpy(joined + off, l.key[i], n);
		off += n;
	}
	FUZZ_ASSERT(off == size && memcmp(joined, data, size) == 0);
	return 0;
}
