/* diskquota.c - measuring a lease's trees and the state volume, and the
 * watch that ends a lease past its share (diskquota.h). */
#include "common/jail/diskquota.h"

#include "common/base/dirents.h"
#include "common/base/log.h"
#include "common/base/procscan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

struct walk {
	dev_t dev;		/* the tree's own file system */
	uint64_t bytes, entries;
};

static uint64_t
entry_bytes(const struct stat *st)
{
	uint64_t b = (uint64_t)st->st_blocks * 512u;

	return b < DISK_ENTRY_BYTES ? DISK_ENTRY_BYTES : b;
}

/* Add what the directory dirfd holds (closed here). */
static int
walk_dir(struct walk *w, int dirfd, int depth)
{
	struct dirents d;
	struct dirent *e;
	int rc = 0;

	dirents_on(&d, dirfd);
	while (rc == 0 && (e = dirents_next(&d))) {
		struct stat st;
		int sub;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (++w->entries > DISK_ENTRIES_MAX) {
			errno = EFBIG;
			rc = -1;
			break;
		}
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			if (errno == ENOENT)	/* removed meanwhile */
				continue;
			rc = -1;
			break;
		}
		if (st.st_dev != w->dev)	/* a mount point: not ours */
			continue;
		w->bytes += entry_bytes(&st);
		if (!S_ISDIR(st.st_mode))
			continue;
		if (depth >= DISK_DEPTH_MAX) {
			errno = ELOOP;
			rc = -1;
			break;
		}
		sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			if (errno == ENOENT)
				continue;
			rc = -1;
			break;
		}
		rc = walk_dir(w, sub, depth + 1);
	}
	close(dirfd);
	return rc;
}

int
disk_tree_bytes(const char *path, uint64_t *bytes)
{
	struct walk w = { 0, 0, 0 };
	struct stat st;
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	w.dev = st.st_dev;
	w.bytes = entry_bytes(&st);
	if (walk_dir(&w, fd, 0) != 0)
		return -1;
	*bytes += w.bytes;
	return 0;
}

struct unlinked {
	uint32_t uid;
	dev_t dev;
	uint64_t bytes;
};

static int
add_unlinked(void *ctx, const struct proc_owner *o)
{
	struct unlinked *u = ctx;
	char dir[64], fd[96];
	struct dirents d;
	struct dirent *e;
	uint32_t who;

	if (!proc_owner_in_range(o, u->uid, u->uid, &who))
		return 0;
	snprintf(dir, sizeof dir, "/proc/%d/fd", (int)o->pid);
	if (dirents_open(&d, AT_FDCWD, dir) != 0)
		return 0;	/* gone meanwhile */
	while ((e = dirents_next(&d))) {
		struct stat st;

		if (e->d_name[0] == '.' || (size_t)snprintf(fd, sizeof fd,
		    "%s/%s", dir, e->d_name) >= sizeof fd)
			continue;
		if (stat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_nlink == 0 && st.st_dev == u->dev)
			u->bytes += (uint64_t)st.st_blocks * 512u;
	}
	dirents_close(&d);
	return 0;
}

int
disk_unlinked_open(uint32_t uid, dev_t dev, uint64_t *bytes)
{
	struct unlinked u = { uid, dev, 0 };

	if (procscan(-1, add_unlinked, &u) < 0)
		return -1;
	*bytes += u.bytes;
	return 0;
}

int
disk_volume_free(const char *path, uint64_t *bytes)
{
	struct statvfs sv;

	if (statvfs(path, &sv) != 0)
		return -1;
	*bytes = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
	/* no inode left is as full as no block left */
	if (sv.f_files > 0 && sv.f_favail == 0)
		*bytes = 0;
	return 0;
}

int
disk_errno_full(int e)
{
	return e == ENOSPC || e == EDQUOT;
}

void
disk_no_space(char *err, size_t errlen, const char *state, const char *what,
    int e)
{
	snprintf(err, errlen, "no space on the state volume %s (%s: %s)",
	    state, what, strerror(e));
}

/* The reserve's file, locked: <state>/reserve, root's, 0600. Its fd,
 * and its allocated size in *held; or -1. */
static int
reserve_open(const char *state, int create, uint64_t *held)
{
	char path[4096];
	struct stat st;
	int fd;

	if ((size_t)snprintf(path, sizeof path, "%s/reserve", state) >=
	    sizeof path)
		return -1;
	fd = openat(AT_FDCWD, path, O_RDWR | (create ? O_CREAT : 0) |
	    O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX) != 0 || fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	*held = (uint64_t)st.st_blocks * 512u;
	return fd;
}

