/* fuzz_idfile.c - passwd/group text under arbitrary bytes. Invariants: a
 * found id is within the range and its name NUL-terminated in the buffer;
 * the same bytes with a wider range find an id too. */
#include <string.h>

#include "common/base/idfile.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char name[16];
	uint32_t id, first = 1, last = 100000;

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
	return 0;
}
