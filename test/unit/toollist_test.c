/* toollist_test.c - an approval's tool list: the canonical form (sorted,
 * no repeats), every refusal, and lookup by whole name only. */
#include <string.h>

#include "common/mcp/toollist.h"
#include "tap.h"

static const struct {
	const char *in, *want;	/* want NULL: refused */
} cases[] = {
	{ "echo", "echo" },
	{ "get-sum,echo,echo", "echo,get-sum" },
	{ "b,a,B,a.b,a/b,_", "B,_,a,a.b,a/b,b" },
	{ "", NULL },
	{ ",", NULL },
	{ "a,", NULL },
	{ "a,,b", NULL },
	{ "a b", NULL },
	{ "a\"b", NULL },
	{ "caf\xc3\xa9", NULL },
	{ "a\tb", NULL },
};

int
main(void)
{
	static char out[TOOLLIST_TEXT_MAX + 1], big[TOOLLIST_TEXT_MAX + 2];
	char err[128];
	const uint8_t *list = (const uint8_t *)"echo,get-sum,x";

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		long n = toollist_canonical(cases[i].in, strlen(cases[i].in),
		    out, sizeof out, err, sizeof err);

		if (cases[i].want)
			ok(n == (long)strlen(cases[i].want) &&
			    strcmp(out, cases[i].want) == 0, "\"%s\" -> %s",
			    cases[i].in, out);
		else
			ok(n < 0 && err[0], "\"%s\" refused: %s", cases[i].in,
			    err);
	}
	memset(big, 'a', TOOLLIST_NAME_MAX);
	ok(toollist_canonical(big, TOOLLIST_NAME_MAX, out, sizeof out, err,
	    sizeof err) == TOOLLIST_NAME_MAX, "a 128-byte name");
	ok(toollist_canonical(big, TOOLLIST_NAME_MAX + 1, out, sizeof out, err,
	    sizeof err) < 0, "a 129-byte name is refused: %s", err);
	memset(big, 'a', sizeof big);
	for (size_t i = 1; i < sizeof big; i += 2)
		big[i] = ',';
	ok(toollist_canonical(big, sizeof big, out, sizeof out, err,
	    sizeof err) < 0, "past %d bytes: refused", TOOLLIST_TEXT_MAX);
	ok(toollist_is_canonical(list, 14), "canonical");
	ok(!toollist_is_canonical((const uint8_t *)"x,echo", 6),
	    "out of order: not canonical");
	ok(!toollist_is_canonical((const uint8_t *)"", 0), "empty: not");
	ok(toollist_has(list, 14, (const uint8_t *)"echo", 4) &&
	    toollist_has(list, 14, (const uint8_t *)"get-sum", 7) &&
	    toollist_has(list, 14, (const uint8_t *)"x", 1), "each name found");
	ok(!toollist_has(list, 14, (const uint8_t *)"ech", 3) &&
	    !toollist_has(list, 14, (const uint8_t *)"echo,get-sum", 12) &&
	    !toollist_has(list, 14, (const uint8_t *)"", 0) &&
	    !toollist_has(list, 14, (const uint8_t *)"get", 3),
	    "a prefix, two names, nothing: not found");
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
