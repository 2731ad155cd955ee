/* guard_npmspec.c - npm package specs: the registry's own forms only.
 *
 * Read for it: npm-package-arg (lib/npa.js), validate-npm-package-name,
 * hosted-git-info (lib/from-url.js) and node-semver's range grammar. npa
 * decides what a spec is before it ever asks the registry, in this order:
 * a word starting "[git+]letters:" is a URL (file: npm: git: github:
 * workspace: ... and a Windows drive "c:"); "x@host.y:path" is git over
 * ssh; a name part with a '/' or ending in .tgz, .tar or .tar.gz (any
 * case) is a path; then, for the part after the name's '@': "file:", a
 * leading ".", "/" or "~/" is a path, "npm:" an alias, "user/repo[#ref]"
 * and "github:" / "gitlab:" / "bitbucket:" / "gist:" a hosted git repo,
 * any other '/' or a .tgz/.tar/.tar.gz ending a path (even "1.0.0-x.tgz",
 * which is valid semver), and only what is left goes to the registry,
 * trimmed of white space first. So the guard accepts no ':', '#', '%',
 * white space or non-ASCII byte, no '/' but a scope's, no tarball ending,
 * and a version only in the three forms the registry resolves itself. */
#include "common/policy/guard_npmspec.h"

#include <string.h>

#include "common/policy/guard_lex.h"

#define NPM_NAME_MAX 214	/* validate-npm-package-name's limit */

/* 1 if s[0..n) ends in .tgz, .tar or .tar.gz, ignoring ASCII case:
 * npa's tarball test, which it applies to the name and to the whole spec
 * before it reads a version. */
static int
tarball_suffix(const char *s, size_t n)
{
	static const char *const ends[] = { ".tgz", ".tar", ".tar.gz" };
	size_t k, m;

	for (k = 0; k < sizeof ends / sizeof ends[0]; k++) {
		m = strlen(ends[k]);
		if (n >= m && lex_name_is(s + n - m, m, ends[k]))
			return 1;
	}
	return 0;
}

/* [@scope/]name at s: its length, or 0 when it is not one. Each part is
 * [A-Za-z0-9][A-Za-z0-9._-]*; upper case stays (old registry names). */
static size_t
package_name(const char *s)
{
	size_t n, scope = 0;

	if (s[0] == '@') {
		if (!(n = lex_name_len(s + 1)) || s[n + 1] != '/')
			return 0;
		scope = n + 2;
	}
	if (!(n = lex_name_len(s + scope)))
		return 0;
	n += scope;
	/* the two names validate-npm-package-name refuses outright */
	if (lex_name_is(s, n, "node_modules") ||
	    lex_name_is(s, n, "favicon.ico"))
		return 0;
	return n;
}

/* Past *sp, a prerelease "-" id ("." id)*, ids of [A-Za-z0-9-], numeric
 * ones without a leading zero; 1 and *sp moved, or 0. */
static int
prerelease(const char **sp)
{
	const char *s = *sp;

	if (*s++ != '-')
		return 0;
	for (;;) {
		const char *id = s;
		int numeric = 1;

		while (lex_alnum((unsigned char)*s) || *s == '-') {
			numeric &= lex_digit((unsigned char)*s);
			s++;
		}
		if (s == id || (numeric && id[0] == '0' && s - id > 1))
			return 0;
		if (*s != '.')
			break;
		s++;
	}
	*sp = s;
	return 1;
}

/* A semver range in the registry's common spellings, without white
 * space or shell metacharacters: ["^" | "~"] XR ["." XR ["." XR [PRE]]],
 * XR a number, "x" or "X" (1, 1.2, 1.x, ^1.2.0, ~1.2). Comparators,
 * unions, hyphen ranges and "*" are not accepted. */
static int
semver_range(const char *s)
{
	size_t n;
	int part;

	if (*s == '^' || *s == '~')
		s++;
	for (part = 0; part < 3; part++) {
		if (part > 0) {
			if (*s != '.')
				break;
			s++;
		}
		if ((n = lex_number(s)))
			s += n;
		else if (*s == 'x' || *s == 'X')
			s++;
		else
			return 0;
	}
	if (part == 3 && *s == '-' && !prerelease(&s))
		return 0;
	return *s == '\0';
}

/* A dist-tag: a letter, then [A-Za-z0-9._-] (what encodeURIComponent
 * leaves alone, less !~*'()). */
static int
dist_tag(const char *s)
{
	return lex_alpha((unsigned char)s[0]) && lex_all_in(s, "._-");
}

const char *
npmspec_refusal(const char *s, size_t *name_len, const char **ver)
{
	const char *at;
	size_t n;

	if (!lex_graph(s))
		return "white space, a control or a non-ASCII byte in a "
		    "package spec";
	if (strchr(s, ':'))
		return "a URL, file:, git, npm: alias or other protocol "
		    "spec: only registry versions, ranges and tags";
	if (strchr(s, '#'))
		return "a git reference (#): only registry versions, ranges "
		    "and tags";
	if (strchr(s, '%'))
		return "a percent-encoded package spec";
	if (s[0] == '.' || s[0] == '/' || lex_prefix(s, "~/"))
		return "a path, not a registry package";
	n = package_name(s);
	if (tarball_suffix(s, strlen(s)) || tarball_suffix(s, n))
		return "npm reads a name or spec ending in .tgz, .tar or "
		    ".tar.gz as a tarball path";
	if (n > 0 && s[n] == '/')	/* a directory, or user/repo */
		return "a path or a git repository (user/repo), not a "
		    "registry package";
	if (n == 0 || (s[n] != '\0' && s[n] != '@'))
		return "not an npm package name";
	if (n > NPM_NAME_MAX)
		return "a package name longer than 214 bytes";
	*name_len = n;
	*ver = NULL;
	if (s[n] == '\0')
		return NULL;
	at = s + n + 1;
	if (strchr(at, '/'))
		return "a path or a git repository (user/repo) as the "
		    "version, not a registry version";
	if (!npmspec_exact(at) && !semver_range(at) && !dist_tag(at))
		return "a version that is not an exact version, a semver "
		    "range or a dist-tag";
	*ver = at;
	return NULL;
}

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
	return *s == '\0' || (prerelease(&s) && *s == '\0');
}
