/* uidpool.h - the uids of jailed children, from a dedicated range.
 *
 * Every uid of the range has a lock file <state>/uids/<uid> holding one
 * line: "free", "lease <id>" (one live lease owns it, exclusive flock) or
 * "reg <tenant>+<registration>" (a registration owns it for good; each of
 * its live leases holds a shared flock). The table lives in the state
 * directory, so the runner's per-connection processes, and a restarted
 * runner, agree on it; flock dies with its holder, so a crashed holder's
 * uid is found stale, swept (every process of it killed) and reused.
 *
 * A uid is only ever handed out when no process runs as it: on release
 * (and when a stale entry is taken over) a helper process drops to the uid
 * and kill(-1, SIGKILL)s until the kernel counts no other task of it
 * (RLIMIT_NPROC 2: its probe fork succeeds); setsid and double forks do
 * not escape that. Allocation moves round-robin
 * through the range, so a freed uid is reused as late as possible.
 *
 * A registration's uid is released (uidpool_drop_family, or reclaimed
 * least recently used first when no uid is free) only while no lease
 * holds it, and only after every process of it is killed and the purge
 * hook removed its files; then its record goes and the entry reads
 * "free". */
#ifndef AIRLOCK_UIDPOOL_H
#define AIRLOCK_UIDPOOL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define UIDPOOL_RANGE_MAX (1u << 20)
#define UIDPOOL_BUSY_MAX 64

/* A registration key: "tenant+registration[+approval id]". */
#define UIDPOOL_KEY_MAX 152

struct uidpool {
	char state[PATH_MAX];		/* the state directory */
	char dir[PATH_MAX];		/* <state>/uids */
	char regdir[PATH_MAX];		/* <state>/registrations */
	uint32_t first, last;
	/* Removes every file a registration's uid owns in the state
	 * directory (its cache, stale lease directories), called with no
	 * process of the uid left and its entry locked. 0, or -1: the uid
	 * is then not released. NULL: the uid has no files to remove. */
	int (*purge)(const char *state, uint32_t uid, const char *key);
	/* A one-shot service (one jail, then exit: a sandbox run) sets
	 * one_shot before uidpool_claim; the claim's scan of /proc then
	 * notes the uids of the range that had a process (busy, all of
	 * them when busy_known), and the allocation a moment later needs
	 * no scan of its own for a uid whose entry reads "free". */
	int one_shot;
	uint32_t busy[UIDPOOL_BUSY_MAX];
	size_t nbusy;
	int busy_known;
};

/* One held uid. */
struct uid_hold {
	uint32_t uid;
	int fd;				/* the flocked lock file; -1: none */
	int shared;			/* registration unit */
	int fresh;			/* take_key allocated it just now */
};

/* Make the table directories (mode 0700) below state_dir and check the
 * range: within 1..2^32-2, not containing this process's uid, at most
 * UIDPOOL_RANGE_MAX uids. 0, or -1 with a message. */
int uidpool_init(struct uidpool *p, const char *state_dir, uint32_t first,
    uint32_t last, char *err, size_t errlen);

/* A uid of its own for one lease (lease_id names it in the table). 0, or
 * -1 with a message (the range is exhausted, or the table unusable). */
int uidpool_take(const struct uidpool *p, const char *lease_id,
    struct uid_hold *h, char *err, size_t errlen);

/* The stable uid of key (allocated and recorded on first use), held
 * shared for one lease. 0, or -1 with a message. */
int uidpool_take_key(const struct uidpool *p, const char *key,
    struct uid_hold *h, char *err, size_t errlen);

/* Release every idle registration uid whose key starts with the first
 * family_len bytes of key and is not key itself (the earlier approvals
 * of a registration). Returns how many were released. */
int uidpool_drop_family(const struct uidpool *p, const char *key,
    size_t family_len);

/* When key has a uid that no lease holds: fn(ctx, uid) runs with its
 * entry held exclusively, so no lease of key starts meanwhile. 1 when fn
 * ran, 0 when not (no uid recorded, or a lease holds it). */
int uidpool_idle_key(const struct uidpool *p, const char *key,
    void (*fn)(void *ctx, uint32_t uid), void *ctx);

/* Evict the idle registration used least recently whose key is not keep
 * (NULL: any): every process of its uid killed, its files purged, its
 * record gone, its uid free. 0 with its key and uid, or -1 when no
 * registration is idle (or the release failed). */
