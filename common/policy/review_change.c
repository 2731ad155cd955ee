/* review_change.c - a change to a review record: lock, audit, list,
 * write, in the order that keeps the log ahead of what it describes. */
#include "common/policy/review_change.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/fileio.h"
#include "common/lock/lockstore.h"
#include "common/policy/audit.h"
#include "common/policy/audit_verify.h"
#include "common/policy/revocation.h"

/* f, with the store's last error as the message */
static enum review_fail
store_fail(enum review_fail f, const struct store *s, char *err,
    size_t errcap)
{
	snprintf(err, errcap, "%s", s->err);
	return f;
}

enum review_fail
review_begin(struct store *s, const char *dir, const char *id,
    struct store_rec *rec, char *err, size_t errcap)
{
	if (store_open(s, dir, 0) != 0)
		return store_fail(REVIEW_NO_STORE, s, err, errcap);
	if (store_lock(s) != 0)
		return store_fail(REVIEW_NO_LOCK, s, err, errcap);
	if (store_read(s, id, rec) != 0)
		return store_fail(REVIEW_CORRUPT, s, err, errcap);
	return REVIEW_OK;
}

enum review_fail
review_audit(struct store *s, struct store_rec *rec,
    const struct review_event *ev, const struct eckey_priv *key, char *err,
    size_t errcap)
{
	char path[PATH_MAX];
	struct audit_entry e;

	if (rec->nevents == STORE_EVENTS_MAX) {
		snprintf(err, errcap, "record %s has a full history (%d "
		    "events); submit a new record", rec->id, STORE_EVENTS_MAX);
		return REVIEW_REFUSED;
	}
	rec->status = ev->to;
	rec->events[rec->nevents++] = (struct store_event){ ev->time, ev->who,
		ev->action, ev->to, ev->note };
	e = (struct audit_entry){ ev->time, ev->who, ev->action, rec->id,
		store_status_name(ev->to), ev->detail };
	if (store_path(s, "audit.log", path, sizeof path) != 0)
		return store_fail(REVIEW_IO, s, err, errcap);
	if (audit_append(path, &e, key, err, errcap) != 0)
		return REVIEW_IO;
	return REVIEW_OK;
}

enum review_fail
review_write(struct store *s, struct store_rec *rec, char *err,
    size_t errcap)
{
	if (store_write(s, rec) != 0)
		return store_fail(REVIEW_IO, s, err, errcap);
	store_close(s);
	return REVIEW_OK;
}

enum review_fail
review_list_check(struct store *s, char *err, size_t errcap)
{
	char path[PATH_MAX], list[PATH_MAX];
	uint8_t (*ids)[REVOCATION_ID_LEN] = NULL, *log = NULL, *buf = NULL;
	struct audit_entries all = { 0 };
	struct revocation_sig sig;
	struct audit_summary sum;
	enum review_fail f = REVIEW_CORRUPT;
	size_t len, n, line, bad;
	uint64_t serial;
	const char *why;

	if (store_path(s, "audit.log", path, sizeof path) != 0 ||
	    store_path(s, "revoked", list, sizeof list) != 0)
		return store_fail(REVIEW_IO, s, err, errcap);
	if (file_read(path, AUDIT_FILE_MAX, &log, &len) != 0 ||
	    file_read(list, REVOCATION_FILE_MAX, &buf, &n) != 0) {
		snprintf(err, errcap, "cannot read %s: %s", log ? list : path,
		    strerror(errno));
		f = REVIEW_IO;
		goto out;
	}
	if (audit_verify(log, len, NULL, &sum, &line, &why, audit_entries_add,
	    &all) != 0 || all.oom) {
		snprintf(err, errcap, "%s: line %zu: %s", path, line,
		    all.oom ? "out of memory" : why);
		goto out;
	}
	if (revocation_parse(buf, n, &ids, &n, &sig, &serial, &line, &why) != 0) {
		snprintf(err, errcap, "%s: line %zu: %s", list, line, why);
		goto out;
	}
	bad = audit_check_listed(&all, (const uint8_t (*)[REVOCATION_ID_LEN])ids,
	    n, list);
	if (bad) {
		snprintf(err, errcap, "%s lacks %zu token(s) the audit log "
		    "revokes: it was edited or rolled back; nothing is signed "
		    "until it lists them again", list, bad);
		goto out;
	}
	f = REVIEW_OK;
out:
	free(ids);
	free(buf);
	free(log);
	audit_entries_free(&all);
	return f;
}

