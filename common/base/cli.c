/* cli.c - strict parsing of durations, sizes and counts. */
#include "common/base/cli.h"

#include <string.h>

#include "common/base/xwrap.h"

/* Leading decimal digits of s into *v; returns the suffix, or NULL when
 * there is no digit or the number is past UINT64_MAX. The bound is the
 * digit's own: v * 10 + d fits exactly when v <= (UINT64_MAX - d) / 10
 * (with 9 for every digit, 18446744073709551610..615 were refused). */
static const char *
digits(const char *s, uint64_t *v)
{
	*v = 0;
	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++) {
		uint64_t d = (uint64_t)(*s - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return NULL;
		*v = *v * 10 + d;
	}
	return s;
}

int
cli_duration_ms(const char *s, uint64_t *ms)
{
	static const struct { const char *suffix; uint64_t ms; } units[] = {
		{ "ms", 1 }, { "", 1000 }, { "s", 1000 }, { "m", 60000 },
		{ "h", 3600000 }, { "d", 86400000 },
	};
	const uint64_t max = 10ull * 366 * 86400000;
	uint64_t v;
	const char *rest = digits(s, &v);

	if (!rest)
		return -1;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(rest, units[i].suffix) != 0)
			continue;
		if (v == 0 || v > max / units[i].ms)
			return -1;
		*ms = v * units[i].ms;
		return 0;
	}
	return -1;
}

int
cli_size_bytes(const char *s, uint64_t *bytes)
{
	static const char suffixes[] = "KMGT";
	uint64_t v, mult = 1;
	const char *rest = digits(s, &v);

	if (!rest || v == 0)
		return -1;
	if (*rest) {
		const char *u = strchr(suffixes, *rest);

		if (!u || rest[1] != '\0')
			return -1;
		for (const char *k = suffixes; k <= u; k++)
			mult *= 1024;
	}
	if (v > UINT64_MAX / mult)
		return -1;
	*bytes = v * mult;
	return 0;
}

int
cli_count(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;
	const char *rest = digits(s, &v);

	if (!rest || *rest || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
cli_uid_range(const char *s, uint32_t *first, uint32_t *last)
{
	uint64_t a, b;
	const char *rest = digits(s, &a);

	if (!rest || *rest != '-' || !(rest = digits(rest + 1, &b)) || *rest ||
	    a == 0 || b < a || b > CLI_UID_MAX)
		return -1;
	*first = (uint32_t)a;
	*last = (uint32_t)b;
	return 0;
}

int
cli_append(const char **list, size_t *n, size_t max, const char *value)
{
	if (*n >= max)
		return -1;
	list[(*n)++] = value;
	return 0;
}

void
xcli_append(const char **list, size_t *n, size_t max, const char *value,
    const char *flag)
{
	if (cli_append(list, n, max, value) != 0)
		die(EXIT_USAGE, "%s: given more than %zu times (the most it "
		    "takes)", flag, max);
}
