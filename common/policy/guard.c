/* guard.c - the launcher guard. Each launcher's command line is parsed the
 * way the launcher itself parses it, so that the guard and the launcher
 * agree on which word is the program; where they could disagree (an option
 * whose value form differs between versions) only the unambiguous spelling
 * is accepted. Anything not understood is refused.
 *
 * Sources of truth, read for this file: node src/node_options-inl.h (only
 * "--" options split at '=', '_' equals '-', a value is the next argument
 * unless it starts with '-', aliases -e -p -pe -i -r -C, "node inspect",
 * a lone "-" or "" as the script reads stdin); CPython Python/getopt.c
 * (short options bundle, an option's argument is the rest of the word or
 * the next word whatever it looks like, -c and -m end option parsing);
 * npm bin/npx-cli.js (dashes stripped before matching a key, -p and
 * --package always take the next word, the first positional ends npx's
 * options, with --package the command word goes into a shell string);
 * npm libnpmexec (without --package and without a version, a file of the
 * spec's name in npm's global bin directory runs first) and
 * @npmcli/run-script (the command is looked up on a PATH of the install's
 * .bin, every parent's node_modules/.bin, then the caller's PATH); uv
 * crates/uv-cli (clap: --long=v, --long v, -s v; the first positional
 * starts the external command and ends uv's options). The grammar is
 * written down in docs/GUARD.md. */
#include "common/policy/guard.h"

#include <stdio.h>
#include <string.h>

#define DEPTH_MAX 4	/* npx -> uvx -> uv -> python is already absurd */
#define NAME_MAX_OPT 64	/* longest option name we ever need to match */

enum kind { K_NONE, K_NODE, K_PYTHON, K_NPX, K_UVX, K_UV, K_DENY };

struct ctx {
	const struct guard_policy *policy;
	const char *const *argv;
	size_t argc;
	struct guard_result *res;
	int depth;
	/* the first finding of the pinned-version rules; guard_check ignores
	 * it, guard_check_pinned reports it */
	enum guard_verdict pin;
	size_t pin_index;
	const char *pin_who, *pin_why;
};

static const char *const verdict_names[GUARD_VERDICT_COUNT] = {
	"ok", "bad_argv", "bad_launcher", "inline_code", "stdin_program",
	"debugger", "forbidden_option", "unknown_option", "bad_value",
	"forbidden_command", "bad_subcommand", "no_command", "too_deep",
	"unpinned", "not_package",
};

const char *
guard_verdict_name(enum guard_verdict v)
{
	if ((unsigned)v >= GUARD_VERDICT_COUNT)
		return "unknown";
	return verdict_names[v];
}

char *
guard_quote(char *dst, size_t cap, const char *s, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t room = cap > 4 ? cap - 4 : 0;	/* keeps "..." and NUL */
	size_t o = 0, i;

	if (cap == 0)
		return dst;
	for (i = 0; s[i] != '\0' && i < max; i++) {
		unsigned char ch = (unsigned char)s[i];
		int plain = ch >= 0x20 && ch < 0x7f && ch != '\'' &&
		    ch != '"' && ch != '\\';

		if ((plain ? 1u : 4u) > room - o)
			break;
		if (plain) {
			dst[o++] = (char)ch;
		} else {
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[ch >> 4];
			dst[o++] = hex[ch & 15];
		}
	}
	/* s[i] is readable: every byte before it was not the terminator */
	if (s[i] != '\0' && cap >= 4) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
	return dst;
}

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

/* Record a refusal that names no argument text. */
static enum guard_verdict
deny_plain(struct ctx *c, enum guard_verdict v, size_t idx, const char *why)
{
	c->res->verdict = v;
	c->res->index = idx;
	snprintf(c->res->reason, sizeof c->res->reason, "%s", why);
	return v;
}

/* Record a refusal of argv[idx]; the reason quotes it, escaped and cut. */
static enum guard_verdict
deny(struct ctx *c, enum guard_verdict v, size_t idx, const char *who,
    const char *why)
{
	char q[GUARD_QUOTE_MAX * 4 + 4];
	const char *arg = idx < c->argc ? c->argv[idx] : "";

	c->res->verdict = v;
	c->res->index = idx;
	snprintf(c->res->reason, sizeof c->res->reason, "%s: %s: '%s'", who,
	    why, guard_quote(q, sizeof q, arg, GUARD_QUOTE_MAX));
	return v;
}

static void
pin_mark(struct ctx *c, enum guard_verdict v, size_t idx, const char *who,
    const char *why)
{
	if (c->pin != GUARD_OK)
		return;
	c->pin = v;
	c->pin_index = idx;
	c->pin_who = who;
	c->pin_why = why;
}

static int
streq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

static int
has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static int
lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

static int
is_alpha(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static int
is_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

static int
is_alnum(int ch)
{
	return is_alpha(ch) || is_digit(ch);
}

/* 1 if every byte of s is in set (s non-empty). */
static int
all_in(const char *s, const char *set)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!is_alnum((unsigned char)*s) && !strchr(set, *s))
			return 0;
	return 1;
}

/* 1 if s holds only printable ASCII without space (a plain spec/URL). */
static int
all_graph(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || (unsigned char)*s >= 0x7f)
			return 0;
	return 1;
}

/* Length of a URL scheme prefix "alpha *(alnum / + - .) :", else 0. */
static size_t
scheme_len(const char *s)
{
	size_t i = 0;

	if (!is_alpha((unsigned char)s[0]))
		return 0;
	while (is_alnum((unsigned char)s[i]) || s[i] == '+' || s[i] == '-' ||
	    s[i] == '.')
		i++;
	return s[i] == ':' ? i : 0;
}

/* Why p is not an absolute canonical path, or NULL: "/" then components
 * of [A-Za-z0-9._+@%=,~-], none empty (no "//", no trailing "/"), none
 * "." or "..". What the runner's realpath(3) must give back unchanged. */
static const char *
canonical_refusal(const char *p)
{
	const char *s;

	if (p[0] != '/')
		return "not an absolute path";
	for (s = p; *s; s++) {
		if (*s == '/') {
			if (s[1] == '\0' || s[1] == '/')
				return "empty component in a path";
			if (s[1] == '.' && (s[2] == '/' || s[2] == '\0' ||
			    (s[2] == '.' && (s[3] == '/' || s[3] == '\0'))))
				return "'.' or '..' in a path";
		} else if (!is_alnum((unsigned char)*s) &&
		    !strchr("._+@%=,~-", *s)) {
			return "a path byte outside [A-Za-z0-9/._+@%=,~-]";
		}
	}
	if (p[1] == '\0')
		return "the root directory";
	return NULL;
}

/* 1 if path is dir or below it (both canonical). */
static int
path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '/' ||
	    path[n] == '\0');
}

