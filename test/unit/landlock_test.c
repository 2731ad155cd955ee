/* landlock_test.c - which ABI a feature set needs, what an older kernel
 * lacks, and the names the jail report prints (no kernel involved). */
#include <string.h>

#include "common/jail/landlock.h"
#include "tap.h"

#define ALL (LANDLOCK_FEAT_FS | LANDLOCK_FEAT_TRUNCATE | LANDLOCK_FEAT_BIND | \
	LANDLOCK_FEAT_CONNECT | LANDLOCK_FEAT_SCOPE_SIGNAL | \
	LANDLOCK_FEAT_SCOPE_ABSTRACT)

static void
test_abi(void)
{
	static const struct {
		unsigned feat, abi;
	} need[] = {
		{ 0, 0 },
		{ LANDLOCK_FEAT_FS, 1 },
		{ LANDLOCK_FEAT_TRUNCATE, 3 },
		{ LANDLOCK_FEAT_BIND, 4 },
		{ LANDLOCK_FEAT_CONNECT, 4 },
		{ LANDLOCK_FEAT_SCOPE_SIGNAL, 6 },
		{ LANDLOCK_FEAT_SCOPE_ABSTRACT, 6 },
		{ LANDLOCK_FEAT_FS | LANDLOCK_FEAT_BIND, 4 },
		{ ALL, 6 },
	};

	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
		ok(landlock_abi_needed(need[i].feat) == need[i].abi,
		    "features %#x need ABI %u", need[i].feat, need[i].abi);
	/* what an older ABI lacks is exactly what needs a newer one */
	for (unsigned abi = 0; abi <= LANDLOCK_ABI_KNOWN; abi++) {
		unsigned miss = landlock_missing(ALL, abi), bad = 0;

		for (unsigned bit = 1; bit & ALL; bit <<= 1)
			if (!!(miss & bit) != (landlock_abi_needed(bit) > abi))
				bad |= bit;
		ok(bad == 0 && landlock_missing(0, abi) == 0,
		    "ABI %u lacks %#x", abi, miss);
	}
	ok(landlock_missing(ALL, 0) == ALL && landlock_missing(ALL, 6) == 0 &&
	    landlock_missing(LANDLOCK_FEAT_FS, 1) == 0,
	    "no Landlock lacks everything; ABI 6 nothing");
}

static void
test_names(void)
{
	char buf[256], small[24];

	ok(strcmp(landlock_feature_names(LANDLOCK_FEAT_SCOPE_SIGNAL, buf,
	    sizeof buf), "signal scoping (ABI 6)") == 0, "one name: %s", buf);
	ok(strcmp(landlock_feature_names(LANDLOCK_FEAT_TRUNCATE |
	    LANDLOCK_FEAT_BIND, buf, sizeof buf), "truncate control (ABI 3), "
	    "TCP bind denial (ABI 4)") == 0, "two, in ABI order: %s", buf);
	ok(strcmp(landlock_feature_names(0, buf, sizeof buf), "") == 0,
	    "none: empty");
	memset(small, 'x', sizeof small);
	landlock_feature_names(ALL, small, sizeof small);
	ok(memchr(small, '\0', sizeof small) != NULL,
	    "a short buffer stays terminated: '%s'", small);
	ok(landlock_feature_names(ALL, buf, 0) == buf, "no room: untouched");
}

int
main(void)
{
	test_abi();
	test_names();
	return tap_done();
}