int uidpool_evict_lru(const struct uidpool *p, const char *keep,
    char key[UIDPOOL_KEY_MAX + 1], uint32_t *uid);

/* What the caller of uidpool_release already did to the uid's leftovers. */
enum uid_swept {
	UID_NOT_SWEPT = 0,	/* nothing */
	UID_SWEPT = 1,		/* uid_kill_all succeeded, or the processes
				 * are gone and nothing of theirs outlives
				 * them (ns mode: the lease's own IPC
				 * namespace) */
	UID_PROCS_GONE = 2	/* no process is left (its cgroup killed
				 * them), but IPC objects in the host's IPC
				 * namespace may be */
};

/* Give the uid back. When no other lease holds it, every process still
 * running as it is killed first and its IPC objects removed
 * (uid_kill_all), or with UID_PROCS_GONE only the IPC objects; a
 * lease-unit uid is only marked free once none is left. While waiting,
 * exited children of the caller are reaped; watch's status is stored as
 * spawn_reap() does. swept: what the caller did (nothing of the uid can
 * have started since). Returns 0, or -1 if processes or IPC objects of
 * the uid survived (the entry then stays stale, swept again before
 * reuse). */
int uidpool_release(const struct uidpool *p, struct uid_hold *h,
    enum uid_swept swept,
    pid_t watch, int *status, int *found);

/* At start-up: the range must be this table's alone. Refused (-1 and a
 * message naming the flag, the id and its holder) when an account of
 * /etc/passwd or /etc/group has an id in it, or a process holds one of its
 * uids that the table does not record as a lease's or registration's.
 * Otherwise every uid the table records whose holder died but whose
 * processes live on (a crashed runner's orphans) is swept, each process
 * logged (uid, pid, comm) first; check_only sweeps nothing. Returns the
 * number of uids swept. */
int uidpool_claim(struct uidpool *p, int check_only, char *err,
    size_t errlen);

/* 1 when no live lease holds uid (its lock file is free), else 0. */
int uidpool_idle(const struct uidpool *p, uint32_t uid);

/* Kill every process of uid (kill(-1) as uid:gid, needs CAP_SETUID and
 * CAP_SETGID, not CAP_KILL) until no task of the uid is left, zombies
 * included; then remove its System V and POSIX IPC objects (ipcsweep.h),
 * which would outlive it. Reaps the caller's children meanwhile (see above). 0 when
 * none is left, -1 otherwise. */
int uid_kill_all(uint32_t uid, uint32_t gid, pid_t watch, int *status,
    int *found);

/* 1 if a live (not zombie) process other than except has uid as its
 * real, effective, saved or fs uid; 0 if none; -1 if /proc is unreadable. */
int uid_has_process(uint32_t uid, pid_t except);

/* The table's files, parsed. uidpool.c reads a file and hands its bytes
 * here; the bytes are untrusted (any bytes, buf[0..len), no NUL needed).
 * A file holds one line: the bytes before its first '\n' (all of buf if
 * there is none); what follows (the space padding of a record) is
 * ignored. */
enum uidpool_entry_kind {
	UIDPOOL_ENTRY_FREE,	/* exactly "free" */
	UIDPOOL_ENTRY_LEASE,	/* "lease " and the lease id */
	UIDPOOL_ENTRY_REG,	/* "reg " and the key: the uid is the key's */
	UIDPOOL_ENTRY_STALE	/* anything else: never used, or torn */
};

struct uidpool_entry {
	enum uidpool_entry_kind kind;
	const char *name;	/* LEASE, REG: into buf, name_len bytes (any
				 * bytes, not NUL-terminated); else NULL */
	size_t name_len;
	size_t line_len;	/* the line's length, for messages */
};

/* A uid's lock file <state>/uids/<uid>. Never fails: what it does not
 * know is UIDPOOL_ENTRY_STALE (swept before reuse). */
void uidpool_entry_parse(const char *buf, size_t len,
    struct uidpool_entry *e);


/* Entries are one fixed-size record: "kind[ name]\n" padded with spaces,
 * so an update is an overwrite in place, never a truncation. */
#define UIDPOOL_ENTRY_SIZE 160

/* Format that record into line (kind and name are C strings; name may be
 * NULL). 0, or -1 if it does not fit or name holds a '\n' (it could not
 * be read back). */
int uidpool_entry_format(char line[UIDPOOL_ENTRY_SIZE], const char *kind,
    const char *name);

#endif
