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
 * common/policy/guardfs.h. */
#ifndef AIRLOCK_GUARD_H
#define AIRLOCK_GUARD_H

#include <stddef.h>

#include "common/policy/guard_policy.h"

#define GUARD_ARGC_MAX 256	/* arguments, argv[0] included */
#define GUARD_ARG_MAX 4096	/* bytes in one argument, NUL excluded */
#define GUARD_REASON_MAX 256	/* reason text, NUL included */
#define GUARD_QUOTE_MAX 40	/* tenant bytes quoted into a reason */
#define GUARD_SCRIPTS_MAX 8	/* script paths one argv may name */

/* Stable codes: they travel in error frames and logs, never renumber. */
enum guard_verdict {
	GUARD_OK = 0,
	GUARD_BAD_ARGV = 1,		/* empty, NULL, too many, too long */
	GUARD_BAD_LAUNCHER = 2,		/* argv[0] not bare, not allowed */
	GUARD_INLINE_CODE = 3,		/* -e -c --eval --call data: */
	GUARD_STDIN_PROGRAM = 4,	/* program from stdin, or a REPL */
	GUARD_DEBUGGER = 5,		/* --inspect*, node inspect */
	GUARD_FORBIDDEN_OPTION = 6,	/* understood and refused */
	GUARD_UNKNOWN_OPTION = 7,	/* not understood, so refused */
	GUARD_BAD_VALUE = 8,		/* option value or script path */
	GUARD_FORBIDDEN_COMMAND = 9,	/* npx/uv would run a shell etc. */
	GUARD_BAD_SUBCOMMAND = 10,	/* uv other than run / tool run */
	GUARD_NO_COMMAND = 11,		/* uvx, uv run: nothing to run */
	GUARD_TOO_DEEP = 12,		/* launchers nested over 4 deep */
	GUARD_UNPINNED = 13,		/* pinned check: not name@x.y.z */
	GUARD_NOT_PACKAGE = 14,		/* pinned check: no package */
	GUARD_VERDICT_COUNT
};

struct guard_result {
	enum guard_verdict verdict;
	size_t index;		/* offending argv index, < argc if argc */
	char reason[GUARD_REASON_MAX];	/* printable, NUL-terminated */
	/* On GUARD_OK, what the runner must still do before exec: */
	struct {
		size_t index;	/* argv index of a script path ... */
		size_t offset;	/* ... from here ("--require=" skipped) */
	} scripts[GUARD_SCRIPTS_MAX];	/* to resolve on disk */
	size_t nscripts;
	/* 1: a launcher looks a command word up on PATH (npx -p CMD, uvx,
	 * uv tool run, uv run CMD); the child's PATH must then hold only
	 * the launchers and sh, so the word can only be a bin the launcher
	 * put first on PATH (the named packages') or a launcher the guard
	 * has checked (sh is refused as a command word) */
	int path_lookup;
};

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

/* Stable lower-case name of a verdict ("inline_code"), "unknown" if out of
 * range. */
const char *guard_verdict_name(enum guard_verdict v);

/* Copy at most max bytes of s into dst (cap bytes, always NUL-terminated
 * when cap > 0) with every byte outside printable ASCII, and the quote and
 * backslash, written as \xNN; "..." marks a cut. Returns dst. */
char *guard_quote(char *dst, size_t cap, const char *s, size_t max);

#endif
