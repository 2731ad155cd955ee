/* fuzz_npmlock.c - the lockfile reader (common/lock/lockjson on
 * common/mcp/jsonparse, then npmlock) under arbitrary bytes. Invariants:
 * an accepted text's values lie inside it, each subtree ends after its
 * head and within the array, an object has two values a member below it,
 * and no key of an accepted text holds an escape;
 * the lock check never accepts a lock without the package's own entry,
 * and every accepted package has a version and sits under node_modules/. */
#include <string.h>

#include "common/lock/lockjson.h"
#include "common/lock/npmlock.h"
#include "fuzz.h"

static struct json_node tok[1 << 16];
static uint32_t scratch[1 << 16];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct npm_spec spec = { "@s/a", "1.0.0", 3 };
	struct npm_lock l;
	struct lj_doc d;
	const char *why;
	char err[256];
	size_t at;

	if (lj_parse(&d, data, size, tok, scratch, sizeof tok / sizeof *tok,
	    &why, &at) == 0) {
		FUZZ_ASSERT(d.j.n >= 1 && tok[0].end == d.j.n);
		for (size_t i = 0; i < d.j.n; i++) {
			FUZZ_ASSERT(tok[i].off <= size &&
			    tok[i].len <= size - tok[i].off);
			FUZZ_ASSERT(tok[i].end > i && tok[i].end <= d.j.n);
			if (tok[i].type != JSON_OBJECT)
				continue;
			FUZZ_ASSERT((tok[i].end - i - 1) >= 2 * tok[i].count);
			for (size_t k = i + 1, m = 0; m < tok[i].count; m++,
			    k = tok[k + 1].end)
				FUZZ_ASSERT(tok[k].type == JSON_STRING &&
				    !memchr(data + tok[k].off, '\\',
				    tok[k].len));
		}
	} else {
		FUZZ_ASSERT(why != NULL && at <= size);
	}
	if (npm_lock_parse(data, size, &spec, &l, err, sizeof err) == 0) {
		FUZZ_ASSERT(l.npkg >= 1 && l.top < l.npkg && l.bin_len > 0);
		for (size_t i = 0; i < l.npkg; i++)
			FUZZ_ASSERT(l.pkg[i].version_len > 0 &&
			    memcmp(l.pkg[i].path, "node_modules/", 13) == 0);
		npm_lock_free(&l);
	} else {
		FUZZ_ASSERT(err[0] != '\0');
	}
	return 0;
}
