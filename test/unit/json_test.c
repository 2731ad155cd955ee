/* json_test.c - the JSON string escaper: the rule, case by case, then
 * both writers checked against an independent reader (json_check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/json.h"
#include "tap.h"
#include "test/fuzz/json_check.h"

/* input (with its length: NULs and invalid UTF-8 are cases) -> output */
static const struct {
	const char *in;
	size_t n;
	const char *out;
	const char *why;
} cases[] = {
#define C(in, out, why) { in, sizeof in - 1, out, why }
	C("", "", "empty"),
	C("plain text 123", "plain text 123", "printable ASCII as itself"),
	C("a\"b\\c/", "a\\\"b\\\\c/", "quote and backslash escaped"),
	C("\n\r\t", "\\n\\r\\t", "newline, CR, tab: short escapes"),
	C("\0x", "\\u0000x", "an embedded NUL"),
	C("\x1b[31m", "\\u001b[31m", "ESC: no terminal sequence"),
	C("\b\f\x01\x1f", "\\u0008\\u000c\\u0001\\u001f", "other C0"),
	C("\x7f", "\\u007f", "DEL"),
	C(" ~", " ~", "the printable ends"),
	C("caf\xc3\xa9", "caf\xc3\xa9", "valid UTF-8 as itself"),
	C("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", "a 4-byte character"),
	C("\xef\xbf\xbd", "\xef\xbf\xbd", "U+FFFD itself is valid"),
	C("\xc2\x80", "\\u0080", "C1: U+0080"),
	C("\xc2\x9b" "31m", "\\u009b31m", "C1: CSI"),
	C("\xc2\x9f", "\\u009f", "C1: U+009F"),
	C("\xc2\xa0", "\xc2\xa0", "U+00A0 after C1 as itself"),
	C("\xe2\x80\xa8\xe2\x80\xa9", "\\u2028\\u2029", "line/para separators"),
	C("\xe2\x80\xaa\xe2\x80\xae", "\\u202a\\u202e", "bidi embed/override"),
	C("\xe2\x81\xa6\xe2\x81\xa9", "\\u2066\\u2069", "bidi isolates"),
	C("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\u200e\\u200f\\u061c",
	    "bidi marks"),
	C("\xe2\x80\xa7\xe2\x80\xaf", "\xe2\x80\xa7\xe2\x80\xaf",
	    "U+2027, U+202F beside them as themselves"),
	C("\xe2\x81\xb0\xe2\x80\x8a", "\xe2\x81\xb0\xe2\x80\x8a",
	    "U+2070, U+200A beside them as themselves"),
	C("\xe2\x80\x8b\xe2\x80\x8d\xef\xbb\xbf", "\\u200b\\u200d\\ufeff",
	    "zero width space, joiner, BOM"),
	C("\xc2\xad\xe2\x81\xa0\xe2\x81\xa5\xe2\x81\xaa",
	    "\\u00ad\\u2060\\u2065\\u206a",
	    "soft hyphen, word joiner, U+2065, U+206A"),
	C("\xef\xb8\x8f\xe3\x85\xa4", "\\ufe0f\\u3164",
	    "a variation selector, a Hangul filler"),
	C("\xf3\xa0\x81\x81\xf3\xa0\x81\xbf", "\\udb40\\udc41\\udb40\\udc7f",
	    "tags (ASCII smuggling): surrogate pairs"),
	C("\xf3\xa0\x87\xaf", "\\udb40\\uddef",
	    "a supplementary variation selector"),
	C("\xf0\x9f\x98\x80\xf3\xa1\x80\x80", "\xf0\x9f\x98\x80\xf3\xa1\x80\x80",
	    "an emoji, U+E1000 as themselves"),
	C("\x80", "\\ufffd", "a stray continuation byte"),
	C("\xff\xfe", "\\ufffd\\ufffd", "bytes never in UTF-8"),
	C("\xc0\xaf", "\\ufffd\\ufffd", "overlong '/' (2 bytes)"),
	C("\xe0\x80\xaf", "\\ufffd\\ufffd\\ufffd", "overlong '/' (3 bytes)"),
	C("\xc1\x9b", "\\ufffd\\ufffd", "overlong CSI: no C1 by the back door"),
	C("\xed\xa0\x80", "\\ufffd\\ufffd\\ufffd", "a surrogate"),
	C("\xf4\x90\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd", "past U+10FFFF"),
	C("\xe2\x82", "\\ufffd\\ufffd", "a sequence cut short at the end"),
	C("\xc3" "A", "\\ufffdA", "a lead byte before ASCII"),
	C("\xe2\x80" "\xc3\xa9", "\\ufffd\\ufffd\xc3\xa9",
	    "a cut sequence before a valid one"),
#undef C
};

