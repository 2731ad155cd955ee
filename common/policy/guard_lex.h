/* guard_lex.h - the byte classes and word shapes all of the guard's
 * grammars share (guard*.c): ASCII classes, URL schemes, canonical paths,
 * bin and module names, semver numbers. Pure functions of NUL-terminated
 * strings the guard has already bounded (GUARD_ARG_MAX). */
#ifndef AIRLOCK_GUARD_LEX_H
#define AIRLOCK_GUARD_LEX_H

#include <stddef.h>

int lex_eq(const char *a, const char *b);
/* 1 if name[0..n) equals word (lower case) ignoring ASCII case */
int lex_name_is(const char *name, size_t n, const char *word);
/* 1 if s starts with p / ends with suffix */
int lex_prefix(const char *s, const char *p);
int lex_suffix(const char *s, const char *suffix);
/* ASCII only: the guard never asks the locale */
int lex_lower(int ch);
int lex_alpha(int ch);
int lex_digit(int ch);
int lex_alnum(int ch);
/* 1 if s is non-empty and every byte is alnum or in set */
int lex_all_in(const char *s, const char *set);
/* 1 if s is non-empty printable ASCII without space */
int lex_graph(const char *s);
/* Length of a URL scheme "alpha *(alnum / + - .)" before ':', else 0. */
size_t lex_scheme_len(const char *s);
/* Why p is not an absolute canonical path (static text), or NULL. */
const char *lex_canonical_refusal(const char *p);
/* 1 if path is dir or below it (both canonical). */
int lex_path_within(const char *path, const char *dir);
/* 1 if s is a command word: [A-Za-z0-9][A-Za-z0-9._+-]*, <= 255 bytes */
int lex_bin_name(const char *s);
/* The length of [A-Za-z0-9][A-Za-z0-9._-]* at s (a package name's
 * characters, npm's and PyPI's alike), 0 when s does not start so. */
size_t lex_name_len(const char *s);
/* 1 if s is a dotted identifier, as python -m takes it */
int lex_module_name(const char *s);
/* A number "0" or without a leading zero, at most 16 digits, not followed
 * by a digit: the bytes it takes, or 0 when s does not start with one. */
size_t lex_number(const char *s);

#endif
