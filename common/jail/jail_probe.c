/* jail_probe.c - what the host supports (jail_probe.h). */
#include "common/jail/jail_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/fileio.h"
#include "common/base/json.h"
#include "common/jail/jail_creds.h"
#include "common/jail/jail_mounts.h"
#include "common/jail/jail_options.h"
#include "common/jail/seccomp_policy.h"

static long
read_long(const char *path)
{
	char buf[64];

	if (file_read_small(path, buf, sizeof buf) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* The view (common/jailview): the configuration's launchers and extra
 * paths; in uid mode the service's own binary too (ns copies it). */
int
jail_config_view(const struct jail_config *c, struct jail_view *v, char *err,
    size_t errlen)
{
	const char *extra[JAIL_PATHS_MAX + 1];
	size_t n = 0;

	for (size_t i = 0; i < c->nro && n < JAIL_PATHS_MAX; i++)
		extra[n++] = c->ro_paths[i];
	if (c->self_exe && c->mode != JAIL_NS)
		extra[n++] = c->self_exe;
	return jail_view_build(v, &(struct jail_view_spec){ c->path,
	    c->launchers, c->nlaunchers, extra, n }, err, errlen);
}

int
jail_child_status(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void
jail_child_uids(const struct jail_config *c, uid_t *first, uid_t *last)
{
	*first = c->mode == JAIL_NONE ? 0 : c->uid_first;
	*last = c->mode == JAIL_NONE ? 0 : c->uid_last;
}

int
jail_ns_flags(const struct jail_config *c)
{
	return CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |
	    CLONE_NEWUTS | CLONE_NEWCGROUP | (c->new_net ? CLONE_NEWNET : 0);
}

/* In a child dropped to uid: the namespace set, maps, a tmpfs and a
 * fresh /proc. The exit code says which step failed; errno goes out on
 * the pipe. */
static void
probe_ns_child(const struct jail_config *c, uid_t uid, int out)
{
	int e = 0, code = 0;
	pid_t pid;

	if (setgroups(0, NULL) != 0 || setresgid(uid, uid, uid) != 0 ||
	    setresuid(uid, uid, uid) != 0)
		code = 10;
	else if (unshare(CLONE_NEWUSER) != 0)
		code = 11;
	else if (jail_creds_write_maps(uid, uid) != 0)
		code = 12;
	else if (unshare(jail_ns_flags(c) & ~CLONE_NEWUSER) != 0)
		code = 13;
	else if ((pid = fork()) < 0)
		code = 14;
	else if (pid == 0) {
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
			code = 15;
		else if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV,
		    "size=64k") != 0)
			code = 16;
		else if (mkdir("/tmp/p", 0755) != 0 ||
		    jail_mount_proc("/tmp/p"))
			code = 17;
		if (code) {
			e = errno;
			(void)!write(out, &e, sizeof e);
		}
		_exit(code);
	} else {
		code = jail_child_status(pid);
		_exit(code);
	}
	e = errno;
	(void)!write(out, &e, sizeof e);
	_exit(code);
}

static void
probe_userns(const struct jail_config *c, struct jail_host *h)
{
	static const char *const what[] = {
		[10] = "cannot switch to a uid of the range",
		[11] = "unshare(CLONE_NEWUSER) by an unprivileged uid failed",
		[12] = "cannot write the uid/gid maps",
		[13] = "unshare of the mount, pid, ipc, uts, cgroup namespaces "
		    "failed",
		[14] = "fork failed",
		[15] = "cannot make the mounts private",
		[16] = "cannot mount a tmpfs in the new namespaces",
		[17] = "cannot mount a fresh /proc with hidepid=invisible and "
		    "its masks (Linux 5.8 or newer; is /proc partly masked, as "
		    "Docker does without systempaths=unconfined?)",
	};
	int p[2], e = 0, code;
	uid_t uid = c->uid_last ? c->uid_last : 65534;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0) {
		snprintf(h->userns_why, sizeof h->userns_why, "pipe failed");
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		probe_ns_child(c, uid, p[1]);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		snprintf(h->userns_why, sizeof h->userns_why, "fork failed");
		return;
	}
	code = jail_child_status(pid);
	if (read(p[0], &e, sizeof e) != sizeof e)
		e = 0;
	close(p[0]);
	if (code == 0) {
		h->userns_ok = 1;
		return;
	}
	snprintf(h->userns_why, sizeof h->userns_why, "%s%s%s%s",
	    code >= 10 && code <= 17 ? what[code] : "the probe died",
	    e ? ": " : "", e ? strerror(e) : "",
	    code == 11 && e == EPERM ? " (blocked by a seccomp profile such "
	    "as Docker's default, an AppArmor policy, or a sysctl)" :
	    code == 11 && e == ENOSPC ? " (user.max_user_namespaces is 0)" :
	    "");
}

