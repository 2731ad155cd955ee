/* guard_npx.c - npx's grammar. Read for it: npm bin/npx-cli.js (dashes
 * stripped before matching a key, -p and --package always take the next
 * word, the first positional ends npx's options, with --package the
 * command word goes into a shell string); npm libnpmexec (without
 * --package and without a version, a file of the spec's name in npm's
 * global bin directory runs first) and @npmcli/run-script (the command is
 * looked up on a PATH of the install's .bin, every parent's
 * node_modules/.bin, then the caller's PATH). */
#include "common/policy/guard_npx.h"

#include <string.h>

#include "common/policy/guard_command.h"
#include "common/policy/guard_lex.h"
#include "common/policy/guard_npmspec.h"

/* If a is one of npx's dangerous options, set *verdict and *why. The key
 * is derived the way npx-cli.js does (all leading dashes stripped, cut at
 * '='); npm expands bundled single letters, so -yc counts as -c. */
static int
npx_dangerous(const char *a, enum guard_verdict *verdict, const char **why)
{
	static const struct {
		const char *key;
		enum guard_verdict verdict;
		const char *why;
	} keys[] = {
		{ "c", GUARD_INLINE_CODE, "runs a shell command string" },
		{ "call", GUARD_INLINE_CODE, "runs a shell command string" },
		{ "shell", GUARD_FORBIDDEN_OPTION, "chooses the shell" },
		{ "script-shell", GUARD_FORBIDDEN_OPTION, "chooses the shell" },
		{ "node-options", GUARD_FORBIDDEN_OPTION, "sets NODE_OPTIONS" },
		{ "node-arg", GUARD_FORBIDDEN_OPTION,
		    "removed option that passed flags to node" },
		{ "n", GUARD_FORBIDDEN_OPTION,
		    "removed option that passed flags to node" },
		{ "userconfig", GUARD_FORBIDDEN_OPTION, "reads another npmrc" },
		{ "globalconfig", GUARD_FORBIDDEN_OPTION,
		    "reads another npmrc" },
		{ "prefix", GUARD_FORBIDDEN_OPTION, "moves npm's prefix" },
		{ "C", GUARD_FORBIDDEN_OPTION, "moves npm's prefix" },
		{ "registry", GUARD_FORBIDDEN_OPTION,
		    "fetches packages from another registry" },
		{ "cache", GUARD_FORBIDDEN_OPTION, "moves the package cache" },
	};
	const char *key = a + strspn(a, "-");
	size_t n = strcspn(key, "="), k;

	for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
		if (strlen(keys[k].key) == n &&
		    memcmp(key, keys[k].key, n) == 0) {
			*verdict = keys[k].verdict;
			*why = keys[k].why;
			return 1;
		}
	if (a[1] != '-' && n > 1 && strspn(key, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ") >= n && memchr(key, 'c', n)) {
		*verdict = GUARD_INLINE_CODE;
		*why = "bundled -c runs a shell command string";
		return 1;
	}
	return 0;
}

/* An npx option that is not on the short list. */
static enum guard_verdict
npx_refuse_option(struct guard_walk *c, size_t j)
{
	enum guard_verdict v;
	const char *why;

	if (npx_dangerous(c->argv[j], &v, &why))
		return walk_deny(c, v, j, "npx", why);
	return walk_deny(c, GUARD_UNKNOWN_OPTION, j, "npx",
	    "option not allowed");
}

/* Without "--", the options right after the package are the package's
 * only because npx-cli knows -y/-q take no value; were a future npx to
 * misjudge that, it would parse them as its own. Refuse the dangerous
 * ones there too (a package that really has a -c flag is written
 * npx -y -- pkg -c file). */
static enum guard_verdict
npx_check_tail(struct guard_walk *c, size_t j)
{
	enum guard_verdict v;
	const char *why;

	for (j++; j < c->argc && c->argv[j][0] == '-' &&
	    !lex_eq(c->argv[j], "--"); j++)
		if (npx_dangerous(c->argv[j], &v, &why))
			return walk_deny(c, v, j, "npx", "after the package, "
			    "npx could read this as its own option; put -- "
			    "first");
	return GUARD_OK;
}

static enum guard_verdict
npx_package(struct guard_walk *c, size_t idx, const char *v)
{
	size_t n;
	const char *ver, *why;

	if ((why = npmspec_refusal(v, &n, &ver)))
		return walk_deny(c, GUARD_BAD_VALUE, idx, "npx", why);
	if (!ver || !npmspec_exact(ver))
		walk_pin(c, GUARD_UNPINNED, idx, "npx",
		    "package not pinned to an exact version");
	return GUARD_OK;
}

enum guard_verdict
npx_check(struct guard_walk *c, size_t i)
{
	size_t j, npkg = 0, n;
	const char *cmd, *ver = NULL;
	enum guard_verdict r;
	int dashdash = 0;

	for (j = i + 1; j < c->argc; j++) {
		const char *a = c->argv[j], *v;
		size_t vidx = j;

		if (lex_eq(a, "--")) {
			dashdash = 1;
			j++;
			break;
		}
		if (a[0] != '-')
			break;
		if (lex_eq(a, "-y") || lex_eq(a, "--yes") || lex_eq(a, "-q") ||
		    lex_eq(a, "--quiet"))
			continue;
		if (lex_eq(a, "-p") || lex_eq(a, "--package")) {
			/* npx-cli always takes the next word here */
			if (j + 1 >= c->argc)
				return walk_deny(c, GUARD_BAD_VALUE, j, "npx",
				    "--package needs a value");
			v = c->argv[++j];
			vidx = j;
		} else if (lex_prefix(a, "--package=")) {
			v = a + 10;
		} else if (lex_prefix(a, "-p=")) {
			v = a + 3;
		} else if (lex_eq(a, "--registry") ||
		    lex_prefix(a, "--registry=")) {
			v = a[10] == '=' ? a + 11 : NULL;
			if (!v && j + 1 < c->argc)
				v = c->argv[++j];
			if (!v || !walk_index_allowed(c, v))
				return walk_deny(c, GUARD_FORBIDDEN_OPTION, j,
				    "npx", "a registry not named by "
				    "--allow-index");
			continue;
		} else {
			return npx_refuse_option(c, j);
		}
		if ((r = npx_package(c, vidx, v)) != GUARD_OK)
			return r;
		npkg++;
	}
	if (j >= c->argc)
		return walk_deny(c, GUARD_STDIN_PROGRAM, i, "npx",
		    "no command: npx would start an interactive shell");
	cmd = c->argv[j];
	if (npkg == 0) {
		/* the word is a package spec; npx runs its bin. Without a
		 * version npx first looks for a file of that name in npm's
		 * global bin directory (/usr/bin) and runs that instead. */
		if ((r = npx_package(c, j, cmd)) != GUARD_OK)
			return r;
		npmspec_refusal(cmd, &n, &ver);
		/* a scoped package's bin is named without its scope:
		 * @x/node runs a "node" as node@20 does */
		if (cmd[0] == '@') {
			size_t scope = (size_t)(strchr(cmd, '/') - cmd) + 1;

			if ((r = command_check_named(c, j, cmd + scope,
			    n - scope, "npx")) != GUARD_OK)
				return r;
		}
	} else {
		/* the word is a command, pasted into sh -c and looked up
		 * on PATH: a bin name, which the runner can find only
		 * among the packages' bins (guard_result.path_lookup) */
		if (!lex_bin_name(cmd))
			return walk_deny(c, GUARD_BAD_VALUE, j, "npx",
			    "not a plain command name");
		n = strlen(cmd);
		c->res->path_lookup = 1;
	}
	if ((r = command_check(c, j, n, "npx")) != GUARD_OK)
		return r;
	if (npkg == 0 && !ver)
		return walk_deny(c, GUARD_BAD_VALUE, j, "npx",
		    "give the package a version (name@1.2.3): without one "
		    "npx may run a host program of that name");
	return dashdash ? GUARD_OK : npx_check_tail(c, j);
}
