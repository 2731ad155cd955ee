/* envpolicy_test.c - forbidden keys and prefixes in every case, key and
 * value validity, caps, duplicates, and the base layering of the builder. */
#include <stdio.h>
#include <string.h>

#include "common/policy/envpolicy.h"
#include "tap.h"

/* One key per row of the forbidden table, plus members of each prefix. */
static const char *const forbidden_keys[] = {
	"PATH", "HOME", "TMPDIR", "TMP", "TEMP", "AIRLOCK_SECRET",
	"AIRLOCK_RUNNER", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT",
	"DYLD_INSERT_LIBRARIES", "GLIBC_TUNABLES", "GCONV_PATH", "LOCPATH",
	"NLSPATH", "HOSTALIASES", "RESOLV_HOST_CONF", "MALLOC_TRACE",
	"MALLOC_CHECK_", "NODE_OPTIONS", "NODE_PATH", "NODE_EXTRA_CA_CERTS",
	"NODE_TLS_REJECT_UNAUTHORIZED", "NODE_REPL_EXTERNAL_MODULE",
	"npm_config_node_options", "NPM_CONFIG_SCRIPT_SHELL",
	"npm_config_userconfig", "Npm_Config_registry", "PYTHONPATH",
	"PYTHONHOME", "PYTHONSTARTUP", "PYTHONINSPECT", "PYTHONUSERBASE",
	"PYTHONBREAKPOINT", "PYTHONWARNINGS", "PIP_INDEX_URL", "UV_INDEX_URL",
	"UV_PYTHON", "UV_CONFIG_FILE", "UV_INSECURE_HOST", "VIRTUAL_ENV",
	"CONDA_PREFIX", "XDG_CONFIG_HOME", "SHELL", "ENV", "BASH_ENV",
	"BASH_FUNC_x", "BASHOPTS", "SHELLOPTS", "IFS", "CDPATH", "GLOBIGNORE",
	"PS4", "PROMPT_COMMAND", "GIT_SSH_COMMAND", "GIT_CONFIG_GLOBAL",
	"SSH_ASKPASS", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE",
	"CURL_CA_BUNDLE", "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES",
	"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH",
	"PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB", "TZDIR",
	"NODE", "PREFIX", "node", "prefix",
	/* issue 13: values that are code, and package sources */
	"BROWSER", "EDITOR", "VISUAL", "PAGER", "MANPAGER", "MANOPT",
	"LESSOPEN", "LESSCLOSE", "LESS", "LESSKEY", "LESSKEYIN",
	"LESSKEY_CONTENT", "LESSEDIT", "SSH_ASKPASS_REQUIRE", "SUDO_ASKPASS",
	"SUDO_EDITOR", "PSQL_PAGER", "PSQL_EDITOR", "PSQLRC", "VIMINIT",
	"EXINIT", "MYVIMRC", "MAILCAPS", "PUPPETEER_EXECUTABLE_PATH",
	"CHROME_PATH", "GETCONF_DIR", "_PYTHON_SYSCONFIGDATA_NAME",
	"PYENV_VERSION", "PYENV_HOOK_PATH", "PYTEST_PLUGINS",
	"PYTEST_ADDOPTS", "COVERAGE_PROCESS_START", "COREPACK_NPM_REGISTRY",
	"YARN_REGISTRY", "PNPM_HOME", "OPENSSL_ia32cap",
	"OPENSSL_CONF_INCLUDE", "CC", "CXX", "CPP", "LD", "AR", "AS",
	"CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "MAKE", "MAKEFLAGS",
	"MFLAGS", "GNUMAKEFLAGS", "GCC_EXEC_PREFIX", "COMPILER_PATH",
	"CCACHE_PREFIX", "DISTCC_HOSTS", "GYP_DEFINES", "CARGO_HOME",
	"CARGO_BUILD_RUSTC_WRAPPER", "RUSTC", "RUSTC_WRAPPER",
	"RUSTC_WORKSPACE_WRAPPER", "RUSTFLAGS", "JDK_JAVAC_OPTIONS",
	"PERL5DB", "PS0", "PS1", "PS2", "PS3", "ZDOTDIR", "FPATH",
	"RES_OPTIONS", "LOCALDOMAIN", "TERMINFO", "TERMINFO_DIRS", "TERMCAP",
	"MEMUSAGE_OUTPUT", "SEGFAULT_SIGNALS", "GTK_MODULES", "GTK_PATH",
	"GIO_EXTRA_MODULES", "QT_PLUGIN_PATH", "GST_PLUGIN_PATH",
	"GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "GIT_ASKPASS", "GIT_PAGER",
	"GIT_EDITOR", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND",
	"npm_config_script_shell", "npm_config_ignore_scripts",
	"npm_config_node_options", "npm_config_globalconfig",
	"UV_EXTRA_INDEX_URL", "UV_FIND_LINKS", "UV_DEFAULT_INDEX",
	"UV_INDEX", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CONFIG_FILE",
	"PIP_TRUSTED_HOST", "browser", "Editor", "cflags", "makeflags",
	/* review: JVM options of launcher scripts, code in lua's env, the
	 * programs and modules node tools run from the env */
	"JAVA_OPTS", "java_opts", "MAVEN_OPTS", "GRADLE_OPTS", "LUA_INIT",
	"LUA_INIT_5_4", "npm_execpath", "npm_node_execpath",
	"TS_NODE_COMPILER", "ts_node_transpiler", "ESBUILD_BINARY_PATH",
	"TSX_TSCONFIG_PATH", "tsx_tsconfig_path",
	/* case variants */
	"path", "Path", "ld_preload", "Ld_Preload", "node_options",
	"Node_Options", "pythonpath", "uv_index_url", "airlock_x", "bash_env",
	"tmpdir", "home",
};

