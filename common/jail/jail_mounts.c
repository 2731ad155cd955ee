/* jail_mounts.c - what a lease sees of the file system (jail_mounts.h). */
#include "common/jail/jail_mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/jail/jail_dirs.h"
#include "common/jail/spawn.h"

#define DEFAULT_TMPFS (64ull << 20)

/* Devices a child may read and write (Landlock; bound into the ns /dev). */
static const char *const dev_files[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
};

/* mkdir -p of an absolute path (each component mode 0755). The parent
 * usually exists (the view's paths share their directories): one mkdir
 * then, not one per component; else back up to what exists and make the
 * rest forward. */
static int
mkdir_p(const char *path)
{
	char buf[PATH_MAX], *slash;
	size_t n = strlen(path), len;

	if (n >= sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, n + 1);
	while (mkdir(buf, 0755) != 0 && errno != EEXIST) {
		if (errno != ENOENT || !(slash = strrchr(buf, '/')) ||
		    slash == buf)
			return -1;
		*slash = '\0';
	}
	while ((len = strlen(buf)) < n) {
		buf[len] = '/';		/* a cut made above, undone */
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

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

/* The mount flags of path that a user namespace may not clear. */
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

/* The bind of src at to made read-only (and extra: a view entry's
 * nodev), keeping the flags a user namespace may not clear: a remount,
 * as the runner's seccomp program (uid mode's /proc masks) allows mount
 * but not mount_setattr. */
static int
remount_ro(const char *src, const char *to, unsigned long extra)
{
	return mount(NULL, to, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY |
	    MS_NOSUID | extra | locked_flags(src), NULL);
}

/* Bind src at to, read-only (remount_ro). */
static int
bind_mount_ro(const char *src, const char *to)
{
	if (mount(src, to, NULL, MS_BIND | MS_REC, NULL) != 0)
		return -1;
	return remount_ro(src, to, 0);
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

int
jail_mount_proc(const char *at)
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
		    bind_mount_ro("/dev/null", p) != 0)
			return -1;
	}
	for (size_t i = 0; i < sizeof proc_readonly / sizeof *proc_readonly;
	    i++) {
		if ((rc = proc_entry(p, at, proc_readonly[i], &st)) < 0 ||
		    (rc > 0 && bind_mount_ro(p, p) != 0))
			return -1;
	}
	return 0;
}

/* uid mode: mount, IPC and pid namespaces of the lease's own, so
 * /proc/sysvipc lists nothing of anyone else (seccomp refuses SysV IPC
 * and mqueues besides) and no other pid can be named. CAP_SYS_ADMIN. */
int
jail_private_unshare(void)
{
	return unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID);
}

int
jail_private_proc(void)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return -1;
	return jail_mount_proc("/proc");
}

_Static_assert(JAIL_VIEW_PATHS_MAX + 8 <= LANDLOCK_PATHS_MAX,
    "Landlock's read-only list holds the view and a few more");

