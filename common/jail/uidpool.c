/* uidpool.c - the uid table and the kill-everything-of-a-uid sweep. */
#include "common/jail/uidpool.h"

#include "common/base/decnum.h"
#include "common/base/dirents.h"
#include "common/base/fileio.h"
#include "common/base/idfile.h"
#include "common/jail/ipcsweep.h"
#include "common/base/log.h"
#include "common/base/procscan.h"
#include "common/jail/diskquota.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SWEEP_ROUNDS 25000	/* 0.2 ms apart: a sweep gives up after ~5 s */

static void
pause_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000L };

	nanosleep(&ts, NULL);
}

static void
pause_ms(long ms)
{
	pause_us(ms * 1000);
}

static int
mkdir_0700(const char *path)
{
	struct stat st;

	if (mkdir(path, 0700) == 0)
		return 0;
	if (errno != EEXIST || lstat(path, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		errno = EPERM;	/* not ours, or open to others: refuse */
		return -1;
	}
	return 0;
}

int
uidpool_init(struct uidpool *p, const char *state, uint32_t first,
    uint32_t last, char *err, size_t errlen)
{
	uint32_t me = (uint32_t)getuid();

	memset(p, 0, sizeof *p);
	if (first == 0 || last < first || last >= 0xfffffffeu) {
		snprintf(err, errlen, "uid range %u-%u: must be FIRST-LAST "
		    "with 0 < FIRST <= LAST", first, last);
		return -1;
	}
	if (last - first >= UIDPOOL_RANGE_MAX) {
		snprintf(err, errlen, "uid range %u-%u: more than %u uids",
		    first, last, UIDPOOL_RANGE_MAX);
		return -1;
	}
	if (me >= first && me <= last) {
		snprintf(err, errlen, "uid range %u-%u contains the runner's "
		    "own uid %u", first, last, me);
		return -1;
	}
	p->first = first;
	p->last = last;
	if ((size_t)snprintf(p->state, sizeof p->state, "%s", state) >=
	    sizeof p->state || (size_t)snprintf(p->dir, sizeof p->dir,
	    "%s/uids", state) >= sizeof p->dir ||
	    (size_t)snprintf(p->regdir, sizeof p->regdir,
	    "%s/registrations", state) >= sizeof p->regdir) {
		snprintf(err, errlen, "state directory path too long");
		return -1;
	}
	if (mkdir_0700(p->dir) != 0 || mkdir_0700(p->regdir) != 0) {
		snprintf(err, errlen, "cannot make the uid table in %s: %s",
		    state, strerror(errno));
		return -1;
	}
	return 0;
}

struct uid_match {
	uint32_t uid;
	struct proc_owner found;
};

static int
match_uid(void *ctx, const struct proc_owner *o)
{
	struct uid_match *m = ctx;
	uint32_t u;

	if (!proc_owner_in_range(o, m->uid, m->uid, &u))
		return 0;
	m->found = *o;
	return 1;
}

/* 1 and *o (its first process), 0 none, -1 /proc unreadable. */
static int
uid_first_process(uint32_t uid, pid_t except, struct proc_owner *o)
{
	struct uid_match m = { .uid = uid };
	int rc = procscan(except, match_uid, &m);

	if (rc == 1)
		*o = m.found;
	return rc;
}

int
uid_has_process(uint32_t uid, pid_t except)
{
	struct proc_owner o;

	return uid_first_process(uid, except, &o);
}

int
uid_kill_all(uint32_t uid, uint32_t gid, pid_t watch, int *status,
    int *found)
{
	int hs = 0;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct rlimit two = { 2, 2 };

		/* as the uid, kill(-1) reaches exactly its processes (and no
		 * other: kill needs a matching uid without CAP_KILL). Then
		 * "are any left?" without reading /proc: with RLIMIT_NPROC 2
		 * a fork succeeds only while this helper is the uid's one
		 * task; the kernel counts every task of the uid, in user
		 * namespaces below too, zombies until reaped (our parent
		 * reaps them meanwhile) */
		if (setgroups(0, NULL) != 0 || setresgid(gid, gid, gid) != 0 ||
		    setresuid(uid, uid, uid) != 0 ||
		    setrlimit(RLIMIT_NPROC, &two) != 0)
			_exit(2);
		for (int round = 0; round < SWEEP_ROUNDS; round++) {
			pid_t probe;

			kill(-1, SIGKILL);
			probe = fork();
			if (probe == 0)
				_exit(0);
			if (probe > 0) {
				while (waitpid(probe, NULL, 0) < 0 &&
				    errno == EINTR)
					;
				/* no task of the uid left: what it made
				 * that outlives tasks (IPC objects) goes
				 * too, before the uid serves anyone else */
				_exit(ipcsweep_remove(uid) == 0 ? 0 : 3);
			}
			pause_us(200);
		}
		_exit(1);
	}
	/* the helper ends by itself (bounded); reap whatever dies meanwhile:
	 * a killed process of ours stays a zombie of its uid otherwise */
	for (;;) {
		int st;
		pid_t w = waitpid(-1, &st, 0);

		if (w == pid) {
			hs = st;
			break;
		}
		if (w == watch && status && found) {
			*status = st;
			*found = 1;
		}
		if (w < 0 && errno != EINTR)
			break;
	}
	return WIFEXITED(hs) && WEXITSTATUS(hs) == 0 ? 0 : -1;
}

