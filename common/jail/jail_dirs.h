/* jail_dirs.h - a lease's directories in the state directory: made as the
 * lease's uid (no CAP_CHOWN), its registration's package cache, and their
 * removal, also of what a crashed service left. */
#ifndef AIRLOCK_JAIL_DIRS_H
#define AIRLOCK_JAIL_DIRS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/jail/jail_types.h"

/* a then b into out (len bytes). 0, or -1 (ENAMETOOLONG). */
int jail_join(char *out, size_t len, const char *a, const char *b);

/* Act on the file system as uid:gid (setfsuid/setfsgid) until
 * jail_fs_back. 0, or -1 (EPERM; nothing changed). */
int jail_fs_as(uid_t uid, gid_t gid);
void jail_fs_back(void);

/* A container directory root:gid with mode, made by us (or one that is
 * already exactly that). 0, or -1 with errno. */
int jail_dirs_container(const char *path, gid_t gid, mode_t mode);

/* Remove dir and all below it; with as_uid, what is inside it as uid:gid
 * first (the service may lack CAP_DAC_OVERRIDE). Best effort: the caller
 * checks that dir is gone. */
void jail_dirs_remove(const char *dir, uid_t uid, gid_t gid, int as_uid);

/* The uid pool's purge hook (struct uidpool.purge). */
int jail_dirs_purge_registration(const char *state, uint32_t uid,
    const char *key);

/* At start-up: the lease directories a dead service left, removed. */
void jail_dirs_remove_stale(const struct jail *j);

/* The registration's package cache (<state>/cache/<key>/data) made for
 * l, its path in l->host_cache. 0, or -1 with errno. */
int jail_dirs_cache(struct jail_lease *l, const char *key);

/* uidpool_idle_key's fn with ctx a struct jail_trim: the registration's
 * cache emptied when it is past the lease's --cache-size. */
struct jail_trim {
	const struct jail_lease *l;
	const char *key;
};
void jail_dirs_trim_cache(void *ctx, uint32_t uid);

/* home/.npm and home/.cache made symlinks into the cache c (a path as the
 * lease sees it). 0, or -1 with errno. */
int jail_dirs_link_cache(const char *c, const char *home);

/* What the lease's own trees hold on the state volume: its directory
 * (HOME, TMPDIR, the work dir) into *home, its registration's package
 * cache into *cache, measured as the lease's uid (diskquota.h). 0, or -1
 * when some of it could not be measured. ctx: the struct jail_lease (a
 * disk_measure_fn). */
int jail_lease_disk_usage(void *ctx, uint64_t *home, uint64_t *cache);

#endif
