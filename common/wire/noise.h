/* noise.h - Noise_NNpsk0_25519_ChaChaPoly_SHA256 (and, with no PSK,
 * Noise_NN_25519_ChaChaPoly_SHA256), Noise spec revision 34, on BearSSL.
 *
 * Two messages, then two transport cipher states:
 *     msg1  initiator -> responder   -> psk, e
 *     msg2  responder -> initiator   <- e, ee
 * With airlock's empty payloads both are 48 bytes: e.pub (32) and the
 * 16-byte tag of the encrypted empty payload (docs/PROTOCOL.md).
 * The initiator is the relay, the responder the runner.
 *
 * Every failure is sticky: the state is wiped and every later call on it
 * returns an error, so a caller that ignores one error still cannot send
 * or accept anything. No allocation, no I/O except getrandom(2). */
#ifndef AIRLOCK_NOISE_H
#define AIRLOCK_NOISE_H

#include <stddef.h>
#include <stdint.h>

#define NOISE_KEY_LEN 32
#define NOISE_PSK_LEN 32
#define NOISE_DH_LEN 32		/* X25519 public keys and shared secrets */
#define NOISE_HASH_LEN 32
#define NOISE_TAG_LEN 16
#define NOISE_MSG_MAX 65535u	/* any Noise message, = FRAME_RECORD_MAX */
/* The largest payload a handshake message can carry with a key set. */
#define NOISE_HS_PAYLOAD_MAX (NOISE_MSG_MAX - NOISE_DH_LEN - NOISE_TAG_LEN)
/* Sizes of airlock's handshake messages (PSK set, empty payloads). */
#define NOISE_MSG1_LEN (NOISE_DH_LEN + NOISE_TAG_LEN)
#define NOISE_MSG2_LEN (NOISE_DH_LEN + NOISE_TAG_LEN)

#define NOISE_NAME_PSK "Noise_NNpsk0_25519_ChaChaPoly_SHA256"
#define NOISE_NAME_NN "Noise_NN_25519_ChaChaPoly_SHA256"
/* airlock's prologue: both sides hash it first, so a peer speaking another
 * protocol version fails msg1's tag (NOISE_ERR_AUTH), never misparses. */
#define NOISE_PROLOGUE "airlock/1 " NOISE_NAME_PSK
#define NOISE_PROLOGUE_LEN (sizeof NOISE_PROLOGUE - 1)

enum noise_role { NOISE_INITIATOR = 1, NOISE_RESPONDER = 2 };

enum noise_status {
	NOISE_OK = 0,
	NOISE_ERR_STATE,	/* out of turn, or the state failed/finished */
	NOISE_ERR_ARG,		/* bad role, NULL pointer */
	NOISE_ERR_SIZE,		/* a message or buffer of the wrong size */
	NOISE_ERR_AUTH,		/* a tag did not verify: wrong PSK, other
				 * prologue (version), or altered bytes */
	NOISE_ERR_DH,		/* X25519 failed or gave all zeros */
	NOISE_ERR_NONCE,	/* nonce 2^64-1 reached: the lease must end */
	NOISE_ERR_RANDOM	/* getrandom(2) failed */
};

/* Stable short text for logs ("authentication failed"). */
const char *noise_status_text(enum noise_status s);

/* One direction's key and counter. The next nonce is n; n never reaches
 * UINT64_MAX in use (the spec reserves it). n is visible only so tests can
 * bring a state to the end of its nonce space. */
struct noise_cipher {
	uint8_t k[NOISE_KEY_LEN];
	uint64_t n;
	int has_key;
};

/* Handshake state. Callers allocate it and touch it only through the
 * functions below. */
struct noise_handshake {
	enum noise_role role;
	unsigned msg;		/* messages done: 0, 1, 2 (complete) */
	int failed;		/* sticky */
	int split;		/* noise_split done; only h is kept */
	int has_psk;
	int has_e;		/* e_priv/e_pub set (drawn or injected) */
	uint8_t psk[NOISE_PSK_LEN];
	uint8_t ck[NOISE_HASH_LEN], h[NOISE_HASH_LEN];
	struct noise_cipher cs;
	uint8_t e_priv[NOISE_DH_LEN], e_pub[NOISE_DH_LEN];
	uint8_t re[NOISE_DH_LEN];
};

