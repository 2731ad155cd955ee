/* landlock.h - Linux Landlock for a jailed child: which ABI the kernel
 * offers, which features a configuration needs, and the ruleset itself.
 *
 * Landlock lets an unprivileged process confine itself and its future
 * children: file-system access beneath given directories (ABI 1; rename
 * across directories ABI 2; truncate ABI 3; device ioctl ABI 5), TCP bind
 * and connect by port (ABI 4), and scoping of signals and abstract unix
 * sockets to the process's own domain (ABI 6). The constants are defined
 * here, not taken from <linux/landlock.h>: the build's kernel headers
 * predate ABI 4.
 *
 * landlock_apply() runs in the child between fork and execve: it only
 * makes system calls (no allocation, no stdio), and must come after
 * PR_SET_NO_NEW_PRIVS. */
#ifndef AIRLOCK_LANDLOCK_H
#define AIRLOCK_LANDLOCK_H

#include <stddef.h>
#include <stdint.h>

#define LANDLOCK_ABI_KNOWN 7	/* the newest ABI this code knows about */

/* What a configuration asks of Landlock, as feature bits. */
enum landlock_feature {
	LANDLOCK_FEAT_FS = 1u << 0,		/* ABI 1: path rules */
	LANDLOCK_FEAT_TRUNCATE = 1u << 1,	/* ABI 3 */
	LANDLOCK_FEAT_BIND = 1u << 2,		/* ABI 4: deny TCP bind */
	LANDLOCK_FEAT_CONNECT = 1u << 3,	/* ABI 4: TCP connect ports */
	LANDLOCK_FEAT_SCOPE_SIGNAL = 1u << 4,	/* ABI 6 */
	LANDLOCK_FEAT_SCOPE_ABSTRACT = 1u << 5	/* ABI 6 */
};

#define LANDLOCK_PATHS_MAX 160
#define LANDLOCK_PORTS_MAX 64

/* One child's ruleset. Every pointer must stay valid in the child; the
 * strings are absolute paths as the child sees them (after pivot_root in
 * ns mode). A path that does not exist is skipped: a missing directory
 * only ever means less access. */
struct landlock_spec {
	unsigned abi;			/* ABI to use: 1..LANDLOCK_ABI_KNOWN */
	unsigned features;		/* enum landlock_feature bits to apply */
	const char *ro[LANDLOCK_PATHS_MAX];	/* read + execute */
	size_t nro;
	const char *rw[LANDLOCK_PATHS_MAX];	/* everything handled */
	size_t nrw;
	uint16_t ports[LANDLOCK_PORTS_MAX];	/* TCP connect allowlist */
	size_t nports;
};

/* The kernel's Landlock ABI: 0 when Landlock is absent or disabled (with
 * *why, a static phrase, set when not NULL), else 1... */
unsigned landlock_abi(const char **why);

/* The lowest ABI that offers every feature in features. */
unsigned landlock_abi_needed(unsigned features);

/* The features of `features` that ABI abi lacks. */
unsigned landlock_missing(unsigned features, unsigned abi);

/* Human names of the feature bits in features, comma-separated, with the
 * ABI each needs ("signal scoping (ABI 6)"), into buf. Returns buf. */
char *landlock_feature_names(unsigned features, char *buf, size_t len);

/* Build and enforce the ruleset of spec on the calling thread (which must
 * have no_new_privs set). 0, or -1 with errno and *step naming the part
 * that failed ("landlock-ruleset", "landlock-rule", "landlock-restrict"). */
int landlock_apply(const struct landlock_spec *spec, const char **step);

#endif
