/* envpolicy.c - the tenant env key policy and the child envp builder.
 * The forbidden table lists every variable whose value a launcher, an
 * interpreter, the C library, a shell, a build tool a package install
 * runs, or a common library executes as a command, loads as code or a
 * module, or takes as the source of packages: those are the keys that turn
 * "set an env var" into "run other code" (docs/GUARD.md lists them with
 * the same reasons). Read for it: node's and npm's docs (NODE_*, npm
 * config as npm_config_*), CPython's Doc/using/cmdline.rst and
 * webbrowser.py, pip's and uv's environment variable references, git's
 * git(1) ENVIRONMENT, ssh(1), less(1), glibc's ld.so(8) and unsecvars.h,
 * gcc's ENVIRONMENT, make(1), cargo's environment variables. */
#include "common/policy/envpolicy.h"

#include <stdio.h>
#include <string.h>

struct rule {
	const char *name;
	int prefix;		/* 1: every key starting with name */
	const char *why;
};

static const struct rule forbidden[] = {
	{ "PATH", 0, "set by the runner" },
	{ "HOME", 0, "set by the runner for each lease" },
	{ "TMPDIR", 0, "set by the jail" },
	{ "TMP", 0, "set by the jail" },
	{ "TEMP", 0, "set by the jail" },
	{ "AIRLOCK_", 1, "airlock's own control variables" },
	{ "LD_", 1, "read by the dynamic loader (preload, library path)" },
	{ "DYLD_", 1, "read by the dynamic loader" },
	{ "GLIBC_TUNABLES", 0, "read by the C library" },
	{ "GCONV_PATH", 0, "the C library loads modules from it" },
	{ "LOCPATH", 0, "the C library parses locale files from it" },
	{ "NLSPATH", 0, "the C library reads message catalogs from it" },
	{ "HOSTALIASES", 0, "the resolver reads a file from it" },
	{ "RESOLV_HOST_CONF", 0, "the resolver reads a file from it" },
	{ "MALLOC_", 1, "C library malloc settings (MALLOC_TRACE writes)" },
	{ "TZDIR", 0, "the C library reads time zone files from it" },
	{ "NODE_", 1, "read by node (NODE_OPTIONS, NODE_PATH, CA certs)" },
	{ "NODE", 0, "npm runs scripts with the node binary it names" },
	{ "NPM_EXECPATH", 0, "tools run it with node as npm itself" },
	{ "NPM_NODE_EXECPATH", 0, "tools run it as node" },
	{ "TS_NODE_", 1, "ts-node loads the compiler module it names" },
	{ "ESBUILD_BINARY_PATH", 0, "esbuild (tsx) runs the binary it names" },
	{ "TSX_", 1, "tsx reads another tsconfig (its paths redirect imports)" },
	{ "PREFIX", 0, "npm reads its global npmrc under it" },
	{ "NPM_CONFIG_", 1, "npm configuration (node-options, script-shell)" },
	{ "PYTHON", 1, "read by Python (PYTHONPATH, PYTHONSTARTUP, ...)" },
	{ "PIP_", 1, "pip configuration (index, trusted hosts)" },
	{ "UV_", 1, "uv configuration (index, interpreter, config file)" },
	{ "VIRTUAL_ENV", 0, "points uv at another Python environment" },
	{ "CONDA_PREFIX", 0, "points uv at another Python environment" },
	{ "XDG_", 1, "moves where uv and others read configuration" },
	{ "SHELL", 0, "chooses the shell commands run in" },
	{ "ENV", 0, "a file the shell runs at start-up" },
	{ "BASH_", 1, "read by bash (BASH_ENV runs a file)" },
	{ "BASHOPTS", 0, "changes how the shell runs commands" },
	{ "SHELLOPTS", 0, "changes how the shell runs commands" },
	{ "IFS", 0, "changes how the shell splits commands" },
	{ "CDPATH", 0, "changes how the shell resolves directories" },
	{ "GLOBIGNORE", 0, "changes how the shell expands words" },
	{ "PS4", 0, "expanded by the shell when tracing" },
	{ "PROMPT_COMMAND", 0, "run by the shell" },
	{ "GIT_", 1, "read by git (GIT_SSH_COMMAND runs a command)" },
	{ "SSH_ASKPASS", 0, "a program ssh runs" },
	{ "SSL_CERT_FILE", 0, "replaces the CAs that verify downloads" },
	{ "SSL_CERT_DIR", 0, "replaces the CAs that verify downloads" },
	{ "REQUESTS_CA_BUNDLE", 0, "replaces the CAs that verify downloads" },
	{ "CURL_CA_BUNDLE", 0, "replaces the CAs that verify downloads" },
	{ "JAVA_TOOL_OPTIONS", 0, "JVM options (agents)" },
	{ "_JAVA_OPTIONS", 0, "JVM options (agents)" },
	{ "JDK_JAVA_OPTIONS", 0, "JVM options (agents)" },
	{ "CLASSPATH", 0, "JVM class path" },
	{ "JAVA_OPTS", 0, "JVM options of launcher scripts (-XX:OnError)" },
	{ "MAVEN_OPTS", 0, "JVM options of mvn (-XX:OnError)" },
	{ "GRADLE_OPTS", 0, "JVM options of gradle (-XX:OnError)" },
	{ "LUA_INIT", 1, "lua runs the code it holds" },
	{ "PERL5OPT", 0, "perl options (preload)" },
	{ "PERL5LIB", 0, "perl module path" },
	{ "PERLLIB", 0, "perl module path" },
	{ "RUBYOPT", 0, "ruby options (preload)" },
	{ "RUBYLIB", 0, "ruby library path" },
	/* programs that libraries and tools run by name from the env */
	{ "BROWSER", 0, "python webbrowser, npm and xdg-open run it" },
	{ "EDITOR", 0, "git, npm edit and pagers run it" },
	{ "VISUAL", 0, "git, npm edit and pagers run it" },
	{ "PAGER", 0, "git, man, pydoc and psql run it" },
	{ "MANPAGER", 0, "man runs it" },
	{ "MANOPT", 0, "man options (--pager, --preprocessor)" },
	{ "LESSOPEN", 0, "less runs it as an input filter" },
	{ "LESSCLOSE", 0, "less runs it after a file" },
	{ "LESS", 0, "less options (key files, shell escapes)" },
	{ "LESSKEY", 0, "less reads key bindings from it" },
	{ "LESSKEYIN", 0, "less reads key bindings from it" },
	{ "LESSKEY_CONTENT", 0, "less key bindings" },
	{ "LESSEDIT", 0, "less runs it as the editor" },
	{ "SSH_ASKPASS_REQUIRE", 0, "makes ssh run SSH_ASKPASS" },
	{ "SUDO_ASKPASS", 0, "a program sudo runs" },
	{ "SUDO_EDITOR", 0, "a program sudoedit runs" },
	{ "PSQL_PAGER", 0, "psql runs it" },
	{ "PSQL_EDITOR", 0, "psql runs it" },
	{ "PSQLRC", 0, "psql runs the commands in it (\\! runs a shell)" },
	{ "VIMINIT", 0, "vim runs it as Ex commands" },
	{ "EXINIT", 0, "ex and vi run it as commands" },
	{ "MYVIMRC", 0, "vim runs the file" },
	{ "MAILCAPS", 0, "mailcap entries are commands (python mailcap)" },
	{ "PUPPETEER_EXECUTABLE_PATH", 0, "puppeteer runs it as the browser" },
	{ "CHROME_PATH", 0, "chrome-launcher runs it as the browser" },
	{ "GETCONF_DIR", 0, "glibc getconf runs programs from it" },
	/* python beyond PYTHON* */
	{ "_PYTHON", 1, "Python imports _PYTHON_SYSCONFIGDATA_NAME's module" },
	{ "PYENV_", 1, "pyenv shims run hooks and versions it names" },
	{ "PYTEST_", 1, "pytest loads plugins named in it" },
	{ "COVERAGE_PROCESS_START", 0, "coverage's .pth hook runs it" },
	/* package sources and package-manager runtimes */
	{ "COREPACK_", 1, "corepack's registry and package manager" },
	{ "YARN_", 1, "yarn configuration (registry, scripts)" },
	{ "PNPM_", 1, "pnpm configuration" },
	{ "OPENSSL_", 1, "OpenSSL loads config, engines and providers" },
	/* build tools an npm or pip install runs (node-gyp, sdists) */
	{ "CC", 0, "the C compiler a package build runs" },
	{ "CXX", 0, "the C++ compiler a package build runs" },
	{ "CPP", 0, "the preprocessor a package build runs" },
	{ "LD", 0, "the linker a package build runs" },
	{ "AR", 0, "a program a package build runs" },
	{ "AS", 0, "a program a package build runs" },
	{ "CFLAGS", 0, "compiler flags (-wrapper, -fplugin run code)" },
	{ "CXXFLAGS", 0, "compiler flags (-wrapper, -fplugin run code)" },
	{ "CPPFLAGS", 0, "compiler flags (-wrapper, -fplugin run code)" },
	{ "LDFLAGS", 0, "linker flags (plugins run code)" },
	{ "MAKE", 0, "the make a package build runs" },
	{ "MAKEFLAGS", 0, "make options (--eval runs commands)" },
	{ "MFLAGS", 0, "make options" },
	{ "GNUMAKEFLAGS", 0, "make options" },
	{ "GCC_EXEC_PREFIX", 0, "gcc runs its passes from it" },
	{ "COMPILER_PATH", 0, "gcc runs its passes from it" },
	{ "CCACHE_", 1, "ccache settings (CCACHE_PREFIX runs a command)" },
	{ "DISTCC_", 1, "distcc settings" },
	{ "GYP_", 1, "node-gyp's gyp settings" },
	{ "CARGO_", 1, "cargo settings (wrappers, config)" },
	{ "RUSTC", 0, "the compiler a package build runs" },
	{ "RUSTC_WRAPPER", 0, "a program cargo runs" },
	{ "RUSTC_WORKSPACE_WRAPPER", 0, "a program cargo runs" },
	{ "RUSTFLAGS", 0, "compiler flags (linker choice runs programs)" },
	{ "JDK_JAVAC_OPTIONS", 0, "javac options (annotation processors)" },
	{ "PERL5DB", 0, "perl runs it as the debugger" },
	/* shells beyond the above */
	{ "PS0", 0, "expanded by the shell (command substitution)" },
	{ "PS1", 0, "expanded by the shell (command substitution)" },
	{ "PS2", 0, "expanded by the shell (command substitution)" },
	{ "PS3", 0, "expanded by the shell (command substitution)" },
	{ "ZDOTDIR", 0, "zsh runs start-up files from it" },
	{ "FPATH", 0, "shells load functions from it" },
	/* the C library, the resolver and terminal libraries */
	{ "RES_OPTIONS", 0, "changes how the resolver queries" },
	{ "LOCALDOMAIN", 0, "changes how the resolver completes names" },
	{ "TERMINFO", 0, "curses parses terminal files from it" },
	{ "TERMINFO_DIRS", 0, "curses parses terminal files from it" },
	{ "TERMCAP", 0, "curses parses a terminal entry from it" },
	{ "MEMUSAGE_", 1, "glibc's memusage hooks" },
	{ "SEGFAULT_", 1, "glibc's libSegFault settings" },
	{ "GTK_MODULES", 0, "GTK loads modules named in it" },
	{ "GTK_PATH", 0, "GTK loads modules from it" },
	{ "GIO_EXTRA_MODULES", 0, "GIO loads modules from it" },
	{ "QT_PLUGIN_PATH", 0, "Qt loads plugins from it" },
	{ "GST_PLUGIN_PATH", 0, "GStreamer loads plugins from it" },
};

