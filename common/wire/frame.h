/* frame.h - the record codec: every unit on the wire is
 *     len:u16 big-endian | body[len]        1 <= len <= cap <= 65535
 * During the handshake a body is a Noise handshake message; afterwards it
 * is a Noise transport message whose plaintext is a frame:
 *     type:u8 | payload[body_len - 16 - 1]
 * Pure: no I/O and no allocation. The caller owns the body buffer. */
#ifndef AIRLOCK_FRAME_H
#define AIRLOCK_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_HEADER_LEN 2
#define FRAME_RECORD_MAX 65535u		/* Noise's message limit */
#define FRAME_TAG_LEN 16		/* ChaCha20-Poly1305 tag */
/* The largest frame payload: record minus tag minus the type byte. */
#define FRAME_PAYLOAD_MAX (FRAME_RECORD_MAX - FRAME_TAG_LEN - 1)

enum frame_type {
	FRAME_SPAWN = 1,	/* relay -> runner: the spawn request */
	FRAME_STARTED = 2,	/* runner -> relay: child running, lease id */
	FRAME_STDIN = 3,
	FRAME_STDIN_EOF = 4,
	FRAME_STDOUT = 5,
	FRAME_STDERR = 6,
	FRAME_EXIT = 7,
	FRAME_ERROR = 8,
	FRAME_PING = 9,
	FRAME_PONG = 10
};

/* 1 if t names a frame type this version knows, else 0. */
int frame_type_known(unsigned t);
/* Stable lower-case name for logs ("stdout"), or "unknown". */
const char *frame_type_name(unsigned t);

enum frame_status { FRAME_NEED, FRAME_OK, FRAME_BAD };

struct frame_decoder {
	uint8_t *body;		/* caller's buffer of cap bytes */
	size_t cap;
	size_t want;		/* body length from the header */
	size_t have;		/* header bytes, then body bytes, so far */
	int in_body;
	int bad;		/* sticky: once BAD, always BAD */
	size_t high;		/* the most body bytes ever written: what a
				 * wipe of the buffer must cover */
};

/* cap: the largest body accepted (1..FRAME_RECORD_MAX). */
void frame_decoder_init(struct frame_decoder *d, uint8_t *body, size_t cap);

/* Feed len bytes. *used is set to how many were consumed. Returns
 * FRAME_OK when a record is complete (body in d->body, length d->want;
 * bytes after it are left unconsumed), FRAME_NEED when all input was
 * consumed without completing one, FRAME_BAD for a zero or over-cap length
 * (checked from the header alone, before any body byte is stored). The
 * next call after FRAME_OK starts a new record. */
enum frame_status frame_feed(struct frame_decoder *d, const uint8_t *in,
    size_t len, size_t *used);

/* Write the 2-byte header for a body of n bytes; -1 if n is 0 or too big. */
int frame_header(uint8_t out[FRAME_HEADER_LEN], size_t n);

#endif
