/* guard_policy.c - the guard's operator lists and the launcher names an
 * allowlist may pick from. */
#include "common/policy/guard_policy.h"

#include <string.h>

#include "common/policy/guard_lex.h"

static const struct {
	const char *name;
	unsigned bit;
} launchers[] = {
	{ "npx", GUARD_NPX },
	{ "node", GUARD_NODE },
	{ "uvx", GUARD_UVX },
	{ "uv", GUARD_UV },
	{ "python", GUARD_PYTHON },
	{ "python3", GUARD_PYTHON3 },
};

void
guard_policy_default(struct guard_policy *p)
{
	memset(p, 0, sizeof *p);
	p->launchers = GUARD_NPX | GUARD_NODE | GUARD_UVX | GUARD_UV |
	    GUARD_PYTHON | GUARD_PYTHON3;
}

/* Why dir may not hold scripts: system and library directories hold the
 * code runners a script path must never name (the standard library's
 * timeit.py, npm's npx-cli.js), so a script dir may be neither one of
 * them, nor inside one, nor above one. */
static const char *
script_dir_refusal(const char *dir)
{
	/* each with its own refusal, naming it (no buffer to format into) */
#define SYSTEM_DIR(d) { d, "in, above or at the system directory " d \
	    ", which holds code runners a script must never be" }
	static const struct {
		const char *dir, *why;
	} system_dirs[] = {
		SYSTEM_DIR("/usr"), SYSTEM_DIR("/bin"), SYSTEM_DIR("/sbin"),
		SYSTEM_DIR("/lib"), SYSTEM_DIR("/lib32"), SYSTEM_DIR("/lib64"),
		SYSTEM_DIR("/libx32"), SYSTEM_DIR("/etc"), SYSTEM_DIR("/proc"),
		SYSTEM_DIR("/sys"), SYSTEM_DIR("/dev"), SYSTEM_DIR("/boot"),
		SYSTEM_DIR("/run"), SYSTEM_DIR("/opt"), SYSTEM_DIR("/snap"),
		SYSTEM_DIR("/nix"), SYSTEM_DIR("/var/lib"),
	};
#undef SYSTEM_DIR
	static const char *const library_names[] = {
		"node_modules", "site-packages", "dist-packages", ".npm",
		".cache", ".local", ".pyenv", ".nvm", ".volta", ".cargo",
		"_npx",
	};
	const char *why, *s;
	size_t k, n;

	if ((why = lex_canonical_refusal(dir)))
		return why;
	for (k = 0; k < sizeof system_dirs / sizeof system_dirs[0]; k++)
		if (lex_path_within(dir, system_dirs[k].dir) ||
		    lex_path_within(system_dirs[k].dir, dir))
			return system_dirs[k].why;
	for (s = dir; *s; s += n) {
		s++;
		n = strcspn(s, "/");
		for (k = 0; k < sizeof library_names / sizeof library_names[0];
		    k++)
			if (strlen(library_names[k]) == n &&
			    memcmp(s, library_names[k], n) == 0)
				return "a package or library directory";
	}
	return NULL;
}

int
guard_policy_add(struct guard_policy *p, enum guard_list list,
    const char *value, const char **why)
{
	const char **slot;
	size_t *n;
	const char *bad = NULL;

	if (!value || strnlen(value, GUARD_ITEM_MAX + 1) > GUARD_ITEM_MAX) {
		*why = "missing, or longer than 1024 bytes";
		return -1;
	}
	switch (list) {
	case GUARD_SCRIPT_DIR:
		slot = p->script_dirs;
		n = &p->nscript_dirs;
		bad = script_dir_refusal(value);
		break;
	case GUARD_INDEX:
		slot = p->indexes;
		n = &p->nindexes;
		if (!lex_scheme_len(value) || !lex_graph(value))
			bad = "not a URL of printable ASCII";
		break;
	case GUARD_MODULE:
		slot = p->modules;
		n = &p->nmodules;
		if (!lex_module_name(value))
			bad = "not a dotted module name";
		break;
	default:
		*why = "no such list";
		return -1;
	}
	if (bad) {
		*why = bad;
		return -1;
	}
	if (*n == GUARD_LIST_MAX) {
		*why = "more than 16 entries";
		return -1;
	}
	slot[(*n)++] = value;
	return 0;
}

int
guard_policy_parse(struct guard_policy *p, const char *list)
{
	unsigned bits = 0;
	const char *s = list;

	while (*s) {
		size_t n, k;
		int found = 0;

		s += strspn(s, ", \t");
		n = strcspn(s, ", \t");
		if (n == 0)
			break;
		for (k = 0; k < sizeof launchers / sizeof launchers[0]; k++)
			if (strlen(launchers[k].name) == n &&
			    memcmp(s, launchers[k].name, n) == 0) {
				bits |= launchers[k].bit;
				found = 1;
			}
		if (!found)
			return -1;
		s += n;
	}
	if (bits == 0)
		return -1;
	p->launchers = bits;
	return 0;
}

unsigned
guard_policy_launcher(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof launchers / sizeof launchers[0]; k++)
		if (lex_eq(name, launchers[k].name))
			return launchers[k].bit;
	return 0;
}
