/* cgroup.c - per-lease control groups, v1 and v2. */
#include "common/jail/cgroup.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "common/base/dirents.h"
#include "common/base/fileio.h"
#include "common/base/random_id.h"
#include "common/jail/cgroup_where.h"

#define CGROUP2_MAGIC 0x63677270
/* "/lease-<tag>-<id>" of a lease's group below the service's */
#define LEASE_SUFFIX_MAX 160
#define CPU_PERIOD_US 100000

static const char *const ctl_names[CG_NCTL] = {
	"memory", "pids", "cpu", "cpuacct"
};
/* the flag that sets each limit, for "set it to 0" in refusals */
static const char *const ctl_flags[CG_NCTL] = {
	"--memory 0", "--pids 0", "no --cpu", ""
};

const char *
cgroup_ctl_name(enum cgroup_ctl c)
{
	return (unsigned)c < CG_NCTL ? ctl_names[c] : "?";
}

/* A wait for the kernel to finish with a lease's processes: they leave
 * its groups, and the groups become removable, within microseconds to a
 * few milliseconds. Sleeps start at 50 us and double up to cap_us, so
 * the common case costs little; 0 once about 1 s has been spent. */
#define SETTLE_BUDGET_US 1000000L

struct settle {
	long us, spent_us;
};

static int
settle_wait(struct settle *s, long cap_us)
{
	struct timespec ts;

	if (s->spent_us >= SETTLE_BUDGET_US)
		return 0;
	s->us = s->us == 0 ? 50 : s->us * 2 > cap_us ? cap_us : s->us * 2;
	ts.tv_sec = 0;
	ts.tv_nsec = s->us * 1000L;
	nanosleep(&ts, NULL);
	s->spent_us += s->us;
	return 1;
}

static int
write_at(const char *dir, const char *file, const char *s)
{
	char path[PATH_MAX + 64];

	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, file) >=
	    sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return file_write_str(path, s);
}

static int
exists_at(const char *dir, const char *file)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	return access(path, F_OK) == 0;
}

/* strtoull's and strtol's syntax (leading white space, a sign, decimal
 * digits) over p[0..len), never past it: the kernel's text is not assumed
 * to be NUL-terminated. *mag is the magnitude, saturated at UINT64_MAX;
 * *neg a '-'. Returns the bytes consumed, 0 when there are no digits. */
static size_t
scan_dec(const char *p, size_t len, uint64_t *mag, int *neg)
{
	size_t i = 0, d0;
	uint64_t v = 0;
	int over = 0;

	while (i < len && (p[i] == ' ' || (p[i] >= '\t' && p[i] <= '\r')))
		i++;
	*neg = i < len && p[i] == '-';
	if (i < len && (p[i] == '-' || p[i] == '+'))
		i++;
	for (d0 = i; i < len && p[i] >= '0' && p[i] <= '9'; i++) {
		unsigned dig = (unsigned)(p[i] - '0');

		if (v > (UINT64_MAX - dig) / 10)
			over = 1;
		else
			v = v * 10 + dig;
	}
	*mag = over ? UINT64_MAX : v;
	return i == d0 ? 0 : i;
}

/* The text ends at its first NUL, as it did when it was a C string. */
static size_t
text_len(const char *buf, size_t len)
{
	const char *z = memchr(buf, '\0', len);

	return z ? (size_t)(z - buf) : len;
}

int
cgroup_parse_key(const char *buf, size_t len, const char *key, uint64_t *v)
{
	size_t klen = strlen(key), off = 0;

	len = text_len(buf, len);
	while (off < len) {
		const char *line = buf + off, *nl = memchr(line, '\n', len - off);
		size_t ll = nl ? (size_t)(nl - line) : len - off;

		if (ll > klen && memcmp(line, key, klen) == 0 &&
		    line[klen] == ' ') {
			uint64_t mag;
			int neg;

			/* strtoull: no digits is 0; overflow UINT64_MAX; a
			 * '-' negates modulo 2^64 */
			if (scan_dec(line + klen + 1, ll - klen - 1, &mag,
			    &neg) == 0)
				mag = 0;
			*v = neg && mag != UINT64_MAX ? 0 - mag : mag;
			return 0;
		}
		off += ll + 1;
	}
	return -1;
}

/* The counters' files, v1 then v2 (enum cgroup_counter's order). */
static const char *const counter_file[2][CG_NCOUNTER] = {
	{ "memory.max_usage_in_bytes", "memory.oom_control", "cpuacct.usage",
	    "pids.events" },
	{ "memory.peak", "memory.events", "cpu.stat", "pids.events" },
};

/* Open each counter's file in the first of the lease's directories that
 * has it (v1: co-mounted controllers, cpu,cpuacct, share one). */
static void
open_counters(struct cgroup_lease *l)
{
	char path[CGROUP_PATH_MAX + 64];

	for (int k = 0; k < CG_NCOUNTER; k++)
		for (int i = 0; i < l->n && l->counter_fd[k] < 0; i++) {
			snprintf(path, sizeof path, "%s/%s", l->dir[i],
			    counter_file[l->kind == CGROUP_V2][k]);
			l->counter_fd[k] = openat(AT_FDCWD, path, O_RDONLY |
			    O_CLOEXEC);
		}
}

