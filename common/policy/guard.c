/* guard.c - the launcher guard's entry points: the argv's bounds and its
 * launcher word, then the launcher's grammar (guard_command.h routes to
 * guard_node, guard_python, guard_npx, guard_uv); the pinned-version rule
 * on top; the normalised text a reviewer reads. Each launcher's command
 * line is parsed the way the launcher itself parses it, so that the guard
 * and the launcher agree on which word is the program; anything not
 * understood is refused. The grammar is written down in docs/GUARD.md. */
#include "common/policy/guard.h"

#include <stdio.h>
#include <string.h>

#include "common/policy/guard_command.h"
#include "common/policy/guard_lex.h"
#include "common/policy/guard_walk.h"

/* Append n bytes of s at out[*o], keeping a NUL; -1 when it would not
 * fit in cap. */
static int
append(char *out, size_t cap, size_t *o, const char *s, size_t n)
{
	if (cap == 0 || n >= cap - *o)
		return -1;
	memcpy(out + *o, s, n);
	*o += n;
	out[*o] = '\0';
	return 0;
}

/* The whole walk, shared by both checks; c->pin holds the pin finding. */
static enum guard_verdict
walk_argv(struct guard_walk *c, struct guard_policy *def,
    const struct guard_policy *policy, const char *const *argv, size_t argc,
    struct guard_result *res)
{
	const char *a0;
	unsigned bit;
	size_t k;

	memset(c, 0, sizeof *c);
	memset(res, 0, sizeof *res);
	if (!policy) {
		guard_policy_default(def);
		policy = def;
	}
	c->policy = policy;
	c->argv = argv;
	c->argc = argc;
	c->res = res;
	c->pin = GUARD_OK;
	res->verdict = GUARD_OK;
	snprintf(res->reason, sizeof res->reason, "ok");
	if (!argv || argc == 0)
		return walk_deny_plain(c, GUARD_BAD_ARGV, 0,
		    "empty command line");
	if (argc > GUARD_ARGC_MAX)
		return walk_deny_plain(c, GUARD_BAD_ARGV, GUARD_ARGC_MAX,
		    "more than 256 arguments");
	for (k = 0; k < argc; k++) {
		if (!argv[k])
			return walk_deny_plain(c, GUARD_BAD_ARGV, k,
			    "missing argument");
		if (strnlen(argv[k], GUARD_ARG_MAX + 1) > GUARD_ARG_MAX)
			return walk_deny_plain(c, GUARD_BAD_ARGV, k,
			    "argument longer than 4096 bytes");
	}
	a0 = argv[0];
	if (a0[0] == '\0')
		return walk_deny_plain(c, GUARD_BAD_LAUNCHER, 0,
		    "empty launcher");
	if (strchr(a0, '/'))
		return walk_deny(c, GUARD_BAD_LAUNCHER, 0, "launcher",
		    "give a bare name: the runner resolves it on its own PATH");
	if (!(bit = guard_policy_launcher(a0)))
		return walk_deny(c, GUARD_BAD_LAUNCHER, 0, "launcher",
		    "not a launcher the guard understands");
	if (!(policy->launchers & bit))
		return walk_deny(c, GUARD_BAD_LAUNCHER, 0, "launcher",
		    "not on this runner's allowlist");
	return command_launch(c, 0, command_kind(a0, strlen(a0)));
}

enum guard_verdict
guard_check(const struct guard_policy *policy, const char *const *argv,
    size_t argc, struct guard_result *res)
{
	struct guard_policy def;
	struct guard_walk c;

	return walk_argv(&c, &def, policy, argv, argc, res);
}

enum guard_verdict
guard_check_pinned(const struct guard_policy *policy,
    const char *const *argv, size_t argc, struct guard_result *res)
{
	struct guard_policy def;
	struct guard_walk c;
	enum guard_verdict v = walk_argv(&c, &def, policy, argv, argc, res);

	if (v != GUARD_OK || c.pin == GUARD_OK)
		return v;
	return walk_deny(&c, c.pin, c.pin_index, c.pin_who, c.pin_why);
}

/* Append one shell word for w to out[*o..cap); 0, or -1 when full. */
static int
put_word(char *out, size_t cap, size_t *o, const char *w)
{
	static const char hex[] = "0123456789abcdef";
	int plain = *w != '\0', ascii = 1;
	const char *s;
	char buf[8];

	for (s = w; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		ascii &= ch >= 0x20 && ch < 0x7f;
		plain &= lex_alnum(ch) || (ch != '\0' &&
		    strchr("_@%+=:,./-", ch) != NULL);
	}
	if (plain)
		return append(out, cap, o, w, strlen(w));
	if (append(out, cap, o, ascii ? "'" : "$'", ascii ? 1 : 2) != 0)
		return -1;
	for (s = w; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		size_t n = 1;

		buf[0] = (char)ch;
		if (ascii && ch == '\'') {
			memcpy(buf, "'\\''", 4);
			n = 4;
		} else if (!ascii && (ch < 0x20 || ch >= 0x7f || ch == '\'' ||
		    ch == '\\')) {
			buf[0] = '\\';
			buf[1] = 'x';
			buf[2] = hex[ch >> 4];
			buf[3] = hex[ch & 15];
			n = 4;
		}
		if (append(out, cap, o, buf, n) != 0)
			return -1;
	}
	return append(out, cap, o, "'", 1);
}

enum guard_verdict
guard_normalised(const struct guard_policy *policy, const char *const *argv,
    size_t argc, char *out, size_t cap, struct guard_result *res)
{
	enum guard_verdict v = guard_check(policy, argv, argc, res);
	size_t o = 0, k;

	if (cap > 0)
		out[0] = '\0';
	if (v != GUARD_OK)
		return v;
	for (k = 0; k < argc; k++)
		if ((k && append(out, cap, &o, " ", 1) != 0) ||
		    put_word(out, cap, &o, argv[k]) != 0) {
			if (cap > 0)
				out[0] = '\0';
			res->verdict = GUARD_BAD_ARGV;
			res->index = k;
			snprintf(res->reason, sizeof res->reason,
			    "command too long to show");
			return GUARD_BAD_ARGV;
		}
	return GUARD_OK;
}
