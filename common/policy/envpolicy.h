/* envpolicy.h - which environment keys a tenant may set for its child, and
 * the builder of the child's envp: the runner's base (PATH, HOME, LANG,
 * TMPDIR) with the tenant's map layered on top.
 *
 * Keys are matched against the forbidden table ignoring ASCII case: Linux
 * keeps NODE_OPTIONS and node_options apart, but npm folds npm_config_* in
 * either case and refusing a case variant costs nothing. Duplicates in the
 * map are compared exactly (HTTP_PROXY and http_proxy are both common and
 * distinct). Pure: no I/O, no allocation. */
#ifndef AIRLOCK_ENVPOLICY_H
#define AIRLOCK_ENVPOLICY_H

#include <stddef.h>

#define ENV_KEY_MAX 128			/* bytes in a key */
#define ENV_VALUE_MAX (32 * 1024)	/* bytes in a value */
#define ENV_COUNT_MAX 256		/* entries in a tenant map */
#define ENV_TOTAL_MAX (256 * 1024)	/* sum of key + '=' + value + NUL */
#define ENV_BASE_VALUE_MAX 4096		/* bytes in one base value */
#define ENV_BASE_COUNT 4		/* PATH HOME LANG TMPDIR */
#define ENV_REASON_MAX 192

/* Storage that always suffices for envpolicy_build. */
#define ENV_ENVP_CAP (ENV_COUNT_MAX + ENV_BASE_COUNT + 1)
#define ENV_BUF_CAP (ENV_TOTAL_MAX + \
	ENV_BASE_COUNT * (ENV_BASE_VALUE_MAX + 8))

/* PATH for a runner that has none of its own. */
#define ENVPOLICY_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

/* Stable codes: they travel in error frames and logs, never renumber. */
enum env_verdict {
	ENV_OK = 0,
	ENV_BAD_KEY = 1,	/* not 1-128 of [A-Za-z_][A-Za-z0-9_]* */
	ENV_BAD_VALUE = 2,	/* NUL, too long, a path as locale/TZ */
	ENV_FORBIDDEN = 3,	/* on the forbidden table */
	ENV_DUPLICATE = 4,	/* the same key twice in the map */
	ENV_TOO_MANY = 5,	/* more than ENV_COUNT_MAX entries */
	ENV_TOO_BIG = 6,	/* more than ENV_TOTAL_MAX bytes in all */
	ENV_NO_SPACE = 7,	/* builder: caller's storage too small */
	ENV_BAD_BASE = 8,	/* builder: PATH/HOME missing, or a bad base */
	ENV_VERDICT_COUNT
};

/* One tenant entry as it came off the wire: explicit lengths, the bytes
 * are not NUL-terminated and are checked for NUL here. */
struct env_entry {
	const char *key;
	size_t key_len;
	const char *value;
	size_t value_len;
};

/* The runner's base, NUL-terminated strings. path and home are required
 * (an empty tenant map must still find npx on PATH); lang and tmpdir may be
 * NULL to leave them out. A tenant LANG replaces the base LANG; PATH, HOME
 * and TMPDIR cannot be replaced. */
struct env_base {
	const char *path;
	const char *home;
	const char *lang;
	const char *tmpdir;
};

struct env_result {
	enum env_verdict verdict;
	size_t index;		/* offending map entry (when it is one) */
	size_t envc;		/* builder: entries in envp, not the NULL */
	char reason[ENV_REASON_MAX];	/* printable ASCII, names the key */
};

/* Stable lower-case verdict name ("forbidden"), "unknown" if out of range. */
const char *envpolicy_verdict_name(enum env_verdict v);

/* ENV_OK, ENV_BAD_KEY or ENV_FORBIDDEN for one key of len bytes; *why (if
 * not NULL) gets a static phrase saying why a forbidden key is. */
enum env_verdict envpolicy_check_key(const char *key, size_t len,
    const char **why);

/* Check a whole tenant map (n entries) in order; the first failure wins.
 * Fills *res and returns its verdict. */
enum env_verdict envpolicy_check(const struct env_entry *map, size_t n,
    struct env_result *res);

/* Build the child's environment into caller storage: envp (envp_cap
 * pointers) receives "KEY=VALUE" strings stored in buf (buf_cap bytes) and
 * a terminating NULL; nothing is allocated and nothing outside the two
 * buffers is written. Order: PATH, HOME, LANG (unless the map sets LANG),
 * TMPDIR, then the map in its order. ENV_ENVP_CAP and ENV_BUF_CAP always
 * suffice. The map is checked first (envpolicy_check); on any failure envp
 * holds no usable result. res->envc counts the entries. */
enum env_verdict envpolicy_build(const struct env_base *base,
    const struct env_entry *map, size_t n, char **envp, size_t envp_cap,
    char *buf, size_t buf_cap, struct env_result *res);

#endif
