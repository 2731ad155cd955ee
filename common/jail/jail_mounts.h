/* jail_mounts.h - what a lease sees: a /proc of its own, ns mode's new
 * root (the view bound read-only, a minimal /dev, tmpfs or disk-backed
 * /tmp, HOME and work dir, generated /etc files), the execution's capped
 * disk, and Landlock's list of the same paths. The mounting functions run
 * in the child, as the jail steps of jail_lease_enter. */
#ifndef AIRLOCK_JAIL_MOUNTS_H
#define AIRLOCK_JAIL_MOUNTS_H

#include "common/jail/jail_types.h"

/* Where a lease's things are inside ns mode's root. */
#define JAIL_NS_HOME "/home/airlock"
#define JAIL_NS_CACHE "/cache"
#define JAIL_NS_WORK "/work"
#define JAIL_NS_SELF_DIR "/usr/lib/airlock"
#define JAIL_NS_SELF JAIL_NS_SELF_DIR "/airlock"

/* A fresh procfs at `at` (hidepid=invisible), the host's files in it
 * masked and the kernel's knobs read-only. 0, or -1 with errno. */
int jail_mount_proc(const char *at);

/* uid mode: new mount, IPC and pid namespaces (CAP_SYS_ADMIN); the
 * caller's next child is pid 1 of the new pid namespace. 0, or -1. */
int jail_private_unshare(void);

/* uid mode, in that pid 1: / private, the new pid namespace's /proc (as
 * above) over the host's. 0, or -1 with errno. */
int jail_private_proc(void);

/* uid mode, in the child's own mount namespace: the execution's disk (a
 * tmpfs of limits.disk) over its lease directory, its directories made,
 * the disk sent to the service on SPAWN_PASS_FD. 0, or -1 with errno. */
int jail_mounts_uid_disk(struct jail_lease *l);

/* ns mode, as pid 1: build the new root at l->host_root, pivot_root into
 * it, seal it read-only; *step names the failed step. 0, or -1. */
int jail_mounts_build_root(struct jail_lease *l, const char **step);

/* l->ll: Landlock's read-only and read-write paths and ports for l, the
 * same view the ns root shows. */
void jail_mounts_landlock(struct jail_lease *l);

#endif
