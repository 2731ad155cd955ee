/* guard_command.c - which grammar checks a command word, and the
 * dispatch into it. A command word is where one launcher hands argv to
 * another program (npx's package bin, uvx's tool, uv run's command), so
 * each is checked again with the rules of what it names. */
#include "common/policy/guard_command.h"

#include "common/policy/guard_lex.h"
#include "common/policy/guard_node.h"
#include "common/policy/guard_npx.h"
#include "common/policy/guard_python.h"
#include "common/policy/guard_tsnode.h"
#include "common/policy/guard_uv.h"

/* Shells, interpreters and programs that run a command or code given as
 * their arguments. A second layer only: the runner gives a command word a
 * PATH on which no host program resolves (guard_result.path_lookup), so
 * these names matter where a package itself ships such a bin (a
 * dependency's cross-env, npm's own node-gyp), and npx's package names
 * whose single bin is not named after them (@babel/node's babel-node).
 * Compared ignoring case. */
static const char *const denied_commands[] = {
	"@babel/node", "ash", "austin", "ava", "awk", "babel-node",
	"babel-node-repl", "bash", "bpython", "bun", "bunx", "busybox", "c8",
	"chokidar", "chroot", "chrt", "coffee", "concurrently", "conda",
	"corepack", "coverage", "cross-env", "cross-env-shell", "csh", "dash",
	"deno", "doas", "dotenv", "dotenv-cli", "ed", "emacs", "env", "env-cmd",
	"esno", "esrun", "eval", "ex", "exec", "expect", "find", "fish",
	"flock", "forever", "gawk", "gdb", "git", "hatch", "honcho", "hy",
	"invoke", "ionice", "ipython", "java", "jest", "jiti", "jrunscript",
	"jshell", "jupyter", "jupyter-console", "jupyter-lab",
	"jupyter-notebook", "ksh", "lerna", "less", "ltrace", "lua", "luajit",
	"make", "mamba", "man", "mawk", "memray", "micromamba", "mksh", "mocha",
	"more", "nano", "nawk", "nice", "node-dev", "node-gyp", "nodemon",
	"nohup", "nox", "npm", "npm-run-all", "nsenter", "nx", "nyc",
	"onchange", "pdm", "perl", "php", "pip", "pip3", "pipenv", "pipx",
	"pm2", "pnpm", "pnpx", "poetry", "prlimit", "ptipython", "ptpython",
	"py-spy", "py.test", "pyinstrument", "pytest", "rbash", "ruby", "run-p",
	"run-s", "runuser", "scalene", "scp", "script", "setpriv", "setsid",
	"sh", "shx", "ssh", "stdbuf", "strace", "su", "sucrase-node", "sudo",
	"swc-node", "tap", "tape", "tar", "taskset", "tclsh", "tcsh", "time",
	"timeout", "tox", "toybox", "ts-node-dev", "tsc-watch", "tsnd",
	"unshare", "vi", "vim", "virtualenv", "vite-node", "vitest",
	"viztracer", "watch", "watchmedo", "wish", "xargs", "xonsh", "yarn",
	"yarnpkg", "zsh", "zx",
};

static const struct {
	const char *name;
	enum guard_kind kind;
} launcher_commands[] = {
	{ "node", KIND_NODE }, { "nodejs", KIND_NODE }, { "tsx", KIND_TSX },
	{ "ts-node", KIND_TSNODE }, { "ts-node-esm", KIND_TSNODE },
	{ "ts-node-script", KIND_TSNODE }, { "ts-node-cwd", KIND_TSNODE },
	{ "ts-node-transpile-only", KIND_TSNODE }, { "ts-script", KIND_TSNODE },
	{ "npx", KIND_NPX }, { "uvx", KIND_UVX }, { "uv", KIND_UV },
};

/* python, python3, python3.12, pypy3 ... (digits and dots after) */
static int
is_python_name(const char *name, size_t n)
{
	size_t i, base;

	if (n >= 6 && lex_name_is(name, 6, "python"))
		base = 6;
	else if (n >= 4 && lex_name_is(name, 4, "pypy"))
		base = 4;
	else
		return 0;
	for (i = base; i < n; i++)
		if (!lex_digit((unsigned char)name[i]) && name[i] != '.')
			return 0;
	return 1;
}

enum guard_kind
command_kind(const char *name, size_t n)
{
	size_t i;

	if (is_python_name(name, n))
		return KIND_PYTHON;
	for (i = 0; i < sizeof launcher_commands / sizeof launcher_commands[0];
	    i++)
		if (lex_name_is(name, n, launcher_commands[i].name))
			return launcher_commands[i].kind;
	for (i = 0; i < sizeof denied_commands / sizeof denied_commands[0]; i++)
		if (lex_name_is(name, n, denied_commands[i]))
			return KIND_DENY;
	return KIND_NONE;
}

/* Route the command word argv[j], whose program name is name[0..n). */
enum guard_verdict
command_check_named(struct guard_walk *c, size_t j, const char *name,
    size_t n, const char *who)
{
	enum guard_kind k = command_kind(name, n);

	if (k == KIND_DENY)
		return walk_deny(c, GUARD_FORBIDDEN_COMMAND, j, who,
		    "runs a shell, interpreter or command runner");
	if (k == KIND_NONE)
		return GUARD_OK;
	return command_launch(c, j, k);
}

/* Route the command word argv[j] (its name is the first n bytes). */
enum guard_verdict
command_check(struct guard_walk *c, size_t j, size_t n, const char *who)
{
	return command_check_named(c, j, c->argv[j], n, who);
}

enum guard_verdict
command_launch(struct guard_walk *c, size_t j, enum guard_kind k)
{
	enum guard_verdict r;

	if (c->depth >= GUARD_DEPTH_MAX)
		return walk_deny(c, GUARD_TOO_DEEP, j, "guard",
		    "launchers nested too deep");
	c->depth++;
	switch (k) {
	case KIND_NODE:
		r = node_check(c, j);
		break;
	case KIND_TSX:
		r = tsx_check(c, j);
		break;
	case KIND_TSNODE:
		r = tsnode_check(c, j);
		break;
	case KIND_PYTHON:
		r = python_check(c, j);
		break;
	case KIND_NPX:
		r = npx_check(c, j);
		break;
	case KIND_UVX:
		r = uv_check(c, j, 1);
		break;
	case KIND_UV:
		r = uv_check(c, j, 0);
		break;
	default:
		r = walk_deny(c, GUARD_FORBIDDEN_COMMAND, j, "guard",
		    "not a launcher");
		break;
	}
	c->depth--;
	return r;
}
