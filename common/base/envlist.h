/* envlist.h - the relay's forwarding list: the names of the environment
 * keys it passes to the server, from --env KEY (repeatable) and
 * AIRLOCK_ENV=KEY1,KEY2. Everything not named stays behind, so a parent
 * that hands the relay its whole environment (Java's ProcessBuilder) leaks
 * nothing it did not name.
 *
 * Grammar, strict: list = "" | key *( "," key ); key = 1-128 bytes of
 * [A-Za-z_][A-Za-z0-9_]*, not starting with AIRLOCK_ (control variables are
 * never forwarded); no spaces, no empty item, no key named twice (across
 * both sources). Pure: no I/O, no allocation. */
#ifndef AIRLOCK_ENVLIST_H
#define AIRLOCK_ENVLIST_H

#include <stddef.h>

#include "common/policy/envpolicy.h"

#define ENVLIST_MAX ENV_COUNT_MAX

struct envlist {
	size_t n;
	char key[ENVLIST_MAX][ENV_KEY_MAX + 1];	/* NUL-terminated */
};

/* Add one key of len bytes (not NUL-terminated). Returns 0, or -1 with a
 * printable reason in err that quotes the key only when it is a valid
 * name. */
int envlist_add(struct envlist *l, const char *key, size_t len, char *err,
    size_t errlen);

/* Add every key of a comma-separated list of len bytes ("" adds none).
 * On -1 the list may hold the keys before the bad one; callers die. */
int envlist_parse(struct envlist *l, const char *s, size_t len, char *err,
    size_t errlen);

/* 1 if key (len bytes) is on the list. */
int envlist_has(const struct envlist *l, const char *key, size_t len);

#endif
