/* guard.h - the launcher guard: which argv the runner may exec, and whether
 * an argv names a package pinned to an exact version (the review applet's
 * approve-time check). One source of truth for runner and review.
 *
 * The guard parses each launcher's command line the way the launcher does
 * (node's option parser, CPython's getopt, npx's pre-parser and npm's
 * spec reader, uv's clap definitions, ts-node's own table) and fails
 * closed: an option it does not understand is refused, never passed
 * through. A command that npx or uv would execute is checked again with
 * the rules of that command (npx -y node -e x is inline code). The accepted grammar of every launcher is written down in
 * docs/GUARD.md. Pure: no I/O, no allocation, no global state; the
 * file-system half (script paths resolved, the lease's PATH) is
 * common/policy/guardfs.h; the verdicts and the result it fills are
 * common/policy/guard_result.h. */
#ifndef AIRLOCK_GUARD_H
#define AIRLOCK_GUARD_H

#include <stddef.h>

#include "common/policy/guard_policy.h"
#include "common/policy/guard_result.h"

#define GUARD_ARGC_MAX 256	/* arguments, argv[0] included */
#define GUARD_ARG_MAX 4096	/* bytes in one argument, NUL excluded */

/* Check argv[0..argc-1] (NUL-terminated strings owned by the caller)
 * against policy (NULL: the default). Fills *res and returns its verdict:
 * GUARD_OK, or the first refusal with the index of the argument that
 * caused it and a short reason that quotes at most GUARD_QUOTE_MAX bytes
 * of that argument, escaped. Never returns GUARD_UNPINNED/NOT_PACKAGE. */
enum guard_verdict guard_check(const struct guard_policy *policy,
    const char *const *argv, size_t argc, struct guard_result *res);

/* guard_check, then the approve-time rule: every package the argv installs
 * is pinned to an exact version - npx name@x.y.z[-pre] (scoped names too),
 * uvx name@x.y.z or --from name==x.y.z, every uv --with name==x.y.z.
 * A script under a --script-dir and an --allow-module module are the
 * operator's own code and pass; a command uv run finds in no package
 * (uv run tool, without --with) is GUARD_NOT_PACKAGE. */
enum guard_verdict guard_check_pinned(const struct guard_policy *policy,
    const char *const *argv, size_t argc, struct guard_result *res);

/* What the runner will execute, for a reviewer to read: guard_check,
 * then, on GUARD_OK, argv written to out (cap bytes, NUL-terminated) as
 * one line of POSIX shell words: a word of plain characters as is, any
 * other in single quotes, bytes outside printable ASCII as $'\xNN', so
 * look-alike, invisible and empty words show. res->path_lookup says the
 * child gets a launchers-only PATH. Returns the verdict; GUARD_BAD_ARGV
 * when out is too small. */
enum guard_verdict guard_normalised(const struct guard_policy *policy,
    const char *const *argv, size_t argc, char *out, size_t cap,
    struct guard_result *res);

#endif
