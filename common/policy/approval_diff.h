/* approval_diff.h - what differs between an approval token and a spawn
 * request, for the runner's refusal: which field (tenant, registration),
 * which argv word (its index and, unless a word looks like a credential,
 * both values, escaped and cut), which env keys (names only: a token
 * binds no env value, so none can be shown). */
#ifndef AIRLOCK_APPROVAL_DIFF_H
#define AIRLOCK_APPROVAL_DIFF_H

#include <stddef.h>

#include "common/policy/approval.h"

/* After approval_check returned r for a and req: what differs, as one
 * line of printable ASCII into out (cap bytes, NUL-terminated, cut with
 * "..." when long), e.g. "argv[4]: the token's '5', the request's '6'".
 * For a result that is no mismatch, out is "". */
void approval_diff(const struct approval *a,
    const struct approval_request *req, enum approval_result r, char *out,
    size_t cap);

/* 1 if the argv word w (prev: the word before it, or NULL) looks like a
 * credential: an option or NAME=VALUE whose name says token, secret,
 * password, key, auth ..., the value of such an option, or a value with a
 * known token prefix (ghp_, sk-, xox?-, AKIA ...). Its value is then not
 * shown. */
int approval_word_secret(const char *w, size_t n, const char *prev,
    size_t prev_n);

#endif
