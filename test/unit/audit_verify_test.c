/* audit_verify_test.c - the checks `review audit --verify` adds to the
 * chain, over hand-built entry lists and a real store: a kept head that
 * is cut off or rewritten, a record event the log lacks (removed, cut off,
 * reordered), an entry naming a deleted record, and a revoked token no
 * entry revokes. Each attack next to the same list intact, so a check
 * that always passes (or always fails) is caught. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/policy/audit_verify.h"
#include "tap.h"

/* The entries of a hand-built log: seq, time, actor, action, record,
 * detail; status follows from the action. */
struct ent {
	uint64_t seq, time;
	const char *actor, *action, *record, *detail;
};

static struct record_line_item
item(const char *s)
{
	return (struct record_line_item){ (const uint8_t *)s, strlen(s) };
}

static const char *
status_after(const char *action)
{
	return strcmp(action, "submit") == 0 ? "PENDING" :
	    strcmp(action, "reject") == 0 ? "REJECTED" :
	    strcmp(action, "revoke") == 0 ? "REVOKED" : "APPROVED";
}

static void
build(struct audit_entries *e, const struct ent *x, size_t n)
{
	audit_entries_free(e);
	for (size_t i = 0; i < n; i++) {
		struct audit_view v = { .seq = x[i].seq, .time = x[i].time };

		v.actor = item(x[i].actor);
		v.action = item(x[i].action);
		v.record = item(x[i].record);
		v.status = item(status_after(x[i].action));
		v.detail = item(x[i].detail);
		memset(v.hash, (int)x[i].seq, sizeof v.hash);
		audit_entries_add(e, &v);
	}
}

static void
test_head(void)
{
	static const struct ent log[] = {
		{ 1, 100, "alice", "submit", "r000001", "" },
		{ 2, 200, "bob", "approve", "r000001", "" },
	};
	char h1[2 * AUDIT_HASH_LEN + 1], h2[sizeof h1];
	struct audit_entries e = { 0 };

	build(&e, log, 2);
	audit_hash_text(e.v[0].hash, h1);
	audit_hash_text(e.v[1].hash, h2);
	ok(strlen(h1) == 64 && strncmp(h1, "0101", 4) == 0,
	    "a hash is 64 lowercase hex digits");
	ok(audit_check_head(&e, 2, h2) == 0 && audit_check_head(&e, 1, h1) ==
	    0, "a kept head still there: ok (the last and an earlier one)");
	ok(audit_check_head(&e, 2, h1) == -1, "entry 2 with entry 1's hash: "
	    "rewritten");
	ok(audit_check_head(&e, 3, h2) == -1, "3 kept, 2 left: cut off");
	ok(audit_check_head(&e, 0, h1) == -1, "entry 0 does not exist");
	build(&e, log, 1);
	ok(audit_check_head(&e, 2, h2) == -1, "the last entry cut off");
	audit_entries_free(&e);
}

static int
put(struct store *s, const char *id, const struct store_event *ev,
    size_t nev)
{
	struct store_rec r = { .id = id, .tenant = "acme",
		.registration = "github", .source = STORE_CUSTOM,
		.argc = 1, .argv = { "npx", NULL }, .egress = "",
		.token = "", .nevents = nev };

	memcpy(r.events, ev, nev * sizeof *ev);
	r.status = ev[nev - 1].status;
	if (r.status == STORE_APPROVED)
		r.token = "TOKEN";	/* its form is not checked here */
	return store_write(s, &r);
}

/* problems found in the store for this log; -1 on an error */
static long
records(struct store *s, const struct ent *x, size_t n)
{
	struct audit_entries e = { 0 };
	size_t bad;
	int r;

	build(&e, x, n);
	r = audit_check_records(s, &e, &bad);
	if (r != 0)
		printf("# %s\n", s->err);
	audit_entries_free(&e);
	return r == 0 ? (long)bad : -1;
}

#define N(a) (sizeof a / sizeof *a)

