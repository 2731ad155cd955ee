/* json_reader_test.c - the gateway's JSON reader on its edges: RFC 8259's
 * grammar accepted and each way out of it refused (controls in strings,
 * bad escapes, lone and misordered surrogates, bytes that are not UTF-8,
 * leading zeros, trailing commas and bytes), keys that decode alike, the
 * depth and token caps; member lookup, elements, decoding, integers. */
#include <string.h>

#include "common/gateway/json_reader.h"
#include "tap.h"

static struct json_node tok[64];

static enum jsonr_status
parse(struct jsonr *j, const char *text)
{
	return jsonr_parse(j, text, strlen(text), tok, 64);
}

struct case_ {
	const char *text;
	enum jsonr_status want;
};

int
main(void)
{
	static const struct case_ cases[] = {
		{ "{}", JSONR_OK }, { "[]", JSONR_OK }, { " \t\r\n1 ", JSONR_OK },
		{ "\"\"", JSONR_OK }, { "null", JSONR_OK }, { "true", JSONR_OK },
		{ "-0", JSONR_OK }, { "1.5e-3", JSONR_OK }, { "0.0E+1", JSONR_OK },
		{ "{\"a\":[1,{\"b\":null}],\"c\":\"\\u00e9\\ud83d\\ude00\"}",
		  JSONR_OK },
		{ "\"caf\xc3\xa9\"", JSONR_OK },
		{ "", JSONR_BAD }, { " ", JSONR_BAD }, { "{", JSONR_BAD },
		{ "[1,]", JSONR_BAD }, { "{\"a\":1,}", JSONR_BAD },
		{ "{a:1}", JSONR_BAD }, { "{\"a\" 1}", JSONR_BAD },
		{ "01", JSONR_BAD }, { "-", JSONR_BAD }, { "1.", JSONR_BAD },
		{ ".5", JSONR_BAD }, { "1e", JSONR_BAD }, { "+1", JSONR_BAD },
		{ "NaN", JSONR_BAD }, { "tru", JSONR_BAD }, { "nul", JSONR_BAD },
		{ "1 2", JSONR_BAD }, { "{} x", JSONR_BAD }, { "\"a\"\"", JSONR_BAD },
		{ "\"a\tb\"", JSONR_BAD }, { "\"a\nb\"", JSONR_BAD },
		{ "\"\\x41\"", JSONR_BAD }, { "\"\\u12\"", JSONR_BAD },
		{ "\"\\u12g4\"", JSONR_BAD }, { "\"\\ud800\"", JSONR_BAD },
		{ "\"\\udc00\"", JSONR_BAD }, { "\"\\ud800\\u0041\"", JSONR_BAD },
		{ "\"\\ude00\\ud83d\"", JSONR_BAD }, { "\"\\", JSONR_BAD },
		{ "\"\xff\"", JSONR_BAD }, { "\"\xc0\xaf\"", JSONR_BAD },
		{ "\"\xed\xa0\x80\"", JSONR_BAD }, { "\"\xe2\x82\"", JSONR_BAD },
		{ "'a'", JSONR_BAD }, 
		{ "{\"a\":1,\"a\":2}", JSONR_BAD },
		{ "{\"a\":1,\"\\u0061\":2}", JSONR_BAD },
		{ "{\"a\":{\"a\":1},\"b\":{\"a\":1}}", JSONR_OK },
		{ "[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]", JSONR_LIMIT },
		{ "[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]", JSONR_OK },
	};
	struct jsonr j;
	char buf[64];
	size_t n;
	int64_t v;
	long i;

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		ok(parse(&j, cases[k].text) == cases[k].want, "case %zu", k);
	}
	ok(jsonr_parse(&j, "[1]\0", 4, tok, 64) == JSONR_BAD,
	    "a NUL byte after the value");

	/* lookups and decoding */
	ok(parse(&j, "{\"name\":\"a\\\"b\\\\c\\/\\n\\u0000\",\"n\":42,"
	    "\"arr\":[\"x\",{\"k\":-7},[]],\"big\":12345678901234567890,"
	    "\"f\":1.5,\"\\u006ee\":1}") == JSONR_OK, "a document parses");
	i = jsonr_member(&j, 0, "name");
	ok(i > 0 && jsonr_string(&j, (size_t)i, buf, sizeof buf, &n) == 0 &&
	    n == 8 && memcmp(buf, "a\"b\\c/\n\0", 8) == 0,
	    "escapes decode, \\u0000 to a NUL byte");
	ok(jsonr_string(&j, (size_t)i, buf, 7, &n) == -1,
	    "decoding refuses a buffer too small");
	ok(jsonr_member(&j, 0, "ne") > 0, "a key written with escapes matches");
	ok(jsonr_member(&j, 0, "nam") == -1 && jsonr_member(&j, 0, "names")
	    == -1, "a key's prefix or extension does not match");
	i = jsonr_member(&j, 0, "n");
	ok(i > 0 && jsonr_int(&j, (size_t)i, 0, 100, &v) == 0 && v == 42,
	    "an integer");
	ok(jsonr_int(&j, (size_t)i, 0, 41, &v) == -1, "an integer over max");
	ok(jsonr_int(&j, (size_t)jsonr_member(&j, 0, "big"), INT64_MIN,
	    INT64_MAX, &v) == -1, "an integer past 64 bits is refused");
	ok(jsonr_int(&j, (size_t)jsonr_member(&j, 0, "f"), -10, 10, &v) == -1,
	    "a fraction is no integer");
	i = jsonr_member(&j, 0, "arr");
	ok(i > 0 && j.tok[i].count == 3, "an array's size");
	ok(jsonr_element(&j, (size_t)i, 3) == -1, "no fourth element");
	{
		long e1 = jsonr_element(&j, (size_t)i, 1);
		long m = jsonr_member(&j, (size_t)e1, "k");

		ok(e1 > 0 && m > 0 && jsonr_int(&j, (size_t)m, -10, 10, &v) ==
		    0 && v == -7, "a member of an element");
		ok(jsonr_element(&j, (size_t)i, 2) > 0 &&
		    j.tok[jsonr_element(&j, (size_t)i, 2)].type == JSON_ARRAY,
		    "the element after a nested object");
	}
	ok(jsonr_member(&j, (size_t)jsonr_member(&j, 0, "n"), "x") == -1,
	    "a member of a number is none");
	ok(jsonr_string(&j, (size_t)jsonr_member(&j, 0, "n"), buf,
	    sizeof buf, &n) == -1, "a number is no string");
	ok(parse(&j, "\"\\ud83d\\ude00\"") == JSONR_OK &&
	    jsonr_string(&j, 0, buf, sizeof buf, &n) == 0 && n == 4 &&
	    memcmp(buf, "\xf0\x9f\x98\x80", 4) == 0,
	    "a surrogate pair decodes to one 4-byte character");

	/* a key's length cap */
	{
		static char doc[2 * JSONR_KEY_MAX];
		int dn = snprintf(doc, sizeof doc, "{\"%0*d\":1}", JSONR_KEY_MAX,
		    0);

		ok(jsonr_parse(&j, doc, (size_t)dn, tok, 64) == JSONR_OK,
		    "a key of %d bytes", JSONR_KEY_MAX);
		dn = snprintf(doc, sizeof doc, "{\"%0*d\":1}", JSONR_KEY_MAX + 1,
		    0);
		ok(jsonr_parse(&j, doc, (size_t)dn, tok, 64) == JSONR_LIMIT,
		    "a key of %d bytes: LIMIT", JSONR_KEY_MAX + 1);
		dn = snprintf(doc, sizeof doc, "[\"%0*d\"]", JSONR_KEY_MAX + 1,
		    0);
		ok(jsonr_parse(&j, doc, (size_t)dn, tok, 64) == JSONR_OK,
		    "a string value has no such cap");
	}

	/* the token cap */
	ok(jsonr_parse(&j, "[1,2,3,4]", 9, tok, 4) == JSONR_LIMIT,
	    "more values than tokens: LIMIT");
	ok(jsonr_parse(&j, "[1,2,3]", 7, tok, 4) == JSONR_OK && j.n == 4,
	    "exactly as many: OK");
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
