/* audit_verify.h - what `airlock review audit --verify` checks beyond
 * the log's own chain (audit.h): the log against the records, against
 * the revocation list, and against a head kept from an earlier run.
 * A log cut off at its end still chains; these catch it. Each problem is
 * logged (log.h) saying what it means; the checks count them. */
#ifndef AIRLOCK_AUDIT_VERIFY_H
#define AIRLOCK_AUDIT_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "common/policy/audit.h"
#include "common/policy/revocation.h"
#include "common/policy/store.h"

/* Every entry of a verified log, in log order. The items point into the
 * verified input, which must outlive the list. */
struct audit_entries {
	struct audit_view *v;
	size_t n, cap;
	int oom;		/* an entry was dropped: out of memory */
};

/* audit_verify's callback (ctx: a zeroed struct audit_entries): keeps a
 * copy of v; out of memory sets oom instead. */
void audit_entries_add(void *ctx, const struct audit_view *v);
void audit_entries_free(struct audit_entries *e);

/* A hash as the 64 lowercase hex digits the log and --head use. */
void audit_hash_text(const uint8_t h[AUDIT_HASH_LEN],
    char out[2 * AUDIT_HASH_LEN + 1]);

/* Entry n (from 1) is still there and its HASH is hex: n and hex were
 * kept from an earlier verify. 0, or -1 (logged: entries were cut off
 * the end, or the log was rewritten up to entry n). */
int audit_check_head(const struct audit_entries *e, uint64_t n,
    const char *hex);

/* Every event of every record in s has its entry, in order; an entry
 * for a missing record is an error unless it is a submit (a crash before
 * the record was written: warned about), and so are entries a record
 * lacks (warned about: an entry is appended before its record is
 * written). 0 with *bad the number of problems, or -1 with s->err (the
 * store could not be read, or out of memory). */
int audit_check_records(struct store *s, const struct audit_entries *e,
    size_t *bad);

/* Every token id in ids (the revocation list at path) has its revoke
 * entry, or the renew entry that superseded it. Returns the number of
 * problems. */
size_t audit_check_revoked(const struct audit_entries *e,
    const uint8_t (*ids)[REVOCATION_ID_LEN], size_t n, const char *path);

/* The other way: every token a revoke entry revokes, or a renew entry
 * supersedes, is in ids (sorted). Returns the number of problems. */
size_t audit_check_listed(const struct audit_entries *e,
    const uint8_t (*ids)[REVOCATION_ID_LEN], size_t n, const char *path);

#endif
