/* review_change_test.c - a change to a review record, on a real store:
 * submit, approve, renew's precondition and revoke leave the record, the
 * audit log (verified with the key) and the revocation list agreeing; a
 * token id is never issued twice; a changed record, another key or a
 * revoked token refuses renew; a full history, an unsigned approve and a
 * corrupt revocation list are refused with their cause, and the key is
 * wiped whatever happens. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/fileio.h"
#include "common/policy/audit.h"
#include "common/policy/revocation.h"
#include "common/policy/review_change.h"
#include "tap.h"
#include "test/helpers/test_key.h"

#define NOW 1700000000u
#define LIFE 86400u

static char dir[] = "/tmp/review_change_test.XXXXXX", store_dir[256];
static char err[PATH_MAX + 256];
static struct eckey_priv key;

static int
load_key(struct eckey_priv *k)
{
	const char *why;

	return eckey_priv_parse(test_key_sec1, strlen(test_key_sec1), k, &why);
}

/* A new record id submitted: the record and its unsigned entry. */
static enum review_fail
submit(const char *id, const char *pkg)
{
	struct store_rec rec = { .id = id, .tenant = "acme",
		.registration = "github", .source = STORE_CUSTOM, .argc = 3,
		.argv = { "npx", "-y", pkg, NULL }, .egress = "", .token = "" };
	struct review_event ev = { NOW, "alice", "submit", STORE_PENDING, "",
		"" };
	struct store s;
	enum review_fail f;

	if (store_open(&s, store_dir, 0) != 0 || store_lock(&s) != 0)
		return REVIEW_NO_STORE;
	f = review_audit(&s, &rec, &ev, NULL, err, sizeof err);
	if (f == REVIEW_OK)
		f = review_write(&s, &rec, err, sizeof err);
	return f;
}

/* Approve id at now: its token to token (and id to tid). */
static enum review_fail
approve(const char *id, uint64_t now, char *token, size_t cap,
    uint8_t tid[APPROVAL_ID_LEN])
{
	struct eckey_priv k;
	struct store_rec rec;
	struct store s;
	char detail[256];
	enum review_fail f;
	struct review_event ev = { now, "bob", "approve", STORE_APPROVED, "",
		detail };

	if (load_key(&k) != 0)
		return REVIEW_NO_TOKEN;
	if ((f = review_begin(&s, store_dir, id, &rec, err, sizeof err)) !=
	    REVIEW_OK)
		return f;
	f = review_sign(&s, &k, &rec, now, LIFE, token, cap, tid, detail,
	    sizeof detail, err, sizeof err);
	if (f == REVIEW_OK)
		f = review_commit(&s, &rec, &ev, &k, NULL, err, sizeof err);
	return f;
}

static int
log_verifies(size_t *count)
{
	struct audit_summary sum;
	char path[512];
	uint8_t *buf;
	size_t len, line;
	const char *why;
	int r;

	snprintf(path, sizeof path, "%s/audit.log", store_dir);
	if (file_read(path, 1u << 20, &buf, &len) != 0)
		return -1;
	r = audit_verify(buf, len, &key.pub, &sum, &line, &why, NULL, NULL);
	free(buf);
	*count = sum.count;
	return r;
}

static int
listed(const uint8_t id[APPROVAL_ID_LEN])
{
	struct revocation_set rev;
	char path[512];
	const char *why;
	int in;

	snprintf(path, sizeof path, "%s/revoked", store_dir);
	revocation_init(&rev, path, &key.pub);
	in = revocation_reload(&rev, &why) == 0 &&
	    revocation_contains(&rev, id);
	revocation_free(&rev);
	return in;
}

static void
test_begin(void)
{
	struct store_rec rec;
	struct store s;

	ok(review_begin(&s, dir, "r000001", &rec, err, sizeof err) ==
	    REVIEW_NO_STORE && strstr(err, dir), "not a store: NO_STORE, "
	    "naming it");
	ok(review_begin(&s, store_dir, "r000009", &rec, err, sizeof err) ==
	    REVIEW_CORRUPT && strstr(err, "r000009"), "a missing record: "
	    "CORRUPT, naming it");
	store_close(&s);
}

