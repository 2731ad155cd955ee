/* fuzz_procscan.c - a /proc/PID/status text under arbitrary bytes (the
 * kernel writes it, but Name: is whatever a process calls itself).
 * Invariants: the name is NUL-terminated within its buffer and holds no
 * newline; a parse never reads past the input. */
#include <string.h>

#include "common/base/procscan.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_owner o;

	if (procscan_status_parse((const char *)data, size, &o) == 0) {
		FUZZ_ASSERT(memchr(o.comm, '\0', sizeof o.comm) != NULL);
		FUZZ_ASSERT(strchr(o.comm, '\n') == NULL);
	}
	return 0;
}
