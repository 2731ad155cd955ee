/* secret.h - the shared secret of runners and relays, and the Noise PSK
 * derived from it.
 *
 * Sources, first match wins: the path the caller got from --secret-file;
 * else the file named by AIRLOCK_SECRET_FILE; else the value of
 * AIRLOCK_SECRET (setting both variables is refused as ambiguous). Never
 * argv: any user can read another process's command line.
 *
 * The secret is at most SECRET_MAX_LEN bytes as read (a bigger file is
 * refused, not cut), loses ONE trailing "\n" or "\r\n", and must then be at
 * least SECRET_MIN_LEN bytes. Refusals name the source and, for a short
 * secret, its length, but never a byte of it. */
#ifndef AIRLOCK_SECRET_H
#define AIRLOCK_SECRET_H

#include <stddef.h>
#include <stdint.h>

#define SECRET_MIN_LEN 32
#define SECRET_MAX_LEN 4096
#define SECRET_ENV "AIRLOCK_SECRET"
#define SECRET_FILE_ENV "AIRLOCK_SECRET_FILE"
#define SECRET_PSK_LEN 32
/* HKDF-SHA256 parameters of the PSK (docs/PROTOCOL.md); the version in
 * both makes a secret shared with another protocol version useless here. */
#define SECRET_PSK_SALT "airlock/1 psk salt"
#define SECRET_PSK_INFO "airlock/1 Noise_NNpsk0_25519_ChaChaPoly_SHA256 psk"

struct secret {
	uint8_t b[SECRET_MAX_LEN];
	size_t len;
};

enum secret_status {
	SECRET_OK,
	SECRET_EMPTY,	/* nothing left once the newline is stripped */
	SECRET_SHORT,	/* under SECRET_MIN_LEN bytes */
	SECRET_LONG	/* over SECRET_MAX_LEN bytes as read */
};

/* The secret's bytes as read, buf[0..len) (untrusted: any bytes, NUL
 * included; buf may be s->b itself), checked and stored in s minus one
 * trailing "\n" or "\r\n". *n (when not NULL) gets the length after
 * stripping (len for SECRET_LONG), for the caller's message. Returns
 * SECRET_OK with s holding exactly the secret, or another status with s
 * wiped. No I/O: secret_load reads, this decides. */
enum secret_status secret_parse(struct secret *s, const uint8_t *buf,
    size_t len, size_t *n);

/* Load the secret into s (the caller's; wipe it with secret_wipe). path:
 * the --secret-file argument or NULL. AIRLOCK_SECRET is always wiped in
 * place (so /proc/PID/environ no longer shows it either) and removed from
 * the environment, success or not, so no child inherits it; its strings
 * must be writable, as those of the initial environment and of setenv are.
 * Returns 0, or -1 with s wiped and a one-line reason in err (errlen bytes,
 * always NUL-terminated when errlen > 0). */
int secret_load(struct secret *s, const char *path, char *err,
    size_t errlen);

/* psk = HKDF-SHA256(salt = SECRET_PSK_SALT, ikm = secret,
 * info = SECRET_PSK_INFO, 32 bytes). Returns 0, or -1 if s holds no
 * loaded secret. The caller wipes psk after use. */
int secret_derive_psk(const struct secret *s, uint8_t psk[SECRET_PSK_LEN]);

/* Zero s. */
void secret_wipe(struct secret *s);

/* secret_load + secret_derive_psk + secret_wipe: what a service keeps is
 * the PSK alone. Returns 0, or -1 with psk wiped and a reason in err. */
int secret_load_psk(const char *path, uint8_t psk[SECRET_PSK_LEN],
    char *err, size_t errlen);

/* The secrets a service accepts at once (rotation: the new one is added
 * to every runner, the relays switch, the old one is removed), each kept
 * as its PSK and known in logs by its key id: the first 8 bytes of
 * SHA-256(SECRET_KEY_ID_CONTEXT || psk) in hex, which names the secret
 * without revealing it or anything that would help guess it. */
#define SECRET_RING_MAX 8
#define SECRET_KEY_ID_LEN 16
#define SECRET_KEY_ID_CONTEXT "airlock/1 key id"

struct secret_ring {
	size_t n;
	uint8_t psk[SECRET_RING_MAX][SECRET_PSK_LEN];
	char id[SECRET_RING_MAX][SECRET_KEY_ID_LEN + 1];
};

/* Load the secrets of files[0..nfiles) (nfiles 0: the environment's one,
 * as secret_load_psk(NULL)) into ring. Refused: more than
 * SECRET_RING_MAX, a file that does not load (its reason), or the same
 * secret twice. 0, or -1 with ring wiped and a reason in err. */
int secret_ring_load(struct secret_ring *ring, const char *const *files,
    size_t nfiles, char *err, size_t errlen);

/* The key id of psk, NUL-terminated. */
void secret_key_id(const uint8_t psk[SECRET_PSK_LEN],
    char id[SECRET_KEY_ID_LEN + 1]);

void secret_ring_wipe(struct secret_ring *ring);

#endif
