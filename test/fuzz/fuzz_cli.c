/* fuzz_cli.c - the command-line value parsers (common/base/cli.c) under
 * any text: durations, sizes, counts, uid ranges, and a repeatable
 * option's cap. Bytes 0-7 and 8-15 are a count's min and max
 * (little-endian), byte 16 a list's cap, the rest the text (up to a NUL,
 * as argv has it). Each parser is checked against a model that reads the
 * number exactly (128 bits, so a value past 2^64 is known as such):
 *   - a duration is accepted exactly when it is digits then one of ms,
 *     "", s, m, h, d, its value 1..10 years (3660 days) in ms, and gives
 *     that value; a size exactly when it is digits then nothing or one of
 *     K M G T (powers of 1024), its value 1..UINT64_MAX bytes; a count
 *     exactly when it is digits only and in [min, max]; a uid range
 *     exactly when it is digits '-' digits with 0 < first <= last <=
 *     CLI_UID_MAX;
 *   - a refusal leaves the output as it was;
 *   - what is accepted, printed again (in each unit that divides it), is
 *     accepted as the same value;
 *   - a list of cap n takes n values in order, then refuses, untouched.
 * Never UB (UBSan aborts). */
#include <stdio.h>
#include <string.h>

#include "common/base/cli.h"
#include "fuzz.h"

typedef unsigned __int128 u128;

#define SENTINEL 0x5a5a5a5a5a5a5a5aull
#define TEN_YEARS_MS (10ull * 366 * 86400000)

/* The model's number: the leading digits of s, exactly (saturated just
 * past 2^64, which is all the parsers need to know). NULL when s does
 * not start with a digit; else the rest. */
static const char *
model_digits(const char *s, u128 *v)
{
	const u128 past = (u128)UINT64_MAX + 1;

	*v = 0;
	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++) {
		*v = *v * 10 + (u128)(*s - '0');
		if (*v > past)
			*v = past;
	}
	return s;
}

static void
check_duration(const char *s)
{
	static const struct { const char *suffix; uint64_t ms; } units[] = {
		{ "ms", 1 }, { "", 1000 }, { "s", 1000 }, { "m", 60000 },
		{ "h", 3600000 }, { "d", 86400000 },
	};
	uint64_t ms = SENTINEL, again;
	u128 v, want = 0;
	const char *rest = model_digits(s, &v);
	int ok = 0, rc = cli_duration_ms(s, &ms);
	char buf[32];

	for (size_t i = 0; rest && i < sizeof units / sizeof *units; i++)
		if (strcmp(rest, units[i].suffix) == 0) {
			want = v * units[i].ms;
			ok = v > 0 && want <= TEN_YEARS_MS;
		}
	if (!ok) {
		FUZZ_ASSERT(rc == -1 && ms == SENTINEL);
		return;
	}
	FUZZ_ASSERT(rc == 0 && ms == want && ms >= 1 && ms <= TEN_YEARS_MS);
	for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
		if (ms % units[i].ms != 0)
			continue;
		snprintf(buf, sizeof buf, "%llu%s",
		    (unsigned long long)(ms / units[i].ms), units[i].suffix);
		again = SENTINEL;
		FUZZ_ASSERT(cli_duration_ms(buf, &again) == 0 && again == ms);
	}
}

