/* jail.c - per-lease jail: uid, namespaces, mounts, capabilities,
 * rlimits, Landlock, seccomp; and the lease's directories and cgroup. */
#include "common/jail/jail.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/fsuid.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/fileio.h"
#include "common/base/fsutil.h"
#include "common/base/json.h"
#include "common/base/log.h"
#include "common/jail/diskquota.h"
#include "common/jail/seccomp_policy.h"
#include "common/jail/spawn.h"

#define NS_HOME "/home/airlock"
#define NS_CACHE "/cache"
#define NS_WORK "/work"
#define NS_SELF_DIR "/usr/lib/airlock"
#define NS_SELF NS_SELF_DIR "/airlock"
#define DEFAULT_TMPFS (64ull << 20)
#define SECBITS_LOCKED 0xEBu	/* NOROOT, NO_SETUID_FIXUP off, KEEP_CAPS
				 * off, NO_CAP_AMBIENT_RAISE: all locked */
#define CAP_BIT(c) (1ull << (c))

/* Devices a child may read and write (Landlock; bound into the ns /dev). */
static const char *const dev_files[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
};

/* s's index in names, or -1 when it is none of them. */
static int
name_index(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

/* jail_KIND_name and jail_KIND_parse for an option's enum, from one
 * table of its spellings indexed by value; a value out of range reads
 * as 0, the default. */
#define OPTION_NAMES(kind, type, ...)					\
	static const char *const kind##_names[] = { __VA_ARGS__ };	\
	enum { kind##_count = sizeof kind##_names / sizeof *kind##_names }; \
									\
	const char *							\
	jail_##kind##_name(type v)					\
	{								\
		return kind##_names[(unsigned)v < kind##_count ? v : 0]; \
	}								\
									\
	int								\
	jail_##kind##_parse(const char *s, type *v)			\
	{								\
		int i = name_index(s, kind##_names, kind##_count);	\
									\
		if (i < 0)						\
			return -1;					\
		*v = (type)i;						\
		return 0;						\
	}

OPTION_NAMES(mode, enum jail_mode,
    [JAIL_NONE] = "none", [JAIL_UID] = "uid", [JAIL_NS] = "ns")
OPTION_NAMES(unit, enum jail_unit,
    [JAIL_UNIT_REGISTRATION] = "registration", [JAIL_UNIT_LEASE] = "lease")
OPTION_NAMES(landlock, enum jail_landlock,
    [JAIL_LANDLOCK_AUTO] = "auto", [JAIL_LANDLOCK_REQUIRE] = "require",
    [JAIL_LANDLOCK_OFF] = "off")

long
jail_ports_parse(const char *s, uint16_t *ports, size_t cap)
{
	size_t n = 0;

	/* one spelling only: digits without a leading zero, one comma
	 * between ports, no repeat (strtoul would also take " 80", "+80") */
	for (;;) {
		unsigned long v = 0;
		int digits = 0;

		if (*s < '1' || *s > '9' || n == cap)
			return -1;
		while (*s >= '0' && *s <= '9' && digits++ < 5)
			v = v * 10 + (unsigned long)(*s++ - '0');
		if (v > 65535 || (*s && *s != ','))
			return -1;
		for (size_t i = 0; i < n; i++)
			if (ports[i] == v)
				return -1;
		ports[n++] = (uint16_t)v;
		if (!*s)
			return (long)n;
		s++;
	}
}

/* ---- small helpers (also used in the child: no allocation) ---------- */

static long
read_long(const char *path)
{
	char buf[64];

	if (file_read_small(path, buf, sizeof buf) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* mkdir -p of an absolute path (each component mode 0755). */
static int
mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(buf, 0755) != 0 && errno != EEXIST)
				return -1;
			if (c == '\0')
				return 0;
			*p = c;
		}
	}
}

static int
join(char *out, size_t len, const char *a, const char *b)
{
	if ((size_t)snprintf(out, len, "%s%s", a, b) >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* ---- capabilities -------------------------------------------------- */

static uint64_t
cap_effective(void)
{
	char buf[4096], *p;

	if (file_read_small("/proc/self/status", buf, sizeof buf) < 0 ||
	    !(p = strstr(buf, "\nCapEff:\t")))
		return 0;
	return strtoull(p + 9, NULL, 16);
}

static int
caps_get(struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	return (int)syscall(SYS_capget, &h, d);
}

static int
caps_set(uint64_t eff, uint64_t perm, uint64_t inh)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	d[0].effective = (uint32_t)eff;
	d[1].effective = (uint32_t)(eff >> 32);
	d[0].permitted = (uint32_t)perm;
	d[1].permitted = (uint32_t)(perm >> 32);
	d[0].inheritable = (uint32_t)inh;
	d[1].inheritable = (uint32_t)(inh >> 32);
	return (int)syscall(SYS_capset, &h, d);
}

/* Drop every capability for good: the bounding set and the securebits
 * lock need CAP_SETPCAP (held in ns mode inside the user namespace; in
 * uid mode only when the service has it); ambient and the three sets
 * need nothing. */
static int
drop_caps(int have_setpcap)
{
	if (have_setpcap) {
		if (caps_set(CAP_BIT(CAP_SETPCAP), CAP_BIT(CAP_SETPCAP), 0) != 0)
			return -1;
		for (int c = 0; prctl(PR_CAPBSET_READ, c, 0, 0, 0) >= 0; c++)
			if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) != 0)
				return -1;
		if (prctl(PR_SET_SECUREBITS, SECBITS_LOCKED, 0, 0, 0) != 0)
			return -1;
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0)
		return -1;
	return caps_set(0, 0, 0);
}

/* Root and capabilities must be gone for good. */
static int
verify_dropped(uid_t uid, gid_t gid)
{
	struct __user_cap_data_struct d[2];
	uid_t r, e, s;
	gid_t gr, ge, gs;

	if (setresuid(0, 0, 0) == 0 || setresgid(0, 0, 0) == 0 ||
	    setuid(0) == 0) {
		errno = EPERM;
		return -1;
	}
	if (getresuid(&r, &e, &s) != 0 || r != uid || e != uid || s != uid ||
	    getresgid(&gr, &ge, &gs) != 0 || gr != gid || ge != gid ||
	    gs != gid || getgroups(0, NULL) != 0 || caps_get(d) != 0 ||
	    d[0].effective || d[1].effective || d[0].permitted ||
	    d[1].permitted || d[0].inheritable || d[1].inheritable ||
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_SETUID, 0, 0)
	    != 0) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* ---- the read-only list -------------------------------------------- */

/* The view (common/jailview): the configuration's launchers and extra
 * paths; in uid mode the service's own binary too (ns copies it). */
