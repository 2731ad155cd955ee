/* guard_uv.h - uv's and uvx's command lines, parsed as uv's clap
 * definitions read them: uv's options, uvx / uv tool run's tool, uv run's
 * command, script or module. Internal to the guard; the grammar is in
 * docs/GUARD.md. */
#ifndef AIRLOCK_GUARD_UV_H
#define AIRLOCK_GUARD_UV_H

#include <stddef.h>

#include "common/policy/guard_walk.h"

/* Check argv[i..] as uvx's (uvx 1) or uv's (uvx 0). */
enum guard_verdict uv_check(struct guard_walk *c, size_t i, int uvx);

#endif
