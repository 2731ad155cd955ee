/* jail_types.h - what the jail's modules share without including one
 * another: the modes and options, the limits, the service's and a
 * lease's state (struct jail, struct jail_lease), the host's probe, and
 * the child side's step convention. The API over them is jail.h. */
#ifndef AIRLOCK_JAIL_TYPES_H
#define AIRLOCK_JAIL_TYPES_H

#include <limits.h>
#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/jail/cgroup.h"
#include "common/jail/jailview.h"
#include "common/jail/landlock.h"
#include "common/jail/uidpool.h"

enum jail_mode { JAIL_NONE = 0, JAIL_UID = 1, JAIL_NS = 2 };

/* Every jailed child's /proc/self/oom_score_adj (the kernel's maximum):
 * where no cgroup bounds a lease, the OOM killer of the container (or the
 * host) then picks leases before the service, whose own value stays as
 * it started, and among leases the one using the most memory. */
#define JAIL_OOM_SCORE_ADJ 1000

/* uid mode's proxy and pid 1 (forks of the service that never exec: their
 * resident size is the service's shared pages): after every server, before
 * the service. The server raises itself to JAIL_OOM_SCORE_ADJ while still
 * root. */
#define JAIL_OOM_HELPER_ADJ 500

enum jail_landlock {
	JAIL_LANDLOCK_AUTO = 0,	/* apply what the kernel offers, say what not */
	JAIL_LANDLOCK_REQUIRE,	/* refuse to start without every feature */
	JAIL_LANDLOCK_OFF
};

/* What one uid stands for (see docs/JAIL.md for the trade-off). */
enum jail_unit {
	JAIL_UNIT_REGISTRATION = 0,	/* stable per (tenant, registration):
					 * its package cache persists */
	JAIL_UNIT_LEASE = 1		/* a fresh uid per lease, no cache */
};

#define JAIL_PATHS_MAX 48	/* extra read-only paths */
#define JAIL_PORTS_MAX 64
#define JAIL_FILES_MAX 16
#define JAIL_ID_MAX 64

/* A lease's paths (below the state directory, or as the child sees them)
 * and so the state directory's, with room for what goes below it: short
 * of PATH_MAX, as a lease's structure is zeroed at every start (a page
 * of 4 KiB each otherwise, and on a VM a page first touched costs about
 * 15 us). */
#define JAIL_PATH_MAX 1024
#define JAIL_STATE_DIR_MAX (JAIL_PATH_MAX - 320)

struct jail_limits {
	uint64_t memory;	/* bytes, cgroup, swap 0; 0 = no limit */
	uint64_t pids;		/* cgroup pids.max; 0 = no limit */
	uint64_t cpu_millicpus;	/* cgroup CPU bandwidth, 1000 = 1 CPU; 0 none */
	uint64_t nproc;		/* RLIMIT_NPROC (per uid); 0 = unchanged */
	uint64_t nofile;	/* RLIMIT_NOFILE; 0 = unchanged */
	uint64_t fsize;		/* RLIMIT_FSIZE, bytes; 0 = unchanged */
	uint64_t cpu_seconds;	/* RLIMIT_CPU; 0 = unchanged */
	uint64_t tmpfs;		/* ns: size of /tmp and of /work, bytes;
				 * 0 = 64 MiB (without disk) */
	uint64_t disk;		/* the sandbox: HOME, TMPDIR, /tmp, /dev/shm
				 * and the work dir on one tmpfs of this many
				 * bytes and disk / JAIL_DISK_INODE_BYTES
				 * inodes, charged to the lease's memory
				 * cgroup; 0: the runner's layout */
	uint64_t home_size;	/* the runner: what HOME, TMPDIR and the
				 * work dir may hold on the state volume
				 * (common/jail/diskquota.h); 0 = no cap */
	uint64_t cache_size;	/* the runner: what a registration's
				 * package cache may hold; 0 = no cap */
	uint64_t disk_reserve;	/* the runner: space of the state volume
				 * held for new leases (diskquota.h); below
				 * it idle caches are evicted; 0 = none */
};

#define JAIL_DISK_INODE_BYTES 4096	/* one file (or link) per page */
#define JAIL_DISK_INODES_MIN 1024

