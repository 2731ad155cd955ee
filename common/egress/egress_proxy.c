/* egress_proxy.c - the CONNECT-only, allow-list egress proxy. */
#include "common/egress/egress_proxy.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/egress/addrclass.h"
#include "common/base/clock.h"
#include "common/base/log.h"
#include "common/jail/seccomp_policy.h"
#include "common/service/metrics.h"

/* the two families the proxy speaks, with the protocols it (TCP) and
 * musl's resolver (0 for its queries, UDP for RFC 6724 sorting) pass:
 * nothing that loads a module (SCTP, UDP-Lite) or reads the host
 * (netlink, packet, unix) */
#define SOCKET(fam, proto) SECCOMP_OWN_ONLY2(socket, 0, fam, 2, proto, \
	#fam " with protocol " #proto)

/* The egress proxy's allowlist, measured with strace -f on real leases
 * (test/egress.test; names from /etc/hosts and over UDP DNS, a listed
 * literal, refusals, tunnels) in the proxy and its connections' processes,
 * everything after set-up: the loop (poll, accept4, fork, wait4), a
 * connection (its SIGTERM handler and parent-death signal, the request,
 * getaddrinfo, the upstream socket, the tunnel, its log line on stderr),
 * and what musl does on those paths (fork: gettid and the signal mask;
 * malloc: brk, mmap, mprotect without PROT_EXEC, munmap, madvise; the
 * resolver: /etc/hosts and /etc/resolv.conf read-only, a UDP socket bound
 * to port 0, sendto/recvfrom; RFC 6724 sorting: a UDP connect and
 * getsockname). Anything else kills the process (SIGSYS): no exec, no
 * ptrace, no mount, no namespaces, no open for writing, no listen. */
static const struct seccomp_rule proxy_rules[] = {
	SECCOMP_OWN_ALLOW(accept4), SECCOMP_OWN_ALLOW(bind),
	SECCOMP_OWN_ALLOW(brk), SECCOMP_OWN_ALLOW(clock_gettime),
	SECCOMP_OWN_ALLOW(close), SECCOMP_OWN_ALLOW(connect),
	SECCOMP_OWN_ALLOW(exit_group),
	SECCOMP_OWN_ONLY(fcntl, 1, F_GETFL, "F_GETFL"),
	SECCOMP_OWN_ONLY(fcntl, 1, F_SETFL, "F_SETFL"),
	SECCOMP_OWN_ONLY(fcntl, 1, F_SETFD, "F_SETFD"),
	SECCOMP_OWN_ALLOW(fork), SECCOMP_OWN_ALLOW(getppid),
	SECCOMP_OWN_ALLOW(getsockname),
	SECCOMP_OWN_ONLY2(getsockopt, 1, SOL_SOCKET, 2, SO_ERROR,
	    "SO_ERROR"),
	SECCOMP_OWN_ALLOW(gettid), SECCOMP_OWN_ALLOW(madvise),
	SECCOMP_OWN_NO_EXEC(mmap), SECCOMP_OWN_NO_EXEC(mprotect),
	SECCOMP_OWN_ALLOW(munmap),
	SECCOMP_OWN_ONLY(open, 1, O_RDONLY | O_LARGEFILE | O_CLOEXEC,
	    "read-only"),
	SECCOMP_OWN_ALLOW(poll),
	SECCOMP_OWN_ONLY(prctl, 0, PR_SET_PDEATHSIG, "PR_SET_PDEATHSIG"),
	SECCOMP_OWN_ALLOW(read), SECCOMP_OWN_ALLOW(recvfrom),
	SECCOMP_OWN_ALLOW(restart_syscall), SECCOMP_OWN_ALLOW(rt_sigaction),
	SECCOMP_OWN_ALLOW(rt_sigprocmask), SECCOMP_OWN_ALLOW(rt_sigreturn),
	SECCOMP_OWN_ALLOW(sendto),
	SECCOMP_OWN_ONLY(setitimer, 0, ITIMER_REAL, "ITIMER_REAL (alarm)"),
	SECCOMP_OWN_ONLY2(setsockopt, 1, IPPROTO_TCP, 2, TCP_NODELAY,
	    "TCP_NODELAY"),
	SECCOMP_OWN_ONLY2(setsockopt, 1, IPPROTO_IPV6, 2, IPV6_V6ONLY,
	    "IPV6_V6ONLY"),
	SECCOMP_OWN_ALLOW(shutdown), SOCKET(AF_INET, 0),
	SOCKET(AF_INET, IPPROTO_TCP), SOCKET(AF_INET, IPPROTO_UDP),
	SOCKET(AF_INET6, 0), SOCKET(AF_INET6, IPPROTO_TCP),
	SOCKET(AF_INET6, IPPROTO_UDP), SECCOMP_OWN_ALLOW(wait4),
	SECCOMP_OWN_ALLOW(write),
};

