/* approval_diff_test.c - what a mismatch refusal says: which field, which
 * argv word with both values escaped (look-alikes show), credentials by
 * index only, env keys by name; every text printable and bounded. */
#include <string.h>

#include "common/policy/approval_diff.h"
#include "tap.h"

static struct approval a;

static void
set(struct approval_str *s, const char *v)
{
	s->p = (const uint8_t *)v;
	s->n = strlen(v);
}

/* The token: tenant t1, registration r1, argv, env keys. */
static void
token(const char *const *argv, size_t argc, const char *const *env,
    size_t envc)
{
	memset(&a, 0, sizeof a);
	set(&a.tenant, "t1");
	set(&a.registration, "r1");
	a.argc = argc;
	for (size_t i = 0; i < argc; i++)
		set(&a.argv[i], argv[i]);
	a.envc = envc;
	for (size_t i = 0; i < envc; i++)
		set(&a.env[i], env[i]);
}

static int
printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s >= 0x7f)
			return 0;
	return 1;
}

static void
expect(enum approval_result r, const struct approval_request *req,
    const char *want, const char *what)
{
	char out[512];

	approval_diff(&a, req, r, out, sizeof out);
	ok(strcmp(out, want) == 0 && printable(out), "%s: %s", what, out);
}

static void
test_fields(void)
{
	static const char *const argv[] = { "npx", "-y", "pkg@1.0.0" };
	struct approval_request req = { "t2", "r1", (char *const *)argv, 3,
		NULL, 0 };

	token(argv, 3, NULL, 0);
	expect(APPROVAL_TENANT_MISMATCH, &req,
	    "tenant: the token's 't1', the request's 't2'", "tenant named");
	req.tenant = "t1";
	req.registration = "github";
	expect(APPROVAL_REGISTRATION_MISMATCH, &req,
	    "registration: the token's 'r1', the request's 'github'",
	    "registration named");
	expect(APPROVAL_OK, &req, "", "no mismatch: nothing");
	expect(APPROVAL_EXPIRED, &req, "", "not a mismatch: nothing");
}

