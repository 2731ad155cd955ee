/* localpeer.c - the uid behind a local peer's socket. */
#include "common/service/localpeer.h"

#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define REPLY_MAX 8192		/* one inet_diag_msg and a few attributes */
#define READS_MAX 4		/* stale replies skipped before giving up */

static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff,
	0xff };

static int
is_mapped(const uint8_t a[16])
{
	return memcmp(a, mapped, sizeof mapped) == 0;
}

int
localpeer_end_of(struct localpeer_end *e, const struct sockaddr *sa,
    socklen_t len)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;

	memset(e, 0, sizeof *e);
	if (sa && sa->sa_family == AF_INET && len >= (socklen_t)sizeof sin) {
		memcpy(&sin, sa, sizeof sin);
		memcpy(e->addr, mapped, sizeof mapped);
		memcpy(e->addr + 12, &sin.sin_addr, 4);
		e->port = sin.sin_port;
		return 0;
	}
	if (sa && sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof sin6) {
		memcpy(&sin6, sa, sizeof sin6);
		memcpy(e->addr, &sin6.sin6_addr, 16);
		e->port = sin6.sin6_port;
		return 0;
	}
	return -1;
}

int
localpeer_is_loopback(const struct localpeer_end *e)
{
	static const uint8_t one[16] = { [15] = 1 };

	return (is_mapped(e->addr) && e->addr[12] == 127) ||
	    memcmp(e->addr, one, sizeof one) == 0;
}

/* An address as the kernel's sockid holds it for family f. */
static void
put_addr(uint8_t out[16], int f, const struct localpeer_end *e)
{
	memset(out, 0, 16);
	if (f == AF_INET)
		memcpy(out, e->addr + 12, 4);
	else
		memcpy(out, e->addr, 16);
}

void
localpeer_request(uint8_t out[LOCALPEER_REQ_LEN], uint32_t seq,
    const struct localpeer_end *peer, const struct localpeer_end *us)
{
	struct nlmsghdr h;
	struct inet_diag_req_v2 r;
	int f = is_mapped(peer->addr) && is_mapped(us->addr) ? AF_INET :
	    AF_INET6;

	_Static_assert(sizeof h + sizeof r == LOCALPEER_REQ_LEN,
	    "request size");
	memset(&h, 0, sizeof h);
	memset(&r, 0, sizeof r);
	h.nlmsg_len = LOCALPEER_REQ_LEN;
	h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	h.nlmsg_flags = NLM_F_REQUEST;	/* one exact socket, not a dump */
	h.nlmsg_seq = seq;
	r.sdiag_family = (uint8_t)f;
	r.sdiag_protocol = IPPROTO_TCP;
	r.idiag_states = ~0U;
	/* the peer's socket: its local end is the peer, its remote us */
	r.id.idiag_sport = peer->port;
	r.id.idiag_dport = us->port;
	put_addr((uint8_t *)r.id.idiag_src, f, peer);
	put_addr((uint8_t *)r.id.idiag_dst, f, us);
	r.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
	r.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
	memcpy(out, &h, sizeof h);
	memcpy(out + sizeof h, &r, sizeof r);
}

static uint32_t
get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof v);	/* host order: the kernel's own */
	return v;
}

static uint16_t
get_u16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

/* The end at addr/port offsets of a sockid of family f, as ours. */
static int
end_at(const uint8_t *id, int f, size_t port_off, size_t addr_off,
    struct localpeer_end *e)
{
	memset(e, 0, sizeof *e);
	e->port = get_u16(id + port_off);
	if (f == AF_INET) {
		memcpy(e->addr, mapped, sizeof mapped);
		memcpy(e->addr + 12, id + addr_off, 4);
		return 0;
	}
	if (f == AF_INET6) {
		memcpy(e->addr, id + addr_off, 16);
		return 0;
	}
	return -1;
}

static int
same_end(const struct localpeer_end *a, const struct localpeer_end *b)
{
	return a->port == b->port && memcmp(a->addr, b->addr, 16) == 0;
}

