/* guard_npmspec.h - npm package specs as the guard accepts them: a
 * registry name with a version, range or tag, and whether that version is
 * exact (the approve-time pin). Internal to the guard; the grammar is in
 * docs/GUARD.md. */
#ifndef AIRLOCK_GUARD_NPMSPEC_H
#define AIRLOCK_GUARD_NPMSPEC_H

#include <stddef.h>

/* Why s is not a registry spec [@scope/]name[@version] (static text), or
 * NULL when it is; then *name_len is the name's length and *ver the
 * version (NULL without one; it points into s). A version is an exact
 * version, a semver range without white space or a dist-tag; files,
 * tarballs, paths, URLs, git, aliases and protocols are refused in every
 * spelling npm-package-arg reads them. */
const char *npmspec_refusal(const char *s, size_t *name_len,
    const char **ver);
/* 1 if s is an exact semver x.y.z[-pre]: no range, tag, "v", "=" or
 * build metadata. */
int npmspec_exact(const char *s);

#endif