/* argv[idx] names a program file (a script, a preloaded module): it must
 * be canonical and below one of the operator's script dirs. Library and
 * system files (the standard library's timeit.py, npm's npx-cli.js) are
 * never there, so a script cannot be a code runner in disguise. */
static enum guard_verdict
check_script(struct ctx *c, size_t idx, const char *p, const char *who)
{
	const char *why;
	size_t k;

	if (p[0] == '\0' || streq(p, "-"))
		return deny(c, GUARD_STDIN_PROGRAM, idx, who,
		    "reads the program from stdin");
	if (scheme_len(p))
		return deny(c, GUARD_BAD_VALUE, idx, who, "a URL, not a file");
	if ((why = canonical_refusal(p)))
		return deny(c, GUARD_BAD_VALUE, idx, who, why);
	for (k = 0; k < c->policy->nscript_dirs; k++)
		if (path_within(p, c->policy->script_dirs[k]) &&
		    !streq(p, c->policy->script_dirs[k]))
			break;
	if (k == c->policy->nscript_dirs)
		return deny(c, GUARD_BAD_VALUE, idx, who, "a script outside "
		    "every --script-dir (none is allowed by default)");
	if (c->res->nscripts == GUARD_SCRIPTS_MAX)
		return deny(c, GUARD_BAD_ARGV, idx, who, "too many scripts");
	c->res->scripts[c->res->nscripts].index = idx;
	c->res->scripts[c->res->nscripts++].offset =
	    (size_t)(p - c->argv[idx]);
	return GUARD_OK;
}

/* ---- what a command word would run --------------------------------- */

/* Shells, interpreters and programs that run a command or code given as
 * their arguments. A second layer only: the runner gives a command word a
 * PATH on which no host program resolves (guard_result.path_lookup), so
 * these names matter where a package itself ships such a bin (a
 * dependency's cross-env, npm's own node-gyp). Compared ignoring case. */
static const char *const denied_commands[] = {
	"ash", "austin", "ava", "awk", "babel-node-repl", "bash", "bpython",
	"bun", "bunx", "busybox", "c8", "chokidar", "chroot", "chrt", "coffee",
	"concurrently", "conda", "corepack", "coverage", "cross-env",
	"cross-env-shell", "csh", "dash", "deno", "doas", "dotenv",
	"dotenv-cli", "ed", "emacs", "env", "env-cmd", "esno", "esrun", "eval",
	"ex", "exec", "expect", "find", "fish", "flock", "forever", "gawk",
	"gdb", "git", "hatch", "honcho", "hy", "invoke", "ionice", "ipython",
	"java", "jest", "jiti", "jrunscript", "jshell", "jupyter",
	"jupyter-console", "jupyter-lab", "jupyter-notebook", "ksh", "lerna",
	"less", "ltrace", "lua", "luajit", "make", "mamba", "man", "mawk",
	"memray", "micromamba", "mksh", "mocha", "more", "nano", "nawk",
	"nice", "node-dev", "node-gyp", "nodemon", "nohup", "nox", "npm",
	"npm-run-all", "nsenter", "nx", "nyc", "onchange", "pdm", "perl",
	"php", "pip", "pip3", "pipenv", "pipx", "pm2", "pnpm", "pnpx",
	"poetry", "prlimit", "ptipython", "ptpython", "py-spy", "py.test",
	"pyinstrument", "pytest", "rbash", "ruby", "run-p", "run-s", "runuser",
	"scalene", "scp", "script", "setpriv", "setsid", "sh", "shx", "ssh",
	"stdbuf", "strace", "su", "sucrase-node", "sudo", "swc-node", "tap",
	"tape", "tar", "taskset", "tclsh", "tcsh", "time", "timeout", "tox",
	"toybox", "ts-node-dev", "tsc-watch", "tsnd", "unshare", "vi", "vim",
	"virtualenv", "vite-node", "vitest", "viztracer", "watch", "watchmedo",
	"wish", "xargs", "xonsh", "yarn", "yarnpkg", "zsh", "zx",
};

static const struct {
	const char *name;
	enum kind kind;
} launcher_commands[] = {
	{ "node", K_NODE }, { "nodejs", K_NODE }, { "tsx", K_NODE },
	{ "ts-node", K_NODE }, { "ts-node-esm", K_NODE },
	{ "ts-node-script", K_NODE }, { "ts-node-cwd", K_NODE },
	{ "ts-node-transpile-only", K_NODE },
	{ "babel-node", K_NODE }, { "npx", K_NPX }, { "uvx", K_UVX },
	{ "uv", K_UV },
};

/* name[0..n) equals word ignoring ASCII case */
static int
name_is(const char *name, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (word[i] == '\0' || lower((unsigned char)name[i]) != word[i])
			return 0;
	return word[n] == '\0';
}

/* python, python3, python3.12, pypy3 ... (digits and dots after) */
static int
is_python_name(const char *name, size_t n)
{
	size_t i, base;

	if (n >= 6 && name_is(name, 6, "python"))
		base = 6;
	else if (n >= 4 && name_is(name, 4, "pypy"))
		base = 4;
	else
		return 0;
	for (i = base; i < n; i++)
		if (!is_digit((unsigned char)name[i]) && name[i] != '.')
			return 0;
	return 1;
}

static enum kind
command_kind(const char *name, size_t n)
{
	size_t i;

	if (is_python_name(name, n))
		return K_PYTHON;
	for (i = 0; i < sizeof launcher_commands / sizeof launcher_commands[0];
	    i++)
		if (name_is(name, n, launcher_commands[i].name))
			return launcher_commands[i].kind;
	for (i = 0; i < sizeof denied_commands / sizeof denied_commands[0]; i++)
		if (name_is(name, n, denied_commands[i]))
			return K_DENY;
	return K_NONE;
}

static enum guard_verdict check_kind(struct ctx *c, size_t j, enum kind k);

/* Route the command word argv[j], whose program name is name[0..n). */
static enum guard_verdict
check_command_named(struct ctx *c, size_t j, const char *name, size_t n,
    const char *who)
{
	enum kind k = command_kind(name, n);

	if (k == K_DENY)
		return deny(c, GUARD_FORBIDDEN_COMMAND, j, who,
		    "runs a shell, interpreter or command runner");
	if (k == K_NONE)
		return GUARD_OK;
	return check_kind(c, j, k);
}

/* Route the command word argv[j] (its name is the first n bytes). */
static enum guard_verdict
check_command(struct ctx *c, size_t j, size_t n, const char *who)
{
	return check_command_named(c, j, c->argv[j], n, who);
}

/* ---- versions ------------------------------------------------------- */