static const char *const allowed_keys[] = {
	"FOO", "_x", "a1", "_", "NODE_ENV", "node_env", "NODE_NO_WARNINGS",
	"PYTHONUNBUFFERED", "PYTHONIOENCODING", "PYTHONDONTWRITEBYTECODE",
	"PYTHONUTF8", "pythonutf8", "UV_NO_PROGRESS", "UV_HTTP_TIMEOUT", "LANG",
	"LC_ALL", "LANGUAGE", "TZ", "HTTP_PROXY", "http_proxy", "NO_PROXY",
	"NPM_TOKEN", "GITHUB_TOKEN", "OPENAI_API_KEY", "PATHX", "HOMEPAGE",
	"ENVIRONMENT", "TEMPLATE", "SHELLX", "IFS_X", "NODEX", "UVX",
	"PYTHO", "LDAP_URL", "GITLAB_TOKEN", "UV_THREADPOOL_SIZE", "NODEJS",
	"PREFIXES", "TZ", "BROWSERS", "EDITORS", "PAGERS", "CCX", "CC_X",
	"LDAP", "ASX", "MAKER", "PS5", "PSQL_HOST", "RUST_LOG",
	"TERM", "DISPLAY", "LESSSECURE_X", "CHROME_PATHS",
	"JAVA_OPTSX", "LUA_PATHX", "npm_execpathx", "TS_NODE", "ESBUILD",
	"TSX", "TSXY",
};

static const char *const bad_keys[] = {
	"1A", "A-B", "A=B", "A B", "\xc3\xa9", "A.B", "$A", "A\n",
};

static struct env_entry
kv(const char *k, const char *v)
{
	struct env_entry e = { k, strlen(k), v, strlen(v) };

	return e;
}

static int
printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return 0;
	return 1;
}

