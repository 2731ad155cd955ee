/* fuzz_sbx_stage.c - the Java stage record decoder under hostile bytes
 * from the jail's stdout, fed in splits the input chooses: the first
 * byte seeds the split sizes. Invariants: used <= n; a finished record
 * has len <= SBX_DETAIL_MAX and a known status; BAD and DONE are sticky;
 * the verdict does not depend on the split (same as one whole feed). */
#include <string.h>

#include "common/sandbox/sbx_stage.h"
#include "fuzz.h"

static struct sbx_stage one, split;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum sbx_stage_rc rc1, rc = SBX_STAGE_NEED;
	size_t used1, used, off = 1, total = 0;
	unsigned seed;

	if (size < 1)
		return 0;
	seed = data[0];
	sbx_stage_init(&one);
	rc1 = sbx_stage_feed(&one, data + 1, size - 1, &used1);
	FUZZ_ASSERT(used1 <= size - 1);
	if (rc1 == SBX_STAGE_NEED)
		FUZZ_ASSERT(used1 == size - 1);
	if (rc1 == SBX_STAGE_DONE) {
		FUZZ_ASSERT(one.len <= SBX_DETAIL_MAX);
		FUZZ_ASSERT(one.status <= SBX_STAGE_ERROR);
		FUZZ_ASSERT(used1 == SBX_STAGE_HEADER_LEN + one.len);
	}

	sbx_stage_init(&split);
	while (off <= size) {
		size_t n = size - off, step = (seed % 7) + 1;

		seed = seed * 1103515245u + 12345u;
		n = n < step ? n : step;
		rc = sbx_stage_feed(&split, data + off, n, &used);
		FUZZ_ASSERT(used <= n);
		total += used;
		if (rc != SBX_STAGE_NEED) {
			enum sbx_stage_rc again;
			size_t u2;

			/* sticky: later bytes never change the verdict */
			again = sbx_stage_feed(&split, data + off, n, &u2);
			FUZZ_ASSERT(again == rc && u2 == 0);
			break;
		}
		FUZZ_ASSERT(used == n);
		if (off == size)
			break;
		off += n;
	}
	FUZZ_ASSERT(rc == rc1);
	if (rc == SBX_STAGE_DONE) {
		FUZZ_ASSERT(total == used1);
		FUZZ_ASSERT(split.len == one.len && split.status == one.status);
		FUZZ_ASSERT(memcmp(split.detail, one.detail, one.len) == 0);
	}
	return 0;
}