/* A semver numeric part: "0" or no leading zero; returns chars used. */
static size_t
semver_num(const char *s)
{
	size_t i = 0;

	while (is_digit((unsigned char)s[i]) && i < 16)
		i++;
	if (i == 0 || is_digit((unsigned char)s[i]) || (s[0] == '0' && i > 1))
		return 0;
	return i;
}

/* Exact semver x.y.z[-pre]: no range, tag, "v", "=" or build metadata. */
static int
semver_exact(const char *s)
{
	size_t n;
	int part;

	for (part = 0; part < 3; part++) {
		if (!(n = semver_num(s)))
			return 0;
		s += n;
		if (part < 2 && *s++ != '.')
			return 0;
	}
	if (*s == '\0')
		return 1;
	if (*s++ != '-')
		return 0;
	for (;;) {	/* dot-separated ids, numeric ones canonical */
		const char *id = s;
		int numeric = 1;

		while (is_alnum((unsigned char)*s) || *s == '-') {
			numeric &= is_digit((unsigned char)*s);
			s++;
		}
		if (s == id || (numeric && id[0] == '0' && s - id > 1))
			return 0;
		if (*s == '\0')
			return 1;
		if (*s++ != '.')
			return 0;
	}
}

/* Past skip bytes of *sp, a number (semver_num): 1 and *sp moved past
 * both, or 0 when there is none. */
static int
take_num(const char **sp, size_t skip)
{
	size_t n = semver_num(*sp + skip);

	if (!n)
		return 0;
	*sp += skip + n;
	return 1;
}

/* Exact PEP 440 version in canonical form: N(.N)*[{a|b|rc}N][.postN]
 * [.devN]; no wildcard, local version or epoch. */
static int
pep440_exact(const char *s)
{
	if (!take_num(&s, 0))
		return 0;
	while (*s == '.' && is_digit((unsigned char)s[1]))
		if (!take_num(&s, 1))
			return 0;
	if ((*s == 'a' || *s == 'b' || has_prefix(s, "rc")) &&
	    !take_num(&s, *s == 'r' ? 2 : 1))
		return 0;
	if (has_prefix(s, ".post") && !take_num(&s, 5))
		return 0;
	if (has_prefix(s, ".dev") && !take_num(&s, 4))
		return 0;
	return *s == '\0';
}

/* PEP 508 name: alnum at both ends, . _ - inside; returns its length. */
static size_t
pep508_name(const char *s)
{
	size_t i = 0;

	if (!is_alnum((unsigned char)s[0]))
		return 0;
	while (is_alnum((unsigned char)s[i]) || s[i] == '.' || s[i] == '_' ||
	    s[i] == '-')
		i++;
	while (i > 0 && !is_alnum((unsigned char)s[i - 1]))
		i--;
	return i;
}

/* PEP 508 name[extra,...] (the extras optional): its length, or 0. */
static size_t
pep508_name_extras(const char *s)
{
	const char *p = s;
	size_t n;

	if (!(n = pep508_name(p)))
		return 0;
	p += n;
	if (*p == '[') {
		do {
			p++;
			if (!(n = pep508_name(p)))
				return 0;
			p += n;
		} while (*p == ',');
		if (*p++ != ']')
			return 0;
	}
	return (size_t)(p - s);
}

/* name[extra,...]==version, nothing else. */
static int
pep508_pinned(const char *s)
{
	size_t n;

	if (!(n = pep508_name_extras(s)))
		return 0;
	s += n;
	if (s[0] != '=' || s[1] != '=' || s[2] == '=')
		return 0;
	return pep440_exact(s + 2);
}

/* A requirement without URL, path or marker: name[extra,...] then
 * nothing or specifiers (op version) joined by ',' - what --with and
 * --from may install; "pkg @ https://..." and git+ URLs are sources the
 * operator did not allow. */
static int
pep508_shape(const char *s)
{
	static const char *const ops[] = {
		"===", "==", "!=", "<=", ">=", "~=", "<", ">",
	};
	size_t n, k;

	if (!(n = pep508_name_extras(s)))
		return 0;
	s += n;
	if (*s == '\0')
		return 1;
	for (;;) {
		for (k = 0; k < sizeof ops / sizeof ops[0]; k++)
			if (has_prefix(s, ops[k]))
				break;
		if (k == sizeof ops / sizeof ops[0])
			return 0;
		s += strlen(ops[k]);
		n = 0;
		while (is_alnum((unsigned char)s[n]) ||
		    (s[n] != '\0' && strchr(".*+!-", s[n])))
			n++;
		if (n == 0)
			return 0;
		s += n;
		if (*s == '\0')
			return 1;
		if (*s++ != ',')
			return 0;
	}
}

/* uvx's own spelling: name@version. */
static int
uvx_pinned(const char *s)
{
	size_t n = pep508_name(s);

	return n && s[n] == '@' && pep440_exact(s + n + 1);
}

/* A command word a launcher looks up on PATH: [A-Za-z0-9][A-Za-z0-9._+-]*
 * (a file name: no path, no spec, nothing a shell would expand). */
static int
bin_name(const char *s)
{
	return is_alnum((unsigned char)s[0]) && all_in(s, "._+-") &&
	    strlen(s) <= 255;
}

/* The operator allowed exactly this registry or index URL. */
static int
index_allowed(const struct ctx *c, const char *v)
{
	size_t k;

	for (k = 0; k < c->policy->nindexes; k++)
		if (streq(v, c->policy->indexes[k]))
			return 1;
	return 0;
}

/* Split an npm registry spec [@scope/]name[@version]: sets *name_len and
 * *ver (NULL without a version). Returns 0, or -1 when s is not a plain
 * registry spec (git, URL, path, alias, shell metacharacters). */
static int
npm_spec(const char *s, size_t *name_len, const char **ver)
{
	const char *at, *slash = NULL;

	if (!all_in(s, "@/._~^+-") || s[0] == '.' || s[0] == '_' ||
	    s[0] == '-' || s[0] == '/')
		return -1;
	if (s[0] == '@') {
		slash = strchr(s, '/');
		if (!slash || slash == s + 1 || slash[1] == '\0' ||
		    slash[1] == '@' || slash[1] == '.' || slash[1] == '_')
			return -1;
		at = strchr(slash, '@');
	} else {
		at = strchr(s, '@');
	}
	if (strchr(slash ? slash + 1 : s, '/'))
		return -1;
	*name_len = at ? (size_t)(at - s) : strlen(s);
	*ver = at ? at + 1 : NULL;
	if (*name_len > 214 || (at && (at[1] == '\0' || strchr(at + 1, '@'))))
		return -1;
	return 0;
}

/* ---- node ----------------------------------------------------------- */

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

