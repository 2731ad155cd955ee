/* guard_policy.h - the guard's operator lists: which launchers argv[0]
 * may be (the runner's --allow), and the script dirs, indexes and modules
 * the operator allows (--script-dir, --allow-index, --allow-module), each
 * entry checked as it is added. Runner and review take the same flags, so
 * they accept the same argv. */
#ifndef AIRLOCK_GUARD_POLICY_H
#define AIRLOCK_GUARD_POLICY_H

#include <stddef.h>

#define GUARD_LIST_MAX 16	/* entries in each operator list */
#define GUARD_ITEM_MAX 1024	/* bytes in one operator list entry */

/* The launchers the guard knows how to parse; an allowlist can only pick
 * from these, so the runner can never be told to pass a command line the
 * guard does not understand. */
enum guard_launcher {
	GUARD_NPX = 1u << 0,
	GUARD_NODE = 1u << 1,
	GUARD_UVX = 1u << 2,
	GUARD_UV = 1u << 3,
	GUARD_PYTHON = 1u << 4,
	GUARD_PYTHON3 = 1u << 5
};

#define GUARD_DEFAULT_LAUNCHERS "npx node uvx uv python python3"

/* What the operator allows beyond the launchers (runner and review take
 * the same flags, so they accept the same argv). The strings are the
 * caller's and must outlive the policy. */
struct guard_policy {
	unsigned launchers;	/* enum guard_launcher bits */
	/* --script-dir: a script (node FILE, python FILE, uv run FILE,
	 * node --require FILE) must be an absolute canonical path below
	 * one of these; none by default */
	const char *script_dirs[GUARD_LIST_MAX];
	size_t nscript_dirs;
	/* --allow-index: registry and index URLs npx --registry and uv's
	 * --index* / --find-links may name, compared exactly */
	const char *indexes[GUARD_LIST_MAX];
	size_t nindexes;
	/* --allow-module: modules python -m / uv run -m may run, compared
	 * exactly (dotted); none by default */
	const char *modules[GUARD_LIST_MAX];
	size_t nmodules;
};

enum guard_list { GUARD_SCRIPT_DIR, GUARD_INDEX, GUARD_MODULE };

/* The default: GUARD_DEFAULT_LAUNCHERS, no script dir, index or module. */
void guard_policy_default(struct guard_policy *p);
/* Add value to one of p's operator lists. A script dir must be absolute
 * and canonical (no ".", "..", "//", trailing "/") and not a system or
 * library directory (/usr, /lib, /etc, node_modules, site-packages ...);
 * an index a URL of printable ASCII; a module a dotted name. Returns -1
 * with *why (static text) when value is refused or the list is full. */
int guard_policy_add(struct guard_policy *p, enum guard_list list,
    const char *value, const char **why);
/* Replace p's allowlist with list, names separated by commas and/or
 * spaces (the runner's --allow). Returns -1 and leaves p unchanged when a
 * name is not a launcher the guard understands or the list is empty. */
int guard_policy_parse(struct guard_policy *p, const char *list);
/* The launcher bit of argv[0] name (compared exactly), 0 when the guard
 * knows no launcher of that name. */
unsigned guard_policy_launcher(const char *name);

#endif