static void
test_approve(void)
{
	static char t1[APPROVAL_TOKEN_MAX + 1], t2[APPROVAL_TOKEN_MAX + 1];
	uint8_t id1[APPROVAL_ID_LEN], id2[APPROVAL_ID_LEN];
	struct approval a1, a2;
	struct store_rec rec;
	struct store s;
	size_t count;

	ok(submit("r000001", "@acme/tool@1.2.3") == REVIEW_OK &&
	    submit("r000002", "@acme/tool@1.2.3") == REVIEW_OK, "two "
	    "identical requests submitted");
	ok(approve("r000001", NOW, t1, sizeof t1, id1) == REVIEW_OK,
	    "the first approved");
	ok(review_begin(&s, store_dir, "r000001", &rec, err, sizeof err) ==
	    REVIEW_OK && rec.status == STORE_APPROVED && strcmp(rec.token,
	    t1) == 0 && rec.nevents == 2, "the record holds the token and "
	    "both events");
	store_rec_free(&rec);
	store_close(&s);
	ok(approve("r000002", NOW, t2, sizeof t2, id2) == REVIEW_OK &&
	    memcmp(id1, id2, sizeof id1) != 0, "the same request approved "
	    "in the same second: a new token id");
	ok(approval_peek(t1, strlen(t1), &a1) == 0 && approval_peek(t2,
	    strlen(t2), &a2) == 0 && a2.expires_at + 1 == a1.expires_at,
	    "made new by an expiry a second earlier");
	ok(log_verifies(&count) == 0 && count == 4, "the log verifies with "
	    "the key: 2 submits, 2 signed approves");
}

static void
test_renew_and_revoke(void)
{
	uint8_t old[APPROVAL_ID_LEN], id[APPROVAL_ID_LEN];
	struct eckey_priv k, other;
	struct store_rec rec;
	struct store s;
	const char *why, *pkg;
	size_t count;
	struct review_event ev = { NOW + 1, "bob", "revoke", STORE_REVOKED,
		"bad", NULL };
	char detail[8 + ECKEY_ID_TEXT], path[512], *saved;
	size_t saved_len;

	if (!ok(review_begin(&s, store_dir, "r000001", &rec, err, sizeof err)
	    == REVIEW_OK && load_key(&k) == 0 && eckey_generate(&other, &why)
	    == 0, "r000001 read under the lock"))
		return;
	ok(review_unchanged(&s, &rec, &k, old, err, sizeof err) == REVIEW_OK
	    && approval_token_id(rec.token, strlen(rec.token), id) == 0 &&
	    memcmp(old, id, sizeof id) == 0, "unchanged: its token's id");
	ok(review_unchanged(&s, &rec, &other, old, err, sizeof err) ==
	    REVIEW_REFUSED && strstr(err, "does not verify with this key"),
	    "another key: refused");
	pkg = rec.argv[2];
	rec.argv[2] = "@acme/tool@1.2.4";
	ok(review_unchanged(&s, &rec, &k, old, err, sizeof err) ==
	    REVIEW_REFUSED && strstr(err, "no longer says what its token "
	    "binds"), "another version in the record: refused");
	rec.argv[2] = pkg;
	rec.egress = "example.com";
	ok(review_unchanged(&s, &rec, &k, old, err, sizeof err) ==
	    REVIEW_REFUSED && strstr(err, "(egress hosts)"), "egress hosts "
	    "added to the record: refused");
	rec.egress = "";
	ok(!listed(id), "not listed before the revoke");
	eckey_id_text(id, detail + 6);
	memcpy(detail, "token=", 6);
	ev.detail = detail;
	ok(review_commit(&s, &rec, &ev, &k, id, err, sizeof err) ==
	    REVIEW_OK && listed(id), "revoke: the token id is listed");
	ok(k.x[0] == 0 && memcmp(k.x, k.x + 1, sizeof k.x - 1) == 0,
	    "the key is wiped");
	ok(log_verifies(&count) == 0 && count == 5, "the signed revoke "
	    "entry is in the log");
	/* the list cut back to its header: the log says what it lacks */
	snprintf(path, sizeof path, "%s/revoked", store_dir);
	ok(file_read(path, 1u << 20, (uint8_t **)&saved, &saved_len) == 0 &&
	    file_replace(path, REVOCATION_HEADER, sizeof REVOCATION_HEADER - 1,
	    0644) == 0 && review_list_check(&s, err, sizeof err) ==
	    REVIEW_CORRUPT && strstr(err, "lacks 1 token"), "a list that lost "
	    "a revoked token: refused against the log: %s", err);
	ok(load_key(&k) == 0 && review_list_sign(&s, &k, err, sizeof err) ==
	    REVIEW_CORRUPT && !listed(id), "... and not signed");
	ok(file_replace(path, saved, saved_len, 0644) == 0 &&
	    review_list_check(&s, err, sizeof err) == REVIEW_OK && listed(id),
	    "restored: it checks");
	free(saved);
	ok(review_begin(&s, store_dir, "r000001", &rec, err, sizeof err) ==
	    REVIEW_OK && rec.status == STORE_REVOKED && load_key(&k) == 0 &&
	    review_unchanged(&s, &rec, &k, old, err, sizeof err) ==
	    REVIEW_REFUSED && strstr(err, "its token is revoked"), "renew of "
	    "a revoked token: refused");
	store_rec_free(&rec);
	store_close(&s);
}