static void
test_keys(void)
{
	const char *why;
	char k[ENV_KEY_MAX + 2];
	size_t i;

	for (i = 0; i < sizeof forbidden_keys / sizeof forbidden_keys[0];
	    i++) {
		why = NULL;
		ok(envpolicy_check_key(forbidden_keys[i],
		    strlen(forbidden_keys[i]), &why) == ENV_FORBIDDEN &&
		    why != NULL && *why != '\0',
		    "forbidden: %s (%s)", forbidden_keys[i], why ? why : "-");
	}
	for (i = 0; i < sizeof allowed_keys / sizeof allowed_keys[0]; i++)
		ok(envpolicy_check_key(allowed_keys[i], strlen(allowed_keys[i]),
		    &why) == ENV_OK && why == NULL,
		    "allowed: %s", allowed_keys[i]);
	for (i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++)
		ok(envpolicy_check_key(bad_keys[i], strlen(bad_keys[i]),
		    NULL) == ENV_BAD_KEY, "bad key %zu refused", i);
	ok(envpolicy_check_key("", 0, NULL) == ENV_BAD_KEY &&
	    envpolicy_check_key(NULL, 3, NULL) == ENV_BAD_KEY,
	    "empty and NULL keys refused");
	ok(envpolicy_check_key("AB\0C", 4, NULL) == ENV_BAD_KEY,
	    "a key with a NUL byte refused");
	ok(envpolicy_check_key("PATHX", 4, NULL) == ENV_FORBIDDEN,
	    "the length, not the terminator, bounds the key");
	memset(k, 'K', sizeof k);
	ok(envpolicy_check_key(k, ENV_KEY_MAX, NULL) == ENV_OK,
	    "a 128-byte key is fine");
	ok(envpolicy_check_key(k, ENV_KEY_MAX + 1, NULL) == ENV_BAD_KEY,
	    "a 129-byte key is refused");
	ok(envpolicy_check_key("NODE_ENVX", 9, NULL) == ENV_FORBIDDEN &&
	    envpolicy_check_key("PYTHONUTF8X", 11, NULL) == ENV_FORBIDDEN &&
	    envpolicy_check_key("UV_NO_PROGRESS_", 15, NULL) == ENV_FORBIDDEN,
	    "exceptions are exact, not prefixes");
}

/* Sets of keys (and values) checked for duplicates; a refusal names the
 * last key, at its index. */
struct dup_case {
	const char *kv[3][2];
	size_t n;
	enum env_verdict want;
	const char *what;
};

static const struct dup_case dups[] = {
	{ { { "HTTP_PROXY", "x" }, { "http_proxy", "x" } }, 2, ENV_OK,
	  "keys differing in case are distinct" },
	{ { { "HTTP_PROXY", "x" }, { "http_proxy", "x" },
	    { "HTTP_PROXY", "y" } }, 3, ENV_DUPLICATE,
	  "an exact duplicate is refused at its second index" },
	{ { { "FOO", "x" }, { "FOOBAR", "x" }, { "FO", "x" } }, 3, ENV_OK,
	  "prefixes of each other are not duplicates" },
};

