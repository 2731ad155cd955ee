/* noise.c - the NNpsk0/NN handshake and its transport on BearSSL's
 * X25519, ChaCha20-Poly1305 and SHA-256 (Noise spec rev 34, sections 4-5
 * and 9 for the psk0 modifier). */
#include "common/wire/noise.h"

#include <bearssl.h>
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "common/wire/chacha20.h"
#include "common/base/secmem.h"

/* A valid pointer for zero-length inputs: BearSSL may pass any pointer on
 * to memcpy, where NULL is undefined even with a length of 0. */
static const uint8_t no_bytes[1];

const char *
noise_status_text(enum noise_status s)
{
	switch (s) {
	case NOISE_OK:
		return "ok";
	case NOISE_ERR_STATE:
		return "called out of turn or on a finished state";
	case NOISE_ERR_ARG:
		return "bad argument";
	case NOISE_ERR_SIZE:
		return "message of the wrong size";
	case NOISE_ERR_AUTH:
		return "authentication failed";
	case NOISE_ERR_DH:
		return "invalid peer key";
	case NOISE_ERR_NONCE:
		return "nonce space exhausted";
	case NOISE_ERR_RANDOM:
		return "no randomness (getrandom failed)";
	}
	return "unknown error";
}

static void
sha256_two(uint8_t out[NOISE_HASH_LEN], const uint8_t *a, size_t alen,
    const uint8_t *b, size_t blen)
{
	br_sha256_context c;

	br_sha256_init(&c);
	if (alen)
		br_sha256_update(&c, a, alen);
	if (blen)
		br_sha256_update(&c, b, blen);
	br_sha256_out(&c, out);
	secure_wipe(&c, sizeof c);
}

/* out = HMAC-SHA256(key, a || b); out may alias key, a or b. */
static void
hmac_sha256(uint8_t out[NOISE_HASH_LEN], const uint8_t key[NOISE_HASH_LEN],
    const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	br_hmac_key_context kc;
	br_hmac_context hc;

	br_hmac_key_init(&kc, &br_sha256_vtable, key, NOISE_HASH_LEN);
	br_hmac_init(&hc, &kc, 0);
	if (alen)
		br_hmac_update(&hc, a, alen);
	if (blen)
		br_hmac_update(&hc, b, blen);
	br_hmac_out(&hc, out);
	secure_wipe(&kc, sizeof kc);
	secure_wipe(&hc, sizeof hc);
}

/* Noise's HKDF(ck, ikm) with two or three outputs (o3 may be NULL); o1
 * may alias ck, since ck is consumed before o1 is written. */
static void
noise_hkdf(const uint8_t ck[NOISE_HASH_LEN], const uint8_t *ikm,
    size_t ikm_len, uint8_t *o1, uint8_t *o2, uint8_t *o3)
{
	static const uint8_t one = 1, two = 2, three = 3;
	uint8_t prk[NOISE_HASH_LEN];

	hmac_sha256(prk, ck, ikm, ikm_len, NULL, 0);
	hmac_sha256(o1, prk, &one, 1, NULL, 0);
	hmac_sha256(o2, prk, o1, NOISE_HASH_LEN, &two, 1);
	if (o3)
		hmac_sha256(o3, prk, o2, NOISE_HASH_LEN, &three, 1);
	secure_wipe(prk, sizeof prk);
}

/* ChaCha20 is common/chacha20 (four blocks at a time: BearSSL's is one,
 * and was most of a large message's cost); Poly1305 the fastest
 * constant-time BearSSL one this CPU runs (64-bit multiply), else the
 * portable one. All give the same bytes. */
static br_poly1305_run poly_impl;

static void
pick_impls(void)
{
	if (poly_impl)
		return;
	poly_impl = br_poly1305_ctmulq_get();
	if (!poly_impl)
		poly_impl = br_poly1305_ctmul_run;
}

/* ChaCha20-Poly1305 with Noise's nonce: 4 zero bytes, then n as 64-bit
 * little-endian. Encrypts or decrypts data in place and computes the tag
 * over the ciphertext. */
static void
chachapoly(const uint8_t k[NOISE_KEY_LEN], uint64_t n, const uint8_t *ad,
    size_t ad_len, uint8_t *data, size_t len, uint8_t tag[NOISE_TAG_LEN],
    int encrypt)
{
	uint8_t iv[12] = { 0 };

	for (int i = 0; i < 8; i++)
		iv[4 + i] = (uint8_t)(n >> (8 * i));
	pick_impls();
	poly_impl(k, iv, data, len, ad_len ? ad : no_bytes, ad_len, tag,
	    chacha20_xor, encrypt);
}

