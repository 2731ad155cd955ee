/* npmlock_test.c - the lockfile reader: JSON as RFC 8259 has it (and the
 * stricter rules: escaped or repeated keys, depth, trailing bytes), a
 * real lock of server-everything accepted, and each rule of a lock that
 * is "exactly this package's registry tree" refused when broken; the
 * npx shape that gets a lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/fileio.h"
#include "common/lock/lockjson.h"
#include "common/lock/npmlock.h"
#include "tap.h"

#define REAL "test/data/lock/server-everything-2026.8.31.json"

static struct json_node tok[4096];
static uint32_t scratch[4096];

static int
parses(const char *s)
{
	struct lj_doc d;
	const char *why;
	size_t at;

	return lj_parse(&d, (const uint8_t *)s, strlen(s), tok, scratch,
	    sizeof tok / sizeof *tok, &why, &at) == 0;
}

static void
json(void)
{
	static const char *const good[] = { "{}", "[]", "0", "-0.5e+3",
		"\"a\\u00e9\\n\"", " {\"a\" : [1, true, false, null, {}]} ",
		"\"\xc3\xa9\"", "{\"a\":1,\"b\":{\"a\":2}}" };
	static const char *const badj[] = { "", "{", "{\"a\"}", "{\"a\":}",
		"[1,]", "{\"a\":1,}", "01", "1.", "-", "1e", "tru", "nul",
		"\"\\x\"", "\"\\u12g4\"", "\"a", "\"\x01\"", "\"\xc3\"",
		"\"\xed\xa0\x80\"", "{} {}", "{\"a\":1,\"a\":2}",
		"{\"\\u0061\":1}", "{1:2}", "[1 2]", "\xef\xbb\xbf{}",
		"{\"a\":1,\"b\":2,\"a\":3}" };
	char deep[80];
	struct lj_doc d;
	const char *why, *p;
	size_t at, n;

	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		ok(parses(good[i]), "JSON %s", good[i]);
	for (size_t i = 0; i < sizeof badj / sizeof *badj; i++)
		ok(!parses(badj[i]), "not JSON (or not ours): case %zu", i);
	memset(deep, '[', 40);
	memset(deep + 40, ']', 40);
	ok(lj_parse(&d, (const uint8_t *)deep, 80, tok, scratch, 4096, &why,
	    &at) != 0
	    && strstr(why, "deep"), "40 levels: %s", why);
	ok(lj_parse(&d, (const uint8_t *)"[1,2,3]", 7, tok, scratch, 3, &why,
	    &at) != 0,
	    "more values than tokens is refused, not overrun");
	ok(lj_parse(&d, (const uint8_t *)"{\"a\":\"x\",\"b\":\"\\n\",\"c\":"
	    "\"\xc3\xa9\"}", 27, tok, scratch, 16, &why, &at) == 0, "parsed");
	ok(lj_plain(&d, lj_get(&d, 0, "a", 1), &p, &n) == 0 && n == 1 &&
	    *p == 'x', "a plain value");
	ok(lj_plain(&d, lj_get(&d, 0, "b", 1), &p, &n) != 0,
	    "an escaped value is not plain");
	ok(lj_plain(&d, lj_get(&d, 0, "c", 1), &p, &n) != 0,
	    "a non-ASCII value is not plain");
	ok(lj_get(&d, 0, "d", 1) == 0 && lj_get(&d, 1, "a", 1) == 0,
	    "absent key, or not an object: 0");
}

static void
spec(void)
{
	static const struct {
		const char *argv[5];
		size_t argc;
		const char *name, *version;
		size_t args;
	} good[] = {
		{ { "npx", "-y", "a@1.2.3" }, 3, "a", "1.2.3", 3 },
		{ { "npx", "--yes", "@s/b@0.0.1-rc.1", "x" }, 4, "@s/b",
		  "0.0.1-rc.1", 3 },
		{ { "npx", "-y", "--", "JSONStream@1.0.0", "--v" }, 5,
		  "JSONStream", "1.0.0", 4 },
	};
	static const char *const badv[] = { "a@1.2", "a@^1.2.3", "a@1.2.3 ",
		"a@latest", "a@01.2.3", "a@1.2.3-", "@s@1.0.0", "a@file:1.tgz",
		".a@1.0.0", "a/b@1.0.0", "@s/b/c@1.0.0", "a@1.2.3/x", "@1.0.0",
		"a@1.0.0@2.0.0" };
	struct npm_spec s;

	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		ok(npm_spec_parse(good[i].argv, good[i].argc, &s) == 0 &&
		    strcmp(s.name, good[i].name) == 0 &&
		    strcmp(s.version, good[i].version) == 0 &&
		    s.args == good[i].args, "lockable: %s", good[i].name);
	for (size_t i = 0; i < sizeof badv / sizeof *badv; i++) {
		const char *argv[] = { "npx", "-y", badv[i] };

		ok(npm_spec_parse(argv, 3, &s) != 0, "not lockable: %s",
		    badv[i]);
	}
	{
		const char *a1[] = { "npx", "a@1.0.0", "x" };
		const char *a2[] = { "node", "-y", "a@1.0.0" };
		const char *a3[] = { "npx", "-y", "-p", "a@1.0.0" };

		ok(npm_spec_parse(a1, 3, &s) != 0 && npm_spec_parse(a2, 3,
		    &s) != 0 && npm_spec_parse(a3, 4, &s) != 0,
		    "another shape (no -y, node, -p) is not lockable");
	}
}

/* The real lock with one edit: from replaced by to (the first time). */
static int
edited(const uint8_t *real, size_t len, const char *from, const char *to,
    const struct npm_spec *s, char *err, size_t errcap)
{
	const char *at = memmem(real, len, from, strlen(from));
	struct npm_lock l;
	uint8_t *buf;
	size_t n = 0, head;
	int r;

	if (!at)
		return 2;	/* the test is wrong */
	head = (size_t)((const uint8_t *)at - real);
	buf = malloc(len + strlen(to));
	memcpy(buf, real, head);
	n = head;
	memcpy(buf + n, to, strlen(to));
	n += strlen(to);
	memcpy(buf + n, at + strlen(from), len - head - strlen(from));
	n += len - head - strlen(from);
	r = npm_lock_parse(buf, n, s, &l, err, errcap);
	if (r == 0)
		npm_lock_free(&l);
	free(buf);
	return r;
}

