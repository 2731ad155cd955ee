/* review_change.h - one change to a review record, as `airlock review`
 * makes it: the record read under the store's lock, its event audited
 * (signed) before anything else is written, a revoked token listed
 * before the record is written, and approval tokens signed fresh. A
 * crash so leaves at most an audit entry that never took effect, never
 * a change the log lacks. Each function returns REVIEW_OK, or what
 * failed with a message in err (errcap bytes) naming the record or
 * file; the caller decides what a failure costs. */
#ifndef AIRLOCK_REVIEW_CHANGE_H
#define AIRLOCK_REVIEW_CHANGE_H

#include <stddef.h>
#include <stdint.h>

#include "common/policy/approval.h"
#include "common/policy/eckey.h"
#include "common/policy/store.h"

enum review_fail {
	REVIEW_OK,
	REVIEW_NO_STORE,	/* the store cannot be opened */
	REVIEW_NO_LOCK,		/* nor its lock taken */
	REVIEW_CORRUPT,		/* a record or the revocation list is bad */
	REVIEW_IO,		/* a file cannot be named or written */
	REVIEW_REFUSED,		/* what the record says forbids the change */
	REVIEW_NO_TOKEN,	/* no new token could be signed */
};

/* What one change adds to a record's history and the audit log. */
struct review_event {
	uint64_t time;
	const char *who, *action;
	enum store_status to;	/* the record's status after it */
	const char *note;	/* the record's event note */
	const char *detail;	/* the audit entry's detail */
};

/* Open the store at dir, take its lock and read record id into rec. */
enum review_fail review_begin(struct store *s, const char *dir,
    const char *id, struct store_rec *rec, char *err, size_t errcap);

/* Add ev to rec and append its audit entry, signed with key (NULL for a
 * submit). The caller then writes rec (review_write). */
enum review_fail review_audit(struct store *s, struct store_rec *rec,
    const struct review_event *ev, const struct eckey_priv *key, char *err,
    size_t errcap);

/* Write rec and close the store. */
enum review_fail review_write(struct store *s, struct store_rec *rec,
    char *err, size_t errcap);

/* The store's revocation list holds every token the audit log revokes
 * (a signature alone does not show a list rolled back to an older signed
 * copy). REVIEW_OK, or REVIEW_CORRUPT naming what is missing. */
enum review_fail review_list_check(struct store *s, char *err,
    size_t errcap);

/* Sign the store's revocation list as it stands (after review_list_check)
 * with key, then wipe key; the caller holds the store lock. */
enum review_fail review_list_sign(struct store *s, struct eckey_priv *key,
    char *err, size_t errcap);

/* The end of every signed change: the list checked against the log,
 * review_audit, the revocation list signed with the token revoke (when
 * not NULL) added, key wiped (whatever happens), rec written and
 * freed. */
enum review_fail review_commit(struct store *s, struct store_rec *rec,
    const struct review_event *ev, struct eckey_priv *key,
    const uint8_t revoke[APPROVAL_ID_LEN], char *err, size_t errcap);

/* Sign rec's request with key, valid from now for life seconds, into
 * token (cap bytes) and rec->token; its id to id, and detail (dcap
 * bytes) says "token=ID key=KEYID expires=UNIX". A token id is never
 * issued twice (not revoked, not held by any record): the expiry is
 * made a second earlier until it is new. */
enum review_fail review_sign(struct store *s, const struct eckey_priv *key,
    struct store_rec *rec, uint64_t now, uint64_t life, char *token,
    size_t cap, uint8_t id[APPROVAL_ID_LEN], char *detail, size_t dcap,
    char *err, size_t errcap);

/* rec's token is signed by pub and binds exactly what rec says (tenant
 * byte for byte, registration, argv, env keys, egress hosts): a record
 * edited after approval says another thing than its signed token. *a
 * gets the token. REVIEW_OK, or REVIEW_REFUSED naming what differs. */
enum review_fail review_token_binds(const struct eckey_pub *pub,
    const struct store_rec *rec, struct approval *a, char *err,
    size_t errcap);

/* rec's token is signed by key, unrevoked, and still binds exactly what
 * rec says (renew's precondition); old gets its id. */
enum review_fail review_unchanged(struct store *s,
    const struct store_rec *rec, const struct eckey_priv *key,
    uint8_t old[APPROVAL_ID_LEN], char *err, size_t errcap);

#endif