static void
cipher_init(struct noise_cipher *c, const uint8_t k[NOISE_KEY_LEN])
{
	memcpy(c->k, k, NOISE_KEY_LEN);
	c->n = 0;
	c->has_key = 1;
}

/* Encrypt data in place and write its tag. UINT64_MAX is reserved by the
 * spec, so the counter refuses it rather than wrap to a reused nonce. */
static enum noise_status
cipher_seal(struct noise_cipher *c, const uint8_t *ad, size_t ad_len,
    uint8_t *data, size_t len, uint8_t tag[NOISE_TAG_LEN])
{
	if (c->n == UINT64_MAX)
		return NOISE_ERR_NONCE;
	chachapoly(c->k, c->n, ad, ad_len, data, len, tag, 1);
	c->n++;
	return NOISE_OK;
}

/* Decrypt data in place and check tag. BearSSL decrypts whether or not the
 * tag matches, so a failure wipes what it produced. */
static enum noise_status
cipher_open(struct noise_cipher *c, const uint8_t *ad, size_t ad_len,
    uint8_t *data, size_t len, const uint8_t tag[NOISE_TAG_LEN])
{
	uint8_t want[NOISE_TAG_LEN];
	int good;

	if (c->n == UINT64_MAX)
		return NOISE_ERR_NONCE;
	chachapoly(c->k, c->n, ad, ad_len, data, len, want, 0);
	good = ct_equal(want, tag, NOISE_TAG_LEN);
	secure_wipe(want, sizeof want);
	if (!good) {
		secure_wipe(data, len);
		return NOISE_ERR_AUTH;
	}
	c->n++;
	return NOISE_OK;
}

enum noise_status
noise_x25519(uint8_t out[NOISE_DH_LEN], const uint8_t priv[NOISE_DH_LEN],
    const uint8_t *pub)
{
	uint8_t pt[NOISE_DH_LEN] = { 9 };
	uint32_t good;

	if (pub)
		memcpy(pt, pub, sizeof pt);
	/* BearSSL's c25519 takes the scalar in RFC 7748 order (little-endian,
	 * clamped inside), whatever br_ec_impl's generic comment says; the
	 * RFC 7748 6.1 answer in noise_test pins this. */
	good = br_ec_c25519_m31.mul(pt, sizeof pt, priv, NOISE_DH_LEN,
	    BR_EC_curve25519);
	/* All zeros means a low-order point: the "shared" secret would be
	 * known to everyone (spec 12.1 lets us refuse it). */
	if (!good || ct_is_zero(pt, sizeof pt)) {
		secure_wipe(pt, sizeof pt);
		memset(out, 0, NOISE_DH_LEN);
		return NOISE_ERR_DH;
	}
	memcpy(out, pt, sizeof pt);
	secure_wipe(pt, sizeof pt);
	return NOISE_OK;
}