/* Sign the store's revocation list with key, adding token id (when not
 * NULL) for record. */
static enum review_fail
list_sign(struct store *s, const uint8_t id[APPROVAL_ID_LEN], uint64_t when,
    const char *record, const struct eckey_priv *key, char *err,
    size_t errcap)
{
	char path[PATH_MAX];
	const char *why;

	if (store_path(s, "revoked", path, sizeof path) != 0)
		return store_fail(REVIEW_IO, s, err, errcap);
	if (revocation_sign(path, id, when, record, key, &why) != 0) {
		snprintf(err, errcap, "%s: %s", path, why);
		return REVIEW_CORRUPT;
	}
	return REVIEW_OK;
}

enum review_fail
review_list_sign(struct store *s, struct eckey_priv *key, char *err,
    size_t errcap)
{
	enum review_fail f = review_list_check(s, err, errcap);

	if (f == REVIEW_OK)
		f = list_sign(s, NULL, 0, NULL, key, err, errcap);
	eckey_wipe(key);
	return f;
}

enum review_fail
review_commit(struct store *s, struct store_rec *rec,
    const struct review_event *ev, struct eckey_priv *key,
    const uint8_t revoke_id[APPROVAL_ID_LEN], char *err, size_t errcap)
{
	/* the list is checked against the log before the log grows, and
	 * signed (with the new id) after: every keyed change re-signs it */
	enum review_fail f = review_list_check(s, err, errcap);

	if (f == REVIEW_OK)
		f = review_audit(s, rec, ev, key, err, errcap);
	if (f == REVIEW_OK)
		f = list_sign(s, revoke_id, ev->time, rec->id, key, err,
		    errcap);
	eckey_wipe(key);
	if (f == REVIEW_OK)
		f = review_write(s, rec, err, errcap);
	if (f == REVIEW_OK)
		store_rec_free(rec);
	return f;
}

/* The store's revocation list, loaded into rev, which keeps path
 * (PATH_MAX bytes) by reference; the caller frees it. */
static enum review_fail
revoked_load(struct store *s, struct revocation_set *rev, char *path,
    char *err, size_t errcap)
{
	const char *why;

	if (store_path(s, "revoked", path, PATH_MAX) != 0)
		return store_fail(REVIEW_IO, s, err, errcap);
	revocation_init(rev, path, NULL);
	if (revocation_reload(rev, &why) != 0) {
		snprintf(err, errcap, "%s: %s", path, why);
		revocation_free(rev);
		return REVIEW_CORRUPT;
	}
	return REVIEW_OK;
}

/* *held: a record of the store holds a token with this id (renew's own
 * record included: its old token is about to be revoked). */
static enum review_fail
id_held(struct store *s, const uint8_t id[APPROVAL_ID_LEN], int *held,
    char *err, size_t errcap)
{
	uint8_t other[APPROVAL_ID_LEN];
	enum review_fail f = REVIEW_OK;
	char **ids;
	size_t n;

	*held = 0;
	if (store_list(s, &ids, &n) != 0)
		return store_fail(REVIEW_CORRUPT, s, err, errcap);
	for (size_t i = 0; i < n && !*held; i++) {
		struct store_rec rec;

		if (store_read(s, ids[i], &rec) != 0) {
			f = store_fail(REVIEW_CORRUPT, s, err, errcap);
			break;
		}
		*held = rec.token[0] && approval_token_id(rec.token,
		    strlen(rec.token), other) == 0 &&
		    memcmp(other, id, APPROVAL_ID_LEN) == 0;
		store_rec_free(&rec);
	}
	store_list_free(ids, n);
	return f;
}

