/* egress_proxy_test.c - the egress proxy on real loopback sockets: a
 * listed literal tunnels bytes both ways (and bytes sent with the request
 * arrive first); an unlisted port, an unlisted literal, the metadata
 * address, a listed name that resolves to loopback, a malformed request,
 * another method and a silent client are each refused with their own
 * verdict, and nothing reaches the upstream for any of them. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/egress/egress_proxy.h"
#include "common/base/log.h"
#include "tap.h"

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
	size_t n;

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
	if ((proxy_pid = fork()) == 0) {
		egress_proxy_run(proxy_fd, &a, "test-lease");
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

	kill(proxy_pid, SIGKILL);
	kill(up_pid, SIGKILL);
	waitpid(proxy_pid, NULL, 0);
	waitpid(up_pid, NULL, 0);
	return tap_done();
}
