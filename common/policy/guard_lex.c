/* guard_lex.c - the byte classes and word shapes the guard's grammars
 * share. ASCII only, never the locale: the launchers compare bytes. */
#include "common/policy/guard_lex.h"

#include <string.h>

int
lex_eq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

int
lex_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

int
lex_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

int
lex_lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

int
lex_alpha(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

int
lex_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

int
lex_alnum(int ch)
{
	return lex_alpha(ch) || lex_digit(ch);
}

/* 1 if every byte of s is in set (s non-empty). */
int
lex_all_in(const char *s, const char *set)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!lex_alnum((unsigned char)*s) && !strchr(set, *s))
			return 0;
	return 1;
}

/* 1 if s holds only printable ASCII without space (a plain spec/URL). */
int
lex_graph(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || (unsigned char)*s >= 0x7f)
			return 0;
	return 1;
}

/* Length of a URL scheme prefix "alpha *(alnum / + - .) :", else 0. */
size_t
lex_scheme_len(const char *s)
{
	size_t i = 0;

	if (!lex_alpha((unsigned char)s[0]))
		return 0;
	while (lex_alnum((unsigned char)s[i]) || s[i] == '+' || s[i] == '-' ||
	    s[i] == '.')
		i++;
	return s[i] == ':' ? i : 0;
}

/* Why p is not an absolute canonical path, or NULL: "/" then components
 * of [A-Za-z0-9._+@%=,~-], none empty (no "//", no trailing "/"), none
 * "." or "..". What the runner's realpath(3) must give back unchanged. */
const char *
lex_canonical_refusal(const char *p)
{
	const char *s;

	if (p[0] != '/')
		return "not an absolute path";
	for (s = p; *s; s++) {
		if (*s == '/') {
			if (s[1] == '\0' || s[1] == '/')
				return "empty component in a path";
			if (s[1] == '.' && (s[2] == '/' || s[2] == '\0' ||
			    (s[2] == '.' && (s[3] == '/' || s[3] == '\0'))))
				return "'.' or '..' in a path";
		} else if (!lex_alnum((unsigned char)*s) &&
		    !strchr("._+@%=,~-", *s)) {
			return "a path byte outside [A-Za-z0-9/._+@%=,~-]";
		}
	}
	if (p[1] == '\0')
		return "the root directory";
	return NULL;
}

/* 1 if path is dir or below it (both canonical). */
int
lex_path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '/' ||
	    path[n] == '\0');
}

/* A numeric part of a semver or PEP 440 version: "0" or no leading
 * zero; returns the bytes used. */
size_t
lex_number(const char *s)
{
	size_t i = 0;

	while (lex_digit((unsigned char)s[i]) && i < 16)
		i++;
	if (i == 0 || lex_digit((unsigned char)s[i]) || (s[0] == '0' && i > 1))
		return 0;
	return i;
}

/* A command word a launcher looks up on PATH: [A-Za-z0-9][A-Za-z0-9._+-]*
 * (a file name: no path, no spec, nothing a shell would expand). */
int
lex_bin_name(const char *s)
{
	return lex_alnum((unsigned char)s[0]) && lex_all_in(s, "._+-") &&
	    strlen(s) <= 255;
}

/* A dotted identifier, as python -m takes it. */
int
lex_module_name(const char *s)
{
	for (;;) {
		if (!lex_alpha((unsigned char)*s) && *s != '_')
			return 0;
		while (lex_alnum((unsigned char)*s) || *s == '_')
			s++;
		if (*s == '\0')
			return 1;
		if (*s++ != '.')
			return 0;
	}
}

/* name[0..n) equals word ignoring ASCII case */
int
lex_name_is(const char *name, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (word[i] == '\0' ||
		    lex_lower((unsigned char)name[i]) != word[i])
			return 0;
	return word[n] == '\0';
}

size_t
lex_name_len(const char *s)
{
	size_t i = 0;

	if (!lex_alnum((unsigned char)s[0]))
		return 0;
	while (lex_alnum((unsigned char)s[i]) || s[i] == '.' || s[i] == '_' ||
	    s[i] == '-')
		i++;
	return i;
}