/* Grow the reserve towards size from what is free beyond twice the
 * floor (new leases keep room to start meanwhile); shrink it to size
 * when it holds more (0: a reserve of an earlier configuration is given
 * back, none made). The free space after, in *avail. */
static void
reserve_fill(const char *state, uint64_t size, uint64_t *avail)
{
	uint64_t held, add;
	int fd = reserve_open(state, size > 0, &held);

	if (fd < 0)
		return;
	if (held > size) {
		(void)ftruncate(fd, (off_t)size);
	} else if (held < size && *avail > 2ull * DISK_FLOOR_BYTES) {
		add = size - held;
		if (add > *avail - 2ull * DISK_FLOOR_BYTES)
			add = *avail - 2ull * DISK_FLOOR_BYTES;
		/* allocated, not sparse: the blocks are taken now */
		(void)fallocate(fd, 0, (off_t)held, (off_t)add);
	}
	close(fd);
	(void)disk_volume_free(state, avail);
}

/* Give need bytes of the reserve back to the volume (for a lease about
 * to start on a full volume). The free space after, in *avail. */
static uint64_t
reserve_draw(const char *state, uint64_t need, uint64_t *avail)
{
	uint64_t held;
	int fd = reserve_open(state, 0, &held);

	if (fd < 0)
		return 0;
	need = need < held ? need : held;
	(void)ftruncate(fd, (off_t)(held - need));
	close(fd);
	(void)disk_volume_free(state, avail);
	return need;
}

int
disk_reserve_fits(const char *state, uint64_t reserve, char *err,
    size_t errlen)
{
	struct statvfs sv;
	uint64_t size;

	if (statvfs(state, &sv) != 0) {
		snprintf(err, errlen, "state directory %s: statvfs: %s", state,
		    strerror(errno));
		return -1;
	}
	size = (uint64_t)sv.f_blocks * (uint64_t)sv.f_frsize;
	if (reserve && size <= reserve + 2ull * DISK_FLOOR_BYTES) {
		snprintf(err, errlen, "--disk-reserve %llu MiB: the state "
		    "volume of %s holds %llu MiB in all, no room left for "
		    "leases (lower it, or 0 for none)",
		    (unsigned long long)(reserve >> 20), state,
		    (unsigned long long)(size >> 20));
		return -1;
	}
	return 0;
}

int
disk_make_room(disk_evict_fn *evict, const void *ctx, const char *state,
    uint64_t reserve, const char *keep, char *err, size_t errlen)
{
	char key[160];	/* a registration key (UIDPOOL_KEY_MAX, 152) */
	uint64_t avail, after, drawn;
	uint32_t uid;

	if (disk_volume_free(state, &avail) != 0) {
		snprintf(err, errlen, "state directory %s: statvfs: %s", state,
		    strerror(errno));
		return -1;
	}
	for (int i = 0; i < DISK_EVICT_MAX && avail < reserve && evict; i++) {
		if (evict(ctx, keep, key, sizeof key, &uid) != 0)
			break;
		if (disk_volume_free(state, &after) != 0)
			after = avail;
		log_event(LOG_WARN, "idle package cache evicted: the state "
		    "volume is below --disk-reserve", (struct log_field[]){
		    LF_STR("key", key), LF_NUM("uid", uid),
		    LF_NUM("freed", after > avail ? after - avail : 0),
		    LF_NUM("free", after), LF_NUM("reserve", reserve) }, 5);
		avail = after;
	}
	/* reserve 0: one an earlier configuration held is given back */
	reserve_fill(state, reserve, &avail);
	if (avail < DISK_FLOOR_BYTES && reserve) {
		/* full: the reserve exists for this */
		drawn = reserve_draw(state, 2ull * DISK_FLOOR_BYTES - avail,
		    &avail);
		if (drawn)
			log_event(LOG_WARN, "state volume full: a new lease "
			    "draws on the reserve", (struct log_field[]){
			    LF_NUM("drawn", drawn), LF_NUM("free", avail) }, 2);
	}
	if (avail < DISK_FLOOR_BYTES) {
		snprintf(err, errlen, "no space on the state volume %s: %llu "
		    "KiB free, a lease needs %u MiB", state,
		    (unsigned long long)(avail >> 10), DISK_FLOOR_BYTES >> 20);
		return -1;
	}
	return 0;
}

