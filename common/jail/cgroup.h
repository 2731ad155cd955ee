/* cgroup.h - per-lease control groups: memory (swap 0), pids and CPU
 * limits, the lease's peak memory, OOM kills and CPU time, and killing
 * the whole group. Two back ends:
 *   v1: the memory, pids, cpu and cpuacct hierarchies found in
 *       /proc/self/mountinfo; a service directory
 *       airlock-svc-<pidns>-<pid> is made beneath this process's own
 *       cgroup in each (so the container's own limits still hold above
 *       it), and lease-<id> beneath that;
 *   v2: a delegated directory DIR: the one given by the operator
 *       (--cgroup DIR), or else, on a host where v1 lacks a controller
 *       the limits need, the group this process was started in when it
 *       is delegated to it (its cgroup namespace's root, or systemd's
 *       Delegate=yes). The service makes its own group
 *       DIR/airlock-svc-<pidns>-<pid>, enables the controllers in DIR's
 *       subtree and makes DIR/lease-<pidns>-<pid>-<id> beside it; when
 *       this process itself lives in DIR it moves into its group (the
 *       "no internal processes" rule), and at teardown, when its group
 *       is the only one left in DIR, turns them off and moves back.
 * A service holds an exclusive flock on its own group(s) for its whole
 * life (it and its forks; the kernel drops it when the last of them
 * dies, whatever killed them): at start-up each service removes the
 * groups of services that hold no such lock any more, in any pid
 * namespace or container sharing the parent, and their lease groups.
 * Only groups of these names are ever written to or removed (not the
 * airlock-<pidns>-<pid> of an older airlock, which takes no lock). */
#ifndef AIRLOCK_CGROUP_H
#define AIRLOCK_CGROUP_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum cgroup_kind { CGROUP_NONE = 0, CGROUP_V1 = 1, CGROUP_V2 = 2 };

/* v1 hierarchies (and v2 controllers) by index. */
enum cgroup_ctl { CG_MEMORY, CG_PIDS, CG_CPU, CG_CPUACCT, CG_NCTL };
/* What a lease's statistics read: peak memory, OOM kills, CPU time,
 * forks refused. */
enum cgroup_counter { CG_PEAK, CG_OOM, CG_CPU_TIME, CG_FORKS_REFUSED,
	CG_NCOUNTER };

struct cgroup_limits {
	uint64_t memory;	/* bytes; 0 = none */
	uint64_t pids;		/* 0 = none */
	uint64_t cpu_millicpus;	/* 1000 = one CPU; 0 = none */
};

/* A group's directory (its hierarchy's mount point and the path below
 * it) in the structures below: shorter than PATH_MAX, as each of them is
 * zeroed and copied into every lease's process (a page of 4 KiB each
 * otherwise, and a page first touched costs about 15 us on a VM).
 * Kubernetes' deepest are about 250 bytes; a longer one is refused (a v1
 * hierarchy under it counts as absent). */
#define CGROUP_PATH_MAX 1024

/* What the host offers, for the start-up report. */
struct cgroup_probe {
	int v1_mounted[CG_NCTL];	/* a v1 hierarchy has the controller */
	int v1_writable[CG_NCTL];	/* ... and we may make groups in it */
	char v1_dir[CG_NCTL][CGROUP_PATH_MAX];	/* our own group in it */
	int v2_given;			/* a --cgroup DIR was given */
	int v2_own;			/* none given: v2 is mounted, and the
					 * group we were started in is DIR */
	char v2_dir[CGROUP_PATH_MAX];		/* DIR, when v2_given or v2_own */
	int v2_ok;			/* DIR is a writable cgroup2 group
					 * (v2_own: and delegated to us) */
	int v2_has[CG_NCTL];		/* controllers DIR can enable */
	char v2_why[CGROUP_PATH_MAX + 512];	/* why not, when !v2_ok */
	char v2_self[CGROUP_PATH_MAX];		/* the v2 group we live in, or "" */
};

/* v1: TCP and UDP buffers get memory / this, on their own counter (v1
 * keeps them out of the memory counter), so a lease holds at most 1.25 x
 * its memory limit in all. */
#define CGROUP_V1_SOCKET_SHARE 4

struct cgroup_service {
	enum cgroup_kind kind;
	struct cgroup_limits lim;
	int use[CG_NCTL];		/* v1: hierarchies in use */
	char dir[CG_NCTL][CGROUP_PATH_MAX];	/* v1: service dirs; v2: dir[0] */
	int made_self;			/* v2: we made self_dir */
	int moved_self;			/* v2: ... and moved into it */
	char self_dir[CGROUP_PATH_MAX];	/* v2: DIR/airlock-svc-<pidns>-<pid> */
	char tag[48];			/* "<pidns>-<pid>": v2 lease names */
	int locked[CG_NCTL];		/* lock_fd[c] holds our group's flock */
	int lock_fd[CG_NCTL];		/* v1: per hierarchy; v2: [0] */
	char enabled[64];		/* v2: controllers we enabled in DIR */
	int memsw;			/* v1: memory.memsw.* exists */
	int tcpmem;			/* v1: memory.kmem.tcp.* exists */
};

