/* jail_enter.c - the child's side of a jail: each mode's steps in their
 * order (jail.h), rlimits, the work files, Landlock and seccomp last. */
#include "common/jail/jail.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/base/fileio.h"
#include "common/jail/jail_creds.h"
#include "common/jail/jail_mounts.h"
#include "common/jail/jail_nsinit.h"
#include "common/jail/jail_probe.h"
#include "common/jail/seccomp_policy.h"
#include "common/jail/spawn.h"

static int
set_rlimits(const struct jail_limits *lim)
{
	const struct { int res; uint64_t v; } t[] = {
		{ RLIMIT_NOFILE, lim->nofile }, { RLIMIT_NPROC, lim->nproc },
		{ RLIMIT_FSIZE, lim->fsize }, { RLIMIT_CPU, lim->cpu_seconds },
		{ RLIMIT_CORE, 1 },
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		struct rlimit rl;
		uint64_t v = t[i].res == RLIMIT_CORE ? 0 : t[i].v;

		if (t[i].res != RLIMIT_CORE && v == 0)
			continue;
		if (getrlimit(t[i].res, &rl) != 0)
			return -1;
		/* never above the hard limit we were given: lowering needs
		 * no privilege, raising would */
		if (rl.rlim_max != RLIM_INFINITY && v > rl.rlim_max)
			v = rl.rlim_max;
		rl.rlim_cur = rl.rlim_max = (rlim_t)v;
		if (setrlimit(t[i].res, &rl) != 0)
			return -1;
	}
	return 0;
}

static int
write_files(const struct jail_lease *l)
{
	for (size_t i = 0; i < l->nfiles; i++) {
		const struct jail_file *f = &l->files[i];
		char path[PATH_MAX];
		const char *p = f->data;
		size_t left = f->len;
		int fd;

		if ((size_t)snprintf(path, sizeof path, "%s/%s", l->workdir,
		    f->name) >= sizeof path) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, f->mode & 0777);
		if (fd < 0)
			return -1;
		while (left > 0) {
			ssize_t n = write(fd, p, left);

			if (n <= 0) {
				close(fd);
				return -1;
			}
			p += n;
			left -= (size_t)n;
		}
		if (close(fd) != 0)
			return -1;
	}
	return 0;
}


/* The common tail: no_new_privs, rlimits, files, Landlock, seccomp. */
static int
enter_tail(const struct jail_lease *l, const char **step)
{
	const struct jail *j = l->j;

	JAIL_STEP("no_new_privs", prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	JAIL_STEP("rlimits", set_rlimits(&l->limits));
	JAIL_STEP("files", write_files(l));
	if (j->landlock_abi && j->landlock_features)
		if (landlock_apply(&l->ll, step) != 0)
			return -1;
	*step = "seccomp";
	if (!j->cfg.seccomp) {
		errno = EINVAL;
		return -1;
	}
	return seccomp_policy_install(j->cfg.seccomp);
}

static int
pdeath(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
		return -1;
	if (parent > 0 && getppid() != parent) {
		errno = ESRCH;
		return -1;
	}
	return 0;
}

/* pid 1 (both modes): parent-death tie to the proxy, the mounts, the
 * server; then it reaps. In uid mode it is root: it keeps CAP_KILL only. */
static int
enter_pid1(struct jail_lease *l, int status_w, int alive_r,
    int (*mounts)(struct jail_lease *, const char **),
    int (*server)(struct jail_lease *, const char **), const char **step)
{
	struct pollfd pf = { alive_r, POLLIN, 0 };
	pid_t pid;

	JAIL_STEP("pdeathsig", prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0));
	/* getppid() is 0 here (the parent is outside): the proxy holds the
	 * write end of alive_r, so a hang-up means it is gone */
	*step = "pdeathsig";
	if (poll(&pf, 1, 0) != 0) {
		errno = ESRCH;
		return -1;
	}
	close(alive_r);
	if (mounts(l, step) != 0)
		return -1;
	JAIL_STEP("fork", (pid = fork()) < 0);
	if (pid == 0) {
		close(status_w);
		return server(l, step);
	}
	/* a failed step here ends pid 1, and with it the namespace */
	if (l->j->cfg.mode == JAIL_UID)
		JAIL_STEP("capabilities", jail_caps_only(
		    JAIL_CAP_BIT(CAP_KILL)));
	jail_nsinit_run_init(pid, status_w);
}

/* After the unshare: fork pid 1 of the new pid namespace and become the
 * proxy the service watches (uid mode's proxy, root outside, drops every
 * capability: it signals only pid 1, of its own uid). The proxy and pid 1
 * never exec: their environ is the service's (which may hold a secret);
 * the server gets its own envp. */
static int
fork_pid1(struct jail_lease *l, pid_t parent,
    int (*mounts)(struct jail_lease *, const char **),
    int (*server)(struct jail_lease *, const char **), const char **step)
{
	extern char **environ;
	int st[2], alive[2];
	pid_t pid;

	for (char **e = environ; e && *e; e++)
		memset(*e, 0, strlen(*e));
	JAIL_STEP("pdeathsig", pdeath(parent));
	JAIL_STEP("pipe", pipe2(st, O_CLOEXEC) || pipe2(alive, O_CLOEXEC));
	JAIL_STEP("fork", (pid = fork()) < 0);
	if (pid == 0) {
		close(st[0]);
		close(alive[1]);
		return enter_pid1(l, st[1], alive[0], mounts, server, step);
	}
	close(st[1]);
	close(alive[0]);
	if (l->disk_sock[1] >= 0)
		close(SPAWN_PASS_FD);	/* pid 1 reports the disk; not us */
	if (l->j->cfg.mode == JAIL_UID)
		JAIL_STEP("capabilities", jail_caps_drop(
		    l->j->host.cap_setpcap));
	jail_nsinit_run_proxy(pid, st[0]);
}

