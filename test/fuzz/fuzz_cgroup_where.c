/* fuzz_cgroup_where.c - the cgroup location parsers over arbitrary
 * /proc/self/cgroup and mountinfo text (the kernel writes both, but a
 * mount point or a group's path is any name a user chose). The input's
 * first half is the cgroup text, its second mountinfo. Invariants: a result is NUL-terminated inside
 * its buffer, holds no newline and no NUL before its end, and is a
 * piece of the input (the own directory: mount point + path). */
#include <string.h>

#include "common/jail/cgroup_where.h"
#include "fuzz.h"

static const char *const ctls[] = { "memory", "pids", "cpu", NULL };

static int
from_input(const char *s, const uint8_t *data, size_t size)
{
	size_t n = strlen(s);

	return n == 0 || memmem(data, size, s, n) != NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t half = size / 2;
	const char *text = (const char *)data, *mi = text + half;
	size_t milen = size - half;
	char out[256], mnt[256], root[256], dir[600], real[64];
	struct cg_where w = { .mountinfo = (char *)mi, .mountinfo_len = milen,
		.cgroup = (char *)text, .cgroup_len = half };

	for (size_t i = 0; i < sizeof ctls / sizeof *ctls; i++) {
		if (cg_where_group(text, half, ctls[i], out, sizeof out) == 0) {
			FUZZ_ASSERT(strchr(out, '\n') == NULL);
			FUZZ_ASSERT(from_input(out, data, half));
		}
		if (cg_where_mount(mi, milen, ctls[i], mnt, sizeof mnt, root,
		    sizeof root) == 0) {
			FUZZ_ASSERT(strchr(mnt, '\n') == NULL &&
			    strchr(root, '\n') == NULL);
			FUZZ_ASSERT(from_input(mnt, data + half, milen) &&
			    from_input(root, data + half, milen));
		}
		if (cg_where_own_dir(&w, ctls[i], dir, sizeof dir) == 0)
			FUZZ_ASSERT(memchr(dir, '\0', sizeof dir) != NULL &&
			    strchr(dir, '\n') == NULL);
	}
	/* a directory named by the input's first bytes, as realpath gives */
	real[0] = '/';
	memcpy(real + 1, text, half < sizeof real - 2 ? half : sizeof real - 2);
	real[1 + (half < sizeof real - 2 ? half : sizeof real - 2)] = '\0';
	FUZZ_ASSERT(cg_where_outside_ns(mi, milen, real) <= 1);
	return 0;
}