/* One service's jail, fixed at start-up. Strings and arrays are borrowed:
 * they must outlive the struct jail. */
struct jail_config {
	enum jail_mode mode;
	enum jail_unit unit;		/* uid/ns */
	uint32_t uid_first, uid_last;	/* uid/ns: a range no one else uses */
	const char *state_dir;		/* HOMEs, caches, the uid table */
	const char *cgroup_dir;		/* delegated cgroup v2 dir; NULL: v1
					 * hierarchies if writable */
	int cgroup_lean;		/* v1: only the hierarchies the limits
					 * need (no CPU time counter without a
					 * CPU limit); saves ~1 ms a lease */
	struct jail_limits limits;
	int new_net;			/* an empty network namespace (uid
					 * mode: needs CAP_SYS_ADMIN, as does
					 * limits.disk there) */
	enum jail_landlock landlock;
	int allow_bind;			/* Landlock: allow TCP bind */
	const uint16_t *egress_ports;	/* Landlock: TCP connect only to
					 * these; NULL/0: any port */
	size_t negress;
	const char *const *ro_paths;	/* read+exec, beyond the system list */
	size_t nro;
	const char *path;		/* the children's PATH: its dirs join
					 * the read-only list */
	const char *const *launchers;	/* names looked up on path, or
					 * absolute paths: their own files join
					 * the list (common/jail/jailview.h) */
	size_t nlaunchers;
	const char *self_exe;		/* the service's binary, run inside
					 * (the sandbox's Java stage): ns
					 * copies it to a fixed path, uid
					 * grants its own; see jail_self_exe */
	const struct sock_fprog *seccomp; /* uid/ns: required */
	unsigned landlock_abi_cap;	/* test hook: act as if the kernel's
					 * ABI were at most this; 0 = off */
	int one_shot;			/* one jail, then exit: jail_init runs
					 * no trial jail (the real one is the
					 * trial, every step still checked);
					 * jail_diagnose explains a failure */
	int check_only;			/* a preflight (--check): every check
					 * of jail_init, nothing swept or
					 * removed that a live service may own */
};

/* What the host offers (jail_probe), for --check and start-up refusals. */
struct jail_host {
	uint32_t uid;			/* our own */
	int cap_setuid, cap_setgid, cap_kill, cap_setpcap, cap_sysadmin;
	int uid_private_ok;		/* uid mode can unshare net and mount
					 * namespaces and mount a tmpfs (asked
					 * only with new_net or limits.disk) */
	char uid_private_why[160];
	int max_userns;			/* /proc/sys/user/max_user_namespaces */
	int userns_clone_sysctl;	/* kernel.unprivileged_userns_clone,
					 * -1 when absent */
	int apparmor_userns;		/* kernel.apparmor_restrict_unprivileged
					 * _userns, -1 when absent */
	int userns_ok;			/* the real probe created the ns set */
	char userns_why[256];
	int seccomp_ok;			/* a filter could be installed */
	char seccomp_why[160];
	int oom_score_adj;		/* our own; leases get
					 * JAIL_OOM_SCORE_ADJ, above it unless
					 * it is that already */
	int proc_ok;			/* uid mode: a lease's own /proc
					 * (probe_proc; only probed for uid) */
	char proc_why[160];
	char apparmor[64];		/* this process's AppArmor confinement
					 * ("docker-default (enforce)"); ""
					 * when AppArmor is off */
	unsigned landlock_abi;		/* the kernel's (after the test cap) */
	const char *landlock_why;
	struct cgroup_probe cg;
	int mode_ok[3];			/* by enum jail_mode */
	char mode_why[3][384];		/* why not */
};

/* One service's jail, filled by jail_init. Read-only afterwards, so the
 * per-connection processes that inherit it share it safely. */
struct jail {
	struct jail_config cfg;
	struct jail_host host;
	unsigned landlock_abi;		/* ABI the leases use; 0 = no Landlock */
	unsigned landlock_features;	/* enum landlock_feature bits applied */
	unsigned landlock_lacking;	/* wanted but not offered (auto mode) */
	int proc_private;		/* leases mount their own /proc: ns
					 * always; uid with CAP_SYS_ADMIN. 0:
					 * other leases' /proc/PID/cmdline and
					 * status stay readable */
	struct jail_view view;		/* the read-only list, the ns links */
	struct uidpool uids;
	struct cgroup_service cg;
	char ns_root[JAIL_PATH_MAX];	/* ns: <state>/ns-root, where each
					 * lease mounts its root in its own
					 * mount namespace */
};