/* The sandbox's uid mode: namespaces and mounts as root, before the
 * uid change (CAP_SYS_ADMIN). */
int
jail_uid_private_flags(const struct jail_config *c)
{
	return (c->new_net ? CLONE_NEWNET : 0) |
	    (c->limits.disk ? CLONE_NEWNS : 0);
}

/* Run fn(c) in a child, as a lease would: its exit code (0: the trial
 * passed), or -1 when there is no child. */
static int
trial(int (*fn)(const struct jail_config *), const struct jail_config *c)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(c));
	return pid < 0 ? -1 : jail_child_status(pid);
}

/* Can uid mode build its private namespaces here? */
static int
uid_private_trial(const struct jail_config *c)
{
	if (unshare(jail_uid_private_flags(c)) != 0)
		return 1;
	if (c->limits.disk && (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE,
	    NULL) != 0 || mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID |
	    MS_NODEV, "size=64k") != 0))
		return 2;
	return 0;
}

/* One probe: unmet (a missing precondition) is why; a one_shot service
 * needs no trial (its own execution is one); else fn runs in a child,
 * and explain turns its failed exit code into why. */
static void
probe(const struct jail_config *c, int (*fn)(const struct jail_config *),
    const char *unmet, void (*explain)(int code, char *why, size_t cap),
    int *ok, char *why, size_t cap)
{
	int code;

	if (unmet) {
		snprintf(why, cap, "%s", unmet);
		return;
	}
	if (c->one_shot) {
		*ok = 1;
		return;
	}
	code = trial(fn, c);
	*ok = code == 0;
	if (code != 0)
		explain(code, why, cap);
}

static void
explain_uid_private(int code, char *why, size_t cap)
{
	snprintf(why, cap, "%s", code == 1 ? "unshare of the network and "
	    "mount namespaces failed" : code == 2 ? "cannot mount a tmpfs" :
	    "the probe died");
}

static int
seccomp_trial(const struct jail_config *c)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return 1;
	return seccomp_policy_install(c->seccomp) == 0 ? 0 : 2;
}

static void
explain_seccomp(int code, char *why, size_t cap)
{
	snprintf(why, cap, "%s", code == 1 ? "PR_SET_NO_NEW_PRIVS failed" :
	    "the kernel refused the filter (CONFIG_SECCOMP_FILTER?)");
}

/* uid mode: can a lease get its own pid namespace and /proc? Tried in a
 * child, as a lease would: the namespaces, then the /proc in their pid 1. */
static int
proc_trial(const struct jail_config *c)
{
	pid_t pid;
	int st;

	(void)c;
	if (jail_private_unshare() != 0 || (pid = fork()) < 0)
		return errno > 0 && errno < 126 ? errno : 126;
	if (pid == 0)
		_exit(jail_private_proc() == 0 ? 0 : errno > 0 &&
		    errno < 126 ? errno : 126);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 126;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 126;
}