int
egress_proxy_filter(struct sock_fprog *out, char *err, size_t errlen)
{
	return seccomp_policy_compile_as(proxy_rules, sizeof proxy_rules /
	    sizeof proxy_rules[0], SECCOMP_DEFAULT_KILL, out, err, errlen);
}

/* What one connection did: the log line's fields. */
struct egress_conn {
	const char *lease_id;
	struct connect_target t;
	int have_target;
	char addr[INET6_ADDRSTRLEN];	/* the address connected, or the
					 * last one refused or tried */
	const char *reason;		/* static text, or why_buf */
	char why_buf[64];
	uint64_t up, down;		/* client->server, server->client */
	int64_t t0;
};

/* Set by SIGTERM in a connection's process: its proxy ended (its
 * parent-death signal), so it stops, still writing its log line. */
static volatile sig_atomic_t stopping;

static void
on_term(int sig)
{
	(void)sig;
	stopping = 1;
	alarm(5);	/* a step that ignores EINTR cannot hold it longer */
}

const char *
egress_verdict_name(enum egress_verdict v)
{
	static const char *const names[EGRESS_N_] = { "allowed",
		"not_listed", "address", "bad_request", "resolve_failed",
		"connect_failed", "incomplete" };

	return (unsigned)v < EGRESS_N_ ? names[v] : "unknown";
}

static void
conn_log(const struct egress_conn *c, enum egress_verdict v)
{
	metric_add(M_EGRESS_CONNECTIONS, v, 1);
	metric_add(M_EGRESS_BYTES, 0, c->up);
	metric_add(M_EGRESS_BYTES, 1, c->down);
	log_event(v == EGRESS_ALLOWED ? LOG_INFO : LOG_WARN, "egress",
	    (struct log_field[]){ LF_STR("lease", c->lease_id),
	    LF_STR("host", c->have_target ? c->t.host : ""),
	    LF_NUM("port", c->have_target ? c->t.port : 0),
	    LF_STR("address", c->addr),
	    LF_STR("verdict", v == EGRESS_ALLOWED ? "allowed" : "denied"),
	    LF_STR("reason", v == EGRESS_ALLOWED ? "" : c->reason),
	    LF_STR("code", egress_verdict_name(v)),
	    LF_NUM("bytes_up", c->up), LF_NUM("bytes_down", c->down),
	    LF_NUM("ms", mono_ms() - c->t0) }, 10);
}

/* Write all of p within the deadline (the fd is non-blocking). */
static int
write_all(int fd, const char *p, size_t n, int64_t deadline)
{
	while (n > 0) {
		struct pollfd pf = { fd, POLLOUT, 0 };
		int64_t left = deadline - mono_ms();
		ssize_t w;

		if (left <= 0 || stopping)
			return -1;
		if (poll(&pf, 1, (int)left) < 0 && errno != EINTR)
			return -1;
		w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		if (w > 0) {
			p += w;
			n -= (size_t)w;
		}
	}
	return 0;
}

/* An error answer; its body is our own text, never the client's. */
static void
answer(int fd, const char *status, const char *why)
{
	char msg[512];
	int n = snprintf(msg, sizeof msg, "HTTP/1.1 %s\r\nContent-Type: "
	    "text/plain\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n"
	    "airlock egress: %s\n", status, strlen(why) + 17, why);

	if (n > 0 && (size_t)n < sizeof msg)
		(void)write_all(fd, msg, (size_t)n, mono_ms() + 2000);
}

/* Read the request into buf (cap bytes). OK/BAD/METHOD/TOO_BIG, or NEED
 * when the client left or stalled; *got is what was read. */
static enum connect_req_status
read_request(int fd, char *buf, size_t cap, size_t *got,
    struct connect_req *req)
{
	int64_t deadline = mono_ms() + EGRESS_REQUEST_MS;
	enum connect_req_status st = CONNECT_REQ_NEED;

