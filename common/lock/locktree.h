/* locktree.h - an approved tree (npm's, or a uvx lock's: pytree.h)
 * installed once per lock digest, checked against its lock, sealed, and
 * checked again before each use.
 *
 * Layout, in a directory only the runner (root) writes:
 *   TREES/HEX/node_modules/...   the installed tree: root's, read-only
 *                                (HEX-scripts/ when the approval lets
 *                                install scripts run: another tree)
 *                                (dirs 0555, files 0444 or 0555)
 *   TREES/HEX.seal               "airlock-tree 1\n" content HEX\n stat HEX\n
 *   TREES/HEX.lk                 flock: one installer per digest,
 *                                removed with the tree (an install
 *                                that fails leaves none of these)
 *   TREES/HEX.tokens             the token ids that used the tree, one
 *                                base64url id a line: when every one is
 *                                revoked, locktree_sweep removes it
 *   TREES/HEX/site/..., TREES/HEX/entry/NAME   a uvx lock's (pytree.h)
 * Install (a uvx lock: pip, wheels only, then its RECORD check, pytree.h;
 * the walk, the seal and its checks as for npm):
 * `npm ci --ignore-scripts` (scripts only with the approval's
 * flag) from the lock and its package.json, in a one-shot jail of its
 * own (lockjail.h), npm checking every tarball's integrity; then the
 * tree moved out of the jail's work dir, every .bin directory removed
 * (airlock starts the bin with node itself), and refused when it holds a
 * symbolic link or anything but directories and regular files, a
 * package directory the lock does not name, or a package whose
 * package.json is not the lock's name and version (an optional package
 * may be absent). Then owned by root, made read-only, and sealed with
 * two digests of the walk (sorted by name): content (every path, type,
 * mode, size and SHA-256 of the bytes) and stat (every path, inode,
 * mode, owner, size, mtime and ctime, no bytes read).
 * Use: the stat digest again, compared with the seal: any write, chmod,
 * chown, rename, link or utimes through the file system changes a ctime
 * the kernel alone sets, so a changed byte cannot keep its seal. The
 * content digest is checked at install and when a runner prefetches. */
#ifndef AIRLOCK_LOCKTREE_H
#define AIRLOCK_LOCKTREE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "common/lock/lockjail.h"
#include "common/lock/lockstore.h"

enum locktree_result {
	LOCKTREE_OK = 0,
	LOCKTREE_LOCK_MISSING,		/* no lock file for the digest */
	LOCKTREE_LOCK_MISMATCH,		/* its bytes are not the digest's */
	LOCKTREE_BAD_LOCK,		/* not the lock of the command */
	LOCKTREE_INSTALL_FAILED,	/* npm ci, or the tree it left */
	LOCKTREE_TREE_CHANGED,		/* the sealed tree is not as sealed */
	LOCKTREE_SYSTEM,		/* a file or directory of ours */
	LOCKTREE_RESULT_MAX_
};

/* "ok", "lock_missing", "lock_mismatch", "bad_lock", "install_failed",
 * "tree_changed", "system". */
const char *locktree_result_name(enum locktree_result r);

struct locktree_cfg {
	const char *lock_store;		/* the lockfiles, read-only */
	const char *trees;		/* TREES, root's */
	struct lock_jail_opts install;	/* the installer's jail */
	const char *py_index;		/* pip's index (--py-index; NULL:
					 * PYTREE_INDEX) */
};

/* What a caller does while locktree_ready waits, for a tree's flock
 * another holds (an install elsewhere, a prefetch) or for its own install
 * (minutes, under load): fn(ctx, fd, ms) returns once fd (>= 0) is
 * readable or about ms milliseconds have passed, whichever comes first.
 * A lease keeps its relay's connection alive meanwhile (lease.c). */
struct locktree_wait {
	void (*fn)(void *ctx, int fd, int ms);
	void *ctx;
};

/* The command to run for an approved `npx -y NAME@VERSION ARGS` (or a
 * uvx command, lockread.h) whose token binds digest: the tree installed
 * (once) and its seal checked, then argv_out = node
 * TREES/HEX/node_modules/NAME/BIN ARGS, or python3 -I -S
 * TREES/HEX/entry/COMMAND ARGS (pointers into buf, bufcap bytes, and
 * into argv; argv_out has room for argc + 2 entries plus NULL).
 * *argc_out is set. With full, the content digest is checked
 * too. *installed (when not NULL) says whether this call ran the install
 * (0: the tree was there, sealed). On failure a message naming the check
 * in err. wait (NULL: block) is called while the call waits. */
enum locktree_result locktree_ready(const struct locktree_cfg *c,
    const uint8_t digest[LOCK_DIGEST_LEN], const uint8_t token_id[16],
    int scripts, const struct locktree_wait *wait,
    char *const *argv, size_t argc, int full, int *installed,
    char **argv_out, size_t *argc_out, char *buf, size_t bufcap, char *err,
    size_t errcap);

/* Remove every tree all of whose tokens are in revoked (a revoked
 * approval's tree does not outlive the list that revokes it), and what an
 * install that never finished left (no seal). Never waits for a tree's
 * flock: *busy counts the trees skipped because another held it (an
 * install, a lease's check), to sweep again later. The number of trees
 * removed. */
struct revocation_set;
size_t locktree_sweep(const struct locktree_cfg *c,
    const struct revocation_set *revoked, size_t *busy);

/* The two digests of the tree at dir (for the seal and its test). */
int locktree_digest(const char *dir, uint8_t content[32], uint8_t st[32]);

/* A seal's text (TREES/HEX.seal, above) for the two digests, into out
 * (NUL-terminated): its length, LOCKTREE_SEAL_LEN. */
#define LOCKTREE_SEAL_LEN (15 + 8 + 64 + 1 + 5 + 64 + 1)
size_t locktree_seal_text(const uint8_t content[32], const uint8_t st[32],
    char out[LOCKTREE_SEAL_LEN + 1]);

/* A seal's bytes text[0..len) read back (pure: the file may have been
 * changed by anyone who got at it): 0 with the two digests, or -1 when
 * it is not exactly locktree_seal_text's spelling of two digests. */
int locktree_seal_parse(const char *text, size_t len, uint8_t content[32],
    uint8_t st[32]);

/* 1 when a TREES/HEX.tokens text[0..len) lists at least one id (each a
 * line of 22 base64url characters) and every one is in revoked; 0 for
 * anything else (a malformed line keeps the tree: nothing proves it
 * unused). Pure. */
int locktree_tokens_revoked(const uint8_t *text, size_t len,
    const struct revocation_set *revoked);

#endif
