/* jail.c - the jail of a service and of each lease: set-up at start
 * (probe, refusals, uid table, cgroups), a lease opened (uid, directories,
 * cgroup) and closed (killed, removed, uid released). The child's side is
 * jail_enter.c, the options' spellings jail_options.c. */
#include "common/jail/jail.h"

#include <errno.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/fsutil.h"
#include "common/jail/diskquota.h"
#include "common/jail/jail_creds.h"
#include "common/jail/jail_dirs.h"
#include "common/jail/jail_mounts.h"
#include "common/jail/jail_options.h"
#include "common/jail/jail_probe.h"

const char *
jail_ro_path(const struct jail *j, size_t i)
{
	return i < j->view.nro ? j->view.ro[i] : NULL;
}

const char *
jail_self_exe(const struct jail *j)
{
	return j->cfg.mode == JAIL_NS ? JAIL_NS_SELF : j->cfg.self_exe;
}

/* A state directory inside what every jail sees read-only (a launcher's
 * directory, an --ro-path) would show each jail the others' state and
 * keep its own mounts busy: refused, naming both. */
static int
state_dir_in_view(const struct jail *j, char *err, size_t errlen)
{
	char real[PATH_MAX];
	const char *in;

	if (!realpath(j->cfg.state_dir, real)) {
		snprintf(err, errlen, "state directory %s: %s",
		    j->cfg.state_dir, strerror(errno));
		return -1;
	}
	if (!(in = jail_view_covered(&j->view, real)))
		return 0;
	snprintf(err, errlen, "--state-dir %s is inside %s, which every jail "
	    "sees read-only (a launcher's files or an --ro-path): choose a "
	    "state directory outside it", j->cfg.state_dir, in);
	return -1;
}

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
	if (strlen(cfg->state_dir) > JAIL_STATE_DIR_MAX) {
		snprintf(err, errlen, "state directory %.200s...: longer than "
		    "%d bytes", cfg->state_dir, JAIL_STATE_DIR_MAX);
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
	if (jail_config_view(cfg, &j->view, err, errlen) != 0)
		return -1;
	if (cfg->mode != JAIL_NONE && state_dir_in_view(j, err, errlen))
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
		j->uids.purge = jail_dirs_purge_registration;
		j->uids.one_shot = cfg->one_shot;
		if (!cfg->one_shot &&
		    !jail_uid_can_reach(cfg->uid_last, cfg->state_dir)) {
			snprintf(err, errlen, "--state-dir %s: uid %u cannot "
			    "reach it: every directory above it must be "
			    "searchable by others (o+x)", cfg->state_dir,
			    cfg->uid_last);
			return -1;
		}
	}
	/* ns mode's one mount point of every lease's root (ns_root) */
	if (cfg->mode == JAIL_NS && (jail_join(j->ns_root, sizeof j->ns_root,
	    cfg->state_dir, "/ns-root") != 0 ||
	    fs_mkdir_private(j->ns_root, 0700) != 0)) {
		snprintf(err, errlen, "state directory %s: cannot make its "
		    "ns-root: %s", cfg->state_dir, strerror(errno));
		return -1;
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
		jail_dirs_remove_stale(j);
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
	    !jail_uid_can_reach(cfg->uid_last, cfg->state_dir)) {
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

/* The lease's directories on the volume, made as the lease while the
 * lease directory is root:gid 0730, then 0710: the lease can use them but
 * not add anything beside them. uid mode: HOME, TMPDIR and the work dir;
 * ns mode with its work dir on the volume: that and the new root's mount
 * point. 0, or -1 with errno. */
static int
lease_dirs(struct jail_lease *l, int ns, int work)
{
	int rc;

	if (jail_fs_as(l->uid, l->gid) != 0)
		return -1;
	rc = (!ns && (mkdir(l->host_home, 0700) || mkdir(l->host_tmp,
	    0700))) || (work && mkdir(l->host_work, 0700)) ||
	    (ns && mkdir(l->host_root, 0700));
	jail_fs_back();
	return rc || chmod(l->dir, 0710) ? -1 : 0;
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

/* disk_make_room's eviction: the uid pool's least recently used idle
 * registration. */
static int
evict_idle_registration(const void *pool, const char *keep, char *key,
    size_t keylen, uint32_t *uid)
{
	char k[UIDPOOL_KEY_MAX + 1];

	if (uidpool_evict_lru(pool, keep, k, uid) != 0)
		return -1;
	snprintf(key, keylen, "%s", k);
	return 0;
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
	l->self = rq->self && j->cfg.self_exe;
	l->work_on_volume = rq->work && rq->work_on_volume;
	l->limits = rq->limits ? *rq->limits : j->cfg.limits;
	fsize_within_caps(&l->limits);
	l->files = rq->files;
	l->nfiles = rq->nfiles;
	if ((size_t)snprintf(l->dir, sizeof l->dir, "%s/lease-%s",
	    j->cfg.state_dir, l->id) >= sizeof l->dir ||
	    jail_join(l->host_home, sizeof l->host_home, l->dir, "/home") ||
	    jail_join(l->host_tmp, sizeof l->host_tmp, l->dir, "/tmp") ||
	    (ns && jail_join(l->host_root, sizeof l->host_root,
	    l->work_on_volume ? l->dir : j->ns_root, l->work_on_volume ?
	    "/root" : ""))) {
		snprintf(err, errlen, "state directory path too long");
		return -1;
	}
	if (rq->work && jail_join(l->host_work, sizeof l->host_work, l->dir,
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
		if (disk_make_room(evict_idle_registration, &j->uids,
		    j->cfg.state_dir,
		    l->limits.disk_reserve, unit_reg ? key : NULL, err,
		    errlen) != 0)
			return -1;
		if (unit_reg && l->limits.cache_size)
			(void)uidpool_idle_key(&j->uids, key,
			    jail_dirs_trim_cache,
			    &(struct jail_trim){ l, key });
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
		/* ns mode's HOME, /tmp and work dir are tmpfs (or the capped
		 * disk's) in its own root, mounted on the state directory's
		 * one ns-root in the lease's own mount namespace: nothing is
		 * made on the volume per lease (where a directory made and
		 * removed costs a block freed: a discard on some), but for a
		 * work dir asked there (the root then goes below it) */
		if (!ns || l->work_on_volume) {
			if (jail_dirs_container(l->dir, l->gid, 0730) != 0)
				return open_fail(l, err, errlen, "cannot "
				    "create the lease directory");
			l->dirs_made = 1;
			if (lease_dirs(l, ns, rq->work) != 0)
				return open_fail(l, err, errlen, "cannot "
				    "create the lease home");
		}
		if (unit_reg && jail_dirs_cache(l, key) != 0)
			return open_fail(l, err, errlen, "cannot prepare the "
			    "package cache");
		if (l->host_cache[0] && !ns) {	/* ns: in its tmpfs HOME */
			int rc;

			if (jail_fs_as(l->uid, l->gid) != 0)
				return open_fail(l, err, errlen, "setfsuid");
			rc = jail_dirs_link_cache(l->host_cache, l->host_home);
			jail_fs_back();
			if (rc != 0)
				return open_fail(l, err, errlen, "cannot link "
				    "the package cache");
		}
		snprintf(l->home, sizeof l->home, "%s", ns ? JAIL_NS_HOME :
		    l->host_home);
		snprintf(l->tmpdir, sizeof l->tmpdir, "%s", ns ? "/tmp" :
		    l->host_tmp);
		if (rq->work)
			snprintf(l->workdir, sizeof l->workdir, "%s", ns ?
			    JAIL_NS_WORK : l->host_work);
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
	jail_mounts_landlock(l);
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

int
jail_lease_drop_setup_caps(void)
{
	uint64_t keep = JAIL_CAP_BIT(CAP_KILL) | JAIL_CAP_BIT(CAP_SETUID) |
	    JAIL_CAP_BIT(CAP_SETGID);

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	/* only what it holds: capset cannot raise one */
	return jail_caps_only(jail_caps_effective() & keep);
}

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

int
jail_lease_peak_reset(const struct jail_lease *l)
{
	if (!l->cg_made) {
		errno = ENOTSUP;
		return -1;
	}
	return cgroup_lease_peak_reset(&l->cg);
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
		jail_dirs_remove(l->dir, l->uid, l->gid,
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
