/* ctlmsg_test.c - control messages are exact-size and typed: every
 * message round-trips, every length but the exact one, every unknown type,
 * a bad tenant or padding and a misplaced fd are refused; over a real
 * socketpair the fd of a CONN arrives and a stray fd is closed. */
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/service/ctlmsg.h"
#include "common/wire/version.h"
#include "tap.h"

static long
enc(uint8_t *buf, size_t cap, const struct ctlmsg *m)
{
	return ctlmsg_encode(buf, cap, m);
}

static void
check_lengths(const struct ctlmsg *m, const char *name)
{
	uint8_t buf[CTLMSG_MAX + 8];
	struct ctlmsg out;
	long n = enc(buf, sizeof buf, m);
	int bad = 0;

	ok(n > 0 && ctlmsg_decode(&out, buf, (size_t)n,
	    m->type == CTLMSG_CONN) == CTLMSG_OK, "%s round-trips", name);
	for (long k = 0; k < n + 4; k++) {
		if (k == n)
			continue;
		bad += ctlmsg_decode(&out, buf, (size_t)k,
		    m->type == CTLMSG_CONN) == CTLMSG_OK;
	}
	ok(bad == 0, "%s: every other length is refused", name);
	ok(ctlmsg_decode(&out, buf, (size_t)n, m->type != CTLMSG_CONN) ==
	    CTLMSG_BAD_FD, "%s: with the wrong fd presence it is refused",
	    name);
}