static int
value_ok(const char *v, enum value_kind k)
{
	if (k == VN)
		return v[0] != '\0' && strspn(v, "0123456789") == strlen(v);
	if (k == VE)
		return v[0] != '\0' && strspn(v,
		    "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(v);
	return all_graph(v);
}

/* A module given to --require/--import/--loader: a data: URL is inline
 * code; anything else must be a script path (check_script): a bare
 * specifier would be looked up in node_modules directories and global
 * folders, which is library code again. */
static enum guard_verdict
node_preload(struct ctx *c, size_t idx, const char *v)
{
	size_t n;

	if (!all_graph(v) || v[0] == '\\')
		return deny(c, GUARD_BAD_VALUE, idx, "node",
		    "module spec with spaces, controls or escapes");
	if ((n = scheme_len(v)) == 4 && lower(v[0]) == 'd' &&
	    lower(v[1]) == 'a' && lower(v[2]) == 't' && lower(v[3]) == 'a')
		return deny(c, GUARD_INLINE_CODE, idx, "node",
		    "a data: URL module is inline code");
	if (n)
		return deny(c, GUARD_BAD_VALUE, idx, "node",
		    "preloads a module from a URL");
	return check_script(c, idx, v, "node");
}

/* argv[j] is node's program (j == argc: there is none). */
static enum guard_verdict
node_script(struct ctx *c, size_t i, size_t j)
{
	const char *a;

	if (j >= c->argc)
		return deny(c, GUARD_STDIN_PROGRAM, i, "node",
		    "no script: node would read its program from stdin");
	a = c->argv[j];
	if (streq(a, "inspect") || streq(a, "debug"))
		return deny(c, GUARD_DEBUGGER, j, "node",
		    "starts the built-in debugger");
	return check_script(c, j, a, "node");
}

/* Single-dash words node does not know: say why when they look like
 * bundled -e/-p/-i (node does not bundle; refusing them as inline code
 * makes the reason obvious). */
static enum guard_verdict
node_short_unknown(struct ctx *c, size_t j)
{
	const char *a = c->argv[j];

	if (all_in(a + 1, "") && strpbrk(a + 1, "0123456789") == NULL) {
		if (strpbrk(a + 1, "ep"))
			return deny(c, GUARD_INLINE_CODE, j, "node",
			    "bundled flags with -e or -p evaluate code");
		if (strchr(a + 1, 'i'))
			return deny(c, GUARD_STDIN_PROGRAM, j, "node",
			    "bundled -i starts a REPL on stdin");
	}
	return deny(c, GUARD_UNKNOWN_OPTION, j, "node", "option not allowed");
}

static enum guard_verdict
check_node(struct ctx *c, size_t i)
{
	char name[NAME_MAX_OPT + 1];
	size_t j, k, n;

	for (j = i + 1; j < c->argc; j++) {
		const char *a = c->argv[j], *eq = NULL, *v;
		const struct node_opt *o = NULL;
		size_t vidx = j;

		if (a[0] != '-' || a[1] == '\0')
			return node_script(c, i, j);
		if (streq(a, "--"))
			return node_script(c, i, j + 1);
		/* node splits at '=' only for "--" options and treats '_'
		 * as '-' in names from the third byte on */
		if (a[1] == '-')
			eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a) : strlen(a);
		if (n > NAME_MAX_OPT)
			return deny(c, GUARD_UNKNOWN_OPTION, j, "node",
			    "option not allowed");
		for (k = 0; k < n; k++)
			name[k] = k >= 2 && a[k] == '_' ? '-' : a[k];
		name[n] = '\0';
		if (has_prefix(name, "--inspect") ||
		    has_prefix(name, "--debug"))
			return deny(c, GUARD_DEBUGGER, j, "node",
			    "opens a debugger port (code injection)");
		for (k = 0; k < sizeof node_opts / sizeof node_opts[0]; k++)
			if (streq(name, node_opts[k].name))
				o = &node_opts[k];
		if (!o && a[1] != '-')
			return node_short_unknown(c, j);
		if (!o)
			return deny(c, GUARD_UNKNOWN_OPTION, j, "node",
			    "option not allowed");
		switch (o->kind) {
		case NI:
			return deny(c, GUARD_INLINE_CODE, j, "node", o->why);
		case NR:
			return deny(c, GUARD_STDIN_PROGRAM, j, "node", o->why);
		case NF:
			return deny(c, GUARD_FORBIDDEN_OPTION, j, "node",
			    o->why);
		case NB:
			if (eq)
				return deny(c, GUARD_BAD_VALUE, j, "node",
				    "option takes no value");
			continue;
		case N8:
			if (!eq || !value_ok(eq + 1, VN))
				return deny(c, GUARD_BAD_VALUE, j, "node",
				    "give this V8 flag as --flag=NUMBER");
			continue;
		default:
			break;
		}
		/* NV and NP take a value: after '=' or the next word, which
		 * node refuses when it starts with '-' */
		if (eq) {
			v = eq + 1;
		} else if (j + 1 < c->argc) {
			v = c->argv[++j];
			vidx = j;
		} else {
			return deny(c, GUARD_BAD_VALUE, j, "node",
			    "option needs a value");
		}
		if (v[0] == '\0' || v[0] == '-')
			return deny(c, GUARD_BAD_VALUE, vidx, "node",
			    "missing option value");
		if (o->kind == NP) {
			enum guard_verdict r = node_preload(c, vidx, v);

			if (r != GUARD_OK)
				return r;
		} else if (!value_ok(v, (enum value_kind)o->value)) {
			return deny(c, GUARD_BAD_VALUE, vidx, "node",
			    "bad option value");
		}
	}
	return node_script(c, i, j);
}

/* ---- python --------------------------------------------------------- */

/* CPython's no-argument flags that only tune the interpreter. Left out:
 * -c (code), -i (REPL after the script), -h -V -? --help --version (not a
 * server), -J (reserved). */
static const char py_flags[] = "bBdEIOPqRsSuvx";

/* -X options that only tune diagnostics or encodings; not pycache_prefix
 * (reads bytecode from a chosen directory) or presite (imports a module
 * before site). */
static const char *const py_xopts[] = {
	"cpu_count", "dev", "disable_remote_debug", "faulthandler",
	"frozen_modules", "gil", "importtime", "int_max_str_digits",
	"no_debug_ranges", "showrefcount", "tracemalloc", "utf8",
	"warn_default_encoding",
};