/* Harmless keys inside a forbidden prefix. */
static const char *const exceptions[] = {
	"NODE_ENV", "NODE_NO_WARNINGS",
	"PYTHONUNBUFFERED", "PYTHONIOENCODING", "PYTHONDONTWRITEBYTECODE",
	"PYTHONUTF8",
	"UV_NO_PROGRESS", "UV_HTTP_TIMEOUT", "UV_THREADPOOL_SIZE",
};

static const char *const verdict_names[ENV_VERDICT_COUNT] = {
	"ok", "bad_key", "bad_value", "forbidden", "duplicate", "too_many",
	"too_big", "no_space", "bad_base",
};

const char *
envpolicy_verdict_name(enum env_verdict v)
{
	if ((unsigned)v >= ENV_VERDICT_COUNT)
		return "unknown";
	return verdict_names[v];
}

static int
upper(int ch)
{
	return ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch;
}

/* key[0..len) starts with (or, exact, equals) the upper-case word w,
 * ignoring ASCII case. */
static int
key_matches(const char *key, size_t len, const char *w, int prefix)
{
	size_t n = strlen(w), i;

	if (len < n || (!prefix && len != n))
		return 0;
	for (i = 0; i < n; i++)
		if (upper((unsigned char)key[i]) != w[i])
			return 0;
	return 1;
}