static void
test_check(void)
{
	static char big[ENV_VALUE_MAX + 2];
	static struct env_entry many[ENV_COUNT_MAX + 1];
	static char names[ENV_COUNT_MAX + 1][8];
	struct env_entry m[4];
	struct env_result res;
	size_t i;

	ok(envpolicy_check(NULL, 0, &res) == ENV_OK && res.verdict == ENV_OK,
	    "an empty map is fine");
	m[0] = kv("FOO", "1");
	m[1] = kv("LD_PRELOAD", "/x.so");
	m[2] = kv("1BAD", "x");
	ok(envpolicy_check(m, 3, &res) == ENV_FORBIDDEN && res.index == 1 &&
	    strstr(res.reason, "'LD_PRELOAD'") != NULL &&
	    strstr(res.reason, "loader") != NULL && printable(res.reason),
	    "the first failure names the key and why: %s", res.reason);
	m[0] = kv("A\nB", "x");
	ok(envpolicy_check(m, 1, &res) == ENV_BAD_KEY && res.index == 0 &&
	    strstr(res.reason, "A\\x0aB") != NULL && printable(res.reason),
	    "a bad key is escaped in the reason: %s", res.reason);
	m[0] = kv("FOO", "a");
	m[0].value = "a\0b";
	m[0].value_len = 3;
	ok(envpolicy_check(m, 1, &res) == ENV_BAD_VALUE && res.index == 0,
	    "a NUL inside a value is refused");
	m[0] = kv("FOO", "");
	ok(envpolicy_check(m, 1, &res) == ENV_OK, "an empty value is fine");
	m[0].value = NULL;
	m[0].value_len = 1;
	ok(envpolicy_check(m, 1, &res) == ENV_BAD_VALUE,
	    "a NULL value with a length is refused");
	memset(big, 'v', sizeof big);
	m[0] = kv("FOO", "");
	m[0].value = big;
	m[0].value_len = ENV_VALUE_MAX;
	ok(envpolicy_check(m, 1, &res) == ENV_OK, "a 32 KiB value is fine");
	m[0].value_len = ENV_VALUE_MAX + 1;
	ok(envpolicy_check(m, 1, &res) == ENV_BAD_VALUE,
	    "a value over 32 KiB is refused");
	{
		static const struct { const char *k, *v; int good; } vals[] = {
			{ "LANG", "de_DE.UTF-8", 1 }, { "LC_ALL", "C", 1 },
			{ "LANGUAGE", "de:en", 1 }, { "LC_ALL", "", 1 },
			{ "LANG", "sr_RS@latin", 1 },
			{ "TZ", "Europe/Berlin", 1 },
			{ "TZ", ":Europe/Berlin", 1 }, { "TZ", "UTC0", 1 },
			{ "LANG", "/tmp/x", 0 }, { "LC_CTYPE", "../../x", 0 },
			{ "lc_all", "/x", 0 }, { "LANGUAGE", "de /x", 0 },
			{ "TZ", "/tmp/zone", 0 }, { "TZ", ":/tmp/zone", 0 },
			{ "TZ", "../../tmp/zone", 0 },
		};

		for (i = 0; i < sizeof vals / sizeof vals[0]; i++) {
			m[0] = kv(vals[i].k, vals[i].v);
			ok(envpolicy_check(m, 1, &res) == (vals[i].good ?
			    ENV_OK : ENV_BAD_VALUE), "%s=%s %s", vals[i].k,
			    vals[i].v, vals[i].good ? "is a name" :
			    "is a path, refused");
		}
	}
	for (i = 0; i < sizeof dups / sizeof dups[0]; i++) {
		const struct dup_case *c = &dups[i];

		for (size_t j = 0; j < c->n; j++)
			m[j] = kv(c->kv[j][0], c->kv[j][1]);
		ok(envpolicy_check(m, c->n, &res) == c->want &&
		    (c->want == ENV_OK || (res.index == c->n - 1 &&
		    strstr(res.reason, c->kv[c->n - 1][0]) != NULL)),
		    "%s", c->what);
	}

	for (i = 0; i <= ENV_COUNT_MAX; i++) {
		snprintf(names[i], sizeof names[i], "K%03zu", i);
		many[i] = kv(names[i], "v");
	}
	ok(envpolicy_check(many, ENV_COUNT_MAX, &res) == ENV_OK,
	    "256 entries are fine");
	ok(envpolicy_check(many, ENV_COUNT_MAX + 1, &res) == ENV_TOO_MANY &&
	    res.index == ENV_COUNT_MAX, "257 entries are refused");
	/* 4-byte key + value + '=' + NUL: 8 of 32 KiB each exceed 256 KiB */
	for (i = 0; i < 9; i++) {
		many[i].value = big;
		many[i].value_len = ENV_VALUE_MAX;
	}
	ok(envpolicy_check(many, 7, &res) == ENV_OK,
	    "seven 32 KiB values fit");
	ok(envpolicy_check(many, 9, &res) == ENV_TOO_BIG && res.index == 7,
	    "the entry that passes 256 KiB in all is refused");
}

/* Index of "KEY=" in envp, or -1; counts matches in *count. */
static int
find(char **envp, const char *key, int *count)
{
	size_t n = strlen(key);
	int at = -1;

	*count = 0;
	for (int i = 0; envp[i]; i++)
		if (strncmp(envp[i], key, n) == 0 && envp[i][n] == '=') {
			if (at < 0)
				at = i;
			(*count)++;
		}
	return at;
}

