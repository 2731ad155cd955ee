/* jsonparse_test.c - the strict, bounded JSON parser: the grammar, each
 * refusal with its own status, each limit at and one past its bound, and
 * the string accessors. */
#include <string.h>

#include "common/mcp/jsonparse.h"
#include "tap.h"

static const struct json_limits lim = { 4, 16, 8, 4, 64 };
static struct json_node nodes[64];
static uint32_t scratch[64];

static const struct {
	const char *in;
	size_t n;
	enum json_status want;
	const char *why;
} cases[] = {
#define C(in, want, why) { in, sizeof in - 1, want, why }
	C("null", JSON_OK, "a bare literal"),
	C(" \t\r\n{\"a\":[1,-2.5e+3,true,false]}\r\n", JSON_OK,
	  "whitespace of all four kinds around"),
	C("\"\\ud83d\\ude00\"", JSON_OK, "a surrogate pair escape"),
	C("\"\xc3\xa9\\u00e9\"", JSON_OK, "UTF-8 and an escape"),
	C("{\"a\":1,\"b\":2}", JSON_OK, "two keys"),
	C("\"\\u0000\"", JSON_OK, "an escaped NUL is JSON"),
	C("", JSON_BAD_SYNTAX, "nothing"),
	C("nul", JSON_BAD_SYNTAX, "a literal cut short"),
	C("[1,]", JSON_BAD_SYNTAX, "a trailing comma"),
	C("{\"a\" 1}", JSON_BAD_SYNTAX, "no colon"),
	C("{a:1}", JSON_BAD_SYNTAX, "a bare key"),
	C("01", JSON_BAD_SYNTAX, "a leading zero"),
	C("1.", JSON_BAD_SYNTAX, "no fraction digits"),
	C("+1", JSON_BAD_SYNTAX, "a plus sign"),
	C(".5", JSON_BAD_SYNTAX, "no integer part"),
	C("1e", JSON_BAD_SYNTAX, "no exponent digits"),
	C("NaN", JSON_BAD_SYNTAX, "NaN is not JSON"),
	C("1 2", JSON_BAD_SYNTAX, "two values"),
	C("{} x", JSON_BAD_SYNTAX, "trailing bytes"),
	C("\"abc", JSON_BAD_SYNTAX, "an open string"),
	C("[1", JSON_BAD_SYNTAX, "an open array"),
	C("\xef\xbb\xbf{}", JSON_BAD_SYNTAX, "a byte-order mark"),
	C("\"\xc0\xaf\"", JSON_BAD_UTF8, "an overlong form"),
	C("\"\xed\xa0\x80\"", JSON_BAD_UTF8, "a UTF-8 surrogate"),
	C("\"\xf4\x90\x80\x80\"", JSON_BAD_UTF8, "past U+10FFFF"),
	C("\"\xff\"", JSON_BAD_UTF8, "0xff"),
	C("\"\xe2\x80\"", JSON_BAD_UTF8, "a sequence cut by the quote"),
	C("\"a\nb\"", JSON_CONTROL_CHAR, "a raw newline in a string"),
	C("\"\x1b[31m\"", JSON_CONTROL_CHAR, "a raw ESC"),
	C("\"\\ud800\"", JSON_BAD_ESCAPE, "a lone high surrogate"),
	C("\"\\udc00\"", JSON_BAD_ESCAPE, "a lone low surrogate"),
	C("\"\\ud800\\u0041\"", JSON_BAD_ESCAPE, "high then not low"),
	C("\"\\ud800\\ud800\"", JSON_BAD_ESCAPE, "high then high"),
	C("\"\\x41\"", JSON_BAD_ESCAPE, "an unknown escape"),
	C("\"\\u00g0\"", JSON_BAD_ESCAPE, "a bad hex digit"),
	C("\"\\u00\"", JSON_BAD_ESCAPE, "a \\u cut short"),
	C("{\"a\":1,\"a\":2}", JSON_DUPLICATE_KEY, "a duplicate key"),
	C("{\"a\":1,\"b\":2,\"\\u0061\":3}", JSON_DUPLICATE_KEY,
	  "a duplicate spelt otherwise"),
	C("[{\"x\":{\"k\":1,\"k\":1}}]", JSON_DUPLICATE_KEY,
	  "a duplicate deep down"),
	C("[[[[1]]]]", JSON_OK, "depth 4: at the limit"),
	C("[[[[[1]]]]]", JSON_TOO_DEEP, "depth 5: past it"),
	C("\"0123456789abcdef\"", JSON_OK, "a 16-byte string: at the limit"),
	C("\"0123456789abcdefg\"", JSON_STRING_TOO_LONG, "17 bytes"),
	C("{\"0123456789abcdefg\":1}", JSON_STRING_TOO_LONG, "a long key"),
	C("\"\\u00e9\\u00e9\\u00e9\"", JSON_STRING_TOO_LONG,
	  "the limit counts bytes as written"),
	C("-1234567", JSON_OK, "an 8-byte number: at the limit"),
	C("123456789", JSON_NUMBER_TOO_LONG, "9 bytes"),
	C("[1,2,3,4]", JSON_OK, "4 elements: at the limit"),
	C("[1,2,3,4,5]", JSON_TOO_MANY_MEMBERS, "5 elements"),
	C("{\"a\":1,\"b\":1,\"c\":1,\"d\":1,\"e\":1}", JSON_TOO_MANY_MEMBERS,
	  "5 members"),
#undef C
};