static void
check_size(const char *s)
{
	static const char units[] = "KMGT";
	uint64_t bytes = SENTINEL, again, mult = 1;
	u128 v;
	const char *rest = model_digits(s, &v), *u;
	int ok = 0, rc = cli_size_bytes(s, &bytes);
	char buf[32];

	if (rest && *rest == '\0')
		ok = 1;
	else if (rest && rest[1] == '\0' && (u = memchr(units, *rest, 4))) {
		mult = 1ull << (10 * (u - units + 1));
		ok = 1;
	}
	ok = ok && v > 0 && v * mult <= UINT64_MAX;
	if (!ok) {
		FUZZ_ASSERT(rc == -1 && bytes == SENTINEL);
		return;
	}
	FUZZ_ASSERT(rc == 0 && bytes == v * mult && bytes > 0);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)bytes);
	again = SENTINEL;
	FUZZ_ASSERT(cli_size_bytes(buf, &again) == 0 && again == bytes);
	for (int k = 0; k < 4; k++) {
		uint64_t m = 1ull << (10 * (k + 1));

		if (bytes % m != 0)
			continue;
		snprintf(buf, sizeof buf, "%llu%c",
		    (unsigned long long)(bytes / m), units[k]);
		again = SENTINEL;
		FUZZ_ASSERT(cli_size_bytes(buf, &again) == 0 && again == bytes);
	}
}

static void
check_count(const char *s, uint64_t min, uint64_t max)
{
	uint64_t n = SENTINEL, again = SENTINEL;
	u128 v;
	const char *rest = model_digits(s, &v);
	int ok = rest && *rest == '\0' && v >= min && v <= max;
	int rc = cli_count(s, min, max, &n);
	char buf[24];

	if (!ok) {
		FUZZ_ASSERT(rc == -1 && n == SENTINEL);
		return;
	}
	FUZZ_ASSERT(rc == 0 && n == v && n >= min && n <= max);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)n);
	FUZZ_ASSERT(cli_count(buf, min, max, &again) == 0 && again == n);
}

static void
check_uid_range(const char *s)
{
	uint32_t first = 0xa5a5a5a5u, last = 0xa5a5a5a5u, f2, l2;
	u128 a, b = 0;
	const char *rest = model_digits(s, &a);
	int ok, rc = cli_uid_range(s, &first, &last);
	char buf[32];

	ok = rest && *rest == '-' && (rest = model_digits(rest + 1, &b)) &&
	    *rest == '\0' && a > 0 && a <= b && b <= CLI_UID_MAX;
	if (!ok) {
		FUZZ_ASSERT(rc == -1 && first == 0xa5a5a5a5u &&
		    last == 0xa5a5a5a5u);
		return;
	}
	FUZZ_ASSERT(rc == 0 && first == a && last == b);
	snprintf(buf, sizeof buf, "%u-%u", first, last);
	FUZZ_ASSERT(cli_uid_range(buf, &f2, &l2) == 0 && f2 == first &&
	    l2 == last);
}

/* cap values offered, in order, to a list of cap max (max <= 8). */
static void
check_append(const char *s, size_t max, size_t offered)
{
	const char *list[8] = { NULL };
	size_t n = 0;

	for (size_t i = 0; i < offered; i++) {
		int rc = cli_append(list, &n, max, s + i);

		FUZZ_ASSERT(rc == (i < max ? 0 : -1));
		FUZZ_ASSERT(n == (i < max ? i + 1 : max));
	}
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT(list[i] == s + i);
	for (size_t i = n; i < 8; i++)
		FUZZ_ASSERT(list[i] == NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t min = 0, max = 0;
	const char *end;
	char *s;
	size_t n;

	if (size < 17)
		return 0;
	for (int i = 7; i >= 0; i--) {
		min = min << 8 | data[i];
		max = max << 8 | data[8 + i];
	}
	/* argv's strings: the text up to its first NUL */
	end = memchr(data + 17, '\0', size - 17);
	n = end ? (size_t)(end - (const char *)data - 17) : size - 17;
	if (!(s = malloc(n + 9)))
		return 0;
	memcpy(s, data + 17, n);
	memset(s + n, '\0', 9);	/* s + i below stays a string, i < 8 */
	check_duration(s);
	check_size(s);
	check_count(s, min, max);
	/* the bounds most callers pass: the stated maxima hold */
	check_count(s, 1, 100000);
	check_count(s, 0, UINT64_MAX);
	check_uid_range(s);
	check_append(s, data[16] % 9, (data[16] >> 4) % 9);
	free(s);
	return 0;
}