static void
test_argv(void)
{
	static const char *const approved[] = { "npx", "-y", "pkg@1.3.0",
		"--port", "3" };
	static const char *const changed[] = { "npx", "-y", "pkg@1.3.1",
		"--port", "3" };
	static const char *const longer[] = { "npx", "-y", "pkg@1.3.0",
		"--port", "3", "--debug" };
	static const char *const lookalike[] = { "npx", "-y",
		"p\xd0\xb0kg@1.3.0", "--port", "3" };
	static const char *const quoted[] = { "npx", "-y", "pkg@1.3.0",
		"--port", "it's \"3\"\\" };
	struct approval_request req = { "t1", "r1", (char *const *)changed, 5,
		NULL, 0 };
	char big[600];

	token(approved, 5, NULL, 0);
	expect(APPROVAL_ARGV_MISMATCH, &req, "argv[2]: the token's "
	    "'pkg@1.3.0', the request's 'pkg@1.3.1'", "the word and both "
	    "values");
	req.argv = (char *const *)longer;
	req.argc = 6;
	expect(APPROVAL_ARGV_MISMATCH, &req, "argv: the token has 5 words, "
	    "the request 6; argv[5]: the token has none", "a word more");
	token(longer, 6, NULL, 0);
	req.argv = (char *const *)approved;
	req.argc = 5;
	expect(APPROVAL_ARGV_MISMATCH, &req, "argv: the token has 6 words, "
	    "the request 5; argv[5]: the request has none", "a word less");
	token(approved, 5, NULL, 0);
	req.argv = (char *const *)lookalike;
	expect(APPROVAL_ARGV_MISMATCH, &req, "argv[2]: the token's "
	    "'pkg@1.3.0', the request's 'p\\xd0\\xb0kg@1.3.0'",
	    "a look-alike letter shows as bytes");
	req.argv = (char *const *)quoted;
	expect(APPROVAL_ARGV_MISMATCH, &req, "argv[4]: the token's '3', the "
	    "request's 'it\\x27s \\x223\\x22\\x5c'", "quotes and backslash "
	    "escaped");
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	{
		const char *const huge[] = { "npx", "-y", "pkg@1.3.0",
			"--port", big };

		req.argv = (char *const *)huge;
		expect(APPROVAL_ARGV_MISMATCH, &req, "argv[4]: the token's "
		    "'3', the request's 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		    "xxx...'", "a long value is cut at 40 bytes");
	}
}

/* A word that looks like a credential is named by its index only: none
 * of its bytes, from the token or the request, reaches the refusal. */
static void
test_secrets(void)
{
	static const struct {
		const char *tok[2], *req[2];
	} cases[] = {
		{ { "--api-key=AAAAAA1", "x" }, { "--api-key=BBBBBB2", "x" } },
		{ { "--token", "AAAAAA1" }, { "--token", "BBBBBB2" } },
		{ { "--db-password", "AAAAAA1" }, { "--db-password",
		    "BBBBBB2" } },
		{ { "GITHUB_TOKEN=AAAAAA1", "x" }, { "GITHUB_TOKEN=BBBBBB2",
		    "x" } },
		{ { "--Auth=AAAAAA1", "x" }, { "--Auth=BBBBBB2", "x" } },
		{ { "ghp_AAAAAA1", "x" }, { "ghp_BBBBBB2", "x" } },
		{ { "--header=sk-AAAAAA1", "x" }, { "--header=sk-BBBBBB2",
		    "x" } },
		{ { "eyJAAAAAA1", "x" }, { "plainBBBBBB2", "x" } },
	};
	char out[512];
	int all = 1;

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const char *t[] = { "npx", "-y", "pkg@1.0.0", cases[k].tok[0],
			cases[k].tok[1] };
		const char *r[] = { "npx", "-y", "pkg@1.0.0", cases[k].req[0],
			cases[k].req[1] };
		struct approval_request req = { "t1", "r1", (char *const *)r,
			5, NULL, 0 };

		token(t, 5, NULL, 0);
		approval_diff(&a, &req, APPROVAL_ARGV_MISMATCH, out,
		    sizeof out);
		all &= strstr(out, "not shown: it looks like a credential") &&
		    strstr(out, "argv[") && !strstr(out, "AAAAAA1") &&
		    !strstr(out, "BBBBBB2");
		if (!all)
			printf("# case %zu: %s\n", k, out);
	}
	ok(all, "credentials (by option name, NAME=, the word after "
	    "--token, token prefixes) are named by index, never shown");
	ok(!approval_word_secret("--port=3", 8, NULL, 0) &&
	    !approval_word_secret("3", 1, "--port", 6) &&
	    !approval_word_secret("--token", 7, NULL, 0) &&
	    !approval_word_secret("-x", 2, "--token", 7) &&
	    !approval_word_secret("pkg@1.0.0", 9, "-y", 2),
	    "ordinary words, and an option named after a credential without "
	    "its value, are shown");
}

static void
test_env(void)
{
	static const char *const argv[] = { "npx", "-y", "pkg@1.0.0" };
	static const char *const env[] = { "API_KEY", "B" };
	char *const req_env[] = { "B", "DEBUG" };
	struct approval_request req = { "t1", "r1", (char *const *)argv, 3,
		req_env, 2 };

	token(argv, 3, env, 2);
	expect(APPROVAL_ENV_MISMATCH, &req, "env keys missing API_KEY; extra "
	    "DEBUG", "env keys by name (a token binds no value)");
}

static void
test_caps(void)
{
	static const char *const approved[] = { "npx", "-y", "pkg@1.3.0" };
	static const char *const changed[] = { "npx", "-y", "pkg@1.3.1" };
	struct approval_request req = { "t1", "r1", (char *const *)changed, 3,
		NULL, 0 };
	char out[24], one[1] = { 'z' };
	int fits = 1;

	token(approved, 3, NULL, 0);
	for (size_t cap = 1; cap <= sizeof out; cap++) {
		memset(out, 'z', sizeof out);
		approval_diff(&a, &req, APPROVAL_ARGV_MISMATCH, out, cap);
		fits &= strlen(out) < cap && (cap < sizeof out ?
		    out[cap] == 'z' : 1);
	}
	approval_diff(&a, &req, APPROVAL_ARGV_MISMATCH, one, 0);
	ok(fits && one[0] == 'z', "every cap: NUL-terminated, nothing "
	    "written past it, nothing at all into 0 bytes");
	approval_diff(&a, &req, APPROVAL_ARGV_MISMATCH, out, sizeof out);
	ok(strcmp(out + strlen(out) - 3, "...") == 0, "a cut text ends "
	    "\"...\": %s", out);
}

int
main(void)
{
	test_fields();
	test_argv();
	test_secrets();
	test_env();
	test_caps();
	return tap_done();
}
