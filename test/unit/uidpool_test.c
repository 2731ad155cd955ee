/* uidpool_test.c - the uid table's files: the entry and number parsers on
 * their edges (a number strtoul would wrap into the range, signs, spaces,
 * leading zeros, embedded NUL), the record format round trip, and the
 * table itself in a scratch state directory, on a range no process runs
 * as (nothing is swept, so no root is needed): take, release, a torn
 * cursor, a registration entry never handed out, and a record that
 * does not spell a uid of the range refused as unusable. As root (the
 * sweep drops to the uid), the release of registration uids: the least
 * recently used idle one when the range is full, a registration's
 * earlier approvals, never a held one, nothing after a failed purge; and
 * on a full state volume (a tmpfs of our own) the refusal says "no space"
 * and names it, never "every uid ... is in use". A one-shot table (a
 * sandbox run) allocates on its claim's scan of /proc: a uid whose entry
 * is not "free", or that the claim saw with a process, is scanned again
 * (its leftover killed, a process the table did not start skipped). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/fileio.h"
#include "common/base/decnum.h"
#include "common/jail/uidpool.h"
#include "tap.h"

#define FIRST 3900000000u	/* a range nothing runs as */
#define LAST (FIRST + 3)

struct num_case {
	const char *text;
	size_t len;		/* 0: strlen(text) */
	int ok;
	uint32_t v;
};

static void
test_number(void)
{
	static const struct num_case cases[] = {
		{ "0", 0, 1, 0 },
		{ "1000", 0, 1, 1000 },
		{ "1000\n", 0, 1, 1000 },
		{ "3900000001\n                ", 0, 1, 3900000001u },
		{ "4294967295", 0, 1, 4294967295u },
		{ "4294967296", 0, 0, 0 },	/* one over */
		{ "4294968296", 0, 0, 0 },	/* strtoul + cast gave 1000 */
		{ "8194967296\n", 0, 0, 0 },	/* ... and this FIRST */
		{ "99999999999999999999", 0, 0, 0 },
		{ "-4294966296", 0, 0, 0 },	/* strtoul negates: 1000 */
		{ "+1000", 0, 0, 0 },
		{ " 1000", 0, 0, 0 },
		{ "1000 ", 0, 0, 0 },
		{ "1000x", 0, 0, 0 },
		{ "1000\r\n", 0, 0, 0 },
		{ "01000", 0, 0, 0 },
		{ "00", 0, 0, 0 },
		{ "", 0, 0, 0 },
		{ "\n1000", 0, 0, 0 },
		{ "10\0" "00", 5, 0, 0 },	/* embedded NUL */
		{ "1000", 2, 1, 10 },		/* the length is the length */
	};
	int all = 1;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct num_case *c = &cases[i];
		size_t len = c->len ? c->len : strlen(c->text);
		uint32_t v = 7;
		int rc = decnum_parse(c->text, len, &v);

		if ((rc == 0) != c->ok || (c->ok && v != c->v) ||
		    (!c->ok && v != 7)) {
			printf("# number case %zu: rc %d v %u\n", i, rc, v);
			all = 0;
		}
	}
	ok(all, "%zu numbers parsed or refused as they should be",
	    sizeof cases / sizeof cases[0]);
}

struct entry_case {
	const char *text;
	size_t len;		/* 0: strlen(text) */
	enum uidpool_entry_kind kind;
	const char *name;	/* LEASE, REG: name_len bytes */
	size_t name_len;
};