/* The counter's text, read again from its start; its length, or -1. */
static ssize_t
counter_text(const struct cgroup_lease *l, enum cgroup_counter k, char *buf,
    size_t cap)
{
	ssize_t n;

	if (l->counter_fd[k] < 0)
		return -1;
	do
		n = pread(l->counter_fd[k], buf, cap - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* A counter file holding one number. */
static int
counter_u64(const struct cgroup_lease *l, enum cgroup_counter k, uint64_t *v)
{
	char buf[64];

	if (counter_text(l, k, buf, sizeof buf) < 0)
		return -1;
	*v = strtoull(buf, NULL, 10);
	return 0;
}

/* "key N" on its own line of a counter file; 0 and *v, or -1. */
static int
counter_key(const struct cgroup_lease *l, enum cgroup_counter k,
    const char *key, uint64_t *v)
{
	char buf[4096];
	ssize_t n = counter_text(l, k, buf, sizeof buf);

	return n < 0 ? -1 : cgroup_parse_key(buf, (size_t)n, key, v);
}

/* Can we make a group in dir? The probe's name is random, not our pid:
 * containers sharing one delegated directory all run as pid 1, and two
 * starting together would each find the other's probe (EEXIST). */
static int
probe_mkdir(const char *dir)
{
	char p[PATH_MAX + 64], id[17];

	if (random_id(id) != 0)
		return -1;
	snprintf(p, sizeof p, "%s/airlock-probe-%s", dir, id);
	if (mkdir(p, 0755) != 0)
		return -1;
	rmdir(p);
	return 0;
}

/* Is dir delegated to us? For root: the root of our cgroup namespace
 * is (a container's own group, or a host's root), and so is a group
 * systemd delegated (Delegate=yes marks it with the xattr
 * trusted.delegate=1); any other group belongs to whoever made it, even
 * though root may write to it. Another user can write only where it was
 * delegated to (probe_v2 tries). */
static int
delegated(const char *dir, const char *own_path)
{
	char v[8];
	ssize_t n;

	if (geteuid() != 0)	/* a user writes only where delegated to */
		return 1;
	if (strcmp(own_path, "/") == 0)
		return 1;
	n = getxattr(dir, "trusted.delegate", v, sizeof v);
	return n == 1 && v[0] == '1';
}

/* Fill p's v2 fields for dir (the --cgroup DIR, or our own group). A
 * cgroup2 mount whose root is outside our cgroup namespace (mountinfo
 * shows "/.."): the kernel may refuse (nsdelegate, systemd's default)
 * to move a process of the namespace into a group there, which would
 * fail every lease, so it is refused at start. */
static void
probe_v2(const char *dir, const struct cg_where *w, int trial,
    struct cgroup_probe *p)
{
	char buf[512], real[PATH_MAX];
	struct statfs sf;

	if ((size_t)snprintf(p->v2_dir, sizeof p->v2_dir, "%s", dir) >=
	    sizeof p->v2_dir) {
		snprintf(p->v2_why, sizeof p->v2_why, "%.200s...: longer than "
		    "%d bytes", dir, CGROUP_PATH_MAX - 1);
		return;
	}
	if (statfs(dir, &sf) != 0) {
		snprintf(p->v2_why, sizeof p->v2_why, "%s: %s", dir,
		    strerror(errno));
		return;
	}
	if ((unsigned long)sf.f_type != CGROUP2_MAGIC) {
		snprintf(p->v2_why, sizeof p->v2_why, "%s is not on a cgroup2 "
		    "file system", dir);
		return;
	}
	if (realpath(dir, real) &&
	    cg_where_outside_ns(w->mountinfo, w->mountinfo_len, real)) {
		snprintf(p->v2_why, sizeof p->v2_why, "%s is outside this "
		    "process's cgroup namespace, where the kernel refuses to "
		    "move leases (nsdelegate); mount it in the host's cgroup "
		    "namespace (Docker: --cgroupns=host, docs/DEPLOY.md)", dir);
		return;
	}
	if (trial ? probe_mkdir(dir) != 0 : access(dir, W_OK) != 0) {
		snprintf(p->v2_why, sizeof p->v2_why, "cannot make groups in "
		    "%s: %s (is it delegated to this user?)", dir,
		    strerror(errno));
		return;
	}
	p->v2_ok = 1;
	snprintf(buf, sizeof buf, "%s/cgroup.controllers", dir);
	if (file_read_small(buf, buf, sizeof buf) >= 0) {
		for (char *t = strtok(buf, " \n"); t; t = strtok(NULL, " \n"))
			for (int c = 0; c < CG_NCTL; c++)
				if (strcmp(t, ctl_names[c]) == 0)
					p->v2_has[c] = 1;
	}
	p->v2_has[CG_CPUACCT] = 1;	/* v2: cpu.stat is always there */
}

void
cgroup_probe(const char *v2_dir, int trial, struct cgroup_probe *p)
{
	char path[PATH_MAX];
	struct cg_where w;

	memset(p, 0, sizeof *p);
	if (cg_where_read(&w) != 0) {
		snprintf(p->v2_why, sizeof p->v2_why, "cannot read "
		    "/proc/self/mountinfo or /proc/self/cgroup: %s",
		    strerror(errno));
		return;
	}
	for (int c = 0; c < CG_NCTL; c++) {
		if (cg_where_own_dir(&w, ctl_names[c], p->v1_dir[c],
		    sizeof p->v1_dir[c]))
			continue;
		p->v1_mounted[c] = 1;
		p->v1_writable[c] = trial ? probe_mkdir(p->v1_dir[c]) == 0 :
		    access(p->v1_dir[c], W_OK) == 0;
	}
	if (cg_where_own_dir(&w, NULL, p->v2_self, sizeof p->v2_self) != 0)
		p->v2_self[0] = '\0';
	if (v2_dir) {
		p->v2_given = 1;
		probe_v2(v2_dir, &w, trial, p);
	} else if (p->v2_self[0] && cg_where_group(w.cgroup, w.cgroup_len,
	    NULL, path, sizeof path) == 0) {
		/* no --cgroup: the group we were started in, on a v2 host */
		p->v2_own = 1;
		if (delegated(p->v2_self, path))
			probe_v2(p->v2_self, &w, trial, p);
		else {
			snprintf(p->v2_dir, sizeof p->v2_dir, "%s", p->v2_self);
			snprintf(p->v2_why, sizeof p->v2_why, "%s is not "
			    "delegated to this process (not its cgroup "
			    "namespace's root, no trusted.delegate=1)",
			    p->v2_self);
		}
	}
	cg_where_free(&w);
}

/* pid's parent, from /proc/PID/stat (the field after the last ')': a
 * comm may hold any byte); -1 when it is gone or unreadable. */
static long
parent_of(long pid)
{
	char path[48], buf[512], *p;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if ((n = file_read_small(path, buf, sizeof buf)) <= 0 ||
	    !(p = strrchr(buf, ')')) || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	return strtol(p + 4, NULL, 10);
}

/* Our children living in dir go into to with us: the metrics endpoint's
 * process is forked before the jail is set up (it never holds the
 * secret), and a group with processes cannot enable controllers for its
 * children. Others' processes stay: the refusal then names them. */
static int
move_children(const char *dir, const char *to)
{
	char path[PATH_MAX + 16], buf[4096], *p, *end;
	long me = (long)getpid();

	if ((size_t)snprintf(path, sizeof path, "%s/cgroup.procs", dir) >=
	    sizeof path || file_read_small(path, buf, sizeof buf) < 0)
		return -1;
	for (p = buf; *p; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0 && pid != me && parent_of(pid) == me) {
			char w[24];

			snprintf(w, sizeof w, "%ld", pid);
			if (write_at(to, "cgroup.procs", w) != 0 &&
			    errno != ESRCH)
				return -1;
		}
	}
	return 0;
}

/* "msg: arg" into err; -1. */
static int
fail(char *err, size_t len, const char *msg, const char *arg)
{
	snprintf(err, len, "%s%s", msg, arg);
	return -1;
}

/* The service's group below parent: airlock-svc-NS-PID, NS the inode of
 * our pid namespace, and its tag NS-PID. A pid means something only in
 * its namespace: services in containers that share one cgroup parent may
 * have the same pid; the name is unique among live services (a live
 * namespace's inode is), and a dead one's of the same name is swept
 * first (remove_stale). The "svc" marks a group whose service holds its
 * lock (own_group): airlock before the lock named its groups
 * airlock-NS-PID and locked nothing, and a sweep must never take a live
 * one of those (a container still running an older image beside us). */
#define SERVICE_PREFIX "airlock-svc-"
#define SERVICE_PREFIX_LEN (sizeof SERVICE_PREFIX - 1)

static int
service_dir(char *out, size_t cap, const char *parent, char *tag,
    size_t tagcap)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st) != 0)
		return -1;
	if ((size_t)snprintf(tag, tagcap, "%llu-%ld", (unsigned long long)
	    st.st_ino, (long)getpid()) >= tagcap)
		return -1;
	/* with room for every lease's group below it (or beside, v2) */
	return (size_t)snprintf(out, cap, "%s/" SERVICE_PREFIX "%s", parent,
	    tag) >= cap - LEASE_SUFFIX_MAX ? -1 : 0;
}