static char *
via_file(const void *p, size_t n, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	json_write(f, p, n);
	fclose(f);
	return buf;
}

static void
test_cases(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char buf[256];
		size_t len = 0, flen = 0, taken;
		char *fbuf = via_file(cases[i].in, cases[i].n, &flen);

		taken = json_append(buf, sizeof buf, &len, cases[i].in,
		    cases[i].n);
		ok(taken == cases[i].n && len == strlen(cases[i].out) &&
		    memcmp(buf, cases[i].out, len) == 0 && fbuf &&
		    flen == len && memcmp(fbuf, buf, len) == 0,
		    "%s: '%.*s'", cases[i].why, (int)len, buf);
		free(fbuf);
	}
}

/* Every case and every 1- and 2-byte input: the output reads back as
 * valid JSON string content to what the rule says, with no raw control. */
static void
test_oracle(void)
{
	uint8_t in[2];
	char out[2 * JSON_STEP_MAX];
	uint32_t got[sizeof out], want[2];
	size_t bad = 0, ngot, nwant;

	for (unsigned v = 0; v < 0x10000; v++) {
		for (size_t n = 1; n <= 2; n++) {
			size_t len = 0;

			in[0] = (uint8_t)(v >> 8);
			in[1] = (uint8_t)v;
			if (n == 1 && in[1] != 0)
				continue;
			json_append(out, sizeof out, &len, in, n);
			nwant = jc_expect(in, n, want);
			if (jc_decode((uint8_t *)out, len, got, &ngot) != 0 ||
			    ngot != nwant ||
			    memcmp(got, want, ngot * sizeof got[0]) != 0)
				bad++;
		}
	}
	ok(bad == 0, "all 1- and 2-byte inputs read back (%zu wrong)", bad);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t g[256], w[64];

		ngot = 0;
		if (jc_decode((const uint8_t *)cases[i].out,
		    strlen(cases[i].out), g, &ngot) != 0)
			bad++;
		nwant = jc_expect((const uint8_t *)cases[i].in, cases[i].n, w);
		if (ngot != nwant || memcmp(g, w, ngot * sizeof g[0]) != 0)
			bad++;
	}
	ok(bad == 0, "every case reads back to its characters (%zu wrong)",
	    bad);
	/* the oracle itself refuses what the rule forbids (it can fail) */
	ok(jc_decode((const uint8_t *)"\x1b", 1, got, &ngot) != 0 &&
	    jc_decode((const uint8_t *)"\xc2\x9b", 2, got, &ngot) != 0 &&
	    jc_decode((const uint8_t *)"\xe2\x80\xae", 3, got, &ngot) != 0 &&
	    jc_decode((const uint8_t *)"\xff", 1, got, &ngot) != 0 &&
	    jc_decode((const uint8_t *)"\\x41", 4, got, &ngot) != 0 &&
	    jc_decode((const uint8_t *)"\\u00", 4, got, &ngot) != 0 &&
	    jc_decode((const uint8_t *)"\"", 1, got, &ngot) != 0,
	    "the reader refuses raw controls, C1, bidi, bad UTF-8, bad escapes");
}

static void
test_bounds(void)
{
	char buf[8];
	size_t len = 0;

	memset(buf, '#', sizeof buf);
	ok(json_append(buf, 4, &len, "ab\ncd", 5) == 3 && len == 4 &&
	    memcmp(buf, "ab\\n", 4) == 0 && buf[4] == '#',
	    "the buffer writer stops at cap, after a whole escape");
	len = 0;
	memset(buf, '#', sizeof buf);
	ok(json_append(buf, 5, &len, "a\x1b", 2) == 1 && len == 1 &&
	    buf[1] == '#', "an escape that does not fit is not begun");
	len = 3;
	ok(json_append(buf, 3, &len, "x", 1) == 0 && len == 3,
	    "a full buffer takes nothing");
	len = 0;
	ok(json_append(buf, 3, &len, "\xc3\xa9\xc3\xa9", 4) == 2 && len == 2,
	    "a UTF-8 character is never split");
}

static void
test_cstr(void)
{
	size_t len = 0;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		ok(0, "open_memstream");
		return;
	}
	json_write_cstr(f, NULL);
	json_write_cstr(f, "a\"\xc2\x85");
	json_write_quoted(f, "x\0y", 3);
	fclose(f);
	ok(buf && strcmp(buf, "\"\"\"a\\\"\\u0085\"\"x\\u0000y\"") == 0,
	    "quoted writers (NULL is empty): %s", buf ? buf : "");
	free(buf);
}

int
main(void)
{
	test_cases();
	test_oracle();
	test_bounds();
	test_cstr();
	return tap_done();
}
