/* base64.c - base64 (padded) and hex, strict; base64 has one spelling
 * per value. */
#include "common/base/base64.h"

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char hex_digits[] = "0123456789abcdef";

const char *
textdec_why(long rc)
{
	switch (rc) {
	case TEXTDEC_LENGTH:
		return "a length the encoding cannot have";
	case TEXTDEC_ROOM:
		return "more bytes than allowed, decoded";
	case TEXTDEC_CHAR:
		return "a byte outside the alphabet";
	case TEXTDEC_PAD:
		return "padding out of place or not canonical";
	default:
		return "no error";
	}
}

long
base64_encode(const uint8_t *src, size_t n, char *dst, size_t cap)
{
	size_t o = 0, i;

	if (n > (size_t)-1 / 2 || cap <= BASE64_ENCODED_LEN(n))
		return -1;
	for (i = 0; i < n; i += 3) {
		size_t left = n - i;
		uint32_t v = (uint32_t)src[i] << 16 |
		    (left > 1 ? (uint32_t)src[i + 1] << 8 : 0) |
		    (left > 2 ? src[i + 2] : 0);

		dst[o++] = b64_alphabet[v >> 18];
		dst[o++] = b64_alphabet[(v >> 12) & 63];
		dst[o++] = left > 1 ? b64_alphabet[(v >> 6) & 63] : '=';
		dst[o++] = left > 2 ? b64_alphabet[v & 63] : '=';
	}
	dst[o] = '\0';
	return (long)o;
}

long
hex_encode(const uint8_t *src, size_t n, char *dst, size_t cap)
{
	if (n > (size_t)-1 / 4 || cap <= HEX_ENCODED_LEN(n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		dst[2 * i] = hex_digits[src[i] >> 4];
		dst[2 * i + 1] = hex_digits[src[i] & 15];
	}
	dst[2 * n] = '\0';
	return (long)(2 * n);
}

int
base64_value(unsigned char c, char c62, char c63)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == (unsigned char)c62 ? 62 : c == (unsigned char)c63 ? 63 : -1;
}

long
base64_decode(const char *src, size_t n, uint8_t *dst, size_t cap,
    size_t *at)
{
	size_t pad = 0, o = 0;

	*at = n;
	if (n % 4 != 0)
		return TEXTDEC_LENGTH;
	if (n > 0 && src[n - 1] == '=')
		pad = src[n - 2] == '=' ? 2 : 1;
	if (n / 4 * 3 - pad > cap)
		return TEXTDEC_ROOM;
	for (size_t i = 0; i < n; i += 4) {
		/* the padding is the last quantum's only; a '=' anywhere
		 * else is out of place */
		size_t take = i + 4 == n ? 4 - pad : 4;
		uint32_t v = 0;

		for (size_t k = 0; k < take; k++) {
			int s = base64_value((unsigned char)src[i + k], '+',
			    '/');

			if (s < 0) {
				*at = i + k;
				return src[i + k] == '=' ? TEXTDEC_PAD :
				    TEXTDEC_CHAR;
			}
			v = v << 6 | (uint32_t)s;
		}
		/* bits under the padding must be zero: one spelling only */
		if (take == 2) {
			if (v & 15) {
				*at = i + 1;
				return TEXTDEC_PAD;
			}
			dst[o++] = (uint8_t)(v >> 4);
		} else if (take == 3) {
			if (v & 3) {
				*at = i + 2;
				return TEXTDEC_PAD;
			}
			dst[o++] = (uint8_t)(v >> 10);
			dst[o++] = (uint8_t)(v >> 2);
		} else {
			dst[o++] = (uint8_t)(v >> 16);
			dst[o++] = (uint8_t)(v >> 8);
			dst[o++] = (uint8_t)v;
		}
	}
	return (long)o;
}

static int
hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long
hex_decode(const char *src, size_t n, uint8_t *dst, size_t cap, size_t *at)
{
	*at = n;
	if (n % 2 != 0)
		return TEXTDEC_LENGTH;
	if (n / 2 > cap)
		return TEXTDEC_ROOM;
	for (size_t i = 0; i < n; i += 2) {
		int hi = hex_value((unsigned char)src[i]);
		int lo = hex_value((unsigned char)src[i + 1]);

		if (hi < 0 || lo < 0) {
			*at = hi < 0 ? i : i + 1;
			return TEXTDEC_CHAR;
		}
		dst[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(n / 2);
}
