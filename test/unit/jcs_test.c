/* jcs_test.c - RFC 8785 canonical JSON: the RFC's number vectors (and
 * ECMAScript's own answers for the neighbours, taken from node), key
 * order by UTF-16 code units, string escapes, and refusals. */
#include <string.h>

#include "common/mcp/jcs.h"
#include "tap.h"

static const struct json_limits lim = { 32, 4096, 64, 256, 4096 };
static struct json_node nodes[4096];
static uint32_t scratch[4096];

static const struct {
	const char *in, *want;
} numbers[] = {
	{ "0", "0" },
	{ "-0", "0" },
	{ "7", "7" },
	{ "-42", "-42" },
	{ "999999999999999", "999999999999999" },
	{ "-999999999999999", "-999999999999999" },
	{ "1000000000000000", "1000000000000000" },
	{ "12345678901234567890", "12345678901234567000" },
	{ "-0.0e5", "0" },
	{ "4.9406564584124654e-324", "5e-324" },
	{ "-4.9406564584124654e-324", "-5e-324" },
	{ "1.7976931348623157e+308", "1.7976931348623157e+308" },
	{ "-1.7976931348623157e308", "-1.7976931348623157e+308" },
	{ "9007199254740992", "9007199254740992" },
	{ "-9007199254740992.0", "-9007199254740992" },
	{ "2.9514790517935283e+20", "295147905179352830000" },
	{ "9.9999999999999975e+22", "9.999999999999997e+22" },
	{ "9.9999999999999992e+22", "1e+23" },
	{ "1.0000000000000001e+23", "1.0000000000000001e+23" },
	{ "9.9999999999999974e+20", "999999999999999700000" },
	{ "9.9999999999999987e+20", "999999999999999900000" },
	{ "1e21", "1e+21" },
	{ "1e20", "100000000000000000000" },
	{ "9.9999999999999974e-7", "9.999999999999997e-7" },
	{ "9.9999999999999995e-7", "0.000001" },
	{ "0.0000001", "1e-7" },
	{ "333333333.33333319", "333333333.3333332" },
	{ "333333333.33333325", "333333333.33333325" },
	{ "333333333.33333329", "333333333.3333333" },
	{ "333333333.33333343", "333333333.33333343" },
	{ "-0.0000033333333333333333", "-0.0000033333333333333333" },
	{ "1424953923781206.25", "1424953923781206.2" },
	{ "1E30", "1e+30" },
	{ "4.50", "4.5" },
	{ "2e-3", "0.002" },
	{ "0.000000000000000000000000001", "1e-27" },
	{ "123456789012345678901", "123456789012345680000" },
	{ "-12.5e-3", "-0.0125" },
	{ "0.1", "0.1" },
};

static const struct {
	const char *in, *want, *why;
} docs[] = {
	{ " { \"b\" : 1 , \"a\" : [ true , false , null ] } ",
	  "{\"a\":[true,false,null],\"b\":1}", "whitespace gone, keys sorted" },
	/* RFC 8785 3.2.3: UTF-16 order puts U+1F600 (D83D DE00) before
	 * U+FB33 although its UTF-8 sorts after */
	{ "{\"\\ufb33\":1,\"\\ud83d\\ude00\":2,\"\\u00e9\":3,\"a\":4,"
	  "\"\\r\":5,\"1\":6}",
	  "{\"\\r\":5,\"1\":6,\"a\":4,\"\xc3\xa9\":3,\"\xf0\x9f\x98\x80\":2,"
	  "\"\xef\xac\xb3\":1}", "keys by UTF-16 code units" },
	{ "\"\\u0041\\/\\b\\f\\n\\r\\t\\u001f\\u007f\\u2028\\\"\\\\\"",
	  "\"A/\\b\\f\\n\\r\\t\\u001f\x7f\xe2\x80\xa8\\\"\\\\\"",
	  "string escapes as JSON.stringify writes them" },
	{ "{\"a\":{\"z\":1,\"y\":{\"c\":2,\"b\":3}},\"\":[{\"k\":1,\"j\":2}]}",
	  "{\"\":[{\"j\":2,\"k\":1}],\"a\":{\"y\":{\"b\":3,\"c\":2},\"z\":1}}",
	  "nested objects sorted, each on its own" },
	{ "[1.0,-0,1e2,\"x\"]", "[1,0,100,\"x\"]", "numbers inside arrays" },
};

static int
canon(const char *in, uint8_t *out, size_t cap, size_t *len)
{
	struct json_doc d;
	struct jcs_buf b = { out, cap, 0 };
	struct jcs_sink s = { jcs_buf_put, &b };

	if (json_parse(&d, (const uint8_t *)in, strlen(in), &lim, nodes,
	    4096, scratch) != JSON_OK)
		return -2;
	if (jcs_write(&d, &d.nodes[0], &s, scratch) != 0)
		return -1;
	*len = b.len;
	return 0;
}

int
main(void)
{
	uint8_t out[1024], d1[32], d2[32];
	size_t len = 0;
	struct json_doc d;
	char num[JCS_NUMBER_MAX];

	for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++) {
		int n = jcs_number((const uint8_t *)numbers[i].in,
		    strlen(numbers[i].in), num);

		ok(n == (int)strlen(numbers[i].want) &&
		    memcmp(num, numbers[i].want, (size_t)n) == 0,
		    "number %s -> %s (got %.*s)", numbers[i].in,
		    numbers[i].want, n < 0 ? 0 : n, num);
	}
	ok(jcs_number((const uint8_t *)"1e400", 5, num) == -1,
	    "1e400 is not a finite double: no canonical form");
	ok(jcs_number((const uint8_t *)"-1e400", 6, num) == -1,
	    "-1e400 neither");
	ok(jcs_number((const uint8_t *)"1x", 2, num) == -1, "not a number");
	for (size_t i = 0; i < sizeof docs / sizeof *docs; i++)
		ok(canon(docs[i].in, out, sizeof out, &len) == 0 &&
		    len == strlen(docs[i].want) &&
		    memcmp(out, docs[i].want, len) == 0, "%s", docs[i].why);
	ok(canon("[1e999]", out, sizeof out, &len) == -1,
	    "a document with an infinite number is refused");
	ok(canon("[\"abcdef\"]", out, 5, &len) == -1,
	    "a full sink stops the write");
	ok(json_parse(&d, (const uint8_t *)"{\"b\":1,\"a\":2}", 13, &lim,
	    nodes, 4096, scratch) == JSON_OK &&
	    jcs_sha256(&d, &d.nodes[0], scratch, d1) == 0 &&
	    json_parse(&d, (const uint8_t *)"{ \"a\":2.0, \"\\u0062\":1e0 }",
	    25, &lim, nodes, 4096, scratch) == JSON_OK &&
	    jcs_sha256(&d, &d.nodes[0], scratch, d2) == 0 &&
	    memcmp(d1, d2, 32) == 0,
	    "two spellings of one value have one digest");
	/* printf '{"a":2,"b":1}' | sha256sum */
	ok(tap_unhex(out, 32, "d3626ac30a87e6f7a6428233b3c68299976865fa5508"
	    "e4267c5415c76af7a772") == 0 && memcmp(out, d1, 32) == 0,
	    "the digest is SHA-256 of the canonical bytes");
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
