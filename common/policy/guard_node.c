/* guard_node.c - node's grammar. Read for it: node
 * src/node_options-inl.h (only "--" options split at '=', '_' equals '-',
 * a value is the next argument unless it starts with '-', aliases -e -p
 * -pe -i -r -C, "node inspect", a lone "-" or "" as the script reads
 * stdin). Where node versions could disagree on an option's value form,
 * only the unambiguous spelling is accepted. */
#include "common/policy/guard_node.h"

#include <string.h>

#include "common/policy/guard_lex.h"

#define NAME_MAX_OPT 64	/* longest option name we ever need to match */

enum node_kind {
	NB,	/* boolean: no value, no "=" */
	NV,	/* value: "--opt=v" or the next argument */
	N8,	/* V8 flag with a number: "--opt=N" only, node never
		 * consumes the next word for it (and --stack-trace-limit
		 * changed kind between versions) */
	NP,	/* preload module: value checked as a module spec */
	NI,	/* inline code */
	NR,	/* REPL on stdin */
	NF	/* understood and refused */
};

enum value_kind { VA, VN, VE };	/* any printable, number, [a-z0-9-] */

static const struct node_opt {
	const char *name;
	unsigned char kind, value;
	const char *why;
} node_opts[] = {
	{ "--eval", NI, 0, "evaluates code given on the command line" },
	{ "--print", NI, 0, "evaluates code given on the command line" },
	{ "-e", NI, 0, "evaluates code given on the command line" },
	{ "-p", NI, 0, "evaluates code given on the command line" },
	{ "-pe", NI, 0, "evaluates code given on the command line" },
	{ "--interactive", NR, 0, "starts a REPL on stdin" },
	{ "-i", NR, 0, "starts a REPL on stdin" },
	{ "--require", NP, 0, NULL },
	{ "-r", NP, 0, NULL },
	{ "--import", NP, 0, NULL },
	{ "--loader", NP, 0, NULL },
	{ "--experimental-loader", NP, 0, NULL },
	{ "--env-file", NF, 0, "loads NODE_OPTIONS and variables from a file" },
	{ "--env-file-if-exists", NF, 0,
	    "loads NODE_OPTIONS and variables from a file" },
	{ "--run", NF, 0, "runs a package.json script through a shell" },
	{ "--experimental-config-file", NF, 0, "reads options from a file" },
	{ "--experimental-default-config-file", NF, 0,
	    "reads options from a file" },
	{ "--openssl-config", NF, 0, "an OpenSSL config can load engines" },
	{ "--experimental-network-imports", NF, 0,
	    "imports code over the network" },
	{ "--test", NF, 0, "runs every test file it finds" },
	{ "--prof-process", NF, 0, "hands the rest of argv to the profiler" },
	{ "--build-snapshot", NF, 0, "runs a script to build a snapshot" },
	{ "--snapshot-blob", NF, 0, "starts from a snapshot file" },
	{ "--conditions", NV, VA, NULL },
	{ "-C", NV, VA, NULL },
	{ "--title", NV, VA, NULL },
	{ "--disable-warning", NV, VA, NULL },
	{ "--unhandled-rejections", NV, VE, NULL },
	{ "--dns-result-order", NV, VE, NULL },
	{ "--max-http-header-size", NV, VN, NULL },
	{ "--max-old-space-size", N8, VN, NULL },
	{ "--max-semi-space-size", N8, VN, NULL },
	{ "--stack-size", N8, VN, NULL },
	{ "--stack-trace-limit", N8, VN, NULL },
	{ "--abort-on-uncaught-exception", NB, 0, NULL },
	{ "--disallow-code-generation-from-strings", NB, 0, NULL },
	{ "--enable-source-maps", NB, 0, NULL },
	{ "--experimental-detect-module", NB, 0, NULL },
	{ "--experimental-eventsource", NB, 0, NULL },
	{ "--experimental-require-module", NB, 0, NULL },
	{ "--experimental-strip-types", NB, 0, NULL },
	{ "--experimental-transform-types", NB, 0, NULL },
	{ "--experimental-vm-modules", NB, 0, NULL },
	{ "--experimental-websocket", NB, 0, NULL },
	{ "--expose-gc", NB, 0, NULL },
	{ "--frozen-intrinsics", NB, 0, NULL },
	{ "--jitless", NB, 0, NULL },
	{ "--no-addons", NB, 0, NULL },
	{ "--no-deprecation", NB, 0, NULL },
	{ "--no-experimental-detect-module", NB, 0, NULL },
	{ "--no-experimental-fetch", NB, 0, NULL },
	{ "--no-experimental-require-module", NB, 0, NULL },
	{ "--no-experimental-strip-types", NB, 0, NULL },
	{ "--no-warnings", NB, 0, NULL },
	{ "--openssl-legacy-provider", NB, 0, NULL },
	{ "--pending-deprecation", NB, 0, NULL },
	{ "--preserve-symlinks", NB, 0, NULL },
	{ "--preserve-symlinks-main", NB, 0, NULL },
	{ "--throw-deprecation", NB, 0, NULL },
	{ "--tls-min-v1.2", NB, 0, NULL },
	{ "--tls-min-v1.3", NB, 0, NULL },
	{ "--trace-deprecation", NB, 0, NULL },
	{ "--trace-exit", NB, 0, NULL },
	{ "--trace-uncaught", NB, 0, NULL },
	{ "--trace-warnings", NB, 0, NULL },
	{ "--use-bundled-ca", NB, 0, NULL },
	{ "--use-openssl-ca", NB, 0, NULL },
	{ "--use-system-ca", NB, 0, NULL },
	{ "--zero-fill-buffers", NB, 0, NULL },
};

