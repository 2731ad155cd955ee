/* guard_walk.c - the walk's refusals, pin findings and script paths,
 * shared by every launcher grammar of the guard. */
#include "common/policy/guard_walk.h"

#include <stdio.h>

#include "common/policy/guard_lex.h"

/* Record a refusal that names no argument text. */
enum guard_verdict
walk_deny_plain(struct guard_walk *c, enum guard_verdict v, size_t idx,
    const char *why)
{
	c->res->verdict = v;
	c->res->index = idx;
	snprintf(c->res->reason, sizeof c->res->reason, "%s", why);
	return v;
}

/* Record a refusal of argv[idx]; the reason quotes it, escaped and cut. */
enum guard_verdict
walk_deny(struct guard_walk *c, enum guard_verdict v, size_t idx,
    const char *who, const char *why)
{
	char q[GUARD_QUOTE_MAX * 4 + 4];
	const char *arg = idx < c->argc ? c->argv[idx] : "";

	c->res->verdict = v;
	c->res->index = idx;
	snprintf(c->res->reason, sizeof c->res->reason, "%s: %s: '%s'", who,
	    why, guard_quote(q, sizeof q, arg, GUARD_QUOTE_MAX));
	return v;
}

void
walk_pin(struct guard_walk *c, enum guard_verdict v, size_t idx,
    const char *who, const char *why)
{
	if (c->pin != GUARD_OK)
		return;
	c->pin = v;
	c->pin_index = idx;
	c->pin_who = who;
	c->pin_why = why;
}

/* argv[idx] names a program file (a script, a preloaded module): it must
 * be canonical and below one of the operator's script dirs. Library and
 * system files (the standard library's timeit.py, npm's npx-cli.js) are
 * never there, so a script cannot be a code runner in disguise. */
enum guard_verdict
walk_script(struct guard_walk *c, size_t idx, const char *p, const char *who)
{
	const char *why;
	size_t k;

	if (p[0] == '\0' || lex_eq(p, "-"))
		return walk_deny(c, GUARD_STDIN_PROGRAM, idx, who,
		    "reads the program from stdin");
	if (lex_scheme_len(p))
		return walk_deny(c, GUARD_BAD_VALUE, idx, who,
		    "a URL, not a file");
	if ((why = lex_canonical_refusal(p)))
		return walk_deny(c, GUARD_BAD_VALUE, idx, who, why);
	for (k = 0; k < c->policy->nscript_dirs; k++)
		if (lex_path_within(p, c->policy->script_dirs[k]) &&
		    !lex_eq(p, c->policy->script_dirs[k]))
			break;
	if (k == c->policy->nscript_dirs)
		return walk_deny(c, GUARD_BAD_VALUE, idx, who,
		    "a script outside every --script-dir (none is allowed "
		    "by default)");
	if (c->res->nscripts == GUARD_SCRIPTS_MAX)
		return walk_deny(c, GUARD_BAD_ARGV, idx, who,
		    "too many scripts");
	c->res->scripts[c->res->nscripts].index = idx;
	c->res->scripts[c->res->nscripts++].offset =
	    (size_t)(p - c->argv[idx]);
	return GUARD_OK;
}

enum guard_verdict
walk_value(struct guard_walk *c, size_t *jp, const char *eq, const char *who,
    const char **v)
{
	if (eq) {
		*v = eq + 1;
		return GUARD_OK;
	}
	if (*jp + 1 >= c->argc)
		return walk_deny(c, GUARD_BAD_VALUE, *jp, who,
		    "option needs a value");
	*v = c->argv[++*jp];
	return GUARD_OK;
}

/* The operator allowed exactly this registry or index URL. */
int
walk_index_allowed(const struct guard_walk *c, const char *v)
{
	size_t k;

	for (k = 0; k < c->policy->nindexes; k++)
		if (lex_eq(v, c->policy->indexes[k]))
			return 1;
	return 0;
}

