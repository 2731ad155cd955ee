/* egress_allow.c - parse, merge and match host:port allow lists. */
#include "common/egress/egress_allow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
same(const struct connect_target *a, const struct connect_target *b)
{
	return a->kind == b->kind && a->port == b->port &&
	    strcmp(a->host, b->host) == 0;
}

/* An escaped, truncated copy of untrusted text for a message. */
static void
quote(char *out, size_t cap, const char *s, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 5 < cap; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
	}
	if (cap)
		out[o < cap ? o : cap - 1] = '\0';
}

int
egress_allow_add(struct egress_allow *a, const char *text, size_t len,
    char *err, size_t errlen)
{
	size_t n = a->n, start = 0;
	struct connect_target t;
	char q[80];

	if (len > EGRESS_ALLOW_TEXT_MAX) {
		snprintf(err, errlen, "egress allow list longer than %d bytes",
		    EGRESS_ALLOW_TEXT_MAX);
		return -1;
	}
	for (size_t i = 0; len > 0 && i <= len; i++) {
		size_t k;

		if (i < len && text[i] != ',')
			continue;
		if (connect_authority_parse(text + start, i - start, &t) != 0) {
			quote(q, sizeof q, text + start, i - start);
			snprintf(err, errlen, "egress rule \"%s\" is not "
			    "host:port (an exact host name, no wildcard; a dotted "
			    "IPv4 or a [IPv6] literal, and a port 1-65535)", q);
			a->n = n;
			return -1;
		}
		start = i + 1;
		for (k = 0; k < a->n && !same(&a->rule[k], &t); k++)
			;
		if (k < a->n)
			continue;
		if (a->n == EGRESS_ALLOW_MAX) {
			snprintf(err, errlen, "more than %d egress rules",
			    EGRESS_ALLOW_MAX);
			a->n = n;
			return -1;
		}
		a->rule[a->n++] = t;
	}
	return 0;
}

int
egress_allow_match(const struct egress_allow *a,
    const struct connect_target *t)
{
	for (size_t i = 0; i < a->n; i++)
		if (same(&a->rule[i], t))
			return 1;
	return 0;
}

#define RULE_TEXT_MAX EGRESS_RULE_TEXT_MAX

size_t
egress_rule_text(const struct connect_target *t, char out[RULE_TEXT_MAX])
{
	int n = snprintf(out, RULE_TEXT_MAX, t->kind == CONNECT_HOST_IPV6 ?
	    "[%s]:%u" : "%s:%u", t->host, (unsigned)t->port);

	return n > 0 ? (size_t)n : 0;	/* host <= 253 bytes: it fits */
}

/* Join n rule texts with commas into out; the length or -1. */
static long
join(char (*texts)[RULE_TEXT_MAX], size_t n, char *out, size_t cap)
{
	size_t o = 0;

	if (cap == 0)
		return -1;
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(out + o, cap - o, "%s%s", i ? "," : "",
		    texts[i]);

		if (w < 0 || (size_t)w >= cap - o)
			return -1;
		o += (size_t)w;
	}
	return (long)o;
}

long
egress_allow_text(const struct egress_allow *a, char *out, size_t cap)
{
	static char texts[EGRESS_ALLOW_MAX][RULE_TEXT_MAX];

	for (size_t i = 0; i < a->n; i++)
		egress_rule_text(&a->rule[i], texts[i]);
	return join(texts, a->n, out, cap);
}

static int
text_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

long
egress_allow_sorted_text(const struct egress_allow *a, char *out, size_t cap)
{
	static char texts[EGRESS_ALLOW_MAX][RULE_TEXT_MAX];

	for (size_t i = 0; i < a->n; i++)
		egress_rule_text(&a->rule[i], texts[i]);
	qsort(texts, a->n, sizeof *texts, text_cmp);
	return join(texts, a->n, out, cap);
}

long
egress_allow_canonical(const char *text, size_t len, char *out, size_t cap,
    char *err, size_t errlen)
{
	static struct egress_allow a;
	long n;

	memset(&a, 0, sizeof a);
	if (egress_allow_add(&a, text, len, err, errlen) != 0)
		return -1;
	if ((n = egress_allow_sorted_text(&a, out, cap)) < 0)
		snprintf(err, errlen, "egress allow list too long");
	return n;
}
