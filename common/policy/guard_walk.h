/* guard_walk.h - what every launcher grammar of the guard shares while it
 * walks one argv: the walk's state, its refusals and pin findings, the
 * rule for a script path and the operator's index list. Internal to the
 * guard (common/policy/guard*.c); its API is guard.h. */
#ifndef AIRLOCK_GUARD_WALK_H
#define AIRLOCK_GUARD_WALK_H

#include <stddef.h>

#include "common/policy/guard_policy.h"
#include "common/policy/guard_result.h"

struct guard_walk {
	const struct guard_policy *policy;
	const char *const *argv;
	size_t argc;
	struct guard_result *res;
	int depth;		/* launchers entered, guard_command.h */
	/* the first finding of the pinned-version rules; guard_check ignores
	 * it, guard_check_pinned reports it */
	enum guard_verdict pin;
	size_t pin_index;
	const char *pin_who, *pin_why;
};

/* Record a refusal in c->res and return v: walk_deny_plain with why as
 * the reason, walk_deny with "who: why: 'argv[idx]'" (quoted, escaped,
 * cut at GUARD_QUOTE_MAX bytes). who and why are static text. */
enum guard_verdict walk_deny_plain(struct guard_walk *c, enum guard_verdict v,
    size_t idx, const char *why);
enum guard_verdict walk_deny(struct guard_walk *c, enum guard_verdict v,
    size_t idx, const char *who, const char *why);
/* Note a pinned-version finding (v is GUARD_UNPINNED or
 * GUARD_NOT_PACKAGE); only the first is kept. */
void walk_pin(struct guard_walk *c, enum guard_verdict v, size_t idx,
    const char *who, const char *why);
/* argv[idx] (p: from offset p - argv[idx] on) names a program file: it
 * must be a canonical path strictly below a --script-dir; it is then
 * added to c->res->scripts for the runner to check on disk. */
enum guard_verdict walk_script(struct guard_walk *c, size_t idx,
    const char *p, const char *who);
/* The value of the option at argv[*jp]: after its '=' (eq, NULL when
 * there is none) or else the next word, *jp then moved to it. Refuses an
 * option that ends argv without one. */
enum guard_verdict walk_value(struct guard_walk *c, size_t *jp,
    const char *eq, const char *who, const char **v);
/* 1 if the operator allowed exactly this registry or index URL. */
int walk_index_allowed(const struct guard_walk *c, const char *v);

#endif