enum env_verdict
envpolicy_check_key(const char *key, size_t len, const char **why)
{
	size_t i;

	if (why)
		*why = NULL;
	if (!key || len == 0 || len > ENV_KEY_MAX)
		return ENV_BAD_KEY;
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)key[i];

		if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		    ch == '_' || (i > 0 && ch >= '0' && ch <= '9')))
			return ENV_BAD_KEY;
	}
	for (i = 0; i < sizeof exceptions / sizeof exceptions[0]; i++)
		if (key_matches(key, len, exceptions[i], 0))
			return ENV_OK;
	for (i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++) {
		if (key_matches(key, len, forbidden[i].name,
		    forbidden[i].prefix)) {
			if (why)
				*why = forbidden[i].why;
			return ENV_FORBIDDEN;
		}
	}
	return ENV_OK;
}

/* Quote n bytes of s (not NUL-terminated) into dst, escaped like the log:
 * \xNN for anything that is not printable ASCII, cut with "...". */
static const char *
quote_n(char *dst, size_t cap, const char *s, size_t n, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, i;

	for (i = 0; s && i < n && i < max && o + 5 < cap; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch >= 0x20 && ch < 0x7f && ch != '\'' && ch != '\\') {
			dst[o++] = (char)ch;
		} else {
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[ch >> 4];
			dst[o++] = hex[ch & 15];
		}
	}
	if (i < n && o + 4 <= cap) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
	return dst;
}