/* Sign req, valid from now for life seconds, into token (cap bytes);
 * its id to id, its expiry to *expires, its length to *len. The same
 * request approved again within the same second would otherwise get
 * the very same token (perhaps one already revoked, or another
 * record's, which revoking either would revoke) and share its cache key
 * on the runners. */
/* The record's lock digest (64 lowercase hex, store-checked) as bytes;
 * NULL when it has none. */
static const uint8_t *
rec_lock(const struct store_rec *rec, uint8_t out[APPROVAL_LOCK_LEN])
{
	if (!rec->lock || !rec->lock[0] || lock_hex_decode(rec->lock, out))
		return NULL;
	return out;
}

/* The record's surface digest as bytes; NULL when it has none. */
static const uint8_t *
rec_surface(const struct store_rec *rec, uint8_t out[APPROVAL_SURFACE_LEN])
{
	if (!rec->surface || !rec->surface[0] ||
	    lock_hex_decode(rec->surface, out))
		return NULL;
	return out;
}

static enum review_fail
sign_fresh(struct store *s, const struct eckey_priv *key,
    const struct approval_request *req, const struct store_rec *rec,
    uint64_t now, uint64_t life, char *token, size_t cap, uint8_t id[APPROVAL_ID_LEN],
    uint64_t *expires, char *err, size_t errcap)
{
	uint8_t lockbuf[APPROVAL_LOCK_LEN], surfbuf[APPROVAL_SURFACE_LEN];
	const uint8_t *lock = rec_lock(rec, lockbuf);
	const uint8_t *surface = rec_surface(rec, surfbuf);
	const char *egress = rec->egress;
	struct revocation_set rev;
	char path[PATH_MAX];
	/* a record built by hand may leave tools NULL: every tool */
	const char *tools = rec->tools ? rec->tools : "";
	enum review_fail f;
	int held = 1;

	if ((f = revoked_load(s, &rev, path, err, errcap)) != REVIEW_OK)
		return f;
	for (uint64_t k = 0; k < 64 && k < life && held; k++) {
		long n = approval_sign_extra(key, req, &(struct
		    approval_extra){ egress, strlen(egress), lock,
		    rec->lock_scripts ? APPROVAL_LOCK_SCRIPTS : 0, tools,
		    strlen(tools), surface }, now, now + life - k, token, cap);

		if (n < 0 || approval_token_id(token, (size_t)n, id) != 0) {
			snprintf(err, errcap, "cannot sign an approval");
			f = REVIEW_NO_TOKEN;
			break;
		}
		held = revocation_contains(&rev, id);
		if (!held && (f = id_held(s, id, &held, err, errcap)) !=
		    REVIEW_OK)
			break;
		*expires = now + life - k;
	}
	revocation_free(&rev);
	if (f == REVIEW_OK && held) {
		snprintf(err, errcap, "every token signed for this record is "
		    "already issued; try again in a minute");
		f = REVIEW_NO_TOKEN;
	}
	return f;
}

enum review_fail
review_sign(struct store *s, const struct eckey_priv *key,
    struct store_rec *rec, uint64_t now, uint64_t life, char *token,
    size_t cap, uint8_t id[APPROVAL_ID_LEN], char *detail, size_t dcap,
    char *err, size_t errcap)
{
	struct approval_request req = { rec->tenant, rec->registration,
		(char *const *)rec->argv, rec->argc, (char *const *)rec->env,
		rec->envc };
	char tid[ECKEY_ID_TEXT], kid[ECKEY_ID_TEXT];
	enum review_fail f;
	uint64_t expires;

	f = sign_fresh(s, key, &req, rec, now, life, token, cap, id,
	    &expires, err, errcap);
	if (f != REVIEW_OK)
		return f;
	eckey_id_text(key->pub.id, kid);
	eckey_id_text(id, tid);
	snprintf(detail, dcap, "token=%s key=%s expires=%llu", tid, kid,
	    (unsigned long long)expires);
	rec->token = token;
	return REVIEW_OK;
}

enum review_fail
review_token_binds(const struct eckey_pub *pub, const struct store_rec *rec,
    struct approval *a, char *err, size_t errcap)
{
	struct approval_request req = { rec->tenant, rec->registration,
		(char *const *)rec->argv, rec->argc, (char *const *)rec->env,
		rec->envc };
	enum approval_result r;

