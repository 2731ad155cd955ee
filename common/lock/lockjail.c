/* lockjail.c - one npm command in a one-shot jail (lockjail.h). */
#include "common/lock/lockjail.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/base/fsutil.h"
#include "common/base/log.h"
#include "common/base/random_id.h"
#include "common/base/tailbuf.h"
#include "common/jail/seccomp_policy.h"
#include "common/jail/spawn.h"

#define TAIL 600
#define REAP_MS 5000		/* the killed command's processes reaped */

static const char *const launchers[] = { "npm", "node" };

/* Drain the child's stdout and stderr (keeping stderr's tail) until it
 * exits or the deadline passes; 0 when it exited, -1 on the deadline. */
static int
wait_child(struct spawn_child *ch, int64_t deadline, char *tail,
    size_t *tlen)
{
	int open_out = 1, open_err = 1;

	close(ch->in);
	for (;;) {
		struct pollfd p[3] = { { ch->pidfd, POLLIN, 0 },
			{ open_out ? ch->out : -1, POLLIN, 0 },
			{ open_err ? ch->err : -1, POLLIN, 0 } };
		int64_t left = deadline - mono_ms();
		char buf[4096];
		ssize_t n;

		if (left <= 0)
			return -1;
		if (poll(p, 3, left > 1000 ? 1000 : (int)left) < 0 &&
		    errno != EINTR)
			return -1;
		if (p[1].revents && (n = read(ch->out, buf, sizeof buf)) <= 0 &&
		    (n == 0 || errno != EAGAIN))
			open_out = 0;
		if (p[2].revents) {
			n = read(ch->err, buf, sizeof buf);
			if (n > 0)
				tail_keep(tail, TAIL, tlen, buf, (size_t)n);
			else if (n == 0 || errno != EAGAIN)
				open_err = 0;
		}
		if (p[0].revents && !open_out && !open_err)
			return 0;
		if (p[0].revents && (p[1].revents | p[2].revents) == 0)
			return 0;
	}
}

/* work/name, opened through no link, a regular file of at most max. */
static int
fetch_file(const struct jail_lease *l, const char *name, size_t max,
    uint8_t **out, size_t *outlen, char *err, size_t errcap)
{
	int dfd = open(l->host_work, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC), fd = -1;
	struct stat st;
	size_t got = 0;

	if (dfd >= 0)
		fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		    O_CLOEXEC);
	if (dfd >= 0)
		close(dfd);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size > max) {
		snprintf(err, errcap, "the command left no %s (a regular file "
		    "of at most %zu bytes): %s", name, max, fd < 0 ?
		    strerror(errno) : "not one");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!(*out = malloc((size_t)st.st_size + 1))) {
		close(fd);
		snprintf(err, errcap, "out of memory");
		return -1;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, *out + got, (size_t)st.st_size - got);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	*outlen = got;
	return 0;
}

/* work/keep, a directory (not a link), renamed to dest. */
static int
keep_dir(const struct jail_lease *l, const char *keep, const char *dest,
    char *err, size_t errcap)
{
	int dfd = open(l->host_work, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC), rc = -1;
	struct stat st;

	if (dfd >= 0 && fstatat(dfd, keep, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode))
		rc = renameat(dfd, keep, AT_FDCWD, dest);
	if (rc != 0)
		snprintf(err, errcap, "the command left no directory %s to "
		    "keep as %s: %s", keep, dest, strerror(errno));
	if (dfd >= 0)
		close(dfd);
	return rc;
}

/* Every child of ours (the caller has none but the command's: the jail's
 * proxy, its pid 1 and whatever was orphaned to us) reaped, each killed
 * already: no zombie of the jail's uid outlives the command. Bounded,
 * should one not die. */
static void
reap_all(void)
{
	int64_t until = mono_ms() + REAP_MS;

	while (mono_ms() < until) {
		pid_t w = waitpid(-1, NULL, WNOHANG);

		if (w < 0 && errno != EINTR)
			return;		/* ECHILD: none left */
		if (w == 0)
			(void)poll(NULL, 0, 10);	/* a nap */
	}
}