static void
test_entry(void)
{
	static const struct entry_case cases[] = {
		{ "free", 0, UIDPOOL_ENTRY_FREE, NULL, 0 },
		{ "free\n      ", 0, UIDPOOL_ENTRY_FREE, NULL, 0 },
		{ "free\0junk", 9, UIDPOOL_ENTRY_STALE, NULL, 0 },
		{ "free ", 0, UIDPOOL_ENTRY_STALE, NULL, 0 },
		{ "freedom", 0, UIDPOOL_ENTRY_STALE, NULL, 0 },
		{ "FREE", 0, UIDPOOL_ENTRY_STALE, NULL, 0 },
		{ "", 0, UIDPOOL_ENTRY_STALE, NULL, 0 },
		{ "\nfree", 0, UIDPOOL_ENTRY_STALE, NULL, 0 },
		{ "lease 3f9a\n   ", 0, UIDPOOL_ENTRY_LEASE, "3f9a", 4 },
		{ "lease", 0, UIDPOOL_ENTRY_STALE, NULL, 0 },
		{ "lease ", 0, UIDPOOL_ENTRY_LEASE, "", 0 },
		{ "reg acme+w\n", 0, UIDPOOL_ENTRY_REG, "acme+w", 6 },
		{ "reg acme+w\nreg other", 0, UIDPOOL_ENTRY_REG, "acme+w", 6 },
		/* torn, but still a registration's */
		{ "reg ", 0, UIDPOOL_ENTRY_REG, "", 0 },
		{ "reg", 0, UIDPOOL_ENTRY_STALE, NULL, 0 },
		{ "reg a\0b", 7, UIDPOOL_ENTRY_REG, "a\0b", 3 },
		{ "reg acme+w", 5, UIDPOOL_ENTRY_REG, "a", 1 },
	};
	int all = 1;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct entry_case *c = &cases[i];
		struct uidpool_entry e;

		uidpool_entry_parse(c->text, c->len ? c->len : strlen(c->text),
		    &e);
		if (e.kind != c->kind || (c->name ? !e.name ||
		    e.name_len != c->name_len || memcmp(e.name, c->name,
		    c->name_len) != 0 : e.name != NULL)) {
			printf("# entry case %zu: kind %d\n", i, (int)e.kind);
			all = 0;
		}
	}
	ok(all, "%zu entries classified as they should be",
	    sizeof cases / sizeof cases[0]);
}

static void
test_format(void)
{
	char line[UIDPOOL_ENTRY_SIZE], name[UIDPOOL_ENTRY_SIZE];
	struct uidpool_entry e;
	size_t max = UIDPOOL_ENTRY_SIZE - sizeof "lease \n";
	uint32_t v;

	ok(uidpool_entry_format(line, "lease", "abc") == 0 &&
	    memcmp(line, "lease abc\n ", 11) == 0 &&
	    line[UIDPOOL_ENTRY_SIZE - 1] == ' ', "a record is the line padded "
	    "with spaces to %d bytes", UIDPOOL_ENTRY_SIZE);
	memset(name, 'n', max);
	name[max] = '\0';
	ok(uidpool_entry_format(line, "lease", name) == 0 &&
	    (uidpool_entry_parse(line, sizeof line, &e), 1) &&
	    e.kind == UIDPOOL_ENTRY_LEASE && e.name_len == max,
	    "the longest name that fits (%zu bytes) reads back", max);
	name[max] = 'n';
	name[max + 1] = '\0';
	ok(uidpool_entry_format(line, "lease", name) == -1,
	    "one byte more is refused");
	ok(uidpool_entry_format(line, "reg", "a\nfree") == -1,
	    "a name with a newline is refused: it would read back as another "
	    "entry");
	ok(uidpool_entry_format(line, "4294967295", NULL) == 0 &&
	    decnum_parse(line, sizeof line, &v) == 0 &&
	    v == 4294967295u, "a cursor record reads back");
}

static char state[64];

static int
put_file(const char *rel, const char *data, size_t n)
{
	char path[256];

	snprintf(path, sizeof path, "%s/%s", state, rel);
	return file_replace(path, data, n, 0600);
}

static void
remove_rel(const char *rel)
{
	char path[256];

	snprintf(path, sizeof path, "%s/%s", state, rel);
	remove(path);
}

/* Remove the pool's uid table: an entry per uid, the cursor, the folder. */
static void
remove_uids(void)
{
	char name[64];

	for (uint32_t u = FIRST; u <= LAST; u++) {
		snprintf(name, sizeof name, "uids/%u", u);
		remove_rel(name);
	}
	remove_rel("uids/next");
	remove_rel("uids");
}

static int
file_is(const char *rel, const char *want, size_t n)
{
	char path[256], buf[512];
	ssize_t got;
	int fd;

	snprintf(path, sizeof path, "%s/%s", state, rel);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	got = read(fd, buf, sizeof buf);
	close(fd);
	return got == (ssize_t)n && memcmp(buf, want, n) == 0;
}

