/* jail_dirs.c - a lease's directories and package cache (jail_dirs.h). */
#include "common/jail/jail_dirs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/dirents.h"
#include "common/base/fsutil.h"
#include "common/base/log.h"
#include "common/jail/diskquota.h"

int
jail_join(char *out, size_t len, const char *a, const char *b)
{
	if ((size_t)snprintf(out, len, "%s%s", a, b) >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* Act on the file system as uid:gid (CAP_SETUID/CAP_SETGID): directories
 * made meanwhile belong to the lease without CAP_CHOWN. A credential
 * change clears the caller's parent-death signal (the runner's handlers
 * rely on theirs): jail_fs_back sets it again, and delivers it if the parent
 * died meanwhile. */
static int saved_pdeath;
static pid_t saved_parent;

int
jail_fs_as(uid_t uid, gid_t gid)
{
	if (prctl(PR_GET_PDEATHSIG, &saved_pdeath, 0, 0, 0) != 0)
		saved_pdeath = 0;
	saved_parent = getppid();
	setfsgid(gid);
	setfsuid(uid);
	if ((uid_t)setfsuid((uid_t)-1) != uid ||
	    (gid_t)setfsgid((gid_t)-1) != gid) {
		jail_fs_back();
		errno = EPERM;
		return -1;
	}
	return 0;
}

void
jail_fs_back(void)
{
	setfsuid(geteuid());
	setfsgid(getegid());
	if (saved_pdeath) {
		(void)prctl(PR_SET_PDEATHSIG, saved_pdeath, 0, 0, 0);
		/* kill(getpid()), not raise(): see jail_nsinit.c mirror() */
		if (getppid() != saved_parent)
			kill(getpid(), saved_pdeath);
	}
}

/* mkdir as fs-uid, accepting an existing directory owned by uid. */
static int
mkdir_owned(const char *path, uid_t uid, mode_t mode)
{
	struct stat st;

	if (mkdir(path, mode) == 0)
		return 0;
	if (errno != EEXIST || lstat(path, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode) || st.st_uid != uid) {
		errno = EEXIST;
		return -1;
	}
	return 0;
}

/* A container directory root:gid, mode, made by us. */
int
jail_dirs_container(const char *path, gid_t gid, mode_t mode)
{
	struct stat st;
	int rc;

	if (jail_fs_as(geteuid(), gid) != 0)
		return -1;
	rc = mkdir(path, 0700);
	jail_fs_back();
	if (rc != 0 && (errno != EEXIST || lstat(path, &st) != 0 ||
	    !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_gid != gid)) {
		if (rc == 0 || errno == EEXIST)
			errno = EEXIST;
		return -1;
	}
	return chmod(path, mode);
}

void
jail_dirs_remove(const char *dir, uid_t uid, gid_t gid, int as_uid)
{
	struct dirents d;
	struct dirent *e;

	if (!as_uid) {
		(void)fs_remove_tree(dir);
		return;
	}
	/* the lease's own directories, as the lease: the service may lack
	 * CAP_DAC_OVERRIDE; then the root-owned container as ourselves */
	if (dirents_open(&d, AT_FDCWD, dir) != 0)
		return;
	while ((e = dirents_next(&d))) {
		char p[PATH_MAX];

		if (e->d_name[0] == '.' && (e->d_name[1] == '\0' ||
		    (e->d_name[1] == '.' && e->d_name[2] == '\0')))
			continue;
		if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >=
		    sizeof p)
			continue;
		if (jail_fs_as(uid, gid) == 0) {
			(void)fs_remove_tree(p);
			jail_fs_back();
		}
		(void)rmdir(p);		/* left empty by the lease */
	}
	dirents_close(&d);
	(void)rmdir(dir);
}

/* The uid pool's purge hook: before a registration's uid is released
 * (none of its processes left), remove what it owns in the state
 * directory: its package cache and any lease directory a crashed runner
 * left with its gid. A file it left anywhere else (uid mode with
 * Landlock off) is not found here; docs/JAIL.md says so. */
int
jail_dirs_purge_registration(const char *state, uint32_t uid,
    const char *key)
{
	char box[PATH_MAX];
	struct dirents d;
	struct dirent *e;
	struct stat st;
	int rc = 0;

	if ((size_t)snprintf(box, sizeof box, "%s/cache/%s", state, key) >=
	    sizeof box)
		return -1;
	jail_dirs_remove(box, uid, uid, 1);
	if (lstat(box, &st) == 0 || errno != ENOENT)
		rc = -1;
	if (dirents_open(&d, AT_FDCWD, state) != 0)
		return -1;
	while ((e = dirents_next(&d))) {
		char p[PATH_MAX];

		if (strncmp(e->d_name, "lease-", 6) != 0 ||
		    (size_t)snprintf(p, sizeof p, "%s/%s", state,
		    e->d_name) >= sizeof p || lstat(p, &st) != 0 ||
		    !S_ISDIR(st.st_mode) || st.st_gid != uid)
			continue;
		jail_dirs_remove(p, uid, uid, 1);
		if (lstat(p, &st) == 0 || errno != ENOENT)
			rc = -1;
	}
	dirents_close(&d);
	return rc;
}