static void
test_refusals(void)
{
	static char token[APPROVAL_TOKEN_MAX + 1];
	uint8_t id[APPROVAL_ID_LEN];
	struct review_event ev = { NOW, "bob", "approve", STORE_APPROVED, "",
		"" };
	struct eckey_priv k;
	struct store_rec rec;
	struct store s;
	char path[512], detail[256];
	size_t count, nevents;
	int fd;

	ok(submit("r000003", "@acme/other@1.0.0") == REVIEW_OK &&
	    review_begin(&s, store_dir, "r000003", &rec, err, sizeof err) ==
	    REVIEW_OK, "a third record");
	ok(review_audit(&s, &rec, &ev, NULL, err, sizeof err) == REVIEW_IO &&
	    log_verifies(&count) == 0 && count == 6, "an unsigned approve: "
	    "refused by the log, which stays intact");
	nevents = rec.nevents;
	rec.nevents = STORE_EVENTS_MAX;
	ok(review_audit(&s, &rec, &ev, NULL, err, sizeof err) ==
	    REVIEW_REFUSED && strstr(err, "full history"), "a full history: "
	    "refused");
	rec.nevents = nevents;
	snprintf(path, sizeof path, "%s/revoked", store_dir);
	fd = open(path, O_WRONLY | O_TRUNC);
	ok(fd >= 0 && write(fd, "junk\n", 5) == 5 && close(fd) == 0 &&
	    load_key(&k) == 0 && review_sign(&s, &k, &rec, NOW, LIFE, token,
	    sizeof token, id, detail, sizeof detail, err, sizeof err) ==
	    REVIEW_CORRUPT && strstr(err, path), "a corrupt revocation list: "
	    "no token, naming the list");
	rec.nevents = STORE_EVENTS_MAX;
	ok(review_commit(&s, &rec, &ev, &k, NULL, err, sizeof err) ==
	    REVIEW_CORRUPT && k.x[0] == 0 && memcmp(k.x, k.x + 1, sizeof k.x -
	    1) == 0, "a refused commit still wipes the key");
	rec.nevents = nevents;
	store_rec_free(&rec);
	store_close(&s);
}

int
main(void)
{
	struct store s;
	char cmd[300];

	if (!mkdtemp(dir) || load_key(&key) != 0) {
		tap_skip("store directory", "mkdtemp or the test key failed");
		return tap_done();
	}
	snprintf(store_dir, sizeof store_dir, "%s/store", dir);
	if (ok(store_open(&s, store_dir, 1) == 0, "a new store")) {
		store_close(&s);
		test_begin();
		test_approve();
		test_renew_and_revoke();
		test_refusals();
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ok(system(cmd) == 0, "clean up");
	return tap_done();
}