enum localpeer_reply
localpeer_reply_parse(const uint8_t *buf, size_t len, uint32_t seq,
    const struct localpeer_end *peer, const struct localpeer_end *us,
    uid_t *uid)
{
	const size_t hl = sizeof(struct nlmsghdr);
	const size_t id = offsetof(struct inet_diag_msg, id);
	struct localpeer_end src, dst;
	uint32_t mlen, mseq;
	uint16_t type;
	const uint8_t *m;
	int32_t e;

	if (len < hl)
		return LOCALPEER_REPLY_BAD;
	mlen = get_u32(buf + offsetof(struct nlmsghdr, nlmsg_len));
	type = get_u16(buf + offsetof(struct nlmsghdr, nlmsg_type));
	mseq = get_u32(buf + offsetof(struct nlmsghdr, nlmsg_seq));
	if (mlen < hl || mlen > len)
		return LOCALPEER_REPLY_BAD;
	if (mseq != seq)
		return LOCALPEER_REPLY_OTHER_SEQ;
	m = buf + hl;
	mlen -= (uint32_t)hl;
	if (type == NLMSG_ERROR) {
		if (mlen < sizeof e)
			return LOCALPEER_REPLY_BAD;
		memcpy(&e, m, sizeof e);
		return e == -ENOENT ? LOCALPEER_REPLY_NOT_FOUND :
		    LOCALPEER_REPLY_BAD;
	}
	if (type != SOCK_DIAG_BY_FAMILY || mlen < sizeof(struct inet_diag_msg))
		return LOCALPEER_REPLY_BAD;
	if (end_at(m + id, m[offsetof(struct inet_diag_msg, idiag_family)],
	    offsetof(struct inet_diag_sockid, idiag_sport),
	    offsetof(struct inet_diag_sockid, idiag_src), &src) != 0 ||
	    end_at(m + id, m[offsetof(struct inet_diag_msg, idiag_family)],
	    offsetof(struct inet_diag_sockid, idiag_dport),
	    offsetof(struct inet_diag_sockid, idiag_dst), &dst) != 0)
		return LOCALPEER_REPLY_BAD;
	/* an exact lookup falls back to a listener on the peer's port: that
	 * socket is not the peer's */
	if (!same_end(&src, peer) || !same_end(&dst, us))
		return LOCALPEER_REPLY_NOT_FOUND;
	*uid = (uid_t)get_u32(m + offsetof(struct inet_diag_msg, idiag_uid));
	return LOCALPEER_REPLY_FOUND;
}

static enum localpeer_kind
tcp_peer(int diag, int conn, const struct localpeer_end *peer, uid_t *uid)
{
	static uint32_t seq;
	static uint8_t buf[REPLY_MAX];
	uint8_t req[LOCALPEER_REQ_LEN];
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	struct localpeer_end us;

	if (getsockname(conn, (struct sockaddr *)&ss, &sl) != 0 ||
	    localpeer_end_of(&us, (struct sockaddr *)&ss, sl) != 0)
		return LOCALPEER_UNKNOWN;
	localpeer_request(req, ++seq, peer, &us);
	/* the kernel answers within the write: the read never waits */
	if (write(diag, req, sizeof req) != (ssize_t)sizeof req)
		return LOCALPEER_UNKNOWN;
	for (int i = 0; i < READS_MAX; i++) {
		ssize_t n = read(diag, buf, sizeof buf);

		if (n <= 0 || (size_t)n == sizeof buf)
			return LOCALPEER_UNKNOWN;	/* none, or cut */
		switch (localpeer_reply_parse(buf, (size_t)n, seq, peer, &us,
		    uid)) {
		case LOCALPEER_REPLY_FOUND:
			return LOCALPEER_LOCAL;
		case LOCALPEER_REPLY_NOT_FOUND:
			errno = ENOENT;	/* the self-test's clue */
			return localpeer_is_loopback(peer) ?
			    LOCALPEER_UNKNOWN : LOCALPEER_REMOTE;
		case LOCALPEER_REPLY_OTHER_SEQ:
			continue;
		case LOCALPEER_REPLY_BAD:
			errno = EPROTO;
			return LOCALPEER_UNKNOWN;
		}
	}
	return LOCALPEER_UNKNOWN;
}

