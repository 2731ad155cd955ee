/* fuzz_idfile.c - passwd/group and subuid/subgid text under arbitrary
 * bytes. Invariants: a found id is within the range (a found subordinate
 * range shares an id with it) and its name NUL-terminated in the buffer;
 * the same bytes with a wider range find one too. */
#include <string.h>

#include "common/base/idfile.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char name[16];
	uint32_t id, start, count, first = 1, last = 100000;

	if (size >= 2) {
		first = (uint32_t)data[0] * 400u;
		last = first + (uint32_t)data[1] * 400u;
	}
	if (idfile_find_in_range((const char *)data, size, first, last, &id,
	    name, sizeof name)) {
		FUZZ_ASSERT(id >= first && id <= last);
		FUZZ_ASSERT(memchr(name, '\0', sizeof name) != NULL);
		FUZZ_ASSERT(idfile_find_in_range((const char *)data, size, 0,
		    UINT32_MAX, &id, name, sizeof name) == 1);
	}
	if (idfile_find_subid_overlap((const char *)data, size, first, last,
	    &start, &count, name, sizeof name)) {
		FUZZ_ASSERT(count > 0 && start <= last &&
		    (uint64_t)start + count - 1 >= first);
		FUZZ_ASSERT(memchr(name, '\0', sizeof name) != NULL);
		FUZZ_ASSERT(idfile_find_subid_overlap((const char *)data, size,
		    0, UINT32_MAX, &start, &count, name, sizeof name) == 1);
	}
	return 0;
}
