/* guard_python.h - CPython's command line, parsed as CPython's getopt
 * does, and the module rule python -m and uv run -m share. Internal to the
 * guard; the grammar is in docs/GUARD.md. */
#ifndef AIRLOCK_GUARD_PYTHON_H
#define AIRLOCK_GUARD_PYTHON_H

#include <stddef.h>

#include "common/policy/guard_walk.h"

/* Check argv[i..] as python's (argv[i] names a python). */
enum guard_verdict python_check(struct guard_walk *c, size_t i);
/* argv[idx] (m: from some offset in it) is the module of -m: a dotted
 * name the operator allowed whose top package is no REPL, debugger or
 * program runner. who names the launcher in a refusal. */
enum guard_verdict python_module(struct guard_walk *c, size_t idx,
    const char *m, const char *who);

#endif
