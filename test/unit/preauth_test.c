/* preauth_test.c - what the pre-auth process may still do once confined,
 * checked by attempting it in a real child: each operation is tried once
 * before preauth_confine (it works) and once after (it must not). As root
 * the child also becomes uid 65534 and must not get root back. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/service/preauth.h"
#include "common/jail/seccomp_policy.h"
#include "tap.h"

enum { OPEN, SOCKET, FORK, EXEC_MAP, PLAIN_MAP, SETUID0, NTRIES };

static const char *const names[NTRIES] = {
	"open a file", "make a socket", "fork", "map executable memory",
	"map plain memory", "become uid 0 again"
};

/* 1 when the operation succeeded (cleaned up after), else 0. */
static int
attempt(int what)
{
	void *p;
	pid_t pid;
	int fd;

	switch (what) {
	case OPEN:
		fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
		return fd >= 0 ? (close(fd), 1) : 0;
	case SOCKET:
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		return fd >= 0 ? (close(fd), 1) : 0;
	case FORK:
		pid = fork();
		if (pid == 0)
			_exit(0);
		return pid > 0 ? (waitpid(pid, NULL, 0), 1) : 0;
	case EXEC_MAP:
	case PLAIN_MAP:
		p = mmap(NULL, 4096, PROT_READ | (what == EXEC_MAP ? PROT_EXEC :
		    0), MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p != MAP_FAILED ? (munmap(p, 4096), 1) : 0;
	case SETUID0:
		return setuid(0) == 0;
	}
	return 0;
}

/* 1 when the status file at path holds line. */
static int
status_has(const char *path, const char *line)
{
	char buf[8192];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, line) != NULL;
}

int
main(void)
{
	struct sock_fprog filter;
	struct preauth_identity id = { 0 };
	char err[256], before[NTRIES], after[NTRIES], confined = 0;
	int fds[2], go[2], status, root = geteuid() == 0;
	char path[64];
	pid_t pid;

	if (preauth_filter(&filter, err, sizeof err) != 0 || pipe(fds) != 0 ||
	    pipe(go) != 0) {
		printf("# %s\n", err);
		return 1;
	}
	if (root)
		id = (struct preauth_identity){ 1, 65534, 65534 };
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		for (int i = 0; i < NTRIES; i++)
			before[i] = (char)('0' + (i == SETUID0 ? root :
			    attempt(i)));
		confined = preauth_confine(&id, &filter, 32, err,
		    sizeof err) == 0 ? 'y' : 'n';
		for (int i = 0; i < NTRIES; i++)
			after[i] = (char)('0' + attempt(i));
		(void)!write(fds[1], &confined, 1);
		(void)!write(fds[1], before, sizeof before);
		(void)!write(fds[1], after, sizeof after);
		/* prctl and getuid are refused now: the parent reads our
		 * status while we wait (read is allowed) */
		(void)!read(go[0], &confined, 1);
		_exit(0);
	}
	close(fds[1]);
	ok(read(fds[0], &confined, 1) == 1 && confined == 'y',
	    "the child confines itself");
	ok(read(fds[0], before, sizeof before) == sizeof before &&
	    read(fds[0], after, sizeof after) == sizeof after,
	    "it reports what it could do");
	for (int i = 0; i < NTRIES; i++) {
		if (i == PLAIN_MAP) {
			ok(before[i] == '1' && after[i] == '1',
			    "%s: still allowed (malloc needs it)", names[i]);
			continue;
		}
		if (i == SETUID0 && !root) {
			tap_skip(names[i], "not root: no uid to drop");
			continue;
		}
		ok(before[i] == '1' && after[i] == '0',
		    "%s: possible before, refused after", names[i]);
	}
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	ok(status_has(path, "NoNewPrivs:\t1\n") &&
	    status_has(path, "Seccomp:\t2\n") &&
	    status_has(path, "CapEff:\t0000000000000000\n") &&
	    status_has(path, "CapPrm:\t0000000000000000\n"),
	    "no_new_privs, a seccomp filter, no capability");
	if (root)
		ok(status_has(path, "Uid:\t65534\t65534\t65534\t65534\n"),
		    "it runs as uid 65534");
	(void)!write(go[1], "x", 1);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "and exits normally (write and exit are allowed)");
	seccomp_policy_free(&filter);
	return tap_done();
}
