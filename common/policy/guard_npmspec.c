/* guard_npmspec.c - npm package specs: the registry's own forms only. */
#include "common/policy/guard_npmspec.h"

#include <string.h>

#include "common/policy/guard_lex.h"

/* Exact semver x.y.z[-pre]: no range, tag, "v", "=" or build metadata. */
int
npmspec_exact(const char *s)
{
	size_t n;
	int part;

	for (part = 0; part < 3; part++) {
		if (!(n = lex_number(s)))
			return 0;
		s += n;
		if (part < 2 && *s++ != '.')
			return 0;
	}
	if (*s == '\0')
		return 1;
	if (*s++ != '-')
		return 0;
	for (;;) {	/* dot-separated ids, numeric ones canonical */
		const char *id = s;
		int numeric = 1;

		while (lex_alnum((unsigned char)*s) || *s == '-') {
			numeric &= lex_digit((unsigned char)*s);
			s++;
		}
		if (s == id || (numeric && id[0] == '0' && s - id > 1))
			return 0;
		if (*s == '\0')
			return 1;
		if (*s++ != '.')
			return 0;
	}
}

/* Split an npm registry spec [@scope/]name[@version]: sets *name_len and
 * *ver (NULL without a version). Returns 0, or -1 when s is not a plain
 * registry spec (git, URL, path, alias, shell metacharacters). */
int
npmspec_split(const char *s, size_t *name_len, const char **ver)
{
	const char *at, *slash = NULL;

	if (!lex_all_in(s, "@/._~^+-") || s[0] == '.' || s[0] == '_' ||
	    s[0] == '-' || s[0] == '/')
		return -1;
	if (s[0] == '@') {
		slash = strchr(s, '/');
		if (!slash || slash == s + 1 || slash[1] == '\0' ||
		    slash[1] == '@' || slash[1] == '.' || slash[1] == '_')
			return -1;
		at = strchr(slash, '@');
	} else {
		at = strchr(s, '@');
	}
	if (strchr(slash ? slash + 1 : s, '/'))
		return -1;
	*name_len = at ? (size_t)(at - s) : strlen(s);
	*ver = at ? at + 1 : NULL;
	if (*name_len > 214 || (at && (at[1] == '\0' || strchr(at + 1, '@'))))
		return -1;
	return 0;
}
