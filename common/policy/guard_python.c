/* guard_python.c - CPython's grammar. Read for it: CPython
 * Python/getopt.c (short options bundle, an option's argument is the rest
 * of the word or the next word whatever it looks like, -c and -m end
 * option parsing). */
#include "common/policy/guard_python.h"

#include <string.h>

#include "common/policy/guard_lex.h"

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

	if (v[n] == '=' && !lex_all_in(v + n + 1, "_") && v[n + 1] != '\0')
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
enum guard_verdict
python_module(struct guard_walk *c, size_t idx, const char *m,
    const char *who)
{
	size_t top = strcspn(m, "."), i;

	if (!lex_module_name(m))
		return walk_deny(c, GUARD_BAD_VALUE, idx, who,
		    "not a module name");
	for (i = 0; i < sizeof py_modules / sizeof py_modules[0]; i++)
		if (strlen(py_modules[i].name) == top &&
		    memcmp(m, py_modules[i].name, top) == 0)
			return walk_deny(c, py_modules[i].verdict, idx, who,
			    py_modules[i].why);
	for (i = 0; i < c->policy->nmodules; i++)
		if (lex_eq(m, c->policy->modules[i]))
			return GUARD_OK;
	return walk_deny(c, GUARD_BAD_VALUE, idx, who, "a module not named by "
	    "--allow-module (none is allowed by default)");
}

/* -W action[:message[:category[:module[:lineno]]]]: CPython imports a
 * dotted category's module, so only built-in categories (no '.'). */
static int
py_warn_ok(const char *v)
{
	const char *cat = strchr(v, ':');

	if (!lex_graph(v) || !cat || !(cat = strchr(cat + 1, ':')))
		return lex_graph(v);
	cat++;
	return memchr(cat, '.', strcspn(cat, ":")) == NULL;
}

enum guard_verdict
python_check(struct guard_walk *c, size_t i)
{
	const char *a;
	size_t j;

	for (j = i + 1; j < c->argc; j++) {
		size_t k;

		a = c->argv[j];
		if (a[0] != '-' || a[1] == '\0')
			break;
		if (lex_eq(a, "--")) {
			j++;
			break;
		}
		if (a[1] == '-')
			return walk_deny(c, GUARD_UNKNOWN_OPTION, j, "python",
			    "option not allowed");
		for (k = 1; a[k] != '\0'; k++) {
			char ch = a[k];
			const char *v;
			size_t vidx = j;

			if (strchr(py_flags, ch))
				continue;
			if (ch == 'c')
				return walk_deny(c, GUARD_INLINE_CODE, j,
				    "python", "-c runs code given on the "
				    "command line");
			if (ch == 'i')
				return walk_deny(c, GUARD_STDIN_PROGRAM, j,
				    "python", "-i starts a REPL on stdin");
			if (ch != 'W' && ch != 'X' && ch != 'm')
				return walk_deny(c, GUARD_UNKNOWN_OPTION, j,
				    "python", "option not allowed");
			/* the rest of this word, else the next word,
			 * whatever it looks like (CPython getopt) */
			if (a[k + 1] != '\0') {
				v = a + k + 1;
			} else if (j + 1 < c->argc) {
				v = c->argv[++j];
				vidx = j;
			} else {
				return walk_deny(c, GUARD_BAD_VALUE, j,
				    "python", "option needs a value");
			}
			if (ch == 'm')	/* the rest are the module's */
				return python_module(c, vidx, v, "python");
			if (ch == 'X' && !py_xopt_ok(v))
				return walk_deny(c, GUARD_BAD_VALUE, vidx,
				    "python", "-X option not allowed");
			if (ch == 'W' && !py_warn_ok(v))
				return walk_deny(c, GUARD_BAD_VALUE, vidx,
				    "python", "-W category must be a built-in "
				    "(it is imported)");
			break;
		}
	}
	if (j >= c->argc)
		return walk_deny(c, GUARD_STDIN_PROGRAM, i, "python",
		    "no script: python would read its program from stdin");
	return walk_script(c, j, c->argv[j], "python");
}
