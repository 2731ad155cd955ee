/* pylock.h - a hash-pinned Python requirements file (the lock of a uvx
 * approval, docs/REVIEW.md "Locked PyPI trees"), read as hostile input.
 *
 * Accepted, and nothing else (pip's and uv's other forms refused):
 *   file    := line*                      at most PYLOCK_TEXT_MAX bytes,
 *                                         every line ended by LF
 *   line    := blank | comment | req
 *   blank   := [ \t]*                     comment := [ \t]* '#' printable*
 *   req     := NAME '==' VERSION (sep HASH)+ [ \t]*
 *   sep     := [ \t]+ | [ \t]+ '\' LF [ \t]+   (uv's continuation lines)
 *   HASH    := '--hash=sha256:' 64 lowercase hex digits
 * NAME a PEP 508 name (pep508_name), VERSION an exact PEP 440 version in
 * canonical form (pep440_exact: no wildcard, local version or epoch).
 * Refused: any option line (-e, -r, -c, --index-url, --find-links ...),
 * a URL, path or VCS requirement, extras, markers, an inline comment, a
 * hash other than sha256, a hash twice in one requirement, a name twice
 * (compared normalised: PEP 503), CR, NUL, bytes that are not printable
 * ASCII but in a comment (any byte but control characters there). */
#ifndef AIRLOCK_PYLOCK_H
#define AIRLOCK_PYLOCK_H

#include <stddef.h>
#include <stdint.h>

#define PYLOCK_TEXT_MAX (1u << 20)
#define PYLOCK_DISTS_MAX 1024		/* requirements in one file */
#define PYLOCK_HASHES_MAX 4096		/* hashes in one file */
#define PYLOCK_NAME_MAX 128
#define PYLOCK_VERSION_MAX 64

struct py_dist {
	char name[PYLOCK_NAME_MAX + 1];	/* normalised: lowercase, each run
					 * of - _ . one - (PEP 503) */
	char version[PYLOCK_VERSION_MAX + 1];
	size_t hash_first, nhash;	/* into py_lock.hash */
};

struct py_lock {
	struct py_dist *dist;		/* malloc'd, in the file's order */
	size_t ndist;
	uint8_t (*hash)[32];		/* malloc'd */
	size_t nhash;
};

/* Read text[0..len) into *out (py_lock_free frees it). 0, or -1 with a
 * message naming the line and the rule in err (errcap bytes); *out then
 * holds nothing. */
int py_lock_parse(const uint8_t *text, size_t len, struct py_lock *out,
    char *err, size_t errcap);

void py_lock_free(struct py_lock *l);

/* The distribution named name (any spelling PEP 503 makes equal), or
 * NULL. */
const struct py_dist *py_lock_find(const struct py_lock *l,
    const char *name, size_t n);

/* 1 if sha is one of d's hashes. */
int py_lock_hash_ok(const struct py_lock *l, const struct py_dist *d,
    const uint8_t sha[32]);

/* The one command shape a Python lock is made for, as uvx reads it:
 *   uvx NAME@VERSION [ARGS...]                the console script NAME
 *   uvx --from NAME==VERSION COMMAND [ARGS...]
 * nothing else (no other option, no `--`, no extras); NAME a PEP 508
 * name, VERSION exact (pep440_exact), COMMAND a console script's name
 * (a PEP 508 name's shape). */
struct py_spec {
	char name[PYLOCK_NAME_MAX + 1];		/* PEP 503 normalised */
	char version[PYLOCK_VERSION_MAX + 1];
	char command[PYLOCK_NAME_MAX + 1];	/* as written */
	size_t args;		/* argv index of the command's first argument */
};

/* 0 when argv is that shape; -1 otherwise (not lockable). */
int py_spec_parse(const char *const *argv, size_t argc,
    struct py_spec *out);

/* The distribution of spec's package in l, at spec's version: it, or
 * NULL with why in err (the lock is not the command's). */
const struct py_dist *py_lock_top(const struct py_lock *l,
    const struct py_spec *spec, char *err, size_t errcap);

/* PEP 503's normal form of p[0..n) into out (outcap bytes with the NUL):
 * its length, or -1 when it does not fit. */
long py_name_normalise(const char *p, size_t n, char *out, size_t outcap);

/* The lock written again in one spelling (`name==version --hash=sha256:HEX
 * ...` a line, the file's order), what an installer is given so that it
 * reads no byte we did not: its length, or -1 when cap is too small. */
long py_lock_render(const struct py_lock *l, char *out, size_t cap);

#endif