	*got = 0;
	while (st == CONNECT_REQ_NEED && *got < cap) {
		struct pollfd pf = { fd, POLLIN, 0 };
		int64_t left = deadline - mono_ms();
		ssize_t n;

		if (left <= 0 || stopping || (poll(&pf, 1, (int)left) < 0 &&
		    errno != EINTR))
			return CONNECT_REQ_NEED;
		n = recv(fd, buf + *got, cap - *got, 0);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return CONNECT_REQ_NEED;
		if (n > 0)
			*got += (size_t)n;
		st = connect_req_parse(buf, *got, req);
	}
	return st;
}

/* Connect to sa within EGRESS_CONNECT_MS: a non-blocking CLOEXEC socket,
 * or -1 with errno. */
static int
connect_to(const struct sockaddr *sa, socklen_t len)
{
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC |
	    SOCK_NONBLOCK, IPPROTO_TCP), one = 1, soerr = 0;
	socklen_t sl = sizeof soerr;
	struct pollfd pf;

	if (fd < 0)
		return -1;
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (connect(fd, sa, len) == 0)
		return fd;
	if (errno != EINPROGRESS)
		goto fail;
	pf = (struct pollfd){ fd, POLLOUT, 0 };
	if (poll(&pf, 1, EGRESS_CONNECT_MS) != 1) {
		errno = ETIMEDOUT;
		goto fail;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0 || soerr) {
		errno = soerr ? soerr : EIO;
		goto fail;
	}
	return fd;
fail:
	soerr = errno;
	close(fd);
	errno = soerr;
	return -1;
}

static void
addr_text(const struct sockaddr *sa, char *out, size_t cap)
{
	const void *p = sa->sa_family == AF_INET ?
	    (const void *)&((const struct sockaddr_in *)sa)->sin_addr :
	    (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr;

	if (!inet_ntop(sa->sa_family, p, out, (socklen_t)cap))
		snprintf(out, cap, "?");
}

/* Resolve (names only), check every address, connect to the first that
 * passes and answers. The connected fd, or -1 with c->reason set and
 * *v the verdict. */
static int
open_upstream(struct egress_conn *c, enum egress_verdict *v)
{
	struct sockaddr_storage ss[EGRESS_ADDRS_MAX];
	socklen_t sl[EGRESS_ADDRS_MAX];
	size_t n = 0, refused = 0;
	int fd = -1;

	memset(ss, 0, sizeof ss);
	if (c->t.kind == CONNECT_HOST_IPV4) {
		struct sockaddr_in *s = (struct sockaddr_in *)&ss[0];

		s->sin_family = AF_INET;
		s->sin_port = htons(c->t.port);
		memcpy(&s->sin_addr, c->t.addr, 4);
		sl[n++] = sizeof *s;
	} else if (c->t.kind == CONNECT_HOST_IPV6) {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)&ss[0];

		s->sin6_family = AF_INET6;
		s->sin6_port = htons(c->t.port);
		memcpy(&s->sin6_addr, c->t.addr, 16);
		sl[n++] = sizeof *s;
	} else {
		struct addrinfo hints, *res, *ai;
		char port[8];
		int rc;

		memset(&hints, 0, sizeof hints);
		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = SOCK_STREAM;
		hints.ai_protocol = IPPROTO_TCP;
		hints.ai_flags = AI_NUMERICSERV;
		snprintf(port, sizeof port, "%u", (unsigned)c->t.port);
		rc = getaddrinfo(c->t.host, port, &hints, &res);
		if (rc != 0) {
			c->reason = rc == EAI_NONAME || rc == EAI_NODATA ?
			    "the name does not resolve" :
			    "name resolution failed";
			*v = EGRESS_RESOLVE;
			return -1;
		}
		for (ai = res; ai && n < EGRESS_ADDRS_MAX; ai = ai->ai_next) {
			if ((ai->ai_family != AF_INET && ai->ai_family !=
			    AF_INET6) || ai->ai_addrlen > sizeof ss[n])
				continue;
			memcpy(&ss[n], ai->ai_addr, ai->ai_addrlen);
			sl[n++] = ai->ai_addrlen;
		}
		freeaddrinfo(res);
	}
	*v = EGRESS_CONNECT;
	c->reason = "no address answered";
	for (size_t i = 0; i < n && fd < 0; i++) {
		const struct sockaddr *sa = (const struct sockaddr *)&ss[i];
		enum addr_class cls = addrclass_sockaddr(sa, sl[i]);

		addr_text(sa, c->addr, sizeof c->addr);
		/* a literal the list names is the operator's explicit
		 * choice (but never "this host" or a group); a name must
		 * resolve to public addresses */
		if ((c->t.kind == CONNECT_HOST_NAME && cls != ADDR_PUBLIC) ||
		    cls == ADDR_UNSPECIFIED || cls == ADDR_MULTICAST) {
			refused++;
			snprintf(c->why_buf, sizeof c->why_buf, "%s address "
			    "refused", addrclass_name(cls));
			c->reason = c->why_buf;
			continue;
		}
		fd = connect_to(sa, sl[i]);
	}
	if (fd < 0 && n > 0 && refused == n) {
		*v = EGRESS_ADDRESS;	/* reason: the last address's class */
	} else if (fd < 0 && n == 0) {
		*v = EGRESS_RESOLVE;
		c->reason = "no IPv4 or IPv6 address";
	}
	return fd;
}