void
disk_watch_start(struct disk_watch *w, uint64_t home_cap, uint64_t cache_cap,
    uint64_t reserve, int64_t now)
{
	memset(w, 0, sizeof *w);
	w->home_cap = home_cap;
	w->cache_cap = cache_cap;
	w->reserve = reserve;
	w->next_tick = now;
	w->next_walk = now;
}

int64_t
disk_watch_deadline(const struct disk_watch *w)
{
	return w->home_cap || w->cache_cap || w->reserve ? w->next_tick : -1;
}

static uint64_t
mib(uint64_t b)
{
	return (b + (1u << 20) - 1) >> 20;
}

/* The loss of free space since the last walk past which this lease could
 * be over a cap: half its smallest headroom, at least a page; any loss on
 * a volume full but for its reserve. */
static uint64_t
walk_threshold(const struct disk_watch *w, uint64_t avail)
{
	uint64_t t = UINT64_MAX;

	if (avail < DISK_FLOOR_BYTES && w->reserve)
		return 1;
	if (w->home_cap)
		t = w->home_cap > w->home_used ? w->home_cap - w->home_used : 0;
	if (w->cache_cap && (w->cache_cap > w->cache_used ? w->cache_cap -
	    w->cache_used : 0) < t)
		t = w->cache_cap > w->cache_used ? w->cache_cap -
		    w->cache_used : 0;
	t /= 2;
	return t < DISK_ENTRY_BYTES ? DISK_ENTRY_BYTES : t;
}

int
disk_watch_tick(struct disk_watch *w, int64_t now, const char *state,
    disk_measure_fn measure, void *ctx, char *why, size_t whylen)
{
	uint64_t avail = 0, home = 0, cache = 0, lost;
	int measured;

	if (disk_watch_deadline(w) < 0 || now < w->next_tick)
		return 0;
	if (disk_volume_free(state, &avail) != 0)
		avail = 0;	/* unknown: look at the trees */
	/* while the volume fills fast, look often: the overshoot past a cap
	 * is what a lease writes between two looks (a volume's background
	 * churn stays under DISK_FAST_LOSS a look) */
	w->next_tick = now + (avail + DISK_FAST_LOSS <= w->free_at_tick ?
	    DISK_TICK_FAST_MS : DISK_TICK_MS);
	w->free_at_tick = avail;
	/* a walk costs a lease's files, statvfs one syscall: walk when the
	 * volume lost what could take the lease past a cap, or now and
	 * then (another lease's deletions can hide a loss) */
	lost = w->free_at_walk > avail ? w->free_at_walk - avail : 0;
	if (w->walked && now < w->next_walk && lost < walk_threshold(w, avail))
		return 0;
	measured = measure(ctx, &home, &cache) == 0;
	w->next_walk = now + DISK_WALK_MS;
	if (!measured) {
		snprintf(why, whylen, "disk: the lease's files cannot be "
		    "measured (unreadable, more than %u entries or deeper "
		    "than %u)", DISK_ENTRIES_MAX, DISK_DEPTH_MAX);
		return 1;
	}
	if (w->home_cap && home > w->home_cap) {
		snprintf(why, whylen, "disk: HOME, TMPDIR and the files it "
		    "holds open unlinked take %llu MiB, over --home-size %llu "
		    "MiB", (unsigned long long)mib(home),
		    (unsigned long long)mib(w->home_cap));
		return 1;
	}
	if (w->cache_cap && cache > w->cache_cap) {
		snprintf(why, whylen, "disk: the package cache holds %llu "
		    "MiB, over --cache-size %llu MiB",
		    (unsigned long long)mib(cache),
		    (unsigned long long)mib(w->cache_cap));
		return 1;
	}
	/* the volume is full but for the reserve (which the runner draws on
	 * for new leases): what still grows is what eats that */
	if (w->walked && w->reserve && avail < DISK_FLOOR_BYTES &&
	    home + cache > w->home_used + w->cache_used) {
		snprintf(why, whylen, "disk: the state volume is full but for "
		    "its reserve (%llu KiB free) and the lease still grows",
		    (unsigned long long)(avail >> 10));
		return 1;
	}
	w->home_used = home;
	w->cache_used = cache;
	w->free_at_walk = avail;
	w->walked = 1;
	return 0;
}