static const struct {
	const char *name;
	enum guard_verdict verdict;
	const char *why;
} py_modules[] = {
	{ "code", GUARD_STDIN_PROGRAM, "interactive console on stdin" },
	{ "_pyrepl", GUARD_STDIN_PROGRAM, "interactive console on stdin" },
	{ "asyncio", GUARD_STDIN_PROGRAM, "interactive console on stdin" },
	{ "sqlite3", GUARD_STDIN_PROGRAM, "interactive shell on stdin" },
	{ "idlelib", GUARD_STDIN_PROGRAM, "interactive shell" },
	{ "IPython", GUARD_STDIN_PROGRAM, "interactive console on stdin" },
	{ "ptpython", GUARD_STDIN_PROGRAM, "interactive console on stdin" },
	{ "bpython", GUARD_STDIN_PROGRAM, "interactive console on stdin" },
	{ "pdb", GUARD_DEBUGGER, "debugger that runs commands" },
	{ "timeit", GUARD_INLINE_CODE, "runs statements given as arguments" },
	{ "cProfile", GUARD_FORBIDDEN_COMMAND, "runs another program" },
	{ "profile", GUARD_FORBIDDEN_COMMAND, "runs another program" },
	{ "trace", GUARD_FORBIDDEN_COMMAND, "runs another program" },
	{ "runpy", GUARD_FORBIDDEN_COMMAND, "runs another module" },
	{ "pickle", GUARD_FORBIDDEN_COMMAND, "unpickling a file runs code" },
	{ "pydoc", GUARD_FORBIDDEN_COMMAND, "imports what it is told to" },
	{ "doctest", GUARD_FORBIDDEN_COMMAND, "runs code from files" },
	{ "http", GUARD_FORBIDDEN_COMMAND, "http.server --cgi runs scripts" },
	{ "unittest", GUARD_FORBIDDEN_COMMAND,
	    "calls any callable it is named (unittest pdb.set_trace)" },
	{ "test", GUARD_FORBIDDEN_COMMAND, "runs the test suite's programs" },
	{ "pip", GUARD_FORBIDDEN_COMMAND, "installs and builds packages" },
	{ "ensurepip", GUARD_FORBIDDEN_COMMAND, "installs packages" },
	{ "venv", GUARD_FORBIDDEN_COMMAND, "installs packages" },
	{ "webbrowser", GUARD_FORBIDDEN_COMMAND, "runs a browser program" },
	{ "turtledemo", GUARD_FORBIDDEN_COMMAND, "runs demo programs" },
};

static int
py_xopt_ok(const char *v)
{
	size_t n = strcspn(v, "="), i;

	if (v[n] == '=' && !all_in(v + n + 1, "_") && v[n + 1] != '\0')
		return 0;
	for (i = 0; i < sizeof py_xopts / sizeof py_xopts[0]; i++)
		if (strlen(py_xopts[i]) == n && memcmp(v, py_xopts[i], n) == 0)
			return 1;
	return 0;
}

/* The module of -m (python, or uv run -m): a dotted identifier the
 * operator allowed (--allow-module), whose top package is not a REPL,
 * debugger or program runner even so (a module is library code, and the
 * standard library holds many code runners). */
static enum guard_verdict
py_module(struct ctx *c, size_t idx, const char *m, const char *who)
{
	size_t top = strcspn(m, "."), i;
	const char *s = m;

	for (;;) {	/* identifier ("." identifier)* */
		if (!is_alpha((unsigned char)*s) && *s != '_')
			return deny(c, GUARD_BAD_VALUE, idx, who,
			    "not a module name");
		while (is_alnum((unsigned char)*s) || *s == '_')
			s++;
		if (*s == '\0')
			break;
		if (*s++ != '.')
			return deny(c, GUARD_BAD_VALUE, idx, who,
			    "not a module name");
	}
	for (i = 0; i < sizeof py_modules / sizeof py_modules[0]; i++)
		if (strlen(py_modules[i].name) == top &&
		    memcmp(m, py_modules[i].name, top) == 0)
			return deny(c, py_modules[i].verdict, idx, who,
			    py_modules[i].why);
	for (i = 0; i < c->policy->nmodules; i++)
		if (streq(m, c->policy->modules[i]))
			return GUARD_OK;
	return deny(c, GUARD_BAD_VALUE, idx, who, "a module not named by "
	    "--allow-module (none is allowed by default)");
}

/* -W action[:message[:category[:module[:lineno]]]]: CPython imports a
 * dotted category's module, so only built-in categories (no '.'). */
static int
py_warn_ok(const char *v)
{
	const char *cat = strchr(v, ':');

	if (!all_graph(v) || !cat || !(cat = strchr(cat + 1, ':')))
		return all_graph(v);
	cat++;
	return memchr(cat, '.', strcspn(cat, ":")) == NULL;
}

static enum guard_verdict
check_python(struct ctx *c, size_t i)
{
	const char *a;
	size_t j;

	for (j = i + 1; j < c->argc; j++) {
		size_t k;

		a = c->argv[j];
		if (a[0] != '-' || a[1] == '\0')
			break;
		if (streq(a, "--")) {
			j++;
			break;
		}
		if (a[1] == '-')
			return deny(c, GUARD_UNKNOWN_OPTION, j, "python",
			    "option not allowed");
		for (k = 1; a[k] != '\0'; k++) {
			char ch = a[k];
			const char *v;
			size_t vidx = j;

			if (strchr(py_flags, ch))
				continue;
			if (ch == 'c')
				return deny(c, GUARD_INLINE_CODE, j, "python",
				    "-c runs code given on the command line");
			if (ch == 'i')
				return deny(c, GUARD_STDIN_PROGRAM, j,
				    "python", "-i starts a REPL on stdin");
			if (ch != 'W' && ch != 'X' && ch != 'm')
				return deny(c, GUARD_UNKNOWN_OPTION, j,
				    "python", "option not allowed");
			/* the rest of this word, else the next word,
			 * whatever it looks like (CPython getopt) */
			if (a[k + 1] != '\0') {
				v = a + k + 1;
			} else if (j + 1 < c->argc) {
				v = c->argv[++j];
				vidx = j;
			} else {
				return deny(c, GUARD_BAD_VALUE, j, "python",
				    "option needs a value");
			}
			if (ch == 'm')	/* the rest are the module's */
				return py_module(c, vidx, v, "python");
			if (ch == 'X' && !py_xopt_ok(v))
				return deny(c, GUARD_BAD_VALUE, vidx, "python",
				    "-X option not allowed");
			if (ch == 'W' && !py_warn_ok(v))
				return deny(c, GUARD_BAD_VALUE, vidx, "python",
				    "-W category must be a built-in (it is "
				    "imported)");
			break;
		}
	}
	if (j >= c->argc)
		return deny(c, GUARD_STDIN_PROGRAM, i, "python",
		    "no script: python would read its program from stdin");
	return check_script(c, j, c->argv[j], "python");
}

/* ---- npx ------------------------------------------------------------ */

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
npx_refuse_option(struct ctx *c, size_t j)
{
	enum guard_verdict v;
	const char *why;

	if (npx_dangerous(c->argv[j], &v, &why))
		return deny(c, v, j, "npx", why);
	return deny(c, GUARD_UNKNOWN_OPTION, j, "npx", "option not allowed");
}

