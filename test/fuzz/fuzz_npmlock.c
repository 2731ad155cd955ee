/* fuzz_npmlock.c - the npm lock check (common/lock/npmlock.c, on
 * common/lock/lockjson, whose own target is fuzz_lockjson) under
 * arbitrary bytes. Invariants: the lock check never accepts a lock
 * without the package's own entry (NAME at VERSION, at
 * node_modules/NAME), and every accepted package has a version and sits
 * under node_modules/; a refusal says why. */
#include <string.h>

#include "common/lock/npmlock.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct npm_spec spec = { "@s/a", "1.0.0", 3 };
	struct npm_lock l;
	char err[256];

	if (npm_lock_parse(data, size, &spec, &l, err, sizeof err) == 0) {
		const struct npm_pkg *top;

		FUZZ_ASSERT(l.npkg >= 1 && l.top < l.npkg && l.bin_len > 0);
		top = &l.pkg[l.top];
		FUZZ_ASSERT(top->name_len == 4 && memcmp(top->name, "@s/a",
		    4) == 0 && top->version_len == 5 && memcmp(top->version,
		    "1.0.0", 5) == 0);
		FUZZ_ASSERT(top->path_len == 17 && memcmp(top->path,
		    "node_modules/@s/a", 17) == 0);
		for (size_t i = 0; i < l.npkg; i++)
			FUZZ_ASSERT(l.pkg[i].version_len > 0 &&
			    memcmp(l.pkg[i].path, "node_modules/", 13) == 0);
		npm_lock_free(&l);
	} else {
		FUZZ_ASSERT(err[0] != '\0');
	}
	return 0;
}