int
main(void)
{
	static const struct json_limits tiny = { 8, 16, 8, 64, 3 };
	struct json_doc d;
	const struct json_node *v;
	char buf[32];
	const char *obj = "{\"na\\u006de\":\"t\\u00e9\",\"n\":[1,{\"x\":2}],"
	    "\"z\":\"a\\u0000b\"}";

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		enum json_status st = json_parse(&d,
		    (const uint8_t *)cases[i].in, cases[i].n, &lim, nodes, 64,
		    scratch);

		ok(st == cases[i].want, "%s: %s", cases[i].why,
		    json_status_name(st));
	}
	ok(json_parse(&d, (const uint8_t *)"[1,2]", 5, &tiny, nodes, 64,
	    scratch) == JSON_OK && d.n == 3, "3 nodes: at the node limit");
	ok(json_parse(&d, (const uint8_t *)"[1,2,3]", 7, &tiny, nodes, 64,
	    scratch) == JSON_TOO_MANY_NODES, "4 nodes: past it");
	ok(json_parse(&d, (const uint8_t *)"[1,2,3]", 7, &lim, nodes, 2,
	    scratch) == JSON_TOO_MANY_NODES, "the array's cap holds too");
	ok(json_parse(&d, (const uint8_t *)"[1,{\"a\":1,\"a\":2}]", 17, &lim,
	    nodes, 64, scratch) == JSON_DUPLICATE_KEY && d.err_off == 3,
	    "err_off names the object with the duplicate");

	ok(json_parse(&d, (const uint8_t *)obj, strlen(obj),
	    &(struct json_limits){ 8, 64, 8, 8, 64 }, nodes, 64, scratch) ==
	    JSON_OK, "a document to read");
	ok(d.nodes[0].type == JSON_OBJECT && d.nodes[0].count == 3 &&
	    d.nodes[0].end == d.n, "the root: three members, whole subtree");
	v = json_get(&d, &d.nodes[0], "name", 4);
	ok(v && v->type == JSON_STRING && json_str_eq(&d, v, "t\xc3\xa9", 3),
	    "json_get finds a key written with an escape; str_eq decodes");
	ok(v && json_str_copy(&d, v, buf, sizeof buf) == 3 &&
	    strcmp(buf, "t\xc3\xa9") == 0, "str_copy decodes to UTF-8");
	ok(v && json_str_copy(&d, v, buf, 3) == -1, "str_copy: cap respected");
	v = json_get(&d, &d.nodes[0], "z", 1);
	ok(v && json_str_copy(&d, v, buf, sizeof buf) == -1,
	    "str_copy refuses an embedded NUL");
	ok(v && json_str_eq(&d, v, "a\0b", 3), "str_eq sees the NUL");
	v = json_get(&d, &d.nodes[0], "n", 1);
	ok(v && v->type == JSON_ARRAY && v->count == 2 &&
	    d.nodes[v->end].type == JSON_STRING,
	    "an array's end is its next sibling (the key z)");
	ok(json_get(&d, &d.nodes[0], "nam", 3) == NULL,
	    "no prefix matches");
	ok(json_get(&d, v, "x", 1) == NULL, "json_get on an array: NULL");
	ok_names_distinct(json_status_name, JSON_STATUS_MAX_,
	    "status names are distinct");
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
