/* npmlock.c - an npm lockfile checked as the lock of one package, and the
 * `npx -y NAME@VERSION` shape (npmlock.h). */
#include "common/lock/npmlock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/policy/guard.h"

#define NM "node_modules/"
#define NM_LEN (sizeof NM - 1)

static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	    c == '~';
}

/* One part of a name: [A-Za-z0-9-._~]+, not starting with . or _ (npm's
 * legacy names, upper case included, live in real trees). */
static int
part_valid(const char *s, size_t n)
{
	if (n == 0 || s[0] == '.' || s[0] == '_')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!name_char(s[i]))
			return 0;
	return 1;
}

int
npm_name_valid(const char *s, size_t n)
{
	const char *slash;

	if (n == 0 || n > NPM_NAME_MAX)
		return 0;
	if (s[0] != '@')
		return part_valid(s, n);
	if (!(slash = memchr(s, '/', n)))
		return 0;
	return part_valid(s + 1, (size_t)(slash - s - 1)) &&
	    part_valid(slash + 1, n - (size_t)(slash - s) - 1);
}

/* digits.digits.digits[-pre][+build], pre and build of [0-9A-Za-z.-] */
static int
version_valid(const char *s, size_t n)
{
	size_t i = 0;

	if (n == 0 || n > NPM_VERSION_MAX)
		return 0;
	for (int part = 0; part < 3; part++) {
		size_t start = i;

		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == start || (i - start > 1 && s[start] == '0'))
			return 0;
		if (part < 2 && (i >= n || s[i++] != '.'))
			return 0;
	}
	if (i < n && s[i] != '-' && s[i] != '+')
		return 0;
	for (; i < n; i++)
		if (!name_char(s[i]) && s[i] != '+')
			return 0;
	return s[n - 1] != '-' && s[n - 1] != '+' && s[n - 1] != '.';
}

int
npm_spec_parse(const char *const *argv, size_t argc, struct npm_spec *out)
{
	const char *spec, *at;
	size_t i = 1, len;

	if (argc < 3 || strcmp(argv[0], "npx") != 0 ||
	    (strcmp(argv[1], "-y") != 0 && strcmp(argv[1], "--yes") != 0))
		return -1;
	i = 2;
	if (strcmp(argv[i], "--") == 0 && ++i >= argc)
		return -1;
	spec = argv[i];
	len = strlen(spec);
	/* the version's '@' is the last one; a scope's is the first byte */
	if (len < 2 || !(at = memrchr(spec + 1, '@', len - 1)))
		return -1;
	if (!npm_name_valid(spec, (size_t)(at - spec)) ||
	    !version_valid(at + 1, len - (size_t)(at - spec) - 1))
		return -1;
	memcpy(out->name, spec, (size_t)(at - spec));
	out->name[at - spec] = '\0';
	snprintf(out->version, sizeof out->version, "%s", at + 1);
	out->args = i + 1;
	return 0;
}

long
npm_manifest(const struct npm_spec *spec, char *out, size_t cap)
{
	int n = snprintf(out, cap, "{\"name\":\"airlock-lock\",\"version\":"
	    "\"0.0.0\",\"private\":true,\"dependencies\":{\"%s\":\"%s\"}}\n",
	    spec->name, spec->version);

	return n < 0 || (size_t)n >= cap ? -1 : n;
}

/* ---- the lock ----------------------------------------------------------- */

struct ck {
	const struct lj_doc *d;
	char *err;
	size_t errcap;
};

static int
bad(struct ck *c, const char *what, const char *s, size_t n)
{
	char q[96];

	if (s)
		guard_quote(q, sizeof q, s, n < 64 ? n : 64);
	snprintf(c->err, c->errcap, "%s%s%s%s", what, s ? " '" : "",
	    s ? q : "", s ? "'" : "");
	return -1;
}

/* The end of a name starting at p[i]: "@scope/name" takes two parts. */
static size_t
name_end(const char *p, size_t n, size_t i)
{
	const char *slash = memchr(p + i, '/', n - i);
	size_t e = slash ? (size_t)(slash - p) : n;

	if (p[i] == '@' && e < n) {
		slash = memchr(p + e + 1, '/', n - e - 1);
		e = slash ? (size_t)(slash - p) : n;
	}
	return e;
}

/* A path node_modules/NAME(/node_modules/NAME)*: the name is its last. */
static int
path_valid(const char *p, size_t n, const char **name, size_t *name_len)
{
	size_t i = 0, e;

	if (n > NPM_PATH_MAX)
		return 0;
	for (;;) {
		if (n - i <= NM_LEN || memcmp(p + i, NM, NM_LEN) != 0)
			return 0;
		i += NM_LEN;
		e = name_end(p, n, i);
		if (!npm_name_valid(p + i, e - i))
			return 0;
		*name = p + i;
		*name_len = e - i;
		if (e == n)
			return 1;
		i = e + 1;	/* past the '/' before the next node_modules/ */
	}
}