/* Is name a service group's, "airlock-svc-NS-PID" (digits each)? Its
 * tag, "NS-PID", is then name + SERVICE_PREFIX_LEN. */
static int
service_name(const char *name)
{
	const char *p = name + SERVICE_PREFIX_LEN;
	int dashes = 0;

	if (strncmp(name, SERVICE_PREFIX, SERVICE_PREFIX_LEN) != 0 ||
	    !isdigit((unsigned char)*p))
		return 0;
	for (; *p; p++) {
		if (*p == '-' && isdigit((unsigned char)p[1]) && !dashes)
			dashes++;
		else if (!isdigit((unsigned char)*p))
			return 0;
	}
	return dashes == 1;
}

/* rmdir a group, waiting (from the budget w) while the kernel still
 * finishes with it: a group whose last process has just exited, or whose
 * child group was just removed, is refused (EBUSY) for a moment, as the
 * kernel takes its processes off and its child offline asynchronously
 * (the suspected cause of an empty v1 service group once seen left after
 * a normal run, not reproduced since). A group still holding a process
 * stays. */
static int
rmdir_settled(const char *dir, struct settle *w)
{
	while (rmdir(dir) != 0) {
		if (errno != EBUSY || !settle_wait(w, 5000))
			return -1;
	}
	return 0;
}

/* Remove the groups in dir whose names start with prefix (rmdir: only
 * a group with no process and no child goes). */