static int
view_build(const struct jail_config *c, struct jail_view *v, char *err,
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

const char *
jail_ro_path(const struct jail *j, size_t i)
{
	return i < j->view.nro ? j->view.ro[i] : NULL;
}

const char *
jail_self_exe(const struct jail *j)
{
	return j->cfg.mode == JAIL_NS ? NS_SELF : j->cfg.self_exe;
}

/* ---- /proc as a lease sees it ---------------------------------------- */

/* What of /proc describes the host rather than the lease (Docker's masked
 * paths, plus the kernel's command line, configuration, symbols and
 * modules): a directory is covered by an empty read-only tmpfs, a file by
 * /dev/null. */
static const char *const proc_masked[] = {
	"acpi", "asound", "cmdline", "config.gz", "interrupts", "kallsyms",
	"kcore", "key-users", "keys", "kpagecgroup", "kpagecount",
	"kpageflags", "latency_stats", "modules", "sched_debug", "scsi",
	"timer_list", "timer_stats",
};

/* The kernel's knobs: read-only (Docker's read-only paths). */
static const char *const proc_readonly[] = {
	"bus", "fs", "irq", "sys", "sysrq-trigger",
};

static unsigned long locked_flags(const char *path);

/* Bind src at to; read-only (keeping the flags a user namespace may not
 * clear) unless rw. */
static int
bind_mount(const char *src, const char *to, int rw)
{
	if (mount(src, to, NULL, MS_BIND | MS_REC, NULL) != 0)
		return -1;
	if (rw)
		return 0;
	return mount(NULL, to, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY |
	    MS_NOSUID | locked_flags(src), NULL);
}

/* A fresh procfs at `at` that lists only the processes the reader may
 * ptrace (hidepid=invisible, per mount since Linux 5.8; older kernels
 * refuse the word, never silently share the option): a lease sees its
 * own tree and nothing else — not another lease (another uid, or the same
 * uid in another Landlock domain: Landlock's ptrace hook), not the
 * service, not the ns init. Then the host's files are masked. */
/* at/name into p: 1 and its lstat in *st, 0 when it does not exist
 * (this kernel has no such file), -1 with errno. */
static int
proc_entry(char p[PATH_MAX], const char *at, const char *name,
    struct stat *st)
{
	if ((size_t)snprintf(p, PATH_MAX, "%s/%s", at, name) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (lstat(p, st) == 0)
		return 1;
	return errno == ENOENT ? 0 : -1;
}

static int
mount_proc(const char *at)
{
	char p[PATH_MAX];
	struct stat st;
	int rc;

	if (mount("proc", at, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    "hidepid=invisible") != 0)
		return -1;
	for (size_t i = 0; i < sizeof proc_masked / sizeof *proc_masked; i++) {
		if ((rc = proc_entry(p, at, proc_masked[i], &st)) <= 0) {
			if (rc < 0)
				return -1;
			continue;
		}
		if (S_ISDIR(st.st_mode) ? mount("tmpfs", p, "tmpfs", MS_RDONLY |
		    MS_NOSUID | MS_NODEV | MS_NOEXEC,
		    "size=4k,nr_inodes=1,mode=0555") != 0 :
		    bind_mount("/dev/null", p, 0) != 0)
			return -1;
	}
	for (size_t i = 0; i < sizeof proc_readonly / sizeof *proc_readonly;
	    i++) {
		if ((rc = proc_entry(p, at, proc_readonly[i], &st)) < 0 ||
		    (rc > 0 && bind_mount(p, p, 0) != 0))
			return -1;
	}
	return 0;
}

/* uid mode: a mount namespace of the lease's own with that /proc over the
 * host's, and an IPC namespace of its own, so /proc/sysvipc lists nothing
 * of anyone else (seccomp refuses SysV IPC and mqueues besides). Needs
 * CAP_SYS_ADMIN (procfs of the host's pid namespace). */
static int
private_proc(void)
{
	if (unshare(CLONE_NEWNS | CLONE_NEWIPC) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return -1;
	return mount_proc("/proc");
}

/* ---- probing the host ---------------------------------------------- */

static int
child_status(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int
write_maps(uid_t uid, gid_t gid)
{
	char map[64];

	/* the maps of a non-dumpable process belong to root: become
	 * dumpable just long enough to write our own */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0)
		return -1;
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	if (file_write_str("/proc/self/setgroups", "deny") != 0 ||
	    file_write_str("/proc/self/uid_map", map) != 0)
		return -1;
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	if (file_write_str("/proc/self/gid_map", map) != 0)
		return -1;
	return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
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
	else if (write_maps(uid, uid) != 0)
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
		else if (mkdir("/tmp/p", 0755) != 0 || mount_proc("/tmp/p"))
			code = 17;
		if (code) {
			e = errno;
			(void)!write(out, &e, sizeof e);
		}
		_exit(code);
	} else {
		code = child_status(pid);
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
	code = child_status(pid);
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
	return pid < 0 ? -1 : child_status(pid);
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

/* uid mode: can a lease get its own /proc (private_proc)? Tried in a
 * child, as a lease would. */
static int
proc_trial(const struct jail_config *c)
{
	(void)c;
	return private_proc() == 0 ? 0 : errno > 0 && errno < 126 ? errno :
	    126;
}

static void
explain_proc(int code, char *why, size_t cap)
{
	snprintf(why, cap, "a private /proc with hidepid=invisible failed: "
	    "%s%s", code > 0 && code < 126 ? strerror(code) : "the trial died",
	    code == EINVAL ? " (hidepid=invisible needs Linux 5.8)" :
	    code == EPERM || code == EACCES ? " (mount refused: a seccomp or "
	    "AppArmor profile?)" : "");
}

void
jail_probe(const struct jail_config *c, struct jail_host *h)
{
	uint64_t eff = cap_effective();
	char *why;

	memset(h, 0, sizeof *h);
	h->uid = (uint32_t)getuid();
	h->cap_setuid = !!(eff & CAP_BIT(CAP_SETUID));
	h->cap_setgid = !!(eff & CAP_BIT(CAP_SETGID));
	h->cap_kill = !!(eff & CAP_BIT(CAP_KILL));
	h->cap_setpcap = !!(eff & CAP_BIT(CAP_SETPCAP));
	h->cap_sysadmin = !!(eff & CAP_BIT(CAP_SYS_ADMIN));
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
	probe(c, proc_trial, h->cap_sysadmin ? NULL : "needs CAP_SYS_ADMIN "
	    "to mount a /proc of the lease's own", explain_proc, &h->proc_ok,
	    h->proc_why, sizeof h->proc_why);
	h->landlock_abi = landlock_abi(&h->landlock_why);
	if (c->landlock_abi_cap && h->landlock_abi > c->landlock_abi_cap) {
		h->landlock_abi = c->landlock_abi_cap;
		h->landlock_why = "capped by the test hook";
	}
	cgroup_probe(c->cgroup_dir, &h->cg);
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

	if (view_build(c, &view, err, sizeof err) != 0)
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
		fprintf(out, "\"private_proc\":{\"uid\":%s,\"ns\":%s,"
		    "\"why\":", h->proc_ok ? "true" : "false",
		    h->userns_ok ? "true" : "false");
		json_write_cstr(out, h->proc_why);
		fprintf(out, "},");
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

/* ---- service set-up -------------------------------------------------- */

/* Can uid reach path (search permission on every ancestor)? */
static int
uid_can_reach(uid_t uid, const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (setgroups(0, NULL) != 0 || setresgid(uid, uid, uid) != 0 ||
		    setresuid(uid, uid, uid) != 0)
			_exit(2);
		_exit(access(path, X_OK) == 0 ? 0 : 1);
	}
	return pid > 0 && child_status(pid) == 0;
}

static void remove_stale(const struct jail *j);
static int purge_registration(const char *state, uint32_t uid,
    const char *key);

int
jail_init(struct jail *j, const struct jail_config *cfg, char *err,
    size_t errlen)
{
	const struct jail_host *h = &j->host;
	struct cgroup_limits cl;
	unsigned want, lack;
	char names[256];

	memset(j, 0, sizeof *j);
	j->cfg = *cfg;
	if (!cfg->state_dir) {
		snprintf(err, errlen, "no state directory");
		return -1;
	}
	jail_probe(cfg, &j->host);
	if (!h->mode_ok[cfg->mode]) {
		/* the sandbox names no other mode: none has network and an
		 * unbounded disk, uid is weaker than ns */
		snprintf(err, errlen, "--jail %s cannot run here: %s%s%s",
		    jail_mode_name(cfg->mode), h->mode_why[cfg->mode],
		    cfg->new_net ? "" : "; ", cfg->new_net ? "" :
		    h->mode_ok[JAIL_NS] ? "--jail ns would work" :
		    h->mode_ok[JAIL_UID] ? "--jail uid would work" :
		    "only --jail none (no isolation) would run");
		return -1;
	}
	if (cfg->mode != JAIL_NONE) {
		want = jail_landlock_wanted(cfg);
		lack = landlock_missing(want, h->landlock_abi);
		if (cfg->landlock == JAIL_LANDLOCK_REQUIRE &&
		    (h->landlock_abi == 0 || lack)) {
			snprintf(err, errlen, "--landlock require: %s%s%s",
			    h->landlock_abi ? "the kernel's Landlock ABI lacks "
			    : "no Landlock: ", h->landlock_abi ?
			    landlock_feature_names(lack, names, sizeof names) :
			    h->landlock_why, h->landlock_abi ? "" : "");
			return -1;
		}
		if (cfg->negress && (cfg->landlock == JAIL_LANDLOCK_OFF ||
		    (lack & LANDLOCK_FEAT_CONNECT) || !h->landlock_abi)) {
			snprintf(err, errlen, "--egress-ports needs Landlock "
			    "TCP rules (ABI 4; this kernel: %u%s)",
			    h->landlock_abi, cfg->landlock == JAIL_LANDLOCK_OFF
			    ? ", and --landlock off" : "");
			return -1;
		}
		if (cfg->landlock != JAIL_LANDLOCK_OFF && h->landlock_abi) {
			j->landlock_abi = h->landlock_abi > LANDLOCK_ABI_KNOWN ?
			    LANDLOCK_ABI_KNOWN : h->landlock_abi;
			j->landlock_features = want & ~lack;
			j->landlock_lacking = lack;
		} else if (cfg->landlock != JAIL_LANDLOCK_OFF) {
			j->landlock_lacking = want;
		}
		/* uid mode shares the host's file system: Landlock is what
		 * keeps a tool's writes on its capped disk */
		if (cfg->mode == JAIL_UID && cfg->limits.disk &&
		    !(j->landlock_features & LANDLOCK_FEAT_FS)) {
			snprintf(err, errlen, "--jail uid keeps a tool's writes "
			    "on its size-capped disk with Landlock file-system "
			    "rules, which are not in force here (%s)",
			    cfg->landlock == JAIL_LANDLOCK_OFF ? "--landlock "
			    "off" : h->landlock_why ? h->landlock_why :
			    "the kernel offers none");
			return -1;
		}
	}
	j->proc_private = cfg->mode == JAIL_NS ||
	    (cfg->mode == JAIL_UID && h->proc_ok);
	if (view_build(cfg, &j->view, err, errlen) != 0)
		return -1;
	if (cfg->mode != JAIL_NONE) {
		if (chmod(cfg->state_dir, 0711) != 0) {
			snprintf(err, errlen, "state directory %s: %s",
			    cfg->state_dir, strerror(errno));
			return -1;
		}
		if (uidpool_init(&j->uids, cfg->state_dir, cfg->uid_first,
		    cfg->uid_last, err, errlen) != 0)
			return -1;
		j->uids.purge = purge_registration;
		if (!cfg->one_shot &&
		    !uid_can_reach(cfg->uid_last, cfg->state_dir)) {
			snprintf(err, errlen, "--state-dir %s: uid %u cannot "
			    "reach it: every directory above it must be "
			    "searchable by others (o+x)", cfg->state_dir,
			    cfg->uid_last);
			return -1;
		}
	}
	if (cfg->mode != JAIL_NONE &&
	    uidpool_claim(&j->uids, cfg->check_only, err, errlen) < 0)
		return -1;
	cl = (struct cgroup_limits){ cfg->limits.memory, cfg->limits.pids,
		cfg->limits.cpu_millicpus };
	if (cgroup_setup(&j->cg, cfg->cgroup_dir, &h->cg, &cl,
	    cfg->cgroup_lean, err, errlen) != 0)
		return -1;
	if (!cfg->check_only)
		remove_stale(j);
	return 0;
}

int
jail_diagnose(const struct jail_config *cfg, char *out, size_t len)
{
	struct jail_config full = *cfg;
	struct jail_host h;

	full.one_shot = 0;
	jail_probe(&full, &h);
	if (!h.mode_ok[cfg->mode]) {
		snprintf(out, len, "--jail %s cannot run here: %s",
		    jail_mode_name(cfg->mode), h.mode_why[cfg->mode]);
		return 0;
	}
	if (cfg->mode != JAIL_NONE &&
	    !uid_can_reach(cfg->uid_last, cfg->state_dir)) {
		snprintf(out, len, "uid %u cannot reach the state directory "
		    "%s: every directory above it must be searchable by "
		    "others (o+x)", cfg->uid_last, cfg->state_dir);
		return 0;
	}
	return -1;
}

void
jail_fini(struct jail *j)
{
	cgroup_teardown(&j->cg);
}

const char *
jail_summary(const struct jail *j)
{
	static char buf[128];

	if (j->cfg.mode == JAIL_NONE)
		return "none";
	snprintf(buf, sizeof buf, "%s landlock=%s%u cgroup=%s unit=%s",
	    jail_mode_name(j->cfg.mode), j->landlock_abi ? "abi" : "off/",
	    j->landlock_abi, j->cg.kind == CGROUP_V2 ? "v2" :
	    j->cg.kind == CGROUP_V1 ? "v1" : "none",
	    jail_unit_name(j->cfg.unit));
	return buf;
}

/* ---- the lease's directories ---------------------------------------- */

/* Act on the file system as uid:gid (CAP_SETUID/CAP_SETGID): directories
 * made meanwhile belong to the lease without CAP_CHOWN. A credential
 * change clears the caller's parent-death signal (the runner's handlers
 * rely on theirs): fs_back sets it again, and delivers it if the parent
 * died meanwhile. */
static int saved_pdeath;
static pid_t saved_parent;
static void fs_back(void);

static int
fs_as(uid_t uid, gid_t gid)
{
	if (prctl(PR_GET_PDEATHSIG, &saved_pdeath, 0, 0, 0) != 0)
		saved_pdeath = 0;
	saved_parent = getppid();
	setfsgid(gid);
	setfsuid(uid);
	if ((uid_t)setfsuid((uid_t)-1) != uid ||
	    (gid_t)setfsgid((gid_t)-1) != gid) {
		fs_back();
		errno = EPERM;
		return -1;
	}
	return 0;
}

static void
fs_back(void)
{
	setfsuid(geteuid());
	setfsgid(getegid());
	if (saved_pdeath) {
		(void)prctl(PR_SET_PDEATHSIG, saved_pdeath, 0, 0, 0);
		if (getppid() != saved_parent)
			raise(saved_pdeath);
	}
}

/* mkdir as fs-uid, accepting an existing directory owned by uid. */
static int
mkdir_owned(const char *path, uid_t uid, mode_t mode)
{
	struct stat st;

	if (mkdir(path, mode) == 0)
		return 0;
	if (errno != EEXIST || lstat(path, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode) || st.st_uid != uid) {
		errno = EEXIST;
		return -1;
	}
	return 0;
}

/* A container directory root:gid, mode, made by us. */
static int
mkdir_container(const char *path, gid_t gid, mode_t mode)
{
	struct stat st;
	int rc;

	if (fs_as(geteuid(), gid) != 0)
		return -1;
	rc = mkdir(path, 0700);
	fs_back();
	if (rc != 0 && (errno != EEXIST || lstat(path, &st) != 0 ||
	    !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_gid != gid)) {
		if (rc == 0 || errno == EEXIST)
			errno = EEXIST;
		return -1;
	}
	return chmod(path, mode);
}

static void
remove_lease_dirs(const char *dir, uid_t uid, gid_t gid, int as_uid)
{
	DIR *d;
	struct dirent *e;

	if (!as_uid) {
		(void)fs_remove_tree(dir);
		return;
	}
	/* the lease's own directories, as the lease: the service may lack
	 * CAP_DAC_OVERRIDE; then the root-owned container as ourselves */
	if (!(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		char p[PATH_MAX];

		if (e->d_name[0] == '.' && (e->d_name[1] == '\0' ||
		    (e->d_name[1] == '.' && e->d_name[2] == '\0')))
			continue;
		if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >=
		    sizeof p)
			continue;
		if (fs_as(uid, gid) == 0) {
			(void)fs_remove_tree(p);
			fs_back();
		}
		(void)rmdir(p);		/* left empty by the lease */
	}
	closedir(d);
	(void)rmdir(dir);
}

/* The uid pool's purge hook: before a registration's uid is released
 * (none of its processes left), remove what it owns in the state
 * directory: its package cache and any lease directory a crashed runner
 * left with its gid. A file it left anywhere else (uid mode with
 * Landlock off) is not found here; docs/JAIL.md says so. */
static int
purge_registration(const char *state, uint32_t uid, const char *key)
{
	char box[PATH_MAX];
	struct dirent *e;
	struct stat st;
	DIR *d;
	int rc = 0;

	if ((size_t)snprintf(box, sizeof box, "%s/cache/%s", state, key) >=
	    sizeof box)
		return -1;
	remove_lease_dirs(box, uid, uid, 1);
	if (lstat(box, &st) == 0 || errno != ENOENT)
		rc = -1;
	if (!(d = opendir(state)))
		return -1;
	while ((e = readdir(d))) {
		char p[PATH_MAX];

		if (strncmp(e->d_name, "lease-", 6) != 0 ||
		    (size_t)snprintf(p, sizeof p, "%s/%s", state,
		    e->d_name) >= sizeof p || lstat(p, &st) != 0 ||
		    !S_ISDIR(st.st_mode) || st.st_gid != uid)
			continue;
		remove_lease_dirs(p, uid, uid, 1);
		if (lstat(p, &st) == 0 || errno != ENOENT)
			rc = -1;
	}
	closedir(d);
	return rc;
}

/* Leftovers of a runner that died: lease-* directories in the state dir. */
static void
remove_stale(const struct jail *j)
{
	DIR *d = opendir(j->cfg.state_dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char p[PATH_MAX];
		struct stat st;

		if (strncmp(e->d_name, "lease-", 6) != 0 ||
		    (size_t)snprintf(p, sizeof p, "%s/%s", j->cfg.state_dir,
		    e->d_name) >= sizeof p || lstat(p, &st) != 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (j->cfg.mode == JAIL_NONE)
			(void)fs_remove_tree(p);
		else if (st.st_gid >= j->cfg.uid_first &&
		    st.st_gid <= j->cfg.uid_last &&
		    uidpool_idle(&j->uids, st.st_gid))
			remove_lease_dirs(p, st.st_gid, st.st_gid, 1);
	}
	closedir(d);
}

int
jail_id_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > JAIL_ID_MAX)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

/* No one file larger than all the lease may hold on the state volume:
 * RLIMIT_FSIZE stops that write in the kernel, before the watch looks. */
static void
fsize_within_caps(struct jail_limits *lim)
{
	uint64_t cap = lim->home_size > lim->cache_size ? lim->home_size :
	    lim->cache_size;

	if (!lim->home_size || !lim->cache_size)
		cap = 0;	/* one place without a cap: no file cap */
	if (cap && (lim->fsize == 0 || lim->fsize > cap))
		lim->fsize = cap;
}

int
jail_lease_disk_usage(void *ctx, uint64_t *home, uint64_t *cache)
{
	const struct jail_lease *l = ctx;
	struct stat vol;
	int rc;

	*home = *cache = 0;
	if (stat(l->j->cfg.state_dir, &vol) != 0 || fs_as(l->uid, l->gid) != 0)
		return -1;
	/* the lease's directory is root's (0710): what the lease can fill
	 * is below it, in its own directories */
	rc = disk_tree_bytes(l->host_home, home) != 0 ||
	    disk_tree_bytes(l->host_tmp, home) != 0 ||
	    (l->host_work[0] && disk_tree_bytes(l->host_work, home) != 0) ||
	    (l->host_cache[0] && disk_tree_bytes(l->host_cache, cache) !=
	    0) || disk_unlinked_open(l->uid, vol.st_dev, home) != 0 ? -1 : 0;
	fs_back();
	return rc;
}

static int
open_fail(struct jail_lease *l, char *err, size_t errlen, const char *what)
{
	int e = errno;

	if (disk_errno_full(e))
		disk_no_space(err, errlen, l->j->cfg.state_dir, what, e);
	else
		snprintf(err, errlen, "%s: %s", what, strerror(e));
	(void)jail_lease_close(l, -1, NULL, NULL, NULL, 0);
	return -1;
}

/* The registration unit's key: "tenant+registration", and "+token id"
 * when the runner verified an approval, so each approval has its own uid
 * and cache. The parts are [A-Za-z0-9._-] (ids) and [A-Za-z0-9_-] (the
 * token id), so '+' splits them one way only. */
int
jail_reg_key(const struct jail_request *rq, char *key, size_t cap)
{
	int n = rq->approval ? snprintf(key, cap, "%s+%s+%s", rq->tenant,
	    rq->registration, rq->approval) : snprintf(key, cap, "%s+%s",
	    rq->tenant, rq->registration);

	return n < 0 || (size_t)n >= cap || strchr(key, '/') ||
	    key[0] == '.' ? -1 : 0;
}

/* The length of "tenant+registration+", the part a key shares with every
 * other approval of the registration. */
size_t
jail_key_family_len(const char *key)
{
	const char *last = strrchr(key, '+');

	return last ? (size_t)(last - key) + 1 : 0;
}

/* The per-(tenant, registration) cache: <state>/cache/<key>/data, owned
 * by the registration's uid; npm and XDG caches below it. */
static int
make_cache(struct jail_lease *l, const char *key)
{
	const struct jail *j = l->j;
	char base[PATH_MAX], box[PATH_MAX], sub[PATH_MAX];
	int rc = -1;

	if (join(base, sizeof base, j->cfg.state_dir, "/cache") != 0 ||
	    (size_t)snprintf(box, sizeof box, "%s/%s", base, key) >=
	    sizeof box || join(l->host_cache, sizeof l->host_cache, box,
	    "/data") != 0)
		return -1;
	if (mkdir(base, 0711) != 0 && errno != EEXIST)
		return -1;
	if (mkdir_container(box, l->gid, 0730) != 0)
		return -1;
	if (fs_as(l->uid, l->gid) != 0)
		return -1;
	if (mkdir_owned(l->host_cache, l->uid, 0700) == 0 &&
	    join(sub, sizeof sub, l->host_cache, "/npm") == 0 &&
	    mkdir_owned(sub, l->uid, 0700) == 0 &&
	    join(sub, sizeof sub, l->host_cache, "/xdg") == 0 &&
	    mkdir_owned(sub, l->uid, 0700) == 0)
		rc = 0;
	fs_back();
	if (chmod(box, 0710) != 0)
		rc = -1;
	return rc;
}

struct trim {
	const struct jail_lease *l;
	const char *key;
};

/* A registration's cache past --cache-size, called with its uid idle
 * (uidpool_idle_key): emptied, and said. A cache that cannot be
 * measured counts as past it. */
static void
trim_cache(void *ctx, uint32_t uid)
{
	const struct trim *t = ctx;
	const struct jail_lease *l = t->l;
	char box[PATH_MAX], data[PATH_MAX];
	uint64_t used = 0;
	int rc;

	if ((size_t)snprintf(box, sizeof box, "%s/cache/%s",
	    l->j->cfg.state_dir, t->key) >= sizeof box ||
	    join(data, sizeof data, box, "/data") != 0 ||
	    fs_as(uid, uid) != 0)
		return;
	rc = disk_tree_bytes(data, &used);	/* the box is root's */
	fs_back();
	if (rc == 0 && used <= l->limits.cache_size)
		return;
	remove_lease_dirs(box, uid, uid, 1);
	log_event(LOG_WARN, "package cache over --cache-size: emptied",
	    (struct log_field[]){ LF_STR("lease", l->id),
	    LF_STR("key", t->key), LF_NUM("uid", uid), LF_NUM("bytes", used),
	    LF_NUM("cache_size", l->limits.cache_size) }, 5);
}

/* home/.npm and home/.cache lead to the registration's cache c (as the
 * lease sees it). */
static int
link_cache(const char *c, const char *home)
{
	char target[PATH_MAX], link[PATH_MAX];

	if ((size_t)snprintf(target, sizeof target, "%s/npm", c) >=
	    sizeof target || join(link, sizeof link, home, "/.npm"))
		return -1;
	if (symlink(target, link) != 0)
		return -1;
	if ((size_t)snprintf(target, sizeof target, "%s/xdg", c) >=
	    sizeof target || join(link, sizeof link, home, "/.cache") != 0)
		return -1;
	return symlink(target, link);
}

_Static_assert(JAIL_VIEW_PATHS_MAX + 8 <= LANDLOCK_PATHS_MAX,
    "Landlock's read-only list holds the view and a few more");

static void
landlock_prepare(struct jail_lease *l)
{
	const struct jail *j = l->j;
	struct landlock_spec *s = &l->ll;

	memset(s, 0, sizeof *s);
	s->abi = j->landlock_abi;
	s->features = j->landlock_features;
	for (size_t i = 0; i < j->view.nro; i++)
		s->ro[s->nro++] = j->view.ro[i];
	s->ro[s->nro++] = "/proc";
	if (j->cfg.mode == JAIL_NS)
		s->ro[s->nro++] = "/etc";	/* the generated passwd/group */
	if (j->cfg.mode == JAIL_NS && j->cfg.self_exe)
		s->ro[s->nro++] = NS_SELF_DIR;
	for (size_t i = 0; i < sizeof dev_files / sizeof *dev_files; i++)
		s->rw[s->nrw++] = dev_files[i];
	s->rw[s->nrw++] = l->home;
	s->rw[s->nrw++] = l->tmpdir;
	if (l->workdir[0])
		s->rw[s->nrw++] = l->workdir;
	if (l->host_cache[0])
		s->rw[s->nrw++] = j->cfg.mode == JAIL_NS ? NS_CACHE :
		    l->host_cache;
	if (j->cfg.mode == JAIL_NS)
		s->rw[s->nrw++] = "/dev/shm";
	for (size_t i = 0; i < j->cfg.negress && i < LANDLOCK_PORTS_MAX; i++)
		s->ports[s->nports++] = j->cfg.egress_ports[i];
}

int
jail_lease_open(const struct jail *j, const struct jail_request *rq,
    struct jail_lease *l, char *err, size_t errlen)
{
	int ns = j->cfg.mode == JAIL_NS;
	char key[UIDPOOL_KEY_MAX + 1];

	memset(l, 0, sizeof *l);
	l->j = j;
	l->hold.fd = -1;
	l->disk_sock[0] = l->disk_sock[1] = l->disk_fd = -1;
	if (!jail_id_valid(rq->id) || rq->nfiles > JAIL_FILES_MAX) {
		snprintf(err, errlen, "bad jail request (id or files)");
		return -1;
	}
	for (size_t i = 0; i < rq->nfiles; i++) {
		const char *n = rq->files[i].name;

		if (!n[0] || strchr(n, '/') || strcmp(n, ".") == 0 ||
		    strcmp(n, "..") == 0 || !rq->work) {
			snprintf(err, errlen, "bad jail file name");
			return -1;
		}
	}
	memcpy(l->id, rq->id, strlen(rq->id) + 1);
	l->limits = rq->limits ? *rq->limits : j->cfg.limits;
	fsize_within_caps(&l->limits);
	l->files = rq->files;
	l->nfiles = rq->nfiles;
	if ((size_t)snprintf(l->dir, sizeof l->dir, "%s/lease-%s",
	    j->cfg.state_dir, l->id) >= sizeof l->dir ||
	    join(l->host_home, sizeof l->host_home, l->dir, "/home") ||
	    join(l->host_tmp, sizeof l->host_tmp, l->dir, "/tmp") ||
	    join(l->host_root, sizeof l->host_root, l->dir, "/root")) {
		snprintf(err, errlen, "state directory path too long");
		return -1;
	}
	if (rq->work && join(l->host_work, sizeof l->host_work, l->dir,
	    "/work") != 0) {
		snprintf(err, errlen, "state directory path too long");
		return -1;
	}
	if (j->cfg.mode == JAIL_NONE) {
		/* the service's own uid; HOME is the lease directory */
		if (mkdir(l->dir, 0700) != 0)
			return open_fail(l, err, errlen, "cannot create the "
			    "lease home");
		l->dirs_made = 1;
		if (mkdir(l->host_tmp, 0700) != 0 || (rq->work &&
		    mkdir(l->host_work, 0700) != 0))
			return open_fail(l, err, errlen, "cannot create the "
			    "lease home");
		snprintf(l->home, sizeof l->home, "%s", l->dir);
		snprintf(l->tmpdir, sizeof l->tmpdir, "%s", l->host_tmp);
		snprintf(l->workdir, sizeof l->workdir, "%s", l->host_work);
		l->uid = (uint32_t)getuid();
		l->gid = (uint32_t)getgid();
	} else {
		int unit_reg = j->cfg.unit == JAIL_UNIT_REGISTRATION &&
		    rq->tenant && rq->registration;

		if (unit_reg && jail_reg_key(rq, key, sizeof key) != 0) {
			snprintf(err, errlen, "bad jail request "
			    "(registration key)");
			return -1;
		}
		if (disk_make_room(&j->uids, j->cfg.state_dir,
		    l->limits.disk_reserve, unit_reg ? key : NULL, err,
		    errlen) != 0)
			return -1;
		if (unit_reg && l->limits.cache_size)
			(void)uidpool_idle_key(&j->uids, key, trim_cache,
			    &(struct trim){ l, key });
		if (unit_reg) {
			if (uidpool_take_key(&j->uids, key, &l->hold, err,
			    errlen) != 0)
				return -1;
			/* a new approval of the registration: the uids and
			 * caches of its earlier approvals are released */
			if (l->hold.fresh && rq->approval)
				uidpool_drop_family(&j->uids, key,
				    jail_key_family_len(key));
		} else if (uidpool_take(&j->uids, l->id, &l->hold, err,
		    errlen) != 0) {
			return -1;
		}
		l->uid = l->gid = l->hold.uid;
		/* root:gid 0730 while the lease's own dirs are made in it
		 * as the lease, then 0710: the lease can use them but not
		 * add anything beside them */
		if (mkdir_container(l->dir, l->gid, 0730) != 0)
			return open_fail(l, err, errlen, "cannot create the "
			    "lease directory");
		l->dirs_made = 1;
		if (fs_as(l->uid, l->gid) != 0)
			return open_fail(l, err, errlen, "setfsuid");
		if ((!ns && mkdir(l->host_home, 0700) != 0) ||
		    mkdir(l->host_tmp, 0700) != 0 ||
		    (rq->work && mkdir(l->host_work, 0700) != 0) ||
		    (ns && mkdir(l->host_root, 0700) != 0)) {
			fs_back();
			return open_fail(l, err, errlen, "cannot create the "
			    "lease home");
		}
		fs_back();
		if (chmod(l->dir, 0710) != 0)
			return open_fail(l, err, errlen, "chmod");
		if (unit_reg && make_cache(l, key) != 0)
			return open_fail(l, err, errlen, "cannot prepare the "
			    "package cache");
		if (l->host_cache[0] && !ns) {	/* ns: in its tmpfs HOME */
			int rc;

			if (fs_as(l->uid, l->gid) != 0)
				return open_fail(l, err, errlen, "setfsuid");
			rc = link_cache(l->host_cache, l->host_home);
			fs_back();
			if (rc != 0)
				return open_fail(l, err, errlen, "cannot link "
				    "the package cache");
		}
		snprintf(l->home, sizeof l->home, "%s", ns ? NS_HOME :
		    l->host_home);
		snprintf(l->tmpdir, sizeof l->tmpdir, "%s", ns ? "/tmp" :
		    l->host_tmp);
		if (rq->work)
			snprintf(l->workdir, sizeof l->workdir, "%s", ns ?
			    NS_WORK : l->host_work);
	}
	if (j->cfg.mode != JAIL_NONE &&
	    cgroup_lease_create(&j->cg, l->id, &(struct cgroup_limits){
	    l->limits.memory, l->limits.pids, l->limits.cpu_millicpus },
	    &l->cg, err, errlen) != 0) {
		(void)jail_lease_close(l, -1, NULL, NULL, NULL, 0);
		return -1;
	}
	l->cg_made = j->cfg.mode != JAIL_NONE;
	if (j->cfg.mode != JAIL_NONE && l->limits.disk &&
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0,
	    l->disk_sock) != 0) {
		l->disk_sock[0] = l->disk_sock[1] = -1;
		return open_fail(l, err, errlen, "socketpair");
	}
	landlock_prepare(l);
	return 0;
}

int
jail_lease_pass_fd(const struct jail_lease *l)
{
	return l->disk_sock[1] > STDERR_FILENO ? l->disk_sock[1] : 0;
}

int
jail_lease_started(struct jail_lease *l, char *err, size_t errlen)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	char b;
	struct iovec iov = { &b, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof u.buf };
	struct cmsghdr *c;
	struct statfs sf;
	int fd = -1;

	if (l->disk_sock[0] < 0)
		return 0;
	close(l->disk_sock[1]);
	l->disk_sock[1] = -1;
	/* sent before the exec that ended spawn_start's wait: there now */
	if (recvmsg(l->disk_sock[0], &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) == 1 &&
	    (c = CMSG_FIRSTHDR(&m)) && c->cmsg_level == SOL_SOCKET &&
	    c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof fd))
		memcpy(&fd, CMSG_DATA(c), sizeof fd);
	close(l->disk_sock[0]);
	l->disk_sock[0] = -1;
	if (fd < 0 || fstatfs(fd, &sf) != 0 || sf.f_type != TMPFS_MAGIC) {
		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "the jail did not report its disk (a "
		    "tmpfs)");
		return -1;
	}
	l->disk_fd = fd;
	return 0;
}

