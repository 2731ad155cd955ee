/* audit.h - the review store's append-only, hash-chained audit log
 * (STORE/audit.log). One entry per line, in the lpf format (lpf.h):
 *
 *	audit SEQ TIME PREV ACTOR ACTION RECORD STATUS DETAIL HASH
 *
 * SEQ counts from 1 and equals the line number; PREV is the previous
 * entry's HASH (64 zeros for the first); HASH is the lowercase hex
 * SHA-256 of the line up to the space before it. Values are printable
 * ASCII, so an entry is always exactly one line. An edited entry fails
 * its own HASH; a removed or inserted one breaks SEQ or the PREV chain.
 * Cutting entries off the end leaves a shorter valid chain: compare the
 * head (count and last HASH) with one kept elsewhere to catch that. */
#ifndef AIRLOCK_AUDIT_H
#define AIRLOCK_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "lpf.h"

#define AUDIT_LINE_MAX 4096
#define AUDIT_DETAIL_MAX 2048
#define AUDIT_HASH_LEN 32

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
	struct lpf_item actor, action, record, status, detail;
};

/* Append e to the log at path, chained to its last entry (which must be
 * intact; a torn or edited last line refuses the append). The caller
 * holds the store lock. 0, or -1 with a message in err naming path. */
int audit_append(const char *path, const struct audit_entry *e, char *err,
    size_t errcap);

/* Verify a whole log (untrusted bytes). On 0: *count entries, head is the
 * last HASH (zeros when empty); each, when not NULL, sees every entry in
 * order. On -1: *line (1-based) and *why say where and what. */
int audit_verify(const uint8_t *p, size_t n, size_t *count,
    uint8_t head[AUDIT_HASH_LEN], size_t *line, const char **why,
    void (*each)(void *ctx, const struct audit_view *v), void *ctx);

#endif