/* Transport state after the handshake: tx encrypts what this side sends,
 * rx decrypts what it receives. */
struct noise_transport {
	struct noise_cipher tx, rx;
	int ready;		/* 1 after noise_split; 0 once dead */
};

/* Start a handshake. psk: NOISE_PSK_LEN bytes (NNpsk0, copied) or NULL
 * (NN: no authentication at all; only for tests against NN vectors).
 * prologue: prologue_len bytes, hashed at once and not kept (NULL when
 * prologue_len is 0). Both sides must give the same psk and prologue. */
enum noise_status noise_handshake_init(struct noise_handshake *hs,
    enum noise_role role, const uint8_t *psk, const void *prologue,
    size_t prologue_len);

/* Tests only: use priv as this side's ephemeral private key instead of
 * drawing one from getrandom(2). Allowed before this side writes its "e". */
enum noise_status noise_handshake_set_ephemeral(struct noise_handshake *hs,
    const uint8_t priv[NOISE_DH_LEN]);

/* Write this side's next handshake message (initiator: msg1, responder:
 * msg2) carrying payload (payload_len bytes, may be NULL when 0) into out
 * (out_cap bytes; must not overlap payload). *out_len gets the message
 * length: 32 + payload_len, plus 16 when the payload is encrypted (always
 * except NN's msg1). NOISE_ERR_SIZE if it would not fit out_cap or
 * NOISE_MSG_MAX. */
enum noise_status noise_write_message(struct noise_handshake *hs,
    const uint8_t *payload, size_t payload_len, uint8_t *out, size_t out_cap,
    size_t *out_len);

/* Read the peer's next handshake message (in_len bytes at in, hostile)
 * and put its payload into payload (payload_cap bytes; must not overlap
 * in); *payload_len gets its length. A payload longer than payload_cap is
 * NOISE_ERR_SIZE, so payload_cap 0 demands an empty payload. On any error
 * no decrypted byte is left in payload. payload may be NULL when
 * payload_cap is 0. */
enum noise_status noise_read_message(struct noise_handshake *hs,
    const uint8_t *in, size_t in_len, uint8_t *payload, size_t payload_cap,
    size_t *payload_len);

/* 1 once both messages went through (and nothing failed), else 0. */
int noise_handshake_complete(const struct noise_handshake *hs);

/* Copy the handshake hash h (channel binding; not secret) into out. Only
 * after a complete handshake, before or after noise_split. */
enum noise_status noise_handshake_hash(const struct noise_handshake *hs,
    uint8_t out[NOISE_HASH_LEN]);

/* Derive the two transport ciphers into t and wipe every secret of hs
 * (ck, keys, ephemeral, psk); hs then answers only noise_handshake_hash.
 * Only once, after a complete handshake. */
enum noise_status noise_split(struct noise_handshake *hs,
    struct noise_transport *t);

/* Encrypt in place: buf holds len plaintext bytes and has room for cap;
 * on success buf holds ciphertext || tag and *out_len = len + 16. Needs
 * len + 16 <= cap and <= NOISE_MSG_MAX. */
enum noise_status noise_encrypt(struct noise_transport *t, uint8_t *buf,
    size_t len, size_t cap, size_t *out_len);

/* Decrypt in place: buf holds a transport message of len bytes (hostile,
 * 16..NOISE_MSG_MAX); on success the first *plain_len = len - 16 bytes are
 * the plaintext. On failure buf is wiped and t is dead in both
 * directions. */
enum noise_status noise_decrypt(struct noise_transport *t, uint8_t *buf,
    size_t len, size_t *plain_len);

/* Wipe everything; the state then refuses every call (a handshake until
 * noise_handshake_init again). Safe in any phase, and twice. */
void noise_handshake_destroy(struct noise_handshake *hs);
void noise_transport_destroy(struct noise_transport *t);

/* X25519 (RFC 7748) as the handshake uses it: out = priv * pub, with
 * NOISE_ERR_DH for an all-zero result (a low-order peer key). pub == NULL
 * means the base point 9, which gives priv's public key. */
enum noise_status noise_x25519(uint8_t out[NOISE_DH_LEN],
    const uint8_t priv[NOISE_DH_LEN], const uint8_t *pub);

#endif
