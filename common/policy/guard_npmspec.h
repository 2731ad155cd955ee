/* guard_npmspec.h - npm package specs as the guard accepts them: a
 * registry name with a version, range or tag, and whether that version is
 * exact (the approve-time pin). Internal to the guard; the grammar is in
 * docs/GUARD.md. */
#ifndef AIRLOCK_GUARD_NPMSPEC_H
#define AIRLOCK_GUARD_NPMSPEC_H

#include <stddef.h>

/* Split an npm registry spec [@scope/]name[@version]: sets *name_len and
 * *ver (NULL without a version; it points into s). Returns 0, or -1 when
 * s is not a plain registry spec (git, URL, path, alias, shell
 * metacharacters). */
int npmspec_split(const char *s, size_t *name_len, const char **ver);
/* 1 if s is an exact semver x.y.z[-pre]: no range, tag, "v", "=" or
 * build metadata. */
int npmspec_exact(const char *s);

#endif
