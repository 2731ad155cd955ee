/* jail_creds_test.c - jail_caps_effective is this process's effective
 * set as capget(2) and /proc/self/status report it: as it starts, in a
 * child whose many supplementary groups push CapEff past the first
 * 4 KiB of status, and in a child that dropped a capability. */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/fileio.h"
#include "common/jail/jail_creds.h"
#include "tap.h"

/* more groups than 4 KiB of "Groups:" holds (gids of 7 digits) */
#define MANY_GROUPS 1024

/* What the three sources say: jail_caps_effective, capget(2), and the
 * CapEff line of all of /proc/self/status (UINT64_MAX when missing). */
struct eff {
	uint64_t fn, capget, status;
	size_t status_len;
};

static void
eff_read(struct eff *e)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	char *buf, *p;
	size_t len;

	e->fn = jail_caps_effective();
	e->capget = syscall(SYS_capget, &h, d) == 0 ?
	    (uint64_t)d[1].effective << 32 | d[0].effective : UINT64_MAX;
	e->status = UINT64_MAX;
	e->status_len = 0;
	if (file_read_kernel("/proc/self/status", 1u << 20, &buf, &len) != 0)
		return;
	if ((p = strstr(buf, "\nCapEff:\t"))) {
		e->status = strtoull(p + 9, NULL, 16);
		e->status_len = (size_t)(p - buf);
	}
	free(buf);
}

/* eff_read in a child after change (0, or -1 when it could not be made):
 * the child's answer, or -1. */
static int
eff_in_child(int (*change)(void), struct eff *e)
{
	int fd[2], status;
	pid_t pid;
	ssize_t n;

	if (pipe(fd) != 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		close(fd[0]);
		if (change() != 0)
			_exit(1);
		eff_read(e);
		_exit(write(fd[1], e, sizeof *e) == (ssize_t)sizeof *e ? 0 : 1);
	}
	close(fd[1]);
	n = read(fd[0], e, sizeof *e);
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid || status != 0 ||
	    n != (ssize_t)sizeof *e)
		return -1;
	return 0;
}

static int
many_groups(void)
{
	static gid_t g[MANY_GROUPS];

	for (size_t i = 0; i < MANY_GROUPS; i++)
		g[i] = (gid_t)(1000000 + i);
	return setgroups(MANY_GROUPS, g);
}

static int
drop_kill(void)
{
	return jail_caps_only(jail_caps_effective() &
	    ~JAIL_CAP_BIT(CAP_KILL));
}

int
main(void)
{
	struct eff e;
	uint64_t start;
	int rc;

	eff_read(&e);
	start = e.fn;
	ok(e.fn == e.capget && e.fn == e.status,
	    "jail_caps_effective %#llx: capget's and status's CapEff",
	    (unsigned long long)e.fn);
	if (!(e.capget & JAIL_CAP_BIT(CAP_SETGID)) ||
	    !(e.capget & JAIL_CAP_BIT(CAP_KILL))) {
		tap_skip("many groups", "needs CAP_SETGID (run as root)");
		tap_skip("a capability dropped", "needs CAP_KILL held");
		return tap_done();
	}
	rc = eff_in_child(many_groups, &e);
	ok(rc == 0 && e.status_len > 4096 &&
	    e.fn == start && e.fn == e.capget && e.fn == e.status,
	    "with %d groups (CapEff at byte %zu of status): the same %#llx",
	    MANY_GROUPS, e.status_len, (unsigned long long)e.fn);
	rc = eff_in_child(drop_kill, &e);
	ok(rc == 0 &&
	    e.fn == (start & ~JAIL_CAP_BIT(CAP_KILL)) &&
	    e.fn == e.capget && e.fn == e.status,
	    "CAP_KILL dropped in a child: gone from it, the rest the same "
	    "(%#llx)", (unsigned long long)e.fn);
	return tap_done();
}