/* ---- the child -------------------------------------------------------- */

/* The disk's tmpfs options: owner, size, inodes (hard links count too). */
static void
disk_opts(const struct jail_lease *l, const char *owner, char *out,
    size_t cap)
{
	uint64_t inodes = l->limits.disk / JAIL_DISK_INODE_BYTES;

	if (inodes < JAIL_DISK_INODES_MIN)
		inodes = JAIL_DISK_INODES_MIN;
	snprintf(out, cap, "%s,size=%llu,nr_inodes=%llu", owner,
	    (unsigned long long)l->limits.disk, (unsigned long long)inodes);
}

/* Hand the disk (an O_PATH fd of its root) to the service, which measures
 * it and keeps it until the lease is closed; then close the channel, so
 * nothing the tool runs inherits it. */
static int
send_disk(const char *path)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	char b = 'd';
	struct iovec iov = { &b, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof u.buf };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof fd);
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	rc = sendmsg(SPAWN_PASS_FD, &m, MSG_NOSIGNAL) == 1 ? 0 : -1;
	close(fd);
	close(SPAWN_PASS_FD);
	return rc;
}

/* uid mode, as root in the child's own mount namespace: the disk over
 * the lease directory, HOME, TMPDIR and the work dir in it (made as the
 * lease: no CAP_CHOWN). Nothing else is writable: Landlock (required
 * with a disk) keeps the host's /tmp and /dev/shm out of reach. */
