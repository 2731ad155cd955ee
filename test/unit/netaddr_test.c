/* netaddr_test.c - the address forms every --listen and --connect
 * takes (unix:@NAME, an abstract socket's spelling, refused), and how a
 * peer is named in logs: over real loopback TCP connections (IPv4, and
 * IPv6 where the host has ::1) and a unix socket pair, netaddr_peer_text
 * gives ADDR:PORT ([ADDR]:PORT for IPv6) and netaddr_peer_host the
 * address alone. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/wire/netaddr.h"
#include "tap.h"

/* A connected TCP client of a listener on the loopback address of
 * family af; its local port in *port. -1 when the family is not here. */
static int
loopback_client(int af, unsigned *port)
{
	struct sockaddr_storage ss = { .ss_family = (sa_family_t)af };
	socklen_t len = af == AF_INET ? sizeof(struct sockaddr_in) :
	    sizeof(struct sockaddr_in6);
	int l = socket(af, SOCK_STREAM | SOCK_CLOEXEC, 0), c = -1, s;

	if (af == AF_INET)
		((struct sockaddr_in *)&ss)->sin_addr.s_addr =
		    htonl(INADDR_LOOPBACK);
	else
		((struct sockaddr_in6 *)&ss)->sin6_addr = in6addr_loopback;
	if (l >= 0 && bind(l, (struct sockaddr *)&ss, len) == 0 &&
	    listen(l, 1) == 0 &&
	    getsockname(l, (struct sockaddr *)&ss, &len) == 0 &&
	    (c = socket(af, SOCK_STREAM | SOCK_CLOEXEC, 0)) >= 0 &&
	    connect(c, (struct sockaddr *)&ss, len) == 0 &&
	    getsockname(c, (struct sockaddr *)&ss, &len) == 0) {
		*port = ntohs(af == AF_INET ?
		    ((struct sockaddr_in *)&ss)->sin_port :
		    ((struct sockaddr_in6 *)&ss)->sin6_port);
		/* the server's side names the client: the accepted
		 * socket's peer is c (closed, it stays named) */
		s = accept(l, NULL, NULL);
		close(c);
		close(l);
		return s;
	}
	if (c >= 0)
		close(c);
	if (l >= 0)
		close(l);
	return -1;
}

static void
test_parse(void)
{
	static const struct {
		const char *text;
		int is_unix;
		const char *host, *port;	/* NULL: refused */
	} cases[] = {
		{ "127.0.0.1:7000", 0, "127.0.0.1", "7000" },
		{ "tcp://[::1]:7000", 0, "::1", "7000" },
		{ "unix:/run/a.sock", 1, "/run/a.sock", "" },
		{ "unix:./@a", 1, "./@a", "" },
		{ "unix:@a", 1, NULL, NULL },
		{ "unix:@", 1, NULL, NULL },
		{ "unix:", 1, NULL, NULL },
	};
	struct netaddr a;
	char err[512];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = netaddr_parse(&a, cases[i].text, err, sizeof err);

		if (cases[i].host)
			ok(rc == 0 && a.is_unix == cases[i].is_unix &&
			    strcmp(a.host, cases[i].host) == 0 &&
			    strcmp(a.port, cases[i].port) == 0,
			    "%s: taken", cases[i].text);
		else
			ok(rc == -1, "%s: refused (%s)", cases[i].text, err);
	}
	netaddr_parse(&a, "unix:@airlock", err, sizeof err);
	ok(strstr(err, "abstract unix sockets (unix:@NAME) are not used: no "
	    "file permission guards one") && strstr(err, "Give unix:/PATH"),
	    "unix:@NAME: the refusal says why and what to give instead");
}

int
main(void)
{
	char text[128], host[128], want[128];
	unsigned port = 0;
	int fd, sv[2];

	test_parse();
	fd = loopback_client(AF_INET, &port);
	netaddr_peer_text(fd, text, sizeof text);
	netaddr_peer_host(fd, host, sizeof host);
	snprintf(want, sizeof want, "127.0.0.1:%u", port);
	ok(fd >= 0 && strcmp(text, want) == 0, "IPv4 peer text: %s", text);
	ok(strcmp(host, "127.0.0.1") == 0, "IPv4 peer host: %s", host);
	close(fd);

	fd = loopback_client(AF_INET6, &port);
	if (fd < 0) {
		tap_skip("IPv6 peer text and host", "no ::1 here");
	} else {
		netaddr_peer_text(fd, text, sizeof text);
		netaddr_peer_host(fd, host, sizeof host);
		snprintf(want, sizeof want, "[::1]:%u", port);
		ok(strcmp(text, want) == 0, "IPv6 peer text: %s", text);
		ok(strcmp(host, "::1") == 0, "IPv6 peer host: %s", host);
		close(fd);
	}

	ok(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "a unix pair");
	netaddr_peer_text(sv[0], text, sizeof text);
	netaddr_peer_host(sv[0], host, sizeof host);
	ok(strcmp(text, "unix") == 0 && strcmp(host, "unix") == 0,
	    "a unix peer is 'unix'");
	return tap_done();
}
