/* localpeer_test.c - the uid behind a local peer: the SOCK_DIAG request's
 * bytes, every reply shape (found, ENOENT, a listener in the peer's place,
 * another seq, cut or lying lengths, another error), and the real kernel:
 * a loopback connection of ours is found with our uid, from 127.0.0.1 and
 * from another 127/8 address, over IPv4 and IPv6, and a unix peer by
 * SO_PEERCRED. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/service/localpeer.h"
#include "tap.h"

static struct localpeer_end
v4(const char *a, uint16_t port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
		.sin_port = htons(port) };
	struct localpeer_end e;

	inet_pton(AF_INET, a, &sin.sin_addr);
	localpeer_end_of(&e, (struct sockaddr *)&sin, sizeof sin);
	return e;
}

/* A reply of type SOCK_DIAG_BY_FAMILY for a socket of family f with the
 * given ends and uid; its length. */
static size_t
found_reply(uint8_t *buf, uint32_t seq, int f, const char *src,
    uint16_t sport, const char *dst, uint16_t dport, uint32_t uid)
{
	struct nlmsghdr h = { .nlmsg_len = sizeof h +
		sizeof(struct inet_diag_msg), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
		.nlmsg_seq = seq };
	struct inet_diag_msg m;

	memset(&m, 0, sizeof m);
	m.idiag_family = (uint8_t)f;
	m.id.idiag_sport = htons(sport);
	m.id.idiag_dport = htons(dport);
	inet_pton(f, src, m.id.idiag_src);
	inet_pton(f, dst, m.id.idiag_dst);
	m.idiag_uid = uid;
	memcpy(buf, &h, sizeof h);
	memcpy(buf + sizeof h, &m, sizeof m);
	return h.nlmsg_len;
}

static size_t
error_reply(uint8_t *buf, uint32_t seq, int32_t err)
{
	struct nlmsghdr h = { .nlmsg_len = sizeof h + sizeof err,
		.nlmsg_type = NLMSG_ERROR, .nlmsg_seq = seq };

	memcpy(buf, &h, sizeof h);
	memcpy(buf + sizeof h, &err, sizeof err);
	return h.nlmsg_len;
}

/* Connect a socket of family f from src to a listener on dst (both
 * loopback), accept, and ask who the peer is. */
