/* guard_tsnode.c - ts-node's grammar. Read for it: ts-node 10.9
 * src/bin.ts (its option table and aliases, camelCase and kebab-case
 * spellings of each) and the `arg` 4.1 parser it uses: "--" ends the
 * options, the first positional is the script and ends them too, a long
 * option's value follows '=' or is the next word unless that starts with
 * '-', a single-dash word of several letters is a bundle of short options
 * whose last may take the next word (-TC x is --transpileOnly
 * --compiler x). ts-node hands no option to node: anything not in its
 * table is refused by ts-node too, and by the guard. */
#include "common/policy/guard_tsnode.h"

#include <string.h>

#include "common/policy/guard_lex.h"

enum ts_kind {
	TB,	/* boolean: no value */
	TV,	/* a value that is data: printable, not "-..." */
	TP,	/* preload: the value is a script path */
	TI,	/* inline code */
	TR,	/* REPL on stdin */
	TF	/* understood and refused: loads a module or a config */
};

static const struct ts_opt {
	const char *name;
	enum ts_kind kind;
	const char *why;
} ts_opts[] = {
	{ "--eval", TI, "evaluates code given on the command line" },
	{ "-e", TI, "evaluates code given on the command line" },
	{ "--print", TI, "prints code evaluated from the command line" },
	{ "-p", TI, "prints code evaluated from the command line" },
	{ "--interactive", TR, "starts a REPL on stdin" },
	{ "-i", TR, "starts a REPL on stdin" },
	{ "--require", TP, NULL },
	{ "-r", TP, NULL },
	{ "--compiler", TF, "ts-node's --compiler loads the module it names" },
	{ "-C", TF, "-C is ts-node's --compiler: it loads the module named" },
	{ "--transpiler", TF, "loads the transpiler module it names" },
	{ "--swc", TF, "loads a transpiler module (@swc/core)" },
	{ "--compilerOptions", TF, "sets compiler options from JSON" },
	{ "--compiler-options", TF, "sets compiler options from JSON" },
	{ "-O", TF, "-O is --compilerOptions: compiler options from JSON" },
	{ "--project", TF,
	    "reads a tsconfig whose ts-node section loads modules" },
	{ "-P", TF, "-P is --project: a tsconfig whose ts-node section loads "
	    "modules" },
	{ "--cwd", TF, "moves where ts-node looks for its tsconfig" },
	{ "--dir", TF, "moves where ts-node looks for its tsconfig" },
	{ "--transpileOnly", TB, NULL },
	{ "--transpile-only", TB, NULL },
	{ "-T", TB, NULL },
	{ "--typeCheck", TB, NULL },
	{ "--type-check", TB, NULL },
	{ "--compilerHost", TB, NULL },
	{ "--compiler-host", TB, NULL },
	{ "-H", TB, NULL },
	{ "--files", TB, NULL },
	{ "--pretty", TB, NULL },
	{ "--skipProject", TB, NULL },
	{ "--skip-project", TB, NULL },
	{ "--skipIgnore", TB, NULL },
	{ "--skip-ignore", TB, NULL },
	{ "--preferTsExts", TB, NULL },
	{ "--prefer-ts-exts", TB, NULL },
	{ "--logError", TB, NULL },
	{ "--log-error", TB, NULL },
	{ "--emit", TB, NULL },
	{ "--scope", TB, NULL },
	{ "--esm", TB, NULL },
	{ "--scriptMode", TB, NULL },
	{ "--script-mode", TB, NULL },
	{ "-s", TB, NULL },
	{ "--cwdMode", TB, NULL },
	{ "--cwd-mode", TB, NULL },
	{ "--ignore", TV, NULL },
	{ "-I", TV, NULL },
	{ "--ignoreDiagnostics", TV, NULL },
	{ "--ignore-diagnostics", TV, NULL },
	{ "-D", TV, NULL },
	{ "--scopeDir", TV, NULL },
	{ "--scope-dir", TV, NULL },
	{ "--experimentalSpecifierResolution", TV, NULL },
	{ "--experimental-specifier-resolution", TV, NULL },
};

static const struct ts_opt *
ts_find(const char *a, size_t n)
{
	size_t k;

	for (k = 0; k < sizeof ts_opts / sizeof ts_opts[0]; k++)
		if (strlen(ts_opts[k].name) == n &&
		    memcmp(ts_opts[k].name, a, n) == 0)
			return &ts_opts[k];
	return NULL;
}

static enum guard_verdict
ts_refuse(struct guard_walk *c, size_t j, const struct ts_opt *o)
{
	if (o->kind == TI)
		return walk_deny(c, GUARD_INLINE_CODE, j, "ts-node", o->why);
	if (o->kind == TR)
		return walk_deny(c, GUARD_STDIN_PROGRAM, j, "ts-node", o->why);
	return walk_deny(c, GUARD_FORBIDDEN_OPTION, j, "ts-node", o->why);
}

/* A bundle "-abc": `arg` reads each letter as its own option. Refused
 * whole, naming the worst letter's reason (-TC x loads x as the
 * compiler); give ts-node's short options one per word. */
static enum guard_verdict
ts_bundle(struct guard_walk *c, size_t j)
{
	const char *a = c->argv[j];
	const struct ts_opt *o, *worst = NULL;
	char one[3] = { '-', 0, 0 };
	size_t k;

	for (k = 1; a[k] != '\0'; k++) {
		one[1] = a[k];
		if ((o = ts_find(one, 2)) && o->kind != TB && o->kind != TV &&
		    o->kind != TP && (!worst || o->kind < worst->kind))
			worst = o;
	}
	if (worst)
		return ts_refuse(c, j, worst);
	return walk_deny(c, GUARD_UNKNOWN_OPTION, j, "ts-node",
	    "bundled short options: give them one per word");
}

enum guard_verdict
tsnode_check(struct guard_walk *c, size_t i)
{
	size_t j;

	for (j = i + 1; j < c->argc; j++) {
		const char *a = c->argv[j], *eq = NULL, *v;
		const struct ts_opt *o;
		size_t n;
		enum guard_verdict r;

		if (a[0] != '-' || a[1] == '\0')
			break;
		if (lex_eq(a, "--")) {
			j++;
			break;
		}
		if (a[1] != '-' && a[2] != '\0')
			return ts_bundle(c, j);
		if (a[1] == '-')
			eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a) : strlen(a);
		if (!(o = ts_find(a, n)))
			return walk_deny(c, GUARD_UNKNOWN_OPTION, j, "ts-node",
			    "not one of ts-node's options allowed");
		if (o->kind == TB) {
			if (eq)
				return walk_deny(c, GUARD_BAD_VALUE, j,
				    "ts-node", "option takes no value");
			continue;
		}
		if (o->kind != TV && o->kind != TP)
			return ts_refuse(c, j, o);
		if ((r = walk_value(c, &j, eq, "ts-node", &v)) != GUARD_OK)
			return r;
		if (!lex_graph(v) || v[0] == '-')
			return walk_deny(c, GUARD_BAD_VALUE, j, "ts-node",
			    "missing or unprintable option value");
		if (o->kind == TP &&
		    (r = walk_script(c, j, v, "ts-node")) != GUARD_OK)
			return r;
	}
	if (j >= c->argc)
		return walk_deny(c, GUARD_STDIN_PROGRAM, i, "ts-node",
		    "no script: ts-node would start a REPL on stdin");
	return walk_script(c, j, c->argv[j], "ts-node");
}
