/* guard_uv.c - uv's and uvx's grammar. Read for it: uv crates/uv-cli
 * (clap: --long=v, --long v, -s v; the first positional starts the
 * external command and ends uv's options). */
#include "common/policy/guard_uv.h"

#include <string.h>

#include "common/policy/guard_command.h"
#include "common/policy/guard_lex.h"
#include "common/policy/guard_pep508.h"
#include "common/policy/guard_python.h"

/* uvx's own spelling: name@version. */
static int
uvx_pinned(const char *s)
{
	size_t n = pep508_name(s);

	return n && s[n] == '@' && pep440_exact(s + n + 1);
}

enum { U_BOOL, U_VAL, U_FORBID };
enum { V_NONE, V_SPEC, V_PYREQ, V_NAME, V_INDEX };
#define M_UV 1u		/* between "uv" and its subcommand */
#define M_TOOL 2u	/* uvx, uv tool run */
#define M_RUN 4u	/* uv run */
#define M_ANY (M_UV | M_TOOL | M_RUN)
#define M_CMD (M_TOOL | M_RUN)

static const struct uv_opt {
	const char *name;
	char short_name;
	unsigned char kind, value, modes;
	const char *why;
} uv_opts[] = {
	{ "--quiet", 'q', U_BOOL, V_NONE, M_ANY, NULL },
	{ "--verbose", 'v', U_BOOL, V_NONE, M_ANY, NULL },
	{ "--offline", 0, U_BOOL, V_NONE, M_ANY, NULL },
	{ "--no-cache", 'n', U_BOOL, V_NONE, M_ANY, NULL },
	{ "--no-progress", 0, U_BOOL, V_NONE, M_ANY, NULL },
	{ "--no-config", 0, U_BOOL, V_NONE, M_ANY, NULL },
	{ "--no-python-downloads", 0, U_BOOL, V_NONE, M_ANY, NULL },
	{ "--managed-python", 0, U_BOOL, V_NONE, M_ANY, NULL },
	{ "--no-managed-python", 0, U_BOOL, V_NONE, M_ANY, NULL },
	{ "--native-tls", 0, U_BOOL, V_NONE, M_ANY, NULL },
	{ "--system-certs", 0, U_BOOL, V_NONE, M_ANY, NULL },
	{ "--isolated", 0, U_BOOL, V_NONE, M_ANY, NULL },
	{ "--color", 0, U_VAL, V_NAME, M_ANY, NULL },
	{ "--refresh", 0, U_BOOL, V_NONE, M_CMD, NULL },
	{ "--no-build", 0, U_BOOL, V_NONE, M_CMD, NULL },
	{ "--no-env-file", 0, U_BOOL, V_NONE, M_CMD, NULL },
	{ "--with", 'w', U_VAL, V_SPEC, M_CMD, NULL },
	{ "--python", 'p', U_VAL, V_PYREQ, M_CMD, NULL },
	{ "--index", 0, U_VAL, V_INDEX, M_CMD, NULL },
	{ "--default-index", 0, U_VAL, V_INDEX, M_CMD, NULL },
	{ "--index-url", 'i', U_VAL, V_INDEX, M_CMD, NULL },
	{ "--extra-index-url", 0, U_VAL, V_INDEX, M_CMD, NULL },
	{ "--from", 0, U_VAL, V_SPEC, M_TOOL, NULL },
	{ "--no-project", 0, U_BOOL, V_NONE, M_RUN, NULL },
	{ "--no-sync", 0, U_BOOL, V_NONE, M_RUN, NULL },
	{ "--frozen", 0, U_BOOL, V_NONE, M_RUN, NULL },
	{ "--locked", 0, U_BOOL, V_NONE, M_RUN, NULL },
	{ "--no-dev", 0, U_BOOL, V_NONE, M_RUN, NULL },
	{ "--all-extras", 0, U_BOOL, V_NONE, M_RUN, NULL },
	{ "--exact", 0, U_BOOL, V_NONE, M_RUN, NULL },
	{ "--module", 'm', U_BOOL, V_NONE, M_RUN, NULL },
	{ "--script", 's', U_BOOL, V_NONE, M_RUN, NULL },
	{ "--extra", 0, U_VAL, V_NAME, M_RUN, NULL },
	{ "--group", 0, U_VAL, V_NAME, M_RUN, NULL },
	{ "--directory", 0, U_FORBID, V_NONE, M_ANY,
	    "changes the working directory" },
	{ "--project", 0, U_FORBID, V_NONE, M_ANY,
	    "reads a project and its settings from elsewhere" },
	{ "--config-file", 0, U_FORBID, V_NONE, M_ANY,
	    "reads settings from a file" },
	{ "--cache-dir", 0, U_FORBID, V_NONE, M_ANY,
	    "moves the package cache" },
	{ "--allow-insecure-host", 0, U_FORBID, V_NONE, M_ANY,
	    "turns off TLS verification" },
	{ "--trusted-host", 0, U_FORBID, V_NONE, M_ANY,
	    "turns off TLS verification" },
	{ "--env-file", 0, U_FORBID, V_NONE, M_ANY,
	    "loads environment variables from a file" },
	{ "--with-requirements", 0, U_FORBID, V_NONE, M_ANY,
	    "installs packages listed in a file" },
	{ "--with-editable", 0, U_FORBID, V_NONE, M_ANY,
	    "installs a local directory" },
	{ "--find-links", 'f', U_VAL, V_INDEX, M_CMD, NULL },
};