struct cgroup_lease {
	enum cgroup_kind kind;
	int n;				/* directories made */
	char dir[CG_NCTL][CGROUP_PATH_MAX];	/* v1: per hierarchy; v2: dir[0] */
	int ctl[CG_NCTL];		/* which controller each dir is */
	/* "DIR/cgroup.procs" of each, prepared for the child (no
	 * formatting after fork) */
	char procs[CG_NCTL][CGROUP_PATH_MAX + 16];
	int v2_fd;			/* v2: the group, opened for clone3's
					 * CLONE_INTO_CGROUP; else -1 */
	/* the counters' files, opened once the groups are made: a tick
	 * reads each with one pread, no path walk (-1: not there) */
	int counter_fd[CG_NCOUNTER];
};

struct cgroup_stats {
	int has_memory, has_cpu, has_pids;
	uint64_t peak_memory;	/* bytes */
	uint64_t oom_kills;
	uint64_t cpu_usec;
	uint64_t pids_max_hits;	/* forks refused by pids.max */
};

/* Look at the host: v1 hierarchies, and v2_dir (NULL: none given). With
 * trial, a v1 hierarchy or the v2 directory is writable when a group can
 * be made in it (and removed: two cgroup directory operations each);
 * without, when its mode lets this process write (a one-off run, whose
 * own group's mkdir is the trial: cgroup_setup goes on without a v1
 * hierarchy only measured that refuses it, and a v2 directory that
 * refuses it fails the run with the kernel's reason). */
void cgroup_probe(const char *v2_dir, int trial, struct cgroup_probe *p);

/* Choose the back end (v2 when v2_dir is given; else v1 when it has
 * every controller the limits need; else our own v2 group when v2 is
 * mounted; else none, refused when a limit needs a cgroup) and
 * make the service directories; p is cgroup_probe's look at the host. A limit in lim whose controller is not
 * available is an error naming it (fail closed); with no limit and no
 * usable cgroup the kind is CGROUP_NONE. v1: every writable hierarchy is
 * used (its counters: peak memory, CPU time), or with lean only those the
 * limits need (each v1 hierarchy costs a task migration per lease, about
 * 1 ms for memory and cpuacct here). 0, or -1 with a message. */
int cgroup_setup(struct cgroup_service *s, const char *v2_dir,
    const struct cgroup_probe *p, const struct cgroup_limits *lim, int lean,
    char *err, size_t errlen);

/* Remove the service directories (after every lease is gone); v2: turn
 * off the controllers it enabled and move this process back into DIR. */
void cgroup_teardown(struct cgroup_service *s);

/* 0 when s has every controller the limits m need (a service set up
 * lean has only those its start-up limits needed), or -1 with a message. */
int cgroup_limits_usable(const struct cgroup_service *s,
    const struct cgroup_limits *m, char *err, size_t errlen);

/* Make lease-<name> (v1: below the service's group; v2: lease-<tag>-<name>
 * beside it) with the limits lim (NULL: the service's). A limit
 * whose controller the service lacks is an error naming it. 0, or -1
 * with a message. */
int cgroup_lease_create(const struct cgroup_service *s, const char *name,
    const struct cgroup_limits *lim, struct cgroup_lease *l, char *err,
    size_t errlen);

/* In the child, before it drops root: move the calling process into the
 * lease's groups, unless it already is in them (v2: started there by
 * clone3 with CLONE_INTO_CGROUP and l->v2_fd, which spares the move and
 * its wait; checked, never assumed). Only open/write/close. 0, or -1 with errno. */
int cgroup_lease_attach(const struct cgroup_lease *l);

/* Start the lease's peak memory again from its usage now (v1: memory.
 * max_usage_in_bytes; v2's memory.peak resets only for the file
 * descriptor that wrote it, so not here). 0, or -1 with errno (ENOTSUP
 * on v2 or without a memory group). */
int cgroup_lease_peak_reset(const struct cgroup_lease *l);

/* Kill every process in the lease's groups (v2: cgroup.kill; v1: SIGKILL
 * each pid of cgroup.procs until it stays empty, bounded). Returns the
 * number of processes still listed (0 = empty). */
int cgroup_lease_kill(const struct cgroup_lease *l);

/* Read the counters; fields whose file is missing stay 0 with has_* 0. */
void cgroup_lease_stats(const struct cgroup_lease *l, struct cgroup_stats *st);

/* Close the counters' files and remove the lease's directories
 * (retrying briefly while the last tasks exit). 0, or -1 with errno when
 * one remains. */
int cgroup_lease_remove(struct cgroup_lease *l);

const char *cgroup_ctl_name(enum cgroup_ctl c);

/* Parsers of the kernel's cgroup text, over buf[0..len) (not assumed
 * NUL-terminated; a NUL ends the text). Pure: no I/O, no allocation.
 *
 * The value of the first line "KEY N" (key: a C string of ours, e.g.
 * "oom_kill" in memory.events); N read as strtoull would (no digits: 0,
 * overflow: UINT64_MAX). 0 and *v, or -1 when no line has the key. */
int cgroup_parse_key(const char *buf, size_t len, const char *key,
    uint64_t *v);

/* The pids of a cgroup.procs text (decimal numbers separated by white
 * space; parsing stops at the first thing that is not one), at most cap
 * of them into out, in order; numbers outside 1..INT_MAX are skipped.
 * Returns the count (<= cap). */
size_t cgroup_parse_pids(const char *buf, size_t len, pid_t *out,
    size_t cap);

#endif
