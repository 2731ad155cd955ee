/* cgroup_where.h - where this process sits in each cgroup hierarchy:
 * /proc/self/mountinfo and /proc/self/cgroup, each read once per probe
 * and parsed from memory (the probe used to read them once per question,
 * a dozen reads a start). The parsers take explicit lengths and no NUL. */
#ifndef AIRLOCK_CGROUP_WHERE_H
#define AIRLOCK_CGROUP_WHERE_H

#include <stddef.h>

struct cg_where {
	char *mountinfo;	/* /proc/self/mountinfo */
	size_t mountinfo_len;
	char *cgroup;		/* /proc/self/cgroup */
	size_t cgroup_len;
	/* where they are read first (the usual host's fit): no heap block
	 * mapped and unmapped per probe */
	char mountinfo_first[16384];
	char cgroup_first[2048];
};

/* Read both files: 0, or -1 with errno (nothing to free then). */
int cg_where_read(struct cg_where *w);
void cg_where_free(struct cg_where *w);

/* Our group's path in the hierarchy whose line of cgroup text names ctl
 * in its controller list (v1), or on the v2 line (an empty list) when ctl
 * is NULL: 0 with out, -1 when there is no such line or out is short. */
int cg_where_group(const char *cgroup, size_t len, const char *ctl,
    char *out, size_t outlen);

/* Mount point and root of the first v1 mount ("cgroup") whose options
 * name ctl, or of the first "cgroup2" mount when ctl is NULL, in
 * mountinfo text: 0, or -1 (none, or a field longer than its buffer). */
int cg_where_mount(const char *mountinfo, size_t len, const char *ctl,
    char *mnt, size_t mntlen, char *root, size_t rootlen);

/* Our own group's directory in a hierarchy: its mount point + (our path
 * - the mount's root). -1 when our group lies outside the mount. */
int cg_where_own_dir(const struct cg_where *w, const char *ctl, char *out,
    size_t len);

/* Is the directory real (resolved) on a cgroup2 mount whose root is
 * outside our cgroup namespace (mountinfo shows it as "/.." or below)?
 * The longest mount point covering real decides; the last of equal
 * ones, as it covers the others. 1 or 0. */
int cg_where_outside_ns(const char *mountinfo, size_t len,
    const char *real);

#endif