static void
lock(void)
{
	static const struct {
		const char *from, *to, *why;
	} broken[] = {
		{ "\"lockfileVersion\": 3", "\"lockfileVersion\": 1",
		  "version 2 or 3" },
		{ "\"@modelcontextprotocol/server-everything\": \"2026.8.31\"",
		  "\"@modelcontextprotocol/server-everything\": \"^2026.8.31\"",
		  "root does not depend" },
		{ "\"dependencies\": {\n        \"@modelcontextprotocol/server-"
		  "everything\": \"2026.8.31\"\n      }", "\"dependencies\": {\n"
		  "        \"@modelcontextprotocol/server-everything\": "
		  "\"2026.8.31\", \"x\": \"1.0.0\"\n      }", "root does not" },
		{ "\"version\": \"0.0.0\",\n      \"dependencies\"",
		  "\"version\": \"0.0.0\", \"devDependencies\": {},\n      "
		  "\"dependencies\"", "root declares" },
		{ "\"integrity\": \"sha512-KzKz", "\"integrity\": \"sha1-KzKz",
		  "sha512" },
		{ "\"version\": \"2.1.11\",", "\"version\": \"2.1.11\", "
		  "\"link\": true,", "linked" },
		{ "\"version\": \"2.1.11\",", "\"version\": \"2.1.11\", "
		  "\"inBundle\": true,", "bundled" },
		{ "\"version\": \"2.1.11\",", "\"version\": \"2.1.11\", "
		  "\"name\": \"evil\",", "aliased" },
		{ "\"version\": \"2.1.11\",", "\"version\": \"2.1.11\", "
		  "\"resolved\": \"https://evil.example/x.tgz\",",
		  "not resolved from" },
		{ "\"version\": \"2.1.11\",", "\"version\": \"2.1.11\", "
		  "\"resolved\": \"git+https://registry.npmjs.org/x\",",
		  "not resolved from" },
		{ "\"version\": \"2.1.11\",", "\"version\": \"^2.1.11\",",
		  "exact version" },
		{ "\"version\": \"2.1.11\",", "\"version\": \"file:x\",",
		  "exact version" },
		{ "\"node_modules/@hono/node-server\"",
		  "\"node_modules/../../etc\"", "not node_modules/NAME" },
		{ "\"node_modules/@hono/node-server\"",
		  "\"node_modules/@hono/node-server/\"", "not node_modules/" },
		{ "\"node_modules/@hono/node-server\"", "\"x/y\"",
		  "not node_modules/" },
		{ "\"node_modules/@hono/node-server\"",
		  "\"node_modules/@modelcontextprotocol/sdk\"", "duplicate_key" },
		{ "\"version\": \"2026.8.31\"", "\"version\": \"2026.8.30\"",
		  "another version" },
		{ "\"mcp-server-everything\": \"dist/index.js\"",
		  "\"mcp-server-everything\": \"../../x.js\"", "outside" },
		{ "\"mcp-server-everything\": \"dist/index.js\"",
		  "\"other\": \"dist/index.js\", \"more\": \"x.js\"",
		  "several bins" },
		{ "\"node_modules/@modelcontextprotocol/server-everything\"",
		  "\"node_modules/@modelcontextprotocol/server-everythinh\"",
		  "no entry for the package" },
	};
	struct npm_spec s = { "@modelcontextprotocol/server-everything",
		"2026.8.31", 3 };
	struct npm_lock l;
	uint8_t *real;
	size_t len;
	char err[256];

	if (file_read(REAL, LJ_TEXT_MAX, &real, &len) != 0) {
		ok(0, "read %s", REAL);
		return;
	}
	ok(npm_lock_parse(real, len, &s, &l, err, sizeof err) == 0, "the real "
	    "lock of server-everything: %s", err);
	ok(l.npkg == 111 && l.install_scripts == 0 && l.optional == 0 &&
	    strcmp(l.bin_name, "mcp-server-everything") == 0 &&
	    l.bin_len == 13 && memcmp(l.bin, "dist/index.js", 13) == 0,
	    "111 packages, no install script, none optional, bin dist/index.js");
	npm_lock_free(&l);
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
		int r = edited(real, len, broken[i].from, broken[i].to, &s, err,
		    sizeof err);

		ok(r == -1 && strstr(err, broken[i].why), "refused (%s): %s",
		    broken[i].why, r == 2 ? "edit not found" : err);
	}
	ok(edited(real, len, "\"version\": \"2.1.11\",", "\"version\": "
	    "\"2.1.11\", \"resolved\": \"https://registry.npmjs.org/@hono/"
	    "node-server/-/node-server-2.1.11.tgz\", \"hasInstallScript\": "
	    "true,", &s, err, sizeof err) == 0, "a registry URL and an "
	    "install script are accepted (and counted)");
	s.version[0] = '3';
	ok(npm_lock_parse(real, len, &s, &l, err, sizeof err) != 0,
	    "a lock of another version of the package: %s", err);
	free(real);
}

static void
manifest(void)
{
	struct npm_spec s = { "@s/b", "1.0.0", 3 };
	char out[256];

	ok(npm_manifest(&s, out, sizeof out) > 0 && strcmp(out, "{\"name\":"
	    "\"airlock-lock\",\"version\":\"0.0.0\",\"private\":true,"
	    "\"dependencies\":{\"@s/b\":\"1.0.0\"}}\n") == 0,
	    "the manifest: %s", out);
	ok(npm_manifest(&s, out, 20) == -1, "a short buffer: -1");
}

int
main(void)
{
	json();
	spec();
	lock();
	manifest();
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
