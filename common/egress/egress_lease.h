/* egress_lease.h - a lease's own network namespace (the runner's default
 * in uid and ns mode; --shared-network opts out) with only loopback, and
 * the runner's egress proxy (common/egress/egress_proxy.h) as its only
 * way out.
 *
 * The lease handler (root, one thread) calls egress_lease_start right
 * before it spawns the child:
 *   1. it keeps a handle on its own network namespace, unshares a new one
 *      (owned by the runner's user namespace: nothing in the lease, not
 *      even its user-namespace root, can add an address, a route or an
 *      interface to it), brings "lo" up and listens on
 *      EGRESS_LEASE_HOST:EGRESS_LEASE_PORT inside it;
 *   2. it forks the proxy, which goes back to the runner's namespace,
 *      drops to the lease's uid and gid (no capabilities, no_new_privs),
 *      installs its seccomp allowlist (egress_proxy_filter) and serves
 *      the listening socket: accepted connections come from
 *      inside the lease, outbound ones leave from the runner's network;
 *   3. the handler stays in the new namespace, so the child it spawns
 *      next (the jail adds no network namespace of its own) starts there,
 *      with the listener already in place: no start-up race.
 * Plain connect() to anything but loopback fails with ENETUNREACH; UDP,
 * DNS and raw sockets reach nothing; no other lease shares the
 * namespace, so nothing of another lease can reach a socket in it. */
#ifndef AIRLOCK_EGRESS_LEASE_H
#define AIRLOCK_EGRESS_LEASE_H

#include <linux/filter.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/egress/egress_allow.h"
#include "common/jail/jail.h"

#define EGRESS_LEASE_HOST "127.0.0.1"
#define EGRESS_LEASE_PORT 3128
#define EGRESS_LEASE_URL "http://127.0.0.1:3128"

/* The word of an --egress-allow list that stands for the launcher's own
 * package hosts (egress_launcher_hosts), and the list's default. */
#define EGRESS_LAUNCHER_WORD "launcher"

/* The runner's: fixed at start-up (a reload builds a new one). */
struct egress_config {
	struct egress_allow base;	/* --egress-allow's host:port pairs */
	int launcher;			/* it names EGRESS_LAUNCHER_WORD */
};

struct egress_lease {
	pid_t pid;		/* the proxy; 0 when none */
	int pidfd;		/* signals reach it even once reaped */
	size_t nrules;		/* its list's size, for the log */
};

/* Parse --egress-allow into ec: NULL is the default, "launcher"; "none"
 * the empty list; else comma-separated entries, each host:port
 * (egress_allow.h) or the word launcher. 0, or -1 with a message. */
int egress_config_parse(struct egress_config *ec, const char *text,
    char *err, size_t errlen);

/* Can this process give a lease its own network namespace: unshare
 * CLONE_NEWNET (CAP_SYS_ADMIN), loopback up in it (CAP_NET_ADMIN) and
 * the proxy's listener, tried in a child as a lease's handler would? 0,
 * or -1 with why naming the step and the privilege it lacks, and the
 * container profile that fits the jail mode. */
int egress_netns_trial(enum jail_mode mode, char *why, size_t whylen);

/* egress_config_parse, then check the jail can give every lease its own
 * network namespace: uid or ns mode, and egress_netns_trial. 0, or -1
 * with a message in err naming what to change (the flag that opts
 * out). */
int egress_config_init(struct egress_config *ec, const char *text,
    const struct jail *j, char *err, size_t errlen);

/* The host:port pairs the launcher argv0 (the guard's bare word) fetches
 * packages from: npx the npm registry, uvx and uv PyPI's index and
 * files; "" for any other. A static string. */
const char *egress_launcher_hosts(const char *argv0);

/* One lease's list into a: the base list, the hosts of launcher (NULL:
 * none, as for a locked tree, which fetches nothing) when the base list
 * names the word, and extra (extra_len bytes of an approval's list, may
 * be 0). 0, or -1 with a message. */
int egress_lease_rules(const struct egress_config *ec, const char *launcher,
    const char *extra, size_t extra_len, struct egress_allow *a, char *err,
    size_t errlen);

/* Steps 1-3 above for the lease lease_id, whose uid and gid the proxy
 * takes, its policy a (copied); the proxy installs filter
 * (egress_proxy_filter, required) once it has dropped to them, before it
 * reads a byte of the lease's. 0, or -1 with a message (this process may
 * then be in a namespace with no way out: the caller refuses the lease). */
int egress_lease_start(const struct egress_allow *a,
    const struct sock_fprog *filter, const char *lease_id, uid_t uid,
    gid_t gid, struct egress_lease *el, char *err, size_t errlen);

/* Kill the proxy and its connections (safe when none was started). */
void egress_lease_stop(struct egress_lease *el);

/* Point the child's clients at the proxy: drop any proxy variables the
 * tenant set, then add HTTPS_PROXY, HTTP_PROXY, ALL_PROXY (and lower-case
 * forms), NO_PROXY for loopback, npm_config_proxy and
 * npm_config_https_proxy, PIP_PROXY and NODE_USE_ENV_PROXY=1. envp is
 * NULL-terminated with room for cap pointers; the added strings are
 * static. 0, or -1 when there is no room. */
int egress_env(char **envp, size_t cap);

#endif