static int
fill_random(uint8_t *p, size_t n)
{
	size_t off = 0;

	while (off < n) {
		ssize_t r = getrandom(p + off, n - off, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		off += (size_t)r;
	}
	return 0;
}

/* Every error ends the handshake: wipe it all, keep only the role and
 * the mark that makes every later call fail. */
static enum noise_status
hs_fail(struct noise_handshake *hs, enum noise_status st)
{
	enum noise_role role = hs->role;

	secure_wipe(hs, sizeof *hs);
	hs->role = role;
	hs->failed = 1;
	return st;
}

static void
mix_hash(struct noise_handshake *hs, const uint8_t *data, size_t len)
{
	sha256_two(hs->h, hs->h, sizeof hs->h, data, len);
}

static void
mix_key(struct noise_handshake *hs, const uint8_t *ikm, size_t len)
{
	uint8_t k[NOISE_KEY_LEN];

	noise_hkdf(hs->ck, ikm, len, hs->ck, k, NULL);
	cipher_init(&hs->cs, k);
	secure_wipe(k, sizeof k);
}

static void
mix_key_and_hash(struct noise_handshake *hs, const uint8_t *ikm, size_t len)
{
	uint8_t th[NOISE_HASH_LEN], k[NOISE_KEY_LEN];

	noise_hkdf(hs->ck, ikm, len, hs->ck, th, k);
	mix_hash(hs, th, sizeof th);
	cipher_init(&hs->cs, k);
	secure_wipe(th, sizeof th);
	secure_wipe(k, sizeof k);
}

enum noise_status
noise_handshake_init(struct noise_handshake *hs, enum noise_role role,
    const uint8_t *psk, const void *prologue, size_t prologue_len)
{
	const char *name = psk ? NOISE_NAME_PSK : NOISE_NAME_NN;
	size_t name_len = strlen(name);

	if (!hs)
		return NOISE_ERR_ARG;
	memset(hs, 0, sizeof *hs);
	hs->role = role;
	if ((role != NOISE_INITIATOR && role != NOISE_RESPONDER) ||
	    (prologue_len && !prologue))
		return hs_fail(hs, NOISE_ERR_ARG);
	if (psk) {
		memcpy(hs->psk, psk, NOISE_PSK_LEN);
		hs->has_psk = 1;
	}
	/* A name of at most HASHLEN bytes is used zero-padded, else hashed. */
	if (name_len <= sizeof hs->h)
		memcpy(hs->h, name, name_len);
	else
		sha256_two(hs->h, (const uint8_t *)name, name_len, NULL, 0);
	memcpy(hs->ck, hs->h, sizeof hs->ck);
	mix_hash(hs, prologue_len ? prologue : no_bytes, prologue_len);
	return NOISE_OK;
}

/* Whose turn: the initiator writes msg1 and reads msg2, the responder the
 * other way round. */
static int
hs_turn_to_write(const struct noise_handshake *hs)
{
	return (hs->role == NOISE_INITIATOR && hs->msg == 0) ||
	    (hs->role == NOISE_RESPONDER && hs->msg == 1);
}

static int
hs_turn_to_read(const struct noise_handshake *hs)
{
	return (hs->role == NOISE_RESPONDER && hs->msg == 0) ||
	    (hs->role == NOISE_INITIATOR && hs->msg == 1);
}

/* The payload of msg1 is encrypted only with a psk (NN has no key yet);
 * msg2's always is, after ee. */
static size_t
hs_tag_len(const struct noise_handshake *hs)
{
	return hs->has_psk || hs->msg == 1 ? NOISE_TAG_LEN : 0;
}

enum noise_status
noise_handshake_set_ephemeral(struct noise_handshake *hs,
    const uint8_t priv[NOISE_DH_LEN])
{
	enum noise_status st;

	if (!hs)
		return NOISE_ERR_ARG;
	if (hs->failed || hs->split)
		return NOISE_ERR_STATE;
	if (!priv)
		return hs_fail(hs, NOISE_ERR_ARG);
	if (hs->has_e || hs->msg > (hs->role == NOISE_INITIATOR ? 0u : 1u))
		return hs_fail(hs, NOISE_ERR_STATE);
	if ((st = noise_x25519(hs->e_pub, priv, NULL)) != NOISE_OK)
		return hs_fail(hs, st);
	memcpy(hs->e_priv, priv, NOISE_DH_LEN);
	hs->has_e = 1;
	return NOISE_OK;
}

static enum noise_status
hs_draw_ephemeral(struct noise_handshake *hs)
{
	enum noise_status st;

	if (fill_random(hs->e_priv, sizeof hs->e_priv) != 0)
		return NOISE_ERR_RANDOM;
	if ((st = noise_x25519(hs->e_pub, hs->e_priv, NULL)) != NOISE_OK)
		return st;
	hs->has_e = 1;
	return NOISE_OK;
}

/* After the last message only ck and h matter. */
static void
hs_finish_message(struct noise_handshake *hs)
{
	/* the psk token is in msg1 only */
	secure_wipe(hs->psk, sizeof hs->psk);
	if (++hs->msg == 2) {
		secure_wipe(hs->e_priv, sizeof hs->e_priv);
		secure_wipe(&hs->cs, sizeof hs->cs);
	}
}

/* The checks both directions make first: a usable handshake (else
 * untouched), *len zeroed, arguments that make sense and the turn to
 * move (else the handshake fails). */
static enum noise_status
hs_begin(struct noise_handshake *hs, size_t *len, int args_ok,
    int (*turn)(const struct noise_handshake *))
{
	if (!hs)
		return NOISE_ERR_ARG;
	if (len)
		*len = 0;
	if (hs->failed || hs->split)
		return NOISE_ERR_STATE;
	if (!args_ok)
		return hs_fail(hs, NOISE_ERR_ARG);
	if (!turn(hs))
		return hs_fail(hs, NOISE_ERR_STATE);
	return NOISE_OK;
}

/* The tokens both directions mix before the payload: psk (first
 * message), e (this message's ephemeral public key), ee (the second). */
static enum noise_status
hs_mix_tokens(struct noise_handshake *hs, const uint8_t e[NOISE_DH_LEN])
{
	uint8_t dh[NOISE_DH_LEN];
	enum noise_status st;

	if (hs->msg == 0 && hs->has_psk)	/* psk */
		mix_key_and_hash(hs, hs->psk, sizeof hs->psk);
	mix_hash(hs, e, NOISE_DH_LEN);		/* e */
	if (hs->has_psk)
		mix_key(hs, e, NOISE_DH_LEN);
	if (hs->msg == 1) {			/* ee */
		st = noise_x25519(dh, hs->e_priv, hs->re);
		if (st != NOISE_OK)
			return hs_fail(hs, st);
		mix_key(hs, dh, sizeof dh);
		secure_wipe(dh, sizeof dh);
	}
	return NOISE_OK;
}

enum noise_status
noise_write_message(struct noise_handshake *hs, const uint8_t *payload,
    size_t payload_len, uint8_t *out, size_t out_cap, size_t *out_len)
{
	enum noise_status st;
	size_t tag_len;

	st = hs_begin(hs, out_len, out && out_len && (!payload_len || payload),
	    hs_turn_to_write);
	if (st != NOISE_OK)
		return st;
	tag_len = hs_tag_len(hs);
	if (payload_len > NOISE_MSG_MAX - NOISE_DH_LEN - tag_len ||
	    out_cap < NOISE_DH_LEN + payload_len + tag_len)
		return hs_fail(hs, NOISE_ERR_SIZE);
	if (!hs->has_e && (st = hs_draw_ephemeral(hs)) != NOISE_OK)
		return hs_fail(hs, st);

	memcpy(out, hs->e_pub, NOISE_DH_LEN);
	if ((st = hs_mix_tokens(hs, hs->e_pub)) != NOISE_OK)
		return st;
	/* EncryptAndHash(payload) */
	if (payload_len)
		memmove(out + NOISE_DH_LEN, payload, payload_len);
	if (tag_len) {
		st = cipher_seal(&hs->cs, hs->h, sizeof hs->h,
		    out + NOISE_DH_LEN, payload_len,
		    out + NOISE_DH_LEN + payload_len);
		if (st != NOISE_OK)
			return hs_fail(hs, st);
	}
	mix_hash(hs, out + NOISE_DH_LEN, payload_len + tag_len);
	hs_finish_message(hs);
	*out_len = NOISE_DH_LEN + payload_len + tag_len;
	return NOISE_OK;
}

enum noise_status
noise_read_message(struct noise_handshake *hs, const uint8_t *in,
    size_t in_len, uint8_t *payload, size_t payload_cap, size_t *payload_len)
{
	enum noise_status st;
	size_t tag_len, plen;
	uint8_t scratch[1];
	uint8_t *pbuf;

	st = hs_begin(hs, payload_len, in && payload_len &&
	    (!payload_cap || payload), hs_turn_to_read);
	if (st != NOISE_OK)
		return st;
	/* Exact sizes: e, then a payload, then a tag when there is a key. */
	tag_len = hs_tag_len(hs);
	if (in_len > NOISE_MSG_MAX || in_len < NOISE_DH_LEN + tag_len)
		return hs_fail(hs, NOISE_ERR_SIZE);
	plen = in_len - NOISE_DH_LEN - tag_len;
	if (plen > payload_cap)
		return hs_fail(hs, NOISE_ERR_SIZE);
	pbuf = plen ? payload : scratch;

	memcpy(hs->re, in, NOISE_DH_LEN);
	if ((st = hs_mix_tokens(hs, hs->re)) != NOISE_OK)
		return st;
	/* DecryptAndHash: the hash takes the ciphertext, so it is computed
	 * from in, which stays untouched. */
	if (plen)
		memcpy(pbuf, in + NOISE_DH_LEN, plen);
	if (tag_len) {
		st = cipher_open(&hs->cs, hs->h, sizeof hs->h, pbuf, plen,
		    in + NOISE_DH_LEN + plen);
		if (st != NOISE_OK)
			return hs_fail(hs, st);
	}
	mix_hash(hs, in + NOISE_DH_LEN, plen + tag_len);
	hs_finish_message(hs);
	*payload_len = plen;
	return NOISE_OK;
}

int
noise_handshake_complete(const struct noise_handshake *hs)
{
	return hs && !hs->failed && hs->msg == 2;
}

enum noise_status
noise_handshake_hash(const struct noise_handshake *hs,
    uint8_t out[NOISE_HASH_LEN])
{
	if (!hs || !out)
		return NOISE_ERR_ARG;
	if (!noise_handshake_complete(hs))
		return NOISE_ERR_STATE;
	memcpy(out, hs->h, NOISE_HASH_LEN);
	return NOISE_OK;
}

enum noise_status
noise_split(struct noise_handshake *hs, struct noise_transport *t)
{
	uint8_t k1[NOISE_KEY_LEN], k2[NOISE_KEY_LEN], h[NOISE_HASH_LEN];
	enum noise_role role;

	if (t)
		memset(t, 0, sizeof *t);
	if (!hs)
		return NOISE_ERR_ARG;
	if (hs->failed || hs->split)
		return NOISE_ERR_STATE;
	if (!t)
		return hs_fail(hs, NOISE_ERR_ARG);
	if (hs->msg != 2)
		return hs_fail(hs, NOISE_ERR_STATE);
	noise_hkdf(hs->ck, no_bytes, 0, k1, k2, NULL);
	/* k1 protects initiator -> responder, k2 the other way */
	cipher_init(&t->tx, hs->role == NOISE_INITIATOR ? k1 : k2);
	cipher_init(&t->rx, hs->role == NOISE_INITIATOR ? k2 : k1);
	t->ready = 1;
	secure_wipe(k1, sizeof k1);
	secure_wipe(k2, sizeof k2);
	/* keep only what noise_handshake_hash needs */
	memcpy(h, hs->h, sizeof h);
	role = hs->role;
	secure_wipe(hs, sizeof *hs);
	memcpy(hs->h, h, sizeof h);
	hs->role = role;
	hs->msg = 2;
	hs->split = 1;
	return NOISE_OK;
}

static enum noise_status
transport_fail(struct noise_transport *t, enum noise_status st)
{
	secure_wipe(t, sizeof *t);	/* ready = 0: dead both ways */
	return st;
}

enum noise_status
noise_encrypt(struct noise_transport *t, uint8_t *buf, size_t len,
    size_t cap, size_t *out_len)
{
	enum noise_status st;

	if (!t)
		return NOISE_ERR_ARG;
	if (out_len)
		*out_len = 0;
	if (!t->ready)
		return NOISE_ERR_STATE;
	if (!buf || !out_len)
		return transport_fail(t, NOISE_ERR_ARG);
	if (len > NOISE_MSG_MAX - NOISE_TAG_LEN || len > cap ||
	    cap - len < NOISE_TAG_LEN)
		return transport_fail(t, NOISE_ERR_SIZE);
	st = cipher_seal(&t->tx, no_bytes, 0, buf, len, buf + len);
	if (st != NOISE_OK)
		return transport_fail(t, st);
	*out_len = len + NOISE_TAG_LEN;
	return NOISE_OK;
}

enum noise_status
noise_decrypt(struct noise_transport *t, uint8_t *buf, size_t len,
    size_t *plain_len)
{
	enum noise_status st;

	if (!t)
		return NOISE_ERR_ARG;
	if (plain_len)
		*plain_len = 0;
	if (!t->ready || !buf || !plain_len) {
		if (buf)
			secure_wipe(buf, len);
		return transport_fail(t, t->ready ? NOISE_ERR_ARG :
		    NOISE_ERR_STATE);
	}
	if (len < NOISE_TAG_LEN || len > NOISE_MSG_MAX) {
		secure_wipe(buf, len);
		return transport_fail(t, NOISE_ERR_SIZE);
	}
	st = cipher_open(&t->rx, no_bytes, 0, buf, len - NOISE_TAG_LEN,
	    buf + len - NOISE_TAG_LEN);
	if (st != NOISE_OK) {
		secure_wipe(buf, len);
		return transport_fail(t, st);
	}
	*plain_len = len - NOISE_TAG_LEN;
	return NOISE_OK;
}

void
noise_handshake_destroy(struct noise_handshake *hs)
{
	if (hs) {
		secure_wipe(hs, sizeof *hs);
		hs->failed = 1;	/* refuses everything until the next init */
	}
}

void
noise_transport_destroy(struct noise_transport *t)
{
	if (t)
		secure_wipe(t, sizeof *t);
}
