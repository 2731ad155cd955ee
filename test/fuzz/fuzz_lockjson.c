/* fuzz_lockjson.c - a lockfile's JSON (common/lock/lockjson.c, on
 * common/mcp/jsonparse) under arbitrary bytes: what a package-lock.json
 * or a package.json npm installed may hold. Invariants: an accepted
 * text's values lie inside it, each subtree ends after its head and
 * within the array, an object has two values a member below it, and no
 * key of an accepted text holds an escape; a refusal has a reason and
 * an offset inside the text. With room for only SMALL values the same
 * text is accepted exactly when it has at most SMALL, then value for
 * value the same, and refused whenever the full room refuses it (a limit
 * only adds refusals). lj_get finds every member of every object under
 * its key's bytes and nothing under a non-object; lj_plain takes exactly
 * the strings of printable ASCII without a backslash (never the root),
 * and lj_is agrees with it. */
#include <string.h>

#include "common/lock/lockjson.h"
#include "fuzz.h"

#define SMALL 16

static struct json_node tok[1 << 16], few[SMALL];
static uint32_t scratch[1 << 16], few_scratch[SMALL];

/* Value i as lj_plain should see it: a string (not the root) of
 * printable ASCII without '\\'. */
static int
plain(const uint8_t *data, size_t i)
{
	if (i == 0 || tok[i].type != JSON_STRING)
		return 0;
	for (uint32_t k = 0; k < tok[i].len; k++) {
		uint8_t c = data[tok[i].off + k];

		if (c < 0x20 || c > 0x7e || c == '\\')
			return 0;
	}
	return 1;
}

static void
check_values(const struct lj_doc *d, const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < d->j.n; i++) {
		const char *p;
		size_t n;
		int is_plain = plain(data, i);

		FUZZ_ASSERT(tok[i].off <= size &&
		    tok[i].len <= size - tok[i].off);
		FUZZ_ASSERT(tok[i].end > i && tok[i].end <= d->j.n);
		FUZZ_ASSERT((lj_plain(d, i, &p, &n) == 0) == is_plain);
		if (is_plain) {
			FUZZ_ASSERT(p == (const char *)data + tok[i].off &&
			    n == tok[i].len);
			FUZZ_ASSERT(lj_is(d, i, p, n));
			if (n > 0)
				FUZZ_ASSERT(!lj_is(d, i, p, n - 1));
		}
		if (tok[i].type != JSON_OBJECT) {
			/* never a member of what is not an object */
			if (tok[i].type == JSON_STRING)
				FUZZ_ASSERT(lj_get(d, i, (const char *)data +
				    tok[i].off, tok[i].len) == 0);
			continue;
		}
		FUZZ_ASSERT((tok[i].end - i - 1) >= 2 * tok[i].count);
		for (size_t k = i + 1, m = 0; m < tok[i].count; m++,
		    k = tok[k + 1].end) {
			FUZZ_ASSERT(tok[k].type == JSON_STRING &&
			    !memchr(data + tok[k].off, '\\', tok[k].len));
			/* no escape: the key's bytes are the key */
			FUZZ_ASSERT(lj_get(d, i, (const char *)data +
			    tok[k].off, tok[k].len) == k + 1);
		}
	}
	FUZZ_ASSERT(lj_get(d, d->j.n, "a", 1) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lj_doc d, s;
	const char *why, *why_s;
	size_t at, at_s;
	int full, small;

	full = lj_parse(&d, data, size, tok, scratch, sizeof tok / sizeof *tok,
	    &why, &at);
	small = lj_parse(&s, data, size, few, few_scratch, SMALL, &why_s,
	    &at_s);
	if (small == 0) {
		FUZZ_ASSERT(full == 0 && s.j.n == d.j.n && s.j.n <= SMALL);
		FUZZ_ASSERT(memcmp(few, tok, s.j.n * sizeof *few) == 0);
	} else {
		FUZZ_ASSERT(why_s != NULL && *why_s && at_s <= size);
		FUZZ_ASSERT(full != 0 || d.j.n > SMALL);
	}
	if (full != 0) {
		FUZZ_ASSERT(why != NULL && *why && at <= size);
		return 0;
	}
	FUZZ_ASSERT(d.j.n >= 1 && tok[0].end == d.j.n);
	check_values(&d, data, size);
	return 0;
}