int
main(void)
{
	struct ctlmsg m, out;
	uint8_t buf[CTLMSG_MAX + 8];
	long n;
	int sp[2], fd, pipefd[2];

	memset(&m, 0, sizeof m);
	m.type = CTLMSG_CONN;
	memset(m.u.conn.tx.k, 0x11, sizeof m.u.conn.tx.k);
	memset(m.u.conn.rx.k, 0x22, sizeof m.u.conn.rx.k);
	m.u.conn.tx.n = 0;
	m.u.conn.rx.n = 7;
	m.conn_key = 3;
	m.conn_version = 2;
	m.conn_word = 2;
	check_lengths(&m, "CONN");
	n = enc(buf, sizeof buf, &m);
	ok(n == CTLMSG_HEADER_LEN + CTLMSG_CONN_LEN && buf[0] == 0 &&
	    buf[1] == CTLMSG_CONN && buf[2] == 0 && buf[3] == CTLMSG_CONN_LEN &&
	    CTLMSG_CONN_LEN == 83, "CONN is type 1, length 83, big-endian");
	ok(ctlmsg_decode(&out, buf, (size_t)n, 1) == CTLMSG_OK &&
	    out.u.conn.ready && out.u.conn.tx.has_key &&
	    out.u.conn.rx.n == 7 && out.u.conn.tx.k[31] == 0x11 &&
	    out.conn_key == 3 && out.conn_version == 2 && out.conn_word == 2,
	    "CONN decodes into a ready transport, its secret's index, its "
	    "protocol version and its prologue word");
	buf[n - 3] = SECRET_RING_MAX;
	ok(ctlmsg_decode(&out, buf, (size_t)n, 1) == CTLMSG_BAD_FIELD,
	    "a secret index past the ring is refused");
	n = enc(buf, sizeof buf, &m);
	buf[n - 2] = 0;
	ok(ctlmsg_decode(&out, buf, (size_t)n, 1) == CTLMSG_BAD_FIELD,
	    "protocol version 0 is refused");
	buf[n - 2] = VERSION_MAX + 1;
	ok(ctlmsg_decode(&out, buf, (size_t)n, 1) == CTLMSG_BAD_FIELD,
	    "a protocol version past %d is refused", VERSION_MAX);
	n = enc(buf, sizeof buf, &m);
	buf[n - 1] = 0;
	ok(ctlmsg_decode(&out, buf, (size_t)n, 1) == CTLMSG_OK &&
	    out.conn_word == 0, "word 0 (a plain prologue) decodes");
	buf[n - 1] = VERSION_WORDS_MAX;
	ok(ctlmsg_decode(&out, buf, (size_t)n, 1) == CTLMSG_OK &&
	    out.conn_word == VERSION_WORDS_MAX, "word %d decodes",
	    VERSION_WORDS_MAX);
	buf[n - 1] = VERSION_WORDS_MAX + 1;
	ok(ctlmsg_decode(&out, buf, (size_t)n, 1) == CTLMSG_BAD_FIELD,
	    "a word past %d is refused", VERSION_WORDS_MAX);
	m.conn_word = VERSION_WORDS_MAX + 1;
	ok(ctlmsg_encode(buf, sizeof buf, &m) == -1,
	    "the encoder refuses it too");
	m.conn_word = 2;
	m.conn_version = 0;
	ok(ctlmsg_encode(buf, sizeof buf, &m) == -1,
	    "the encoder refuses version 0 too");
	m.conn_version = 2;
	n = enc(buf, sizeof buf, &m);
	memset(buf + 4, 0, NOISE_KEY_LEN);
	ok(ctlmsg_decode(&out, buf, (size_t)n, 1) == CTLMSG_BAD_FIELD,
	    "an all-zero key is refused");
	n = enc(buf, sizeof buf, &m);
	memset(buf + 4 + NOISE_KEY_LEN, 0xff, 8);
	ok(ctlmsg_decode(&out, buf, (size_t)n, 1) == CTLMSG_BAD_FIELD,
	    "the reserved nonce 2^64-1 is refused");

	memset(&m, 0, sizeof m);
	m.type = CTLMSG_ADMIT;
	m.u.admit.cpu_ms = 1234;
	strcpy(m.u.admit.tenant, "acme-1");
	check_lengths(&m, "ADMIT");
	n = enc(buf, sizeof buf, &m);
	ok(ctlmsg_decode(&out, buf, (size_t)n, 0) == CTLMSG_OK &&
	    out.u.admit.cpu_ms == 1234 &&
	    strcmp(out.u.admit.tenant, "acme-1") == 0, "ADMIT decodes");
	buf[4 + 8 + 1 + 10] = 'x';
	ok(ctlmsg_decode(&out, buf, (size_t)n, 0) == CTLMSG_BAD_FIELD,
	    "non-zero padding after the tenant is refused");
	n = enc(buf, sizeof buf, &m);
	buf[4 + 8] = 0;
	ok(ctlmsg_decode(&out, buf, (size_t)n, 0) == CTLMSG_BAD_FIELD,
	    "an empty tenant is refused");
	n = enc(buf, sizeof buf, &m);
	buf[4 + 8] = PROTO_ID_MAX + 1;
	ok(ctlmsg_decode(&out, buf, (size_t)n, 0) == CTLMSG_BAD_FIELD,
	    "a tenant length past the field is refused");
	n = enc(buf, sizeof buf, &m);
	buf[4 + 8 + 1 + 2] = '/';
	ok(ctlmsg_decode(&out, buf, (size_t)n, 0) == CTLMSG_BAD_FIELD,
	    "a tenant that is no id is refused");
	strcpy(m.u.admit.tenant, "../x");
	ok(enc(buf, sizeof buf, &m) == -1, "... and never encoded");

	memset(&m, 0, sizeof m);
	m.type = CTLMSG_VERDICT;
	m.u.verdict = 0x0107;
	check_lengths(&m, "VERDICT");
	memset(&m, 0, sizeof m);
	m.type = CTLMSG_DONE;
	m.u.done_cpu_ms = 99;
	check_lengths(&m, "DONE");

	n = enc(buf, sizeof buf, &m);
	buf[1] = 9;
	ok(ctlmsg_decode(&out, buf, (size_t)n, 0) == CTLMSG_BAD_TYPE,
	    "an unknown type is refused");
	ok(enc(buf, 5, &m) == -1, "a buffer too small encodes nothing");
	memset(&m, 0, sizeof m);
	m.type = CTLMSG_READY;
	check_lengths(&m, "READY");

	/* over a real socketpair: the fd travels with CONN only */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp) != 0 ||
	    pipe(pipefd) != 0)
		return 1;
	memset(&m, 0, sizeof m);
	m.type = CTLMSG_CONN;
	memset(m.u.conn.tx.k, 1, sizeof m.u.conn.tx.k);
	memset(m.u.conn.rx.k, 2, sizeof m.u.conn.rx.k);
	m.conn_version = 1;
	ok(ctlmsg_send(sp[0], &m, pipefd[1], 0) == CTLMSG_OK &&
	    ctlmsg_recv(sp[1], &out, &fd, 0) == CTLMSG_OK && fd >= 0 &&
	    write(fd, "z", 1) == 1 && read(pipefd[0], buf, 1) == 1 &&
	    buf[0] == 'z' && (fcntl(fd, F_GETFD) & FD_CLOEXEC),
	    "a CONN's fd arrives (CLOEXEC) and is the same pipe");
	close(fd);
	memset(&m, 0, sizeof m);
	m.type = CTLMSG_VERDICT;
	ok(ctlmsg_send(sp[0], &m, pipefd[1], 0) == CTLMSG_OK &&
	    ctlmsg_recv(sp[1], &out, &fd, 0) == CTLMSG_BAD_FD && fd == -1,
	    "a VERDICT carrying an fd is refused and the fd not kept");
	ok(send(sp[0], "\0\3\0\2\0\0\0", 7, 0) == 7 &&
	    ctlmsg_recv(sp[1], &out, &fd, 0) == CTLMSG_BAD_LENGTH,
	    "a datagram one byte too long is refused");
	close(sp[0]);
	ok(ctlmsg_recv(sp[1], &out, &fd, 0) == CTLMSG_CLOSED,
	    "the peer's end is CLOSED");
	return tap_done();
}
