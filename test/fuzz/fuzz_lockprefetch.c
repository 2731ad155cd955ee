/* fuzz_lockprefetch.c - the --prefetch file's reader
 * (common/lock/lockprefetch) under arbitrary bytes. Invariants: each call
 * moves past at least one line and never past the end, so the walk ends;
 * a token lies inside the input, on one line, of token bytes with exactly
 * one '.', at most APPROVAL_TOKEN_MAX long; line numbers only grow. */
#include <string.h>

#include "common/lock/lockprefetch.h"
#include "common/policy/approval.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 0, line = 0, tl, dots;
	const char *tok;
	int rc;

	for (;;) {
		size_t before = off, lbefore = line;

		rc = lockprefetch_next(data, size, &off, &tok, &tl, &line);
		FUZZ_ASSERT(off <= size && line >= lbefore);
		if (rc == 0) {
			FUZZ_ASSERT(off == size);
			break;
		}
		FUZZ_ASSERT(off > before && line > lbefore);
		if (rc < 0)
			continue;
		FUZZ_ASSERT((const uint8_t *)tok >= data + before &&
		    (const uint8_t *)tok + tl <= data + off);
		FUZZ_ASSERT(tl > 0 && tl <= APPROVAL_TOKEN_MAX);
		FUZZ_ASSERT(memchr(tok, '\n', tl) == NULL);
		dots = 0;
		for (size_t i = 0; i < tl; i++)
			dots += tok[i] == '.';
		FUZZ_ASSERT(dots == 1);
	}
	return 0;
}