/* What is taken from the work directory when the command succeeded. */
struct take {
	const char *fetch;	/* a file, read back */
	size_t max;
	uint8_t **out;
	size_t *outlen;
	const char *keep, *dest;	/* or a directory, moved */
	const struct lock_jail_drive *drive;	/* or a conversation */
	const struct lock_jail_view *view;	/* NULL: npm's */
};

static int run(const struct lock_jail_opts *o, char *const *argv,
    const struct jail_file *files, size_t nfiles, const struct take *t,
    char *err, size_t errcap);

int
lock_jail_run(const struct lock_jail_opts *o, char *const *argv,
    const struct jail_file *files, size_t nfiles, const char *fetch,
    size_t max, uint8_t **out, size_t *outlen, char *err, size_t errcap)
{
	struct take t = { fetch, max, out, outlen, NULL, NULL, NULL, NULL };

	*out = NULL;
	return run(o, argv, files, nfiles, &t, err, errcap);
}

int
lock_jail_run_keep(const struct lock_jail_opts *o,
    const struct lock_jail_view *v, char *const *argv,
    const struct jail_file *files, size_t nfiles, const char *keep,
    const char *dest, char *err, size_t errcap)
{
	struct take t = { NULL, 0, NULL, NULL, keep, dest, NULL, v };

	return run(o, argv, files, nfiles, &t, err, errcap);
}

int
lock_jail_run_drive(const struct lock_jail_opts *o,
    const struct lock_jail_view *v, char *const *argv,
    const struct lock_jail_drive *d, char *err, size_t errcap)
{
	struct take t = { NULL, 0, NULL, NULL, NULL, NULL, d, v };

	return run(o, argv, NULL, 0, &t, err, errcap);
}