struct uv_state {
	size_t from;		/* index of --from's word, 0 when absent */
	size_t nwith;
	int module, script;
};

static const struct uv_opt *
uv_find(const char *a, size_t n)
{
	size_t k;

	/* -q, -qq, -qqq and -v, -vv: clap counts repeated flags */
	if (a[1] != '-' && (a[1] == 'q' || a[1] == 'v') &&
	    strspn(a + 1, a[1] == 'q' ? "q" : "v") == n - 1)
		n = 2;
	for (k = 0; k < sizeof uv_opts / sizeof uv_opts[0]; k++) {
		const struct uv_opt *o = &uv_opts[k];

		if (a[1] == '-' ? strlen(o->name) == n &&
		    memcmp(a, o->name, n) == 0 :
		    n == 2 && o->short_name != 0 && a[1] == o->short_name)
			return o;
	}
	return NULL;
}

static int
uv_value_ok(const struct guard_walk *c, const char *v, unsigned kind)
{
	if (v[0] == '-')
		return 0;
	if (kind == V_PYREQ)	/* 3.12, cpython@3.12, >=3.11; no path */
		return lex_all_in(v, ".@=<>,+_~!*-");
	if (kind == V_NAME)
		return lex_all_in(v, "._-");
	if (kind == V_INDEX)
		return walk_index_allowed(c, v);
	return pep508_shape(v);
}

/* uv's options from argv[*jp] on, for mode; stops at the first word that
 * is not an option (or after "--"), leaving *jp there. */
static enum guard_verdict
uv_options(struct guard_walk *c, size_t *jp, unsigned mode, struct uv_state *st,
    const char *who)
{
	size_t j;

	for (j = *jp; j < c->argc; j++) {
		const char *a = c->argv[j], *eq = NULL, *v;
		const struct uv_opt *o;
		enum guard_verdict r;
		size_t n;

		if (a[0] != '-' || a[1] == '\0')
			break;
		if (lex_eq(a, "--") && mode != M_UV) {
			j++;
			break;
		}
		if (a[1] == '-')
			eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a) : strlen(a);
		o = uv_find(a, n);
		if (!o || !(o->modes & mode))
			return walk_deny(c, GUARD_UNKNOWN_OPTION, j, who,
			    "option not allowed here");
		if (o->kind == U_FORBID)
			return walk_deny(c, GUARD_FORBIDDEN_OPTION, j, who,
			    o->why);
		if (o->kind == U_BOOL) {
			if (eq)
				return walk_deny(c, GUARD_BAD_VALUE, j, who,
				    "option takes no value");
			st->module |= o->short_name == 'm';
			st->script |= o->short_name == 's';
			continue;
		}
		if ((r = walk_value(c, &j, eq, who, &v)) != GUARD_OK)
			return r;
		if (!uv_value_ok(c, v, o->value))
			return walk_deny(c, o->value == V_INDEX ?
			    GUARD_FORBIDDEN_OPTION : GUARD_BAD_VALUE, j, who,
			    o->value == V_INDEX ? "an index not named by "
			    "--allow-index" : o->value == V_SPEC ? "not a "
			    "requirement name[extras] with versions (no URL "
			    "or path)" : "bad option value");
		if (lex_eq(o->name, "--from")) {
			st->from = j;
			if (!pep508_pinned(v))
				walk_pin(c, GUARD_UNPINNED, j, who,
				    "--from not pinned as name==version");
		} else if (lex_eq(o->name, "--with")) {
			st->nwith++;
			if (!pep508_pinned(v))
				walk_pin(c, GUARD_UNPINNED, j, who,
				    "--with not pinned as name==version");
		}
	}
	*jp = j;
	return GUARD_OK;
}

