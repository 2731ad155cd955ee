/* lockprefetch_test.c - the --prefetch file's reader: tokens one a line,
 * comments and empty lines said nothing, every other line refused with
 * its number and passed over; the last line with or without its
 * newline; a token's bytes and its one '.' and its length bound. */
#include <stdio.h>
#include <string.h>

#include "common/lock/lockprefetch.h"
#include "common/policy/approval.h"
#include "tap.h"

/* The reader's results over s, as text: "T<line>:<token>" for a token,
 * "X<line>" for a refused line, joined by spaces. */
static const char *
walk(const char *s, size_t len)
{
	static char out[1024];
	size_t off = 0, line = 0, at = 0, tl;
	const char *tok;
	int rc;

	out[0] = '\0';
	while ((rc = lockprefetch_next((const uint8_t *)s, len, &off, &tok,
	    &tl, &line)) != 0 && at < sizeof out - 64) {
		if (off > len)
			return "off past the end";
		at += (size_t)(rc > 0 ? snprintf(out + at, sizeof out - at,
		    "%sT%zu:%.*s", at ? " " : "", line, (int)tl, tok) :
		    snprintf(out + at, sizeof out - at, "%sX%zu",
		    at ? " " : "", line));
	}
	return out;
}

static void
shapes(void)
{
	static const struct {
		const char *in, *want;
	} t[] = {
		{ "", "" },
		{ "\n\n", "" },
		{ "# a comment\n", "" },
		{ "aB9-_.Zz\n", "T1:aB9-_.Zz" },
		{ "a.b", "T1:a.b" },			/* no final newline */
		{ "#x\n\na.b\nc.d\n", "T3:a.b T4:c.d" },
		{ "a.b\nnot a token\nc.d\n", "T1:a.b X2 T3:c.d" },
		{ "ab\n", "X1" },			/* no '.' */
		{ "a.b.c\n", "X1" },			/* two */
		{ "a.b \n", "X1" },			/* a space */
		{ " a.b\n", "X1" },
		{ "a.b\r\n", "X1" },			/* CRLF */
		{ "\ta.b\n", "X1" },
		{ " # indented comment\n", "X1" },
		{ "a=.b\n", "X1" },			/* padding */
		{ "a.b\n#\n.\n", "T1:a.b T3:." },	/* shape only */
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		const char *got = walk(t[i].in, strlen(t[i].in));

		ok(strcmp(got, t[i].want) == 0, "case %zu: '%s' (want '%s')",
		    i, got, t[i].want);
	}
}

static void
bounds(void)
{
	static char big[APPROVAL_TOKEN_MAX + 3];
	char nul[] = "a.b\0c.d\n";

	memset(big, 'a', sizeof big);
	big[10] = '.';
	ok(strcmp(walk(big, APPROVAL_TOKEN_MAX), "") != 0 &&
	    walk(big, APPROVAL_TOKEN_MAX)[0] == 'T',
	    "a token of APPROVAL_TOKEN_MAX bytes is read");
	ok(strcmp(walk(big, APPROVAL_TOKEN_MAX + 1), "X1") == 0,
	    "one byte more is refused");
	ok(strcmp(walk(nul, sizeof nul - 1), "X1") == 0,
	    "a NUL inside a line is refused, not a line end");
}

int
main(void)
{
	shapes();
	bounds();
	return tap_done();
}