/* One direction of the tunnel. */
struct pipe_dir {
	int from, to;
	char *buf;
	size_t len, off;
	int eof;		/* from is done; to shut down once drained */
	uint64_t *count;
};

/* Move what can move without blocking. -1 on an error either side. */
static int
pump(struct pipe_dir *d, short rev_from, short rev_to)
{
	if (d->len == 0 && !d->eof && (rev_from & (POLLIN | POLLHUP |
	    POLLERR))) {
		ssize_t n = recv(d->from, d->buf, EGRESS_BUF, 0);

		if (n > 0) {
			d->len = (size_t)n;
			d->off = 0;
			*d->count += (uint64_t)n;
		} else if (n == 0) {
			d->eof = 1;
			(void)shutdown(d->to, SHUT_WR);
		} else if (errno != EAGAIN && errno != EINTR) {
			return -1;
		}
	}
	if (d->len > 0 && (rev_to & (POLLOUT | POLLERR | POLLHUP))) {
		ssize_t n = send(d->to, d->buf + d->off, d->len, MSG_NOSIGNAL);

		if (n > 0) {
			d->off += (size_t)n;
			d->len -= (size_t)n;
			if (d->len == 0 && d->eof)
				(void)shutdown(d->to, SHUT_WR);
		} else if (n < 0 && errno != EAGAIN && errno != EINTR) {
			return -1;
		}
	}
	return 0;
}

/* Copy both ways until both are done, an error, or the idle limit. */
static void
tunnel(int client, int server, struct egress_conn *c)
{
	static char up_buf[EGRESS_BUF], down_buf[EGRESS_BUF];
	struct pipe_dir up = { client, server, up_buf, 0, 0, 0, &c->up };
	struct pipe_dir down = { server, client, down_buf, 0, 0, 0, &c->down };

	for (;;) {
		struct pollfd pf[2] = { { client, 0, 0 }, { server, 0, 0 } };
		int n;

		if (up.eof && up.len == 0 && down.eof && down.len == 0)
			return;
		if (up.len == 0 && !up.eof)
			pf[0].events |= POLLIN;
		if (down.len == 0 && !down.eof)
			pf[1].events |= POLLIN;
		if (up.len > 0)
			pf[1].events |= POLLOUT;
		if (down.len > 0)
			pf[0].events |= POLLOUT;
		n = poll(pf, 2, EGRESS_IDLE_MS);
		if (n == 0 || (n < 0 && errno != EINTR) || stopping)
			return;
		if (n < 0)
			continue;
		if (pump(&up, pf[0].revents, pf[1].revents) != 0 ||
		    pump(&down, pf[1].revents, pf[0].revents) != 0)
			return;
	}
}

