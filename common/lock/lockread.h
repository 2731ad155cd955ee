/* lockread.h - which lock an approved command takes, and that lock read
 * back from a lock store (lockstore.h) as the lock of the command:
 *   `npx -y NAME@VERSION ...`       an npm lock, DIR/HEX.json (npmlock.h)
 *   `uvx NAME@VERSION ...`, `uvx --from NAME==VERSION COMMAND ...`
 *                                   a Python lock, DIR/HEX.txt (pylock.h)
 * The command's shape alone says which: the token binds the command and
 * the digest, never a kind of its own. */
#ifndef AIRLOCK_LOCKREAD_H
#define AIRLOCK_LOCKREAD_H

#include <stddef.h>
#include <stdint.h>

#include "common/lock/lockstore.h"
#include "common/lock/npmlock.h"
#include "common/lock/pylock.h"

enum lock_kind { LOCK_KIND_NONE, LOCK_KIND_NPM, LOCK_KIND_PY };

/* The lock argv takes (LOCK_KIND_NONE: it cannot be locked). */
enum lock_kind lock_kind_of(const char *const *argv, size_t argc);

/* Where a kind's lock is kept (LOCK_KIND_NONE: LOCK_JSON). */
enum lock_format lock_kind_format(enum lock_kind k);

/* A lock read back: its bytes (malloc'd) and what they were read as. */
struct lockread {
	enum lock_kind kind;
	uint8_t *text;
	size_t len;
	struct npm_spec npm_spec;	/* LOCK_KIND_NPM */
	struct npm_lock npm;		/* (points into text) */
	struct py_spec py_spec;		/* LOCK_KIND_PY */
	struct py_lock py;
	const struct py_dist *py_top;	/* the command's own, in py */
};

enum lockread_result {
	LOCKREAD_OK = 0,
	LOCKREAD_MISSING,	/* no file for the digest, or unreadable */
	LOCKREAD_MISMATCH,	/* its bytes are not the digest's */
	LOCKREAD_BAD,		/* not the lock of the command */
};

/* The lock of argv bound by digest, from dir: loaded, checked against
 * digest, parsed by its kind's rules as the lock of argv. On anything
 * but LOCKREAD_OK, a message naming what is wrong in err and nothing
 * held; else lockread_free frees *out. */
enum lockread_result lockread_load(const char *dir,
    const uint8_t digest[LOCK_DIGEST_LEN], const char *const *argv,
    size_t argc, struct lockread *out, char *err, size_t errcap);

/* What lockread_load does once the bytes are read: text[0..len)
 * (malloc'd; *out owns it from now, also on failure) parsed by its
 * kind's rules as the lock of argv (pure: no I/O).
 * LOCKREAD_OK, or LOCKREAD_BAD with a message in err and nothing held
 * (text freed); else lockread_free frees *out. */
enum lockread_result lockread_parse(uint8_t *text, size_t len,
    const char *const *argv, size_t argc, struct lockread *out, char *err,
    size_t errcap);

void lockread_free(struct lockread *r);

#endif