void
jail_mounts_landlock(struct jail_lease *l)
{
	const struct jail *j = l->j;
	struct landlock_spec *s = &l->ll;

	memset(s, 0, sizeof *s);
	s->abi = j->landlock_abi;
	s->features = j->landlock_features;
	/* ns mode's root holds the view's entries and nothing else of the
	 * host (with its own /proc, /dev and generated /etc): one rule on
	 * it reads as the view's list would, where a rule per entry cost a
	 * lease's start some 80 opens */
	if (j->cfg.mode == JAIL_NS) {
		s->ro[s->nro++] = "/";
	} else {
		for (size_t i = 0; i < j->view.nro; i++)
			s->ro[s->nro++] = j->view.ro[i];
		s->ro[s->nro++] = "/proc";
	}
	for (size_t i = 0; i < sizeof dev_files / sizeof *dev_files; i++)
		s->rw[s->nrw++] = dev_files[i];
	s->rw[s->nrw++] = l->home;
	s->rw[s->nrw++] = l->tmpdir;
	if (l->workdir[0])
		s->rw[s->nrw++] = l->workdir;
	if (l->host_cache[0])
		s->rw[s->nrw++] = j->cfg.mode == JAIL_NS ? JAIL_NS_CACHE :
		    l->host_cache;
	if (j->cfg.mode == JAIL_NS)
		s->rw[s->nrw++] = "/dev/shm";
	for (size_t i = 0; i < j->cfg.negress && i < LANDLOCK_PORTS_MAX; i++)
		s->ports[s->nports++] = j->cfg.egress_ports[i];
}

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
send_disk(int fd)
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
	int rc;

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
int
jail_mounts_uid_disk(struct jail_lease *l)
{
	char opts[160], owner[64];
	int rc, fd;

	snprintf(owner, sizeof owner, "mode=0730,uid=%u,gid=%u",
	    (unsigned)geteuid(), (unsigned)l->gid);
	disk_opts(l, owner, opts, sizeof opts);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("tmpfs", l->dir, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0 ||
	    jail_fs_as(l->uid, l->gid) != 0)
		return -1;
	rc = mkdir(l->host_home, 0700) || mkdir(l->host_tmp, 0700) ||
	    (l->workdir[0] && mkdir(l->host_work, 0700));
	jail_fs_back();
	if (rc || chmod(l->dir, 0710) != 0 || (fd = openat(AT_FDCWD, l->dir,
	    O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	return send_disk(fd);
}

/* mkdir -p of the directory holding path (a file or link to be made);
 * made (NULL: none) is the last one made by this function, not made
 * again: the view's paths come in runs of one directory. */
static int
parent_made(char *path, char *made)
{
	char *slash = strrchr(path, '/');
	int rc = 0;

	if (!slash || slash == path)
		return 0;
	*slash = '\0';
	if (!made || strcmp(made, path) != 0) {
		rc = mkdir_p(path);
		if (rc == 0 && made)
			memcpy(made, path, strlen(path) + 1);
	}
	*slash = '/';
	return rc;
}

/* The mount point of a bind at to: a directory (mkdir -p) or a file (one
 * mknod). made: see parent_made. */
static int
mount_point(char *to, int dir, char *made)
{
	if (dir)
		return mkdir_p(to);
	return parent_made(to, made) != 0 || (mknod(to, S_IFREG | 0644, 0) !=
	    0 && errno != EEXIST) ? -1 : 0;
}

/* A symlink on the host (/bin -> usr/bin) becomes the same symlink. */
static int
link_into(const char *root, const char *path, char *made)
{
	char to[PATH_MAX], target[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof target - 1);

	if (n < 0 || jail_join(to, sizeof to, root, path) != 0)
		return -1;
	target[n] = '\0';
	if (parent_made(to, made) != 0)
		return -1;
	return symlink(target, to) == 0 || errno == EEXIST ? 0 : -1;
}

/* Is path below one of the lease's writable mounts (/tmp, HOME, and
 * /work and /cache when it has them)? A view entry there (a tool's
 * directory under /work or /tmp) is bound after that mount, on its own. */
static int
below_writable(const struct jail_lease *l, const char *path)
{
	const char *const mounts[] = { "/tmp", JAIL_NS_HOME,
		l->workdir[0] || l->work_on_volume ? JAIL_NS_WORK : NULL,
		l->host_cache[0] ? JAIL_NS_CACHE : NULL };

	for (size_t i = 0; i < sizeof mounts / sizeof *mounts; i++) {
		size_t n = mounts[i] ? strlen(mounts[i]) : 0;

		if (n && strncmp(path, mounts[i], n) == 0 &&
		    (path[n] == '/' || path[n] == '\0'))
			return 1;
	}
	return 0;
}

/* Read-only, nosuid and nodev at `to` and every mount below it (a device
 * node inside a view entry opens nothing; /dev's own files are bound
 * after): mount_setattr sets only the flags named and keeps those a user
 * namespace may not clear by itself. ns mode never runs under the runner's seccomp
 * program, which refuses it. A kernel before 5.12 (ENOSYS), or a
 * seccomp profile that does not know the call (EPERM): -1 with that
 * errno, for the caller's remount_ro. */
static int
seal(const char *to)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY |
		MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV };

	return (int)syscall(SYS_mount_setattr, AT_FDCWD, to, AT_RECURSIVE, &ro,
	    sizeof ro);
}

/* The view's entry i bound at its own path below root; an entry the
 * lease's uid cannot reach (EACCES) or gone since (ENOENT) is no use to
 * it: its mount point goes again (directories made above it stay,
 * empty). A file that became a directory fails its bind. 1 bound, 0
 * skipped, -1 failed. */
static int
bind_entry(const char *root, const struct jail_view *v, size_t i)
{
	char to[PATH_MAX];

	if (jail_join(to, sizeof to, root, v->ro[i]) != 0)
		return -1;
	if (mount(v->ro[i], to, NULL, MS_BIND | MS_REC, NULL) == 0)
		return 1;
	if (errno != EACCES && errno != ENOENT)
		return -1;
	return (v->ro_dir[i] ? rmdir(to) : unlink(to)) == 0 ? 0 : -1;
}

/* The view's entries (but those below a writable mount) bound read-only
 * at their own paths below root. Every mount point is made first (a
 * directory with mkdir -p, a file with one mknod; as the list was built:
 * no stat here), so nothing is made once a host directory is bound in
 * (the list holds no entry inside another). Then the binds; last, the
 * root and everything mounted in it so far are sealed together by one
 * call (the root's own remount follows the pivot when that call is
 * unknown: then each bind gets remount_ro, the top mount only). */
static int
bind_view_sealed(const struct jail_lease *l, const char *root,
    const struct jail_view *v, char *made)
{
	unsigned char bound[JAIL_VIEW_PATHS_MAX];
	char to[PATH_MAX];
	int rc;

	for (size_t i = 0; i < v->nro; i++)
		if (!below_writable(l, v->ro[i]) && (jail_join(to, sizeof to,
		    root, v->ro[i]) != 0 || mount_point(to, v->ro_dir[i],
		    made) != 0))
			return -1;
	for (size_t i = 0; i < v->nro; i++) {
		bound[i] = 0;
		if (!below_writable(l, v->ro[i])) {
			if ((rc = bind_entry(root, v, i)) < 0)
				return -1;
			bound[i] = (unsigned char)rc;
		}
	}
	if (seal(root) == 0)
		return 0;
	if (errno != ENOSYS && errno != EPERM)
		return -1;
	for (size_t i = 0; i < v->nro; i++)
		if (bound[i] && (jail_join(to, sizeof to, root, v->ro[i]) !=
		    0 || remount_ro(v->ro[i], to, MS_NODEV) != 0))
			return -1;
	return 0;
}

/* The view's links and entries below a writable mount, once it is
 * there: each link made, each entry bound and sealed on its own. */
static int
bind_view_late(const struct jail_lease *l, const char *root,
    const struct jail_view *v, char *made)
{
	char to[PATH_MAX];
	int rc;

	made[0] = '\0';	/* what it names may be covered now */
	for (size_t i = 0; i < v->nlinks; i++)
		if (below_writable(l, v->links[i]) &&
		    link_into(root, v->links[i], made) != 0)
			return -1;
	for (size_t i = 0; i < v->nro; i++) {
		if (!below_writable(l, v->ro[i]))
			continue;
		if (jail_join(to, sizeof to, root, v->ro[i]) != 0 ||
		    mount_point(to, v->ro_dir[i], made) != 0 ||
		    (rc = bind_entry(root, v, i)) < 0)
			return -1;
		if (rc == 1 && seal(to) != 0 && ((errno != ENOSYS &&
		    errno != EPERM) || remount_ro(v->ro[i], to, MS_NODEV) != 0))
			return -1;
	}
	return 0;
}

/* Bind src at root+dst, read-write. */
static int
bind_into(const char *root, const char *src, const char *dst)
{
	struct stat st;
	char to[PATH_MAX];

	if (stat(src, &st) != 0 || jail_join(to, sizeof to, root, dst) != 0 ||
	    mount_point(to, S_ISDIR(st.st_mode), NULL) != 0)
		return -1;
	return mount(src, to, NULL, MS_BIND | MS_REC, NULL);
}

static int
mount_tmpfs(const char *root, const char *dst, const char *opts,
    unsigned long extra)
{
	char to[PATH_MAX];

	if (jail_join(to, sizeof to, root, dst) != 0 || mkdir_p(to) != 0)
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
	char to[PATH_MAX];
	int in, out, rc = -1;
	ssize_t n;

	if (jail_join(to, sizeof to, root, dst) != 0 ||
	    parent_made(to, NULL) != 0)
		return -1;
	if ((in = openat(AT_FDCWD, src, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	out = openat(AT_FDCWD, to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0555);
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

	if (jail_join(to, sizeof to, root, path) != 0)
		return -1;
	fd = openat(AT_FDCWD, to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644);
	if (fd < 0)
		return -1;
	if (write(fd, text, n) != (ssize_t)n) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* The sandbox's disk mounted at at (the root's mount point, before the
 * root's own tmpfs goes over it), its directories made (0700 the tool's
 * own, 1777 the shared kinds, as the usual mounts are); *fd holds it.
 * Under the host's tree, not the new root, it leaves with the old root
 * in one detach: no unmount of its own (each costs an RCU grace period). */
static int
ns_disk(const struct jail_lease *l, const char *at, int *fd)
{
	static const struct { const char *name; mode_t mode; } dirs[] = {
		{ "home", 0700 }, { "work", 0700 }, { "tmp", 01777 },
		{ "shm", 01777 },
	};
	char opts[160];

	disk_opts(l, "mode=0700", opts, sizeof opts);
	if (mount("tmpfs", at, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0 ||
	    (*fd = openat(AT_FDCWD, at, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
		if (mkdirat(*fd, dirs[i].name, 0700) != 0 ||
		    fchmodat(*fd, dirs[i].name, dirs[i].mode, 0) != 0)
			return -1;
	return 0;
}

/* disk+sub bound read-write at root+dst. */
static int
bind_sub(const char *root, const char *disk, const char *sub,
    const char *dst)
{
	char src[PATH_MAX];

	return jail_join(src, sizeof src, disk, sub) ||
	    bind_into(root, src, dst);
}

/* A view entry over a file the root's set-up wrote (/etc/passwd,
 * /etc/group, the service's binary) would replace it with the host's:
 * -1 with the error a bind made read-only at once gave (EROFS). */
static int
view_over(const struct jail_view *v, const char *path)
{
	if (!jail_view_covered(v, path))
		return 0;
	errno = EROFS;
	return -1;
}

/* Every mount point and file the root needs once it is sealed (a
 * read-only tmpfs makes nothing new; what exists is found: mkdir_p's
 * EEXIST): /tmp, /work, HOME, the cache, /proc, /dev, /etc's two files
 * and the service's binary. */
static int
root_points(const struct jail_lease *l, const char *root)
{
	static const char *const dirs[] = { "/tmp", JAIL_NS_HOME, "/proc",
		"/dev", "/etc" };
	struct stat st;
	char to[PATH_MAX], text[512];

	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
		if (jail_join(to, sizeof to, root, dirs[i]) != 0 ||
		    mkdir_p(to) != 0)
			return -1;
	if ((l->workdir[0] || l->work_on_volume) && (jail_join(to, sizeof to,
	    root, JAIL_NS_WORK) || mkdir_p(to)))
		return -1;
	if (l->host_cache[0] && (stat(l->host_cache, &st) != 0 ||
	    jail_join(to, sizeof to, root, JAIL_NS_CACHE) != 0 ||
	    mount_point(to, S_ISDIR(st.st_mode), NULL) != 0))
		return -1;
	if (l->self &&	/* a 1 MiB copy: only for what runs it */
	    copy_into(root, "/proc/self/exe", JAIL_NS_SELF) != 0)
		return -1;
	snprintf(text, sizeof text, "airlock:x:%u:%u:airlock lease:%s:"
	    "/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:"
	    "/usr/sbin/nologin\n", l->uid, l->gid, JAIL_NS_HOME);
	if (write_into(root, "/etc/passwd", text) != 0)
		return -1;
	snprintf(text, sizeof text, "airlock:x:%u:\nnogroup:x:65534:\n",
	    l->gid);
	return write_into(root, "/etc/group", text);
}

/* The new root: a small tmpfs with the system paths bound read-only,
 * fresh /proc, minimal /dev, tmpfs /tmp (and /work), the lease's HOME
 * and cache read-write; then pivot_root into it and seal it read-only.
 * The root's own points and files come first, then the view's binds,
 * sealed with the root in one call; the writable mounts after. */
int
jail_mounts_build_root(struct jail_lease *l, const char **step)
{
	const struct jail *j = l->j;
	const char *root = l->host_root;
	uint64_t size = l->limits.tmpfs ? l->limits.tmpfs : DEFAULT_TMPFS;
	/* with a disk, the working directory is the disk's until the
	 * pivot: its parts are bound from there (the root covers it) */
	const char *disk = ".";
	char opts[96], to[PATH_MAX];
	char made[PATH_MAX];
	int disk_fd = -1;

	JAIL_STEP("mount-private", mount(NULL, "/", NULL, MS_REC | MS_PRIVATE,
	    NULL));
	if (l->limits.disk)
		JAIL_STEP("mount-disk", ns_disk(l, root, &disk_fd) ||
		    fchdir(disk_fd));
	JAIL_STEP("mount-root", mount("tmpfs", root, "tmpfs", MS_NOSUID |
	    MS_NODEV, "mode=0755,size=8m,nr_inodes=4096"));
	JAIL_STEP("mount-points", root_points(l, root));
	made[0] = '\0';
	for (size_t i = 0; i < j->view.nlinks; i++)
		if (!below_writable(l, j->view.links[i]))
			JAIL_STEP("mount-links", link_into(root,
			    j->view.links[i], made));
	JAIL_STEP("mount-etc", view_over(&j->view, "/etc/passwd") ||
	    view_over(&j->view, "/etc/group"));
	if (l->self)
		JAIL_STEP("mount-self", view_over(&j->view, JAIL_NS_SELF));
	JAIL_STEP("mount-bind", bind_view_sealed(l, root, &j->view, made));
	if (l->limits.disk) {
		JAIL_STEP("mount-tmp", bind_sub(root, disk, "/tmp", "/tmp"));
		if (l->workdir[0] && !l->work_on_volume)
			JAIL_STEP("mount-work", bind_sub(root, disk, "/work",
			    JAIL_NS_WORK));
		JAIL_STEP("mount-home", bind_sub(root, disk, "/home",
		    JAIL_NS_HOME));
	} else {
		snprintf(opts, sizeof opts, "mode=1777,size=%llu",
		    (unsigned long long)size);
		JAIL_STEP("mount-tmp", mount_tmpfs(root, "/tmp", opts, 0));
		if (l->workdir[0] && !l->work_on_volume) {
			snprintf(opts, sizeof opts, "mode=0700,size=%llu",
			    (unsigned long long)size);
			JAIL_STEP("mount-work", mount_tmpfs(root, JAIL_NS_WORK,
			    opts, 0));
		}
		/* HOME is a tmpfs of its own: a bind of the host directory
		 * would show the state directory's path in mountinfo */
		snprintf(opts, sizeof opts, "mode=0700,size=%llu",
		    (unsigned long long)size);
		JAIL_STEP("mount-home", mount_tmpfs(root, JAIL_NS_HOME, opts,
		    0));
	}
	if (l->work_on_volume)	/* what the caller reads back */
		JAIL_STEP("mount-work", bind_into(root, l->host_work,
		    JAIL_NS_WORK));
	if (l->host_cache[0]) {
		JAIL_STEP("mount-cache", bind_into(root, l->host_cache,
		    JAIL_NS_CACHE));
		JAIL_STEP("mount-cache", jail_join(to, sizeof to, root,
		    JAIL_NS_HOME) || jail_dirs_link_cache(JAIL_NS_CACHE, to));
	}
	JAIL_STEP("mount-bind", bind_view_late(l, root, &j->view, made));
	JAIL_STEP("mount-proc", jail_join(to, sizeof to, root, "/proc") ||
	    jail_mount_proc(to));
	JAIL_STEP("mount-dev", mount_tmpfs(root, "/dev", "mode=0755,size=64k",
	    MS_NOEXEC));
	for (size_t i = 0; i < sizeof dev_files / sizeof *dev_files; i++)
		JAIL_STEP("mount-dev", bind_into(root, dev_files[i],
		    dev_files[i]));
	JAIL_STEP("mount-dev", jail_join(to, sizeof to, root, "/dev/fd") ||
	    symlink("/proc/self/fd", to));
	JAIL_STEP("mount-dev", jail_join(to, sizeof to, root, "/dev/stdin") ||
	    symlink("/proc/self/fd/0", to));
	JAIL_STEP("mount-dev", jail_join(to, sizeof to, root, "/dev/stdout") ||
	    symlink("/proc/self/fd/1", to));
	JAIL_STEP("mount-dev", jail_join(to, sizeof to, root, "/dev/stderr") ||
	    symlink("/proc/self/fd/2", to));
	snprintf(opts, sizeof opts, "mode=1777,size=%llu",
	    (unsigned long long)size);
	if (l->limits.disk)
		JAIL_STEP("mount-dev", bind_sub(root, disk, "/shm",
		    "/dev/shm") || jail_join(to, sizeof to, root, "/dev/shm") ||
		    mount(NULL, to, NULL, MS_REMOUNT | MS_BIND | MS_NOSUID |
		    MS_NODEV | MS_NOEXEC, NULL));
	else
		JAIL_STEP("mount-dev", mount_tmpfs(root, "/dev/shm", opts,
		    MS_NOEXEC));
	/* the disk lives on in its binds (and the service's fd) */
	if (l->limits.disk)
		JAIL_STEP("mount-disk", send_disk(disk_fd));
	JAIL_STEP("pivot_root", chdir(root) ||
	    syscall(SYS_pivot_root, ".", ".") || umount2(".", MNT_DETACH) ||
	    chdir("/"));
	JAIL_STEP("remount-ro", mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND |
	    MS_RDONLY | MS_NOSUID | MS_NODEV, NULL));
	JAIL_STEP("hostname", sethostname("airlock", 7));
	return 0;
}