static enum env_verdict
refuse(struct env_result *res, enum env_verdict v, size_t idx,
    const struct env_entry *e, const char *why)
{
	char q[100];	/* with "%.80s: ''" it always fits the reason */

	res->verdict = v;
	res->index = idx;
	if (e)
		snprintf(res->reason, sizeof res->reason, "%.80s: '%s'", why,
		    quote_n(q, sizeof q, e->key, e->key_len, ENV_KEY_MAX));
	else
		snprintf(res->reason, sizeof res->reason, "%s", why);
	return v;
}

/* Values the C library would treat as file paths: glibc takes an
 * absolute path as a locale name and TZ=/file or TZ=:/file as a zone file,
 * so those keys get names only (TZ=Europe/Berlin is still a name). */
static const char *
value_refusal(const struct env_entry *e)
{
	size_t i;

	if (key_matches(e->key, e->key_len, "LANG", 0) ||
	    key_matches(e->key, e->key_len, "LANGUAGE", 0) ||
	    key_matches(e->key, e->key_len, "LC_", 1)) {
		for (i = 0; i < e->value_len; i++) {
			unsigned char ch = (unsigned char)e->value[i];

			if (!((ch >= 'A' && ch <= 'Z') ||
			    (ch >= 'a' && ch <= 'z') ||
			    (ch >= '0' && ch <= '9') || strchr("_.@:+-=,", ch)))
				return "locale value must be a locale name";
		}
	}
	if (key_matches(e->key, e->key_len, "TZ", 0)) {
		for (i = 0; i + 1 < e->value_len; i++)
			if (e->value[i] == '.' && e->value[i + 1] == '.')
				return "TZ value must be a zone name";
		if (e->value_len > 0 && (e->value[0] == '/' ||
		    (e->value[0] == ':' && e->value_len > 1 &&
		    e->value[1] == '/')))
			return "TZ value must be a zone name";
	}
	return NULL;
}

static enum env_verdict
check_entry(const struct env_entry *map, size_t i, struct env_result *res)
{
	const struct env_entry *e = &map[i];
	char text[ENV_REASON_MAX];
	const char *rule, *why;
	size_t k;

	switch (envpolicy_check_key(e->key, e->key_len, &rule)) {
	case ENV_BAD_KEY:
		return refuse(res, ENV_BAD_KEY, i, e,
		    "env key must be 1-128 bytes of [A-Za-z_][A-Za-z0-9_]*");
	case ENV_FORBIDDEN:
		snprintf(text, sizeof text, "forbidden env key (%s)", rule);
		return refuse(res, ENV_FORBIDDEN, i, e, text);
	default:
		break;
	}
	if (e->value_len > ENV_VALUE_MAX)
		return refuse(res, ENV_BAD_VALUE, i, e,
		    "env value longer than 32 KiB");
	if (e->value_len > 0 && (!e->value ||
	    memchr(e->value, '\0', e->value_len)))
		return refuse(res, ENV_BAD_VALUE, i, e,
		    "env value contains a NUL byte");
	if ((why = value_refusal(e)))
		return refuse(res, ENV_BAD_VALUE, i, e, why);
	for (k = 0; k < i; k++)
		if (map[k].key_len == e->key_len &&
		    memcmp(map[k].key, e->key, e->key_len) == 0)
			return refuse(res, ENV_DUPLICATE, i, e,
			    "env key given twice");
	return ENV_OK;
}

