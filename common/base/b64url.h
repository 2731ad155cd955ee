/* b64url.h - base64url (RFC 4648 §5) without padding, strict decoding. */
#ifndef AIRLOCK_B64URL_H
#define AIRLOCK_B64URL_H

#include <stddef.h>
#include <stdint.h>

/* Characters needed to encode n bytes (no terminator). */
#define B64URL_ENCODED_LEN(n) (((n) / 3) * 4 + ((n) % 3 ? (n) % 3 + 1 : 0))

/* Encode src into dst (cap bytes, NUL-terminated); returns the length
 * written without the NUL, or -1 if dst is too small. */
long b64url_encode(const uint8_t *src, size_t n, char *dst, size_t cap);
/* Decode exactly n characters; rejects padding, characters outside the
 * alphabet, impossible lengths and non-zero trailing bits (so every value
 * has one spelling). Returns the decoded length, or -1. */
long b64url_decode(const char *src, size_t n, uint8_t *dst, size_t cap);

#endif