static int
uid_disk(struct jail_lease *l)
{
	char opts[160], owner[64];
	int rc;

	snprintf(owner, sizeof owner, "mode=0730,uid=%u,gid=%u",
	    (unsigned)geteuid(), (unsigned)l->gid);
	disk_opts(l, owner, opts, sizeof opts);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("tmpfs", l->dir, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0 ||
	    fs_as(l->uid, l->gid) != 0)
		return -1;
	rc = mkdir(l->host_home, 0700) || mkdir(l->host_tmp, 0700) ||
	    (l->workdir[0] && mkdir(l->host_work, 0700));
	fs_back();
	if (rc || chmod(l->dir, 0710) != 0)
		return -1;
	return send_disk(l->dir);
}

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
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, f->mode & 0777);
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

#define STEP(name, expr) do { *step = (name); if ((expr) != 0) \
	return -1; } while (0)

/* The common tail: no_new_privs, rlimits, files, Landlock, seccomp. */
static int
enter_tail(const struct jail_lease *l, const char **step)
{
	const struct jail *j = l->j;

	STEP("no_new_privs", prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	STEP("rlimits", set_rlimits(&l->limits));
	STEP("files", write_files(l));
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

static int
enter_uid(struct jail_lease *l, const char **step)
{
	const struct jail *j = l->j;
	pid_t parent = getppid();
	int setpcap = j->host.cap_setpcap;

	STEP("cgroup", cgroup_lease_attach(&l->cg));
	if (j->proc_private)
		STEP("mount-proc", private_proc());
	/* the sandbox: no network, a capped disk (CAP_SYS_ADMIN, probed) */
	STEP("unshare", (j->cfg.new_net || l->limits.disk) ?
	    unshare((j->cfg.new_net ? CLONE_NEWNET : 0) |
	    (l->limits.disk ? CLONE_NEWNS : 0)) : 0);
	if (l->limits.disk)
		STEP("mount-disk", uid_disk(l));
	/* keep CAP_SETPCAP across the uid change to drop the bounding set
	 * afterwards; everything else goes with the change */
	STEP("keepcaps", setpcap ? prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) : 0);
	STEP("setgroups", setgroups(0, NULL));
	STEP("setresgid", setresgid(l->gid, l->gid, l->gid));
	STEP("setresuid", setresuid(l->uid, l->uid, l->uid));
	STEP("capabilities", drop_caps(setpcap));
	STEP("verify-no-root", verify_dropped(l->uid, l->gid));
	STEP("chdir", chdir(l->workdir[0] ? l->workdir : l->home));
	/* credential changes clear the parent-death signal: set it again */
	STEP("pdeathsig", pdeath(parent));
	return enter_tail(l, step);
}

/* ---- ns mode ---------------------------------------------------------- */

static volatile pid_t fwd_pid;	/* where a caught signal is forwarded */

static void
forward(int sig)
{
	if (fwd_pid)
		kill(fwd_pid, sig);
}

static void
forward_signals(pid_t to)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1,
		SIGUSR2, SIGALRM, SIGWINCH, SIGCONT };
	struct sigaction sa;

	fwd_pid = to;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaction(sigs[i], &sa, NULL);
}

