/* metrics_http.c - the probe/metrics endpoint's process. */
#include "common/service/metrics_http.h"

#include "common/base/random_id.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/service/httpreq.h"
#include "common/service/localpeer.h"
#include "common/service/metrics.h"
#include "common/service/pending.h"
#include "common/wire/netaddr.h"
#include "common/base/xwrap.h"

#define CONNS_MAX 512		/* connections open at once; when full, the
				 * heaviest source's oldest makes room */
#define PER_SOURCE 32		/* of one address, /64 or local uid */
#define WRITERS_MAX 16		/* answers waiting for a slow reader */
#define ACCEPT_BURST 64		/* accepts per wake-up */
#define REQUEST_MS 2000		/* accept to the answer's last byte */
#define FDS_SPARE 16		/* stdio, listener, diag, ... */
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

/* One connection: its request while reading, what its answer has left to
 * send while writing; both within one deadline from accept. */
struct conn {
	int fd;				/* -1: free */
	struct pending_source src;
	int64_t accepted, deadline;
	size_t len;
	char buf[HTTPREQ_MAX];
	char *out;			/* unsent answer (malloc'd), or NULL */
	size_t outlen, outoff;
};

struct server {
	int lfd, diag;
	uid_t lease_first, lease_last;
	struct pending table;		/* of every open connection */
	struct conn c[CONNS_MAX];
	struct pollfd pf[CONNS_MAX + 1];
	size_t writers;			/* connections with out != NULL */
	struct random_pool rnd;
};

static void
conn_close(struct server *sv, struct conn *c)
{
	close(c->fd);
	pending_remove(&sv->table, &c->src);
	if (c->out) {
		free(c->out);
		c->out = NULL;
		sv->writers--;
	}
	c->fd = -1;
}

/* Send what the socket takes now; keep the rest (at most WRITERS_MAX
 * connections wait to be read, the others lose their answer's tail).
 * Closes c when it is all sent or cannot be. */
static void
send_answer(struct server *sv, struct conn *c, const char *out, size_t n)
{
	ssize_t w = send(c->fd, out, n, MSG_NOSIGNAL | MSG_DONTWAIT);

	if (w < 0 && (errno == EAGAIN || errno == EINTR))
		w = 0;
	if (w < 0 || (size_t)w == n)
		goto done;
	if (c->out) {
		c->outoff += (size_t)w;
		return;
	}
	if (sv->writers == WRITERS_MAX ||
	    !(c->out = malloc(n - (size_t)w)))
		goto done;
	memcpy(c->out, out + w, n - (size_t)w);
	c->outlen = n - (size_t)w;
	c->outoff = 0;
	sv->writers++;
	return;
done:
	conn_close(sv, c);
}

static void
finish(struct server *sv, struct conn *c, int eof)
{
	static char out[METRICS_TEXT_MAX + 512];
	size_t n = metrics_http_answer(c->buf, c->len, eof, out, sizeof out);

	if (n == 0 && eof)
		conn_close(sv, c);
	else if (n)
		send_answer(sv, c, out, n);
}

static void
readable(struct server *sv, struct conn *c)
{
	ssize_t n;

	if (c->out) {
		send_answer(sv, c, c->out + c->outoff, c->outlen - c->outoff);
		return;
	}
	n = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len,
	    MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0)
		c->len += (size_t)n;
	finish(sv, c, n <= 0 || c->len == sizeof c->buf);
}

/* The oldest connection of a source that holds n (one of the heaviest). */
static void
evict(struct server *sv, uint32_t n)
{
	struct conn *old = NULL;

	for (size_t i = 0; i < CONNS_MAX; i++) {
		struct conn *c = &sv->c[i];

		if (c->fd >= 0 && (!old || c->accepted < old->accepted) &&
		    pending_count(&sv->table, &c->src) == n)
			old = c;
	}
	if (old)
		conn_close(sv, old);
}

static struct conn *
free_conn(struct server *sv)
{
	for (size_t i = 0; i < CONNS_MAX; i++)
		if (sv->c[i].fd < 0)
			return &sv->c[i];
	return NULL;
}

/* Accept what waits: a lease (or a loopback peer whose uid cannot be
 * told) is closed at once; the rest share the table fairly by source. */
