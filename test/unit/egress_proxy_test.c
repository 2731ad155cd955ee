/* egress_proxy_test.c - the egress proxy on real loopback sockets: a
 * listed literal tunnels bytes both ways (and bytes sent with the request
 * arrive first); an unlisted port, an unlisted literal, the metadata
 * address, a listed name that resolves to loopback, a malformed request,
 * another method and a silent client are each refused with their own
 * verdict, and nothing reaches the upstream for any of them. All of it
 * under the proxy's seccomp filter, as in a lease; and under that filter
 * each call the proxy must never make kills the process (SIGSYS), which
 * the same call without it does not, and a filter that cannot be
 * installed serves nothing. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/egress/egress_proxy.h"
#include "common/base/log.h"
#include "common/jail/seccomp_policy.h"
#include "tap.h"

/* A directory of the test's own: the target of the mount and the file
 * opened for writing, so the calls that succeed without the filter (as
 * root) touch nothing else; the mount is detached at once. */
static char scratch[] = "/tmp/egress_proxy_test.XXXXXX";
static char scratch_file[sizeof scratch + 2];

/* Calls the proxy never makes, each as a raw syscall (the number the
 * filter sees); under the filter none returns. */
static void
do_execve(void)
{
	char *const argv[] = { "/bin/true", NULL };

	syscall(SYS_execve, "/bin/true", argv, NULL);
}
static void
do_ptrace(void)
{
	syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0);
}
static void
do_mount(void)
{
	if (syscall(SYS_mount, "none", scratch, "tmpfs", 0L, NULL) == 0)
		umount2(scratch, MNT_DETACH);
}
static void
do_unshare(void)
{
	syscall(SYS_unshare, CLONE_NEWUSER);
}
static void
do_setns(void)
{
	syscall(SYS_setns, 0, CLONE_NEWNET);
}
static void
do_netlink(void)
{
	syscall(SYS_socket, AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_ROUTE);
}
static void
do_unix(void)
{
	syscall(SYS_socket, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
}
static void
do_sctp(void)
{
	syscall(SYS_socket, AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 132);
}
static void
do_write_open(void)
{
	syscall(SYS_open, scratch_file, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
}
static void
do_rdwr_open(void)
{
	syscall(SYS_open, scratch_file, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
}
static void
do_openat(void)
{
	syscall(SYS_openat, AT_FDCWD, "/etc/hosts", O_RDONLY | O_CLOEXEC);
}
static void
do_listen(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	syscall(SYS_listen, fd, 1);
}
static void
do_clone(void)
{
	syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
}
static void
do_prctl(void)
{
	syscall(SYS_prctl, PR_SET_DUMPABLE, 1, 0, 0, 0);
}
static void
do_dupfd(void)
{
	syscall(SYS_fcntl, 0, F_DUPFD_CLOEXEC, 10);
}

static const struct {
	void (*call)(void);
	const char *what;
} denied[] = {
	{ do_execve, "execve" }, { do_ptrace, "ptrace" },
	{ do_mount, "mount" }, { do_unshare, "unshare" },
	{ do_setns, "setns" }, { do_netlink, "socket(AF_NETLINK)" },
	{ do_unix, "socket(AF_UNIX)" },
	{ do_sctp, "socket(AF_INET, IPPROTO_SCTP)" },
	{ do_write_open, "open O_WRONLY|O_CREAT" },
	{ do_rdwr_open, "open O_RDWR|O_CREAT" }, { do_openat, "openat" },
	{ do_listen, "listen" }, { do_clone, "clone" },
	{ do_prctl, "prctl(PR_SET_DUMPABLE)" },
	{ do_dupfd, "fcntl(F_DUPFD_CLOEXEC)" },
};

/* Run call in a child, under filter when it is not NULL: its wait
 * status. */
static int
in_child(void (*call)(void), const struct sock_fprog *filter)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		if (filter && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
		    seccomp_policy_install(filter) != 0))
			_exit(3);
		call();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

/* The Seccomp line of /proc/PID/status: 2 is a filter. */
static int
seccomp_mode(pid_t pid)
{
	char path[64], line[256];
	int mode = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "Seccomp:", 8) == 0)
			mode = atoi(line + 8);
	fclose(f);
	return mode;
}

