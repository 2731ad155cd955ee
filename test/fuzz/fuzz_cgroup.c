/* fuzz_cgroup.c - the cgroup text parsers (cgroup_parse_key over
 * memory.events, cpu.stat, pids.events; cgroup_parse_pids over
 * cgroup.procs) under arbitrary bytes, without a NUL terminator.
 * Invariants: the pid count is <= cap and every pid is 1..INT_MAX; and
 * both agree with the strtoull/strtol readers they replaced, run on a
 * NUL-terminated copy (with pids outside pid_t's range skipped, which
 * the old cast did not do). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/jail/cgroup.h"
#include "fuzz.h"

#define BUF 16384

static char copy[BUF + 1];
static pid_t got[64], want[64];

static int
old_key(char *buf, const char *key, uint64_t *v)
{
	size_t klen = strlen(key);

	for (char *line = buf; line && *line; ) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (strncmp(line, key, klen) == 0 && line[klen] == ' ') {
			*v = strtoull(line + klen + 1, NULL, 10);
			return 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return -1;
}

static size_t
old_pids(char *buf, pid_t *out, size_t cap)
{
	size_t n = 0;

	for (char *p = buf, *end; *p && n < cap; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0 && pid <= INT_MAX)
			out[n++] = (pid_t)pid;
	}
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *keys[] = { "oom_kill", "usage_usec", "max", "" };
	const char *buf = (const char *)data;
	size_t cap, n, m;

	if (size > BUF)
		return 0;
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		uint64_t v = 1, w = 2;
		int r;

		memcpy(copy, data, size);
		copy[size] = '\0';
		r = cgroup_parse_key(buf, size, keys[k], &v);
		FUZZ_ASSERT(r == old_key(copy, keys[k], &w));
		FUZZ_ASSERT(r != 0 || v == w);
	}
	cap = size > 0 ? data[0] % 65 : 0;
	n = cgroup_parse_pids(buf, size, got, cap);
	FUZZ_ASSERT(n <= cap);
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT(got[i] >= 1);
	memcpy(copy, data, size);
	copy[size] = '\0';
	m = old_pids(copy, want, cap);
	FUZZ_ASSERT(n == m && memcmp(got, want, n * sizeof *got) == 0);
	return 0;
}