static void
remove_prefixed(const char *dir, const char *prefix, struct settle *w)
{
	struct dirents d;
	struct dirent *e;
	size_t n = strlen(prefix);
	char sub[PATH_MAX + 320];

	if (dirents_open(&d, AT_FDCWD, dir) != 0)
		return;
	while ((e = dirents_next(&d)))
		if (strncmp(e->d_name, prefix, n) == 0 &&
		    (size_t)snprintf(sub, sizeof sub, "%s/%s", dir,
		    e->d_name) < sizeof sub)
			rmdir_settled(sub, w);
	dirents_close(&d);
}

/* Make the service's group dir (or take over a dead service's of the
 * same name that the sweep could not remove) and hold an exclusive flock
 * on it: the proof, for every later service's sweep, that the group and
 * its leases are in use. A sweep holds a dead group's lock only while it
 * removes it; if it removed ours between our mkdir and our lock, the
 * path no longer names what we locked, and we make it again. The lease
 * groups (lease_prefix* in lease_parent) a dead service of the same name
 * left are removed. 0 and *fd, or -1 with errno (EBUSY: a live service
 * holds it).
 * Who holds the lock: a flock belongs to the open file description, so
 * every child forked after this shares it until it closes the fd or
 * exits. That is kept on purpose for a lease's handler (it removes its
 * lease group, and dies with the supervisor by its parent-death signal):
 * while it lives the group is in use, and a sweep must wait for it. A
 * per-process lock (fcntl) would instead let a sweep remove the groups
 * of a killed runner whose handlers still run their leases. Every other
 * child closes it: the fd is close-on-exec, and what forks without exec
 * closes it before serving (pre-auth: close_except; spawn and the
 * egress helper: close_range before any jail, so no lease's pid 1,
 * proxy or tool has it); the metrics endpoint is forked before it. */
static int
own_group(const char *dir, const char *lease_parent, const char *lease_prefix,
    int *fd)
{
	for (int tries = 0; tries < 8; tries++) {
		struct settle w = { 0, 0 };
		struct stat a, b;
		int f;

		if (mkdir(dir, 0755) != 0 && errno != EEXIST)
			return -1;
		if ((f = openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) < 0) {
			if (errno == ENOENT)
				continue;	/* swept just now */
			return -1;
		}
		while (flock(f, LOCK_EX | LOCK_NB) != 0) {
			if ((errno != EWOULDBLOCK && errno != EINTR) ||
			    !settle_wait(&w, 20000)) {
				int e = errno == EWOULDBLOCK ? EBUSY : errno;

				close(f);
				errno = e;
				return -1;
			}
		}
		if (fstat(f, &a) == 0 && stat(dir, &b) == 0 &&
		    a.st_ino == b.st_ino && a.st_dev == b.st_dev) {
			/* a lease group of our name now is a dead namesake's
			 * (a pid namespace's inode is reused): we have made
			 * none yet */
			remove_prefixed(lease_parent, lease_prefix, &w);
			*fd = f;
			return 0;
		}
		close(f);
	}
	errno = EAGAIN;
	return -1;
}

/* Is word one of the space-separated words of the file dir/file? */
static int
file_has_word(const char *dir, const char *file, const char *word)
{
	char path[PATH_MAX + 64], buf[512];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if (file_read_small(path, buf, sizeof buf) < 0)
		return 0;
	for (char *w = strtok(buf, " \n"); w; w = strtok(NULL, " \n"))
		if (strcmp(w, word) == 0)
			return 1;
	return 0;
}

static void remove_stale(const char *parent, int v2);

/* The refusal for a v2 group that cannot hold the limits: --cgroup DIR,
 * or the group we were started in (p->v2_own), which names the ways to
 * delegate one. */
static int
v2_refusal(const struct cgroup_probe *p, const char *what, const char *why,
    const char *flags, char *err, size_t errlen)
{
	if (p->v2_given)
		snprintf(err, errlen, "--cgroup%s%s: %s", why == p->v2_why ?
		    "" : " ", why == p->v2_why ? "" : p->v2_dir, why);
	else
		snprintf(err, errlen, "the limits need the %s controller(s), "
		    "and cgroup v1 has none writable here; cgroup v2: %s; "
		    "start airlock in a delegated cgroup (systemd: "
		    "Delegate=yes; a container: a cgroup namespace of its "
		    "own with /sys/fs/cgroup writable, docs/DEPLOY.md), give "
		    "--cgroup DIR (a delegated cgroup v2 directory), or lift "
		    "the limit (%s)", what, why, flags);
	return -1;
}

