/* xwrap.h - the exit codes, and wrappers that succeed or exit; for applet
 * start-up and for per-request children where exiting is the cleanup
 * (docs/HACKING.md "Errors and exit codes"). A service's connection
 * path never uses them. */
#ifndef AIRLOCK_XWRAP_H
#define AIRLOCK_XWRAP_H

#include <stddef.h>

/* Every exit code of every applet, defined here once (sysexits-style);
 * exit_code_table lists them for `airlock --help` and the README. An
 * applet that relays a child's status passes it through (signal N: 128+N). */
enum exit_code {
	EXIT_OK = 0,
	EXIT_USAGE = 64,	/* bad command line */
	EXIT_DATAERR = 65,	/* bad input data */
	EXIT_UNAVAILABLE = 69,	/* a peer or service is unavailable */
	EXIT_SOFTWARE = 70,	/* internal error */
	EXIT_OSERR = 71,	/* a system call failed */
	EXIT_IOERR = 74,	/* I/O error */
	EXIT_TEMPFAIL = 75,	/* ended early by the service, retry: a
				 * sandbox drain, --max-lease-duration */
	EXIT_PROTOCOL = 76,	/* the peer broke the protocol */
	EXIT_NOPERM = 77,	/* refused: authentication or policy */
	EXIT_CONFIG = 78,	/* configuration error */
	EXIT_AUTH = 80,		/* handshake failed: wrong secret, or the
				 * peer is not an airlock/1 service */
	EXIT_TIMEOUT = 124,	/* sandbox: the wall-clock limit */
	EXIT_LIMIT = 125,	/* sandbox: memory, cpu, output, pids, disk */
	EXIT_UNKNOWN_APPLET = 127
};

struct exit_code_desc {
	int code;
	const char *meaning;
};

/* Every code above, ascending, ending with { -1, NULL }. */
extern const struct exit_code_desc exit_code_table[];

/* Print "prog: error: MESSAGE" (and ": strerror" with die_errno) and exit.
 * A hook set by die_set_hook sees the code and the message first (the
 * sandbox's --json writes them as its one object on stdout). */
_Noreturn void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
_Noreturn void die_errno(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The hook die calls before it exits (NULL: none); the process that set
 * it only: a forked child's die does not call it. */
void die_set_hook(void (*hook)(int code, const char *msg));

/* Allocation that exits on failure; returned memory is the caller's. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
char *xstrdup(const char *s);

#endif