/* uid mode: no network and a capped disk where asked (CAP_SYS_ADMIN,
 * probed), as root. */
static int
uid_net_disk(struct jail_lease *l, const char **step)
{
	const struct jail *j = l->j;

	JAIL_STEP("unshare", (j->cfg.new_net || l->limits.disk) ?
	    unshare((j->cfg.new_net ? CLONE_NEWNET : 0) |
	    (l->limits.disk ? CLONE_NEWNS : 0)) : 0);
	if (l->limits.disk)
		JAIL_STEP("mount-disk", jail_mounts_uid_disk(l));
	return 0;
}

/* uid mode's server: the lease's uid for good, then the tail. */
static int
enter_uid_server(struct jail_lease *l, pid_t parent, const char **step)
{
	int setpcap = l->j->host.cap_setpcap;
	char adj[16];

	snprintf(adj, sizeof adj, "%d", JAIL_OOM_SCORE_ADJ);
	JAIL_STEP("oom-score", file_write_str("/proc/self/oom_score_adj", adj));
	/* keep CAP_SETPCAP across the uid change to drop the bounding set
	 * afterwards; everything else goes with the change */
	JAIL_STEP("keepcaps", setpcap ? prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) : 0);
	JAIL_STEP("setgroups", setgroups(0, NULL));
	JAIL_STEP("setresgid", setresgid(l->gid, l->gid, l->gid));
	JAIL_STEP("setresuid", setresuid(l->uid, l->uid, l->uid));
	JAIL_STEP("capabilities", jail_caps_drop(setpcap));
	JAIL_STEP("verify-no-root", jail_creds_verify_dropped(l->uid, l->gid));
	JAIL_STEP("chdir", chdir(l->workdir[0] ? l->workdir : l->home));
	/* credential changes clear the parent-death signal: set it again */
	JAIL_STEP("pdeathsig", pdeath(parent));
	return enter_tail(l, step);
}

/* uid mode's pid 1, in the lease's pid namespace: its /proc, network and
 * disk; it keeps only CAP_KILL (to forward signals) once the server is
 * forked. */
static int
uid_init_mounts(struct jail_lease *l, const char **step)
{
	JAIL_STEP("mount-proc", jail_private_proc());
	return uid_net_disk(l, step);
}

static int
uid_init_server(struct jail_lease *l, const char **step)
{
	return enter_uid_server(l, 1, step);
}

static int
enter_uid(struct jail_lease *l, const char **step)
{
	pid_t parent = getppid();

	JAIL_STEP("cgroup", cgroup_lease_attach(&l->cg));
	/* with CAP_SYS_ADMIN (probed): a pid namespace and /proc of the
	 * lease's own, pid 1 and the proxy as in ns mode */
	if (l->j->proc_private) {
		JAIL_STEP("cmdline", jail_nsinit_find_args());
		JAIL_STEP("unshare", jail_private_unshare());
		return fork_pid1(l, parent, uid_init_mounts, uid_init_server,
		    step);
	}
	if (uid_net_disk(l, step) != 0)
		return -1;
	return enter_uid_server(l, parent, step);
}

/* The server, inside: ids, capabilities, the tail. */
static int
enter_ns_server(struct jail_lease *l, const char **step)
{
	*step = "setgroups";
	if (getgroups(0, NULL) != 0) {	/* setgroups is denied in the ns */
		errno = EPERM;
		return -1;
	}
	JAIL_STEP("setresgid", setresgid(l->gid, l->gid, l->gid));
	JAIL_STEP("setresuid", setresuid(l->uid, l->uid, l->uid));
	JAIL_STEP("capabilities", jail_caps_drop(1));
	JAIL_STEP("verify-no-root", jail_creds_verify_dropped(l->uid, l->gid));
	JAIL_STEP("chdir", chdir(l->workdir[0] ? l->workdir : l->home));
	JAIL_STEP("pdeathsig", pdeath(1));
	return enter_tail(l, step);
}

static int
ns_mounts(struct jail_lease *l, const char **step)
{
	return jail_mounts_build_root(l, step);
}

static int
enter_ns(struct jail_lease *l, const char **step)
{
	pid_t parent = getppid();

	JAIL_STEP("cmdline", jail_nsinit_find_args());
	JAIL_STEP("cgroup", cgroup_lease_attach(&l->cg));
	JAIL_STEP("setgroups", setgroups(0, NULL));
	JAIL_STEP("setresgid", setresgid(l->gid, l->gid, l->gid));
	JAIL_STEP("setresuid", setresuid(l->uid, l->uid, l->uid));
	JAIL_STEP("unshare", unshare(jail_ns_flags(&l->j->cfg)));
	JAIL_STEP("id-map", jail_creds_write_maps(l->uid, l->gid));
	return fork_pid1(l, parent, ns_mounts, enter_ns_server, step);
}

int
jail_lease_enter(void *ctx, const char **step)
{
	struct jail_lease *l = ctx;
	char adj[16];

	if (l->j->cfg.mode == JAIL_NONE)
		return 0;
	/* first, as the service's uid (raising needs no privilege): a
	 * child gone past the uid change may be refused its own /proc */
	snprintf(adj, sizeof adj, "%d", l->j->cfg.mode == JAIL_UID ?
	    JAIL_OOM_HELPER_ADJ : JAIL_OOM_SCORE_ADJ);
	JAIL_STEP("oom-score", file_write_str("/proc/self/oom_score_adj", adj));
	switch (l->j->cfg.mode) {
	case JAIL_UID:
		return enter_uid(l, step);
	case JAIL_NS:
		return enter_ns(l, step);
	default:
		return 0;
	}
}