/* Without "--", the options right after the package are the package's
 * only because npx-cli knows -y/-q take no value; were a future npx to
 * misjudge that, it would parse them as its own. Refuse the dangerous
 * ones there too (a package that really has a -c flag is written
 * npx -y -- pkg -c file). */
static enum guard_verdict
npx_check_tail(struct ctx *c, size_t j)
{
	enum guard_verdict v;
	const char *why;

	for (j++; j < c->argc && c->argv[j][0] == '-' &&
	    !streq(c->argv[j], "--"); j++)
		if (npx_dangerous(c->argv[j], &v, &why))
			return deny(c, v, j, "npx", "after the package, npx "
			    "could read this as its own option; put -- first");
	return GUARD_OK;
}

static enum guard_verdict
npx_package(struct ctx *c, size_t idx, const char *v)
{
	size_t n;
	const char *ver;

	if (npm_spec(v, &n, &ver) != 0)
		return deny(c, GUARD_BAD_VALUE, idx, "npx",
		    "not a registry package spec");
	if (!ver || !semver_exact(ver))
		pin_mark(c, GUARD_UNPINNED, idx, "npx",
		    "package not pinned to an exact version");
	return GUARD_OK;
}

static enum guard_verdict
check_npx(struct ctx *c, size_t i)
{
	size_t j, npkg = 0, n;
	const char *cmd, *ver = NULL;
	enum guard_verdict r;
	int dashdash = 0;

	for (j = i + 1; j < c->argc; j++) {
		const char *a = c->argv[j], *v;
		size_t vidx = j;

		if (streq(a, "--")) {
			dashdash = 1;
			j++;
			break;
		}
		if (a[0] != '-')
			break;
		if (streq(a, "-y") || streq(a, "--yes") || streq(a, "-q") ||
		    streq(a, "--quiet"))
			continue;
		if (streq(a, "-p") || streq(a, "--package")) {
			/* npx-cli always takes the next word here */
			if (j + 1 >= c->argc)
				return deny(c, GUARD_BAD_VALUE, j, "npx",
				    "--package needs a value");
			v = c->argv[++j];
			vidx = j;
		} else if (has_prefix(a, "--package=")) {
			v = a + 10;
		} else if (has_prefix(a, "-p=")) {
			v = a + 3;
		} else if (streq(a, "--registry") ||
		    has_prefix(a, "--registry=")) {
			v = a[10] == '=' ? a + 11 : NULL;
			if (!v && j + 1 < c->argc)
				v = c->argv[++j];
			if (!v || !index_allowed(c, v))
				return deny(c, GUARD_FORBIDDEN_OPTION, j, "npx",
				    "a registry not named by --allow-index");
			continue;
		} else {
			return npx_refuse_option(c, j);
		}
		if ((r = npx_package(c, vidx, v)) != GUARD_OK)
			return r;
		npkg++;
	}
	if (j >= c->argc)
		return deny(c, GUARD_STDIN_PROGRAM, i, "npx",
		    "no command: npx would start an interactive shell");
	cmd = c->argv[j];
	if (npkg == 0) {
		/* the word is a package spec; npx runs its bin. Without a
		 * version npx first looks for a file of that name in npm's
		 * global bin directory (/usr/bin) and runs that instead. */
		if ((r = npx_package(c, j, cmd)) != GUARD_OK)
			return r;
		npm_spec(cmd, &n, &ver);
		/* a scoped package's bin is named without its scope:
		 * @x/node runs a "node" as node@20 does */
		if (cmd[0] == '@') {
			size_t scope = (size_t)(strchr(cmd, '/') - cmd) + 1;

			if ((r = check_command_named(c, j, cmd + scope,
			    n - scope, "npx")) != GUARD_OK)
				return r;
		}
	} else {
		/* the word is a command, pasted into sh -c and looked up
		 * on PATH: a bin name, which the runner can find only
		 * among the packages' bins (guard_result.path_lookup) */
		if (!bin_name(cmd))
			return deny(c, GUARD_BAD_VALUE, j, "npx",
			    "not a plain command name");
		n = strlen(cmd);
		c->res->path_lookup = 1;
	}
	if ((r = check_command(c, j, n, "npx")) != GUARD_OK)
		return r;
	if (npkg == 0 && !ver)
		return deny(c, GUARD_BAD_VALUE, j, "npx", "give the package a "
		    "version (name@1.2.3): without one npx may run a host "
		    "program of that name");
	return dashdash ? GUARD_OK : npx_check_tail(c, j);
}

/* ---- uv and uvx ----------------------------------------------------- */

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
uv_value_ok(const struct ctx *c, const char *v, unsigned kind)
{
	if (v[0] == '-')
		return 0;
	if (kind == V_PYREQ)	/* 3.12, cpython@3.12, >=3.11; no path */
		return all_in(v, ".@=<>,+_~!*-");
	if (kind == V_NAME)
		return all_in(v, "._-");
	if (kind == V_INDEX)
		return index_allowed(c, v);
	return pep508_shape(v);
}

/* uv's options from argv[*jp] on, for mode; stops at the first word that
 * is not an option (or after "--"), leaving *jp there. */
static enum guard_verdict
uv_options(struct ctx *c, size_t *jp, unsigned mode, struct uv_state *st,
    const char *who)
{
	size_t j;

	for (j = *jp; j < c->argc; j++) {
		const char *a = c->argv[j], *eq = NULL, *v;
		const struct uv_opt *o;
		size_t n, vidx = j;

		if (a[0] != '-' || a[1] == '\0')
			break;
		if (streq(a, "--") && mode != M_UV) {
			j++;
			break;
		}
		if (a[1] == '-')
			eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a) : strlen(a);
		o = uv_find(a, n);
		if (!o || !(o->modes & mode))
			return deny(c, GUARD_UNKNOWN_OPTION, j, who,
			    "option not allowed here");
		if (o->kind == U_FORBID)
			return deny(c, GUARD_FORBIDDEN_OPTION, j, who, o->why);
		if (o->kind == U_BOOL) {
			if (eq)
				return deny(c, GUARD_BAD_VALUE, j, who,
				    "option takes no value");
			st->module |= o->short_name == 'm';
			st->script |= o->short_name == 's';
			continue;
		}
		if (eq) {
			v = eq + 1;
		} else if (j + 1 < c->argc) {
			v = c->argv[++j];
			vidx = j;
		} else {
			return deny(c, GUARD_BAD_VALUE, j, who,
			    "option needs a value");
		}
		if (!uv_value_ok(c, v, o->value))
			return deny(c, o->value == V_INDEX ?
			    GUARD_FORBIDDEN_OPTION : GUARD_BAD_VALUE, vidx, who,
			    o->value == V_INDEX ? "an index not named by "
			    "--allow-index" : o->value == V_SPEC ? "not a "
			    "requirement name[extras] with versions (no URL "
			    "or path)" : "bad option value");
		if (streq(o->name, "--from")) {
			st->from = vidx;
			if (!pep508_pinned(v))
				pin_mark(c, GUARD_UNPINNED, vidx, who,
				    "--from not pinned as name==version");
		} else if (streq(o->name, "--with")) {
			st->nwith++;
			if (!pep508_pinned(v))
				pin_mark(c, GUARD_UNPINNED, vidx, who,
				    "--with not pinned as name==version");
		}
	}
	*jp = j;
	return GUARD_OK;
}

