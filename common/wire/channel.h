/* channel.h - one lease connection: the Noise handshake, then frames sealed
 * as Noise transport messages inside u16-length records (docs/PROTOCOL.md).
 * Non-blocking after the handshake; memory is bounded by the fixed
 * buffers below: a slow peer stalls its sender, never grows a queue. */
#ifndef AIRLOCK_CHANNEL_H
#define AIRLOCK_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

#include "common/wire/frame.h"
#include "common/wire/noise.h"

#define CHANNEL_RECORD_MAX (FRAME_HEADER_LEN + FRAME_RECORD_MAX)
#define CHANNEL_OUT_CAP (4 * CHANNEL_RECORD_MAX)
#define CHANNEL_IN_CAP (2 * CHANNEL_RECORD_MAX)

struct channel {
	int fd;
	int failed;			/* sticky: a failed channel is dead */
	int send_failed;		/* sticky: the peer stopped reading
					 * (reset, closed); what it sent before
					 * may still be read */
	struct noise_transport nt;
	struct frame_decoder dec;
	size_t in_off, in_len;		/* unparsed bytes: in[in_off..in_len) */
	size_t out_off, out_len;	/* unsent bytes: out[out_off..out_len) */
	uint64_t bytes_read, bytes_written;
	int unanswered;			/* an initiator's failed handshake
					 * ended by the peer's close or reset
					 * before any byte of its answer: the
					 * caller may try again */
	uint32_t peer_versions;		/* an initiator's failed handshake
					 * answered by a versions hint: the
					 * versions it names (else 0) */
	/* The buffers, last: a channel is set up by zeroing what is above
	 * them only. Each byte is written before it is read (the lengths
	 * above say how many), and 448 KiB zeroed would cost a fresh
	 * process (a handler, a client) a page fault each. */
	uint8_t body[FRAME_RECORD_MAX];
	uint8_t in[CHANNEL_IN_CAP];
	uint8_t out[CHANNEL_OUT_CAP];
};

enum channel_role { CHANNEL_INITIATOR, CHANNEL_RESPONDER };

/* Run the handshake on the connected socket fd within timeout_ms. On
 * success the channel owns fd (now non-blocking) and returns 0; on failure
 * returns -1 with a reason in err (fd is left to the caller). */
int channel_handshake(struct channel *c, int fd, enum channel_role role,
    const uint8_t psk[32], int timeout_ms, char *err, size_t errlen);

/* The same, speaking protocol version with word in its prologue (NULL:
 * none; common/wire/version.h); an initiator that gets a service's
 * versions hint instead of msg2 says which of the two causes it is: a
 * wrong secret (the service speaks this version too; or, with a word,
 * a service that knows no such word) or a version mismatch (naming both
 * sides' versions), and keeps the hint's versions in peer_versions. Its
 * messages name the sides as self and peer ("relay" and "runner",
 * "client" and "sandbox service"); channel_handshake is a relay's. */
int channel_handshake_as(struct channel *c, int fd, enum channel_role role,
    const uint8_t psk[32], unsigned version, const char *word,
    const char *self, const char *peer, int timeout_ms, char *err,
    size_t errlen);

/* Take over a connection whose handshake another process ran (the
 * pre-auth process): the channel owns fd (made non-blocking) and a copy of
 * *t, which is wiped. */
void channel_adopt(struct channel *c, int fd, struct noise_transport *t);

/* 1 if one more frame of the largest size fits in the send queue. */
int channel_can_queue(const struct channel *c);
/* Seal and queue one frame (len <= FRAME_PAYLOAD_MAX). -1 if it does not
 * fit or sealing fails (the channel is then failed). */
int channel_queue(struct channel *c, uint8_t type, const void *payload,
    size_t len);
/* Bytes waiting to be written. */
size_t channel_pending(const struct channel *c);
/* Write what the socket takes now; -1 on a write error. */
int channel_flush(struct channel *c);
/* Flush until everything queued is sent or timeout_ms passes. */
int channel_flush_wait(struct channel *c, int timeout_ms);
/* Queue then flush until sent or timeout_ms passes (start-up, errors). */
int channel_send_wait(struct channel *c, uint8_t type, const void *payload,
    size_t len, int timeout_ms);

/* Read what the socket has. Returns bytes read (>0), 0 at end of stream,
 * -1 on error; EAGAIN is returned as -1 with errno EAGAIN. Reads only when
 * the input buffer has room, so call channel_next until it says NEED. */
long channel_fill(struct channel *c);

enum channel_next {
	CHANNEL_FRAME,	/* *type, *payload, *len set; valid until next call */
	CHANNEL_NEED,	/* no complete record buffered */
	CHANNEL_BAD	/* framing, decryption or unknown type: lease ends */
};
enum channel_next channel_next(struct channel *c, uint8_t *type,
    const uint8_t **payload, size_t *len, const char **why);

/* Wait up to timeout_ms for one frame (start-up exchanges). Returns
 * CHANNEL_FRAME; CHANNEL_NEED when the time ran out; or CHANNEL_BAD with
 * *why set (end of stream, error, bad record). */
enum channel_next channel_recv_wait(struct channel *c, uint8_t *type,
    const uint8_t **payload, size_t *len, int timeout_ms, const char **why);

/* Wipe keys and close the socket. */
void channel_close(struct channel *c);

/* The most a lingering close reads and throws away: more than the largest
 * sandbox upload (8 MiB) and more than a relay has in flight when it
 * stops at our final frame (its send buffer, 4 MiB at most by default,
 * and our receive window), so a well-behaved peer is always drained; a
 * peer that sends more is cut off as before. */
#define CHANNEL_LINGER_BYTES (16u << 20)

/* End the connection after a final frame (ERROR, EXIT) without losing it:
 * flush what is queued, shut down our sending side (the peer reads the
 * frame, then end of stream), then read and discard what the peer still
 * sends until it closes, then close as channel_close does. The flush and
 * the linger share one budget: everything ends within timeout_ms and after
 * at most CHANNEL_LINGER_BYTES, whatever the peer does.
 * Why: closing a socket with unread bytes received (a relay's stdin still
 * arriving) makes the kernel reset the connection (TCP RST; ECONNRESET or
 * EPIPE on a unix socket), and a peer still writing then sees the reset
 * and never reads the frame that explains it. Returns 0 when the peer
 * closed first, -1 otherwise (a failed channel sends nothing: it is just
 * closed); either way the channel is closed. */
int channel_close_lingering(struct channel *c, int timeout_ms);

#endif
