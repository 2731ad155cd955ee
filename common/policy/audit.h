/* audit.h - the review store's append-only, hash-chained, signed audit
 * log (STORE/audit.log). One entry per line, in the record-line format (record_line.h):
 *
 *	audit SEQ TIME PREV ACTOR ACTION RECORD STATUS DETAIL SIG HASH
 *
 * SEQ counts from 1 and equals the line number; PREV is the previous
 * entry's HASH (64 zeros for the first); HASH is the lowercase hex
 * SHA-256 of the line up to the space before it. SIG is empty (an
 * unsigned entry: submit, which runs where no key is) or
 * "KEYID.SIGNATURE" (base64url, 22 + 1 + 86 characters): the reviewer
 * key's ECDSA P-256 signature over SHA-256("airlock-audit" NUL || the
 * line up to the space before SIG). A signature covers its entry and,
 * through PREV, every entry before it; the hash chain alone only shows
 * damage by someone without the key. approve, reject, revoke and renew
 * entries must be signed. Values are printable ASCII, so an entry is
 * always exactly one line. docs/REVIEW.md says what is detected. */
#ifndef AIRLOCK_AUDIT_H
#define AIRLOCK_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "common/policy/eckey.h"
#include "common/policy/record_line.h"

#define AUDIT_LINE_MAX 4096
#define AUDIT_FILE_MAX (256u << 20)	/* a larger log is refused unread */
#define AUDIT_DETAIL_MAX 2048
#define AUDIT_HASH_LEN 32
#define AUDIT_SIG_TEXT 109	/* 22 + 1 + 86 */

/* What one entry says; strings are C strings when appending. */
struct audit_entry {
	uint64_t time;
	const char *actor;
	const char *action;
	const char *record;
	const char *status;
	const char *detail;	/* control bytes become '?', cut to fit */
};

/* A parsed entry; items point into the verified input. */
struct audit_view {
	uint64_t seq, time;
	struct record_line_item actor, action, record, status, detail;
	int is_signed;
	uint8_t key_id[ECKEY_ID_LEN];	/* when signed */
	uint8_t hash[AUDIT_HASH_LEN];	/* this entry's HASH */
};

/* What a whole verified log says. */
struct audit_summary {
	size_t count;			/* entries */
	uint8_t head[AUDIT_HASH_LEN];	/* the last HASH; zeros when empty */
	size_t last_signed;		/* SEQ of the last signed entry, 0 */
};

/* 1 when entries of this action must be signed (approve, reject,
 * revoke, renew). */
int audit_action_needs_signature(const char *action, size_t n);

/* Append e to the log at path, chained to its last entry (which must be
 * intact; a torn or edited last line refuses the append), signed with
 * key unless key is NULL (which an action that needs a signature
 * refuses). The caller holds the store lock. 0, or -1 with a message in
 * err naming path. */
int audit_append(const char *path, const struct audit_entry *e,
    const struct eckey_priv *key, char *err, size_t errcap);

/* Verify a whole log (untrusted bytes): syntax, SEQ, the chain, every
 * HASH; with pub also every signature (made by pub) and that every entry
 * whose action needs one is signed. On 0: *sum; each, when not NULL, sees
 * every entry in order. On -1: *line (1-based) and *why say where and
 * what. */
int audit_verify(const uint8_t *p, size_t n, const struct eckey_pub *pub,
    struct audit_summary *sum, size_t *line, const char **why,
    void (*each)(void *ctx, const struct audit_view *v), void *ctx);

#endif