static void
explain_proc(int code, char *why, size_t cap)
{
	snprintf(why, cap, "a pid namespace and /proc (hidepid=invisible) "
	    "of the lease's own failed: "
	    "%s%s", code > 0 && code < 126 ? strerror(code) : "the trial died",
	    code == EINVAL ? " (hidepid=invisible needs Linux 5.8)" :
	    code == EPERM || code == EACCES ? " (mount refused: a seccomp or "
	    "AppArmor profile?)" : "");
}

/* The AppArmor profile confining this process, its newline cut: "" when
 * AppArmor is off (no such file) or says nothing. */
static void
apparmor_label(char *buf, size_t cap)
{
	ssize_t n = file_read_small("/proc/self/attr/apparmor/current", buf,
	    cap);

	if (n < 0)
		n = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		n--;
	buf[n] = '\0';
}

/* A confining AppArmor profile (not "unconfined")? */
static int
apparmor_confined(const struct jail_host *h)
{
	return h->apparmor[0] && strcmp(h->apparmor, "unconfined") != 0;
}

void
jail_probe(const struct jail_config *c, struct jail_host *h)
{
	uint64_t eff = jail_caps_effective();
	char *why;

	memset(h, 0, sizeof *h);
	h->uid = (uint32_t)getuid();
	h->cap_setuid = !!(eff & JAIL_CAP_BIT(CAP_SETUID));
	h->cap_setgid = !!(eff & JAIL_CAP_BIT(CAP_SETGID));
	h->cap_kill = !!(eff & JAIL_CAP_BIT(CAP_KILL));
	h->cap_setpcap = !!(eff & JAIL_CAP_BIT(CAP_SETPCAP));
	h->cap_sysadmin = !!(eff & JAIL_CAP_BIT(CAP_SYS_ADMIN));
	h->max_userns = (int)read_long("/proc/sys/user/max_user_namespaces");
	h->userns_clone_sysctl =
	    (int)read_long("/proc/sys/kernel/unprivileged_userns_clone");
	h->apparmor_userns = (int)read_long(
	    "/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
	h->oom_score_adj = (int)read_long("/proc/self/oom_score_adj");
	if (!h->cap_setuid || !h->cap_setgid)
		snprintf(h->userns_why, sizeof h->userns_why, "not probed: "
		    "needs CAP_SETUID and CAP_SETGID to use a uid of the range");
	else if (c->one_shot)
		h->userns_ok = 1;
	else
		probe_userns(c, h);
	probe(c, seccomp_trial, c->seccomp ? NULL : "no filter was compiled",
	    explain_seccomp, &h->seccomp_ok, h->seccomp_why,
	    sizeof h->seccomp_why);
	apparmor_label(h->apparmor, sizeof h->apparmor);
	probe(c, proc_trial, h->cap_sysadmin ? NULL : "needs CAP_SYS_ADMIN "
	    "to mount a /proc of the lease's own", explain_proc, &h->proc_ok,
	    h->proc_why, sizeof h->proc_why);
	/* name the profile: Docker's docker-default and podman's
	 * containers-default deny every mount */
	if (!h->proc_ok && h->cap_sysadmin && apparmor_confined(h) &&
	    strstr(h->proc_why, strerror(EACCES)))
		snprintf(h->proc_why, sizeof h->proc_why, "a pid namespace and "
		    "/proc of the lease's own failed: the AppArmor profile "
		    "%.64s denies mount", h->apparmor);
	h->landlock_abi = landlock_abi(&h->landlock_why);
	if (c->landlock_abi_cap && h->landlock_abi > c->landlock_abi_cap) {
		h->landlock_abi = c->landlock_abi_cap;
		h->landlock_why = "capped by the test hook";
	}
	cgroup_probe(c->cgroup_dir, !c->one_shot || c->check_only, &h->cg);
	h->mode_ok[JAIL_NONE] = 1;
	why = h->mode_why[JAIL_UID];
	if (!h->cap_setuid || !h->cap_setgid || !h->cap_kill)
		snprintf(why, sizeof h->mode_why[0], "needs CAP_SETUID, "
		    "CAP_SETGID and CAP_KILL (has%s%s%s%s)",
		    h->cap_setuid ? " CAP_SETUID" : "",
		    h->cap_setgid ? " CAP_SETGID" : "",
		    h->cap_kill ? " CAP_KILL" : "",
		    h->cap_setuid || h->cap_setgid || h->cap_kill ? "" :
		    " none of them");
	else if (!h->seccomp_ok)
		snprintf(why, sizeof h->mode_why[0], "seccomp: %s",
		    h->seccomp_why);
	else
		h->mode_ok[JAIL_UID] = 1;
	if (!h->mode_ok[JAIL_UID])
		snprintf(h->mode_why[JAIL_NS], sizeof h->mode_why[0],
		    "as uid mode: %.360s", why);
	else if (!h->userns_ok)
		snprintf(h->mode_why[JAIL_NS], sizeof h->mode_why[0],
		    "user namespaces: %s", h->userns_why);
	else
		h->mode_ok[JAIL_NS] = 1;
	/* ns mode makes these namespaces without CAP_SYS_ADMIN */
	if (h->mode_ok[JAIL_UID] && jail_uid_private_flags(c)) {
		probe(c, uid_private_trial, h->cap_sysadmin ? NULL :
		    "no CAP_SYS_ADMIN", explain_uid_private,
		    &h->uid_private_ok, h->uid_private_why,
		    sizeof h->uid_private_why);
		if (!h->uid_private_ok) {
			h->mode_ok[JAIL_UID] = 0;
			snprintf(why, sizeof h->mode_why[0], "each execution "
			    "needs an empty network namespace and a size-capped "
			    "tmpfs of its own, made as root before the uid "
			    "change (CAP_SYS_ADMIN): %s", h->uid_private_why);
		}
	}
}

unsigned
jail_landlock_wanted(const struct jail_config *c)
{
	unsigned f = LANDLOCK_FEAT_FS | LANDLOCK_FEAT_TRUNCATE |
	    LANDLOCK_FEAT_SCOPE_SIGNAL | LANDLOCK_FEAT_SCOPE_ABSTRACT;

	if (!c->allow_bind)
		f |= LANDLOCK_FEAT_BIND;
	if (c->negress)
		f |= LANDLOCK_FEAT_CONNECT;
	return f;
}

void
jail_host_print(FILE *out, const struct jail_config *c,
    const struct jail_host *h, int json)
{
	struct jail_view view;
	char feat[256], miss[256], err[256];
	unsigned want = jail_landlock_wanted(c);
	unsigned lack = landlock_missing(want, h->landlock_abi);

	if (jail_config_view(c, &view, err, sizeof err) != 0)
		memset(&view, 0, sizeof view);
	landlock_feature_names(want & ~lack, feat, sizeof feat);
	landlock_feature_names(lack, miss, sizeof miss);
	if (json) {
		fprintf(out, "{\"uid\":%u,\"caps\":{\"setuid\":%s,\"setgid\":%s,"
		    "\"kill\":%s,\"setpcap\":%s,\"sys_admin\":%s},", h->uid,
		    h->cap_setuid ? "true" : "false",
		    h->cap_setgid ? "true" : "false",
		    h->cap_kill ? "true" : "false",
		    h->cap_setpcap ? "true" : "false",
		    h->cap_sysadmin ? "true" : "false");
		fprintf(out, "\"userns\":{\"ok\":%s,\"why\":",
		    h->userns_ok ? "true" : "false");
		json_write_cstr(out, h->userns_why);
		fprintf(out, ",\"max_user_namespaces\":%d,"
		    "\"unprivileged_userns_clone\":%d,"
		    "\"apparmor_restrict_unprivileged_userns\":%d},",
		    h->max_userns, h->userns_clone_sysctl, h->apparmor_userns);
		fprintf(out, "\"jail_private_proc\":{\"uid\":%s,\"ns\":%s,"
		    "\"why\":", h->proc_ok ? "true" : "false",
		    h->userns_ok ? "true" : "false");
		json_write_cstr(out, h->proc_why);
		fprintf(out, "},\"apparmor\":");
		json_write_cstr(out, h->apparmor);
		fputc(',', out);
		fprintf(out, "\"seccomp\":{\"ok\":%s,\"why\":",
		    h->seccomp_ok ? "true" : "false");
		json_write_cstr(out, h->seccomp_why);
		fprintf(out, "},\"landlock\":{\"abi\":%u,\"why\":",
		    h->landlock_abi);
		json_write_cstr(out, h->landlock_abi ? "" : h->landlock_why);
		fprintf(out, ",\"applies\":");
		json_write_cstr(out, h->landlock_abi ? feat : "");
		fprintf(out, ",\"lacks\":");
		json_write_cstr(out, h->landlock_abi ? miss : "everything");
		fprintf(out, "},\"oom_score_adj\":{\"service\":%d,"
		    "\"leases\":%d", h->oom_score_adj, JAIL_OOM_SCORE_ADJ);
		fprintf(out, "},\"cgroup_v1\":{");
		for (int i = 0; i < CG_NCTL; i++)
			fprintf(out, "%s\"%s\":\"%s\"", i ? "," : "",
			    cgroup_ctl_name(i), !h->cg.v1_mounted[i] ? "absent"
			    : h->cg.v1_writable[i] ? "writable" : "read-only");
		fprintf(out, "},\"cgroup_v2\":{\"given\":%s,\"own\":%s,"
		    "\"ok\":%s,\"dir\":", h->cg.v2_given ? "true" : "false",
		    h->cg.v2_own ? "true" : "false",
		    h->cg.v2_ok ? "true" : "false");
		json_write_cstr(out, h->cg.v2_dir);
		fprintf(out, ",\"why\":");
		json_write_cstr(out, h->cg.v2_why);
		fprintf(out, ",\"controllers\":[");
		for (int i = 0, n = 0; i < CG_CPUACCT; i++)
			if (h->cg.v2_has[i])
				fprintf(out, "%s\"%s\"", n++ ? "," : "",
				    cgroup_ctl_name(i));
		fprintf(out, "]},\"read_only_paths\":[");
		for (size_t i = 0; i < view.nro; i++) {
			fputs(i ? "," : "", out);
			json_write_cstr(out, view.ro[i]);
		}
		fprintf(out, "],\"modes\":{");
		for (int m = 0; m < 3; m++) {
			fprintf(out, "%s\"%s\":{\"ok\":%s,\"why\":", m ? "," : "",
			    jail_mode_name(m), h->mode_ok[m] ? "true" : "false");
			json_write_cstr(out, h->mode_why[m]);
			fputc('}', out);
		}
		fprintf(out, "}}\n");
		return;
	}
	fprintf(out, "uid %u, capabilities:%s%s%s%s%s\n", h->uid,
	    h->cap_setuid ? " CAP_SETUID" : "", h->cap_setgid ? " CAP_SETGID"
	    : "", h->cap_kill ? " CAP_KILL" : "", h->cap_sysadmin ?
	    " CAP_SYS_ADMIN" : "", h->cap_setpcap ?
	    " CAP_SETPCAP" : " (no CAP_SETPCAP: the bounding set stays as "
	    "the container gave it; no_new_privs makes it inert)");
	fprintf(out, "user namespaces: %s%s (max_user_namespaces %d, "
	    "unprivileged_userns_clone %s, apparmor_restrict_unprivileged_"
	    "userns %s)\n", h->userns_ok ? "yes" : "no: ", h->userns_why,
	    h->max_userns, h->userns_clone_sysctl < 0 ? "absent" :
	    h->userns_clone_sysctl ? "1" : "0", h->apparmor_userns < 0 ?
	    "absent" : h->apparmor_userns ? "1" : "0");
	fprintf(out, "seccomp: %s%s\n", h->seccomp_ok ? "yes" : "no: ",
	    h->seccomp_why);
	fprintf(out, "AppArmor: %s\n", apparmor_confined(h) ? h->apparmor :
	    h->apparmor[0] ? "unconfined" : "off");
	fprintf(out, "other leases' /proc/PID: %s%s%s\n", h->proc_ok ?
	    "hidden in uid and ns modes (a private /proc, hidepid=invisible)"
	    : h->userns_ok ? "hidden in ns mode only; " : "",
	    h->proc_ok ? "" : "uid mode: READABLE (command lines, status): ",
	    h->proc_ok ? "" : h->proc_why);
	if (h->landlock_abi)
		fprintf(out, "landlock: ABI %u; applies: %s%s%s\n",
		    h->landlock_abi, feat, lack ? "; lacks: " : "",
		    lack ? miss : "");
	else
		fprintf(out, "landlock: no: %s\n", h->landlock_why);
	fprintf(out, "OOM order: leases oom_score_adj %d, this service %d%s\n",
	    JAIL_OOM_SCORE_ADJ, h->oom_score_adj,
	    h->oom_score_adj < JAIL_OOM_SCORE_ADJ ? " (leases first, the "
	    "largest first)" : ": NOT below its leases (a Kubernetes "
	    "BestEffort pod? give it resource requests)");
	fprintf(out, "cgroup v1:");
	for (int i = 0; i < CG_NCTL; i++)
		fprintf(out, " %s=%s", cgroup_ctl_name(i), !h->cg.v1_mounted[i]
		    ? "absent" : h->cg.v1_writable[i] ? "writable" :
		    "read-only");
	fputc('\n', out);
	if (h->cg.v2_given || h->cg.v2_own) {
		fprintf(out, "cgroup v2 (%s%s): %s%s; controllers:",
		    h->cg.v2_given ? "--cgroup" : "the group it runs in, ",
		    h->cg.v2_given ? "" : h->cg.v2_dir, h->cg.v2_ok ?
		    "usable" : "no: ", h->cg.v2_why);
		for (int i = 0; i < CG_CPUACCT; i++)
			if (h->cg.v2_has[i])
				fprintf(out, " %s", cgroup_ctl_name(i));
		fputc('\n', out);
	}
	fprintf(out, "read-only paths:");
	for (size_t i = 0; i < view.nro; i++)
		fprintf(out, " %s", view.ro[i]);
	fprintf(out, "\nread-write paths: the lease's HOME, TMPDIR and package "
	    "cache (and the sandbox's work dir), /dev/null /dev/zero /dev/full "
	    "/dev/random /dev/urandom (ns: its own /tmp, /dev/shm)%s",
	    c->limits.disk ? "; HOME, TMPDIR, the work dir (ns: /tmp, "
	    "/dev/shm) on one tmpfs of the execution's --disk" : "");
	fprintf(out, "\nsymlinks in the ns root view:");
	for (size_t i = 0; i < view.nlinks; i++)
		fprintf(out, " %s", view.links[i]);
	fputc('\n', out);
	for (int m = 0; m < 3; m++)
		fprintf(out, "mode %s: %s%s\n", jail_mode_name(m),
		    h->mode_ok[m] ? "available" : "unavailable: ",
		    h->mode_why[m]);
}

/* Can uid reach path (search permission on every ancestor)? */
int
jail_uid_can_reach(uid_t uid, const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (setgroups(0, NULL) != 0 || setresgid(uid, uid, uid) != 0 ||
		    setresuid(uid, uid, uid) != 0)
			_exit(2);
		_exit(access(path, X_OK) == 0 ? 0 : 1);
	}
	return pid > 0 && jail_child_status(pid) == 0;
}