static int
setup_v2(struct cgroup_service *s, const struct cgroup_probe *p,
    char *err, size_t errlen)
{
	const int need[CG_NCTL] = { s->lim.memory > 0, s->lim.pids > 0,
		s->lim.cpu_millicpus > 0, 0 };
	const char *dir = p->v2_dir;
	char real[PATH_MAX], why[PATH_MAX + 256];
	char ctl[64] = "", wanted[64] = "", missing[64] = "", flags[64] = "";
	char prefix[sizeof s->tag + 8];

	for (int c = 0; c < CG_NCTL; c++) {
		if (!need[c])
			continue;
		strcat(wanted, wanted[0] ? ", " : "");
		strcat(wanted, ctl_names[c]);
		strcat(flags, flags[0] ? ", " : "");
		strcat(flags, ctl_flags[c]);
		if (!p->v2_has[c]) {
			strcat(missing, missing[0] ? ", " : "");
			strcat(missing, ctl_names[c]);
		} else if (!file_has_word(dir, "cgroup.subtree_control",
		    ctl_names[c])) {
			strcat(ctl, ctl[0] ? " +" : "+");
			strcat(ctl, ctl_names[c]);
		}
	}
	if (!p->v2_ok)
		return v2_refusal(p, wanted, p->v2_why, flags, err, errlen);
	if (missing[0]) {
		snprintf(why, sizeof why, "the limits need the %s "
		    "controller(s), which are not enabled for %s (its "
		    "parent's cgroup.subtree_control); delegate them, or set "
		    "the limit to 0", missing, dir);
		return v2_refusal(p, wanted, why, flags, err, errlen);
	}
	if (!realpath(dir, real))
		return fail(err, errlen, "cgroup v2: cannot resolve ", dir);
	s->kind = CGROUP_V2;
	if ((size_t)snprintf(s->dir[0], sizeof s->dir[0], "%s", real) >=
	    sizeof s->dir[0])
		return fail(err, errlen, "cgroup v2: path too long: ", real);
	if (service_dir(s->self_dir, sizeof s->self_dir, real, s->tag,
	    sizeof s->tag))
		return fail(err, errlen, "cannot name our group (path "
		    "too long, or no /proc/self/ns/pid) below ", real);
	remove_stale(real, 1);
	snprintf(prefix, sizeof prefix, "lease-%s-", s->tag);
	if (own_group(s->self_dir, real, prefix, &s->lock_fd[0]) != 0) {
		snprintf(err, errlen, "cannot make and lock %s: %s",
		    s->self_dir, strerror(errno));
		return -1;
	}
	s->made_self = s->locked[0] = 1;
	/* a group with processes cannot enable controllers for children: if
	 * we live in DIR ourselves, step into our group first */
	if (ctl[0] && strcmp(p->v2_self, real) == 0) {
		char pid[24];

		snprintf(pid, sizeof pid, "%ld", (long)getpid());
		if (write_at(s->self_dir, "cgroup.procs", pid) != 0)
			return fail(err, errlen, "cannot move the runner into ",
			    s->self_dir);
		s->moved_self = 1;
		if (move_children(real, s->self_dir) != 0)
			return fail(err, errlen, "cannot move our children "
			    "(the metrics endpoint) into ", s->self_dir);
	}
	if (ctl[0] && write_at(real, "cgroup.subtree_control", ctl) != 0) {
		snprintf(why, sizeof why, "cannot enable %s in %s/"
		    "cgroup.subtree_control: %s (another process lives in "
		    "it?)", ctl, real, strerror(errno));
		return v2_refusal(p, wanted, why, flags, err, errlen);
	}
	snprintf(s->enabled, sizeof s->enabled, "%s", ctl);
	return 0;
}

/* The groups of services that are gone: every airlock-svc-NS-PID group in
 * parent whose flock no process holds (own_group: a live service holds
 * it, from any pid namespace or container), with its lease groups (v1:
 * lease-* below it; v2: lease-NS-PID-* beside it), removed while we
 * hold its lock. A live service's group is never taken: its lock is
 * held from before its first lease group to after its last. Names of
 * any other shape are never touched. */
