/* ctlmsg.c - typed, exact-size control messages and their fd passing. */
#include "common/service/ctlmsg.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/bounded_rw.h"
#include "common/base/secmem.h"
#include "common/wire/version.h"

const char *
ctlmsg_status_text(enum ctlmsg_status s)
{
	switch (s) {
	case CTLMSG_OK: return "ok";
	case CTLMSG_BAD_TYPE: return "unknown message type";
	case CTLMSG_BAD_LENGTH: return "wrong message size";
	case CTLMSG_BAD_FIELD: return "invalid field";
	case CTLMSG_BAD_FD: return "file descriptor missing or unexpected";
	case CTLMSG_CLOSED: return "peer closed";
	case CTLMSG_IO: return "i/o error";
	}
	return "unknown";
}

/* The payload size of type, or -1 for an unknown type. */
static long
payload_len(unsigned type)
{
	switch (type) {
	case CTLMSG_CONN: return CTLMSG_CONN_LEN;
	case CTLMSG_ADMIT: return CTLMSG_ADMIT_LEN;
	case CTLMSG_VERDICT: return CTLMSG_VERDICT_LEN;
	case CTLMSG_DONE: return CTLMSG_DONE_LEN;
	case CTLMSG_READY: return 0;
	}
	return -1;
}

static void
put_cipher(struct wr *w, const struct noise_cipher *c)
{
	wr_bytes(w, c->k, sizeof c->k);
	wr_u64(w, c->n);
}

long
ctlmsg_encode(uint8_t *out, size_t cap, const struct ctlmsg *m)
{
	long plen = payload_len(m->type);
	struct wr w = wr_init(out, cap);
	static const uint8_t zeros[PROTO_ID_MAX];
	size_t tl;

	if (plen < 0)
		return -1;
	wr_u16(&w, (uint16_t)m->type);
	wr_u16(&w, (uint16_t)plen);
	switch (m->type) {
	case CTLMSG_CONN:
		put_cipher(&w, &m->u.conn.tx);
		put_cipher(&w, &m->u.conn.rx);
		if (m->conn_version < 1 || m->conn_version > VERSION_MAX ||
		    m->conn_word > VERSION_WORDS_MAX)
			return -1;
		wr_u8(&w, m->conn_key);
		wr_u8(&w, m->conn_version);
		wr_u8(&w, m->conn_word);
		break;
	case CTLMSG_ADMIT:
		tl = strnlen(m->u.admit.tenant, sizeof m->u.admit.tenant);
		if (!proto_id_valid((const uint8_t *)m->u.admit.tenant, tl))
			return -1;
		wr_u64(&w, m->u.admit.cpu_ms);
		wr_u8(&w, (uint8_t)tl);
		wr_bytes(&w, m->u.admit.tenant, tl);
		wr_bytes(&w, zeros, PROTO_ID_MAX - tl);
		break;
	case CTLMSG_VERDICT:
		wr_u16(&w, m->u.verdict);
		break;
	case CTLMSG_DONE:
		wr_u64(&w, m->u.done_cpu_ms);
		break;
	case CTLMSG_READY:
		break;
	}
	if (w.bad) {
		secure_wipe(out, cap);
		return -1;
	}
	return (long)w.off;
}

/* A transport direction: a key that is not all zeros and a nonce short of
 * the reserved 2^64-1. */
static int
get_cipher(struct rd *r, struct noise_cipher *c)
{
	const uint8_t *k;

	if (rd_bytes(r, sizeof c->k, &k) || rd_u64(r, &c->n) ||
	    ct_is_zero(k, sizeof c->k) || c->n == UINT64_MAX)
		return -1;
	memcpy(c->k, k, sizeof c->k);
	c->has_key = 1;
	return 0;
}

static enum ctlmsg_status
decode_payload(struct ctlmsg *m, struct rd *r)
{
	const uint8_t *b;
	uint8_t tl;

	switch (m->type) {
	case CTLMSG_CONN:
		if (get_cipher(r, &m->u.conn.tx) ||
		    get_cipher(r, &m->u.conn.rx) || rd_u8(r, &m->conn_key) ||
		    m->conn_key >= SECRET_RING_MAX ||
		    rd_u8(r, &m->conn_version) || m->conn_version < 1 ||
		    m->conn_version > VERSION_MAX ||
		    rd_u8(r, &m->conn_word) || m->conn_word > VERSION_WORDS_MAX)
			return CTLMSG_BAD_FIELD;
		m->u.conn.ready = 1;
		return CTLMSG_OK;
	case CTLMSG_ADMIT:
		if (rd_u64(r, &m->u.admit.cpu_ms) || rd_u8(r, &tl) ||
		    tl > PROTO_ID_MAX || rd_bytes(r, PROTO_ID_MAX, &b) ||
		    !proto_id_valid(b, tl) ||
		    !ct_is_zero(b + tl, PROTO_ID_MAX - tl))
			return CTLMSG_BAD_FIELD;
		memcpy(m->u.admit.tenant, b, tl);
		m->u.admit.tenant[tl] = '\0';
		return CTLMSG_OK;
	case CTLMSG_VERDICT:
		return rd_u16(r, &m->u.verdict) ? CTLMSG_BAD_LENGTH : CTLMSG_OK;
	case CTLMSG_DONE:
		return rd_u64(r, &m->u.done_cpu_ms) ? CTLMSG_BAD_LENGTH :
		    CTLMSG_OK;
	case CTLMSG_READY:
		return CTLMSG_OK;
	}
	return CTLMSG_BAD_TYPE;
}

