/* approval_diff.c - the difference a mismatch refusal names. The values
 * shown are the token's (readable to whoever holds it: the payload is
 * not encrypted) and the request's (sent by the requester), escaped byte
 * by byte so a look-alike or invisible character shows; a word that looks
 * like a credential is named by its index only, since refusals reach the
 * runner's log. */
#include "common/policy/approval_diff.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/policy/guard.h"

/* Names of options and NAME=VALUE words whose value is a credential,
 * compared ignoring case anywhere in the name. */
static const char *const secret_names[] = {
	"auth", "bearer", "cookie", "credential", "key", "passw", "pwd",
	"private", "secret", "session", "signature", "token",
};

/* Prefixes of well-known token formats (GitHub, GitLab, OpenAI and
 * Stripe, Slack, AWS, npm, Hugging Face, a JWT's header). */
static const char *const secret_prefixes[] = {
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-",
	"sk_live_", "rk_live_", "xoxa-", "xoxb-", "xoxp-", "xoxs-", "AKIA",
	"ASIA", "npm_", "hf_", "eyJ",
};

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* 1 if p[0..n) holds word (lower case) ignoring ASCII case. */
static int
holds(const char *p, size_t n, const char *word)
{
	size_t m = strlen(word), i, k;

	for (i = 0; i + m <= n; i++) {
		for (k = 0; k < m && lower((unsigned char)p[i + k]) == word[k];
		    k++)
			;
		if (k == m)
			return 1;
	}
	return 0;
}

static int
secret_name(const char *p, size_t n)
{
	size_t k;

	for (k = 0; k < sizeof secret_names / sizeof secret_names[0]; k++)
		if (holds(p, n, secret_names[k]))
			return 1;
	return 0;
}

int
approval_word_secret(const char *w, size_t n, const char *prev,
    size_t prev_n)
{
	const char *eq = memchr(w, '=', n);
	const char *v = eq ? eq + 1 : w;
	size_t vn = n - (size_t)(v - w), k, m;

	if (eq && secret_name(w, (size_t)(eq - w)))
		return 1;
	/* the value of an option named before it: --token VALUE */
	if (prev && prev_n > 1 && prev[0] == '-' &&
	    !memchr(prev, '=', prev_n) && (n == 0 || w[0] != '-') &&
	    secret_name(prev, prev_n))
		return 1;
	for (k = 0; k < sizeof secret_prefixes / sizeof secret_prefixes[0];
	    k++) {
		m = strlen(secret_prefixes[k]);
		if (vn >= m && memcmp(v, secret_prefixes[k], m) == 0)
			return 1;
	}
	return 0;
}

/* Append to out at *o, keeping a NUL; what does not fit ends "...". */
__attribute__((format(printf, 4, 5))) static void
put(char *out, size_t cap, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*o >= cap)
		return;
	va_start(ap, fmt);
	k = vsnprintf(out + *o, cap - *o, fmt, ap);
	va_end(ap);
	if (k >= 0 && (size_t)k < cap - *o) {
		*o += (size_t)k;
		return;
	}
	if (cap >= 4)
		memcpy(out + cap - 4, "...", 4);
	*o = cap;
}

/* p[0..n) (no NUL inside) quoted into q: escaped, at most
 * GUARD_QUOTE_MAX bytes of it, "..." when cut. */
static char *
quote(char *q, size_t cap, const char *p, size_t n)
{
	char tmp[GUARD_QUOTE_MAX + 2];
	size_t k = n < GUARD_QUOTE_MAX + 1 ? n : GUARD_QUOTE_MAX + 1;

	memcpy(tmp, p, k);
	tmp[k] = '\0';
	return guard_quote(q, cap, tmp, GUARD_QUOTE_MAX);
}

static int
same(const struct approval_str *s, const char *c)
{
	return strlen(c) == s->n && memcmp(s->p, c, s->n) == 0;
}

/* "FIELD: the token's 'A', the request's 'B'" */
static void
field_diff(char *out, size_t cap, size_t *o, const char *field,
    const char *tp, size_t tn, const char *rp, size_t rn)
{
	char qt[GUARD_QUOTE_MAX * 4 + 4], qr[GUARD_QUOTE_MAX * 4 + 4];

	put(out, cap, o, "%s: the token's '%s', the request's '%s'", field,
	    quote(qt, sizeof qt, tp, tn), quote(qr, sizeof qr, rp, rn));
}

static void
argv_diff(const struct approval *a, const struct approval_request *req,
    char *out, size_t cap, size_t *o)
{
	size_t n = a->argc < req->argc ? a->argc : req->argc, i;
	const char *tp = NULL, *rp = NULL;
	size_t tn = 0, rn = 0;
	char field[32];

	for (i = 0; i < n && same(&a->argv[i], req->argv[i]); i++)
		;
	if (a->argc != req->argc)
		put(out, cap, o, "argv: the token has %zu words, the request "
		    "%zu; ", a->argc, req->argc);
	if (i < a->argc) {
		tp = (const char *)a->argv[i].p;
		tn = a->argv[i].n;
	}
	if (i < req->argc) {
		rp = req->argv[i];
		rn = strlen(rp);
	}
	if ((tp && approval_word_secret(tp, tn, i ? (const char *)
	    a->argv[i - 1].p : NULL, i ? a->argv[i - 1].n : 0)) ||
	    (rp && approval_word_secret(rp, rn, i ? req->argv[i - 1] : NULL,
	    i ? strlen(req->argv[i - 1]) : 0))) {
		put(out, cap, o, "argv[%zu] differs (not shown: it looks like "
		    "a credential)", i);
		return;
	}
	snprintf(field, sizeof field, "argv[%zu]", i);
	if (!tp)
		put(out, cap, o, "%s: the token has none", field);
	else if (!rp)
		put(out, cap, o, "%s: the request has none", field);
	else
		field_diff(out, cap, o, field, tp, tn, rp, rn);
}

void
approval_diff(const struct approval *a, const struct approval_request *req,
    enum approval_result r, char *out, size_t cap)
{
	size_t o = 0;

	if (cap == 0)
		return;
	out[0] = '\0';
	switch (r) {
	case APPROVAL_TENANT_MISMATCH:
		field_diff(out, cap, &o, "tenant", (const char *)a->tenant.p,
		    a->tenant.n, req->tenant, strlen(req->tenant));
		break;
	case APPROVAL_REGISTRATION_MISMATCH:
		field_diff(out, cap, &o, "registration",
		    (const char *)a->registration.p, a->registration.n,
		    req->registration, strlen(req->registration));
		break;
	case APPROVAL_ARGV_MISMATCH:
		argv_diff(a, req, out, cap, &o);
		break;
	case APPROVAL_ENV_MISMATCH:
		put(out, cap, &o, "env keys ");
		if (o < cap)
			approval_env_diff(a, req, out + o, cap - o);
		break;
	default:
		break;
	}
}