enum localpeer_kind
localpeer_of(int diag, int conn, const struct sockaddr *sa, socklen_t len,
    uid_t *uid)
{
	struct localpeer_end peer;
	struct ucred cred;
	socklen_t cl = sizeof cred;

	if (sa && sa->sa_family == AF_UNIX) {
		if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &cl) != 0 ||
		    cl != sizeof cred)
			return LOCALPEER_UNKNOWN;
		*uid = cred.uid;
		return LOCALPEER_LOCAL;
	}
	if (localpeer_end_of(&peer, sa, len) != 0)
		return LOCALPEER_UNKNOWN;
	return tcp_peer(diag, conn, &peer, uid);
}

int
localpeer_uid_in(uid_t uid, uid_t first, uid_t last)
{
	return last != 0 && uid >= first && uid <= last;
}

/* A loopback connection of our own, looked up: our uid must come back. */
static int
self_test(int diag, char *err, size_t errlen)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_storage ss;
	socklen_t al = sizeof a, sl = sizeof ss;
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), c = -1, s = -1;
	enum localpeer_kind k = LOCALPEER_UNKNOWN;
	uid_t uid = (uid_t)-1;
	const char *step = "a loopback socket";

	if (l >= 0 && bind(l, (struct sockaddr *)&a, sizeof a) == 0 &&
	    listen(l, 1) == 0 &&
	    getsockname(l, (struct sockaddr *)&a, &al) == 0 &&
	    (c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) >= 0 &&
	    connect(c, (struct sockaddr *)&a, sizeof a) == 0 &&
	    (s = accept4(l, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC)) >= 0) {
		step = "the kernel's socket table (NETLINK_SOCK_DIAG)";
		k = localpeer_of(diag, s, (struct sockaddr *)&ss, sl, &uid);
	}
	if (k == LOCALPEER_LOCAL && uid == geteuid())
		step = NULL;
	else if (k == LOCALPEER_LOCAL)
		errno = EPROTO;
	else if (errno == 0)
		errno = ENOENT;
	/* our own connection not in the table: no TCP handler for
	 * SOCK_DIAG (a module the kernel could not load) */
	if (step && k != LOCALPEER_LOCAL && errno == ENOENT && c >= 0 &&
	    s >= 0)
		snprintf(err, errlen, "cannot tell a local peer's uid: the "
		    "kernel has no TCP socket diagnostics (NETLINK_SOCK_DIAG "
		    "answers ENOENT for a connection of our own): load its "
		    "modules (modprobe tcp_diag, which loads inet_diag) or "
		    "build the kernel with CONFIG_INET_DIAG and "
		    "CONFIG_INET_TCP_DIAG (needed to refuse leases at the "
		    "service's own ports)");
	else if (step)
		snprintf(err, errlen, "cannot tell a local peer's uid: %s: %s "
		    "(needed to refuse leases at the service's own ports)",
		    step, strerror(errno));
	if (s >= 0)
		close(s);
	if (c >= 0)
		close(c);
	if (l >= 0)
		close(l);
	return step ? -1 : 0;
}

int
localpeer_open(char *err, size_t errlen)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    NETLINK_SOCK_DIAG);

	if (fd < 0) {
		snprintf(err, errlen, "cannot tell a local peer's uid: "
		    "socket(NETLINK_SOCK_DIAG): %s (under a container seccomp "
		    "profile: use this version's, airlock seccomp --export "
		    "docker)", strerror(errno));
		return -1;
	}
	errno = 0;
	if (self_test(fd, err, errlen) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}
