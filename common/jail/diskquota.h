/* diskquota.h - a lease's share of the state volume: what a tree holds,
 * what the volume has left, and the watch that ends a lease past its
 * share.
 *
 * In uid mode a lease writes its HOME, TMPDIR and work dir, and in both
 * modes its registration's package cache, on the state volume, where no
 * mount can cap it without CAP_SYS_ADMIN (and a tmpfs cap is charged to
 * memory, which a persistent cache must not be). So the runner accounts:
 *   - a tree's size is measured by a walk (allocated blocks, each entry
 *     counted at least DISK_ENTRY_BYTES, so empty files cannot exhaust
 *     inodes for free); a tree it cannot measure completely (unreadable,
 *     deeper than DISK_DEPTH_MAX, more than DISK_ENTRIES_MAX entries)
 *     counts as over any cap: fails closed;
 *   - the watch of one lease looks at the volume's free space (one
 *     statvfs) every DISK_TICK_MS, every DISK_TICK_FAST_MS while the
 *     volume loses DISK_FAST_LOSS or more between looks; it walks the
 *     lease's trees when the volume lost half of what the lease had left
 *     under a cap since the last walk, or DISK_WALK_MS passed: a lease
 *     past a cap, or one that still grows when the volume is full but
 *     for the reserve, is ended;
 *   - the reserve is a file of the runner's in the state directory whose
 *     blocks are allocated (fallocate), so no lease can write into them
 *     however fast it writes; a new lease that finds the volume full
 *     draws on it, and each lease start fills it again from free space;
 *   - a new lease that finds the volume below the reserve first evicts
 *     idle registrations (uidpool_evict_lru), at most DISK_EVICT_MAX.
 * This is not a kernel quota: a lease can overshoot its cap by what it
 * writes between a look and its end (docs/JAIL.md "Disk" has the figures
 * and what kernel quotas would add). */
#ifndef AIRLOCK_DISKQUOTA_H
#define AIRLOCK_DISKQUOTA_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define DISK_ENTRY_BYTES 4096		/* the least one entry counts */
#define DISK_ENTRIES_MAX 500000		/* a walk gives up past this */
#define DISK_DEPTH_MAX 128
#define DISK_TICK_MS 50		/* a look while the volume is quiet */
#define DISK_TICK_FAST_MS 5		/* ... and while it fills */
#define DISK_FAST_LOSS (1u << 20)	/* lost since a look: it fills */
#define DISK_WALK_MS 5000
#define DISK_FLOOR_BYTES (4u << 20)	/* below: no new lease starts */
#define DISK_EVICT_MAX 8		/* idle caches one lease may evict */

struct uidpool;

/* The bytes the tree at path holds, into *bytes (added to it): not
 * following links, not crossing into other mounts. 0; or -1 with errno
 * when some of it could not be measured (ENOENT for path itself is 0:
 * nothing there). The caller sets the file-system identity to use. */
int disk_tree_bytes(const char *path, uint64_t *bytes);

/* Add to *bytes the blocks of regular files on device dev that no
 * directory names any more but a process of uid still holds open (space
 * a walk cannot see). Counted per open descriptor: a file open twice
 * counts twice (over, never under). The caller's file-system identity
 * must be uid's (/proc/PID/fd is readable to its owner). 0, or -1 when
 * /proc cannot be read. Not seen: a file only mapped (mmap, then closed)
 * or only in flight in a unix socket. */
int disk_unlinked_open(uint32_t uid, dev_t dev, uint64_t *bytes);

/* The bytes an unprivileged user may still write on the volume of path
 * (statvfs f_bavail), into *bytes. 0, or -1 with errno. */
int disk_volume_free(const char *path, uint64_t *bytes);

/* 1 when e says a volume or quota is full (ENOSPC, EDQUOT). */
int disk_errno_full(int e);

/* The message for a write the state volume refused: "no space on the
 * state volume STATE (what: strerror)". */
void disk_no_space(char *err, size_t errlen, const char *state,
    const char *what, int e);

/* Evicts the idle registration used least recently whose key is not
 * keep (NULL: any), naming it in key (keylen bytes) and its uid: 0, or -1
 * when none is idle. The uid pool provides it (jail.c); diskquota sits
 * below the pool and does not know it. */
typedef int disk_evict_fn(const void *ctx, const char *keep, char *key,
    size_t keylen, uint32_t *uid);

/* Before a lease opens: while the free space of state's volume is below
 * reserve, evict idle registrations through evict (NULL: none to evict;
 * least recently used first, never keep's, at most DISK_EVICT_MAX), each
 * logged with its key and the space it gave back. Then 0, or -1 with a
 * "no space" message naming state when under DISK_FLOOR_BYTES are free. */
int disk_make_room(disk_evict_fn *evict, const void *ctx, const char *state,
    uint64_t reserve, const char *keep, char *err, size_t errlen);

/* The reserve must leave the volume room for leases: the volume of state
 * holds more than reserve and twice DISK_FLOOR_BYTES. 0, or -1 with a
 * message naming --disk-reserve and the volume's size. */
int disk_reserve_fits(const char *state, uint64_t reserve, char *err,
    size_t errlen);

/* One lease's caps (bytes; 0 = none) and what the watch last saw. */
struct disk_watch {
	uint64_t home_cap, cache_cap, reserve;
	uint64_t home_used, cache_used;		/* at the last walk */
	uint64_t free_at_walk;			/* the volume's, then */
	uint64_t free_at_tick;			/* ... at the last look */
	int64_t next_tick, next_walk;		/* monotonic ms */
	int walked;				/* a walk has run */
};

/* What the lease's trees hold now: the caller's measurement, 0, or -1
 * when it could not be made (counted as over). */
typedef int (*disk_measure_fn)(void *ctx, uint64_t *home, uint64_t *cache);

/* Start watching at now with caps home_cap, cache_cap and the volume's
 * reserve. */
void disk_watch_start(struct disk_watch *w, uint64_t home_cap,
    uint64_t cache_cap, uint64_t reserve, int64_t now);

/* The next time the watch wants to run (monotonic ms), or -1 when it has
 * nothing to watch. */
int64_t disk_watch_deadline(const struct disk_watch *w);

/* Run the watch at now if it is due: statvfs of state, and a walk
 * through measure when due. 1 when the lease must end (why says the
 * figures), 0 otherwise. */
int disk_watch_tick(struct disk_watch *w, int64_t now, const char *state,
    disk_measure_fn measure, void *ctx, char *why, size_t whylen);

#endif
