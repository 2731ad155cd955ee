/* eckey.h - the reviewer's ECDSA P-256 key pair: generation, PEM files
 * (private: SEC1 "EC PRIVATE KEY", also PKCS#8 "PRIVATE KEY" on input;
 * public: SubjectPublicKeyInfo "PUBLIC KEY"), the key id, sign, verify.
 * Errors return -1 and set *why to a static message (no key bytes). */
#ifndef AIRLOCK_ECKEY_H
#define AIRLOCK_ECKEY_H

#include <stddef.h>
#include <stdint.h>

#define ECKEY_POINT_LEN 65	/* 0x04 || X || Y */
#define ECKEY_SCALAR_LEN 32
#define ECKEY_ID_LEN 16		/* SHA-256(point)[0..16) */
#define ECKEY_ID_TEXT 23	/* base64url of the id, plus NUL */
#define ECKEY_SIG_LEN 64	/* raw r || s, each 32 bytes big-endian */
#define ECKEY_HASH_LEN 32	/* SHA-256 */
#define ECKEY_PEM_MAX 16384	/* larger key files are refused unread */

struct eckey_pub {
	uint8_t point[ECKEY_POINT_LEN];	/* checked to be on the curve */
	uint8_t id[ECKEY_ID_LEN];
};

struct eckey_priv {
	uint8_t x[ECKEY_SCALAR_LEN];	/* secret; eckey_wipe when done */
	struct eckey_pub pub;
};

/* A fresh key pair from HMAC-DRBG seeded by getrandom. */
int eckey_generate(struct eckey_priv *k, const char **why);

/* Parse PEM text (untrusted, len bytes). */
int eckey_pub_parse(const char *text, size_t len, struct eckey_pub *k,
    const char **why);
int eckey_priv_parse(const char *text, size_t len, struct eckey_priv *k,
    const char **why);

/* The DER inside those PEM objects (untrusted, der[0..len)), for callers
 * that already hold it; the *_parse functions are pem_decode and these.
 * Public: exactly a P-256 SubjectPublicKeyInfo with an uncompressed point
 * on the curve (strict DER: one spelling, nothing after it). Private:
 * SEC1 ECPrivateKey or PKCS#8, by BearSSL's key decoder, with a scalar in
 * [1, n); the public point is derived, never read. On failure k is
 * untouched (public) or wiped (private). */
int eckey_pub_from_der(const uint8_t *der, size_t len, struct eckey_pub *k,
    const char **why);
int eckey_priv_from_der(const uint8_t *der, size_t len,
    struct eckey_priv *k, const char **why);

/* Read key files. A private key file readable by group or others is
 * refused, like ssh does: the signing key is the gate. */
int eckey_pub_load(const char *path, struct eckey_pub *k, const char **why);
int eckey_priv_load(const char *path, struct eckey_priv *k,
    const char **why);

/* Generate a pair into DIR/review.key (0600) and DIR/review.pub (0644);
 * id gets the key id. Returns 0; -2 if either file exists (nothing is
 * replaced); -1 on any other failure (nothing is left behind). */
int eckey_write_pair(const char *dir, uint8_t id[ECKEY_ID_LEN],
    const char **why);

/* PEM text into out (cap bytes, NUL added); length, or -1 if too small. */
long eckey_pub_pem(const struct eckey_pub *k, char *out, size_t cap);
long eckey_priv_pem(const struct eckey_priv *k, char *out, size_t cap);

/* The key id as base64url text (22 characters). */
void eckey_id_text(const uint8_t id[ECKEY_ID_LEN], char out[ECKEY_ID_TEXT]);

/* The hash a key signs for one purpose: SHA-256 of context, its NUL
 * included, then the n bytes of msg. A context per purpose keeps a
 * signature made for one from passing as another's. */
void eckey_context_hash(const char *context, const void *msg, size_t n,
    uint8_t out[ECKEY_HASH_LEN]);

/* ECDSA over a SHA-256 hash; signing is deterministic (RFC 6979). */
int eckey_sign(const struct eckey_priv *k, const uint8_t hash[ECKEY_HASH_LEN],
    uint8_t sig[ECKEY_SIG_LEN]);
/* 1 when sig is a valid signature of hash by k, else 0. */
int eckey_verify(const struct eckey_pub *k,
    const uint8_t hash[ECKEY_HASH_LEN], const uint8_t sig[ECKEY_SIG_LEN]);

void eckey_wipe(struct eckey_priv *k);

#endif