/* uvx / uv tool run: argv[j] is the tool, optionally tool@version. */
static enum guard_verdict
uv_tool_command(struct guard_walk *c, size_t j, const struct uv_state *st,
    const char *who)
{
	const char *cmd = c->argv[j];
	size_t n = strcspn(cmd, "@=<>!~[,");
	enum guard_kind k;

	if (cmd[0] == '-' || !lex_all_in(cmd, "._+@=<>!~[],-") || n == 0)
		return walk_deny(c, GUARD_BAD_VALUE, j, who, "not a tool name");
	k = command_kind(cmd, n);
	if (k == KIND_NONE && !st->from && !uvx_pinned(cmd))
		walk_pin(c, GUARD_UNPINNED, j, who,
		    "tool not pinned as name@version or --from name==version");
	/* uv runs the word from the tool's environment first, then PATH */
	c->res->path_lookup = 1;
	return command_check(c, j, n, who);
}

/* uv run: argv[j] is a command, a script, or with -m a module. */
static enum guard_verdict
uv_run_command(struct guard_walk *c, size_t j, const struct uv_state *st)
{
	const char *cmd = c->argv[j];
	enum guard_kind k;

	if (st->module)
		return python_module(c, j, cmd, "uv run");
	if (cmd[0] == '\0' || lex_eq(cmd, "-"))
		return walk_deny(c, GUARD_STDIN_PROGRAM, j, "uv run",
		    "reads a script from stdin");
	if (!st->script && lex_scheme_len(cmd))
		return walk_deny(c, GUARD_BAD_VALUE, j, "uv run",
		    "runs a script from a URL");
	if (st->script || strchr(cmd, '/') || lex_suffix(cmd, ".py") ||
	    lex_suffix(cmd, ".pyw")) {
		if (!st->script && !lex_suffix(cmd, ".py") &&
		    !lex_suffix(cmd, ".pyw"))
			return walk_deny(c, GUARD_BAD_VALUE, j, "uv run",
			    "runs an executable by path");
		return walk_script(c, j, cmd, "uv run");
	}
	if (!lex_bin_name(cmd))
		return walk_deny(c, GUARD_BAD_VALUE, j, "uv run",
		    "not a plain command name");
	c->res->path_lookup = 1;
	k = command_kind(cmd, strlen(cmd));
	if (k == KIND_NONE && st->nwith == 0)
		walk_pin(c, GUARD_NOT_PACKAGE, j, "uv run",
		    "runs a command from the environment, not a pinned "
		    "package");
	return command_check(c, j, strlen(cmd), "uv run");
}

enum guard_verdict
uv_check(struct guard_walk *c, size_t i, int uvx)
{
	struct uv_state st = { 0, 0, 0, 0 };
	const char *who = uvx ? "uvx" : "uv";
	unsigned mode = M_TOOL;
	enum guard_verdict r;
	size_t j = i + 1;

	if (!uvx) {
		if ((r = uv_options(c, &j, M_UV, &st, who)) != GUARD_OK)
			return r;
		if (j < c->argc && lex_eq(c->argv[j], "tool")) {
			j++;
			if ((r = uv_options(c, &j, M_UV, &st, who)) != GUARD_OK)
				return r;
			if (j >= c->argc || !lex_eq(c->argv[j], "run"))
				return walk_deny(c, GUARD_BAD_SUBCOMMAND,
				    j < c->argc ? j : i, who,
				    "only 'uv tool run' runs a tool");
		} else if (j < c->argc && lex_eq(c->argv[j], "run")) {
			mode = M_RUN;
		} else {
			return walk_deny(c, GUARD_BAD_SUBCOMMAND,
			    j < c->argc ? j : i, who,
			    "only 'uv run' and 'uv tool run' launch");
		}
		j++;
		who = mode == M_RUN ? "uv run" : "uv tool run";
	}
	if ((r = uv_options(c, &j, mode, &st, who)) != GUARD_OK)
		return r;
	if (j >= c->argc)
		return walk_deny(c, GUARD_NO_COMMAND, i, who, "nothing to run");
	if (mode == M_RUN)
		return uv_run_command(c, j, &st);
	return uv_tool_command(c, j, &st, who);
}