static void
test_build(void)
{
	static char *envp[ENV_ENVP_CAP];
	static char buf[ENV_BUF_CAP + 16];
	static struct env_entry many[ENV_COUNT_MAX];
	static char names[ENV_COUNT_MAX][8];
	static char value[1024], longbase[ENV_BASE_VALUE_MAX + 2];
	struct env_base base = { "/usr/local/bin:/usr/bin:/bin",
		"/home/lease-7", "C.UTF-8", "/tmp/lease-7" };
	struct env_base b2;
	struct env_entry m[4];
	struct env_result res;
	int cnt;
	size_t i;

	ok(envpolicy_build(&base, NULL, 0, envp, ENV_ENVP_CAP, buf,
	    ENV_BUF_CAP, &res) == ENV_OK && res.envc == 4 &&
	    strcmp(envp[0], "PATH=/usr/local/bin:/usr/bin:/bin") == 0 &&
	    strcmp(envp[1], "HOME=/home/lease-7") == 0 &&
	    strcmp(envp[2], "LANG=C.UTF-8") == 0 &&
	    strcmp(envp[3], "TMPDIR=/tmp/lease-7") == 0 && envp[4] == NULL,
	    "an empty map still yields PATH, HOME, LANG, TMPDIR");
	b2 = base;
	b2.lang = NULL;
	b2.tmpdir = NULL;
	ok(envpolicy_build(&b2, NULL, 0, envp, ENV_ENVP_CAP, buf, ENV_BUF_CAP,
	    &res) == ENV_OK && res.envc == 2 && envp[2] == NULL &&
	    find(envp, "PATH", &cnt) == 0,
	    "LANG and TMPDIR are optional, PATH is not");
	m[0] = kv("FOO", "a=b");
	m[1] = kv("LANG", "de_DE.UTF-8");
	m[2] = kv("EMPTY", "");
	ok(envpolicy_build(&base, m, 3, envp, ENV_ENVP_CAP, buf, ENV_BUF_CAP,
	    &res) == ENV_OK && res.envc == 6 &&
	    find(envp, "LANG", &cnt) == 4 && cnt == 1 &&
	    strcmp(envp[4], "LANG=de_DE.UTF-8") == 0 &&
	    strcmp(envp[3], "FOO=a=b") == 0 &&
	    strcmp(envp[5], "EMPTY=") == 0 && envp[6] == NULL,
	    "the map is layered on top, a tenant LANG replaces the base");
	m[0] = kv("PATH", "/tmp/evil");
	ok(envpolicy_build(&base, m, 1, envp, ENV_ENVP_CAP, buf, ENV_BUF_CAP,
	    &res) == ENV_FORBIDDEN && res.index == 0 && envp[0] == NULL,
	    "PATH cannot be overridden and envp is left empty");
	m[0] = kv("A", "1");
	m[1] = kv("A", "2");
	ok(envpolicy_build(&base, m, 2, envp, ENV_ENVP_CAP, buf, ENV_BUF_CAP,
	    &res) == ENV_DUPLICATE && res.index == 1,
	    "duplicates refused by the builder too");

	b2 = base;
	b2.path = NULL;
	ok(envpolicy_build(&b2, NULL, 0, envp, ENV_ENVP_CAP, buf, ENV_BUF_CAP,
	    &res) == ENV_BAD_BASE, "a base without PATH is refused");
	b2 = base;
	b2.home = "";
	ok(envpolicy_build(&b2, NULL, 0, envp, ENV_ENVP_CAP, buf, ENV_BUF_CAP,
	    &res) == ENV_BAD_BASE, "an empty HOME is refused");
	b2 = base;
	b2.lang = "";
	ok(envpolicy_build(&b2, NULL, 0, envp, ENV_ENVP_CAP, buf, ENV_BUF_CAP,
	    &res) == ENV_BAD_BASE, "an empty LANG is refused (use NULL)");
	memset(longbase, '/', sizeof longbase - 1);
	b2 = base;
	b2.path = longbase;
	ok(envpolicy_build(&b2, NULL, 0, envp, ENV_ENVP_CAP, buf, ENV_BUF_CAP,
	    &res) == ENV_BAD_BASE, "a base value over 4096 bytes is refused");
	ok(envpolicy_build(NULL, NULL, 0, envp, ENV_ENVP_CAP, buf, ENV_BUF_CAP,
	    &res) == ENV_BAD_BASE, "no base at all is refused");

	/* storage: PATH and HOME need 3 pointers with the NULL */
	b2 = base;
	b2.lang = NULL;
	b2.tmpdir = NULL;
	ok(envpolicy_build(&b2, NULL, 0, envp, 2, buf, ENV_BUF_CAP, &res) ==
	    ENV_NO_SPACE, "two envp slots are too few");
	ok(envpolicy_build(&b2, NULL, 0, envp, 3, buf, ENV_BUF_CAP, &res) ==
	    ENV_OK && envp[2] == NULL, "three envp slots suffice");
	/* "PATH=...\0" is 34 bytes, "HOME=/home/lease-7\0" 19 */
	memset(buf, 0x5a, sizeof buf);
	ok(envpolicy_build(&b2, NULL, 0, envp, 3, buf, 52, &res) ==
	    ENV_NO_SPACE && (unsigned char)buf[52] == 0x5a,
	    "one byte short is refused without writing past the buffer");
	ok(envpolicy_build(&b2, NULL, 0, envp, 3, buf, 53, &res) == ENV_OK &&
	    (unsigned char)buf[53] == 0x5a, "the exact size suffices");
	ok(envpolicy_build(&b2, NULL, 0, NULL, 0, buf, ENV_BUF_CAP, &res) ==
	    ENV_NO_SPACE, "no envp storage is refused");

	/* the documented caps always suffice: 256 entries, 256 KiB in all,
	 * four base values of 4096 bytes */
	memset(value, 'v', sizeof value);
	for (i = 0; i < ENV_COUNT_MAX; i++) {
		snprintf(names[i], sizeof names[i], "K%03zu", i);
		many[i] = kv(names[i], "");
		many[i].value = value;
		many[i].value_len = 1024 - 4 - 2;
	}
	memset(longbase, '/', ENV_BASE_VALUE_MAX);
	longbase[ENV_BASE_VALUE_MAX] = '\0';
	b2.path = b2.home = b2.lang = b2.tmpdir = longbase;
	memset(buf, 0x5a, sizeof buf);
	ok(envpolicy_build(&b2, many, ENV_COUNT_MAX, envp, ENV_ENVP_CAP, buf,
	    ENV_BUF_CAP, &res) == ENV_OK && res.envc == ENV_COUNT_MAX + 4 &&
	    envp[ENV_COUNT_MAX + 4] == NULL &&
	    (unsigned char)buf[ENV_BUF_CAP] == 0x5a,
	    "ENV_ENVP_CAP and ENV_BUF_CAP hold the largest map allowed");
}

static void
test_names(void)
{
	ok_names_distinct(envpolicy_verdict_name, ENV_VERDICT_COUNT,
	    "verdict names are distinct");
	ok(strcmp(envpolicy_verdict_name(ENV_VERDICT_COUNT), "unknown") == 0 &&
	    strcmp(envpolicy_verdict_name(ENV_FORBIDDEN), "forbidden") == 0,
	    "verdict names are stable, out of range is unknown");
	ok(ENV_OK == 0 && ENV_BAD_KEY == 1 && ENV_BAD_VALUE == 2 &&
	    ENV_FORBIDDEN == 3 && ENV_DUPLICATE == 4 && ENV_TOO_MANY == 5 &&
	    ENV_TOO_BIG == 6 && ENV_NO_SPACE == 7 && ENV_BAD_BASE == 8,
	    "verdict codes are the documented ones");
}

int
main(void)
{
	test_keys();
	test_check();
	test_build();
	test_names();
	return tap_done();
}
