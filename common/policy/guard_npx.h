/* guard_npx.h - npx's command line, parsed as npm's npx-cli and libnpmexec
 * read it: npx's few options, the packages, the command word. Internal to
 * the guard; the grammar is in docs/GUARD.md. */
#ifndef AIRLOCK_GUARD_NPX_H
#define AIRLOCK_GUARD_NPX_H

#include <stddef.h>

#include "common/policy/guard_walk.h"

/* Check argv[i..] as npx's (argv[i] names npx). */
enum guard_verdict npx_check(struct guard_walk *c, size_t i);

#endif