	r = approval_open(pub, rec->token, strlen(rec->token), a);
	if (r != APPROVAL_OK) {
		snprintf(err, errcap, "record %s: its token does not verify "
		    "with this key (%s): approve a new submission instead",
		    rec->id, approval_result_name(r));
		return REVIEW_REFUSED;
	}
	/* as of its own issue time: what it binds, not whether it is due;
	 * the tenant byte for byte (a "*" token matches any tenant) */
	r = approval_check(a, &req, a->issued_at, 0, NULL);
	if (r == APPROVAL_OK && (a->tenant.n != strlen(rec->tenant) ||
	    memcmp(a->tenant.p, rec->tenant, a->tenant.n) != 0))
		r = APPROVAL_TENANT_MISMATCH;
	if (r != APPROVAL_OK) {
		snprintf(err, errcap, "record %s no longer says what its token "
		    "binds (%s): the record changed since it was approved; "
		    "submit it again for review", rec->id,
		    approval_result_name(r));
		return REVIEW_REFUSED;
	}
	if (a->egress.n != strlen(rec->egress) ||
	    memcmp(a->egress.p, rec->egress, a->egress.n) != 0) {
		snprintf(err, errcap, "record %s no longer says what its token "
		    "binds (egress hosts): the record changed since it was "
		    "approved; submit it again for review", rec->id);
		return REVIEW_REFUSED;
	}
	{
		uint8_t lockbuf[APPROVAL_LOCK_LEN];
		const uint8_t *lock = rec_lock(rec, lockbuf);

		if ((lock != NULL) != a->has_lock || (lock && (memcmp(lock,
		    a->lock, APPROVAL_LOCK_LEN) != 0 || (a->lock_flags &
		    APPROVAL_LOCK_SCRIPTS) != (rec->lock_scripts ?
		    APPROVAL_LOCK_SCRIPTS : 0)))) {
			snprintf(err, errcap, "record %s no longer says what "
			    "its token binds (the lock of its dependency "
			    "tree): the record changed since it was approved;"
			    " submit it again for review", rec->id);
			return REVIEW_REFUSED;
		}
	}
	if (a->tools.n != (rec->tools ? strlen(rec->tools) : 0) ||
	    (a->tools.n && memcmp(a->tools.p, rec->tools, a->tools.n))) {
		snprintf(err, errcap, "record %s no longer says what its token "
		    "binds (tools): the record changed since it was "
		    "approved; submit it again for review", rec->id);
		return REVIEW_REFUSED;
	}
	{
		uint8_t sb[APPROVAL_SURFACE_LEN];
		const uint8_t *sf = rec_surface(rec, sb);

		if ((sf != NULL) != a->has_surface || (sf && memcmp(sf,
		    a->surface, APPROVAL_SURFACE_LEN) != 0)) {
			snprintf(err, errcap, "record %s no longer says what "
			    "its token binds (the surface pin): the record "
			    "changed since it was approved; submit it again "
			    "for review", rec->id);
			return REVIEW_REFUSED;
		}
	}
	return REVIEW_OK;
}

enum review_fail
review_unchanged(struct store *s, const struct store_rec *rec,
    const struct eckey_priv *key, uint8_t old[APPROVAL_ID_LEN], char *err,
    size_t errcap)
{
	static struct approval a;
	struct revocation_set rev;
	char path[PATH_MAX];
	enum review_fail f;
	int revoked;

	if ((f = review_token_binds(&key->pub, rec, &a, err, errcap)) !=
	    REVIEW_OK)
		return f;
	if ((f = revoked_load(s, &rev, path, err, errcap)) != REVIEW_OK)
		return f;
	revoked = revocation_contains(&rev, a.token_id);
	revocation_free(&rev);
	if (revoked) {
		snprintf(err, errcap, "record %s: its token is revoked",
		    rec->id);
		return REVIEW_REFUSED;
	}
	memcpy(old, a.token_id, APPROVAL_ID_LEN);
	return REVIEW_OK;
}
