/* egress_probe.c - a stand-in "MCP server" that tries every way out of a
 * lease and prints one line per attempt, so test/egress.test compares
 * words. Installed as "node"; argv[1] is the script path (ignored), then
 * any number of attempts:
 *   tcp ADDR PORT      a plain TCP connect         "tcp ADDR:PORT: ok|ERRNO"
 *   udp ADDR PORT      one UDP datagram            "udp ADDR:PORT: ok|ERRNO"
 *   dns NAME           getaddrinfo                 "dns NAME: ok ADDR|fail"
 *   proxy HOST:PORT    CONNECT through $HTTPS_PROXY, then one line each
 *                      way: "proxy HOST:PORT: CODE [first line of reply]"
 *   env NAME           "env NAME: VALUE" or "env NAME: unset"
 *   wait               read stdin to its end: "wait: eof" (the lease
 *                      lives until the test closes it)
 *   door ADDR PORT     connect, send one msg1-shaped record (a runner
 *                      answers one that does not authenticate with the
 *                      versions it speaks), read: "door ADDR:PORT:
 *                      answered" when bytes came back, "closed" when the
 *                      connection ended with none, else the errno's name
 *   http ADDR PORT     connect, GET /healthz: "http ADDR:PORT: " and the
 *                      status line, or "closed" / the errno's name
 * A test tool: it trusts its arguments and environment. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static const char *
err_name(int e)
{
	switch (e) {
	case 0: return "ok";
	case ENETUNREACH: return "ENETUNREACH";
	case ECONNREFUSED: return "ECONNREFUSED";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EHOSTUNREACH: return "EHOSTUNREACH";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EINVAL: return "EINVAL";
	default: return strerror(e);
	}
}

static int
addr_of(const char *host, const char *port, struct sockaddr_in *sin)
{
	memset(sin, 0, sizeof *sin);
	sin->sin_family = AF_INET;
	sin->sin_port = htons((uint16_t)atoi(port));
	return inet_pton(AF_INET, host, &sin->sin_addr) == 1 ? 0 : -1;
}

static int
timed_socket(int type)
{
	struct timeval tv = { 5, 0 };
	int fd = socket(AF_INET, type, 0);

	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	}
	return fd;
}

/* A TCP connect, or one UDP datagram sent ("tcp" or "udp"), to host:port;
 * prints the outcome as "KIND HOST:PORT: ok" or the errno's name. */
static void
try_inet(const char *kind, const char *host, const char *port)
{
	int udp = strcmp(kind, "udp") == 0;
	int fd = timed_socket(udp ? SOCK_DGRAM : SOCK_STREAM), e = 0;
	struct sockaddr_in sin;

	if (addr_of(host, port, &sin) != 0)
		e = EINVAL;
	else if (udp ? sendto(fd, "x", 1, 0, (struct sockaddr *)&sin,
	    sizeof sin) != 1 : connect(fd, (struct sockaddr *)&sin,
	    sizeof sin) != 0)
		e = errno;
	printf("%s %s:%s: %s\n", kind, host, port, err_name(e));
	close(fd);
}

static void
try_dns(const char *name)
{
	struct addrinfo hints = { .ai_family = AF_INET,
		.ai_socktype = SOCK_STREAM }, *res;
	char text[64];

	if (getaddrinfo(name, "443", &hints, &res) != 0) {
		printf("dns %s: fail\n", name);
		return;
	}
	inet_ntop(AF_INET, &((struct sockaddr_in *)res->ai_addr)->sin_addr,
	    text, sizeof text);
	printf("dns %s: ok %s\n", name, text);
	freeaddrinfo(res);
}

/* One line (without its CRLF/LF) from fd, or "" */
static void
read_line(int fd, char *out, size_t cap)
{
	size_t n = 0;
	char c;

	while (n + 1 < cap && read(fd, &c, 1) == 1 && c != '\n')
		if (c != '\r')
			out[n++] = c;
	out[n] = '\0';
}

