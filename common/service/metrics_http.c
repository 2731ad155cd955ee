/* metrics_http.c - the probe/metrics endpoint's process. */
#include "common/service/metrics_http.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/service/httpreq.h"
#include "common/service/metrics.h"
#include "common/wire/netaddr.h"
#include "common/base/xwrap.h"

#define CONNS_MAX 16		/* probes in flight; more wait in the backlog */
#define REQUEST_MS 2000		/* a request must arrive within this */
#define NOBODY 65534

static size_t
respond(char *out, size_t cap, const char *status, const char *type,
    const char *body, size_t blen)
{
	int n = snprintf(out, cap, "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n\r\n", status, type,
	    blen);

	if (n < 0 || (size_t)n + blen > cap)
		return 0;
	memcpy(out + n, body, blen);
	return (size_t)n + blen;
}

static int
ready(void)
{
	return metric_get(M_READY, 0) == 1 && metric_get(M_DRAINING, 0) == 0 &&
	    metric_get(M_LEASES_ACTIVE, 0) < metric_get(M_CAPACITY, 0);
}

size_t
metrics_http_answer(const char *req, size_t len, int eof, char *out,
    size_t cap)
{
	static char body[METRICS_TEXT_MAX];
	static const char text[] = "text/plain; charset=utf-8";
	struct httpreq r;
	size_t blen;

	switch (httpreq_parse(req, len, &r)) {
	case HTTPREQ_NEED:
		if (!eof)
			return 0;
		/* the peer stopped before a whole request */
		return respond(out, cap, "400 Bad Request", text, "bad request\n",
		    12);
	case HTTPREQ_BAD:
		return respond(out, cap, "400 Bad Request", text, "bad request\n",
		    12);
	case HTTPREQ_METHOD:
		return respond(out, cap, "405 Method Not Allowed", text,
		    "GET only\n", 9);
	case HTTPREQ_TOO_BIG:
		return respond(out, cap, "431 Request Header Fields Too Large",
		    text, "too large\n", 10);
	case HTTPREQ_OK:
		break;
	}
	if (strcmp(r.path, "/healthz") == 0)
		return respond(out, cap, "200 OK", text, "ok\n", 3);
	if (strcmp(r.path, "/readyz") == 0)
		return ready() ? respond(out, cap, "200 OK", text, "ready\n", 6) :
		    respond(out, cap, "503 Service Unavailable", text,
		    "not ready\n", 10);
	if (strcmp(r.path, "/metrics") == 0) {
		blen = metrics_render(body, sizeof body);
		return blen ? respond(out, cap, "200 OK",
		    "text/plain; version=0.0.4; charset=utf-8", body, blen) :
		    respond(out, cap, "500 Internal Server Error", text,
		    "metrics unavailable\n", 20);
	}
	return respond(out, cap, "404 Not Found", text, "not found\n", 10);
}

struct conn {
	int fd;
	int64_t deadline;
	size_t len;
	char buf[HTTPREQ_MAX];
};

static void
finish(struct conn *c, int eof)
{
	static char out[METRICS_TEXT_MAX + 512];
	size_t n = metrics_http_answer(c->buf, c->len, eof, out, sizeof out);
	size_t off = 0;

	if (n == 0 && !eof)
		return;
	/* a bounded, blocking send: the answer is small, the socket is
	 * the probe's alone, and SO_SNDTIMEO caps a peer that never reads */
	while (off < n) {
		ssize_t w = send(c->fd, out + off, n - off, MSG_NOSIGNAL);

		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(c->fd);
	c->fd = -1;
}

static void
drop_privileges(void)
{
	/* best effort where the service may not switch uids (then it runs
	 * as the service's user, still with no_new_privs) */
	if (getuid() == 0 && setgroups(0, NULL) == 0)
		(void)!(setresgid(NOBODY, NOBODY, NOBODY) == 0 &&
		    setresuid(NOBODY, NOBODY, NOBODY) == 0);
	(void)prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

static _Noreturn void
serve(int lfd)
{
	static struct conn c[CONNS_MAX];
	struct pollfd pf[CONNS_MAX + 1];

	for (int i = 0; i < CONNS_MAX; i++)
		c[i].fd = -1;
	for (;;) {
		int64_t now = mono_ms(), wait = -1;
		int free_slot = -1;

		for (int i = 0; i < CONNS_MAX; i++) {
			if (c[i].fd >= 0 && now >= c[i].deadline)
				finish(&c[i], 1);
			if (c[i].fd < 0) {
				free_slot = free_slot < 0 ? i : free_slot;
				pf[i + 1] = (struct pollfd){ -1, 0, 0 };
				continue;
			}
			pf[i + 1] = (struct pollfd){ c[i].fd, POLLIN, 0 };
			if (wait < 0 || c[i].deadline - now < wait)
				wait = c[i].deadline - now;
		}
		pf[0] = (struct pollfd){ free_slot >= 0 ? lfd : -1, POLLIN, 0 };
		if (poll(pf, CONNS_MAX + 1, (int)wait) < 0 && errno != EINTR)
			_exit(71);
		if ((pf[0].revents & POLLIN) && free_slot >= 0) {
			struct timeval tv = { 1, 0 };
			int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC |
			    SOCK_NONBLOCK);

			if (fd >= 0) {
				setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv,
				    sizeof tv);
				c[free_slot].fd = fd;
				c[free_slot].len = 0;
				c[free_slot].deadline = mono_ms() + REQUEST_MS;
			}
		}
		for (int i = 0; i < CONNS_MAX; i++) {
			ssize_t n;

			if (c[i].fd < 0 || !(pf[i + 1].revents &
			    (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = recv(c[i].fd, c[i].buf + c[i].len,
			    sizeof c[i].buf - c[i].len, 0);
			if (n > 0)
				c[i].len += (size_t)n;
			if (n < 0 && errno == EAGAIN)
				continue;
			finish(&c[i], n <= 0 || c[i].len == sizeof c[i].buf);
		}
	}
}

/* Fork the endpoint's process serving the listening socket lfd (which
 * the caller then closes); it ends with its parent. The pid, or -1. */
static pid_t
metrics_http_start(int lfd)
{
	pid_t parent = getpid(), pid = fork();
	sigset_t none;

	if (pid != 0)
		return pid;
	drop_privileges();
	/* after the uid change, which clears the parent-death signal */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_IGN);
	serve(lfd);
}

void
xmetrics_listen_start(const char *addr, enum metrics_service which,
    uint64_t capacity, int check_only)
{
	struct netaddr a;
	char err[256];
	int fd;

	if (netaddr_parse(&a, addr, err, sizeof err) != 0)
		die(EXIT_USAGE, "--metrics: %s", err);
	if (metrics_open(which) != 0)
		die_errno(EXIT_OSERR, "--metrics: shared memory");
	if ((fd = netaddr_listen(&a, err, sizeof err)) < 0)
		die(EXIT_CONFIG, "--metrics: %s", err);
	metric_set(M_CAPACITY, 0, capacity);
	if (!check_only && metrics_http_start(fd) < 0)
		die_errno(EXIT_OSERR, "--metrics: cannot start its process");
	close(fd);
	if (check_only && a.is_unix)
		unlink(a.host);
}
