/* utf8_test.c - the strict UTF-8 decoder and the control set, case by
 * case, and the whole code space against the independent oracle of
 * test/fuzz/json_check.h. */
#include <string.h>

#include "common/base/utf8.h"
#include "tap.h"
#include "test/fuzz/json_check.h"

static const struct {
	const char *in;
	size_t n, len;
	uint32_t cp;
	const char *why;
} cases[] = {
#define C(in, len, cp, why) { in, sizeof in - 1, len, cp, why }
	C("A", 1, 'A', "ASCII"),
	C("\x1b", 1, 0x1b, "a C0 control decodes (it is a control)"),
	C("\xc3\xa9", 2, 0xe9, "two bytes"),
	C("\xc2\x9b", 2, 0x9b, "C1 CSI in UTF-8"),
	C("\xe2\x80\xae", 3, 0x202e, "three bytes: RLO"),
	C("\xf0\x9f\x98\x80", 4, 0x1f600, "four bytes"),
	C("\x9b", 0, 0, "raw 0x9b: a stray continuation"),
	C("\xc0\x9b", 0, 0, "overlong C1"),
	C("\xe0\x82\x9b", 0, 0, "overlong C1 in three bytes"),
	C("\xed\xb0\x80", 0, 0, "a surrogate"),
	C("\xf4\x90\x80\x80", 0, 0, "past U+10FFFF"),
	C("\xe2\x80", 0, 0, "cut short"),
	C("\xc3\x41", 0, 0, "a bad continuation"),
	C("\xff", 0, 0, "never a lead byte"),
#undef C
};

int
main(void)
{
	static const uint32_t controls[] = { 0, 0x1b, 0x1f, 0x7f, 0x80, 0x85,
		0x9b, 0x9d, 0x9f, 0x061c, 0x200e, 0x200f, 0x2028, 0x2029,
		0x202a, 0x202e, 0x2066, 0x2069,
		/* invisible: soft hyphen, zero widths, word joiner, BOM,
		 * variation selectors, tags (ASCII smuggling), fillers */
		0xad, 0x200b, 0x200c, 0x200d, 0x2060, 0x2064, 0x2065, 0x206a,
		0x206f, 0xfe00, 0xfe0f, 0xfeff, 0x3164, 0xffa0, 0xfffb,
		0xe0001, 0xe0041, 0xe007f, 0xe0100, 0xe01ef, 0xe0fff,
		0x1d173, 0x1bca0 };
	static const uint32_t shown[] = { ' ', '~', 0xa0, 0xac, 0xae, 0xe9,
		0x061b, 0x200a, 0x2010, 0x2027, 0x202f, 0x2070, 0xfdff,
		0xfe10, 0xfefe, 0xfffc, 0xfffd, 0x1f600, 0xdffff, 0xe1000,
		0x10ffff };
	size_t bad = 0;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t cp = 0;
		size_t len = utf8_seq((const uint8_t *)cases[i].in, cases[i].n,
		    &cp);

		ok(len == cases[i].len && (len == 0 || cp == cases[i].cp),
		    "%s: length %zu", cases[i].why, len);
	}
	for (size_t i = 0; i < sizeof controls / sizeof controls[0]; i++)
		ok(utf8_must_escape(controls[i]), "U+%04X is escaped",
		    (unsigned)controls[i]);
	for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
		ok(!utf8_must_escape(shown[i]), "U+%04X is shown",
		    (unsigned)shown[i]);
	/* every 1..3-byte prefix over the lead bytes and a spread of
	 * continuations: the decoder agrees with Unicode's table */
	for (unsigned a = 0; a < 256; a++)
		for (unsigned b = 0x70; b < 0xd0; b++)
			for (unsigned c = 0x70; c < 0xd0; c += 7) {
				uint8_t p[4] = { (uint8_t)a, (uint8_t)b,
					(uint8_t)c, 0x80 };
				uint32_t cp = 0;
				size_t jlen, len = utf8_seq(p, 4, &cp);
				uint32_t jcp = jc_utf8(p, 4, &jlen);

				if (len == 0 ? !(jcp == 0xfffd && jlen == 1) :
				    len != jlen || cp != jcp)
					bad++;
			}
	ok(bad == 0, "the decoder agrees with the oracle (%zu wrong)", bad);
	return tap_done();
}
