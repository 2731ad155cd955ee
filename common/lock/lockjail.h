/* lockjail.h - one npm command in a jail of its own: `npm install
 * --package-lock-only` at submit (resolving a tree), `npm ci` at a
 * runner (installing one); pip's install of a uvx lock likewise. A
 * one-shot jail (uid or ns mode, never none) under a uid of its range, no
 * secret in its environment (PATH, HOME, TMPDIR, LANG and npm's own
 * switches only), its files written into its work directory; what it
 * leaves there is read back as hostile: through no symbolic link, a
 * regular file, capped. */
#ifndef AIRLOCK_LOCKJAIL_H
#define AIRLOCK_LOCKJAIL_H

#include <stddef.h>
#include <stdint.h>

#include "common/jail/jail.h"

struct lock_jail_opts {
	enum jail_mode mode;		/* uid or ns */
	uint32_t uid_first, uid_last;
	const char *state_dir;		/* the jail's own, traversable */
	uint64_t timeout_ms;		/* the command's whole run */
};

/* What a command other than npm sees (jail.h): its launchers and the
 * paths it may read and execute beyond the system's. */
struct lock_jail_view {
	const char *const *launchers;
	size_t nlaunchers;
	const char *const *ro_paths;
	size_t nro;
};

/* Run argv (argv[0] on PATH) with files in its work dir; when it exits 0,
 * read work/fetch (at most max bytes) into *out (malloc'd, the caller
 * frees) and its length to *outlen. 0, or -1 with a message in err
 * (errcap bytes) naming the step, with the tail of the command's stderr
 * (escaped) when it failed. */
int lock_jail_run(const struct lock_jail_opts *o, char *const *argv,
    const struct jail_file *files, size_t nfiles, const char *fetch,
    size_t max, uint8_t **out, size_t *outlen, char *err, size_t errcap);

/* lock_jail_run, but what is kept is the directory work/keep (through no
 * link), moved to dest (on the same file system as the jail's state
 * directory: uid mode) once every process of the command is gone; v
 * says what the command sees (NULL: npm's). */
int lock_jail_run_keep(const struct lock_jail_opts *o,
    const struct lock_jail_view *v, char *const *argv,
    const struct jail_file *files, size_t nfiles, const char *keep,
    const char *dest, char *err, size_t errcap);

/* What talks to a command run by lock_jail_run_drive: fn gets its
 * stdin, stdout and stderr (our non-blocking pipe ends) and the deadline
 * (clock.h), and returns 0, or -1 with why in err. */
struct lock_jail_drive {
	int (*fn)(void *ctx, int in, int out, int err_fd, int64_t deadline,
	    char *err, size_t errcap);
	void *ctx;
};

/* lock_jail_run, but d talks to the command (review submit --capture:
 * an MCP server) and v says what it sees; the command and all it started are killed when fn
 * returns, whatever it returned. No work files, nothing fetched. */
int lock_jail_run_drive(const struct lock_jail_opts *o,
    const struct lock_jail_view *v, char *const *argv,
    const struct lock_jail_drive *d, char *err, size_t errcap);

#endif
