/* spawn_test.c - spawn_start's placement: a plain fork stays in our own
 * cgroup; into_cgroup starts the child inside a cgroup v2 group with no
 * jail step at all (so only clone3's CLONE_INTO_CGROUP can have put it
 * there); and an fd that is no group falls back to fork and still runs
 * the child. Needs root and a writable cgroup2 hierarchy (the unified one
 * of a hybrid host, or a v2-only /sys/fs/cgroup); skips otherwise. The
 * group is this test's own (airlock-spawntest-PID), removed at the end. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/jail/spawn.h"
#include "tap.h"

static char group[128];

/* A writable cgroup2 hierarchy: our group made in it, or 0. */
static int
make_group(void)
{
	static const char *const roots[] = { "/sys/fs/cgroup/unified",
		"/sys/fs/cgroup" };

	for (size_t i = 0; i < sizeof roots / sizeof *roots; i++) {
		char probe[160];

		snprintf(probe, sizeof probe, "%s/cgroup.procs", roots[i]);
		if (access(probe, W_OK) != 0)
			continue;
		if (strcmp(roots[i], "/sys/fs/cgroup") == 0 &&
		    access("/sys/fs/cgroup/cgroup.controllers", F_OK) != 0)
			continue;	/* a v1 tmpfs, not cgroup2 */
		snprintf(group, sizeof group, "%s/airlock-spawntest-%ld",
		    roots[i], (long)getpid());
		if (mkdir(group, 0755) == 0)
			return 1;
	}
	return 0;
}

/* Is pid in our group? Its /proc/PID/cgroup names the group's path. */
static int
in_group(pid_t pid)
{
	char path[64], buf[4096], want[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/cgroup", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	snprintf(want, sizeof want, "/airlock-spawntest-%ld\n",
	    (long)getpid());
	return strstr(buf, want) != NULL;
}

/* Spawn cat (it waits on stdin), ask where it is, end it. 1 in the
 * group, 0 not, -1 it did not start. */
static int
spawn_where(int into, int fd)
{
	static char *const argv[] = { "/bin/cat", NULL };
	static char *const envp[] = { "PATH=/bin:/usr/bin", NULL };
	struct spawn_spec spec = { .argv = argv, .envp = envp,
		.into_cgroup = into, .cgroup_fd = fd };
	struct spawn_child c;
	char err[256];
	int where, st;

	if (spawn_start(&spec, &c, err, sizeof err) != 0) {
		printf("# %s\n", err);
		return -1;
	}
	where = in_group(c.pid);
	close(c.in);
	while (waitpid(c.pid, &st, 0) < 0)
		;
	close(c.out);
	close(c.err);
	close(c.pidfd);
	return where;
}

int
main(void)
{
	int fd;

	if (getuid() != 0 || !make_group()) {
		tap_skip("spawn into a cgroup v2 group", "needs root and a "
		    "writable cgroup2 hierarchy");
		return tap_done();
	}
	fd = open(group, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ok(spawn_where(0, -1) == 0, "a plain spawn stays in our own cgroup");
	ok(fd >= 0 && spawn_where(1, fd) == 1, "into_cgroup: the child starts "
	    "inside the group, with no step that moves it");
	close(fd);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ok(spawn_where(1, fd) == 0, "an fd that is no group: clone3 refuses, "
	    "spawn forks, the child runs where we are");
	close(fd);
	ok(rmdir(group) == 0, "the group is empty again and removed");
	return tap_done();
}
