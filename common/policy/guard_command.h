/* guard_command.h - the guard's dispatcher: what a command word would
 * run (a launcher, whose grammar then checks the rest of argv; a shell,
 * interpreter or command runner, refused; anything else, a package's own
 * bin), and entering a launcher's grammar, at most GUARD_DEPTH_MAX deep.
 * Internal to the guard; its API is guard.h. */
#ifndef AIRLOCK_GUARD_COMMAND_H
#define AIRLOCK_GUARD_COMMAND_H

#include <stddef.h>

#include "common/policy/guard_walk.h"

#define GUARD_DEPTH_MAX 4	/* npx -> uvx -> uv -> python is absurd */

enum guard_kind {
	KIND_NONE,	/* not a launcher: a package's bin */
	KIND_NODE, KIND_TSX, KIND_TSNODE, KIND_PYTHON, KIND_NPX, KIND_UVX,
	KIND_UV,
	KIND_DENY	/* a shell, interpreter or runner */
};

/* What the program name name[0..n) is, ignoring ASCII case. */
enum guard_kind command_kind(const char *name, size_t n);
/* Check the command word argv[j], whose program name is name[0..n) (a
 * scoped package's name without its scope), with its launcher's grammar;
 * who names the launcher that runs it in a refusal. */
enum guard_verdict command_check_named(struct guard_walk *c, size_t j,
    const char *name, size_t n, const char *who);
/* The same, the name being the first n bytes of argv[j]. */
enum guard_verdict command_check(struct guard_walk *c, size_t j, size_t n,
    const char *who);
/* Check argv[j..] with the grammar of launcher k (argv[j] is the
 * launcher); GUARD_TOO_DEEP past GUARD_DEPTH_MAX launchers. */
enum guard_verdict command_launch(struct guard_walk *c, size_t j,
    enum guard_kind k);

#endif