enum egress_verdict
egress_proxy_conn(int fd, const struct egress_allow *a, const char *lease_id)
{
	static char buf[CONNECT_REQ_MAX + EGRESS_BUF];
	static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
	struct egress_conn c;
	struct connect_req req;
	enum connect_req_status st;
	enum egress_verdict v = EGRESS_ALLOWED;
	size_t got;
	int server = -1;

	memset(&c, 0, sizeof c);
	c.lease_id = lease_id;
	c.t0 = mono_ms();
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	/* at most the request's cap: tunnel bytes sent early wait in the
	 * socket, not here, so what we forward is what the client sent */
	st = read_request(fd, buf, CONNECT_REQ_MAX, &got, &req);
	switch (st) {
	case CONNECT_REQ_OK:
		c.t = req.target;
		c.have_target = 1;
		break;
	case CONNECT_REQ_NEED:
		c.reason = "the client left or stalled before a whole request";
		v = EGRESS_INCOMPLETE;
		goto out;
	case CONNECT_REQ_METHOD:
		c.reason = "only CONNECT is proxied";
		answer(fd, "405 Method Not Allowed", "only CONNECT host:port is "
		    "proxied (use an https:// URL)");
		v = EGRESS_BAD_REQUEST;
		goto out;
	case CONNECT_REQ_TOO_BIG:
		c.reason = "request too big";
		answer(fd, "431 Request Header Fields Too Large",
		    "request too big");
		v = EGRESS_BAD_REQUEST;
		goto out;
	default:
		c.reason = "malformed request";
		answer(fd, "400 Bad Request", "malformed CONNECT request");
		v = EGRESS_BAD_REQUEST;
		goto out;
	}
	if (!egress_allow_match(a, &c.t)) {
		c.reason = "host:port is not in this lease's egress allow list";
		answer(fd, "403 Forbidden", c.reason);
		v = EGRESS_NOT_LISTED;
		goto out;
	}
	server = open_upstream(&c, &v);
	if (server < 0) {
		answer(fd, v == EGRESS_CONNECT ? "502 Bad Gateway" :
		    "403 Forbidden", v == EGRESS_ADDRESS ? "the name resolves "
		    "only to addresses a lease may not reach" : c.reason);
		goto out;
	}
	v = EGRESS_ALLOWED;
	(void)fcntl(server, F_SETFL, fcntl(server, F_GETFL) | O_NONBLOCK);
	if (write_all(fd, ok, sizeof ok - 1, mono_ms() + EGRESS_REQUEST_MS) ==
	    0 && (got == req.used || write_all(server, buf + req.used,
	    got - req.used, mono_ms() + EGRESS_REQUEST_MS) == 0)) {
		c.up = got - req.used;
		tunnel(fd, server, &c);
	}
	close(server);
out:
	close(fd);
	conn_log(&c, v);
	return v;
}

/* A connection's process has ended with status st: one fewer live. One
 * its filter killed wrote no log line of its own: this is it. */
static void
reaped(size_t *live, pid_t pid, int st, const char *lease_id)
{
	(*live)--;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS)
		log_event(LOG_ERROR, "egress connection killed by the proxy's "
		    "seccomp filter", (struct log_field[]){
		    LF_STR("lease", lease_id), LF_NUM("pid", pid) }, 2);
}

int
egress_proxy_run(int listen_fd, const struct sock_fprog *filter,
    const struct egress_allow *a, const char *lease_id)
{
	pid_t self = getpid(), pid;
	size_t live = 0;
	int st;

	/* before any byte of a request is read; no_new_privs is the
	 * caller's (seccomp_policy_install refuses without it) */
	if (seccomp_policy_install(filter) != 0)
		return -1;
	for (;;) {
		struct pollfd pf = { listen_fd, POLLIN, 0 };
		int fd;

		while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
			reaped(&live, pid, st, lease_id);
		if (live >= EGRESS_CONNS_MAX) {
			/* the rest wait in the backlog */
			if ((pid = waitpid(-1, &st, 0)) > 0)
				reaped(&live, pid, st, lease_id);
			continue;
		}
		if (poll(&pf, 1, 1000) < 0 && errno != EINTR)
			return -1;
		if (pf.revents & POLLNVAL) {
			errno = EBADF;
			return -1;
		}
		if (!(pf.revents & POLLIN))
			continue;
		fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE) {
				poll(NULL, 0, 100);	/* not a busy loop */
				continue;
			}
			if (errno == EINTR || errno == EAGAIN ||
			    errno == ECONNABORTED)
				continue;
			return -1;
		}
		pid = fork();
		if (pid == 0) {
			struct sigaction sa;

			memset(&sa, 0, sizeof sa);
			sa.sa_handler = on_term;	/* no SA_RESTART */
			close(listen_fd);
			if (sigaction(SIGTERM, &sa, NULL) != 0 ||
			    prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) != 0 ||
			    getppid() != self)
				_exit(1);
			egress_proxy_conn(fd, a, lease_id);
			_exit(0);
		}
		close(fd);
		if (pid > 0)
			live++;
	}
}