enum env_verdict
envpolicy_check(const struct env_entry *map, size_t n,
    struct env_result *res)
{
	size_t i, total = 0;
	enum env_verdict v;

	res->verdict = ENV_OK;
	res->index = 0;
	res->envc = 0;
	snprintf(res->reason, sizeof res->reason, "ok");
	if (n > ENV_COUNT_MAX)
		return refuse(res, ENV_TOO_MANY, ENV_COUNT_MAX, NULL,
		    "more than 256 env entries");
	if (n > 0 && !map)
		return refuse(res, ENV_BAD_KEY, 0, NULL, "missing env map");
	for (i = 0; i < n; i++) {
		if ((v = check_entry(map, i, res)) != ENV_OK)
			return v;
		/* each term is capped above, so the sum cannot wrap */
		total += map[i].key_len + map[i].value_len + 2;
		if (total > ENV_TOTAL_MAX)
			return refuse(res, ENV_TOO_BIG, i, &map[i],
			    "env map larger than 256 KiB in all");
	}
	return ENV_OK;
}

struct out {
	char **envp;
	size_t envp_cap, envc;
	char *buf;
	size_t buf_cap, off;	/* invariant: off <= buf_cap */
};

/* Append "key=value"; -1 when either buffer is full (one envp slot is
 * always kept for the terminating NULL). */
static int
out_put(struct out *o, const char *k, size_t kl, const char *v, size_t vl)
{
	size_t need = kl + vl + 2;
	char *s;

	if (o->envc + 1 >= o->envp_cap || need > o->buf_cap - o->off)
		return -1;
	s = o->buf + o->off;
	memcpy(s, k, kl);
	s[kl] = '=';
	if (vl)
		memcpy(s + kl + 1, v, vl);
	s[kl + 1 + vl] = '\0';
	o->envp[o->envc++] = s;
	o->off += need;
	return 0;
}

/* Length of a base value, or 0 when it is missing, empty or too long. */
static size_t
base_len(const char *v)
{
	size_t n;

	if (!v)
		return 0;
	n = strnlen(v, ENV_BASE_VALUE_MAX + 1);
	return n > ENV_BASE_VALUE_MAX ? 0 : n;
}

enum env_verdict
envpolicy_build(const struct env_base *base, const struct env_entry *map,
    size_t n, char **envp, size_t envp_cap, char *buf, size_t buf_cap,
    struct env_result *res)
{
	struct out o = { envp, envp_cap, 0, buf, buf_cap, 0 };
	size_t i, path_len, home_len;
	int lang_in_map = 0, full = 0;
	enum env_verdict v;

	if ((v = envpolicy_check(map, n, res)) != ENV_OK)
		goto fail;
	if (!base || !(path_len = base_len(base->path)) ||
	    !(home_len = base_len(base->home)) ||
	    (base->lang && !base_len(base->lang)) ||
	    (base->tmpdir && !base_len(base->tmpdir))) {
		v = refuse(res, ENV_BAD_BASE, 0, NULL, "runner base env needs "
		    "PATH and HOME, each value 1-4096 bytes");
		goto fail;
	}
	if (!envp || !buf) {
		v = refuse(res, ENV_NO_SPACE, 0, NULL, "no storage for envp");
		goto fail;
	}
	for (i = 0; i < n; i++)
		if (map[i].key_len == 4 && memcmp(map[i].key, "LANG", 4) == 0)
			lang_in_map = 1;
	full |= out_put(&o, "PATH", 4, base->path, path_len);
	full |= out_put(&o, "HOME", 4, base->home, home_len);
	if (base->lang && !lang_in_map)
		full |= out_put(&o, "LANG", 4, base->lang,
		    base_len(base->lang));
	if (base->tmpdir)
		full |= out_put(&o, "TMPDIR", 6, base->tmpdir,
		    base_len(base->tmpdir));
	for (i = 0; i < n && !full; i++)
		full |= out_put(&o, map[i].key, map[i].key_len, map[i].value,
		    map[i].value_len);
	if (full) {
		v = refuse(res, ENV_NO_SPACE, 0, NULL,
		    "env storage too small for this map");
		goto fail;
	}
	envp[o.envc] = NULL;
	res->envc = o.envc;
	return ENV_OK;
fail:
	if (envp && envp_cap > 0)
		envp[0] = NULL;
	res->envc = 0;
	return v;
}
