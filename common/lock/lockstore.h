/* lockstore.h - a directory of lockfiles named by their digest:
 * DIR/HEX.json (an npm lock, a surface) or DIR/HEX.txt (a Python lock's
 * hash-pinned requirements), HEX the SHA-256 of the file's bytes in
 * lowercase hex.
 * The review store keeps its locks in STORE/locks; a runner is given
 * the same directory read-only (--lock-store). A name says what the
 * bytes must hash to, so a lock read back is checked, never trusted. */
#ifndef AIRLOCK_LOCKSTORE_H
#define AIRLOCK_LOCKSTORE_H

#include <stddef.h>
#include <stdint.h>

#include "common/lock/lockjson.h"

#define LOCK_DIGEST_LEN 32
#define LOCK_HEX_LEN 64

/* What a lock file holds, which names its suffix and its size cap. */
enum lock_format {
	LOCK_JSON,		/* .json, at most LJ_TEXT_MAX bytes */
	LOCK_REQUIREMENTS,	/* .txt, at most PYLOCK_TEXT_MAX bytes */
};

/* SHA-256 of p[0..n): bytes to digest, lowercase hex to hex (65 bytes,
 * NUL-terminated); either may be NULL. */
void lock_digest(const void *p, size_t n, uint8_t digest[LOCK_DIGEST_LEN],
    char hex[LOCK_HEX_LEN + 1]);

/* SHA-256 of the file name in directory dfd, opened through no link:
 * 0, or -1 with errno. */
int lock_file_digest(int dfd, const char *name,
    uint8_t digest[LOCK_DIGEST_LEN]);

/* digest as 64 lowercase hex digits and a NUL. */
void lock_hex_encode(const uint8_t digest[LOCK_DIGEST_LEN],
    char hex[LOCK_HEX_LEN + 1]);

/* 64 lowercase hex digits (hex, NUL-terminated) to digest: 0, or -1
 * when hex is anything else. */
int lock_hex_decode(const char *hex, uint8_t digest[LOCK_DIGEST_LEN]);

/* Write p[0..n) as dir/HEX.SUFFIX, the suffix f's (0644, atomically; an
 * existing file of that name holds the same bytes and is left as it
 * is). 0, or -1 with errno. hex gets the name's digest. */
int lock_save(const char *dir, enum lock_format f, const void *p,
    size_t n, char hex[LOCK_HEX_LEN + 1]);

/* Read dir/HEX.SUFFIX for digest (at most f's cap, the caller frees
 * *out) and check its bytes hash to digest. 0; -1 with a message
 * in err when it is missing or unreadable; -2 when its bytes are not the
 * digest's (the file changed after its approval). */
int lock_load(const char *dir, enum lock_format f,
    const uint8_t digest[LOCK_DIGEST_LEN], uint8_t **out, size_t *len,
    char *err, size_t errcap);

#endif
