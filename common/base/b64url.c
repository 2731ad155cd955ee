/* b64url.c - base64url without padding; one canonical spelling per value. */
#include "common/base/b64url.h"

#include "common/base/base64.h"

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

long
b64url_encode(const uint8_t *src, size_t n, char *dst, size_t cap)
{
	size_t need = B64URL_ENCODED_LEN(n), o = 0, i;

	if (n > (size_t)-1 / 2 || cap <= need)
		return -1;
	for (i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)src[i] << 16 | src[i + 1] << 8 | src[i + 2];

		dst[o++] = alphabet[v >> 18];
		dst[o++] = alphabet[(v >> 12) & 63];
		dst[o++] = alphabet[(v >> 6) & 63];
		dst[o++] = alphabet[v & 63];
	}
	if (n - i == 1) {
		dst[o++] = alphabet[src[i] >> 2];
		dst[o++] = alphabet[(src[i] & 3) << 4];
	} else if (n - i == 2) {
		uint32_t v = (uint32_t)src[i] << 8 | src[i + 1];

		dst[o++] = alphabet[v >> 10];
		dst[o++] = alphabet[(v >> 4) & 63];
		dst[o++] = alphabet[(v & 15) << 2];
	}
	dst[o] = '\0';
	return (long)o;
}

long
b64url_decode(const char *src, size_t n, uint8_t *dst, size_t cap)
{
	uint32_t acc = 0;
	size_t bits = 0, o = 0;

	if (n % 4 == 1 || n > (size_t)-1 / 2)
		return -1;
	if ((n / 4) * 3 + (n % 4 ? n % 4 - 1 : 0) > cap)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int s = base64_value((unsigned char)src[i], '-', '_');

		if (s < 0)
			return -1;
		acc = (acc << 6) | (uint32_t)s;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			dst[o++] = (uint8_t)(acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	if (acc != 0)	/* leftover bits must be zero: canonical form only */
		return -1;
	return (long)o;
}
