/* guard_result.h - a guard check's answer, as the guard's entry points
 * (guard.h, which includes this) and every launcher grammar (guard_walk.h)
 * write it: the verdict codes and their names, the result a check fills,
 * the quoting of a tenant's bytes into its reason. Its own header so that
 * the grammars share it without including guard.h, which calls them. */
#ifndef AIRLOCK_GUARD_RESULT_H
#define AIRLOCK_GUARD_RESULT_H

#include <stddef.h>

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

/* Stable lower-case name of a verdict ("inline_code"), "unknown" if out of
 * range. */
const char *guard_verdict_name(enum guard_verdict v);

/* Copy at most max bytes of s into dst (cap bytes, always NUL-terminated
 * when cap > 0) with every byte outside printable ASCII, and the quote and
 * backslash, written as \xNN; "..." marks a cut. Returns dst. */
char *guard_quote(char *dst, size_t cap, const char *s, size_t max);

#endif
