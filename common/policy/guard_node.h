/* guard_node.h - node's command line, parsed as node parses it: a fixed
 * table of options, a preloaded module or the script only a script path
 * below a --script-dir; and tsx's, which is node's with a few of its
 * own. Internal to the guard; the grammar is in docs/GUARD.md. */
#ifndef AIRLOCK_GUARD_NODE_H
#define AIRLOCK_GUARD_NODE_H

#include <stddef.h>

#include "common/policy/guard_walk.h"

/* Check argv[i..] as node's (argv[i] names node). */
enum guard_verdict node_check(struct guard_walk *c, size_t i);
/* Check argv[i..] as tsx's: node's grammar, which tsx hands its argv to,
 * and tsx's few options of its own. */
enum guard_verdict tsx_check(struct guard_walk *c, size_t i);

#endif
