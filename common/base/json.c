/* json.c - the one JSON string escaper (the rule is in json.h). */
#include "common/base/json.h"

#include <string.h>

/* The length of the valid UTF-8 sequence at p[0..n) (n >= 1) and its code
 * point, or 0: a bad lead or continuation byte, an overlong form, a
 * surrogate, a code point past U+10FFFF, or a sequence cut short. */
static size_t
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

/* A character that a terminal or a viewer acts on instead of showing. */
static int
is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c ||
	    cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069);
}

size_t
json_step(const uint8_t *p, size_t n, size_t *off, char out[JSON_STEP_MAX])
{
	static const char hex[] = "0123456789abcdef";
	uint32_t cp;
	size_t len = utf8_seq(p + *off, n - *off, &cp);

	if (len == 0) {
		cp = 0xfffd;
		len = 1;
	} else if (!is_control(cp) && cp != '"' && cp != '\\') {
		memcpy(out, p + *off, len);
		*off += len;
		return len;
	}
	*off += len;
	out[0] = '\\';
	switch (cp) {
	case '"':
	case '\\':
		out[1] = (char)cp;
		return 2;
	case '\n':
		out[1] = 'n';
		return 2;
	case '\r':
		out[1] = 'r';
		return 2;
	case '\t':
		out[1] = 't';
		return 2;
	}
	/* every escaped code point is below U+10000: four hex digits */
	out[1] = 'u';
	for (int i = 0; i < 4; i++)
		out[2 + i] = hex[cp >> (12 - 4 * i) & 0xf];
	return 6;
}

void
json_write(FILE *f, const void *p, size_t n)
{
	char step[JSON_STEP_MAX];

	for (size_t off = 0; off < n; )
		fwrite(step, 1, json_step(p, n, &off, step), f);
}

void
json_write_quoted(FILE *f, const void *p, size_t n)
{
	fputc('"', f);
	json_write(f, p, n);
	fputc('"', f);
}

void
json_write_cstr(FILE *f, const char *s)
{
	json_write_quoted(f, s ? s : "", s ? strlen(s) : 0);
}

size_t
json_append(char *buf, size_t cap, size_t *len, const void *p, size_t n)
{
	char step[JSON_STEP_MAX];
	size_t off = 0;

	while (off < n) {
		size_t next = off, k = json_step(p, n, &next, step);

		if (k > cap - *len)
			break;
		memcpy(buf + *len, step, k);
		*len += k;
		off = next;
	}
	return off;
}