static enum localpeer_kind
live(int diag, int f, const char *src, const char *dst, uid_t *uid)
{
	struct sockaddr_storage a, b, p;
	socklen_t al, pl = sizeof p;
	int l = socket(f, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int c = socket(f, SOCK_STREAM | SOCK_CLOEXEC, 0), s = -1;
	enum localpeer_kind k = LOCALPEER_UNKNOWN;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.ss_family = b.ss_family = (sa_family_t)f;
	if (f == AF_INET) {
		inet_pton(f, dst, &((struct sockaddr_in *)&a)->sin_addr);
		inet_pton(f, src, &((struct sockaddr_in *)&b)->sin_addr);
		al = sizeof(struct sockaddr_in);
	} else {
		inet_pton(f, dst, &((struct sockaddr_in6 *)&a)->sin6_addr);
		inet_pton(f, src, &((struct sockaddr_in6 *)&b)->sin6_addr);
		al = sizeof(struct sockaddr_in6);
	}
	if (bind(l, (struct sockaddr *)&a, al) == 0 && listen(l, 1) == 0 &&
	    getsockname(l, (struct sockaddr *)&a, &al) == 0 &&
	    bind(c, (struct sockaddr *)&b, al) == 0 &&
	    connect(c, (struct sockaddr *)&a, al) == 0 &&
	    (s = accept(l, (struct sockaddr *)&p, &pl)) >= 0)
		k = localpeer_of(diag, s, (struct sockaddr *)&p, pl, uid);
	close(l);
	close(c);
	if (s >= 0)
		close(s);
	return k;
}

int
main(void)
{
	struct localpeer_end peer = v4("127.0.0.2", 40000),
	    us = v4("127.0.0.1", 7000);
	uint8_t req[LOCALPEER_REQ_LEN], buf[512];
	struct inet_diag_req_v2 r;
	struct nlmsghdr h;
	uid_t uid = 0;
	size_t n;
	char err[256];
	int diag, sp[2];

	localpeer_request(req, 9, &peer, &us);
	memcpy(&h, req, sizeof h);
	memcpy(&r, req + sizeof h, sizeof r);
	ok(h.nlmsg_len == LOCALPEER_REQ_LEN && h.nlmsg_type ==
	    SOCK_DIAG_BY_FAMILY && h.nlmsg_flags == NLM_F_REQUEST &&
	    h.nlmsg_seq == 9, "request: one exact lookup, our seq");
	ok(r.sdiag_family == AF_INET && r.sdiag_protocol == IPPROTO_TCP &&
	    r.id.idiag_sport == htons(40000) && r.id.idiag_dport ==
	    htons(7000) && r.id.idiag_src[0] == htonl(0x7f000002) &&
	    r.id.idiag_dst[0] == htonl(0x7f000001) &&
	    r.id.idiag_cookie[0] == INET_DIAG_NOCOOKIE,
	    "... for the socket whose local end is the peer, remote us");

	n = found_reply(buf, 9, AF_INET, "127.0.0.2", 40000, "127.0.0.1",
	    7000, 300123);
	ok(localpeer_reply_parse(buf, n, 9, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_FOUND && uid == 300123, "found: its uid");
	n = found_reply(buf, 9, AF_INET6, "::ffff:127.0.0.2", 40000,
	    "::ffff:127.0.0.1", 7000, 5);
	ok(localpeer_reply_parse(buf, n, 9, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_FOUND && uid == 5,
	    "found: a dual-stack socket's mapped addresses are the same ends");
	n = found_reply(buf, 9, AF_INET, "0.0.0.0", 40000, "0.0.0.0", 0, 7);
	ok(localpeer_reply_parse(buf, n, 9, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_NOT_FOUND,
	    "a listener on the peer's port is not the peer");
	n = found_reply(buf, 9, AF_INET, "127.0.0.2", 40000, "127.0.0.1",
	    7001, 7);
	ok(localpeer_reply_parse(buf, n, 9, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_NOT_FOUND, "nor a socket to another port of ours");
	n = found_reply(buf, 8, AF_INET, "127.0.0.2", 40000, "127.0.0.1",
	    7000, 7);
	ok(localpeer_reply_parse(buf, n, 9, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_OTHER_SEQ, "another seq: stale");
	ok(localpeer_reply_parse(buf, n - 1, 8, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_BAD, "a datagram shorter than its nlmsg_len: bad");
	buf[0] = 20;	/* nlmsg_len 20: a header and 4 bytes, no message */
	memset(buf + 1, 0, 3);
	ok(localpeer_reply_parse(buf, n, 8, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_BAD, "a reply too short for a socket: bad");
	n = found_reply(buf, 9, 99, "127.0.0.2", 40000, "127.0.0.1", 7000, 7);
	buf[sizeof h] = 99;
	ok(localpeer_reply_parse(buf, n, 9, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_BAD, "an unknown family: bad");
	ok(localpeer_reply_parse(buf, 15, 9, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_BAD, "less than a header: bad");
	n = error_reply(buf, 9, -ENOENT);
	ok(localpeer_reply_parse(buf, n, 9, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_NOT_FOUND, "ENOENT: not found");
	n = error_reply(buf, 9, -EPERM);
	ok(localpeer_reply_parse(buf, n, 9, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_BAD, "another error: bad (the caller refuses)");
	ok(localpeer_reply_parse(buf, n - 1, 9, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_BAD, "an error cut short: bad");
	ok(localpeer_is_loopback(&peer) &&
	    !localpeer_is_loopback(&(struct localpeer_end){ { 10 }, 0 }),
	    "127/8 is loopback, 10/8 is not");
	ok(localpeer_uid_in(300000, 300000, 300999) &&
	    localpeer_uid_in(300999, 300000, 300999) &&
	    !localpeer_uid_in(299999, 300000, 300999) &&
	    !localpeer_uid_in(0, 0, 0), "the lease range, inclusive; none");

	/* the kernel */
	diag = localpeer_open(err, sizeof err);
	ok(diag >= 0, "a socket-table query opens and passes its self-test%s%s",
	    diag < 0 ? ": " : "", diag < 0 ? err : "");
	uid = (uid_t)-1;
	ok(live(diag, AF_INET, "127.0.0.1", "127.0.0.1", &uid) ==
	    LOCALPEER_LOCAL && uid == geteuid(), "a loopback peer: our uid");
	uid = (uid_t)-1;
	ok(live(diag, AF_INET, "127.3.4.5", "127.0.0.1", &uid) ==
	    LOCALPEER_LOCAL && uid == geteuid(),
	    "... from another of 127/8 too");
	uid = (uid_t)-1;
	ok(live(diag, AF_INET6, "::1", "::1", &uid) == LOCALPEER_LOCAL &&
	    uid == geteuid(), "... and over IPv6");
	ok(live(-1, AF_INET, "127.0.0.1", "127.0.0.1", &uid) ==
	    LOCALPEER_UNKNOWN, "no query socket: unknown, never remote");
	uid = (uid_t)-1;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0) {
		struct sockaddr sa = { .sa_family = AF_UNIX };

		ok(localpeer_of(diag, sp[0], &sa, sizeof sa, &uid) ==
		    LOCALPEER_LOCAL && uid == geteuid(),
		    "a unix peer: SO_PEERCRED");
		close(sp[0]);
		close(sp[1]);
	}
	close(diag);
	return tap_done();
}
