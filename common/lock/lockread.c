/* lockread.c - a command's lock, read back and checked (lockread.h). */
#include "common/lock/lockread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum lock_kind
lock_kind_of(const char *const *argv, size_t argc)
{
	struct npm_spec n;
	struct py_spec p;

	if (npm_spec_parse(argv, argc, &n) == 0)
		return LOCK_KIND_NPM;
	if (py_spec_parse(argv, argc, &p) == 0)
		return LOCK_KIND_PY;
	return LOCK_KIND_NONE;
}

enum lock_format
lock_kind_format(enum lock_kind k)
{
	return k == LOCK_KIND_PY ? LOCK_REQUIREMENTS : LOCK_JSON;
}

/* The text read as the lock of r's command, by its kind. */
static int
parse(struct lockread *r, const char *const *argv, size_t argc, char *err,
    size_t errcap)
{
	if (r->kind == LOCK_KIND_NPM)
		return npm_spec_parse(argv, argc, &r->npm_spec) != 0 ? -1 :
		    npm_lock_parse(r->text, r->len, &r->npm_spec, &r->npm,
		    err, errcap);
	if (py_spec_parse(argv, argc, &r->py_spec) != 0 ||
	    py_lock_parse(r->text, r->len, &r->py, err, errcap) != 0)
		return -1;
	r->py_top = py_lock_top(&r->py, &r->py_spec, err, errcap);
	return r->py_top ? 0 : -1;
}

/* The refusal of a command that takes no lock. */
static enum lockread_result
no_lock(char *err, size_t errcap)
{
	snprintf(err, errcap, "the command is neither `npx -y NAME@VERSION` "
	    "nor `uvx NAME@VERSION` (or `uvx --from NAME==VERSION COMMAND`): "
	    "it takes no lock");
	return LOCKREAD_BAD;
}

enum lockread_result
lockread_load(const char *dir, const uint8_t digest[LOCK_DIGEST_LEN],
    const char *const *argv, size_t argc, struct lockread *out, char *err,
    size_t errcap)
{
	enum lock_kind kind = lock_kind_of(argv, argc);
	uint8_t *text;
	size_t len;
	int rc;

	memset(out, 0, sizeof *out);
	err[0] = '\0';
	if (kind == LOCK_KIND_NONE)
		return no_lock(err, errcap);
	if ((rc = lock_load(dir, lock_kind_format(kind), digest, &text, &len,
	    err, errcap)) != 0)
		return rc == -2 ? LOCKREAD_MISMATCH : LOCKREAD_MISSING;
	return lockread_parse(text, len, argv, argc, out, err, errcap);
}

enum lockread_result
lockread_parse(uint8_t *text, size_t len, const char *const *argv,
    size_t argc, struct lockread *out, char *err, size_t errcap)
{
	memset(out, 0, sizeof *out);
	err[0] = '\0';
	out->text = text;
	out->len = len;
	if ((out->kind = lock_kind_of(argv, argc)) == LOCK_KIND_NONE) {
		lockread_free(out);
		return no_lock(err, errcap);
	}
	if (parse(out, argv, argc, err, errcap) != 0) {
		lockread_free(out);
		return LOCKREAD_BAD;
	}
	return LOCKREAD_OK;
}

void
lockread_free(struct lockread *r)
{
	if (r->kind == LOCK_KIND_NPM)
		npm_lock_free(&r->npm);
	else if (r->kind == LOCK_KIND_PY)
		py_lock_free(&r->py);
	free(r->text);
	memset(r, 0, sizeof *r);
}