/* tsx's own options (its cli.mjs: cleye flags), read before node's; the
 * rest of its argv goes to node as it is, so node's table holds there. */
static const struct node_opt tsx_opts[] = {
	{ "--no-cache", NB, 0, NULL },
	{ "--noCache", NB, 0, NULL },
	{ "--tsconfig", NF, 0,
	    "reads another tsconfig, whose paths redirect imports" },
};

static int
value_ok(const char *v, enum value_kind k)
{
	if (k == VN)
		return v[0] != '\0' && strspn(v, "0123456789") == strlen(v);
	if (k == VE)
		return v[0] != '\0' && strspn(v,
		    "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(v);
	return lex_graph(v);
}

/* A module given to --require/--import/--loader: a data: URL is inline
 * code; anything else must be a script path (check_script): a bare
 * specifier would be looked up in node_modules directories and global
 * folders, which is library code again. */
static enum guard_verdict
node_preload(struct guard_walk *c, size_t idx, const char *v, const char *who)
{
	size_t n;

	if (!lex_graph(v) || v[0] == '\\')
		return walk_deny(c, GUARD_BAD_VALUE, idx, who,
		    "module spec with spaces, controls or escapes");
	if ((n = lex_scheme_len(v)) == 4 && lex_lower(v[0]) == 'd' &&
	    lex_lower(v[1]) == 'a' && lex_lower(v[2]) == 't' &&
	    lex_lower(v[3]) == 'a')
		return walk_deny(c, GUARD_INLINE_CODE, idx, who,
		    "a data: URL module is inline code");
	if (n)
		return walk_deny(c, GUARD_BAD_VALUE, idx, who,
		    "preloads a module from a URL");
	return walk_script(c, idx, v, who);
}

/* argv[j] is node's program (j == argc: there is none). tsx hands its
 * argv to node, so node's words mean the same there; tsx's own "watch"
 * command reruns the script on changes with options of its own. */
static enum guard_verdict
node_script(struct guard_walk *c, size_t i, size_t j, const char *who)
{
	const char *a;

	if (j >= c->argc)
		return walk_deny(c, GUARD_STDIN_PROGRAM, i, who,
		    "no script: node would read its program from stdin");
	a = c->argv[j];
	if (lex_eq(a, "inspect") || lex_eq(a, "debug"))
		return walk_deny(c, GUARD_DEBUGGER, j, who,
		    "starts the built-in debugger");
	if (lex_eq(who, "tsx") && lex_eq(a, "watch"))
		return walk_deny(c, GUARD_BAD_SUBCOMMAND, j, who,
		    "tsx watch is not a server's command");
	return walk_script(c, j, a, who);
}

/* Single-dash words node does not know: say why when they look like
 * bundled -e/-p/-i (node does not bundle; refusing them as inline code
 * makes the reason obvious). */
static enum guard_verdict
node_short_unknown(struct guard_walk *c, size_t j, const char *who)
{
	const char *a = c->argv[j];

	if (lex_all_in(a + 1, "") && strpbrk(a + 1, "0123456789") == NULL) {
		if (strpbrk(a + 1, "ep"))
			return walk_deny(c, GUARD_INLINE_CODE, j, who,
			    "bundled flags with -e or -p evaluate code");
		if (strchr(a + 1, 'i'))
			return walk_deny(c, GUARD_STDIN_PROGRAM, j, who,
			    "bundled -i starts a REPL on stdin");
	}
	return walk_deny(c, GUARD_UNKNOWN_OPTION, j, who,
	    "option not allowed");
}

/* node's grammar for argv[i..], or tsx's: node's with tsx's own options
 * first. who names the launcher in refusals. */
static enum guard_verdict
node_walk(struct guard_walk *c, size_t i, int tsx)
{
	const char *who = tsx ? "tsx" : "node";
	char name[NAME_MAX_OPT + 1];
	size_t j, k, n;

	for (j = i + 1; j < c->argc; j++) {
		const char *a = c->argv[j], *eq = NULL, *v;
		const struct node_opt *o = NULL;
		enum guard_verdict r;

		if (a[0] != '-' || a[1] == '\0')
			return node_script(c, i, j, who);
		if (lex_eq(a, "--"))
			return node_script(c, i, j + 1, who);
		/* node splits at '=' only for "--" options and treats '_'
		 * as '-' in names from the third byte on */
		if (a[1] == '-')
			eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a) : strlen(a);
		if (n > NAME_MAX_OPT)
			return walk_deny(c, GUARD_UNKNOWN_OPTION, j, who,
			    "option not allowed");
		for (k = 0; k < n; k++)
			name[k] = k >= 2 && a[k] == '_' ? '-' : a[k];
		name[n] = '\0';
		if (lex_prefix(name, "--inspect") ||
		    lex_prefix(name, "--debug"))
			return walk_deny(c, GUARD_DEBUGGER, j, who,
			    "opens a debugger port (code injection)");
		for (k = 0; tsx && k < sizeof tsx_opts / sizeof tsx_opts[0];
		    k++)
			if (lex_eq(name, tsx_opts[k].name))
				o = &tsx_opts[k];
		for (k = 0; !o && k < sizeof node_opts / sizeof node_opts[0];
		    k++)
			if (lex_eq(name, node_opts[k].name))
				o = &node_opts[k];
		if (!o && a[1] != '-')
			return node_short_unknown(c, j, who);
		if (!o)
			return walk_deny(c, GUARD_UNKNOWN_OPTION, j, who,
			    "option not allowed");
		switch (o->kind) {
		case NI:
			return walk_deny(c, GUARD_INLINE_CODE, j, who,
			    o->why);
		case NR:
			return walk_deny(c, GUARD_STDIN_PROGRAM, j, who,
			    o->why);
		case NF:
			return walk_deny(c, GUARD_FORBIDDEN_OPTION, j, who,
			    o->why);
		case NB:
			if (eq)
				return walk_deny(c, GUARD_BAD_VALUE, j, who,
				    "option takes no value");
			continue;
		case N8:
			if (!eq || !value_ok(eq + 1, VN))
				return walk_deny(c, GUARD_BAD_VALUE, j, who,
				    "give this V8 flag as --flag=NUMBER");
			continue;
		default:
			break;
		}
		/* NV and NP take a value: after '=' or the next word, which
		 * node refuses when it starts with '-' */
		if ((r = walk_value(c, &j, eq, who, &v)) != GUARD_OK)
			return r;
		if (v[0] == '\0' || v[0] == '-')
			return walk_deny(c, GUARD_BAD_VALUE, j, who,
			    "missing option value");
		if (o->kind == NP) {
			if ((r = node_preload(c, j, v, who)) != GUARD_OK)
				return r;
		} else if (!value_ok(v, (enum value_kind)o->value)) {
			return walk_deny(c, GUARD_BAD_VALUE, j, who,
			    "bad option value");
		}
	}
	return node_script(c, i, j, who);
}

enum guard_verdict
node_check(struct guard_walk *c, size_t i)
{
	return node_walk(c, i, 0);
}

enum guard_verdict
tsx_check(struct guard_walk *c, size_t i)
{
	return node_walk(c, i, 1);
}
