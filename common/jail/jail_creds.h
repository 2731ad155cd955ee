/* jail_creds.h - a jailed child's credentials: its user namespace's id
 * maps, every capability dropped for good, and the check that root cannot
 * be regained. Runs in the child (no allocation). */
#ifndef AIRLOCK_JAIL_CREDS_H
#define AIRLOCK_JAIL_CREDS_H

#include <stdint.h>
#include <sys/types.h>

#define JAIL_CAP_BIT(c) (1ull << (c))

/* This process's effective capability set, from capget(2); 0 when it
 * fails (then callers see no capability: they refuse a mode or keep
 * less). */
uint64_t jail_caps_effective(void);

/* Drop every capability: the bounding set and the securebits lock only
 * with have_setpcap (CAP_SETPCAP held); ambient, effective, permitted and
 * inheritable always. 0, or -1 with errno. */
int jail_caps_drop(int have_setpcap);

/* Keep only the capabilities in keep (effective and permitted; ambient
 * and inheritable cleared), for a process that never execs. 0, or -1. */
int jail_caps_only(uint64_t keep);

/* 0 when the process is uid:gid in all its ids, has no supplementary
 * group and no capability, and setresuid(0...) fails; else -1 (EPERM). */
int jail_creds_verify_dropped(uid_t uid, gid_t gid);

/* In a fresh user namespace: map uid and gid to themselves, setgroups
 * denied. 0, or -1 with errno. */
int jail_creds_write_maps(uid_t uid, gid_t gid);

#endif
