/* lockread_test.c - a command's lock read from its bytes (lockread_parse):
 * the command's shape picks the kind, the text must be that kind's lock
 * of that very command, and a refusal holds nothing. Loading from a lock
 * store (the digest, the file) runs in test/lock.test. */
#include <stdlib.h>
#include <string.h>

#include "common/lock/lockread.h"
#include "tap.h"

#define H1 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static const char npm_lock[] = "{\"lockfileVersion\":3,\"packages\":{"
    "\"\":{\"dependencies\":{\"@s/a\":\"1.0.0\"}},"
    "\"node_modules/@s/a\":{\"version\":\"1.0.0\",\"integrity\":\"sha512-"
    "KzKz9vl4vvr1vgLHamj+g5uonbrj5NwAdO3yzOS6cd2HjALVeOgTgeZOyAzNxejbkf"
    "OOPIcvuf/Tg8l1pEFLog==\",\"bin\":{\"a\":\"bin/a.js\"}}}}";
static const char py_lock[] = "# via uv\nmcp-echo-server==0.3.1 "
    "--hash=sha256:" H1 "\n";

static char err[512];

static enum lockread_result
parse(const char *text, const char *const *argv, size_t argc,
    struct lockread *r)
{
	size_t n = strlen(text);
	uint8_t *copy = malloc(n + 1);

	memcpy(copy, text, n + 1);
	return lockread_parse(copy, n, argv, argc, r, err, sizeof err);
}

int
main(void)
{
	static const char *const npx[] = { "npx", "-y", "@s/a@1.0.0", "x" };
	static const char *const npx_other[] = { "npx", "-y", "@s/a@1.0.1" };
	static const char *const uvx[] = { "uvx", "mcp-echo-server@0.3.1" };
	static const char *const uvx_from[] = { "uvx", "--from",
		"mcp_echo.server==0.3.1", "echo" };
	static const char *const node[] = { "node", "server.js" };
	struct lockread r;

	ok(parse(npm_lock, npx, 4, &r) == LOCKREAD_OK &&
	    r.kind == LOCK_KIND_NPM && r.npm.npkg == 1 &&
	    strcmp(r.npm_spec.name, "@s/a") == 0 && r.npm_spec.args == 3,
	    "npx -y NAME@VERSION reads an npm lock");
	lockread_free(&r);
	ok(r.text == NULL && r.kind == LOCK_KIND_NONE, "freed: nothing held");
	ok(parse(npm_lock, npx_other, 3, &r) == LOCKREAD_BAD && err[0] &&
	    r.text == NULL && r.npm.pkg == NULL,
	    "the lock of another version is refused, nothing held: %s", err);
	ok(parse(py_lock, uvx, 2, &r) == LOCKREAD_OK &&
	    r.kind == LOCK_KIND_PY && r.py_top != NULL &&
	    strcmp(r.py_top->version, "0.3.1") == 0,
	    "uvx NAME@VERSION reads a Python lock");
	lockread_free(&r);
	ok(parse(py_lock, uvx_from, 4, &r) == LOCKREAD_OK &&
	    strcmp(r.py_spec.command, "echo") == 0,
	    "uvx --from NAME==VERSION COMMAND too (any PEP 503 spelling)");
	lockread_free(&r);
	ok(parse(npm_lock, uvx, 2, &r) == LOCKREAD_BAD && err[0] &&
	    r.py.dist == NULL, "an npm lock for a uvx command: refused: %s",
	    err);
	ok(parse(py_lock, npx, 4, &r) == LOCKREAD_BAD && err[0],
	    "a Python lock for an npx command: refused");
	ok(parse(py_lock, node, 2, &r) == LOCKREAD_BAD &&
	    strstr(err, "takes no lock") != NULL && r.text == NULL,
	    "a command of no kind: refused whatever the text");
	ok(lock_kind_of(npx, 4) == LOCK_KIND_NPM &&
	    lock_kind_of(uvx, 2) == LOCK_KIND_PY &&
	    lock_kind_of(node, 2) == LOCK_KIND_NONE, "the kind by shape");
	ok(lock_kind_format(LOCK_KIND_PY) == LOCK_REQUIREMENTS &&
	    lock_kind_format(LOCK_KIND_NPM) == LOCK_JSON &&
	    lock_kind_format(LOCK_KIND_NONE) == LOCK_JSON,
	    "and where it is kept");
	return tap_done();
}
