/* jail_probe.h - what the host supports, learned by trying it: the
 * capabilities, user namespaces, seccomp, a private /proc, Landlock's
 * ABI, cgroups, and so which modes can run (jail_probe and the --check
 * report, declared in jail.h); and the helpers jail_init shares. */
#ifndef AIRLOCK_JAIL_PROBE_H
#define AIRLOCK_JAIL_PROBE_H

#include <stddef.h>
#include <sys/types.h>

#include "common/jail/jail.h"

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

#endif