/* --- the table's files: parse and format (pure, no I/O) --- */

/* The line: the bytes before the first '\n', or all of them. */
static size_t
line_len(const char *buf, size_t len)
{
	const char *nl = memchr(buf, '\n', len);

	return nl ? (size_t)(nl - buf) : len;
}

/* 1 when the line buf[0..n) starts with the n_word bytes of word. */
static int
starts(const char *buf, size_t n, const char *word, size_t n_word)
{
	return n >= n_word && memcmp(buf, word, n_word) == 0;
}

void
uidpool_entry_parse(const char *buf, size_t len, struct uidpool_entry *e)
{
	size_t n = line_len(buf, len);

	e->kind = UIDPOOL_ENTRY_STALE;
	e->name = NULL;
	e->name_len = 0;
	e->line_len = n;
	if (n == 4 && memcmp(buf, "free", 4) == 0) {
		e->kind = UIDPOOL_ENTRY_FREE;
	} else if (starts(buf, n, "reg ", 4)) {
		/* whatever follows, the uid is a registration's for good:
		 * a torn name must not hand it to someone else */
		e->kind = UIDPOOL_ENTRY_REG;
		e->name = buf + 4;
		e->name_len = n - 4;
	} else if (starts(buf, n, "lease ", 6)) {
		e->kind = UIDPOOL_ENTRY_LEASE;
		e->name = buf + 6;
		e->name_len = n - 6;
	}
}

int
uidpool_entry_format(char line[UIDPOOL_ENTRY_SIZE], const char *kind,
    const char *name)
{
	int n;

	if (name && strchr(name, '\n'))
		return -1;
	n = snprintf(line, UIDPOOL_ENTRY_SIZE, "%s%s%s\n", kind,
	    name ? " " : "", name ? name : "");
	if (n < 0 || (size_t)n >= UIDPOOL_ENTRY_SIZE)
		return -1;
	memset(line + n, ' ', UIDPOOL_ENTRY_SIZE - (size_t)n);
	return 0;
}

/* --- the table's files: I/O --- */

/* Up to cap bytes of a table file from its start; the count (0 on a read
 * error: an empty file parses as stale or unusable, never as valid). */
static size_t
read_entry(int fd, char *buf, size_t cap)
{
	ssize_t n = pread(fd, buf, cap, 0);

	return n > 0 ? (size_t)n : 0;
}

/* An overwrite in place, no truncation (which costs a journal commit). */
static int
write_entry(int fd, const char *kind, const char *name)
{
	char line[UIDPOOL_ENTRY_SIZE];

	if (uidpool_entry_format(line, kind, name) != 0)
		return -1;
	if (pwrite(fd, line, sizeof line, 0) != (ssize_t)sizeof line)
		return -1;
	return 0;
}

/* s[0..n) for a message: at most cap - 1 bytes, anything not printable
 * ASCII as '?', NUL-terminated (cap >= 1). */
static void
printable(char *out, size_t cap, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && i + 1 < cap; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	out[i] = '\0';
}

static int
open_entry(const struct uidpool *p, uint32_t uid)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof path, "%s/%u", p->dir, uid);
	return openat(AT_FDCWD, path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
	    0600);
}

