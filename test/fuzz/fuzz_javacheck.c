/* fuzz_javacheck.c - the Java denylist text (javacheck_policy_parse, what
 * javacheck_policy_load runs on a --java-denylist file) under arbitrary
 * bytes. Input: the denylist text up to the first NUL (the parser refuses
 * NUL anyway); the bytes after it, if any, are a class file checked
 * against the parsed rules. Invariants: a refusal frees everything and
 * names a line; an accepted list has one rule per rule line, each within
 * the documented grammar (charset, caps, member rules only with `call`,
 * a reason of printable bytes with no space around it); the rules written
 * back in canonical form parse to the very same rules; and a class check
 * with them gives a status in range and a printable, terminated reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sandbox/javacheck.h"
#include "fuzz.h"

static char canon[JAVACHECK_RULES_MAX * (JAVACHECK_TARGET_MAX +
    JAVACHECK_REASON_MAX + 8)];

static int
target_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '/' ||
	    c == '.';
}

static int
space(char c)
{
	return c == ' ' || c == '\t';
}

/* Rule lines of an accepted text: not blank, not a '#' comment. */
static size_t
rule_lines(const char *t, size_t len)
{
	size_t off = 0, rules = 0;

	while (off < len) {
		const char *nl = memchr(t + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (t + off)) : len - off, i = 0;

		while (i < n && space(t[off + i]))
			i++;
		if (i < n && t[off + i] != '#' && t[off + i] != '\r')
			rules++;
		off += n + 1;
	}
	return rules;
}

static void
check_rule(const struct javacheck_rule *r)
{
	size_t p = strnlen(r->pattern, sizeof r->pattern);
	size_t q = strnlen(r->reason, sizeof r->reason);
	const char *dot;

	FUZZ_ASSERT(p >= 1 && p <= JAVACHECK_TARGET_MAX);
	FUZZ_ASSERT(q >= 1 && q <= JAVACHECK_REASON_MAX);
	FUZZ_ASSERT(r->scope == JAVACHECK_ANY || r->scope == JAVACHECK_CALL);
	FUZZ_ASSERT(r->pattern[0] != '/');
	for (size_t i = 0; i < p; i++)
		FUZZ_ASSERT(target_char(r->pattern[i]) && (i == 0 ||
		    r->pattern[i] != '/' || r->pattern[i - 1] != '/'));
	dot = memchr(r->pattern, '.', p);
	switch (r->target) {
	case JAVACHECK_PACKAGE:
		FUZZ_ASSERT(!dot && r->pattern[p - 1] == '/');
		break;
	case JAVACHECK_CLASS:
		FUZZ_ASSERT(!dot && r->pattern[p - 1] != '/');
		break;
	case JAVACHECK_MEMBER:
		FUZZ_ASSERT(dot && r->scope == JAVACHECK_CALL);
		FUZZ_ASSERT(r->cls_len == (size_t)(dot - r->pattern));
		FUZZ_ASSERT(r->cls_len > 0 && (size_t)r->cls_len + 1 < p);
		FUZZ_ASSERT(r->pattern[r->cls_len - 1] != '/');
		FUZZ_ASSERT(!memchr(dot + 1, '.', p - r->cls_len - 1));
		FUZZ_ASSERT(!memchr(dot + 1, '/', p - r->cls_len - 1));
		break;
	default:
		FUZZ_ASSERT(0);
	}
	FUZZ_ASSERT(!space(r->reason[0]) && !space(r->reason[q - 1]));
	for (size_t i = 0; i < q; i++)
		FUZZ_ASSERT((r->reason[i] >= 0x20 && r->reason[i] < 0x7f) ||
		    r->reason[i] == '\t');
}

/* The rules as "SCOPE TARGET REASON\n" lines, parsed again. */
static void
check_canonical(const struct javacheck_policy *pol)
{
	struct javacheck_policy again;
	char err[256];
	size_t len = 0;

	for (size_t i = 0; i < pol->n; i++) {
		const struct javacheck_rule *r = &pol->rules[i];
		int w = snprintf(canon + len, sizeof canon - len, "%s %s %s\n",
		    r->scope == JAVACHECK_ANY ? "any" : "call", r->pattern,
		    r->reason);

		FUZZ_ASSERT(w > 0 && (size_t)w < sizeof canon - len);
		len += (size_t)w;
	}
	FUZZ_ASSERT(javacheck_policy_parse(&again, canon, len, err,
	    sizeof err) == 0);
	FUZZ_ASSERT(again.n == pol->n && memcmp(again.rules, pol->rules,
	    pol->n * sizeof *pol->rules) == 0);
	javacheck_policy_free(&again);
}

static void
check_class(const struct javacheck_policy *pol, const uint8_t *cls,
    size_t len)
{
	char why[JAVACHECK_WHY_MAX];
	enum javacheck_status st;
	size_t n;

	memset(why, 'x', sizeof why);
	st = javacheck_class(pol, "Fuzz.class", cls, len, why, sizeof why);
	FUZZ_ASSERT(st == JAVACHECK_OK || st == JAVACHECK_DENIED ||
	    st == JAVACHECK_BAD || st == JAVACHECK_ERROR);
	n = strnlen(why, sizeof why);
	FUZZ_ASSERT(n < sizeof why);
	FUZZ_ASSERT((st == JAVACHECK_OK) == (n == 0));
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT(why[i] >= 0x20 && why[i] < 0x7f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int once;
	const char *text = (const char *)data;
	const uint8_t *nul = memchr(data, '\0', size);
	size_t tlen = nul ? (size_t)(nul - data) : size;
	struct javacheck_policy pol;
	char err[256];

	if (!once) {	/* the built-in list is the first input of all */
		FUZZ_ASSERT(javacheck_policy_default(&pol, err,
		    sizeof err) == 0);
		FUZZ_ASSERT(pol.n == rule_lines(javacheck_default_text,
		    strnlen(javacheck_default_text, JAVACHECK_TEXT_MAX)));
		check_canonical(&pol);
		javacheck_policy_free(&pol);
		once = 1;
	}
	memset(err, 'x', sizeof err);
	if (javacheck_policy_parse(&pol, text, tlen, err, sizeof err) != 0) {
		FUZZ_ASSERT(pol.rules == NULL && pol.n == 0);
		FUZZ_ASSERT(strnlen(err, sizeof err) < sizeof err);
		FUZZ_ASSERT(strncmp(err, "line ", 5) == 0 ||
		    strcmp(err, "the denylist has no rules") == 0);
		return 0;
	}
	FUZZ_ASSERT(pol.n >= 1 && pol.n <= JAVACHECK_RULES_MAX);
	FUZZ_ASSERT(pol.n == rule_lines(text, tlen));
	for (size_t i = 0; i < pol.n; i++)
		check_rule(&pol.rules[i]);
	check_canonical(&pol);
	if (nul && size - tlen > 1)
		check_class(&pol, nul + 1, size - tlen - 1);
	javacheck_policy_free(&pol);
	return 0;
}
