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

/* PEP 503's normal form of p[0..n) into out (outcap bytes with the NUL):
 * its length, or -1 when it does not fit. */
long py_name_normalise(const char *p, size_t n, char *out, size_t outcap);

/* The lock written again in one spelling (`name==version --hash=sha256:HEX
 * ...` a line, the file's order), what an installer is given so that it
 * reads no byte we did not: its length, or -1 when cap is too small. */
long py_lock_render(const struct py_lock *l, char *out, size_t cap);

#endif
