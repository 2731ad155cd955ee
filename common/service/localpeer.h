/* localpeer.h - who is at the other end of an accepted connection when
 * that end is on this host: the uid that owns the peer's socket. For TCP
 * the kernel's socket table says it (NETLINK_SOCK_DIAG, an exact lookup
 * of the peer's 4-tuple in our network namespace: found means the peer
 * lives in this namespace, whatever address it used, 127/8 or another of
 * ours); for a unix socket SO_PEERCRED does. A lease shares the runner's
 * network namespace (uid mode, ns mode without --egress-allow), so this is
 * how the services refuse a lease at their doors (docs/SECURITY.md) and
 * key a local peer by uid, not by which of 127/8 it chose.
 *
 * The kernel's replies are parsed as untrusted-shaped bytes: every length
 * checked, the reply's 4-tuple must be the one asked about. */
#ifndef AIRLOCK_LOCALPEER_H
#define AIRLOCK_LOCALPEER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

/* One end of a TCP connection: an IPv6 address (IPv4 as ::ffff:a.b.c.d)
 * and a port, both in network byte order. */
struct localpeer_end {
	uint8_t addr[16];
	uint16_t port;
};

enum localpeer_kind {
	LOCALPEER_LOCAL,	/* *uid owns the peer's socket */
	LOCALPEER_REMOTE,	/* not a socket of this host's namespace */
	LOCALPEER_UNKNOWN	/* could not tell: the caller refuses it */
};

/* The end an address from accept/getsockname names; -1 when it is not
 * AF_INET/AF_INET6 or len is short. */
int localpeer_end_of(struct localpeer_end *e, const struct sockaddr *sa,
    socklen_t len);

/* Is e a loopback address (127/8, ::1, ::ffff:127/8)? */
int localpeer_is_loopback(const struct localpeer_end *e);

#define LOCALPEER_REQ_LEN 72	/* nlmsghdr + inet_diag_req_v2 */

/* The SOCK_DIAG_BY_FAMILY request (seq) for the socket whose local end is
 * peer and whose remote end is us: LOCALPEER_REQ_LEN bytes into out. */
void localpeer_request(uint8_t out[LOCALPEER_REQ_LEN], uint32_t seq,
    const struct localpeer_end *peer, const struct localpeer_end *us);

enum localpeer_reply {
	LOCALPEER_REPLY_FOUND,		/* *uid set */
	LOCALPEER_REPLY_NOT_FOUND,	/* ENOENT, or a socket that is not
					 * the one asked about (a listener) */
	LOCALPEER_REPLY_OTHER_SEQ,	/* a stale reply: read the next */
	LOCALPEER_REPLY_BAD		/* malformed or another error */
};

/* Parse one reply datagram (len bytes) to the request seq for (peer, us). */
enum localpeer_reply localpeer_reply_parse(const uint8_t *buf, size_t len,
    uint32_t seq, const struct localpeer_end *peer,
    const struct localpeer_end *us, uid_t *uid);

/* A NETLINK_SOCK_DIAG socket (CLOEXEC, non-blocking), tried once on a
 * loopback connection of our own, so a kernel without TCP socket
 * diagnostics is found at start-up, not taken for "every peer remote".
 * The fd, or -1 with err saying why. */
int localpeer_open(char *err, size_t errlen);

/* The peer of conn (accepted; sa/len from accept). diag: from
 * localpeer_open, queried with write and read only (the pre-auth
 * process's seccomp allows no more). A TCP peer not found is REMOTE,
 * unless its address is loopback: then UNKNOWN (a loopback peer is
 * always of this namespace; it has gone). */
enum localpeer_kind localpeer_of(int diag, int conn, const struct sockaddr *sa,
    socklen_t len, uid_t *uid);

/* Is uid in [first, last]? (last 0: no range, never) */
int localpeer_uid_in(uid_t uid, uid_t first, uid_t last);

#endif