/* uvx / uv tool run: argv[j] is the tool, optionally tool@version. */
static enum guard_verdict
uv_tool_command(struct ctx *c, size_t j, const struct uv_state *st,
    const char *who)
{
	const char *cmd = c->argv[j];
	size_t n = strcspn(cmd, "@=<>!~[,");
	enum kind k;

	if (cmd[0] == '-' || !all_in(cmd, "._+@=<>!~[],-") || n == 0)
		return deny(c, GUARD_BAD_VALUE, j, who, "not a tool name");
	k = command_kind(cmd, n);
	if (k == K_NONE && !st->from && !uvx_pinned(cmd))
		pin_mark(c, GUARD_UNPINNED, j, who,
		    "tool not pinned as name@version or --from name==version");
	/* uv runs the word from the tool's environment first, then PATH */
	c->res->path_lookup = 1;
	return check_command(c, j, n, who);
}

/* uv run: argv[j] is a command, a script, or with -m a module. */
static enum guard_verdict
uv_run_command(struct ctx *c, size_t j, const struct uv_state *st)
{
	const char *cmd = c->argv[j];
	enum kind k;

	if (st->module)
		return py_module(c, j, cmd, "uv run");
	if (cmd[0] == '\0' || streq(cmd, "-"))
		return deny(c, GUARD_STDIN_PROGRAM, j, "uv run",
		    "reads a script from stdin");
	if (!st->script && scheme_len(cmd))
		return deny(c, GUARD_BAD_VALUE, j, "uv run",
		    "runs a script from a URL");
	if (st->script || strchr(cmd, '/') || ends_with(cmd, ".py") ||
	    ends_with(cmd, ".pyw")) {
		if (!st->script && !ends_with(cmd, ".py") &&
		    !ends_with(cmd, ".pyw"))
			return deny(c, GUARD_BAD_VALUE, j, "uv run",
			    "runs an executable by path");
		return check_script(c, j, cmd, "uv run");
	}
	if (!bin_name(cmd))
		return deny(c, GUARD_BAD_VALUE, j, "uv run",
		    "not a plain command name");
	c->res->path_lookup = 1;
	k = command_kind(cmd, strlen(cmd));
	if (k == K_NONE && st->nwith == 0)
		pin_mark(c, GUARD_NOT_PACKAGE, j, "uv run",
		    "runs a command from the environment, not a pinned "
		    "package");
	return check_command(c, j, strlen(cmd), "uv run");
}

static enum guard_verdict
check_uv(struct ctx *c, size_t i, int uvx)
{
	struct uv_state st = { 0, 0, 0, 0 };
	const char *who = uvx ? "uvx" : "uv";
	unsigned mode = M_TOOL;
	enum guard_verdict r;
	size_t j = i + 1;

	if (!uvx) {
		if ((r = uv_options(c, &j, M_UV, &st, who)) != GUARD_OK)
			return r;
		if (j < c->argc && streq(c->argv[j], "tool")) {
			j++;
			if ((r = uv_options(c, &j, M_UV, &st, who)) != GUARD_OK)
				return r;
			if (j >= c->argc || !streq(c->argv[j], "run"))
				return deny(c, GUARD_BAD_SUBCOMMAND,
				    j < c->argc ? j : i, who,
				    "only 'uv tool run' runs a tool");
		} else if (j < c->argc && streq(c->argv[j], "run")) {
			mode = M_RUN;
		} else {
			return deny(c, GUARD_BAD_SUBCOMMAND,
			    j < c->argc ? j : i, who,
			    "only 'uv run' and 'uv tool run' launch");
		}
		j++;
		who = mode == M_RUN ? "uv run" : "uv tool run";
	}
	if ((r = uv_options(c, &j, mode, &st, who)) != GUARD_OK)
		return r;
	if (j >= c->argc)
		return deny(c, GUARD_NO_COMMAND, i, who, "nothing to run");
	if (mode == M_RUN)
		return uv_run_command(c, j, &st);
	return uv_tool_command(c, j, &st, who);
}

/* ---- dispatch ------------------------------------------------------- */

static enum guard_verdict
check_kind(struct ctx *c, size_t j, enum kind k)
{
	enum guard_verdict r;

	if (c->depth >= DEPTH_MAX)
		return deny(c, GUARD_TOO_DEEP, j, "guard",
		    "launchers nested too deep");
	c->depth++;
	switch (k) {
	case K_NODE:
		r = check_node(c, j);
		break;
	case K_PYTHON:
		r = check_python(c, j);
		break;
	case K_NPX:
		r = check_npx(c, j);
		break;
	case K_UVX:
		r = check_uv(c, j, 1);
		break;
	case K_UV:
		r = check_uv(c, j, 0);
		break;
	default:
		r = deny(c, GUARD_FORBIDDEN_COMMAND, j, "guard",
		    "not a launcher");
		break;
	}
	c->depth--;
	return r;
}

static const struct {
	const char *name;
	unsigned bit;
	enum kind kind;
} launchers[] = {
	{ "npx", GUARD_NPX, K_NPX },
	{ "node", GUARD_NODE, K_NODE },
	{ "uvx", GUARD_UVX, K_UVX },
	{ "uv", GUARD_UV, K_UV },
	{ "python", GUARD_PYTHON, K_PYTHON },
	{ "python3", GUARD_PYTHON3, K_PYTHON },
};

void
guard_policy_default(struct guard_policy *p)
{
	memset(p, 0, sizeof *p);
	p->launchers = GUARD_NPX | GUARD_NODE | GUARD_UVX | GUARD_UV |
	    GUARD_PYTHON | GUARD_PYTHON3;
}

/* Why dir may not hold scripts: system and library directories hold the
 * code runners a script path must never name (the standard library's
 * timeit.py, npm's npx-cli.js), so a script dir may be neither one of
 * them, nor inside one, nor above one. */
