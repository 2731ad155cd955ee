/* utf8.c - strict UTF-8 decoding and the control set (utf8.h). */
#include "common/base/utf8.h"

size_t
utf8_seq(const uint8_t *p, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t v, min;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* the lead byte's payload bits, and the least code point that
	 * needs len bytes (anything less is an overlong form) */
	v = p[0] & (0x7f >> len);
	min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

int
utf8_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c ||
	    cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069);
}

size_t
utf8_put(uint32_t cp, uint8_t out[4])
{
	if (cp < 0x80) {
		out[0] = (uint8_t)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (uint8_t)(0xc0 | cp >> 6);
		out[1] = (uint8_t)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (uint8_t)(0xe0 | cp >> 12);
		out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (uint8_t)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (uint8_t)(0xf0 | cp >> 18);
	out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (uint8_t)(0x80 | (cp & 0x3f));
	return 4;
}
