/* utf8.c - strict UTF-8 decoding and the set of characters escaped
 * (utf8.h). */
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

/* Drawn as nothing, yet read by a model or a parser: a tool description
 * can hide text in them ("ASCII smuggling" with tags, bytes in variation
 * selectors). Unicode's default-ignorable characters that are not
 * controls, bidi or separators (those are listed in utf8_must_escape). */
static int
is_invisible(uint32_t cp)
{
	static const uint32_t ranges[][2] = {
		{ 0x00ad, 0x00ad },	/* soft hyphen */
		{ 0x034f, 0x034f },	/* combining grapheme joiner */
		{ 0x115f, 0x1160 },	/* Hangul fillers */
		{ 0x17b4, 0x17b5 },	/* Khmer inherent vowels */
		{ 0x180b, 0x180f },	/* Mongolian selectors, vowel separator */
		{ 0x200b, 0x200d },	/* zero width space, non-joiner, joiner */
		{ 0x2060, 0x2065 },	/* word joiner, invisible operators */
		{ 0x206a, 0x206f },	/* deprecated format controls */
		{ 0x3164, 0x3164 },	/* Hangul filler */
		{ 0xfe00, 0xfe0f },	/* variation selectors */
		{ 0xfeff, 0xfeff },	/* zero width no-break space (BOM) */
		{ 0xffa0, 0xffa0 },	/* halfwidth Hangul filler */
		{ 0xfff0, 0xfffb },	/* unassigned; interlinear annotation */
		{ 0x1bca0, 0x1bca3 },	/* shorthand format controls */
		{ 0x1d173, 0x1d17a },	/* musical format controls */
		{ 0xe0000, 0xe0fff },	/* tags, variation selectors supplement */
	};

	for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
		if (cp >= ranges[i][0] && cp <= ranges[i][1])
			return 1;
	return 0;
}

int
utf8_must_escape(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c ||
	    cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069) || is_invisible(cp);
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