static int
listen_any(uint16_t *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t sl = sizeof sin;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    listen(fd, 16) != 0 || getsockname(fd, (struct sockaddr *)&sin,
	    &sl) != 0)
		return -1;
	*port = ntohs(sin.sin_port);
	return fd;
}

static int
dial(uint16_t port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons(port);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0)
		return -1;
	return fd;
}

/* Upstream: each connection gets "hello " then its bytes echoed; every
 * accepted connection is counted in a pipe (one byte each). */
static void
upstream(int lfd, int count_w)
{
	for (;;) {
		int c = accept(lfd, NULL, NULL);
		char b[4096];
		ssize_t n;

		if (c < 0)
			continue;
		(void)!write(count_w, "x", 1);
		if (fork() == 0) {
			(void)!write(c, "hello ", 6);
			while ((n = read(c, b, sizeof b)) > 0)
				(void)!write(c, b, (size_t)n);
			_exit(0);
		}
		close(c);
	}
}

static size_t
read_until_close(int fd, char *out, size_t cap)
{
	size_t got = 0;
	ssize_t n;

	while (got < cap - 1 && (n = read(fd, out + got, cap - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	return got;
}

/* A request that must be refused: the status line's code. */
static int
refused_with(uint16_t proxy, const char *req, char *out, size_t cap)
{
	int fd = dial(proxy);

	if (fd < 0 || write(fd, req, strlen(req)) < 0)
		return -1;
	read_until_close(fd, out, cap);
	close(fd);
	if (strncmp(out, "HTTP/1.1 ", 9) != 0)
		return 0;
	return (out[9] - '0') * 100 + (out[10] - '0') * 10 + (out[11] - '0');
}

static int
upstream_count(int count_r)
{
	char b[64];
	ssize_t n = read(count_r, b, sizeof b);

	return n > 0 ? (int)n : 0;
}

/* Requests the proxy refuses: HEAD:PORT TAIL, PORT the upstream's (or the
 * one after it), and the status it must answer. */
struct refusal_case {
	const char *head;
	int next_port;
	const char *tail;
	int want;
	const char *what;
};

static const struct refusal_case refusals[] = {
	{ "CONNECT 127.0.0.1", 1, " HTTP/1.1\r\n\r\n", 403,
	  "another port of a listed address" },
	{ "CONNECT 127.0.0.2", 0, " HTTP/1.1\r\n\r\n", 403,
	  "an unlisted literal" },
	{ "CONNECT [::ffff:127.0.0.1]", 0, " HTTP/1.1\r\n\r\n", 403,
	  "the mapped IPv6 form of a listed literal" },
	{ "GET http://127.0.0.1", 0, "/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
	  405, "absolute-form GET" },
	{ "CONNECT 127.0.0.1", 0, " HTTP/1.1\n\n", 400, "bare LF" },
	{ "CONNECT 0x7f000001", 0, " HTTP/1.1\r\n\r\n", 400,
	  "a name a resolver reads as a number" },
};

int
main(void)
{
	struct egress_allow a;
	uint16_t up_port, proxy_port;
	int up_fd, proxy_fd, cnt[2], fd;
	pid_t up_pid, proxy_pid;
	char text[256], out[4096], err[256];
	struct sock_fprog filter, none = { 0, NULL };
	size_t n;
	int st;

	log_init("egress_proxy_test");
	log_set_level(LOG_ERROR);	/* the verdicts are checked, not read */
	signal(SIGPIPE, SIG_IGN);
	if (pipe2(cnt, O_NONBLOCK) != 0 || (up_fd = listen_any(&up_port)) < 0
	    || (proxy_fd = listen_any(&proxy_port)) < 0) {
		ok(0, "loopback sockets");
		return tap_done();
	}
	if ((up_pid = fork()) == 0)
		upstream(up_fd, cnt[1]);
	close(up_fd);
	memset(&a, 0, sizeof a);
	snprintf(text, sizeof text, "127.0.0.1:%u,localhost:%u,"
	    "169.254.169.254:80", up_port, up_port);
	ok(egress_allow_add(&a, text, strlen(text), err, sizeof err) == 0,
	    "allow list %s", text);
	if (egress_proxy_filter(&filter, err, sizeof err) != 0) {
		ok(0, "the proxy's filter compiles: %s", err);
		return tap_done();
	}
	ok(1, "the proxy's filter compiles: %u instructions", filter.len);

	/* fail closed: without no_new_privs, or with no program, nothing
	 * is accepted and the proxy returns */
	if ((proxy_pid = fork()) == 0)
		_exit(egress_proxy_run(proxy_fd, &filter, &a, "t") == -1 &&
		    errno == EPERM ? 0 : 1);
	ok(waitpid(proxy_pid, &st, 0) == proxy_pid && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0, "without no_new_privs the proxy does not "
	    "serve (EPERM)");
	if ((proxy_pid = fork()) == 0)
		_exit(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
		    egress_proxy_run(proxy_fd, &none, &a, "t") == -1 ? 0 : 1);
	ok(waitpid(proxy_pid, &st, 0) == proxy_pid && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0, "with a filter the kernel refuses the "
	    "proxy does not serve");

	if ((proxy_pid = fork()) == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
			egress_proxy_run(proxy_fd, &filter, &a, "test-lease");
		_exit(1);
	}
	close(proxy_fd);

	/* allowed: the 200, then the upstream's bytes and our echo */
	fd = dial(proxy_port);
	n = (size_t)snprintf(text, sizeof text, "CONNECT 127.0.0.1:%u "
	    "HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n\r\nearly ", up_port, up_port);
	ok(fd >= 0 && write(fd, text, n) == (ssize_t)n, "CONNECT sent");
	(void)!write(fd, "late", 4);
	shutdown(fd, SHUT_WR);
	read_until_close(fd, out, sizeof out);
	close(fd);
	ok(strcmp(out, "HTTP/1.1 200 Connection established\r\n\r\n"
	    "hello early late") == 0, "a listed literal tunnels both ways, "
	    "early bytes first, half-close passes: %.60s", out);
	poll(NULL, 0, 100);
	ok(upstream_count(cnt[0]) == 1, "the upstream saw one connection");

	for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
		const struct refusal_case *c = &refusals[i];
		unsigned port = c->next_port ?
		    (up_port == 65535 ? 1 : up_port + 1) : up_port;

		snprintf(text, sizeof text, "%s:%u%s", c->head, port, c->tail);
		ok(refused_with(proxy_port, text, out, sizeof out) == c->want,
		    "%s: %d", c->what, c->want);
	}
	ok(refused_with(proxy_port, "CONNECT 169.254.169.254:443 HTTP/1.1"
	    "\r\n\r\n", out, sizeof out) == 403, "metadata on another port: "
	    "403");
	snprintf(text, sizeof text, "CONNECT localhost:%u HTTP/1.1\r\n\r\n",
	    up_port);
	ok(refused_with(proxy_port, text, out, sizeof out) == 403 &&
	    strstr(out, "only to addresses") != NULL,
	    "a listed name resolving to loopback: 403 (%.40s)", out + 9);
	fd = dial(proxy_port);
	(void)!write(fd, "CONNECT 127.0.0.1:", 18);
	shutdown(fd, SHUT_WR);
	ok(read_until_close(fd, out, sizeof out) == 0,
	    "a client that leaves mid-request gets nothing");
	close(fd);
	poll(NULL, 0, 100);
	ok(upstream_count(cnt[0]) == 0, "no refused request reached the "
	    "upstream");

	ok(waitpid(proxy_pid, &st, WNOHANG) == 0 && seccomp_mode(proxy_pid)
	    == 2, "the proxy served all of it under its filter (Seccomp: 2), "
	    "and lives");

	kill(proxy_pid, SIGKILL);
	kill(up_pid, SIGKILL);
	waitpid(proxy_pid, NULL, 0);
	waitpid(up_pid, NULL, 0);

	if (!mkdtemp(scratch)) {
		ok(0, "a scratch directory");
		return tap_done();
	}
	snprintf(scratch_file, sizeof scratch_file, "%s/w", scratch);
	for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++) {
		int with = in_child(denied[i].call, &filter);
		int without = in_child(denied[i].call, NULL);

		ok(with != -1 && WIFSIGNALED(with) &&
		    WTERMSIG(with) == SIGSYS && without != -1 &&
		    WIFEXITED(without),
		    "%s: killed by SIGSYS under the filter, returns without it",
		    denied[i].what);
	}
	unlink(scratch_file);
	rmdir(scratch);
	seccomp_policy_free(&filter);
	return tap_done();
}
