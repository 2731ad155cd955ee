/* netaddr.c - parse, listen on and connect to airlock addresses. */
#include "common/wire/netaddr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define SAY(...) snprintf(err, errlen, __VA_ARGS__)

static int
port_valid(const char *p)
{
	long v = 0;

	if (!*p || strlen(p) > 5)
		return 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		v = v * 10 + (*p - '0');
	}
	return v >= 1 && v <= 65535;
}

int
netaddr_parse(struct netaddr *a, const char *text, char *err, size_t errlen)
{
	const char *colon, *host = text;
	size_t hlen;

	memset(a, 0, sizeof *a);
	if (strncmp(text, "unix:", 5) == 0) {
		struct sockaddr_un sun;

		a->is_unix = 1;
		if (text[5] == '\0' ||
		    strlen(text + 5) >= sizeof sun.sun_path) {
			SAY("unix socket path is empty or longer than %zu "
			    "bytes: %s", sizeof sun.sun_path - 1, text);
			return -1;
		}
		/* "@" names an abstract socket elsewhere (socat, ss):
		 * taken as a file here it would surprise; taken as one it
		 * has no file mode, so any process in the network
		 * namespace could connect or squat its name */
		if (text[5] == '@') {
			SAY("abstract unix sockets (unix:@NAME) are not "
			    "used: no file permission guards one, any process "
			    "in the network namespace can connect to it or take "
			    "its name. Give unix:/PATH in a directory only its "
			    "users can reach (a file named @NAME: "
			    "unix:./@NAME)");
			return -1;
		}
		snprintf(a->host, sizeof a->host, "%s", text + 5);
		return 0;
	}
	if (strncmp(text, "tcp://", 6) == 0)
		host = text + 6;
	colon = strrchr(host, ':');
	if (!colon || !port_valid(colon + 1)) {
		SAY("address '%s' is not HOST:PORT, [IPV6]:PORT, "
		    "tcp://HOST:PORT or unix:/PATH", text);
		return -1;
	}
	hlen = (size_t)(colon - host);
	if (hlen >= 2 && host[0] == '[' && host[hlen - 1] == ']') {
		host++;
		hlen -= 2;
	}
	if (hlen == 0 || hlen >= sizeof a->host || memchr(host, '/', hlen)) {
		SAY("address '%s' has an empty or invalid host", text);
		return -1;
	}
	memcpy(a->host, host, hlen);
	a->host[hlen] = '\0';
	snprintf(a->port, sizeof a->port, "%s", colon + 1);
	return 0;
}

static int
unix_sockaddr(const struct netaddr *a, struct sockaddr_un *sun)
{
	size_t n = strnlen(a->host, sizeof a->host);

	memset(sun, 0, sizeof *sun);
	sun->sun_family = AF_UNIX;
	if (n >= sizeof sun->sun_path)	/* netaddr_parse refuses these */
		return -1;
	memcpy(sun->sun_path, a->host, n);
	return 0;
}

static int
listen_unix(const struct netaddr *a, char *err, size_t errlen)
{
	struct sockaddr_un sun;
	struct stat st;
	int fd;

	if (unix_sockaddr(a, &sun)) {
		SAY("unix socket path too long: %s", a->host);
		return -1;
	}
	if (lstat(a->host, &st) == 0) {
		int probe;

		if (!S_ISSOCK(st.st_mode)) {
			SAY("%s exists and is not a socket; refusing to "
			    "replace it", a->host);
			return -1;
		}
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe >= 0 && connect(probe, (struct sockaddr *)&sun,
		    sizeof sun) == 0) {
			close(probe);
			SAY("%s is in use by a live listener", a->host);
			return -1;
		}
		if (probe >= 0)
			close(probe);
		unlink(a->host);	/* stale socket of a dead runner */
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
	    listen(fd, 128) != 0) {
		SAY("cannot listen on unix:%s: %s", a->host, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int
resolve(const struct netaddr *a, int passive, struct addrinfo **res,
    char *err, size_t errlen)
{
	struct addrinfo hints;
	int rc;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	rc = getaddrinfo(a->host, a->port, &hints, res);
	if (rc != 0) {
		SAY("cannot resolve '%s': %s", a->host, gai_strerror(rc));
		return -1;
	}
	return 0;
}

int
netaddr_listen(const struct netaddr *a, char *err, size_t errlen)
{
	struct addrinfo *res, *ai;
	int fd = -1, one = 1, saved = 0;

	if (a->is_unix)
		return listen_unix(a, err, errlen);
	if (resolve(a, 1, &res, err, errlen))
		return -1;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC |
		    SOCK_NONBLOCK, 0);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		/* accepted sockets inherit it: no Nagle delay on frames */
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    listen(fd, 128) == 0)
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		SAY("cannot listen on %s:%s: %s", a->host, a->port,
		    strerror(saved ? saved : errno));
	return fd;
}

int
netaddr_connect(const struct netaddr *a, char *err, size_t errlen)
{
	struct addrinfo *res, *ai;
	int fd = -1, one = 1, saved = 0;

	if (a->is_unix) {
		struct sockaddr_un sun;

		if (unix_sockaddr(a, &sun)) {
			SAY("unix socket path too long: %s", a->host);
			return -1;
		}
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&sun,
		    sizeof sun) == 0)
			return fd;
		saved = errno;
		SAY("cannot connect to unix:%s: %s", a->host, strerror(saved));
		if (fd >= 0)
			close(fd);
		errno = saved;
		return -1;
	}
	if (resolve(a, 0, &res, err, errlen))
		return -1;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		SAY("cannot connect to %s:%s: %s", a->host, a->port,
		    strerror(saved ? saved : errno));
		errno = saved;
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

void
netaddr_keepalive(int fd, int idle_s, int interval_s, int count)
{
	int one = 1;
	unsigned timeout_ms = (unsigned)(idle_s + interval_s * count) * 1000u;

	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one) != 0)
		return;		/* a unix socket: the kernel sees the peer */
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle_s, sizeof idle_s);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval_s,
	    sizeof interval_s);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
	/* unacknowledged data also ends the connection in bounded time */
	setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &timeout_ms,
	    sizeof timeout_ms);
}

static void
peer(int fd, char *out, size_t cap, int with_port)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;
	char ip[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;

	if (getpeername(fd, (struct sockaddr *)&ss, &len) != 0 ||
	    ss.ss_family == AF_UNIX) {
		snprintf(out, cap, "unix");
		return;
	}
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &sin->sin_addr, ip, sizeof ip);
		port = ntohs(sin->sin_port);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &sin6->sin6_addr, ip, sizeof ip);
		port = ntohs(sin6->sin6_port);
	}
	if (!with_port)
		snprintf(out, cap, "%s", ip);
	else if (ss.ss_family == AF_INET)
		snprintf(out, cap, "%s:%u", ip, port);
	else
		snprintf(out, cap, "[%s]:%u", ip, port);
}

void
netaddr_peer_text(int fd, char *out, size_t cap)
{
	peer(fd, out, cap, 1);
}

void
netaddr_peer_host(int fd, char *out, size_t cap)
{
	peer(fd, out, cap, 0);
}
