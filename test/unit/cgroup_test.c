/* cgroup_test.c - the parsers of the kernel's cgroup text: "key N" lines
 * (memory.events, cpu.stat, pids.events) and cgroup.procs pid lists,
 * over explicit lengths (no NUL terminator needed). */
#include <string.h>

#include "common/jail/cgroup.h"
#include "tap.h"

static int
key(const char *text, const char *k, uint64_t *v)
{
	return cgroup_parse_key(text, strlen(text), k, v);
}

static void
test_key(void)
{
	const char *ev = "low 0\nhigh 0\nmax 3\noom 1\noom_kill 2\n";
	const char *cpu = "usage_usec 123456\nuser_usec 1\nsystem_usec 2\n";
	uint64_t v = 0;

	ok(key(ev, "oom_kill", &v) == 0 && v == 2, "memory.events oom_kill");
	ok(key(ev, "max", &v) == 0 && v == 3, "max, not a prefix of it");
	ok(key(ev, "oom", &v) == 0 && v == 1, "oom, not oom_kill");
	ok(key(cpu, "usage_usec", &v) == 0 && v == 123456, "cpu.stat");
	ok(key(ev, "nope", &v) == -1, "a missing key is -1");
	ok(key("", "max", &v) == -1, "empty text is -1");
	ok(key("max", "max", &v) == -1, "a key with no value is -1");
	ok(key("\n\nmax 9", "max", &v) == 0 && v == 9,
	    "empty lines are skipped; the last line needs no newline");
	ok(key("max 18446744073709551615\n", "max", &v) == 0 &&
	    v == UINT64_MAX, "UINT64_MAX");
	ok(key("max 99999999999999999999\n", "max", &v) == 0 &&
	    v == UINT64_MAX, "overflow saturates");
	ok(key("max x\n", "max", &v) == 0 && v == 0, "no digits is 0");
	ok(key("max 5\nmax 6\n", "max", &v) == 0 && v == 5,
	    "the first line wins");
	/* explicit length: the value is cut where len says */
	ok(cgroup_parse_key("max 123", 6, "max", &v) == 0 && v == 12,
	    "the length bounds the number");
	ok(cgroup_parse_key("max 7\0oom_kill 1", 16, "oom_kill", &v) == -1,
	    "a NUL ends the text");
}

static void
test_pids(void)
{
	pid_t p[8];
	const char *s;

	s = "1\n42\n1234\n";
	ok(cgroup_parse_pids(s, strlen(s), p, 8) == 3 && p[0] == 1 &&
	    p[1] == 42 && p[2] == 1234, "three pids");
	ok(cgroup_parse_pids(s, strlen(s), p, 2) == 2 && p[1] == 42,
	    "at most cap");
	ok(cgroup_parse_pids("", 0, p, 8) == 0, "empty");
	s = "0 -3 7\n";
	ok(cgroup_parse_pids(s, strlen(s), p, 8) == 1 && p[0] == 7,
	    "0 and negatives are skipped");
	s = "4294967295\n2147483648\n2147483647\n";
	ok(cgroup_parse_pids(s, strlen(s), p, 8) == 1 &&
	    p[0] == 2147483647, "numbers over pid_t's range are skipped, "
	    "never cast to -1");
	s = "5 6x 7";
	ok(cgroup_parse_pids(s, strlen(s), p, 8) == 2 && p[1] == 6,
	    "parsing stops at the first non-number");
	ok(cgroup_parse_pids("12345", 3, p, 8) == 1 && p[0] == 123,
	    "the length bounds the last number");
}

int
main(void)
{
	test_key();
	test_pids();
	return tap_done();
}
