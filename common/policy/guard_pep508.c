/* guard_pep508.c - Python requirements and versions, the subset uv and
 * uvx may install: names from the index with versions, never a URL,
 * path or environment marker. */
#include "common/policy/guard_pep508.h"

#include <string.h>

#include "common/policy/guard_lex.h"

/* Past skip bytes of *sp, a number (lex_number): 1 and *sp moved past
 * both, or 0 when there is none. */
static int
take_num(const char **sp, size_t skip)
{
	size_t n = lex_number(*sp + skip);

	if (!n)
		return 0;
	*sp += skip + n;
	return 1;
}

/* Exact PEP 440 version in canonical form: N(.N)*[{a|b|rc}N][.postN]
 * [.devN]; no wildcard, local version or epoch. */
int
pep440_exact(const char *s)
{
	if (!take_num(&s, 0))
		return 0;
	while (*s == '.' && lex_digit((unsigned char)s[1]))
		if (!take_num(&s, 1))
			return 0;
	if ((*s == 'a' || *s == 'b' || lex_prefix(s, "rc")) &&
	    !take_num(&s, *s == 'r' ? 2 : 1))
		return 0;
	if (lex_prefix(s, ".post") && !take_num(&s, 5))
		return 0;
	if (lex_prefix(s, ".dev") && !take_num(&s, 4))
		return 0;
	return *s == '\0';
}

/* PEP 508 name: alnum at both ends, . _ - inside; returns its length. */
size_t
pep508_name(const char *s)
{
	size_t i = lex_name_len(s);

	while (i > 0 && !lex_alnum((unsigned char)s[i - 1]))
		i--;
	return i;
}

/* PEP 508 name[extra,...] (the extras optional): its length, or 0. */
static size_t
pep508_name_extras(const char *s)
{
	const char *p = s;
	size_t n;

	if (!(n = pep508_name(p)))
		return 0;
	p += n;
	if (*p == '[') {
		do {
			p++;
			if (!(n = pep508_name(p)))
				return 0;
			p += n;
		} while (*p == ',');
		if (*p++ != ']')
			return 0;
	}
	return (size_t)(p - s);
}

/* name[extra,...]==version, nothing else. */
int
pep508_pinned(const char *s)
{
	size_t n;

	if (!(n = pep508_name_extras(s)))
		return 0;
	s += n;
	if (s[0] != '=' || s[1] != '=' || s[2] == '=')
		return 0;
	return pep440_exact(s + 2);
}

/* A requirement without URL, path or marker: name[extra,...] then
 * nothing or specifiers (op version) joined by ',' - what --with and
 * --from may install; "pkg @ https://..." and git+ URLs are sources the
 * operator did not allow. */
int
pep508_shape(const char *s)
{
	static const char *const ops[] = {
		"===", "==", "!=", "<=", ">=", "~=", "<", ">",
	};
	size_t n, k;

	if (!(n = pep508_name_extras(s)))
		return 0;
	s += n;
	if (*s == '\0')
		return 1;
	for (;;) {
		for (k = 0; k < sizeof ops / sizeof ops[0]; k++)
			if (lex_prefix(s, ops[k]))
				break;
		if (k == sizeof ops / sizeof ops[0])
			return 0;
		s += strlen(ops[k]);
		n = 0;
		while (lex_alnum((unsigned char)s[n]) ||
		    (s[n] != '\0' && strchr(".*+!-", s[n])))
			n++;
		if (n == 0)
			return 0;
		s += n;
		if (*s == '\0')
			return 1;
		if (*s++ != ',')
			return 0;
	}
}
