/* npmlock.h - an npm lockfile (package-lock.json, lockfileVersion 2 or
 * 3) read as hostile input, and the one command shape airlock locks:
 * `npx -y NAME@VERSION [ARGS...]`.
 *
 * A lock is accepted only when it is exactly "this one package and its
 * registry tree": the root depends on NAME at VERSION and nothing else;
 * every other entry is a package under node_modules/ with a plain
 * version and one sha512 integrity hash (npm ci checks each tarball
 * against it); a `resolved` URL, when present, is the public registry's
 * tarball over https; no link, no bundled or aliased package, no
 * workspace. The entry of NAME holds the bin npx would start. Pure: no
 * I/O; docs/REVIEW.md "Locked npm trees" says why each rule exists. */
#ifndef AIRLOCK_NPMLOCK_H
#define AIRLOCK_NPMLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "common/lock/lockjson.h"

#define NPM_NAME_MAX 214	/* npm's own limit on a package name */
#define NPM_VERSION_MAX 256
#define NPM_PATH_MAX 2048	/* bytes of one node_modules/... path */
#define NPM_PKGS_MAX 20000
#define NPM_REGISTRY "https://registry.npmjs.org/"

/* `npx -y NAME@VERSION [ARGS...]` (also --yes, and `--` before the spec):
 * the package, and the index of the first argument given to its bin. */
struct npm_spec {
	char name[NPM_NAME_MAX + 1];
	char version[NPM_VERSION_MAX + 1];
	size_t args;		/* argv index of the bin's first argument */
};

/* 0 when argv is that shape with a valid name and an exact version
 * (digits.digits.digits, an optional -prerelease and +build of
 * [0-9A-Za-z.-]); -1 otherwise (not lockable: no lock is made). */
int npm_spec_parse(const char *const *argv, size_t argc,
    struct npm_spec *out);

/* 1 when s (n bytes) is a package name npm accepts for a new package:
 * lower case [a-z0-9-._~], not starting with . or _, at most
 * NPM_NAME_MAX, or @scope/name of two such parts. */
int npm_name_valid(const char *s, size_t n);

struct npm_pkg {
	const char *path;	/* "node_modules/a/node_modules/@s/b" */
	size_t path_len;
	const char *name;	/* the part after the last node_modules/ */
	size_t name_len;
	const char *version;
	size_t version_len;
	unsigned install_script:1;	/* hasInstallScript */
	unsigned optional:1;	/* may be absent on this platform */
	unsigned dev:1;
};

/* A parsed lock; every pointer points into the lockfile text, which must
 * outlive it. */
struct npm_lock {
	struct npm_pkg *pkg;	/* malloc'd; npm_lock_free */
	size_t npkg;
	size_t install_scripts;	/* packages declaring one */
	size_t optional;
	size_t top;		/* index in pkg of NAME itself */
	const char *bin;	/* NAME's bin npx starts, relative to its dir */
	size_t bin_len;
	char bin_name[NPM_NAME_MAX + 1];
};

/* Parse and check lockfile text[0..len) as the lock of spec. 0, or -1
 * with a message naming what is wrong (escaped) in err (errcap bytes). */
int npm_lock_parse(const uint8_t *text, size_t len,
    const struct npm_spec *spec, struct npm_lock *out, char *err,
    size_t errcap);
void npm_lock_free(struct npm_lock *l);

/* The package.json the lock is resolved for and installed from (the
 * same bytes at submit and at install: npm ci refuses a lock that does
 * not match it). Into out (cap bytes, NUL added); its length or -1. */
long npm_manifest(const struct npm_spec *spec, char *out, size_t cap);

#endif
