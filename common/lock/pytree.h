/* pytree.h - the Python half of an approved tree (locktree.h does the
 * rest: flock, install in a jail, seal, sweep): pip's command for a uvx
 * lock, what pip left checked against the lock and each wheel's RECORD,
 * the launchers of the console scripts, the python3 argv of one.
 *
 * TREES/HEX/site/...     pip --target: the distributions, their
 *                        dist-info (bin/, pip's scripts, removed)
 * TREES/HEX/entry/NAME   a launcher per console script of the command's
 *                        distribution, written here: it puts site/ on
 *                        sys.path (site.addsitedir) and calls the entry
 *                        point, so python3 -I -S runs it (no user or
 *                        system site-packages, no PYTHON* variable), never
 *                        the script pip wrote (the installer's shebang) */
#ifndef AIRLOCK_PYTREE_H
#define AIRLOCK_PYTREE_H

#include <stddef.h>

#include "common/lock/pylock.h"

#define PYTREE_LOCK_FILE "lock.txt"	/* the rendered lock, pip's -r */
#define PYTREE_KEEP "site"		/* what the installer leaves */
#define PYTREE_PIP_ARGC 22		/* pytree_pip_argv's room */
#define PYTREE_INDEX "https://pypi.org/simple/"

#define PYTREE_INDEX_MAX 1024

/* NULL when url may be pip's index (--py-index): http:// or https://, a
 * host, printable ASCII without space, no credentials (`@`: pip's argv
 * is readable in /proc), query or fragment, at most PYTREE_INDEX_MAX
 * bytes; else why not. */
const char *pytree_index_refusal(const char *url);

/* pip's argv (python3 -m pip install ...: wheels only, every hash
 * required, no dependency but the lock's, no .pyc, no cache, no config
 * or PIP_* variable read) into argv (PYTREE_PIP_ARGC entries), index
 * the simple API it reads; idx (at least strlen(index) + 13 bytes) holds
 * the --index-url word. */
void pytree_pip_argv(const char *index, char **argv, char *idx,
    size_t idxcap);

/* Before the tree is walked and sealed: pip's bin/ removed. */
void pytree_prune(const char *tree);

/* After the walk (no link, root's): every dist-info in site/ is a lock
 * distribution's (name and version) and every distribution of the lock
 * is there once; every file a RECORD lists with a hash is there with its
 * size and SHA-256, every file in site/ is listed by one RECORD (pip's
 * scripts excepted: removed), only a RECORD itself unhashed; then the
 * launchers of top's console scripts written. 0, or -1 naming the check
 * in err. */
int pytree_check(const char *tree, const struct py_lock *l,
    const struct py_dist *top, char *err, size_t errcap);

/* argv_out = python3 -I -S TREE/entry/COMMAND ARGS..., ARGS argv's from
 * spec->args on (pointers into argv; the path in buf): argv_out has
 * room for argc + 2 entries and NULL. 0, or -1 with err (the command is
 * no console script of its distribution, or buf is too small). */
int pytree_argv(const char *tree, const struct py_spec *spec,
    char *const *argv, size_t argc, char **argv_out, size_t *argc_out,
    char *buf, size_t bufcap, char *err, size_t errcap);

#endif
