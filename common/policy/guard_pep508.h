/* guard_pep508.h - Python requirements (PEP 508) and versions (PEP 440)
 * as the guard accepts them for uv and uvx: names, extras, specifiers,
 * and the exact pin of a version. Internal to the guard. */
#ifndef AIRLOCK_GUARD_PEP508_H
#define AIRLOCK_GUARD_PEP508_H

#include <stddef.h>

/* 1 if s is an exact PEP 440 version in canonical form:
 * N(.N)*[{a|b|rc}N][.postN][.devN]; no wildcard, local version or epoch */
int pep440_exact(const char *s);
/* A PEP 508 name at s (alnum at both ends, . _ - inside): its length,
 * or 0. */
size_t pep508_name(const char *s);
/* 1 if s is name[extra,...]==version, nothing else */
int pep508_pinned(const char *s);
/* 1 if s is name[extra,...] then nothing or specifiers (op version)
 * joined by ','; no URL, path or marker */
int pep508_shape(const char *s);

#endif
