/* fuzz_npmlock.c - the lockfile reader (common/lock/lockjson, then
 * npmlock) under arbitrary bytes. Invariants:
 * an accepted text's tokens lie inside it, each subtree ends after its
 * head and within the array, an object has an even token count below it;
 * the lock check never accepts a lock without the package's own entry,
 * and every accepted package has a version and sits under node_modules/. */
#include <string.h>

#include "common/lock/lockjson.h"
#include "common/lock/npmlock.h"
#include "fuzz.h"

static struct lj_tok tok[1 << 16];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct npm_spec spec = { "@s/a", "1.0.0", 3 };
	struct npm_lock l;
	struct lj_doc d;
	const char *why;
	char err[256];
	size_t at;

	if (lj_parse(&d, data, size, tok, sizeof tok / sizeof *tok, &why,
	    &at) == 0) {
		FUZZ_ASSERT(d.n >= 1 && tok[0].next == d.n);
		for (size_t i = 0; i < d.n; i++) {
			FUZZ_ASSERT(tok[i].start <= size &&
			    tok[i].len <= size - tok[i].start);
			FUZZ_ASSERT(tok[i].next > i && tok[i].next <= d.n);
			if (tok[i].type == LJ_OBJECT)
				FUZZ_ASSERT((tok[i].next - i - 1) >=
				    2 * tok[i].count);
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