static void
test_table(void)
{
	struct uidpool p;
	struct uid_hold h, h2;
	char err[256], rec[UIDPOOL_ENTRY_SIZE], name[64];
	int rc;

	snprintf(state, sizeof state, "/tmp/uidpool_test.XXXXXX");
	if (!mkdtemp(state)) {
		tap_skip("the uid table", "mkdtemp failed");
		return;
	}
	if (uidpool_init(&p, state, FIRST, LAST, err, sizeof err) != 0) {
		ok(0, "uidpool_init: %s", err);
		return;
	}
	rc = uidpool_take(&p, "l1", &h, err, sizeof err);
	ok(rc == 0 && h.uid == FIRST && !h.shared, "a lease takes the "
	    "range's first uid: %s", rc ? err : "ok");
	snprintf(name, sizeof name, "uids/%u", FIRST);
	uidpool_entry_format(rec, "lease", "l1");
	ok(file_is(name, rec, sizeof rec), "its entry reads 'lease l1'");
	uidpool_entry_format(rec, "3900000001", NULL);
	ok(file_is("uids/next", rec, sizeof rec), "the cursor moved on");
	ok(uidpool_release(&p, &h, 1, -1, NULL, NULL) == 0 && h.fd == -1,
	    "release");
	uidpool_entry_format(rec, "free", NULL);
	ok(file_is(name, rec, sizeof rec), "the entry is free again");

	/* a torn registration entry is never handed out; a torn cursor
	 * restarts at the range's first uid */
	snprintf(name, sizeof name, "uids/%u", FIRST + 1);
	put_file(name, "reg ", 4);
	put_file("uids/next", "+3900000001\n", 12);
	rc = uidpool_take(&p, "l2", &h, err, sizeof err);
	ok(rc == 0 && h.uid == FIRST, "a cursor that is not canonical "
	    "restarts at the first uid (got %u)", h.uid);
	rc = uidpool_take(&p, "l3", &h2, err, sizeof err);
	ok(rc == 0 && h2.uid == FIRST + 2, "a registration's entry, even "
	    "torn, is skipped (got %u)", h2.uid);
	uidpool_release(&p, &h, 1, -1, NULL, NULL);
	uidpool_release(&p, &h2, 1, -1, NULL, NULL);

	/* registrations: the record names the uid, the entry confirms it */
	snprintf(name, sizeof name, "uids/%u", FIRST + 3);
	uidpool_entry_format(rec, "reg", "acme+w");
	put_file(name, rec, sizeof rec);
	put_file("registrations/acme+w", "3900000003\n", 11);
	ok(uidpool_take_key(&p, "acme+w", &h, err, sizeof err) == 0 &&
	    h.uid == FIRST + 3 && h.shared, "a recorded key gets its uid");
	uidpool_release(&p, &h, 1, -1, NULL, NULL);
	/* FIRST + 3 + 2^32: strtoul and a cast to uint32_t made it
	 * FIRST + 3, a uid the record never spelt */
	put_file("registrations/acme+w", "8194967299\n", 11);
	ok(uidpool_take_key(&p, "acme+w", &h, err, sizeof err) == -1 &&
	    strcmp(err, "uid table: the record of acme+w is unusable") == 0,
	    "a record over 32 bits is unusable, not wrapped: %s", err);
	put_file("registrations/acme+w", " 3900000003\n", 12);
	ok(uidpool_take_key(&p, "acme+w", &h, err, sizeof err) == -1,
	    "a record with a leading space is unusable");
	put_file("registrations/acme+w", "3900000003\n", 11);
	put_file(name, "reg acme+w\0x\n", 13);
	ok(uidpool_take_key(&p, "acme+w", &h, err, sizeof err) == -1 &&
	    strstr(err, "its entry says 'reg acme+w?x'"), "an entry that "
	    "only matches up to a NUL is refused, shown escaped: %s", err);
	put_file(name, "reg other\x1b[2J\n", 15);
	ok(uidpool_take_key(&p, "acme+w", &h, err, sizeof err) == -1 &&
	    strstr(err, "says 'reg other?[2J'"), "another key's entry is "
	    "refused, control bytes escaped: %s", err);

	/* clean up */
	remove_uids();
	remove_rel("registrations/acme+w");
	remove_rel("registrations");
	rmdir(state);
}