static const char *
script_dir_refusal(const char *dir)
{
	/* each with its own refusal, naming it (no buffer to format into) */
#define SYSTEM_DIR(d) { d, "in, above or at the system directory " d \
	    ", which holds code runners a script must never be" }
	static const struct {
		const char *dir, *why;
	} system_dirs[] = {
		SYSTEM_DIR("/usr"), SYSTEM_DIR("/bin"), SYSTEM_DIR("/sbin"),
		SYSTEM_DIR("/lib"), SYSTEM_DIR("/lib32"), SYSTEM_DIR("/lib64"),
		SYSTEM_DIR("/libx32"), SYSTEM_DIR("/etc"), SYSTEM_DIR("/proc"),
		SYSTEM_DIR("/sys"), SYSTEM_DIR("/dev"), SYSTEM_DIR("/boot"),
		SYSTEM_DIR("/run"), SYSTEM_DIR("/opt"), SYSTEM_DIR("/snap"),
		SYSTEM_DIR("/nix"), SYSTEM_DIR("/var/lib"),
	};
#undef SYSTEM_DIR
	static const char *const library_names[] = {
		"node_modules", "site-packages", "dist-packages", ".npm",
		".cache", ".local", ".pyenv", ".nvm", ".volta", ".cargo",
		"_npx",
	};
	const char *why, *s;
	size_t k, n;

	if ((why = canonical_refusal(dir)))
		return why;
	for (k = 0; k < sizeof system_dirs / sizeof system_dirs[0]; k++)
		if (path_within(dir, system_dirs[k].dir) ||
		    path_within(system_dirs[k].dir, dir))
			return system_dirs[k].why;
	for (s = dir; *s; s += n) {
		s++;
		n = strcspn(s, "/");
		for (k = 0; k < sizeof library_names / sizeof library_names[0];
		    k++)
			if (strlen(library_names[k]) == n &&
			    memcmp(s, library_names[k], n) == 0)
				return "a package or library directory";
	}
	return NULL;
}

/* A dotted identifier, as python -m takes it. */
static int
module_name(const char *s)
{
	for (;;) {
		if (!is_alpha((unsigned char)*s) && *s != '_')
			return 0;
		while (is_alnum((unsigned char)*s) || *s == '_')
			s++;
		if (*s == '\0')
			return 1;
		if (*s++ != '.')
			return 0;
	}
}

int
guard_policy_add(struct guard_policy *p, enum guard_list list,
    const char *value, const char **why)
{
	const char **slot;
	size_t *n;
	const char *bad = NULL;

	if (!value || strnlen(value, GUARD_ITEM_MAX + 1) > GUARD_ITEM_MAX) {
		*why = "missing, or longer than 1024 bytes";
		return -1;
	}
	switch (list) {
	case GUARD_SCRIPT_DIR:
		slot = p->script_dirs;
		n = &p->nscript_dirs;
		bad = script_dir_refusal(value);
		break;
	case GUARD_INDEX:
		slot = p->indexes;
		n = &p->nindexes;
		if (!scheme_len(value) || !all_graph(value))
			bad = "not a URL of printable ASCII";
		break;
	case GUARD_MODULE:
		slot = p->modules;
		n = &p->nmodules;
		if (!module_name(value))
			bad = "not a dotted module name";
		break;
	default:
		*why = "no such list";
		return -1;
	}
	if (bad) {
		*why = bad;
		return -1;
	}
	if (*n == GUARD_LIST_MAX) {
		*why = "more than 16 entries";
		return -1;
	}
	slot[(*n)++] = value;
	return 0;
}

int
guard_policy_parse(struct guard_policy *p, const char *list)
{
	unsigned bits = 0;
	const char *s = list;

	while (*s) {
		size_t n, k;
		int found = 0;

		s += strspn(s, ", \t");
		n = strcspn(s, ", \t");
		if (n == 0)
			break;
		for (k = 0; k < sizeof launchers / sizeof launchers[0]; k++)
			if (strlen(launchers[k].name) == n &&
			    memcmp(s, launchers[k].name, n) == 0) {
				bits |= launchers[k].bit;
				found = 1;
			}
		if (!found)
			return -1;
		s += n;
	}
	if (bits == 0)
		return -1;
	p->launchers = bits;
	return 0;
}

/* The whole walk, shared by both checks; c->pin holds the pin finding. */
static enum guard_verdict
guard_walk(struct ctx *c, struct guard_policy *def,
    const struct guard_policy *policy, const char *const *argv, size_t argc,
    struct guard_result *res)
{
	const char *a0;
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
		return deny_plain(c, GUARD_BAD_ARGV, 0, "empty command line");
	if (argc > GUARD_ARGC_MAX)
		return deny_plain(c, GUARD_BAD_ARGV, GUARD_ARGC_MAX,
		    "more than 256 arguments");
	for (k = 0; k < argc; k++) {
		if (!argv[k])
			return deny_plain(c, GUARD_BAD_ARGV, k,
			    "missing argument");
		if (strnlen(argv[k], GUARD_ARG_MAX + 1) > GUARD_ARG_MAX)
			return deny_plain(c, GUARD_BAD_ARGV, k,
			    "argument longer than 4096 bytes");
	}
	a0 = argv[0];
	if (a0[0] == '\0')
		return deny_plain(c, GUARD_BAD_LAUNCHER, 0, "empty launcher");
	if (strchr(a0, '/'))
		return deny(c, GUARD_BAD_LAUNCHER, 0, "launcher",
		    "give a bare name: the runner resolves it on its own PATH");
	for (k = 0; k < sizeof launchers / sizeof launchers[0]; k++) {
		if (!streq(a0, launchers[k].name))
			continue;
		if (!(policy->launchers & launchers[k].bit))
			return deny(c, GUARD_BAD_LAUNCHER, 0, "launcher",
			    "not on this runner's allowlist");
		return check_kind(c, 0, launchers[k].kind);
	}
	return deny(c, GUARD_BAD_LAUNCHER, 0, "launcher",
	    "not a launcher the guard understands");
}

enum guard_verdict
guard_check(const struct guard_policy *policy, const char *const *argv,
    size_t argc, struct guard_result *res)
{
	struct guard_policy def;
	struct ctx c;

	return guard_walk(&c, &def, policy, argv, argc, res);
}

enum guard_verdict
guard_check_pinned(const struct guard_policy *policy,
    const char *const *argv, size_t argc, struct guard_result *res)
{
	struct guard_policy def;
	struct ctx c;
	enum guard_verdict v = guard_walk(&c, &def, policy, argv, argc, res);

	if (v != GUARD_OK || c.pin == GUARD_OK)
		return v;
	return deny(&c, c.pin, c.pin_index, c.pin_who, c.pin_why);
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
		plain &= is_alnum(ch) || (ch != '\0' &&
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