static int
run(const struct lock_jail_opts *o, char *const *argv,
    const struct jail_file *files, size_t nfiles, const struct take *t,
    char *err, size_t errcap)
{
	static struct jail j;		/* large; one command at a time */
	static struct sock_fprog prog;
	struct jail_config cfg = { 0 };
	struct jail_lease l;
	struct jail_request rq;
	struct spawn_child ch;
	struct spawn_spec spec;
	char id[32], home[PATH_MAX + 8], tmp[PATH_MAX + 8], tail[TAIL + 1];
	char *envp[10], real[PATH_MAX], bad[PATH_MAX];
	struct stat st;
	size_t tlen = 0;
	int status = 0, found = 0, rc = -1, timed_out;

	if (o->mode == JAIL_NONE) {
		snprintf(err, errcap, "%s runs jailed: jail mode none is "
		    "refused", argv[0]);
		return -1;
	}
	seccomp_policy_program(&prog, SECCOMP_PROG_JAIL);
	cfg.mode = o->mode;
	cfg.unit = JAIL_UNIT_LEASE;
	cfg.uid_first = o->uid_first;
	cfg.uid_last = o->uid_last;
	cfg.state_dir = o->state_dir;
	cfg.landlock = JAIL_LANDLOCK_AUTO;
	cfg.limits = (struct jail_limits){ .nofile = 4096 };
	cfg.path = "/usr/local/bin:/usr/bin:/bin";
	cfg.launchers = t->view ? t->view->launchers : launchers;
	cfg.nlaunchers = t->view ? t->view->nlaunchers : 2;
	cfg.ro_paths = t->view ? t->view->ro_paths : NULL;
	cfg.nro = t->view ? t->view->nro : 0;
	cfg.seccomp = &prog;
	cfg.one_shot = 1;
	if (fs_mkdir_private(o->state_dir, 0711) != 0 ||
	    !realpath(o->state_dir, real)) {
		snprintf(err, errcap, "state directory %s: %s", o->state_dir,
		    strerror(errno));
		return -1;
	}
	/* npm reads project files (.npmrc, package.json) above its work
	 * directory: no one else may add names there */
	if (fs_parents_private(real, 0, bad, sizeof bad, &st) != 0) {
		snprintf(err, errcap, "state directory %s: %s can be changed "
		    "by a user other than root (give one whose every parent "
		    "only root can write)", o->state_dir, bad);
		return -1;
	}
	/* the jail's pid 1 outlives its proxy, our child, by a moment:
	 * orphaned, it would be init's zombie (of the jail's uid) until init
	 * looked; ours instead, reaped before we return (reap_all) */
	if (spawn_become_subreaper() != 0) {
		snprintf(err, errcap, "cannot become the jail's reaper "
		    "(PR_SET_CHILD_SUBREAPER): %s", strerror(errno));
		return -1;
	}
	if (jail_init(&j, &cfg, err, errcap) != 0)
		return -1;
	if (random_id(id) != 0) {
		snprintf(err, errcap, "no random id: %s", strerror(errno));
		goto fini;
	}
	/* the command's outputs are read from the work dir: ns mode's too
	 * is then on the volume, not a tmpfs of its own */
	rq = (struct jail_request){ .id = id, .work = 1, .work_on_volume = 1,
		.files = files, .nfiles = nfiles };
	if (jail_lease_open(&j, &rq, &l, err, errcap) != 0)
		goto fini;
	snprintf(home, sizeof home, "HOME=%s", l.home);
	snprintf(tmp, sizeof tmp, "TMPDIR=%s", l.tmpdir);
	envp[0] = "PATH=/usr/local/bin:/usr/bin:/bin";
	envp[1] = home;
	envp[2] = tmp;
	envp[3] = "LANG=C.UTF-8";
	envp[4] = "npm_config_update_notifier=false";
	envp[5] = "npm_config_fund=false";
	envp[6] = "npm_config_audit=false";
	envp[7] = NULL;
	spec = (struct spawn_spec){ .argv = argv, .envp = envp,
		.jail = jail_lease_enter, .jail_ctx = &l,
		.cgroup_fd = jail_lease_cgroup_fd(&l),
		.pass_fd = jail_lease_pass_fd(&l) };
	spec.into_cgroup = spec.cgroup_fd >= 0;
	if (spawn_start(&spec, &ch, err, errcap) != 0)
		goto close;
	if (jail_lease_started(&l, err, errcap) != 0) {
		jail_lease_kill(&l, ch.pid, &status, &found);
		goto closefds;
	}
	if (t->drive) {
		rc = t->drive->fn(t->drive->ctx, ch.in, ch.out, ch.err,
		    mono_ms() + (int64_t)o->timeout_ms, err, errcap);
		close(ch.in);
		jail_lease_kill(&l, ch.pid, &status, &found);
		goto closefds;
	}
	timed_out = wait_child(&ch, mono_ms() + (int64_t)o->timeout_ms, tail,
	    &tlen) != 0;
	/* the command and everything it started: gone before its files are
	 * read, so nothing changes them under the read */
	jail_lease_kill(&l, ch.pid, &status, &found);
	tail[tlen] = '\0';
	if (timed_out || !found || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		char esc[TAIL * 4 + 1];

		log_escape(esc, sizeof esc, tail, tlen);
		snprintf(err, errcap, "%s %s: %s", argv[0], timed_out ?
		    "took too long" : "failed", esc);
		goto closefds;
	}
	rc = t->fetch ? fetch_file(&l, t->fetch, t->max, t->out, t->outlen,
	    err, errcap) : keep_dir(&l, t->keep, t->dest, err, errcap);
closefds:
	close(ch.out);
	close(ch.err);
	close(ch.pidfd);
close:
	reap_all();
	{
		char e2[256];

		if (jail_lease_close(&l, -1, &status, &found, e2,
		    sizeof e2) != 0 && rc == 0) {
			snprintf(err, errcap, "%s", e2);
			if (t->out) {
				free(*t->out);
				*t->out = NULL;
			}
			rc = -1;
		}
	}
fini:
	jail_fini(&j);
	return rc;
}