static void
accept_burst(struct server *sv)
{
	for (int i = 0; i < ACCEPT_BURST; i++) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof ss;
		struct pending_source src, heavy;
		uid_t uid = (uid_t)-1;
		struct conn *c;
		int fd = accept4(sv->lfd, (struct sockaddr *)&ss, &sl,
		    SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (fd < 0)
			return;
		switch (localpeer_of(sv->diag, fd, (struct sockaddr *)&ss, sl,
		    &uid)) {
		case LOCALPEER_LOCAL:
			if (!localpeer_uid_in(uid, sv->lease_first,
			    sv->lease_last))
				break;
			close(fd);
			continue;
		case LOCALPEER_REMOTE:
			uid = (uid_t)-1;
			break;
		case LOCALPEER_UNKNOWN:
			close(fd);
			continue;
		}
		pending_source_of(&src, (struct sockaddr *)&ss, sl, uid);
		switch (pending_decide(&sv->table, &src,
		    random_pool_next(&sv->rnd), &heavy)) {
		case PENDING_ADMIT_EVICT:
			evict(sv, pending_count(&sv->table, &heavy));
			break;
		case PENDING_ADMIT:
			break;
		default:
			close(fd);
			continue;
		}
		if (!(c = free_conn(sv))) {	/* the table bounds it */
			close(fd);
			continue;
		}
		c->fd = fd;
		c->src = src;
		c->len = 0;
		c->accepted = mono_ms();
		c->deadline = c->accepted + REQUEST_MS;
		pending_add(&sv->table, &src);
	}
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

/* One poll over the listener and every connection; no step waits on a
 * peer, so a probe is answered however many others stall. */
static _Noreturn void
serve(struct server *sv, uint32_t conns)
{
	pending_init(&sv->table, conns, PER_SOURCE);
	for (size_t i = 0; i < CONNS_MAX; i++)
		sv->c[i].fd = -1;
	for (;;) {
		int64_t now = mono_ms(), wait = -1;

		for (size_t i = 0; i < CONNS_MAX; i++) {
			struct conn *c = &sv->c[i];

			if (c->fd >= 0 && now >= c->deadline) {
				if (c->out)
					conn_close(sv, c);
				else
					finish(sv, c, 1);
			}
			if (c->fd < 0) {
				sv->pf[i + 1] = (struct pollfd){ -1, 0, 0 };
				continue;
			}
			sv->pf[i + 1] = (struct pollfd){ c->fd,
			    c->out ? POLLOUT : POLLIN, 0 };
			if (wait < 0 || c->deadline - now < wait)
				wait = c->deadline - now;
		}
		sv->pf[0] = (struct pollfd){ sv->lfd, POLLIN, 0 };
		if (poll(sv->pf, CONNS_MAX + 1, (int)wait) < 0 &&
		    errno != EINTR)
			_exit(71);
		for (size_t i = 0; i < CONNS_MAX; i++)
			if (sv->c[i].fd >= 0 && sv->c[i].fd == sv->pf[i + 1].fd &&
			    sv->pf[i + 1].revents)
				readable(sv, &sv->c[i]);
		if (sv->pf[0].revents & POLLIN)
			accept_burst(sv);
	}
}

/* Fork the endpoint's process serving the listening socket lfd (which
 * the caller then closes); it ends with its parent. The pid, or -1. */
/* Room for CONNS_MAX connections where the hard limit allows; fewer
 * connections where it does not, so accept never meets EMFILE and leaves
 * a probe in the backlog. */
static uint32_t
conns_allowed(void)
{
	struct rlimit rl;
	rlim_t want = CONNS_MAX + FDS_SPARE;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 16;
	if (rl.rlim_cur < want) {
		rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
		(void)getrlimit(RLIMIT_NOFILE, &rl);
	}
	return rl.rlim_cur >= want ? CONNS_MAX : rl.rlim_cur > FDS_SPARE + 16 ?
	    (uint32_t)(rl.rlim_cur - FDS_SPARE) : 16;
}

/* Fork the endpoint's process serving the listening socket lfd (which
 * the caller then closes, as diag); it ends with its parent. The pid, or
 * -1. */
static pid_t
metrics_http_start(int lfd, int diag, uid_t lease_first, uid_t lease_last)
{
	static struct server sv;
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
	sv.lfd = lfd;
	sv.diag = diag;
	sv.lease_first = lease_first;
	sv.lease_last = lease_last;
	serve(&sv, conns_allowed());
}

void
xmetrics_listen_start(const char *addr, enum metrics_service which,
    uint64_t capacity, uid_t lease_first, uid_t lease_last, int check_only)
{
	struct netaddr a;
	char err[256];
	int fd, diag;

	if (netaddr_parse(&a, addr, err, sizeof err) != 0)
		die(EXIT_USAGE, "--metrics: %s", err);
	if (metrics_open(which) != 0)
		die_errno(EXIT_OSERR, "--metrics: shared memory");
	if ((diag = localpeer_open(err, sizeof err)) < 0)
		die(EXIT_CONFIG, "--metrics: %s", err);
	if ((fd = netaddr_listen(&a, err, sizeof err)) < 0)
		die(EXIT_CONFIG, "--metrics: %s", err);
	metric_set(M_CAPACITY, 0, capacity);
	if (!check_only && metrics_http_start(fd, diag, lease_first,
	    lease_last) < 0)
		die_errno(EXIT_OSERR, "--metrics: cannot start its process");
	close(fd);
	close(diag);
	if (check_only && a.is_unix)
		unlink(a.host);
}
