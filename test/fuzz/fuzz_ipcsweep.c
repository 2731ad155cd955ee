/* fuzz_ipcsweep.c - the /proc/sysvipc table parser under arbitrary bytes
 * (the first byte picks the table and the uid asked for). Invariants: a
 * table that parses counts at most one object per line, stores no more
 * than the cap, and every id it stores is one a line spells. */
#include <stdio.h>
#include <string.h>

#include "common/jail/ipcsweep.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int ids[8];
	size_t n, lines = 0;
	enum ipc_table t;
	uint32_t uid;

	if (size < 1)
		return 0;
	t = (enum ipc_table)(data[0] % 3);
	uid = data[0] & 0x80 ? 0 : 3900000007u;
	if (ipcsweep_parse((const char *)data + 1, size - 1, t, uid, ids, 8,
	    &n) != 0)
		return 0;
	for (size_t i = 1; i < size; i++)
		lines += data[i] == '\n';
	FUZZ_ASSERT(n <= lines + 1);
	for (size_t i = 0; i < n && i < 8; i++) {
		char text[16];
		int len = snprintf(text, sizeof text, "%d", ids[i]);

		FUZZ_ASSERT(ids[i] >= 0 && len > 0 && memmem(data + 1,
		    size - 1, text, (size_t)len) != NULL);
	}
	return 0;
}