/* Leftovers of a runner that died: lease-* directories in the state dir. */
void
jail_dirs_remove_stale(const struct jail *j)
{
	struct dirents d;
	struct dirent *e;

	if (dirents_open(&d, AT_FDCWD, j->cfg.state_dir) != 0)
		return;
	while ((e = dirents_next(&d))) {
		char p[PATH_MAX];
		struct stat st;

		if (strncmp(e->d_name, "lease-", 6) != 0 ||
		    (size_t)snprintf(p, sizeof p, "%s/%s", j->cfg.state_dir,
		    e->d_name) >= sizeof p || lstat(p, &st) != 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (j->cfg.mode == JAIL_NONE)
			(void)fs_remove_tree(p);
		else if (st.st_gid >= j->cfg.uid_first &&
		    st.st_gid <= j->cfg.uid_last &&
		    uidpool_idle(&j->uids, st.st_gid))
			jail_dirs_remove(p, st.st_gid, st.st_gid, 1);
	}
	dirents_close(&d);
}

int
jail_lease_disk_usage(void *ctx, uint64_t *home, uint64_t *cache)
{
	const struct jail_lease *l = ctx;
	struct stat vol;
	int rc;

	*home = *cache = 0;
	if (stat(l->j->cfg.state_dir, &vol) != 0 ||
	    jail_fs_as(l->uid, l->gid) != 0)
		return -1;
	/* the lease's directory is root's (0710): what the lease can fill
	 * is below it, in its own directories */
	rc = disk_tree_bytes(l->host_home, home) != 0 ||
	    disk_tree_bytes(l->host_tmp, home) != 0 ||
	    (l->host_work[0] && disk_tree_bytes(l->host_work, home) != 0) ||
	    (l->host_cache[0] && disk_tree_bytes(l->host_cache, cache) !=
	    0) || disk_unlinked_open(l->uid, vol.st_dev, home) != 0 ? -1 : 0;
	jail_fs_back();
	return rc;
}
/* The per-(tenant, registration) cache: <state>/cache/<key>/data, owned
 * by the registration's uid; npm and XDG caches below it. */
int
jail_dirs_cache(struct jail_lease *l, const char *key)
{
	const struct jail *j = l->j;
	char base[PATH_MAX], box[PATH_MAX], sub[PATH_MAX];
	int rc = -1;

	if (jail_join(base, sizeof base, j->cfg.state_dir, "/cache") != 0 ||
	    (size_t)snprintf(box, sizeof box, "%s/%s", base, key) >=
	    sizeof box || jail_join(l->host_cache, sizeof l->host_cache, box,
	    "/data") != 0)
		return -1;
	if (mkdir(base, 0711) != 0 && errno != EEXIST)
		return -1;
	if (jail_dirs_container(box, l->gid, 0730) != 0)
		return -1;
	if (jail_fs_as(l->uid, l->gid) != 0)
		return -1;
	if (mkdir_owned(l->host_cache, l->uid, 0700) == 0 &&
	    jail_join(sub, sizeof sub, l->host_cache, "/npm") == 0 &&
	    mkdir_owned(sub, l->uid, 0700) == 0 &&
	    jail_join(sub, sizeof sub, l->host_cache, "/xdg") == 0 &&
	    mkdir_owned(sub, l->uid, 0700) == 0)
		rc = 0;
	jail_fs_back();
	if (chmod(box, 0710) != 0)
		rc = -1;
	return rc;
}

/* A registration's cache past --cache-size, called with its uid idle
 * (uidpool_idle_key): emptied, and said. A cache that cannot be
 * measured counts as past it. */
void
jail_dirs_trim_cache(void *ctx, uint32_t uid)
{
	const struct jail_trim *t = ctx;
	const struct jail_lease *l = t->l;
	char box[PATH_MAX], data[PATH_MAX];
	uint64_t used = 0;
	int rc;

	if ((size_t)snprintf(box, sizeof box, "%s/cache/%s",
	    l->j->cfg.state_dir, t->key) >= sizeof box ||
	    jail_join(data, sizeof data, box, "/data") != 0 ||
	    jail_fs_as(uid, uid) != 0)
		return;
	rc = disk_tree_bytes(data, &used);	/* the box is root's */
	jail_fs_back();
	if (rc == 0 && used <= l->limits.cache_size)
		return;
	jail_dirs_remove(box, uid, uid, 1);
	log_event(LOG_WARN, "package cache over --cache-size: emptied",
	    (struct log_field[]){ LF_STR("lease", l->id),
	    LF_STR("key", t->key), LF_NUM("uid", uid), LF_NUM("bytes", used),
	    LF_NUM("cache_size", l->limits.cache_size) }, 5);
}

/* home/.npm and home/.cache lead to the registration's cache c (as the
 * lease sees it). */
int
jail_dirs_link_cache(const char *c, const char *home)
{
	char target[PATH_MAX], link[PATH_MAX];

	if ((size_t)snprintf(target, sizeof target, "%s/npm", c) >=
	    sizeof target || jail_join(link, sizeof link, home, "/.npm"))
		return -1;
	if (symlink(target, link) != 0)
		return -1;
	if ((size_t)snprintf(target, sizeof target, "%s/xdg", c) >=
	    sizeof target || jail_join(link, sizeof link, home, "/.cache") != 0)
		return -1;
	return symlink(target, link);
}
