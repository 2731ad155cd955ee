/* spawn.c - fork + exec with pipes, failures reported by step name. */
#include "common/jail/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REPORT_FD 3	/* where the child keeps its end of the error pipe */

/* The child's failure report: a step name and an errno. */
struct report {
	char step[48];
	int err;
};

static _Noreturn void
child_fail(const char *step)
{
	struct report r;
	size_t n = strlen(step);

	memset(&r, 0, sizeof r);
	r.err = errno;
	memcpy(r.step, step, n < sizeof r.step - 1 ? n : sizeof r.step - 1);
	(void)!write(REPORT_FD, &r, sizeof r);
	_exit(127);
}

static const char *
env_path(char *const *envp)
{
	for (; *envp; envp++)
		if (strncmp(*envp, "PATH=", 5) == 0)
			return *envp + 5;
	return "";
}

/* execve argv[0] directly, or each PATH entry in turn; returns on failure
 * with errno from the most telling attempt (EACCES beats ENOENT). */
static void
exec_search(char *const *argv, char *const *envp)
{
	const char *path = env_path(envp), *p = path;
	size_t nlen = strlen(argv[0]);
	char buf[4096];
	int seen_eacces = 0;

	if (strchr(argv[0], '/')) {
		execve(argv[0], argv, envp);
		return;
	}
	while (*p) {
		const char *end = strchr(p, ':');
		size_t dlen = end ? (size_t)(end - p) : strlen(p);

		if (dlen > 0 && dlen + 1 + nlen < sizeof buf) {
			memcpy(buf, p, dlen);
			buf[dlen] = '/';
			memcpy(buf + dlen + 1, argv[0], nlen + 1);
			execve(buf, argv, envp);
			if (errno == EACCES)
				seen_eacces = 1;
		}
		p = end ? end + 1 : p + dlen;
	}
	errno = seen_eacces ? EACCES : ENOENT;
}

static _Noreturn void
child_run(const struct spawn_spec *spec, int pin[2], int pout[2],
    int perr[2], int report, pid_t parent)
{
	struct sigaction sa;
	sigset_t none;
	const char *step = "exec";
	int in, out, errfd;
	/* out of the way of the low fds the dups below overwrite */
	int pass = spec->pass_fd > STDERR_FILENO ?
	    fcntl(spec->pass_fd, F_DUPFD_CLOEXEC, SPAWN_PASS_FD + 1) : -1;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		sigaction(s, &sa, NULL);	/* fails harmlessly on KILL/STOP */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* every end above the fds set below first: a parent with only its
	 * stdio open has its pipes at 3 and up, and REPORT_FD (3) or a
	 * stdio dup would land on a pipe end not yet moved */
	report = fcntl(report, F_DUPFD_CLOEXEC, REPORT_FD + 1);
	in = fcntl(pin[0], F_DUPFD_CLOEXEC, REPORT_FD + 1);
	out = fcntl(pout[1], F_DUPFD_CLOEXEC, REPORT_FD + 1);
	errfd = fcntl(perr[1], F_DUPFD_CLOEXEC, REPORT_FD + 1);
	if (report < 0 || dup3(report, REPORT_FD, O_CLOEXEC) < 0)
		_exit(127);	/* no channel left to report on */
	if (in < 0 || out < 0 || errfd < 0)
		child_fail("stdio");
	if (setsid() < 0)
		child_fail("setsid");
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
		child_fail("pdeathsig");
	if (getppid() != parent)
		child_fail("parent-gone");
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
		child_fail("stdio");
	if (spec->pass_fd > STDERR_FILENO && (pass < 0 ||
	    dup3(pass, SPAWN_PASS_FD, O_CLOEXEC) < 0))
		child_fail("pass-fd");
	if (syscall(SYS_close_range, pass >= 0 ? SPAWN_PASS_FD + 1 :
	    REPORT_FD + 1, ~0U, 0) != 0)
		child_fail("close-fds");
	if (spec->jail && spec->jail(spec->jail_ctx, &step) != 0)
		child_fail(step);
	exec_search(spec->argv, spec->envp);
	child_fail("exec");
}

