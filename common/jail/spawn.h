/* spawn.h - start a child with its stdio on pipes, in its own session and
 * process group, tied to this process's life; and kill a whole tree.
 *
 * In the child, in order: default signal state; setsid; PR_SET_PDEATHSIG
 * (SIGKILL) and a check that the parent is still there; stdio onto the
 * pipes; spec->pass_fd as SPAWN_PASS_FD; every other fd closed; the jail
 * hook (see common/jail); execve.
 * A failed step is reported to the parent by name over a CLOEXEC pipe, so
 * spawn_start() can say "jail step setresuid failed: ...". */
#ifndef AIRLOCK_SPAWN_H
#define AIRLOCK_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

/* Runs in the child just before execve; returns 0, or -1 with *step set to
 * a static step name and errno set. It must not return on success paths
 * that need the parent to know (it may exec itself). */
typedef int (*spawn_jail_fn)(void *ctx, const char **step);

struct spawn_spec {
	char *const *argv;	/* argv[0] without '/' is searched on the
				 * PATH found in envp (never the caller's) */
	char *const *envp;
	spawn_jail_fn jail;	/* NULL: no jail steps */
	void *jail_ctx;
	int into_cgroup;	/* start the child inside the cgroup v2 group
				 * cgroup_fd (clone3 CLONE_INTO_CGROUP) */
	int cgroup_fd;
	int pass_fd;		/* > 2: the child keeps it as SPAWN_PASS_FD
				 * for its jail hook (a socket to report on);
				 * 0: nothing passed */
};

#define SPAWN_PASS_FD 4

struct spawn_child {
	pid_t pid;
	int pidfd;		/* readable when the child exits */
	int in, out, err;	/* our pipe ends: CLOEXEC, non-blocking */
};

/* Start the child. Returns 0, or -1 with a message in err naming the step
 * that failed (nothing is left running then). */
int spawn_start(const struct spawn_spec *spec, struct spawn_child *child,
    char *err, size_t errlen);

/* Make this process the reaper of orphaned descendants, so a double-forked
 * grandchild of a lease becomes our child and can be found and killed. */
int spawn_become_subreaper(void);

/* Send sig to the process group pgid and to every child of this process
 * (orphans reparented to us included). Returns how many were signalled. */
int spawn_signal_tree(pid_t pgid, int sig);

/* Reap every exited child without blocking; returns the number reaped. If
 * pid is among them, its wait status is stored in *status and *found = 1. */
int spawn_reap(pid_t pid, int *status, int *found);

/* SIGKILL the tree until no child of ours is left (bounded); 0 when none
 * remains, -1 if some survived the bound. */
int spawn_kill_all(pid_t pgid);

#endif