/* The purge hook's calls, and whether it fails. */
static char purged[8][UIDPOOL_KEY_MAX + 1];
static size_t npurged;
static int purge_fails;

static int
purge_hook(const char *st, uint32_t uid, const char *key)
{
	(void)st;
	(void)uid;
	if (purge_fails)
		return -1;
	snprintf(purged[npurged++ % 8], sizeof purged[0], "%s", key);
	return 0;
}

static int
took(struct uidpool *p, const char *key, uint32_t *uid, int *fresh)
{
	struct uid_hold h;
	char err[256];

	if (uidpool_take_key(p, key, &h, err, sizeof err) != 0)
		return -1;
	*uid = h.uid;
	*fresh = h.fresh;
	return uidpool_release(p, &h, 1, -1, NULL, NULL);
}

static int
exists(const char *rel)
{
	char path[256];

	snprintf(path, sizeof path, "%s/%s", state, rel);
	return access(path, F_OK) == 0;
}

/* Registration uids are released: the least recently used idle one when
 * the range is full, a registration's earlier approvals on demand; never
 * one a lease holds, never without the purge hook's success. Releasing
 * sweeps the uid (uid_kill_all drops to it): root only. */
static void
test_release(void)
{
	struct uidpool p;
	struct uid_hold held;
	uint32_t u[6];
	char err[256], name[64], rec[UIDPOOL_ENTRY_SIZE];
	int fresh;

	if (geteuid() != 0) {
		tap_skip("registration uids are released", "needs root (the "
		    "sweep drops to the uid)");
		return;
	}
	snprintf(state, sizeof state, "/tmp/uidpool_test.XXXXXX");
	if (!mkdtemp(state) || uidpool_init(&p, state, FIRST, LAST, err,
	    sizeof err) != 0) {
		ok(0, "a scratch table: %s", err);
		return;
	}
	p.purge = purge_hook;
	ok(took(&p, "t+a", &u[0], &fresh) == 0 && fresh &&
	    took(&p, "t+b", &u[1], &fresh) == 0 &&
	    took(&p, "t+c", &u[2], &fresh) == 0 &&
	    took(&p, "t+d", &u[3], &fresh) == 0 && fresh,
	    "four registrations fill the four uids");
	usleep(20000);
	ok(took(&p, "t+a", &u[4], &fresh) == 0 && u[4] == u[0] && !fresh,
	    "a repeat lease gets its uid again (not fresh), and is now the "
	    "most recently used");
	ok(took(&p, "t+e", &u[5], &fresh) == 0 && fresh && u[5] == u[1] &&
	    npurged == 1 && strcmp(purged[0], "t+b") == 0 &&
	    !exists("registrations/t+b"), "a fifth registration reclaims "
	    "the least recently used idle uid (t+b's), purged first, its "
	    "record gone");
	ok(took(&p, "t+b", &u[4], &fresh) == 0 && fresh && u[4] == u[2],
	    "t+b comes back as a new registration (t+c's uid, the next "
	    "least recently used)");

	/* a held uid is never reclaimed, a failed purge releases nothing */
	npurged = 0;
	ok(uidpool_take_key(&p, "t+d", &held, err, sizeof err) == 0,
	    "a lease holds t+d");
	purge_fails = 1;
	ok(uidpool_take_key(&p, "t+f", &(struct uid_hold){ 0 }, err,
	    sizeof err) == -1 && exists("registrations/t+a") &&
	    exists("registrations/t+e") && exists("registrations/t+b"),
	    "a failing purge: nothing released, no uid handed out: %s", err);
	purge_fails = 0;
	uidpool_release(&p, &held, 1, -1, NULL, NULL);

	/* one registration's approvals: the others of its family go */
	took(&p, "t+r+A", &u[0], &fresh);
	took(&p, "t+r+B", &u[1], &fresh);
	took(&p, "t+r+C", &u[2], &fresh);
	npurged = 0;
	ok(uidpool_take_key(&p, "t+r+B", &held, err, sizeof err) == 0,
	    "a lease holds approval B");
	ok(uidpool_drop_family(&p, "t+r+C", 4) == 1 && npurged == 1 &&
	    strcmp(purged[0], "t+r+A") == 0 && !exists("registrations/t+r+A")
	    && exists("registrations/t+r+B") && exists("registrations/t+r+C"),
	    "dropping the family of t+r+C releases idle A, keeps held B and "
	    "C itself");
	uidpool_release(&p, &held, 1, -1, NULL, NULL);
	snprintf(name, sizeof name, "uids/%u", u[0]);
	uidpool_entry_format(rec, "free", NULL);
	ok(file_is(name, rec, sizeof rec), "A's entry is free");
	ok(uidpool_take_key(&p, "../x", &held, err, sizeof err) == -1,
	    "a key that is not a plain name is refused: %s", err);

	remove_uids();
	for (const char *const *k = (const char *const []){ "t+a", "t+b",
	    "t+c", "t+d", "t+e", "t+f", "t+r+A", "t+r+B", "t+r+C", NULL };
	    *k; k++) {
		snprintf(name, sizeof name, "registrations/%s", *k);
		remove_rel(name);
	}
	remove_rel("registrations");
	rmdir(state);
}