static void
try_proxy(const char *target)
{
	const char *p = getenv("HTTPS_PROXY");
	char host[64], port[8], line[256], req[512];
	struct sockaddr_in sin;
	int fd, n;

	if (!p || sscanf(p, "http://%63[^:]:%7s", host, port) != 2 ||
	    addr_of(host, port, &sin) != 0) {
		printf("proxy %s: no HTTPS_PROXY\n", target);
		return;
	}
	fd = timed_socket(SOCK_STREAM);
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
		printf("proxy %s: %s\n", target, err_name(errno));
		close(fd);
		return;
	}
	n = snprintf(req, sizeof req, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n",
	    target, target);
	if (write(fd, req, (size_t)n) != n) {
		printf("proxy %s: write failed\n", target);
		close(fd);
		return;
	}
	read_line(fd, line, sizeof line);
	if (strncmp(line, "HTTP/1.1 200", 12) != 0) {
		printf("proxy %s: %.3s\n", target, line[0] ? line + 9 : "none");
		close(fd);
		return;
	}
	do
		read_line(fd, line, sizeof line);	/* the header's end */
	while (line[0]);
	if (write(fd, "ping\n", 5) == 5)
		read_line(fd, line, sizeof line);
	printf("proxy %s: 200 %s\n", target, line);
	close(fd);
}

/* The door or http attempt (see the top) to host:port. */
static void
try_door(const char *kind, const char *host, const char *port)
{
	static const char get[] = "GET /healthz HTTP/1.0\r\n\r\n";
	uint8_t rec[50] = { 0, 48 };
	int http = strcmp(kind, "http") == 0;
	int fd = timed_socket(SOCK_STREAM);
	struct sockaddr_in sin;
	char line[256];
	ssize_t n = -1;

	if (addr_of(host, port, &sin) != 0)
		errno = EINVAL;
	else if (connect(fd, (struct sockaddr *)&sin, sizeof sin) == 0 &&
	    (http ? write(fd, get, sizeof get - 1) : write(fd, rec,
	    sizeof rec)) >= 0)
		n = 1;
	if (n < 0) {
		printf("%s %s:%s: %s\n", kind, host, port, err_name(errno));
	} else if (http) {
		read_line(fd, line, sizeof line);
		printf("%s %s:%s: %s\n", kind, host, port,
		    line[0] ? line : "closed");
	} else {
		n = read(fd, line, sizeof line);
		printf("%s %s:%s: %s\n", kind, host, port, n > 0 ? "answered" :
		    n == 0 || errno == ECONNRESET ? "closed" : err_name(errno));
	}
	close(fd);
}

int
main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 2; i < argc; i++) {
		if ((strcmp(argv[i], "tcp") == 0 ||
		    strcmp(argv[i], "udp") == 0) && i + 2 < argc) {
			try_inet(argv[i], argv[i + 1], argv[i + 2]);
			i += 2;
		} else if ((strcmp(argv[i], "door") == 0 ||
		    strcmp(argv[i], "http") == 0) && i + 2 < argc) {
			try_door(argv[i], argv[i + 1], argv[i + 2]);
			i += 2;
		} else if (strcmp(argv[i], "dns") == 0 && i + 1 < argc) {
			try_dns(argv[++i]);
		} else if (strcmp(argv[i], "proxy") == 0 && i + 1 < argc) {
			try_proxy(argv[++i]);
		} else if (strcmp(argv[i], "env") == 0 && i + 1 < argc) {
			const char *v = getenv(argv[++i]);

			printf("env %s: %s\n", argv[i], v ? v : "unset");
		} else if (strcmp(argv[i], "wait") == 0) {
			char b[256];

			while (read(0, b, sizeof b) > 0)
				;
			printf("wait: eof\n");
		} else {
			printf("usage: unknown attempt %s\n", argv[i]);
			return 2;
		}
	}
	return 0;
}
