/* fuzz_decnum.c - canonical decimal numbers (common/base/decnum.c) under
 * arbitrary bytes: a uid table record, a line of passwd or group, a
 * /proc/sysvipc field. The first 8 bytes are the bound (little-endian),
 * the rest the text. Invariant: a number is accepted exactly when the
 * first line is "%llu" of a value no larger than the bound (one spelling
 * per number), and the value is that one; decnum_parse is the same with
 * the bound UINT32_MAX; a refusal leaves the output as it was. */
#include <stdio.h>
#include <string.h>

#include "common/base/decnum.h"
#include "fuzz.h"

/* The oracle, from the other side: print every candidate and compare. */
static int
canonical(const char *line, size_t n, uint64_t max, uint64_t *want)
{
	char again[24];
	uint64_t x = 0;

	if (n == 0 || n > 20)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (line[i] < '0' || line[i] > '9')
			return 0;
		/* 20 digits may pass 2^64: the printed form then differs */
		x = x * 10 + (uint64_t)(line[i] - '0');
	}
	snprintf(again, sizeof again, "%llu", (unsigned long long)x);
	if (strlen(again) != n || memcmp(again, line, n) != 0 || x > max)
		return 0;
	*want = x;
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data + 8;
	size_t len = size - 8, n;
	const char *nl;
	uint64_t max = 0, want = 0, got = 0x5a5a5a5a5a5a5a5aull;
	uint32_t got32 = 0xa5a5a5a5u;
	int ok;

	if (size < 8)
		return 0;
	for (int i = 7; i >= 0; i--)
		max = max << 8 | data[i];
	nl = memchr(text, '\n', len);
	n = nl ? (size_t)(nl - text) : len;
	ok = canonical(text, n, max, &want);
	if (decnum_parse_max(text, len, max, &got) == 0)
		FUZZ_ASSERT(ok && got == want);
	else
		FUZZ_ASSERT(!ok && got == 0x5a5a5a5a5a5a5a5aull);
	ok = canonical(text, n, UINT32_MAX, &want);
	if (decnum_parse(text, len, &got32) == 0)
		FUZZ_ASSERT(ok && got32 == want);
	else
		FUZZ_ASSERT(!ok && got32 == 0xa5a5a5a5u);
	return 0;
}
