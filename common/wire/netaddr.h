/* netaddr.h - the address forms airlock accepts, and sockets for them:
 *     HOST:PORT   [IPV6]:PORT   tcp://HOST:PORT   unix:/PATH
 * (unix:@NAME, an abstract socket elsewhere, is refused: no file mode
 * guards one.)
 * Numeric hosts need no files at all (FROM scratch); names are resolved
 * with getaddrinfo (/etc/hosts, /etc/resolv.conf). */
#ifndef AIRLOCK_NETADDR_H
#define AIRLOCK_NETADDR_H

#include <stddef.h>

#define NETADDR_TEXT_MAX 256

struct netaddr {
	int is_unix;
	char host[NETADDR_TEXT_MAX];	/* or the unix socket path */
	char port[8];
};

/* Parse text into a; on error returns -1 and writes a reason to err. */
int netaddr_parse(struct netaddr *a, const char *text, char *err,
    size_t errlen);

/* A listening socket (CLOEXEC, non-blocking) for a, or -1 with err set.
 * A unix path that is a live socket is refused; a stale one is replaced;
 * anything else at the path is refused. */
int netaddr_listen(const struct netaddr *a, char *err, size_t errlen);

/* A connected, blocking, CLOEXEC socket, or -1 with err set. TCP gets
 * TCP_NODELAY. errno is left from the last attempt. */
int netaddr_connect(const struct netaddr *a, char *err, size_t errlen);

/* Keepalive so a silently dead TCP peer is noticed (no-op on unix). */
void netaddr_keepalive(int fd, int idle_s, int interval_s, int count);

/* "ip:port" / "[ip]:port" / "unix" for the peer of fd (logs, caps). */
void netaddr_peer_text(int fd, char *out, size_t cap);
/* The peer's address without the port: the per-peer cap key. */
void netaddr_peer_host(int fd, char *out, size_t cap);

#endif