/* The round-robin cursor, locked: serialises allocations. */
static int
lock_cursor(const struct uidpool *p, uint32_t *next)
{
	char path[PATH_MAX + 16], buf[32];
	int fd;

	snprintf(path, sizeof path, "%s/next", p->dir);
	fd = openat(AT_FDCWD, path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX) != 0) {
		close(fd);
		return -1;
	}
	/* a new, torn or foreign cursor restarts at the range's start */
	if (decnum_parse(buf, read_entry(fd, buf, sizeof buf),
	    next) != 0 || *next < p->first || *next > p->last)
		*next = p->first;
	return fd;
}

static void
unlock_cursor(int fd, uint32_t next)
{
	char num[24];

	snprintf(num, sizeof num, "%u", next);
	(void)write_entry(fd, num, NULL);
	close(fd);	/* drops the flock */
}

/* A key as a file name in the registrations directory: what an entry
 * names is checked before it becomes a path. */
static int
key_valid(const char *k, size_t n)
{
	if (n == 0 || n > UIDPOOL_KEY_MAX || k[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= 'A' &&
		    k[i] <= 'Z') || (k[i] >= '0' && k[i] <= '9') ||
		    k[i] == '.' || k[i] == '_' || k[i] == '-' || k[i] == '+'))
			return 0;
	return 1;
}

static int lookup_key(const struct uidpool *p, const char *key,
    uint32_t *uid);
static void say_foreign(uint32_t uid, const struct proc_owner *o);
static int sweep_ours(uint32_t uid);

/* Release registration uid, whose entry fd is locked exclusively and
 * reads "reg key": kill its processes, purge its files, drop its record,
 * mark it free, in that order, so that a failed step leaves it a
 * registration's (tried again later), never a uid handed out with
 * something of its last owner left. 0 or -1. */
static int
release_reg(const struct uidpool *p, uint32_t uid, int fd, const char *key)
{
	char path[PATH_MAX + UIDPOOL_KEY_MAX + 2];
	uint32_t named;

	/* the table records it as the registration's: its processes are
	 * ours (orphans of its leases), swept and said */
	if (sweep_ours(uid) != 0)
		return -1;
	if (p->purge && p->purge(p->state, uid, key) != 0)
		return -1;
	/* the record goes only if it names this uid */
	if (lookup_key(p, key, &named) == 1 && named == uid) {
		snprintf(path, sizeof path, "%s/%s", p->regdir, key);
		if (unlink(path) != 0 && errno != ENOENT)
			return -1;
	}
	return write_entry(fd, "free", NULL);
}

/* The registration uid fd's entry names, locked exclusively (no lease
 * holds it): its key into key (cap UIDPOOL_KEY_MAX + 1). 0, or -1 when the
 * entry is another kind or its key is unusable. */
static int
idle_reg(int fd, char key[UIDPOOL_KEY_MAX + 1])
{
	char buf[256];
	struct uidpool_entry e;

	if (flock(fd, LOCK_EX | LOCK_NB) != 0)
		return -1;
	uidpool_entry_parse(buf, read_entry(fd, buf, sizeof buf), &e);
	if (e.kind != UIDPOOL_ENTRY_REG || !key_valid(e.name, e.name_len))
		return -1;
	memcpy(key, e.name, e.name_len);
	key[e.name_len] = '\0';
	return 0;
}

/* Release the idle registration uid used least recently (its record's
 * mtime, touched by every take_key) whose key is not keep (NULL: any),
 * and hold its entry. 0 with *uid, *fd and its key in out_key (NULL: not
 * wanted), or -1. */
