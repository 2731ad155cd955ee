/* base64.h - base64 (RFC 4648 §4: the standard alphabet, padded) and
 * base16, hex (§8), decoded strictly: every value has one base64
 * spelling, and nothing is skipped or guessed. The gateway's file
 * encodings (Piston's "base64" and "hex"); docs/SANDBOX.md, "Gateway".
 *
 * Refused in base64: a length not a multiple of 4 (so padding is
 * required), '=' anywhere but the last one or two places, a quantum of
 * one character and "===", non-zero bits under the padding ("Zh==" for
 * "Zg=="), any byte outside A-Z a-z 0-9 + / (so line breaks, spaces and
 * the URL-safe '-' and '_'). In hex: an odd length, a byte outside 0-9
 * A-F a-f (either case is taken, mixed too). */
#ifndef AIRLOCK_BASE64_H
#define AIRLOCK_BASE64_H

#include <stddef.h>
#include <stdint.h>

/* Characters needed to encode n bytes (no terminator). */
#define BASE64_ENCODED_LEN(n) (((n) + 2) / 3 * 4)
#define HEX_ENCODED_LEN(n) ((n) * 2)

/* Why a decoding failed: the decoders' negative returns. */
enum textdec_err {
	TEXTDEC_LENGTH = -1,	/* base64: not a multiple of 4; hex: odd */
	TEXTDEC_ROOM = -2,	/* more bytes than cap */
	TEXTDEC_CHAR = -3,	/* a byte outside the alphabet (*at) */
	TEXTDEC_PAD = -4,	/* '=' misplaced, or bits under it set (*at) */
};

/* What a negative return means, in a few words. */
const char *textdec_why(long rc);

/* Encode src[0..n) into dst (cap bytes, NUL-terminated): the length
 * without the NUL, or -1 if dst is too small. hex_encode writes lower
 * case. */
long base64_encode(const uint8_t *src, size_t n, char *dst, size_t cap);
long hex_encode(const uint8_t *src, size_t n, char *dst, size_t cap);

/* The value of c in a base64 alphabet whose last two characters are
 * c62 and c63 (§4: '+' '/'; §5, base64url: '-' '_'), or -1. */
int base64_value(unsigned char c, char c62, char c63);

/* Decode exactly src[0..n) into dst (cap bytes): the decoded length, or
 * an enum textdec_err with *at the offset of the offending byte (n for
 * the length or room). The length and room are checked before any byte
 * is written; a refused input may leave dst partly written. dst may be
 * src itself: decoding never writes ahead of what it has read. */
long base64_decode(const char *src, size_t n, uint8_t *dst, size_t cap,
    size_t *at);
long hex_decode(const char *src, size_t n, uint8_t *dst, size_t cap,
    size_t *at);

#endif