static void
close_stdio(void)
{
	close(0);
	close(1);
	close(2);
	close(3);	/* spawn's report pipe: the last writer is the server */
}

/* End the way the server ended: its signal, or its exit code. */
static _Noreturn void
mirror(int status)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		sigset_t set;

		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		fwd_pid = 0;
		raise(sig);
		_exit(128 + sig);
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

/* The service's argv area (/proc/PID/cmdline), [start, end). */
static uintptr_t args_start, args_end;

/* Find the argv area in /proc/self/stat (fields 48 and 49). */
static int
find_args(void)
{
	char buf[2048], *p;
	int field = 2;

	if (file_read_small("/proc/self/stat", buf, sizeof buf) < 0 ||
	    !(p = strrchr(buf, ')')))
		return -1;
	while (*p && field < 48)
		field += *p++ == ' ';
	args_start = (uintptr_t)strtoull(p, &p, 10);
	args_end = (uintptr_t)strtoull(p, NULL, 10);
	/* the area ends with the last argument's NUL */
	if (args_start == 0 || args_end <= args_start ||
	    *(const char *)(args_end - 1) != '\0') {
		args_start = 0;
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* The proxy and init never exec: their command line would be the
 * service's (its flags, its secret file's path). Overwrite it with name
 * and NULs — only once the server is forked: its argv may point there
 * (the sandbox's `run -- COMMAND`). */
static void
rename_cmdline(const char *name)
{
	size_t len = args_end - args_start, n = strlen(name);

	if (!args_start)
		return;
	memset((void *)args_start, 0, len);
	memcpy((void *)args_start, name, n < len ? n : len - 1);
}

/* pid 1 of the lease: reap everything, forward signals to everyone,
 * end (and with it the namespace) when the server ends. */
static _Noreturn void
run_init(pid_t server, int report)
{
	int st, server_st = 0;

	rename_cmdline("airlock-init");	/* the server has its own copy */
	forward_signals(-1);
	close_stdio();
	for (;;) {
		pid_t w = waitpid(-1, &st, 0);

		if (w == server) {
			server_st = st;
			break;
		}
		if (w < 0 && errno == ECHILD)
			break;
	}
	(void)!write(report, &server_st, sizeof server_st);
	_exit(0);
}

/* Outside the namespaces: wait for pid 1, forward signals, end as the
 * server did. The lease watches this process. */
static _Noreturn void
run_proxy(pid_t init, int status_fd)
{
	int st = 0, server_st;
	ssize_t n;

	rename_cmdline("airlock-proxy");
	forward_signals(init);
	close_stdio();
	do
		n = read(status_fd, &server_st, sizeof server_st);
	while (n < 0 && errno == EINTR);
	while (waitpid(init, &st, 0) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof server_st)
		mirror(server_st);
	mirror(st);	/* pid 1 died without a word: its own end */
}

static unsigned long
locked_flags(const char *path)
{
	struct statvfs sv;
	unsigned long f = 0;

	static const unsigned long st_ms[][2] = {
		{ ST_NOSUID, MS_NOSUID }, { ST_NODEV, MS_NODEV },
		{ ST_NOEXEC, MS_NOEXEC }, { ST_NOATIME, MS_NOATIME },
		{ ST_NODIRATIME, MS_NODIRATIME }, { ST_RELATIME, MS_RELATIME },
	};

	if (statvfs(path, &sv) != 0)
		return 0;
	for (size_t i = 0; i < sizeof st_ms / sizeof st_ms[0]; i++)
		if (sv.f_flag & st_ms[i][0])
			f |= st_ms[i][1];
	return f;
}

/* Bind src at root+dst, read-only unless rw. */
static int
bind_into(const char *root, const char *src, const char *dst, int rw)
{
	char to[PATH_MAX];
	struct stat st;

	if (join(to, sizeof to, root, dst) != 0 || stat(src, &st) != 0)
		return -1;
	if (S_ISDIR(st.st_mode)) {
		if (mkdir_p(to) != 0)
			return -1;
	} else {
		char *slash;
		int fd;

		if ((slash = strrchr(to, '/')) && slash != to) {
			*slash = '\0';
			if (mkdir_p(to) != 0)
				return -1;
			*slash = '/';
		}
		fd = open(to, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return -1;
		if (fd >= 0)
			close(fd);
	}
	return bind_mount(src, to, rw);
}

/* A symlink on the host (/bin -> usr/bin) becomes the same symlink. */
static int
link_into(const char *root, const char *path)
{
	char to[PATH_MAX], target[PATH_MAX], *slash;
	ssize_t n = readlink(path, target, sizeof target - 1);

	if (n < 0 || join(to, sizeof to, root, path) != 0)
		return -1;
	target[n] = '\0';
	if ((slash = strrchr(to, '/')) && slash != to) {
		*slash = '\0';
		if (mkdir_p(to) != 0)
			return -1;
		*slash = '/';
	}
	return symlink(target, to) == 0 || errno == EEXIST ? 0 : -1;
}

static int
mount_tmpfs(const char *root, const char *dst, const char *opts,
    unsigned long extra)
{
	char to[PATH_MAX];

	if (join(to, sizeof to, root, dst) != 0 || mkdir_p(to) != 0)
		return -1;
	return mount("tmpfs", to, "tmpfs", MS_NOSUID | MS_NODEV | extra, opts);
}

/* A copy of the file src at root+dst, mode 0555: the service's binary
 * for the sandbox's Java stage (src /proc/self/exe: the binary running,
 * even if its file was replaced since), under a name that says nothing
 * of where it lives on the host (a bind would show that in mountinfo). */
static int
copy_into(const char *root, const char *src, const char *dst)
{
	char to[PATH_MAX], *slash;
	int in, out, rc = -1;
	ssize_t n;

	if (join(to, sizeof to, root, dst) != 0)
		return -1;
	if ((slash = strrchr(to, '/')) && slash != to) {
		*slash = '\0';
		if (mkdir_p(to) != 0)
			return -1;
		*slash = '/';
	}
	if ((in = open(src, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0555);
	if (out >= 0) {
		while ((n = sendfile(out, in, NULL, 1 << 20)) > 0)
			;
		rc = n == 0 ? close(out) : (close(out), -1);
	}
	close(in);
	return rc;
}

static int
write_into(const char *root, const char *path, const char *text)
{
	char to[PATH_MAX];
	int fd;
	size_t n = strlen(text);

	if (join(to, sizeof to, root, path) != 0)
		return -1;
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, text, n) != (ssize_t)n) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* The sandbox's disk at root/.disk, its directories made (0700 the
 * tool's own, 1777 the shared kinds, as the usual mounts are). */
static int
ns_disk(const struct jail_lease *l, const char *root)
{
	static const struct { const char *name; mode_t mode; } dirs[] = {
		{ "home", 0700 }, { "work", 0700 }, { "tmp", 01777 },
		{ "shm", 01777 },
	};
	char opts[160], path[PATH_MAX];
	int fd;

	disk_opts(l, "mode=0700", opts, sizeof opts);
	if (mount_tmpfs(root, "/.disk", opts, 0) != 0 ||
	    join(path, sizeof path, root, "/.disk") != 0 ||
	    (fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
		if (mkdirat(fd, dirs[i].name, 0700) != 0 ||
		    fchmodat(fd, dirs[i].name, dirs[i].mode, 0) != 0) {
			close(fd);
			return -1;
		}
	return close(fd);
}

/* disk+sub bound read-write at root+dst. */
static int
bind_sub(const char *root, const char *disk, const char *sub,
    const char *dst)
{
	char src[PATH_MAX];

	return join(src, sizeof src, disk, sub) || bind_into(root, src, dst,
	    1);
}

/* The new root: a small tmpfs with the system paths bound read-only,
 * fresh /proc, minimal /dev, tmpfs /tmp (and /work), the lease's HOME
 * and cache read-write; then pivot_root into it and seal it read-only. */
static int
build_root(struct jail_lease *l, const char **step)
{
	const struct jail *j = l->j;
	const char *root = l->host_root;
	uint64_t size = l->limits.tmpfs ? l->limits.tmpfs : DEFAULT_TMPFS;
	char opts[96], text[512], to[PATH_MAX], disk[PATH_MAX];

	STEP("mount-private", mount(NULL, "/", NULL, MS_REC | MS_PRIVATE,
	    NULL));
	STEP("mount-root", mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV,
	    "mode=0755,size=8m,nr_inodes=4096"));
	if (l->limits.disk) {
		STEP("mount-disk", join(disk, sizeof disk, root, "/.disk") ||
		    ns_disk(l, root));
		STEP("mount-tmp", bind_sub(root, disk, "/tmp", "/tmp"));
		if (l->workdir[0])
			STEP("mount-work", bind_sub(root, disk, "/work",
			    NS_WORK));
		STEP("mount-home", bind_sub(root, disk, "/home", NS_HOME));
	} else {
		snprintf(opts, sizeof opts, "mode=1777,size=%llu",
		    (unsigned long long)size);
		STEP("mount-tmp", mount_tmpfs(root, "/tmp", opts, 0));
		if (l->workdir[0]) {
			snprintf(opts, sizeof opts, "mode=0700,size=%llu",
			    (unsigned long long)size);
			STEP("mount-work", mount_tmpfs(root, NS_WORK, opts, 0));
		}
		/* HOME is a tmpfs of its own: a bind of the host directory
		 * would show the state directory's path in mountinfo */
		snprintf(opts, sizeof opts, "mode=0700,size=%llu",
		    (unsigned long long)size);
		STEP("mount-home", mount_tmpfs(root, NS_HOME, opts, 0));
	}
	if (l->host_cache[0]) {
		STEP("mount-cache", bind_into(root, l->host_cache, NS_CACHE,
		    1));
		STEP("mount-cache", join(to, sizeof to, root, NS_HOME) ||
		    link_cache(NS_CACHE, to));
	}
	for (size_t i = 0; i < j->view.nlinks; i++)
		STEP("mount-links", link_into(root, j->view.links[i]));
	for (size_t i = 0; i < j->view.nro; i++) {
		struct stat st;

		/* a path the lease's uid cannot reach is no use to it */
		if (stat(j->view.ro[i], &st) != 0 && (errno == EACCES ||
		    errno == ENOENT))
			continue;
		STEP("mount-bind", bind_into(root, j->view.ro[i],
		    j->view.ro[i], 0));
	}
	if (j->cfg.self_exe)
		STEP("mount-self", copy_into(root, "/proc/self/exe", NS_SELF));
	STEP("mount-proc", join(to, sizeof to, root, "/proc") ||
	    mkdir_p(to) || mount_proc(to));
	STEP("mount-dev", mount_tmpfs(root, "/dev", "mode=0755,size=64k",
	    MS_NOEXEC));
	for (size_t i = 0; i < sizeof dev_files / sizeof *dev_files; i++)
		STEP("mount-dev", bind_into(root, dev_files[i], dev_files[i],
		    1));
	STEP("mount-dev", join(to, sizeof to, root, "/dev/fd") ||
	    symlink("/proc/self/fd", to));
	STEP("mount-dev", join(to, sizeof to, root, "/dev/stdin") ||
	    symlink("/proc/self/fd/0", to));
	STEP("mount-dev", join(to, sizeof to, root, "/dev/stdout") ||
	    symlink("/proc/self/fd/1", to));
	STEP("mount-dev", join(to, sizeof to, root, "/dev/stderr") ||
	    symlink("/proc/self/fd/2", to));
	snprintf(opts, sizeof opts, "mode=1777,size=%llu",
	    (unsigned long long)size);
	if (l->limits.disk)
		STEP("mount-dev", bind_sub(root, disk, "/shm", "/dev/shm") ||
		    join(to, sizeof to, root, "/dev/shm") || mount(NULL, to,
		    NULL, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV |
		    MS_NOEXEC, NULL));
	else
		STEP("mount-dev", mount_tmpfs(root, "/dev/shm", opts,
		    MS_NOEXEC));
	/* the disk lives on in its binds (and the service's fd) */
	if (l->limits.disk)
		STEP("mount-disk", send_disk(disk) || umount2(disk, MNT_DETACH)
		    || rmdir(disk));
	STEP("mount-etc", join(to, sizeof to, root, "/etc") || mkdir_p(to));
	snprintf(text, sizeof text, "airlock:x:%u:%u:airlock lease:%s:"
	    "/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:"
	    "/usr/sbin/nologin\n", l->uid, l->gid, NS_HOME);
	STEP("mount-etc", write_into(root, "/etc/passwd", text));
	snprintf(text, sizeof text, "airlock:x:%u:\nnogroup:x:65534:\n",
	    l->gid);
	STEP("mount-etc", write_into(root, "/etc/group", text));
	STEP("pivot_root", chdir(root) || syscall(SYS_pivot_root, ".", ".") ||
	    umount2(".", MNT_DETACH) || chdir("/"));
	STEP("remount-ro", mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND |
	    MS_RDONLY | MS_NOSUID | MS_NODEV, NULL));
	STEP("hostname", sethostname("airlock", 7));
	return 0;
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
	STEP("setresgid", setresgid(l->gid, l->gid, l->gid));
	STEP("setresuid", setresuid(l->uid, l->uid, l->uid));
	STEP("capabilities", drop_caps(1));
	STEP("verify-no-root", verify_dropped(l->uid, l->gid));
	STEP("chdir", chdir(l->workdir[0] ? l->workdir : l->home));
	STEP("pdeathsig", pdeath(1));
	return enter_tail(l, step);
}

/* pid 1: parent-death tie to the proxy, the mounts, the server. */
static int
enter_ns_init(struct jail_lease *l, int status_w, int alive_r,
    const char **step)
{
	struct pollfd pf = { alive_r, POLLIN, 0 };
	pid_t pid;

	STEP("pdeathsig", prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0));
	/* getppid() is 0 here (the parent is outside): the proxy holds the
	 * write end of alive_r, so a hang-up means it is gone */
	*step = "pdeathsig";
	if (poll(&pf, 1, 0) != 0) {
		errno = ESRCH;
		return -1;
	}
	close(alive_r);
	if (build_root(l, step) != 0)
		return -1;
	STEP("fork", (pid = fork()) < 0);
	if (pid == 0) {
		close(status_w);
		return enter_ns_server(l, step);
	}
	run_init(pid, status_w);
}

static int
enter_ns(struct jail_lease *l, const char **step)
{
	extern char **environ;
	pid_t parent = getppid(), pid;
	int st[2], alive[2];

	/* the proxy and pid 1 never exec: their environ is the service's
	 * (which may hold a secret); the server gets its own envp */
	for (char **e = environ; e && *e; e++)
		memset(*e, 0, strlen(*e));
	STEP("cmdline", find_args());

	STEP("cgroup", cgroup_lease_attach(&l->cg));
	STEP("setgroups", setgroups(0, NULL));
	STEP("setresgid", setresgid(l->gid, l->gid, l->gid));
	STEP("setresuid", setresuid(l->uid, l->uid, l->uid));
	STEP("unshare", unshare(jail_ns_flags(&l->j->cfg)));
	STEP("id-map", write_maps(l->uid, l->gid));
	STEP("pdeathsig", pdeath(parent));
	STEP("pipe", pipe2(st, O_CLOEXEC) || pipe2(alive, O_CLOEXEC));
	STEP("fork", (pid = fork()) < 0);
	if (pid == 0) {
		close(st[0]);
		close(alive[1]);
		return enter_ns_init(l, st[1], alive[0], step);
	}
	close(st[1]);
	close(alive[0]);
	if (l->disk_sock[1] >= 0)
		close(SPAWN_PASS_FD);	/* pid 1 reports the disk; not us */
	run_proxy(pid, st[0]);
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
	snprintf(adj, sizeof adj, "%d", JAIL_OOM_SCORE_ADJ);
	STEP("oom-score", file_write_str("/proc/self/oom_score_adj", adj));
	switch (l->j->cfg.mode) {
	case JAIL_UID:
		return enter_uid(l, step);
	case JAIL_NS:
		return enter_ns(l, step);
	default:
		return 0;
	}
}

/* ---- the end ------------------------------------------------------------ */

void
jail_lease_kill(struct jail_lease *l, pid_t watch, int *status, int *found)
{
	int st;
	pid_t w;

	/* the cgroup holds exactly the lease's processes, and none can
	 * leave it (its cgroup.procs files are root's): empty means done */
	if (l->cg_made && l->cg.n > 0 && cgroup_lease_kill(&l->cg) == 0)
		l->swept = l->j->cfg.mode == JAIL_NS ? UID_SWEPT :
		    UID_PROCS_GONE;
	if (l->j->cfg.mode != JAIL_NONE && l->hold.fd >= 0 && !l->swept &&
	    (!l->hold.shared || flock(l->hold.fd, LOCK_EX | LOCK_NB) == 0))
		l->swept = uid_kill_all(l->uid, l->gid, watch, status,
		    found) == 0 ? UID_SWEPT : UID_NOT_SWEPT;
	while ((w = waitpid(-1, &st, WNOHANG)) > 0)
		if (w == watch && status && found) {
			*status = st;
			*found = 1;
		}
}

int
jail_lease_cgroup_fd(const struct jail_lease *l)
{
	return l->cg_made ? l->cg.v2_fd : -1;
}

void
jail_lease_stats(const struct jail_lease *l, struct jail_stats *st)
{
	struct cgroup_stats cs;

	memset(st, 0, sizeof *st);
	if (l->disk_fd >= 0) {
		struct statfs sf;

		if (fstatfs(l->disk_fd, &sf) == 0) {
			st->has_disk = 1;
			st->disk_full = sf.f_bfree == 0 || sf.f_ffree == 0;
			st->disk_used = (uint64_t)(sf.f_blocks - sf.f_bfree) *
			    (uint64_t)sf.f_bsize;
			st->disk_files = (uint64_t)(sf.f_files - sf.f_ffree);
		}
	}
	if (!l->cg_made)
		return;
	cgroup_lease_stats(&l->cg, &cs);
	st->has_memory = cs.has_memory;
	st->has_cpu = cs.has_cpu;
	st->has_pids = cs.has_pids;
	st->peak_memory = cs.peak_memory;
	st->oom_kills = cs.oom_kills;
	st->cpu_usec = cs.cpu_usec;
	st->pids_max_hits = cs.pids_max_hits;
}

int
jail_lease_close(struct jail_lease *l, pid_t watch, int *status, int *found,
    char *err, size_t errlen)
{
	int rc = 0;

	if (!l->j)
		return 0;
	jail_lease_kill(l, watch, status, found);
	/* the last reference to the tmpfs: its memory goes back now */
	for (int i = 0; i < 2; i++)
		if (l->disk_sock[i] >= 0)
			close(l->disk_sock[i]);
	if (l->disk_fd >= 0)
		close(l->disk_fd);
	l->disk_sock[0] = l->disk_sock[1] = l->disk_fd = -1;
	if (l->cg_made && cgroup_lease_remove(&l->cg) != 0) {
		rc = -1;
		if (err)
			snprintf(err, errlen, "cgroup lease-%s not removed",
			    l->id);
	}
	l->cg_made = 0;
	if (l->dirs_made) {
		remove_lease_dirs(l->dir, l->uid, l->gid,
		    l->j->cfg.mode != JAIL_NONE);
		if (access(l->dir, F_OK) == 0) {
			rc = -1;
			if (err)
				snprintf(err, errlen, "lease directory %s not "
				    "removed", l->dir);
		}
	}
	l->dirs_made = 0;
	/* uid mode: IPC objects outlive the processes the cgroup killed,
	 * holding memory no cgroup limits any more: UID_PROCS_GONE has them
	 * removed too */
	if (l->hold.fd >= 0 && uidpool_release(&l->j->uids, &l->hold,
	    l->swept, watch, status, found) != 0) {
		rc = -1;
		if (err)
			snprintf(err, errlen, "processes or IPC objects of uid "
			    "%u survived; the uid stays out of use", l->uid);
	}
	return rc;
}