static int
reclaim_lru(const struct uidpool *p, const char *keep, uint32_t *uid,
    int *fd, char *out_key)
{
	char key[UIDPOOL_KEY_MAX + 1], best_key[UIDPOOL_KEY_MAX + 1];
	char path[PATH_MAX + UIDPOOL_KEY_MAX + 2];
	struct timespec best_t = { 0, 0 };
	uint32_t best = 0;
	int best_fd = -1;

	for (uint32_t u = p->first; u <= p->last; u++) {
		struct stat st;
		struct timespec t = { 0, 0 };
		int f = open_entry(p, u);

		if (f < 0)
			continue;
		if (idle_reg(f, key) != 0 || (keep && strcmp(key, keep) == 0)) {
			close(f);
			continue;
		}
		snprintf(path, sizeof path, "%s/%s", p->regdir, key);
		if (stat(path, &st) == 0)
			t = st.st_mtim;	/* a missing record: oldest */
		if (best_fd >= 0 && (t.tv_sec > best_t.tv_sec ||
		    (t.tv_sec == best_t.tv_sec &&
		    t.tv_nsec >= best_t.tv_nsec))) {
			close(f);
			continue;
		}
		if (best_fd >= 0)
			close(best_fd);
		best_fd = f;
		best = u;
		best_t = t;
		memcpy(best_key, key, sizeof key);
	}
	if (best_fd < 0)
		return -1;
	if (release_reg(p, best, best_fd, best_key) != 0) {
		close(best_fd);
		return -1;
	}
	*uid = best;
	*fd = best_fd;
	if (out_key)
		memcpy(out_key, best_key, sizeof best_key);
	return 0;
}

int
uidpool_evict_lru(const struct uidpool *p, const char *keep,
    char key[UIDPOOL_KEY_MAX + 1], uint32_t *uid)
{
	int fd;

	if (reclaim_lru(p, keep, uid, &fd, key) != 0)
		return -1;
	close(fd);	/* its entry reads "free" */
	return 0;
}


/* A one-shot service's claim scanned /proc a moment ago. An entry that
 * reads "free" was written after its last lease's processes were all
 * gone; an empty one (len 0) was never written, and an entry, once
 * written, is never shorter (write_entry overwrites in place), so no
 * lease ever ran as its uid. No process of the uid starts without
 * holding the entry (as the caller does now): unless that scan saw a
 * process of uid (one the table did not start), it has none. 1 when
 * that settles it; 0: scan. */
static int
claimed_idle(const struct uidpool *p, const struct uidpool_entry *e,
    size_t len, uint32_t uid)
{
	if (!p->one_shot || !p->busy_known ||
	    (e->kind != UIDPOOL_ENTRY_FREE && len != 0))
		return 0;
	for (size_t i = 0; i < p->nbusy; i++)
		if (p->busy[i] == uid)
			return 0;
	return 1;
}

/* Find a free uid and hold it exclusively with entry "kind name". */
static int
allocate(const struct uidpool *p, const char *kind, const char *name,
    struct uid_hold *h, char *err, size_t errlen)
{
	uint32_t next, n = p->last - p->first + 1;
	int cfd = lock_cursor(p, &next), full = 0;

	if (cfd < 0) {
		snprintf(err, errlen, "uid table %s: %s", p->dir,
		    strerror(errno));
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t uid = p->first + (next - p->first + i) % n;
		char buf[256];
		size_t len;
		struct uidpool_entry entry;
		struct proc_owner o = { .pid = -1 };
		int fd = open_entry(p, uid);

		if (fd < 0) {
			full = full ? full : disk_errno_full(errno) ? errno : 0;
			continue;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			close(fd);	/* a live lease holds it */
			continue;
		}
		len = read_entry(fd, buf, sizeof buf);
		uidpool_entry_parse(buf, len, &entry);
		if (entry.kind == UIDPOOL_ENTRY_REG) {
			close(fd);	/* a registration's for good */
			continue;
		}
		/* handed out only with no process left: a dead lease's
		 * leftovers are ours to sweep; any other holder is not ours,
		 * and the uid is skipped (said, never killed) */
		if (!claimed_idle(p, &entry, len, uid) &&
		    uid_first_process(uid, -1, &o) != 0) {
			if (entry.kind != UIDPOOL_ENTRY_LEASE) {
				say_foreign(uid, &o);
				close(fd);
				continue;
			}
			if (sweep_ours(uid) != 0) {
				close(fd);
				continue;
			}
		}
		if (write_entry(fd, kind, name) != 0) {
			/* a new entry's first write needs a block: on a full
			 * volume every never-used uid fails here */
			full = full ? full : disk_errno_full(errno) ? errno : 0;
			close(fd);
			continue;
		}
		h->uid = uid;
		h->fd = fd;
		h->shared = 0;
		unlock_cursor(cfd, uid == p->last ? p->first : uid + 1);
		return 0;
	}
	/* every uid is a lease's or a registration's: take back an idle
	 * registration's, so registration ids never exhaust the range */
	if (!full && reclaim_lru(p, NULL, &h->uid, &h->fd, NULL) == 0) {
		if (write_entry(h->fd, kind, name) == 0) {
			h->shared = 0;
			close(cfd);
			return 0;
		}
		close(h->fd);
		h->fd = -1;
	}
	close(cfd);
	if (full)
		disk_no_space(err, errlen, p->state, "the uid table", full);
	else
		snprintf(err, errlen, "every uid of %u-%u is in use",
		    p->first, p->last);
	return -1;
}