/* A file the child finds in its work directory (sandbox programs). */
struct jail_file {
	const char *name;		/* a plain name: no '/', not . or .. */
	const void *data;
	size_t len;
	unsigned mode;			/* e.g. 0600 */
};

/* What one lease/execution is. */
struct jail_request {
	const char *id;			/* [A-Za-z0-9_-]{1,64}, unique */
	const char *tenant;		/* registration unit: with registration,
					 * the uid and package-cache key */
	const char *registration;	/* NULL: no cache, a fresh uid */
	const char *approval;		/* the verified approval token's id
					 * (base64url, 22 chars) or NULL: with
					 * it, the uid and cache are that
					 * approval's, never a revoked or
					 * superseded one's */
	int self;			/* ns: the service's binary in the view
					 * (JAIL_NS_SELF, copied: cfg.self_exe)
					 * for what runs it there (the Java
					 * stage); uid mode: Landlock's list
					 * has it whatever this says */
	int work;			/* make a work dir, start the child in
					 * it: ns /work (tmpfs, limits.tmpfs),
					 * uid <lease>/work (RLIMIT_FSIZE only) */
	int work_on_volume;		/* ns: the work dir is <lease>/work
					 * on the state volume, bound at /work,
					 * for a caller that reads what the
					 * command left there (a lock jail) */
	const struct jail_file *files;	/* written into the work dir */
	size_t nfiles;
	const struct jail_limits *limits; /* this lease's own limits (the
					 * sandbox's per-tool budget); NULL:
					 * the service's cfg.limits */
};

struct jail_lease {
	const struct jail *j;
	char id[JAIL_ID_MAX + 1];
	uint32_t uid, gid;
	struct uid_hold hold;
	char dir[JAIL_PATH_MAX];	/* <state>/lease-<id> (host) */
	char home[JAIL_PATH_MAX];	/* HOME as the child sees it */
	char tmpdir[JAIL_PATH_MAX];	/* TMPDIR as the child sees it */
	char workdir[JAIL_PATH_MAX];	/* "" without work */
	char host_home[JAIL_PATH_MAX], host_tmp[JAIL_PATH_MAX];
	char host_work[JAIL_PATH_MAX];
	char host_cache[JAIL_PATH_MAX];	/* "" without a cache */
	char host_root[JAIL_PATH_MAX];	/* ns: the new root's mount point
					 * (jail.ns_root; <lease>/root with
					 * its work dir on the volume) */
	struct cgroup_lease cg;
	struct jail_limits limits;	/* in force for this lease */
	struct landlock_spec ll;	/* prepared for the child */
	const struct jail_file *files;
	size_t nfiles;
	int dirs_made, cg_made;
	int self;			/* the request's self, with cfg.self_exe */
	int work_on_volume;		/* ns: the request's, with work */
	int disk_sock[2];		/* limits.disk: the child sends its
					 * tmpfs on [1]; -1 otherwise */
	int disk_fd;			/* that tmpfs's root (O_PATH), -1 */
	enum uid_swept swept;		/* what of the uid is gone already */
};

struct jail_stats {
	int has_memory, has_cpu, has_pids;	/* a cgroup measured it */
	uint64_t peak_memory;		/* bytes */
	uint64_t oom_kills;		/* processes killed by the limit */
	uint64_t cpu_usec;		/* CPU time of the whole lease */
	uint64_t pids_max_hits;		/* forks refused by the pids limit */
	int has_disk;			/* limits.disk: measured */
	int disk_full;			/* no block or no inode left */
	uint64_t disk_used;		/* bytes in use */
	uint64_t disk_files;		/* inodes in use (files, dirs, links) */
};

/* One named step of the child side: *step names it, and a failure ends
 * the steps (-1, errno set by the step). */
#define JAIL_STEP(name, expr) do { *step = (name); if ((expr) != 0) \
	return -1; } while (0)

#endif
