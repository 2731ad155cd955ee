/* jail.h - the jail of one lease (runner) or one execution (sandbox).
 *
 * Two levels of state:
 *   struct jail        one per service, from a struct jail_config at
 *                      start-up (jail_init): probes the host, refuses a mode
 *                      it cannot honour, resolves the read-only path list,
 *                      sets up the uid table and the service cgroup;
 *   struct jail_lease  one per lease/execution (jail_lease_open): its uid,
 *                      private HOME and TMPDIR (and work dir), its cgroup.
 * The child side is jail_lease_enter, a spawn_jail_fn (common/jail/spawn.h):
 * spawn runs it in the child after closing every other fd, and reports a
 * failed step by name ("jail step setresuid failed: ..."). Every step is
 * fatal; none warns and continues.
 *
 * Modes:
 *   none  nothing at all: the child runs as the service's own uid (tests
 *         and development only; the caller must say so loudly);
 *   uid   a uid/gid of the range, no supplementary groups, no capabilities
 *         (bounding set dropped and securebits locked when the service has
 *         CAP_SETPCAP), no_new_privs, rlimits, Landlock, seccomp. Needs
 *         only CAP_SETUID, CAP_SETGID and CAP_KILL; with CAP_SYS_ADMIN a
 *         mount namespace whose /proc (hidepid=invisible) shows only the
 *         lease's own processes, and an IPC namespace of its own;
 *   ns    uid mode inside new user, pid, mount, ipc, uts and cgroup
 *         namespaces (and net with new_net): a tiny init as pid 1, and a
 *         pivot_root into a minimal read-only view (common/jail/jailview.h),
 *         with such a /proc, a minimal /dev, size-capped tmpfs /tmp and
 *         HOME (and /work) read-write.
 * Child steps, in order (docs/HACKING.md "Jail order"):
 *   both, first: oom-score (JAIL_OOM_SCORE_ADJ: every lease before the
 *        service when the OOM killer chooses, the largest lease first;
 *        uid mode: JAIL_OOM_HELPER_ADJ, the server raising its own);
 *   uid: cgroup; with CAP_SYS_ADMIN: unshare mount, IPC and pid, fork
 *        pid 1 (its /proc, then the server), the proxy outside; then
 *        unshare net and mount the disk where asked; oom-score of the
 *        server; keepcaps; setgroups, setresgid, setresuid; capabilities
 *        (bounding, ambient, inheritable, securebits); verify that root
 *        cannot be regained; chdir; pdeathsig;
 *   ns:  cgroup; setgroups, setresgid, setresuid (the user namespace is
 *        made by the lease uid, unprivileged); unshare; id maps;
 *        pdeathsig; fork the init (pid 1); then in the child: mounts,
 *        pivot_root, read-only remount, hostname; setresgid, setresuid;
 *        capabilities; verify; chdir; pdeathsig;
 *   both, last: no_new_privs; rlimits (NOFILE, NPROC, FSIZE, CPU,
 *        CORE=0; never RLIMIT_AS, which breaks V8 and the JVM: memory is
 *        the cgroup's job); the work files; Landlock; seccomp last.
 * The types are jail_types.h's; the options' spellings jail_options.h's;
 * the host's probe and the --check report jail_probe.h's. */
#ifndef AIRLOCK_JAIL_H
#define AIRLOCK_JAIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/jail/jail_types.h"

/* Pure helpers of jail.c, exposed for its unit test. */
/* 1 when s is a lease id: [A-Za-z0-9_-]{1,JAIL_ID_MAX}. */
int jail_id_valid(const char *s);
/* The registration unit's key into key (cap bytes): "tenant+registration"
 * and "+approval" with one; -1 when it does not fit, holds '/' or starts
 * with '.'. */
int jail_reg_key(const struct jail_request *rq, char *key, size_t cap);
/* The length of key up to its last '+', included: for "tenant+
 * registration+approval" the part every approval of the registration
 * shares; 0 without a '+'. */