/* "sha512-" and the base64 of 64 bytes: one hash, the one npm ci keeps. */
static int
integrity_valid(const char *s, size_t n)
{
	static const char pre[] = "sha512-";

	if (n != sizeof pre - 1 + 88 || memcmp(s, pre, sizeof pre - 1) != 0 ||
	    s[n - 1] != '=' || s[n - 2] != '=')
		return 0;
	for (size_t i = sizeof pre - 1; i < n - 2; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' &&
		    s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '+' || s[i] == '/'))
			return 0;
	return 1;
}

static int
flag(const struct lj_doc *d, size_t obj, const char *key)
{
	size_t v = lj_get(d, obj, key, strlen(key));

	return v && lj_node(d, v)->type == JSON_TRUE;
}

/* The keys of a package entry that would make npm fetch or place
 * something the integrity hash does not pin. */
static const char *const entry_refused[] = { "link", "inBundle",
	"bundleDependencies", "bundledDependencies", "workspaces" };

static int
entry(struct ck *c, size_t key, size_t val, struct npm_pkg *pkg)
{
	const struct lj_doc *d = c->d;
	const char *s;
	size_t n, v;

	if (lj_plain(d, key, &pkg->path, &pkg->path_len) != 0 ||
	    !path_valid(pkg->path, pkg->path_len, &pkg->name, &pkg->name_len))
		return bad(c, "a package path that is not node_modules/NAME",
		    (const char *)d->j.src + lj_node(d, key)->off,
		    lj_node(d, key)->len);
	if (lj_node(d, val)->type != JSON_OBJECT)
		return bad(c, "a package entry that is not an object",
		    pkg->path, pkg->path_len);
	for (size_t k = 0; k < sizeof entry_refused / sizeof *entry_refused;
	    k++)
		if (lj_get(d, val, entry_refused[k],
		    strlen(entry_refused[k])))
			return bad(c, entry_refused[k][0] == 'l' ?
			    "a linked package (not from the registry)" :
			    "a bundled or workspace package (no integrity of "
			    "its own)", pkg->path, pkg->path_len);
	/* an alias installs another package under this name */
	if ((v = lj_get(d, val, "name", 4)) &&
	    !lj_is(d, v, pkg->name, pkg->name_len))
		return bad(c, "an aliased package", pkg->path, pkg->path_len);
	if (lj_plain(d, lj_get(d, val, "version", 7), &pkg->version,
	    &pkg->version_len) != 0 || !version_valid(pkg->version,
	    pkg->version_len))
		return bad(c, "no exact version for", pkg->path, pkg->path_len);
	if (lj_plain(d, lj_get(d, val, "integrity", 9), &s, &n) != 0 ||
	    !integrity_valid(s, n))
		return bad(c, "no sha512 integrity hash for", pkg->path,
		    pkg->path_len);
	if ((v = lj_get(d, val, "resolved", 8)) && (lj_plain(d, v, &s, &n) !=
	    0 || n <= sizeof NPM_REGISTRY - 1 || memcmp(s, NPM_REGISTRY,
	    sizeof NPM_REGISTRY - 1) != 0 || memchr(s, '?', n) ||
	    memchr(s, '#', n)))
		return bad(c, "a package not resolved from " NPM_REGISTRY,
		    pkg->path, pkg->path_len);
	pkg->install_script = flag(d, val, "hasInstallScript");
	pkg->optional = flag(d, val, "optional");
	pkg->dev = flag(d, val, "dev");
	return 0;
}

/* The root entry "": depends on spec's package at its version, and on
 * nothing else of any kind. */
static int
root(struct ck *c, size_t val, const struct npm_spec *spec)
{
	static const char *const other[] = { "devDependencies",
		"optionalDependencies", "peerDependencies", "workspaces",
		"bundleDependencies", "bundledDependencies" };
	const struct lj_doc *d = c->d;
	size_t deps = lj_get(d, val, "dependencies", 12), v;

	if (lj_node(d, val)->type != JSON_OBJECT || !deps ||
	    lj_node(d, deps)->type != JSON_OBJECT ||
	    lj_node(d, deps)->count != 1 ||
	    !(v = lj_get(d, deps, spec->name, strlen(spec->name))) ||
	    !lj_is(d, v, spec->version, strlen(spec->version)))
		return bad(c, "the root does not depend on exactly the "
		    "approved package and version", NULL, 0);
	for (size_t k = 0; k < sizeof other / sizeof *other; k++)
		if (lj_get(d, val, other[k], strlen(other[k])))
			return bad(c, "the root declares", other[k],
			    strlen(other[k]));
	return 0;
}

/* NAME's bin as npx picks it: the only one, else the one named as the
 * package without its scope. */
static int
top_bin(struct ck *c, size_t val, const struct npm_spec *spec,
    struct npm_lock *l)
{
	const struct lj_doc *d = c->d;
	const char *unscoped = strrchr(spec->name, '/');
	size_t bin = lj_get(d, val, "bin", 3), pick = 0, i;

