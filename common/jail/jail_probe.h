/* jail_probe.h - what the host supports, learned by trying it: the
 * capabilities, user namespaces, seccomp, a private /proc, Landlock's
 * ABI, cgroups, and so which modes can run (jail_probe and the --check
 * report); and the helpers jail_init shares. */
#ifndef AIRLOCK_JAIL_PROBE_H
#define AIRLOCK_JAIL_PROBE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/jail/jail_types.h"

/* The view of c (common/jailview.h): its launchers and extra paths; in
 * uid mode the service's own binary too (ns mode copies it). 0, or -1
 * with a message. */
int jail_config_view(const struct jail_config *c, struct jail_view *v,
    char *err, size_t errlen);

/* Wait for the child pid: its exit code, 128+signal, or -1. */
int jail_child_status(pid_t pid);

/* 1 when uid can reach path (search permission on every directory above
 * it), tried in a child dropped to uid; else 0. */
int jail_uid_can_reach(uid_t uid, const char *path);

/* The uids c's children run as: [*first, *last], both 0 in mode none
 * (the services refuse them at their own ports, common/service/
 * localpeer.h). */
void jail_child_uids(const struct jail_config *c, uid_t *first,
    uid_t *last);

/* Pure helpers of jail_probe.c, exposed for its unit test (jail_init
 * uses the Landlock one). */
/* ns mode's namespace set (clone flags): user, mount, pid, IPC, UTS,
 * cgroup, and net with new_net. */
int jail_ns_flags(const struct jail_config *c);
/* uid mode's private namespaces, made as root: net with new_net, mount
 * with limits.disk; 0 for none. */
int jail_uid_private_flags(const struct jail_config *c);
/* The Landlock features c asks for (enum landlock_feature bits). */
unsigned jail_landlock_wanted(const struct jail_config *c);

/* Look at the host for cfg: capabilities, user namespaces (a real probe
 * in a child, dropped to the range's last uid), seccomp, Landlock, cgroups;
 * and which modes could run. Never fails: what it cannot learn is "no".
 * With cfg->one_shot the two trials in children (user namespaces,
 * seccomp) are skipped and count as passed. */
void jail_probe(const struct jail_config *cfg, struct jail_host *h);

/* The --check report: human lines, or one JSON object. */
void jail_host_print(FILE *out, const struct jail_config *cfg,
    const struct jail_host *h, int json);

#endif
