/* reviewfmt.h - what `airlock review` prints: records, approvals and
 * audit entries, as aligned text for people or JSON for programs. Every
 * stored or signed string is untrusted output: text escapes anything but
 * printable ASCII as \xNN, JSON is JSON text (docs/HACKING.md). */
#ifndef AIRLOCK_REVIEWFMT_H
#define AIRLOCK_REVIEWFMT_H

#include <stdint.h>
#include <stdio.h>

#include "common/policy/approval.h"
#include "common/policy/audit.h"
#include "common/policy/guard.h"
#include "common/policy/store.h"

#define RFMT_TIME_LEN 21	/* "2006-01-02T15:04:05Z" and NUL */

void rfmt_esc(FILE *f, const void *p, size_t n);
void rfmt_time(uint64_t t, char out[RFMT_TIME_LEN]);

/* The command the runner will execute, as guard_normalised writes it
 * (common/policy/guard.h: one line of shell words, every byte visible), which is
 * what `show`, `list` and `approve` display. A command the guard refuses
 * (policy changed since submit, or an edited record) shows as "(refused
 * by the guard: VERDICT)" and each word escaped (\xNN). */
#define RFMT_COMMAND_MAX (4 * APPROVAL_PAYLOAD_MAX + 4 * PROTO_ARGC_MAX + 1)
void rfmt_command(FILE *f, const struct guard_policy *policy,
    const char *const *argv, size_t argc);

/* The expiry of a stored token, read without checking its signature
 * (display only): 0 and *expires, or -1 when it is not a token. */
int rfmt_token_expiry(const char *token, uint64_t *expires);

/* `show`: every field and the history; policy (guard.h, NULL: the
 * default) is the runner's, for the command line. */
void rfmt_record(FILE *f, const struct store_rec *rec,
    const struct guard_policy *policy);
void rfmt_record_json(FILE *f, const struct store_rec *rec);
/* rfmt_record_json without its closing brace: a caller adds members. */
void rfmt_record_json_members(FILE *f, const struct store_rec *rec);

/* `list`: a header, then one line per record. */
void rfmt_list_header(FILE *f);
void rfmt_list_line(FILE *f, const struct store_rec *rec,
    const struct guard_policy *policy);

/* `verify`: what a token binds. */
void rfmt_approval(FILE *f, const struct approval *a);

/* `audit`: one entry per line. */
void rfmt_audit_entry(FILE *f, const struct audit_view *v);

#endif
