/* guard_tsnode.h - ts-node's command line (ts-node, ts-node-esm,
 * ts-node-script, ts-node-cwd, ts-node-transpile-only, ts-script), parsed
 * as ts-node's own option table reads it: not node's, where -C means
 * --conditions; to ts-node it is --compiler, a module it loads. Internal
 * to the guard; the grammar is in docs/GUARD.md. */
#ifndef AIRLOCK_GUARD_TSNODE_H
#define AIRLOCK_GUARD_TSNODE_H

#include <stddef.h>

#include "common/policy/guard_walk.h"

/* Check argv[i..] as ts-node's (argv[i] names a ts-node bin). */
enum guard_verdict tsnode_check(struct guard_walk *c, size_t i);

#endif
