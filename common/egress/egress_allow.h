/* egress_allow.h - the host:port pairs one lease may reach through the
 * egress proxy: a comma-separated list, each entry in the authority
 * grammar of common/egress/connect_req.h (exact names, lower-cased; dotted-quad
 * or bracketed IPv6 literals; an explicit port). No wildcards, no port
 * ranges, no spaces, no empty entries. A request matches a rule when
 * kind, host bytes and port are all equal: "Example.com:443" and
 * "example.com:443" are one rule; "example.com:443" does not allow
 * "www.example.com:443" or "example.com:80", and "[::ffff:1.2.3.4]:443"
 * is not "1.2.3.4:443". The list is the union of the operator's base
 * list and an approval's own entries (egress_allow_add twice). */
#ifndef AIRLOCK_EGRESS_ALLOW_H
#define AIRLOCK_EGRESS_ALLOW_H

#include <stddef.h>

#include "common/egress/connect_req.h"

#define EGRESS_ALLOW_MAX 64		/* rules in one list */
#define EGRESS_ALLOW_TEXT_MAX 4096	/* bytes of one list's text */

struct egress_allow {
	struct connect_target rule[EGRESS_ALLOW_MAX];
	size_t n;
};

/* Add the rules of text (len bytes, not NUL-terminated; an empty text
 * adds nothing) to a, dropping exact duplicates. 0, or -1 with a reason
 * in err (the offending entry, escaped) and a unchanged. */
int egress_allow_add(struct egress_allow *a, const char *text, size_t len,
    char *err, size_t errlen);

/* 1 when t is allowed, else 0. */
int egress_allow_match(const struct egress_allow *a,
    const struct connect_target *t);

/* The one spelling of a list's text (len bytes): its rules parsed,
 * duplicates dropped, lower-cased, in ascending byte order of their own
 * text, joined by commas; into out (cap bytes, NUL-terminated). The
 * length ("" for an empty list is 0), or -1 with a reason in err. What an
 * approval token carries, so one set has one encoding. */
long egress_allow_canonical(const char *text, size_t len, char *out,
    size_t cap, char *err, size_t errlen);

/* The list as text ("a:443,[::1]:80"; "" when empty) into out (cap
 * bytes, NUL-terminated): the length, or -1 when it does not fit. */
long egress_allow_text(const struct egress_allow *a, char *out, size_t cap);

/* The same in the one spelling egress_allow_canonical gives: rules in
 * ascending byte order of their text. The length, or -1. */
long egress_allow_sorted_text(const struct egress_allow *a, char *out,
    size_t cap);

/* One rule's text, "host:port" or "[ipv6]:port", NUL-terminated: the
 * spelling every list above is made of. Its length. */
#define EGRESS_RULE_TEXT_MAX (CONNECT_HOST_MAX + 9)	/* "[" host "]:" port NUL */
size_t egress_rule_text(const struct connect_target *t,
    char out[EGRESS_RULE_TEXT_MAX]);

#endif
