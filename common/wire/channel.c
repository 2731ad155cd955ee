/* channel.c - Noise handshake and sealed frames over one socket. */
#include "common/wire/channel.h"

#include "common/wire/version.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/base/secmem.h"

#define SAY(...) snprintf(err, errlen, __VA_ARGS__)

static int
left_ms(int64_t deadline)
{
	int64_t d = deadline - mono_ms();

	return d < 0 ? 0 : d > 1000000 ? 1000000 : (int)d;
}

/* Blocking-with-deadline helpers used only during the handshake. */
static int
write_all(int fd, const uint8_t *p, size_t n, int64_t deadline)
{
	while (n > 0) {
		struct pollfd pf = { fd, POLLOUT, 0 };
		ssize_t w;

		if (poll(&pf, 1, left_ms(deadline)) <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		w = write(fd, p, n);
		if (w < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read one record into c->body within the deadline; its length or -1
 * (*closed set when the peer closed or reset the connection). */
static long
read_record(struct channel *c, int64_t deadline, const char **why,
    int *closed)
{
	for (;;) {
		size_t used;
		enum frame_status st = frame_feed(&c->dec, c->in + c->in_off,
		    c->in_len - c->in_off, &used);
		struct pollfd pf = { c->fd, POLLIN, 0 };
		long n;

		c->in_off += used;
		if (st == FRAME_OK)
			return (long)c->dec.want;
		if (st == FRAME_BAD) {
			*why = "bad record length";
			return -1;
		}
		if (poll(&pf, 1, left_ms(deadline)) <= 0) {
			*why = "timed out";
			return -1;
		}
		n = channel_fill(c);
		if (n == 0) {
			*why = "connection closed by the peer";
			*closed = 1;
			return -1;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			*why = strerror(errno);
			*closed = errno == ECONNRESET;
			return -1;
		}
	}
}

/* 1 when bytes from the peer wait unread on fd (its answer came before
 * our write failed), else 0; errno kept. */
static int
answer_waiting(int fd)
{
	int e = errno, waiting;
	uint8_t b;

	waiting = recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 1;
	errno = e;
	return waiting;
}

/* A handshake message as one record in one write: a peer that reads the
 * header and closes never sees a second write of ours fail first. */
static int
send_record(int fd, const uint8_t *body, size_t n, int64_t deadline)
{
	uint8_t rec[FRAME_HEADER_LEN + NOISE_MSG1_LEN];

	_Static_assert(NOISE_MSG2_LEN <= NOISE_MSG1_LEN, "msg2 fits rec");
	if (n > sizeof rec - FRAME_HEADER_LEN || frame_header(rec, n) != 0)
		return -1;
	memcpy(rec + FRAME_HEADER_LEN, body, n);
	return write_all(fd, rec, FRAME_HEADER_LEN + n, deadline);
}

int
channel_handshake(struct channel *c, int fd, enum channel_role role,
    const uint8_t psk[32], int timeout_ms, char *err, size_t errlen)
{
	return channel_handshake_as(c, fd, role, psk, VERSION_CURRENT, NULL,
	    "relay", "runner", timeout_ms, err, errlen);
}

/* A versions hint instead of msg2: say which cause it is, naming both
 * sides as the caller does (self: "relay", peer: "runner"). 0 when the
 * record is no hint. */
static int
say_hint(struct channel *c, size_t n, unsigned version, const char *self,
    const char *peer, char *err, size_t errlen)
{
	char theirs[VERSION_HINT_MAX];
	uint32_t mask;

	if (version_hint_parse(c->body, n, &mask) != 0)
		return 0;
	c->peer_versions = mask;
	version_list_text(mask, theirs, sizeof theirs);
	if (mask & (1u << version))
		SAY("handshake failed: wrong secret (the %s speaks "
		    "airlock/%u too: it accepts versions %s)", peer, version,
		    theirs);
	else
		SAY("handshake failed: protocol version mismatch: this %s "
		    "speaks airlock/%u, the %s accepts versions %s",
		    self, version, peer, theirs);
	return 1;
}

/* A channel on fd, non-blocking: its state zeroed, its buffers left as
 * they are (channel.h). */
static void
channel_setup(struct channel *c, int fd)
{
	memset(c, 0, offsetof(struct channel, body));
	c->fd = fd;
	frame_decoder_init(&c->dec, c->body, sizeof c->body);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

int
channel_handshake_as(struct channel *c, int fd, enum channel_role role,
    const uint8_t psk[32], unsigned version, const char *word,
    const char *self, const char *peer, int timeout_ms, char *err,
    size_t errlen)
{
	struct noise_handshake hs;
	uint8_t msg[NOISE_MSG1_LEN];
	char prologue[VERSION_PROLOGUE_MAX];
	size_t plen_pro = version_prologue(version, word, prologue,
	    sizeof prologue);
	int64_t deadline = mono_ms() + timeout_ms;
	const char *why = "";
	enum noise_status st;
	size_t len, plen;
	long n;
	int rc = -1, closed = 0;

	channel_setup(c, fd);
	st = plen_pro ? noise_handshake_init(&hs, role == CHANNEL_INITIATOR ?
	    NOISE_INITIATOR : NOISE_RESPONDER, psk, prologue, plen_pro) :
	    NOISE_ERR_ARG;
	if (st != NOISE_OK) {
		SAY("handshake setup failed: %s", noise_status_text(st));
		goto out;
	}
	if (role == CHANNEL_INITIATOR) {
		st = noise_write_message(&hs, NULL, 0, msg, sizeof msg, &len);
		if (st != NOISE_OK || send_record(fd, msg, len, deadline)) {
			c->unanswered = st == NOISE_OK && (errno == EPIPE ||
			    errno == ECONNRESET) && !answer_waiting(fd);
			SAY("cannot send handshake message 1: %s", st ?
			    noise_status_text(st) : strerror(errno));
			goto out;
		}
		/* a runner that cannot authenticate msg1 closes without a
		 * word (docs/PROTOCOL.md), so both causes are named here */
		if ((n = read_record(c, deadline, &why, &closed)) < 0) {
			c->unanswered = closed && c->bytes_read == 0;
			SAY("handshake failed: no reply (%s): wrong secret, or "
			    "not an airlock/%u %s (a %s also closes "
			    "connections past its --max-conns-per-peer)", why,
			    version, peer, peer);
			goto out;
		}
		if (n != NOISE_MSG2_LEN &&
		    say_hint(c, (size_t)n, version, self, peer, err, errlen))
			goto out;
		st = noise_read_message(&hs, c->body, (size_t)n, NULL, 0, &plen);
		if (st != NOISE_OK) {
			SAY("handshake failed: %s (wrong secret, or not an "
			    "airlock/%u %s)", noise_status_text(st), version,
			    peer);
			goto out;
		}
	} else {
		if ((n = read_record(c, deadline, &why, &closed)) < 0) {
			SAY("no handshake message: %s", why);
			goto out;
		}
		st = noise_read_message(&hs, c->body, (size_t)n, NULL, 0, &plen);
		if (st != NOISE_OK) {
			SAY("handshake failed: %s (wrong secret or protocol "
			    "version)", noise_status_text(st));
			goto out;
		}
		st = noise_write_message(&hs, NULL, 0, msg, sizeof msg, &len);
		if (st != NOISE_OK || send_record(fd, msg, len, deadline)) {
			SAY("cannot send handshake message 2: %s", st ?
			    noise_status_text(st) : strerror(errno));
			goto out;
		}
	}
	st = noise_split(&hs, &c->nt);
	if (st != NOISE_OK) {
		SAY("handshake split failed: %s", noise_status_text(st));
		goto out;
	}
	rc = 0;
out:
	noise_handshake_destroy(&hs);
	if (rc != 0) {
		noise_transport_destroy(&c->nt);
		c->failed = 1;
	}
	return rc;
}

void
channel_adopt(struct channel *c, int fd, struct noise_transport *t)
{
	channel_setup(c, fd);
	c->nt = *t;
	secure_wipe(t, sizeof *t);
}

int
channel_can_queue(const struct channel *c)
{
	return !c->failed && !c->send_failed &&
	    CHANNEL_OUT_CAP - (c->out_len - c->out_off) >= CHANNEL_RECORD_MAX;
}

int
channel_queue(struct channel *c, uint8_t type, const void *payload,
    size_t len)
{
	uint8_t *rec;
	size_t sealed;

	if (c->failed || c->send_failed || len > FRAME_PAYLOAD_MAX)
		return -1;
	if (c->out_off > 0 && CHANNEL_OUT_CAP - c->out_len <
	    CHANNEL_RECORD_MAX) {	/* compact: keep the free space at the end */
		memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
		c->out_len -= c->out_off;
		c->out_off = 0;
	}
	if (CHANNEL_OUT_CAP - c->out_len < FRAME_HEADER_LEN + 1 + len +
	    FRAME_TAG_LEN)
		return -1;
	rec = c->out + c->out_len;
	rec[FRAME_HEADER_LEN] = type;
	memcpy(rec + FRAME_HEADER_LEN + 1, payload, len);
	if (noise_encrypt(&c->nt, rec + FRAME_HEADER_LEN, 1 + len,
	    FRAME_RECORD_MAX, &sealed) != NOISE_OK ||
	    frame_header(rec, sealed) != 0) {
		c->failed = 1;
		return -1;
	}
	c->out_len += FRAME_HEADER_LEN + sealed;
	return 0;
}

size_t
channel_pending(const struct channel *c)
{
	return c->out_len - c->out_off;
}

int
channel_flush(struct channel *c)
{
	while (c->out_off < c->out_len) {
		ssize_t w = write(c->fd, c->out + c->out_off,
		    c->out_len - c->out_off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return 0;
		if (w <= 0) {
			c->send_failed = 1;
			return -1;
		}
		c->out_off += (size_t)w;
		c->bytes_written += (uint64_t)w;
	}
	c->out_off = c->out_len = 0;
	return 0;
}

int
channel_send_wait(struct channel *c, uint8_t type, const void *payload,
    size_t len, int timeout_ms)
{
	if (channel_queue(c, type, payload, len) != 0)
		return -1;
	return channel_flush_wait(c, timeout_ms);
}

int
channel_flush_wait(struct channel *c, int timeout_ms)
{
	int64_t deadline = mono_ms() + timeout_ms;

	while (channel_pending(c) > 0) {
		struct pollfd pf = { c->fd, POLLOUT, 0 };

		if (poll(&pf, 1, left_ms(deadline)) <= 0 ||
		    channel_flush(c) != 0)
			return -1;
	}
	return 0;
}

long
channel_fill(struct channel *c)
{
	ssize_t n;

	if (c->in_off == c->in_len) {
		c->in_off = c->in_len = 0;
	} else if (c->in_off > 0) {
		memmove(c->in, c->in + c->in_off, c->in_len - c->in_off);
		c->in_len -= c->in_off;
		c->in_off = 0;
	}
	if (c->in_len == sizeof c->in) {
		errno = EAGAIN;	/* parse what is buffered first */
		return -1;
	}
	do
		n = read(c->fd, c->in + c->in_len, sizeof c->in - c->in_len);
	while (n < 0 && errno == EINTR);
	if (n > 0) {
		c->in_len += (size_t)n;
		c->bytes_read += (uint64_t)n;
	}
	return (long)n;
}

enum channel_next
channel_next(struct channel *c, uint8_t *type, const uint8_t **payload,
    size_t *len, const char **why)
{
	size_t used, plain;
	enum frame_status st;

	if (c->failed) {
		*why = "channel already failed";
		return CHANNEL_BAD;
	}
	st = frame_feed(&c->dec, c->in + c->in_off, c->in_len - c->in_off,
	    &used);
	c->in_off += used;
	if (st == FRAME_NEED)
		return CHANNEL_NEED;
	if (st == FRAME_BAD || c->dec.want < FRAME_TAG_LEN + 1) {
		*why = "bad record length";
		c->failed = 1;
		return CHANNEL_BAD;
	}
	if (noise_decrypt(&c->nt, c->body, c->dec.want, &plain) != NOISE_OK) {
		*why = "a record failed authentication (altered, replayed "
		    "or reordered)";
		c->failed = 1;
		return CHANNEL_BAD;
	}
	if (!frame_type_known(c->body[0])) {
		*why = "unknown frame type";
		c->failed = 1;
		return CHANNEL_BAD;
	}
	*type = c->body[0];
	*payload = c->body + 1;
	*len = plain - 1;
	return CHANNEL_FRAME;
}

enum channel_next
channel_recv_wait(struct channel *c, uint8_t *type, const uint8_t **payload,
    size_t *len, int timeout_ms, const char **why)
{
	int64_t deadline = mono_ms() + timeout_ms;

	for (;;) {
		enum channel_next r = channel_next(c, type, payload, len, why);
		struct pollfd pf = { c->fd, POLLIN, 0 };
		long n;

		if (r != CHANNEL_NEED)
			return r;
		if (poll(&pf, 1, left_ms(deadline)) <= 0) {
			*why = "timed out";
			return CHANNEL_NEED;
		}
		n = channel_fill(c);
		if (n == 0) {
			*why = "connection closed by the peer";
			return CHANNEL_BAD;
		}
		if (n < 0 && errno != EAGAIN) {
			*why = strerror(errno);
			return CHANNEL_BAD;
		}
	}
}

void
channel_close(struct channel *c)
{
	noise_transport_destroy(&c->nt);
	secure_wipe(c->body, c->dec.high);	/* what was ever written */
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->failed = 1;
}

int
channel_close_lingering(struct channel *c, int timeout_ms)
{
	int64_t deadline = mono_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	size_t left = CHANNEL_LINGER_BYTES;
	int rc = -1;

	/* a failed channel sends nothing more, not even its queue */
	if (c->fd < 0 || c->failed || channel_flush_wait(c, left_ms(deadline))
	    != 0 || shutdown(c->fd, SHUT_WR) != 0)
		goto out;
	/* the peer now reads our last frame, then end of stream; discard
	 * what it sent meanwhile until it closes too, so the close below
	 * leaves nothing unread and is a FIN, not a reset. c->in is free:
	 * nothing will be parsed on this channel again. */
	while (left > 0) {
		struct pollfd pf = { c->fd, POLLIN, 0 };
		ssize_t n;

		if (poll(&pf, 1, left_ms(deadline)) <= 0)
			break;		/* time is up (or poll failed) */
		n = read(c->fd, c->in, left < sizeof c->in ? left :
		    sizeof c->in);
		if (n == 0) {
			rc = 0;		/* the peer closed: a clean end */
			break;
		}
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			break;		/* it reset: nothing left to save */
		left -= (size_t)n;
	}
out:
	c->in_off = c->in_len = 0;
	channel_close(c);
	return rc;
}
