/* jail_nsinit.c - ns mode's proxy and pid 1 (jail_nsinit.h). */
#include "common/jail/jail_nsinit.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/fileio.h"

static volatile pid_t fwd_pid;	/* where a caught signal is forwarded */

static void
forward(int sig)
{
	if (fwd_pid)
		kill(fwd_pid, sig);
}

static void
forward_signals(pid_t to)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1,
		SIGUSR2, SIGALRM, SIGWINCH, SIGCONT };
	struct sigaction sa;

	fwd_pid = to;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaction(sigs[i], &sa, NULL);
}

static void
close_stdio(void)
{
	close(0);
	close(1);
	close(2);
	close(3);	/* spawn's report pipe: the last writer is the server */
}

/* End the way the server ended: its signal, or its exit code. */
static _Noreturn void
mirror(int status)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		sigset_t set;

		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		fwd_pid = 0;
		/* not raise(): a child spawn started with clone3 (cgroup v2)
		 * still holds its parent's tid where musl's raise() looks,
		 * and the signal went to the lease's handler (a root proxy
		 * in uid mode killed it; ns mode's was refused) */
		kill(getpid(), sig);
		_exit(128 + sig);
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

/* The service's argv area (/proc/PID/cmdline), [start, end). */
static uintptr_t args_start, args_end;

/* Find the argv area in /proc/self/stat (fields 48 and 49). */
int
jail_nsinit_find_args(void)
{
	char buf[2048], *p;
	int field = 2;

	if (file_read_small("/proc/self/stat", buf, sizeof buf) < 0 ||
	    !(p = strrchr(buf, ')')))
		return -1;
	while (*p && field < 48)
		field += *p++ == ' ';
	args_start = (uintptr_t)strtoull(p, &p, 10);
	args_end = (uintptr_t)strtoull(p, NULL, 10);
	/* the area ends with the last argument's NUL */
	if (args_start == 0 || args_end <= args_start ||
	    *(const char *)(args_end - 1) != '\0') {
		args_start = 0;
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* The proxy and init never exec: their command line would be the
 * service's (its flags, its secret file's path). Overwrite it with name
 * and NULs — only once the server is forked: its argv may point there
 * (the sandbox's `run -- COMMAND`). */
static void
rename_cmdline(const char *name)
{
	size_t len = args_end - args_start, n = strlen(name);

	if (!args_start)
		return;
	memset((void *)args_start, 0, len);
	memcpy((void *)args_start, name, n < len ? n : len - 1);
}

/* pid 1 of the lease: reap everything, forward signals to everyone,
 * end (and with it the namespace) when the server ends. */
_Noreturn void
jail_nsinit_run_init(pid_t server, int report)
{
	int st, server_st = 0;

	rename_cmdline("airlock-init");	/* the server has its own copy */
	forward_signals(-1);
	close_stdio();
	for (;;) {
		pid_t w = waitpid(-1, &st, 0);

		if (w == server) {
			server_st = st;
			break;
		}
		if (w < 0 && errno == ECHILD)
			break;
	}
	(void)!write(report, &server_st, sizeof server_st);
	_exit(0);
}

/* Outside the namespaces: wait for pid 1, forward signals, end as the
 * server did. The lease watches this process. */
_Noreturn void
jail_nsinit_run_proxy(pid_t init, int status_fd)
{
	int st = 0, server_st;
	ssize_t n;

	rename_cmdline("airlock-proxy");
	forward_signals(init);
	close_stdio();
	do
		n = read(status_fd, &server_st, sizeof server_st);
	while (n < 0 && errno == EINTR);
	while (waitpid(init, &st, 0) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof server_st)
		mirror(server_st);
	mirror(st);	/* pid 1 died without a word: its own end */
}
