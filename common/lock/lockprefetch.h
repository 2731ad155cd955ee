/* lockprefetch.h - approved trees installed ahead of their first lease
 * (a runner's --prefetch FILE), so that lease needs no registry and does
 * not wait for npm.
 *
 * FILE lists approval tokens, one a line (an empty line, or one that
 * starts with '#', says nothing). Each token must verify as a lease's
 * would before anything is done for it: the reviewer's key, its time,
 * the revocation list. One that binds a lock has its tree made ready
 * exactly as a lease would (locktree_ready: installed when it is not,
 * then its content digest checked in full) and its id joins the tree's
 * token list, so the sweep that removes revoked trees sees it. At most
 * jobs tokens are worked on at once, each in a child process of its own.
 * Every token's outcome is one log line; a failure is retried by the
 * next run (the runner's next reload or start). */
#ifndef AIRLOCK_LOCKPREFETCH_H
#define AIRLOCK_LOCKPREFETCH_H

#include <stddef.h>
#include <stdint.h>

#include "common/lock/locktree.h"
#include "common/policy/eckey.h"
#include "common/policy/revocation.h"

#define LOCKPREFETCH_FILE_MAX (4u << 20)	/* bytes of FILE */
#define LOCKPREFETCH_JOBS_MAX 16

struct lockprefetch_cfg {
	const struct locktree_cfg *locks;
	const struct eckey_pub *key;		/* the reviewer's */
	struct revocation_set *revoked;		/* NULL: no list */
	const char *file;
	unsigned jobs;				/* 1..LOCKPREFETCH_JOBS_MAX */
};

struct lockprefetch_counts {
	size_t ready;		/* sealed and checked (installed or not) */
	size_t installed;	/* of those, installed by this run */
	size_t failed;		/* a tree that could not be made ready */
	size_t skipped;		/* not a token, not valid, or no lock */
};

/* The next token of the file's text p[0..len) from *off (0 at first):
 * 1 with *tok, *toklen, *line (1-based) set and *off past its line; 0 at
 * the end; -1 for a line that is neither a comment nor a token's shape
 * (base64url and one '.', at most APPROVAL_TOKEN_MAX bytes), *line naming
 * it and *off past it. Pure: the file is the operator's, read as hostile
 * all the same. */
int lockprefetch_next(const uint8_t *p, size_t len, size_t *off,
    const char **tok, size_t *toklen, size_t *line);

/* Work through c->file (blocking: the caller is a process of its own, a
 * child of the runner's supervisor). The counts in *n. 0, or -1 with err
 * when the file cannot be read at all. */
int lockprefetch_run(const struct lockprefetch_cfg *c,
    struct lockprefetch_counts *n, char *err, size_t errcap);

#endif