	unscoped = unscoped ? unscoped + 1 : spec->name;
	if (!bin || lj_node(d, bin)->type != JSON_OBJECT ||
	    lj_node(d, bin)->count == 0)
		return bad(c, "the package has no bin for npx to start",
		    spec->name, strlen(spec->name));
	if (lj_node(d, bin)->count == 1)
		pick = bin + 2;
	else
		pick = lj_get(d, bin, unscoped, strlen(unscoped));
	if (!pick)
		return bad(c, "the package has several bins, none named",
		    unscoped, strlen(unscoped));
	i = pick - 1;	/* its key */
	if (lj_node(d, i)->len > NPM_NAME_MAX || lj_plain(d, pick, &l->bin,
	    &l->bin_len) != 0)
		return bad(c, "a bad bin entry", NULL, 0);
	memcpy(l->bin_name, d->j.src + lj_node(d, i)->off,
	    lj_node(d, i)->len);
	l->bin_name[lj_node(d, i)->len] = '\0';
	if (l->bin_len >= 2 && memcmp(l->bin, "./", 2) == 0) {
		l->bin += 2;
		l->bin_len -= 2;
	}
	/* relative, inside the package: no empty, "." or ".." part */
	for (size_t s = 0, e; s <= l->bin_len; s = e + 1) {
		for (e = s; e < l->bin_len && l->bin[e] != '/'; e++)
			if (l->bin[e] == '\\')
				return bad(c, "a bin path with a backslash",
				    l->bin, l->bin_len);
		if (e == s || (e - s == 1 && l->bin[s] == '.') ||
		    (e - s == 2 && l->bin[s] == '.' && l->bin[s + 1] == '.'))
			return bad(c, "a bin path outside its package", l->bin,
			    l->bin_len);
	}
	return 0;
}

int
npm_lock_parse(const uint8_t *text, size_t len, const struct npm_spec *spec,
    struct npm_lock *out, char *err, size_t errcap)
{
	struct ck c = { NULL, err, errcap };
	struct lj_doc d;
	struct json_node *nodes;
	uint32_t *scratch;
	size_t cap, at, pkgs, v, i, want = strlen(spec->name);
	const char *why;
	int found = 0, rc = -1;

	memset(out, 0, sizeof *out);
	if (errcap)
		err[0] = '\0';
	cap = len < LJ_TOKENS_MAX ? len + 1 : LJ_TOKENS_MAX;
	nodes = malloc(cap * sizeof *nodes);
	scratch = malloc(cap * sizeof *scratch);
	if (!nodes || !scratch) {
		free(nodes);
		free(scratch);
		snprintf(err, errcap, "out of memory");
		return -1;
	}
	c.d = &d;
	if (lj_parse(&d, text, len, nodes, scratch, cap, &why, &at) != 0) {
		snprintf(err, errcap, "not JSON as a lockfile must be: %s at "
		    "byte %zu", why, at);
		goto out;
	}
	v = lj_get(&d, 0, "lockfileVersion", 15);
	if (!v || lj_node(&d, v)->type != JSON_NUMBER ||
	    lj_node(&d, v)->len != 1 || (text[lj_node(&d, v)->off] != '2' &&
	    text[lj_node(&d, v)->off] != '3')) {
		bad(&c, "not a lockfile of version 2 or 3", NULL, 0);
		goto out;
	}
	pkgs = lj_get(&d, 0, "packages", 8);
	if (!pkgs || lj_node(&d, pkgs)->type != JSON_OBJECT ||
	    lj_node(&d, pkgs)->count - 1 > NPM_PKGS_MAX ||
	    !(v = lj_get(&d, pkgs, "", 0)) || root(&c, v, spec) != 0) {
		if (!err[0])
			bad(&c, "no packages, or too many, or no root", NULL,
			    0);
		goto out;
	}
	if (!(out->pkg = calloc(lj_node(&d, pkgs)->count, sizeof *out->pkg))) {
		snprintf(err, errcap, "out of memory");
		goto out;
	}
	i = pkgs + 1;
	for (uint32_t m = 0; m < lj_node(&d, pkgs)->count; m++,
	    i = lj_node(&d, i + 1)->end) {
		struct npm_pkg *p = &out->pkg[out->npkg];

		if (lj_node(&d, i)->len == 0)
			continue;	/* the root, checked above */
		if (entry(&c, i, i + 1, p) != 0)
			goto out;
		out->install_scripts += p->install_script;
		out->optional += p->optional;
		if (p->path_len == NM_LEN + want &&
		    memcmp(p->path + NM_LEN, spec->name, want) == 0) {
			if (p->version_len != strlen(spec->version) ||
			    memcmp(p->version, spec->version, p->version_len)) {
				bad(&c, "the package's own entry is another "
				    "version", p->version, p->version_len);
				goto out;
			}
			if (top_bin(&c, i + 1, spec, out) != 0)
				goto out;
			out->top = out->npkg;
			found = 1;
		}
		out->npkg++;
	}
	if (!found) {
		bad(&c, "no entry for the package itself",
		    spec->name, want);
		goto out;
	}
	rc = 0;
out:
	free(nodes);
	free(scratch);
	if (rc != 0)
		npm_lock_free(out);
	return rc;
}

void
npm_lock_free(struct npm_lock *l)
{
	free(l->pkg);
	l->pkg = NULL;
	l->npkg = 0;
}