int
uidpool_take(const struct uidpool *p, const char *lease_id,
    struct uid_hold *h, char *err, size_t errlen)
{
	h->fd = -1;
	h->fresh = 0;
	return allocate(p, "lease", lease_id, h, err, errlen);
}

/* The recorded uid of key: 1 found, 0 none, -1 unusable. */
static int
lookup_key(const struct uidpool *p, const char *key, uint32_t *uid)
{
	char path[PATH_MAX + UIDPOOL_KEY_MAX + 2], buf[32];
	int fd, rc;

	snprintf(path, sizeof path, "%s/%s", p->regdir, key);
	fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	rc = decnum_parse(buf, read_entry(fd, buf, sizeof buf), uid);
	close(fd);
	return rc == 0 && *uid >= p->first && *uid <= p->last ? 1 : -1;
}

static int
record_key(const struct uidpool *p, const char *key, uint32_t uid)
{
	char path[PATH_MAX + UIDPOOL_KEY_MAX + 2];
	char tmp[PATH_MAX + UIDPOOL_KEY_MAX + 8], num[24];
	int fd, n = snprintf(num, sizeof num, "%u\n", uid);

	snprintf(path, sizeof path, "%s/%s", p->regdir, key);
	snprintf(tmp, sizeof tmp, "%s/.%s.tmp", p->regdir, key);
	fd = openat(AT_FDCWD, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
	    O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	if (write(fd, num, (size_t)n) != n || fsync(fd) != 0) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	close(fd);
	return rename(tmp, path);
}

/* Hold key's recorded uid shared. 1 held, 0 the record moved meanwhile
 * (the uid was released: look again), -1 error. */
static int
hold_key(const struct uidpool *p, const char *key, uint32_t uid,
    struct uid_hold *h, char *err, size_t errlen)
{
	char buf[256], shown[256];
	struct uidpool_entry entry;
	uint32_t now;
	int fd;

	if ((fd = open_entry(p, uid)) < 0) {
		snprintf(err, errlen, "uid table: %s", strerror(errno));
		return -1;
	}
	/* a releasing lease of the key may hold it exclusively for a sweep */
	for (int i = 0; flock(fd, LOCK_SH | LOCK_NB) != 0; i++) {
		if (i == 5000) {
			close(fd);
			snprintf(err, errlen, "uid %u stays locked", uid);
			return -1;
		}
		pause_ms(1);
	}
	uidpool_entry_parse(buf, read_entry(fd, buf, sizeof buf), &entry);
	if (entry.kind != UIDPOOL_ENTRY_REG || entry.name_len != strlen(key) ||
	    memcmp(entry.name, key, entry.name_len) != 0) {
		close(fd);
		if (lookup_key(p, key, &now) != 1 || now != uid)
			return 0;
		printable(shown, sizeof shown, buf, entry.line_len);
		snprintf(err, errlen, "uid table: uid %u is recorded for %s "
		    "but its entry says '%s'", uid, key, shown);
		return -1;
	}
	h->uid = uid;
	h->fd = fd;
	h->shared = 1;
	return 1;
}

int
uidpool_take_key(const struct uidpool *p, const char *key,
    struct uid_hold *h, char *err, size_t errlen)
{
	char path[PATH_MAX + UIDPOOL_KEY_MAX + 2];
	uint32_t uid = 0;
	int rc;

	h->fd = -1;
	h->fresh = 0;
	if (!key_valid(key, strlen(key))) {
		snprintf(err, errlen, "uid table: bad registration key");
		return -1;
	}
	snprintf(path, sizeof path, "%s/%s", p->regdir, key);
	/* a second look only when the uid was released under us */
	for (int attempt = 0; attempt < 3; attempt++) {
		rc = lookup_key(p, key, &uid);
		if (rc == 0) {
			uint32_t cur;
			int cfd;

			/* allocate under the cursor lock; the record is
			 * written before that lock drops, so two leases of
			 * one new key cannot both allocate (the second
			 * finds the record) */
			if ((cfd = lock_cursor(p, &cur)) < 0) {
				snprintf(err, errlen, "uid table: %s",
				    strerror(errno));
				return -1;
			}
			rc = lookup_key(p, key, &uid);
			close(cfd);
			if (rc == 0) {
				struct uid_hold tmp;

				if (allocate(p, "reg", key, &tmp, err,
				    errlen) != 0)
					return -1;
				uid = tmp.uid;
				if (record_key(p, key, uid) != 0) {
					(void)write_entry(tmp.fd, "free",
					    NULL);
					close(tmp.fd);
					snprintf(err, errlen, "uid table: "
					    "cannot record %s: %s", key,
					    strerror(errno));
					return -1;
				}
				close(tmp.fd);
				h->fresh = 1;
			}
		}
		if (rc < 0) {
			snprintf(err, errlen, "uid table: the record of %s is "
			    "unusable", key);
			return -1;
		}
		rc = hold_key(p, key, uid, h, err, errlen);
		if (rc < 0)
			return -1;
		if (rc == 1) {
			/* least recently used goes first when reclaimed */
			(void)utimensat(AT_FDCWD, path, NULL, 0);
			return 0;
		}
	}
	snprintf(err, errlen, "uid table: the uid of %s keeps being released",
	    key);
	return -1;
}

int
uidpool_idle_key(const struct uidpool *p, const char *key,
    void (*fn)(void *ctx, uint32_t uid), void *ctx)
{
	char named[UIDPOOL_KEY_MAX + 1];
	uint32_t uid;
	int fd, ran = 0;

	if (!key_valid(key, strlen(key)) || lookup_key(p, key, &uid) != 1 ||
	    (fd = open_entry(p, uid)) < 0)
		return 0;
	if (idle_reg(fd, named) == 0 && strcmp(named, key) == 0) {
		fn(ctx, uid);
		ran = 1;
	}
	close(fd);
	return ran;
}

int
uidpool_drop_family(const struct uidpool *p, const char *key,
    size_t family_len)
{
	char other[UIDPOOL_KEY_MAX + 1];
	struct dirents d;
	struct dirent *e;
	int dropped = 0;

	if (dirents_open(&d, AT_FDCWD, p->regdir) != 0)
		return 0;
	while ((e = dirents_next(&d))) {
		size_t n = strlen(e->d_name);
		uint32_t uid;
		int fd;

		if (!key_valid(e->d_name, n) || n <= family_len ||
		    memcmp(e->d_name, key, family_len) != 0 ||
		    strcmp(e->d_name, key) == 0 ||
		    lookup_key(p, e->d_name, &uid) != 1 ||
		    (fd = open_entry(p, uid)) < 0)
			continue;
		if (idle_reg(fd, other) == 0 && strcmp(other, e->d_name) == 0 &&
		    release_reg(p, uid, fd, other) == 0)
			dropped++;
		close(fd);
	}
	dirents_close(&d);
	return dropped;
}

/* Who a uid of the range belongs to, by its entry in the table. */
enum owner { NOT_OURS, OURS_LIVE, OURS_STALE };

static enum owner
recorded_owner(const struct uidpool *p, uint32_t uid)
{
	char path[PATH_MAX + 16], buf[256];
	struct uidpool_entry entry;
	enum owner who = NOT_OURS;
	int fd;

	snprintf(path, sizeof path, "%s/%u", p->dir, uid);
	if ((fd = openat(AT_FDCWD, path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return NOT_OURS;	/* never handed out by this table */
	uidpool_entry_parse(buf, read_entry(fd, buf, sizeof buf), &entry);
	if (entry.kind == UIDPOOL_ENTRY_LEASE || entry.kind == UIDPOOL_ENTRY_REG)
		who = flock(fd, LOCK_EX | LOCK_NB) == 0 ? OURS_STALE :
		    OURS_LIVE;
	close(fd);
	return who;
}

static int
say_victim(void *ctx, const struct proc_owner *o)
{
	const uint32_t *uid = ctx;
	uint32_t u;

	if (proc_owner_in_range(o, *uid, *uid, &u))
		log_event(LOG_WARN, "uid sweep kills a leftover process",
		    (struct log_field[]){ LF_NUM("uid", *uid),
		    LF_NUM("pid", o->pid), LF_STR("comm", o->comm) }, 3);
	return 0;
}

static void
say_foreign(uint32_t uid, const struct proc_owner *o)
{
	log_event(LOG_WARN, "uid of the range held by a process this runner "
	    "did not start: skipped", (struct log_field[]){
	    LF_NUM("uid", uid), LF_NUM("pid", o->pid),
	    LF_STR("comm", o->pid > 0 ? o->comm : "(/proc unreadable)") }, 3);
}

/* Kill every process of uid, which the table records as a lease's whose
 * holder died, saying each one first. */
static int
sweep_ours(uint32_t uid)
{
	(void)procscan(-1, say_victim, &uid);
	return uid_kill_all(uid, uid, -1, NULL, NULL);
}

/* An id file's text: in first when it fits (the usual host's do: no
 * heap block mapped and unmapped per file), else in a block of its own. */
struct idtext {
	uint8_t *buf;
	size_t len;
	uint8_t first[8192];
};

static void
idtext_free(struct idtext *t)
{
	if (t->buf != t->first)
		free(t->buf);
}

/* Read an id file (path) of the host into t (idtext_free after): 1, or 0
 * when it is absent (an image FROM scratch has none), or -1 and a
 * message. */
static int
read_idfile(const struct uidpool *p, const char *path, struct idtext *t,
    char *err, size_t errlen)
{
	if (file_read_in(path, 16u << 20, t->first, sizeof t->first, &t->buf,
	    &t->len) == 0)
		return 1;
	if (errno == ENOENT)
		return 0;
	snprintf(err, errlen, "--uid-range %u-%u: cannot check %s: %s",
	    p->first, p->last, path, strerror(errno));
	return -1;
}

/* An account of passwd/group (path) with an id in the range: -1 and a
 * message naming it; 0 when none (or the file is absent). */
static int
refuse_accounts(const struct uidpool *p, const char *path, const char *what,
    char *err, size_t errlen)
{
	struct idtext t;
	uint32_t id;
	char name[64];
	int found;

	if ((found = read_idfile(p, path, &t, err, errlen)) <= 0)
		return found;
	found = idfile_find_in_range((const char *)t.buf, t.len, p->first,
	    p->last, &id, name, sizeof name);
	idtext_free(&t);
	if (!found)
		return 0;
	log_escape(name, sizeof name, name, strlen(name));
	snprintf(err, errlen, "--uid-range %u-%u overlaps %s '%s' (id %u) in "
	    "%s: choose a range no account uses", p->first, p->last, what,
	    name, id, path);
	return -1;
}

/* A user's subordinate ids (subuid/subgid, path) in the range: -1 and a
 * message naming them. newuidmap lets that user run processes under those
 * host ids from a user namespace of their own: lease uids, then, whose
 * processes and files they could signal and read. 0 when none or absent. */
static int
refuse_subids(const struct uidpool *p, const char *path, char *err,
    size_t errlen)
{
	struct idtext t;
	uint32_t start, count;
	char name[64];
	int found;

	if ((found = read_idfile(p, path, &t, err, errlen)) <= 0)
		return found;
	found = idfile_find_subid_overlap((const char *)t.buf, t.len,
	    p->first, p->last, &start, &count, name, sizeof name);
	idtext_free(&t);
	if (!found)
		return 0;
	log_escape(name, sizeof name, name, strlen(name));
	snprintf(err, errlen, "--uid-range %u-%u overlaps ids %u-%u that %s "
	    "gives '%s' for user namespaces: choose a range outside every "
	    "subordinate range", p->first, p->last, start,
	    (unsigned)((uint64_t)start + count - 1), path, name);
	return -1;
}

#define CLAIM_STALE_MAX 64

struct claim {
	struct uidpool *p;
	uint32_t stale[CLAIM_STALE_MAX];
	size_t nstale;
	int more;			/* stale uids past the list */
	uint32_t foreign_uid;
	struct proc_owner foreign;
};

static int
classify(void *ctx, const struct proc_owner *o)
{
	struct claim *c = ctx;
	uint32_t uid;
	size_t i;

	if (!proc_owner_in_range(o, c->p->first, c->p->last, &uid))
		return 0;
	for (i = 0; i < c->p->nbusy && c->p->busy[i] != uid; i++)
		;
	if (i == c->p->nbusy && c->p->nbusy < UIDPOOL_BUSY_MAX)
		c->p->busy[c->p->nbusy++] = uid;
	else if (i == c->p->nbusy)
		c->p->busy_known = 0;
	switch (recorded_owner(c->p, uid)) {
	case OURS_LIVE:
		return 0;
	case OURS_STALE:
		for (i = 0; i < c->nstale && c->stale[i] != uid; i++)
			;
		if (i == c->nstale && c->nstale < CLAIM_STALE_MAX)
			c->stale[c->nstale++] = uid;
		else if (i == c->nstale)
			c->more = 1;
		return 0;
	case NOT_OURS:
		break;
	}
	c->foreign_uid = uid;
	c->foreign = *o;
	return 1;
}

int
uidpool_claim(struct uidpool *p, int check_only, char *err,
    size_t errlen)
{
	struct claim c;
	int swept = 0, rc;

	if (refuse_accounts(p, "/etc/passwd", "user", err, errlen) != 0 ||
	    refuse_accounts(p, "/etc/group", "group", err, errlen) != 0 ||
	    refuse_subids(p, "/etc/subuid", err, errlen) != 0 ||
	    refuse_subids(p, "/etc/subgid", err, errlen) != 0)
		return -1;
	do {
		memset(&c, 0, sizeof c);
		c.p = p;
		p->nbusy = 0;
		p->busy_known = 1;
		rc = procscan(-1, classify, &c);
		if (rc != 0)
			p->busy_known = 0;
		if (rc < 0) {
			snprintf(err, errlen, "--uid-range %u-%u: cannot read "
			    "/proc to check who holds its uids", p->first,
			    p->last);
			return -1;
		}
		if (rc == 1) {
			char comm[sizeof c.foreign.comm + 8];

			log_escape(comm, sizeof comm, c.foreign.comm,
			    strlen(c.foreign.comm));
			snprintf(err, errlen, "--uid-range %u-%u: uid %u is held "
			    "by process %d (%s), which this runner did not "
			    "start: choose a range no process uses", p->first,
			    p->last, c.foreign_uid, (int)c.foreign.pid, comm);
			return -1;
		}
		if (check_only)
			return 0;
		for (size_t i = 0; i < c.nstale; i++)
			swept += sweep_ours(c.stale[i]) == 0;
	} while (c.more);
	return swept;
}

int
uidpool_idle(const struct uidpool *p, uint32_t uid)
{
	int fd = open_entry(p, uid), idle;

	if (fd < 0)
		return 0;
	idle = flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);
	return idle;
}

/* Remove uid's IPC objects as the uid (IPC_RMID and mq_unlink are the
 * owner's right), when its processes are gone already; the fork only when
 * it has some (a fork and two scheduler round trips: ~20 ms on a loaded
 * 2-core host). 0 or -1. */
static int
uid_sweep_ipc(uint32_t uid, uint32_t gid)
{
	int any = ipcsweep_any(uid), st;
	pid_t pid;

	if (any == 0)
		return 0;
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		if (setgroups(0, NULL) != 0 || setresgid(gid, gid, gid) != 0 ||
		    setresuid(uid, uid, uid) != 0)
			_exit(2);
		_exit(ipcsweep_remove(uid) == 0 ? 0 : 3);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int
sweep(const struct uid_hold *h, enum uid_swept swept, pid_t watch,
    int *status, int *found)
{
	if (swept == UID_NOT_SWEPT)
		return uid_kill_all(h->uid, h->uid, watch, status, found);
	return swept == UID_PROCS_GONE ? uid_sweep_ipc(h->uid, h->uid) : 0;
}

int
uidpool_release(const struct uidpool *p, struct uid_hold *h,
    enum uid_swept swept, pid_t watch, int *status, int *found)
{
	int rc = 0;

	(void)p;
	if (h->fd < 0)
		return 0;
	if (h->shared) {
		/* sweep only when no other lease of the key is live */
		if (swept != UID_SWEPT && flock(h->fd, LOCK_EX | LOCK_NB) == 0)
			rc = sweep(h, swept, watch, status, found);
	} else {
		rc = sweep(h, swept, watch, status, found);
		if (rc == 0 && write_entry(h->fd, "free", NULL) != 0)
			rc = -1;
	}
	close(h->fd);
	h->fd = -1;
	return rc;
}