/* fork(); or with spec->into_cgroup, a clone3 that starts the child
 * inside that cgroup v2 group: no task move, so no wait for the cgroup
 * lock's grace period (docs/JAIL.md). If the kernel lacks clone3 or the
 * flag (before 5.7) or refuses it, fork: the jail's cgroup step moves the
 * child in as before (it checks, never assumes). The clone3 child's
 * thread pointer still holds the parent's tid (musl's fork would update
 * it): the child must never raise() or abort(), and does not (it reports
 * a failed step over the pipe and _exits). */
static pid_t
start_child(const struct spawn_spec *spec)
{
	if (spec->into_cgroup) {
		struct clone_args a;
		long pid;

		memset(&a, 0, sizeof a);
		a.flags = CLONE_INTO_CGROUP;
		a.exit_signal = SIGCHLD;
		a.cgroup = (uint64_t)spec->cgroup_fd;
		pid = syscall(SYS_clone3, &a, sizeof a);
		if (pid >= 0)
			return (pid_t)pid;
	}
	return fork();
}

static void
close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
}

int
spawn_start(const struct spawn_spec *spec, struct spawn_child *child,
    char *err, size_t errlen)
{
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2] = { -1, -1 };
	int rep[2] = { -1, -1 }, status;
	struct report r;
	ssize_t n;
	pid_t parent = getpid(), pid;

	if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) ||
	    pipe2(perr, O_CLOEXEC) || pipe2(rep, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		goto fail;
	}
	pid = start_child(spec);
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		goto fail;
	}
	if (pid == 0)
		child_run(spec, pin, pout, perr, rep[1], parent);
	close(rep[1]);
	rep[1] = -1;
	do
		n = read(rep[0], &r, sizeof r);
	while (n < 0 && errno == EINTR);
	if (n != 0) {	/* exec did not happen: say which step failed */
		if (n == (ssize_t)sizeof r) {
			r.step[sizeof r.step - 1] = '\0';
			snprintf(err, errlen, "%s%s failed: %s",
			    strcmp(r.step, "exec") == 0 ? "" : "jail step ",
			    r.step, strerror(r.err));
		} else {
			snprintf(err, errlen, "child failed before exec");
		}
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		goto fail;
	}
	close(rep[0]);
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	child->pid = pid;
	child->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	child->in = pin[1];
	child->out = pout[0];
	child->err = perr[0];
	fcntl(child->in, F_SETFL, O_NONBLOCK);
	fcntl(child->out, F_SETFL, O_NONBLOCK);
	fcntl(child->err, F_SETFL, O_NONBLOCK);
	if (child->pidfd < 0) {
		snprintf(err, errlen, "pidfd_open: %s", strerror(errno));
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		close(child->in);
		close(child->out);
		close(child->err);
		return -1;
	}
	return 0;
fail:
	close_pair(pin);
	close_pair(pout);
	close_pair(perr);
	close_pair(rep);
	return -1;
}

int
spawn_become_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 ? 0 : -1;
}

int
spawn_signal_tree(pid_t pgid, int sig)
{
	char buf[8192];
	ssize_t n;
	int fd, count = 0;

	if (pgid > 0 && kill(-pgid, sig) == 0)
		count++;
	/* our children, including orphans reparented to us as subreaper */
	fd = openat(AT_FDCWD, "/proc/thread-self/children", O_RDONLY |
	    O_CLOEXEC);
	if (fd < 0)
		return count;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return count;
	buf[n] = '\0';
	for (char *p = buf, *end; *p; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0 && kill((pid_t)pid, sig) == 0)
			count++;
	}
	return count;
}

int
spawn_reap(pid_t pid, int *status, int *found)
{
	int st, count = 0;
	pid_t got;

	while ((got = waitpid(-1, &st, WNOHANG)) > 0) {
		count++;
		if (got == pid) {
			*status = st;
			*found = 1;
		}
	}
	return count;
}

int
spawn_kill_all(pid_t pgid)
{
	struct timespec pause = { 0, 2 * 1000 * 1000 };
	int status;

	/* bounded: each round kills what exists; orphans of the killed ones
	 * reparent to us and are killed in the next round */
	for (int round = 0; round < 500; round++) {
		pid_t got;

		spawn_signal_tree(pgid, SIGKILL);
		while ((got = waitpid(-1, &status, WNOHANG)) > 0)
			;
		if (got < 0 && errno == ECHILD)
			return 0;
		nanosleep(&pause, NULL);
	}
	return -1;
}