size_t jail_key_family_len(const char *key);

/* Probe, refuse what cannot be honoured (mode, Landlock in require mode,
 * limits without a cgroup, seccomp missing in uid/ns), resolve the paths,
 * set up the uid table and cgroups. 0, or -1 with a message in err that
 * names what is missing and which mode would work. cfg is copied; its
 * strings are borrowed. */
int jail_init(struct jail *j, const struct jail_config *cfg, char *err,
    size_t errlen);

/* After a jail step failed in a one-shot jail: the trials jail_init
 * skipped (user namespaces, seccomp, the range's uid reaching the state
 * directory), for the reason, into out. 0 when one was found, -1 when
 * every trial passes (the step's own message is all there is). */
int jail_diagnose(const struct jail_config *cfg, char *out, size_t len);

/* Remove the service cgroup directories (at exit, leases gone). */
void jail_fini(struct jail *j);

/* One line for logs: "uid landlock=abi7 cgroup=v1". Static storage. */
const char *jail_summary(const struct jail *j);

/* The read-only list, for --check (NULL past its end). */
const char *jail_ro_path(const struct jail *j, size_t i);

/* cfg.self_exe as the jailed child sees it. */
const char *jail_self_exe(const struct jail *j);

/* The lease's cgroup v2 group for spawn_spec.cgroup_fd (the child starts
 * inside it), or -1 (v1, none): then the child's cgroup step moves it. */
int jail_lease_cgroup_fd(const struct jail_lease *l);

/* Prepare one lease/execution: uid, directories, cgroup. 0, or -1 with a
 * message (everything made so far is undone). */
int jail_lease_open(const struct jail *j, const struct jail_request *rq,
    struct jail_lease *l, char *err, size_t errlen);

/* For spawn_spec.pass_fd: what the child reports its disk on (0 without
 * limits.disk). */
int jail_lease_pass_fd(const struct jail_lease *l);

/* After spawn_start succeeded: take the disk the child reported (fail
 * closed: -1 with a message when it did not). 0 without limits.disk. */
int jail_lease_started(struct jail_lease *l, char *err, size_t errlen);

/* The child side (jail_enter.c): a spawn_jail_fn with ctx = struct
 * jail_lease *. In ns
 * mode it forks twice (a proxy stays outside, pid 1 inside); only the
 * process that is to exec returns. */
int jail_lease_enter(void *ctx, const char **step);

/* Once the lease is spawned, what its handler still needs: CAP_KILL (to
 * end the lease's processes), CAP_SETUID and CAP_SETGID (setfsuid to
 * measure and remove its directories, the IPC sweep's child); every
 * other capability (CAP_SYS_ADMIN, CAP_NET_ADMIN: the namespaces, mounts
 * and loopback, made before) dropped for good, and no_new_privs, so no
 * exec as root regains them. Called before the handler reads a byte the
 * lease wrote. 0, or -1 with errno. */
int jail_lease_drop_setup_caps(void);

/* Kill everything of the lease: its cgroup (exact: a process cannot leave
 * it), or without one every process of its uid when no other lease holds
 * the uid (uid_kill_all). Reaps the caller's children while it waits;
 * watch's wait status goes to status and found, as spawn_reap. */
void jail_lease_kill(struct jail_lease *l, pid_t watch, int *status,
    int *found);

/* The cgroup's counters (zeros, has_* 0, without a cgroup). */
void jail_lease_stats(const struct jail_lease *l, struct jail_stats *st);

/* The peak memory counted again from now (cgroup_lease_peak_reset). 0,
 * or -1 with errno. */
int jail_lease_peak_reset(const struct jail_lease *l);

/* Kill (as jail_lease_kill), remove the directories (as the lease's uid)
 * and the cgroup, release the uid. 0, or -1 with a message when something
 * was left behind (the caller logs it). Safe on a lease that failed to
 * open or was never entered. */
int jail_lease_close(struct jail_lease *l, pid_t watch, int *status,
    int *found, char *err, size_t errlen);

#endif