enum ctlmsg_status
ctlmsg_decode(struct ctlmsg *m, const uint8_t *p, size_t n, int has_fd)
{
	struct rd r = rd_init(p, n);
	uint16_t type, len;
	enum ctlmsg_status st;

	memset(m, 0, sizeof *m);
	if (rd_u16(&r, &type) || rd_u16(&r, &len))
		return CTLMSG_BAD_LENGTH;
	if (payload_len(type) < 0)
		return CTLMSG_BAD_TYPE;
	if (len != payload_len(type) || rd_left(&r) != len)
		return CTLMSG_BAD_LENGTH;
	if (has_fd != (type == CTLMSG_CONN))
		return CTLMSG_BAD_FD;
	m->type = (enum ctlmsg_type)type;
	st = decode_payload(m, &r);
	if (st == CTLMSG_OK && !rd_done(&r))
		st = CTLMSG_BAD_LENGTH;
	if (st != CTLMSG_OK)
		secure_wipe(m, sizeof *m);
	return st;
}

enum ctlmsg_status
ctlmsg_send(int fd, const struct ctlmsg *m, int pass_fd, int flags)
{
	uint8_t buf[CTLMSG_MAX];
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int))];
	} cm;
	struct iovec iov;
	struct msghdr mh;
	long n = ctlmsg_encode(buf, sizeof buf, m);
	ssize_t sent;

	if (n < 0)
		return CTLMSG_BAD_FIELD;
	iov = (struct iovec){ buf, (size_t)n };
	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (pass_fd >= 0) {
		memset(&cm, 0, sizeof cm);
		mh.msg_control = cm.space;
		mh.msg_controllen = sizeof cm.space;
		cm.h.cmsg_level = SOL_SOCKET;
		cm.h.cmsg_type = SCM_RIGHTS;
		cm.h.cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(&cm.h), &pass_fd, sizeof pass_fd);
	}
	do
		sent = sendmsg(fd, &mh, flags | MSG_NOSIGNAL);
	while (sent < 0 && errno == EINTR);
	secure_wipe(buf, sizeof buf);
	return sent == n ? CTLMSG_OK : CTLMSG_IO;
}

/* Every fd the kernel handed us in mh's ancillary data: how many, the
 * first in *first; the others are closed at once. */
static size_t
take_fds(struct msghdr *mh, int *first)
{
	size_t count = 0;

	*first = -1;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		size_t n;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len < CMSG_LEN(0))
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int got;

			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof got);
			if (count++ == 0)
				*first = got;
			else
				close(got);
		}
	}
	return count;
}

enum ctlmsg_status
ctlmsg_recv(int fd, struct ctlmsg *m, int *got_fd, int flags)
{
	uint8_t buf[CTLMSG_MAX + 1];
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(4 * sizeof(int))];
	} cm;
	struct iovec iov = { buf, sizeof buf };
	struct msghdr mh;
	enum ctlmsg_status st;
	ssize_t n;
	size_t nfds;
	int passed;

	*got_fd = -1;
	memset(m, 0, sizeof *m);
	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cm.space;
	mh.msg_controllen = sizeof cm.space;
	do
		n = recvmsg(fd, &mh, flags | MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return CTLMSG_IO;
	nfds = take_fds(&mh, &passed);
	if (n == 0 && nfds == 0)
		return CTLMSG_CLOSED;
	if ((mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || nfds > 1)
		st = mh.msg_flags & MSG_TRUNC ? CTLMSG_BAD_LENGTH : CTLMSG_BAD_FD;
	else
		st = ctlmsg_decode(m, buf, (size_t)n, nfds == 1);
	secure_wipe(buf, sizeof buf);
	if (st != CTLMSG_OK) {
		if (passed >= 0)
			close(passed);
		return st;
	}
	*got_fd = passed;
	return CTLMSG_OK;
}