static void
remove_stale(const char *parent, int v2)
{
	struct dirents d;
	struct dirent *e;
	struct settle w = { 0, 0 };	/* one budget for the whole sweep */

	if (dirents_open(&d, AT_FDCWD, parent) != 0)
		return;
	while ((e = dirents_next(&d))) {
		char svc[PATH_MAX], prefix[64];
		int fd;

		if (!service_name(e->d_name) || (size_t)snprintf(svc,
		    sizeof svc, "%s/%s", parent, e->d_name) >= sizeof svc ||
		    (size_t)snprintf(prefix, sizeof prefix, "lease-%s-",
		    e->d_name + SERVICE_PREFIX_LEN) >= sizeof prefix)
			continue;
		if ((fd = openat(AT_FDCWD, svc, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			if (v2)
				remove_prefixed(parent, prefix, &w);
			else
				remove_prefixed(svc, "lease-", &w);
			rmdir_settled(svc, &w);
		}
		close(fd);
	}
	dirents_close(&d);
}

/* Is hierarchy c mounted with an earlier one (cpu,cpuacct)? */
static int
comounted(const struct cgroup_probe *p, int c)
{
	for (int b = 0; b < c; b++)
		if (p->v1_writable[b] && strcmp(p->v1_dir[b], p->v1_dir[c]) == 0)
			return 1;
	return 0;
}

static int
setup_v1(struct cgroup_service *s, const struct cgroup_probe *p, int lean,
    char *err, size_t errlen)
{
	const int need[CG_NCTL] = { s->lim.memory > 0, s->lim.pids > 0,
		s->lim.cpu_millicpus > 0, 0 };
	char missing[64] = "", flags[64] = "";
	int any = 0;

	for (int c = 0; c < CG_NCTL; c++) {
		if (need[c] && !p->v1_writable[c]) {
			strcat(missing, missing[0] ? ", " : "");
			strcat(missing, ctl_names[c]);
			strcat(flags, flags[0] ? ", " : "");
			strcat(flags, ctl_flags[c]);
		}
		any |= p->v1_writable[c];
	}
	if (missing[0]) {
		snprintf(err, errlen, "the limits need a writable cgroup with "
		    "the %s controller(s): none here (v1 hierarchy not mounted "
		    "or read-only); give --cgroup DIR (a delegated cgroup v2 "
		    "directory), or lift the limit (%s)", missing, flags);
		return -1;
	}
	/* every hierarchy we may write, also those this service leaves
	 * alone: a service with other limits left its groups there */
	for (int c = 0; c < CG_NCTL; c++)
		if (p->v1_writable[c] && !comounted(p, c))
			remove_stale(p->v1_dir[c], 0);
	if (!any || (lean && !need[CG_MEMORY] && !need[CG_PIDS] &&
	    !need[CG_CPU]))
		return 0;	/* no limits asked, nothing to measure with */
	s->kind = CGROUP_V1;
	for (int c = 0; c < CG_NCTL; c++) {
		if (!p->v1_writable[c] || comounted(p, c))
			continue;
		if (lean && !need[c] && !(c == CG_CPUACCT && need[CG_CPU]))
			continue;
		/* cpu without a limit counts nothing unless cpuacct lives in
		 * its directory (cpu,cpuacct); a fresh group there made a
		 * lease's fork-to-exit 0.7 ms slower here */
		if (c == CG_CPU && !need[c] && !comounted(p, CG_CPUACCT))
			continue;
		if (service_dir(s->dir[c], sizeof s->dir[c], p->v1_dir[c],
		    s->tag, sizeof s->tag))
			return fail(err, errlen, "cannot name our group (path "
			    "too long, or no /proc/self/ns/pid) below ",
			    p->v1_dir[c]);
		if (own_group(s->dir[c], s->dir[c], "lease-",
		    &s->lock_fd[c]) != 0) {
			/* writable by its mode, not by the kernel's word (a
			 * probe without a trial): a hierarchy only measured
			 * is done without, as the trial would have */
			if (!need[c] && !(c == CG_CPUACCT && need[CG_CPU]) &&
			    errno != EBUSY)
				continue;
			snprintf(err, errlen, "cannot make and lock %s: %s",
			    s->dir[c], strerror(errno));
			return -1;
		}
		s->use[c] = s->locked[c] = 1;
	}
	s->memsw = s->use[CG_MEMORY] &&
	    exists_at(s->dir[CG_MEMORY], "memory.memsw.limit_in_bytes");
	s->tcpmem = s->use[CG_MEMORY] &&
	    exists_at(s->dir[CG_MEMORY], "memory.kmem.tcp.limit_in_bytes");
	return 0;
}

/* Does v1 have a writable hierarchy for every controller lim needs? */
static int
v1_covers(const struct cgroup_probe *p, const struct cgroup_limits *lim)
{
	return (!lim->memory || p->v1_writable[CG_MEMORY]) &&
	    (!lim->pids || p->v1_writable[CG_PIDS]) &&
	    (!lim->cpu_millicpus || p->v1_writable[CG_CPU]);
}

int
cgroup_setup(struct cgroup_service *s, const char *v2_dir,
    const struct cgroup_probe *p, const struct cgroup_limits *lim, int lean,
    char *err, size_t errlen)
{
	int rc;

	memset(s, 0, sizeof *s);
	s->lim = *lim;
	if (v2_dir || (p->v2_own && !v1_covers(p, lim)))
		rc = setup_v2(s, p, err, errlen);
	else
		rc = setup_v1(s, p, lean, err, errlen);
	if (rc != 0)
		cgroup_teardown(s);
	return rc;
}

/* Is leaf (a path below dir) the only group in dir? */
static int
sole_child(const char *dir, const char *leaf)
{
	const char *name = strrchr(leaf, '/') + 1;
	struct dirents d;
	struct dirent *e;
	int sole = 1;

	if (dirents_open(&d, AT_FDCWD, dir) != 0)
		return 0;
	while ((e = dirents_next(&d)))
		if (e->d_type == DT_DIR && strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0 && strcmp(e->d_name, name) != 0)
			sole = 0;
	dirents_close(&d);
	return sole;
}

void
cgroup_teardown(struct cgroup_service *s)
{
	struct settle w = { 0, 0 };

	if (s->kind == CGROUP_V1)
		for (int c = 0; c < CG_NCTL; c++)
			if (s->use[c])
				rmdir_settled(s->dir[c], &w);
	/* v2: what we changed in DIR, undone in reverse, while our group is
	 * DIR's only one (turning a controller off would take its files
	 * from another's group); each step only when the one before it held
	 * (only with the controllers off may a process live in DIR again) */
	if (s->moved_self && sole_child(s->dir[0], s->self_dir)) {
		char off[sizeof s->enabled], pid[24];

		/* "+memory +pids" -> "-memory -pids" */
		memcpy(off, s->enabled, sizeof off);
		for (char *c = off; (c = strchr(c, '+')); )
			*c = '-';
		snprintf(pid, sizeof pid, "%ld", (long)getpid());
		if ((!off[0] || write_at(s->dir[0], "cgroup.subtree_control",
		    off) == 0) && write_at(s->dir[0], "cgroup.procs", pid) == 0)
			/* a child of ours that is still exiting (the pre-auth
			 * process) keeps the leaf busy for a moment */
			rmdir_settled(s->self_dir, &w);
	} else if (s->made_self && !s->moved_self) {
		rmdir_settled(s->self_dir, &w);
	}
	s->made_self = s->moved_self = 0;
	for (int c = 0; c < CG_NCTL; c++)
		if (s->locked[c]) {
			close(s->lock_fd[c]);
			s->locked[c] = 0;
		}
	s->kind = CGROUP_NONE;
}

/* base/lease-<name>, or with a tag (v2) base/lease-<tag>-<name>. */
static int
lease_dir(struct cgroup_lease *l, int c, const char *base, const char *tag,
    const char *name, char *err, size_t errlen)
{
	int i = l->n;

	if ((size_t)snprintf(l->dir[i], sizeof l->dir[i], "%s/lease-%s%s%s",
	    base, tag, tag[0] ? "-" : "", name) >= sizeof l->dir[i])
		return fail(err, errlen, "cgroup path too long: ", base);
	if ((size_t)snprintf(l->procs[i], sizeof l->procs[i], "%s/lease-%s%s"
	    "%s/cgroup.procs", base, tag, tag[0] ? "-" : "", name) >=
	    sizeof l->procs[i])
		return fail(err, errlen, "cgroup path too long: ", base);
	if (mkdir(l->dir[i], 0755) != 0) {
		snprintf(err, errlen, "cannot make cgroup %s: %s", l->dir[i],
		    strerror(errno));
		return -1;
	}
	l->ctl[i] = c;
	l->n++;
	return 0;
}

static int
set_limit(struct cgroup_lease *l, int i, const char *file, uint64_t v,
    char *err, size_t errlen)
{
	char num[32];

	snprintf(num, sizeof num, "%llu", (unsigned long long)v);
	if (write_at(l->dir[i], file, num) == 0)
		return 0;
	snprintf(err, errlen, "cannot set %s/%s to %s: %s", l->dir[i], file,
	    num, strerror(errno));
	return -1;
}

int
cgroup_limits_usable(const struct cgroup_service *s,
    const struct cgroup_limits *m, char *err, size_t errlen)
{
	if (s->kind == CGROUP_NONE && (m->memory || m->pids ||
	    m->cpu_millicpus)) {
		snprintf(err, errlen, "a memory, pids or CPU limit needs a "
		    "cgroup, and this service has none");
		return -1;
	}
	if (s->kind == CGROUP_V1 && ((m->memory && !s->use[CG_MEMORY]) ||
	    (m->pids && !s->use[CG_PIDS]) ||
	    (m->cpu_millicpus && !s->use[CG_CPU]))) {
		snprintf(err, errlen, "a limit needs a v1 controller this "
		    "service does not use (memory %s, pids %s, cpu %s)",
		    s->use[CG_MEMORY] ? "yes" : "no",
		    s->use[CG_PIDS] ? "yes" : "no",
		    s->use[CG_CPU] ? "yes" : "no");
		return -1;
	}
	return 0;
}

int
cgroup_lease_create(const struct cgroup_service *s, const char *name,
    const struct cgroup_limits *lim, struct cgroup_lease *l, char *err,
    size_t errlen)
{
	const struct cgroup_limits *m = lim ? lim : &s->lim;
	char v[64];

	memset(l, 0, sizeof *l);
	l->kind = s->kind;
	l->v2_fd = -1;
	for (int k = 0; k < CG_NCOUNTER; k++)
		l->counter_fd[k] = -1;
	if (cgroup_limits_usable(s, m, err, errlen) != 0)
		return -1;
	if (s->kind == CGROUP_NONE)
		return 0;
	if (s->kind == CGROUP_V2) {
		if (lease_dir(l, -1, s->dir[0], s->tag, name, err, errlen) != 0)
			return -1;
		if (m->memory) {
			if (set_limit(l, 0, "memory.max", m->memory, err,
			    errlen) != 0)
				goto fail;
			if (exists_at(l->dir[0], "memory.swap.max") &&
			    set_limit(l, 0, "memory.swap.max", 0, err,
			    errlen) != 0)
				goto fail;
		}
		if (m->pids && set_limit(l, 0, "pids.max", m->pids, err,
		    errlen) != 0)
			goto fail;
		if (m->cpu_millicpus) {
			snprintf(v, sizeof v, "%llu %d", (unsigned long long)
			    (m->cpu_millicpus * CPU_PERIOD_US / 1000),
			    CPU_PERIOD_US);
			if (write_at(l->dir[0], "cpu.max", v) != 0) {
				snprintf(err, errlen, "cannot set cpu.max: %s",
				    strerror(errno));
				goto fail;
			}
		}
		/* without it the child is moved in, as on v1 */
		l->v2_fd = openat(AT_FDCWD, l->dir[0], O_PATH | O_DIRECTORY |
		    O_CLOEXEC);
		open_counters(l);
		return 0;
	}
	for (int c = 0; c < CG_NCTL; c++) {
		int i = l->n;

		if (!s->use[c])
			continue;
		if (lease_dir(l, c, s->dir[c], "", name, err, errlen) != 0)
			goto fail;
		if (c == CG_MEMORY && m->memory) {
			if (set_limit(l, i, "memory.limit_in_bytes", m->memory,
			    err, errlen) != 0)
				goto fail;
			if (s->memsw && set_limit(l, i,
			    "memory.memsw.limit_in_bytes", m->memory, err,
			    errlen) != 0)
				goto fail;
			/* v1 charges no socket buffer to the memory counter
			 * (v2 charges TCP and UDP to memory.current): this
			 * limit turns on v1's own TCP and UDP counter, so
			 * unread datagrams and segments stop at a quarter of
			 * --memory, beside it (docs/JAIL.md, "Kernel
			 * memory") */
			if (s->tcpmem && set_limit(l, i,
			    "memory.kmem.tcp.limit_in_bytes", m->memory /
			    CGROUP_V1_SOCKET_SHARE, err, errlen) != 0)
				goto fail;
		}
		if (c == CG_PIDS && m->pids && set_limit(l, i, "pids.max",
		    m->pids, err, errlen) != 0)
			goto fail;
		if (c == CG_CPU && m->cpu_millicpus) {
			if (set_limit(l, i, "cpu.cfs_period_us", CPU_PERIOD_US,
			    err, errlen) != 0 || set_limit(l, i,
			    "cpu.cfs_quota_us", m->cpu_millicpus *
			    CPU_PERIOD_US / 1000, err, errlen) != 0)
				goto fail;
		}
	}
	open_counters(l);
	return 0;
fail:
	cgroup_lease_remove(l);
	return -1;
}

size_t
cgroup_parse_pids(const char *buf, size_t len, pid_t *out, size_t cap)
{
	size_t n = 0, off = 0, used;

	len = text_len(buf, len);
	while (off < len && n < cap) {
		uint64_t mag;
		int neg;

		if ((used = scan_dec(buf + off, len - off, &mag, &neg)) == 0)
			break;
		off += used;
		/* a pid is 1..INT_MAX: anything else (0, negative, or too
		 * large for pid_t, which a cast would turn into -1, i.e.
		 * kill(-1)) is skipped */
		if (!neg && mag > 0 && mag <= INT_MAX)
			out[n++] = (pid_t)mag;
	}
	return n;
}

/* The pids listed in procs, at most cap of them, into out; the count. */
static size_t
read_pids(const char *procs, pid_t *out, size_t cap)
{
	char buf[16384];
	ssize_t n;

	if ((n = file_read_small(procs, buf, sizeof buf)) < 0)
		return 0;
	return cgroup_parse_pids(buf, (size_t)n, out, cap);
}

int
cgroup_lease_attach(const struct cgroup_lease *l)
{
	if (l->kind == CGROUP_V2 && l->n > 0) {
		pid_t pids[64], me = getpid();
		size_t n = read_pids(l->procs[0], pids, 64);

		for (size_t i = 0; i < n; i++)
			if (pids[i] == me)
				return 0;	/* started inside */
	}
	for (int i = 0; i < l->n; i++)
		if (file_write_str(l->procs[i], "0") != 0)
			return -1;
	return 0;
}

/* SIGKILL every pid listed in procs; returns how many were listed. */
static int
kill_listed(const char *procs)
{
	pid_t pids[4096];
	size_t n = read_pids(procs, pids, sizeof pids / sizeof *pids);

	for (size_t i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	return (int)n;
}

int
cgroup_lease_kill(const struct cgroup_lease *l)
{
	struct settle s = { 0, 0 };
	int left;

	if (l->kind == CGROUP_V2 && l->n > 0 &&
	    write_at(l->dir[0], "cgroup.kill", "1") == 0) {
		while ((left = kill_listed(l->procs[0])) != 0 &&
		    settle_wait(&s, 2000))
			;
		return left;
	}
	do {
		left = 0;
		for (int i = 0; i < l->n; i++)
			left += kill_listed(l->procs[i]);
	} while (left != 0 && settle_wait(&s, 2000));
	return left;
}

int
cgroup_lease_peak_reset(const struct cgroup_lease *l)
{
	char path[PATH_MAX];

	for (int i = 0; l->kind == CGROUP_V1 && i < l->n; i++) {
		int n = snprintf(path, sizeof path, "%s/memory.max_usage_in_"
		    "bytes", l->dir[i]);

		if (n > 0 && (size_t)n < sizeof path && access(path, F_OK) == 0)
			return file_write_str(path, "0");
	}
	errno = ENOTSUP;
	return -1;
}

void
cgroup_lease_stats(const struct cgroup_lease *l, struct cgroup_stats *st)
{
	int v2 = l->kind == CGROUP_V2;
	uint64_t v;

	memset(st, 0, sizeof *st);
	if (counter_u64(l, CG_PEAK, &st->peak_memory) == 0) {
		st->has_memory = 1;
		if (counter_key(l, CG_OOM, "oom_kill", &v) == 0)
			st->oom_kills = v;
	}
	if (v2 ? counter_key(l, CG_CPU_TIME, "usage_usec", &v) == 0 :
	    counter_u64(l, CG_CPU_TIME, &v) == 0) {
		st->cpu_usec = v2 ? v : v / 1000;	/* v1 counts ns */
		st->has_cpu = 1;
	}
	if (counter_key(l, CG_FORKS_REFUSED, "max", &v) == 0) {
		st->pids_max_hits = v;
		st->has_pids = 1;
	}
}

int
cgroup_lease_remove(struct cgroup_lease *l)
{
	int rc = 0;

	for (int k = 0; k < CG_NCOUNTER; k++) {
		if (l->counter_fd[k] >= 0)
			close(l->counter_fd[k]);
		l->counter_fd[k] = -1;
	}
	for (int i = l->n - 1; i >= 0; i--) {
		struct settle s = { 0, 0 };

		while (rmdir(l->dir[i]) != 0 && errno == EBUSY &&
		    settle_wait(&s, 5000))
			;
		if (access(l->dir[i], F_OK) == 0)
			rc = -1;
	}
	l->n = 0;
	if (l->v2_fd >= 0)
		close(l->v2_fd);
	l->v2_fd = -1;
	return rc;
}