/* A full volume: a never-used uid's entry cannot get its first block. */
static void
test_full(void)
{
	char vol[] = "/tmp/uidpool-full.XXXXXX", err[256], path[64];
	static char block[4096];
	struct uidpool p;
	struct uid_hold h;
	int fd, rc;

	if (geteuid() != 0 || !mkdtemp(vol)) {
		tap_skip("a full state volume", "needs root (a tmpfs)");
		return;
	}
	if (mount("tmpfs", vol, "tmpfs", 0, "size=256k,mode=0700") != 0) {
		tap_skip("a full state volume", "cannot mount a tmpfs");
		rmdir(vol);
		return;
	}
	rc = uidpool_init(&p, vol, FIRST, LAST, err, sizeof err);
	snprintf(path, sizeof path, "%s/fill", vol);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	while (fd >= 0 && write(fd, block, sizeof block) > 0)
		;
	if (fd >= 0)
		close(fd);
	ok(rc == 0 && uidpool_take(&p, "lease1", &h, err, sizeof err) != 0 &&
	    strstr(err, "no space on the state volume") &&
	    strstr(err, vol) && !strstr(err, "every uid"),
	    "a full state volume is refused as such: %s", err);
	umount2(vol, MNT_DETACH);
	rmdir(vol);
}

/* A process of uid, alive until killed: its pid, or -1. */
static pid_t
run_as(uint32_t uid)
{
	int fds[2];
	char c;
	pid_t pid;

	if (pipe(fds) != 0)
		return -1;
	if ((pid = fork()) == 0) {
		/* no copy of the caller's entry fds: their flocks would
		 * live on in this process */
		for (int fd = 3; fd < 1024; fd++)
			if (fd != fds[1])
				close(fd);
		if (setresgid(uid, uid, uid) != 0 ||
		    setresuid(uid, uid, uid) != 0 || write(fds[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (pid > 0 && read(fds[0], &c, 1) != 1) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(fds[0]);
	return pid;
}

/* pid is gone (reaped here, or by the sweep that killed it). */
static int
gone(pid_t pid)
{
	waitpid(pid, NULL, WNOHANG);
	return kill(pid, 0) != 0 && errno == ESRCH;
}

/* take_after_claim: a claim that sees no process of uid, then a
 * process of uid started after it (one the table does not know of),
 * then a take from uid on: the uid handed out, and the process, which
 * the caller ends */
static uint32_t
take_after_claim(struct uidpool *p, uint32_t uid, pid_t *pid)
{
	char err[256], rec[UIDPOOL_ENTRY_SIZE], num[16];
	struct uid_hold h;
	uint32_t got = 0;

	snprintf(num, sizeof num, "%u", uid);
	uidpool_entry_format(rec, num, NULL);
	if (uidpool_claim(p, 0, err, sizeof err) != 0)
		return 0;
	*pid = run_as(uid);
	put_file("uids/next", rec, sizeof rec);
	if (uidpool_take(p, "u", &h, err, sizeof err) == 0) {
		got = h.uid;
		uidpool_release(p, &h, UID_SWEPT, -1, NULL, NULL);
	}
	return got;
}

static void
end_process(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* An entry never written (empty: an entry is never shortened) is taken
 * on the claim's word like a "free" one; a torn one (bytes that are no
 * record) is scanned again. Each shown by a process of the uid started
 * after the claim: seen only by a scan. */
static void
test_one_shot_unwritten(struct uidpool *p)
{
	char name[64];
	uint32_t got;
	pid_t pid = -1;

	snprintf(name, sizeof name, "uids/%u", FIRST + 2);
	put_file(name, "", 0);
	got = take_after_claim(p, FIRST + 2, &pid);
	ok(got == FIRST + 2 && pid > 0 && !gone(pid), "one-shot: a "
	    "never-written entry is handed out on the claim's word, no "
	    "second scan (got %u; the process started after the claim is "
	    "not seen)", got);
	end_process(pid);
	snprintf(name, sizeof name, "uids/%u", FIRST + 3);
	put_file(name, "lea", 3);
	pid = -1;
	got = take_after_claim(p, FIRST + 3, &pid);
	ok(got != FIRST + 3 && pid > 0 && !gone(pid), "one-shot: a torn "
	    "entry is scanned: its uid, with a process not the table's, is "
	    "not handed out (got %u)", got);
	end_process(pid);
}

static void
test_one_shot(void)
{
	char err[256], rec[UIDPOOL_ENTRY_SIZE], name[64];
	struct uid_hold h, live;
	struct uidpool p;
	pid_t pid;
	int rc;

	snprintf(state, sizeof state, "/tmp/uidpool_test.XXXXXX");
	if (geteuid() != 0 || !mkdtemp(state)) {
		tap_skip("a one-shot table", "needs root (processes of the "
		    "range's uids)");
		return;
	}
	if (uidpool_init(&p, state, FIRST, LAST, err, sizeof err) != 0) {
		ok(0, "uidpool_init: %s", err);
		return;
	}
	p.one_shot = 1;
	snprintf(name, sizeof name, "uids/%u", FIRST);

	/* a dead lease's entry: its uid is scanned, whatever the claim saw */
	uidpool_entry_format(rec, "lease", "dead");
	put_file(name, rec, sizeof rec);
	rc = uidpool_claim(&p, 0, err, sizeof err);
	pid = run_as(FIRST);
	ok(rc == 0 && pid > 0 && uidpool_take(&p, "l1", &h, err, sizeof err)
	    == 0 && h.uid == FIRST && gone(pid), "one-shot: a dead lease's "
	    "uid is scanned at allocation, its process started after the "
	    "claim killed before the uid is handed out");
	uidpool_release(&p, &h, UID_SWEPT, -1, NULL, NULL);

	/* the claim saw a process of FIRST (a live lease's); its entry
	 * then reads "free" (a holder that said it swept and did not) */
	uidpool_entry_format(rec, "3900000000", NULL);
	put_file("uids/next", rec, sizeof rec);
	rc = uidpool_take(&p, "l2", &live, err, sizeof err);
	pid = run_as(FIRST);
	rc = rc || pid < 0 || uidpool_claim(&p, 0, err, sizeof err) != 0;
	uidpool_release(&p, &live, UID_SWEPT, -1, NULL, NULL);
	put_file("uids/next", rec, sizeof rec);
	ok(!rc && uidpool_take(&p, "l3", &h, err, sizeof err) == 0 &&
	    h.uid == FIRST + 1 && !gone(pid), "one-shot: a uid the claim saw "
	    "with a process is scanned again: not handed out (got %u), the "
	    "process not the table's is left alone", h.uid);
	uidpool_release(&p, &h, UID_SWEPT, -1, NULL, NULL);
	/* B: without the claim's note the scan is skipped for a free
	 * entry: what the note is for */
	p.nbusy = 0;
	put_file("uids/next", rec, sizeof rec);
	ok(uidpool_take(&p, "l4", &h, err, sizeof err) == 0 &&
	    h.uid == FIRST, "A/B: with the note emptied the same free entry "
	    "is handed out on the claim's word (got %u)", h.uid);
	uidpool_release(&p, &h, UID_SWEPT, -1, NULL, NULL);
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	test_one_shot_unwritten(&p);
	remove_uids();
	rmdir(state);
}

int
main(void)
{
	test_number();
	test_entry();
	test_format();
	test_table();
	test_release();
	test_full();
	test_one_shot();
	return tap_done();
}
