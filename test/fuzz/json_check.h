/* json_check.h - an independent oracle for common/json: a strict reader of
 * JSON string content (RFC 8259 without the quotes) that also refuses
 * what airlock never writes raw, and a UTF-8 reader built from Unicode's
 * table of well-formed byte sequences (Table 3-7), not from json.c's code.
 * Shared by json_test and fuzz_json. */
#ifndef AIRLOCK_JSON_CHECK_H
#define AIRLOCK_JSON_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* The well-formed sequences: lead byte range, then the range of each
 * following byte. */
static const struct {
	uint8_t lead_lo, lead_hi, n;
	uint8_t lo[3], hi[3];
} jc_forms[] = {
	{ 0xc2, 0xdf, 2, { 0x80 }, { 0xbf } },
	{ 0xe0, 0xe0, 3, { 0xa0, 0x80 }, { 0xbf, 0xbf } },
	{ 0xe1, 0xec, 3, { 0x80, 0x80 }, { 0xbf, 0xbf } },
	{ 0xed, 0xed, 3, { 0x80, 0x80 }, { 0x9f, 0xbf } },
	{ 0xee, 0xef, 3, { 0x80, 0x80 }, { 0xbf, 0xbf } },
	{ 0xf0, 0xf0, 4, { 0x90, 0x80, 0x80 }, { 0xbf, 0xbf, 0xbf } },
	{ 0xf1, 0xf3, 4, { 0x80, 0x80, 0x80 }, { 0xbf, 0xbf, 0xbf } },
	{ 0xf4, 0xf4, 4, { 0x80, 0x80, 0x80 }, { 0x8f, 0xbf, 0xbf } },
};

/* The code point of the well-formed sequence at p[0..n), its length in
 * *len; a byte that starts none is U+FFFD of length 1. */
static inline uint32_t
jc_utf8(const uint8_t *p, size_t n, size_t *len)
{
	*len = 1;
	if (p[0] < 0x80)
		return p[0];
	for (size_t f = 0; f < sizeof jc_forms / sizeof jc_forms[0]; f++) {
		uint32_t cp;
		size_t k;

		if (p[0] < jc_forms[f].lead_lo || p[0] > jc_forms[f].lead_hi ||
		    jc_forms[f].n > n)
			continue;
		cp = p[0] & (jc_forms[f].n == 2 ? 0x1f : jc_forms[f].n == 3 ?
		    0x0f : 0x07);
		for (k = 1; k < jc_forms[f].n; k++) {
			if (p[k] < jc_forms[f].lo[k - 1] ||
			    p[k] > jc_forms[f].hi[k - 1])
				break;
			cp = cp * 64 + (p[k] & 0x3f);
		}
		if (k == jc_forms[f].n) {
			*len = k;
			return cp;
		}
	}
	return 0xfffd;
}

/* Airlock's rule: the code points that never appear unescaped. Written
 * from Unicode's Default_Ignorable_Code_Point list (DerivedCoreProperties
 * .txt) plus the controls, separators and interlinear annotation marks,
 * apart from utf8.c's table, so the two can be checked one against the
 * other. */
static inline int
jc_must_escape(uint32_t cp)
{
	static const uint32_t ignorable[][2] = {
		{ 0x00ad, 0x00ad }, { 0x034f, 0x034f }, { 0x061c, 0x061c },
		{ 0x115f, 0x1160 }, { 0x17b4, 0x17b5 }, { 0x180b, 0x180f },
		{ 0x200b, 0x200f }, { 0x202a, 0x202e }, { 0x2060, 0x206f },
		{ 0x3164, 0x3164 }, { 0xfe00, 0xfe0f }, { 0xfeff, 0xfeff },
		{ 0xffa0, 0xffa0 }, { 0xfff0, 0xfff8 }, { 0x1bca0, 0x1bca3 },
		{ 0x1d173, 0x1d17a }, { 0xe0000, 0xe0fff },
	};

	if (cp < 0x20 || cp == '"' || cp == '\\' || cp == 0x7f ||
	    (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
	    (cp >= 0xfff9 && cp <= 0xfffb))
		return 1;
	for (size_t i = 0; i < sizeof ignorable / sizeof ignorable[0]; i++)
		if (cp >= ignorable[i][0] && cp <= ignorable[i][1])
			return 1;
	return 0;
}

static inline int
jc_hex(uint8_t c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Decode the JSON string content s[0..n) into out (room for n code
 * points), its count in *nout. Returns 0, or -1 when s is not valid JSON
 * string content or holds unescaped what the rule escapes (a raw control
 * byte, C1, separator or bidi control; any byte of invalid UTF-8). */
static inline int
jc_decode(const uint8_t *s, size_t n, uint32_t *out, size_t *nout)
{
	size_t i = 0, len;
	uint32_t cp;

	*nout = 0;
	while (i < n) {
		if (s[i] != '\\') {
			cp = jc_utf8(s + i, n - i, &len);
			if ((cp == 0xfffd && len == 1) || jc_must_escape(cp))
				return -1;
			out[(*nout)++] = cp;
			i += len;
			continue;
		}
		if (n - i < 2)
			return -1;
		switch (s[i + 1]) {
		case '"': cp = '"'; break;
		case '\\': cp = '\\'; break;
		case '/': cp = '/'; break;
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'n': cp = '\n'; break;
		case 'r': cp = '\r'; break;
		case 't': cp = '\t'; break;
		case 'u':
			if (n - i < 6)
				return -1;
			cp = 0;
			for (int k = 2; k < 6; k++) {
				int h = jc_hex(s[i + k]);

				if (h < 0)
					return -1;
				cp = cp * 16 + (uint32_t)h;
			}
			i += 6;
			/* past U+FFFF only what must be escaped, as a pair */
			if (cp >= 0xd800 && cp <= 0xdbff) {
				uint32_t lo = 0;

				if (n - i < 6 || s[i] != '\\' || s[i + 1] != 'u')
					return -1;
				for (int k = 2; k < 6; k++) {
					int h = jc_hex(s[i + k]);

					if (h < 0)
						return -1;
					lo = lo * 16 + (uint32_t)h;
				}
				if (lo < 0xdc00 || lo > 0xdfff)
					return -1;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				if (!jc_must_escape(cp))
					return -1;
				i += 6;
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				return -1;
			}
			out[(*nout)++] = cp;
			continue;
		default:
			return -1;
		}
		out[(*nout)++] = cp;
		i += 2;
	}
	return 0;
}

/* What escaping p[0..n) must decode to: its well-formed sequences, each
 * other byte as U+FFFD. Room for n code points in out. */
static inline size_t
jc_expect(const uint8_t *p, size_t n, uint32_t *out)
{
	size_t i = 0, k = 0, len;

	while (i < n) {
		out[k++] = jc_utf8(p + i, n - i, &len);
		i += len;
	}
	return k;
}

#endif