static void
test_records(void)
{
	static const struct store_event r1[] = {
		{ 100, "alice", "submit", STORE_PENDING, "" },
		{ 200, "bob", "approve", STORE_APPROVED, "" },
	}, r2[] = {
		{ 150, "carol", "submit", STORE_PENDING, "" },
	};
	static const struct ent full[] = {
		{ 1, 100, "alice", "submit", "r000001", "" },
		{ 2, 150, "carol", "submit", "r000002", "" },
		{ 3, 200, "bob", "approve", "r000001", "" },
	}, cut[] = {
		{ 1, 100, "alice", "submit", "r000001", "" },
		{ 2, 150, "carol", "submit", "r000002", "" },
	}, removed[] = {
		{ 1, 100, "alice", "submit", "r000001", "" },
		{ 3, 200, "bob", "approve", "r000001", "" },
	}, reordered[] = {
		{ 1, 200, "bob", "approve", "r000001", "" },
		{ 2, 100, "alice", "submit", "r000001", "" },
		{ 3, 150, "carol", "submit", "r000002", "" },
	}, edited[] = {
		{ 1, 100, "alice", "submit", "r000001", "" },
		{ 2, 150, "carol", "submit", "r000002", "" },
		{ 3, 200, "mallory", "approve", "r000001", "" },
	}, extra[] = {
		{ 1, 100, "alice", "submit", "r000001", "" },
		{ 2, 150, "carol", "submit", "r000002", "" },
		{ 3, 200, "bob", "approve", "r000001", "" },
		{ 4, 300, "bob", "revoke", "r000001", "" },
	}, deleted[] = {
		{ 1, 100, "alice", "submit", "r000001", "" },
		{ 2, 150, "carol", "submit", "r000002", "" },
		{ 3, 200, "bob", "approve", "r000001", "" },
		{ 4, 250, "dave", "submit", "r000003", "" },
		{ 5, 260, "bob", "reject", "r000003", "" },
		{ 6, 270, "bob", "approve", "r000000", "" },
	}, crashed[] = {
		{ 1, 100, "alice", "submit", "r000001", "" },
		{ 2, 150, "carol", "submit", "r000002", "" },
		{ 3, 200, "bob", "approve", "r000001", "" },
		{ 4, 250, "dave", "submit", "r000003", "" },
	};
	char dir[] = "/tmp/audit_verify_test.XXXXXX", path[256];
	struct store s;
	int fd;

	if (!mkdtemp(dir)) {
		tap_skip("store directory", "mkdtemp failed");
		return;
	}
	snprintf(path, sizeof path, "%s/store", dir);
	if (!ok(store_open(&s, path, 1) == 0 && store_lock(&s) == 0 &&
	    put(&s, "r000001", r1, N(r1)) == 0 && put(&s, "r000002", r2,
	    N(r2)) == 0, "a store with two records")) {
		printf("# %s\n", s.err);
		return;
	}
	ok(records(&s, full, N(full)) == 0, "every event has its entry: 0");
	ok(records(&s, cut, N(cut)) == 1, "the last entry cut off: 1");
	ok(records(&s, removed, N(removed)) == 1, "a submit removed: 1");
	ok(records(&s, reordered, N(reordered)) == 1, "two entries of a "
	    "record swapped: 1");
	ok(records(&s, edited, N(edited)) == 1, "an entry's actor edited: 1");
	ok(records(&s, extra, N(extra)) == 0, "an entry the record lacks (a "
	    "crash before the write): a warning only");
	ok(records(&s, crashed, N(crashed)) == 0, "a submit of a record never "
	    "written: a warning only");
	ok(records(&s, deleted, N(deleted)) == 2, "a deleted record's reject, "
	    "and an approve of a record before the first: 2");
	ok(records(&s, NULL, 0) == 2, "an empty log against two records: 2");
	snprintf(path, sizeof path, "%s/store/records/stranger", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	close(fd);
	ok(records(&s, full, N(full)) == -1 && strstr(s.err, "stranger"),
	    "a store that cannot be listed: an error naming why");
	store_close(&s);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	ok(system(path) == 0, "clean up");
}

static size_t
revoked(const struct ent *x, size_t n, const uint8_t (*ids)[16], size_t nid)
{
	struct audit_entries e = { 0 };
	size_t bad;

	build(&e, x, n);
	bad = audit_check_revoked(&e, ids, nid, "STORE/revoked");
	audit_entries_free(&e);
	return bad;
}

static void
test_revoked(void)
{
	static const uint8_t ids[2][REVOCATION_ID_LEN] = { { 1 }, { 2 } };
	char t1[ECKEY_ID_TEXT], t2[ECKEY_ID_TEXT];
	char revoke1[64], renew2[64], other[64], glued[64], after[64];

	eckey_id_text(ids[0], t1);
	eckey_id_text(ids[1], t2);
	snprintf(revoke1, sizeof revoke1, "reason=x token=%s", t1);
	snprintf(renew2, sizeof renew2, "token=new supersedes=%s", t2);
	snprintf(other, sizeof other, "token=%s", t2);
	snprintf(glued, sizeof glued, "xtoken=%s", t1);
	snprintf(after, sizeof after, "token=%s reason=x", t1);
	const struct ent both[] = {
		{ 1, 100, "bob", "revoke", "r000001", revoke1 },
		{ 2, 200, "bob", "renew", "r000002", renew2 },
	}, only2[] = {
		{ 1, 200, "bob", "renew", "r000002", renew2 },
	}, wrong_action[] = {
		{ 1, 100, "bob", "approve", "r000001", revoke1 },
		{ 2, 200, "bob", "renew", "r000002", renew2 },
	}, wrong_token[] = {
		{ 1, 100, "bob", "revoke", "r000001", other },
		{ 2, 200, "bob", "renew", "r000002", renew2 },
	}, wrong_key[] = {
		{ 1, 100, "bob", "revoke", "r000001", glued },
		{ 2, 200, "bob", "renew", "r000002", renew2 },
	}, not_last[] = {
		{ 1, 100, "bob", "revoke", "r000001", after },
		{ 2, 200, "bob", "renew", "r000002", renew2 },
	};

	ok(revoked(both, N(both), ids, 2) == 0, "a revoke and a renew entry "
	    "for the two listed tokens: 0");
	ok(revoked(only2, N(only2), ids, 2) == 1, "a listed token no entry "
	    "revokes: 1");
	ok(revoked(NULL, 0, ids, 2) == 2, "an empty log, two listed: 2");
	ok(revoked(NULL, 0, ids, 0) == 0, "nothing listed: 0");
	ok(revoked(wrong_action, N(wrong_action), ids, 2) == 1, "token= on an "
	    "approve entry does not revoke: 1");
	ok(revoked(wrong_token, N(wrong_token), ids, 2) == 1, "a revoke of "
	    "another token: 1");
	ok(revoked(wrong_key, N(wrong_key), ids, 2) == 1, "xtoken= is not "
	    "token=: 1");
	ok(revoked(not_last, N(not_last), ids, 2) == 1, "the token must end "
	    "the detail, as revoke writes it: 1");
}

int
main(void)
{
	test_head();
	test_records();
	test_revoked();
	return tap_done();
}
