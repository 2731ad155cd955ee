/* lease.h - one runner connection from hand-off to teardown, run in its
 * own process (forked by the runner per authenticated connection; the
 * handshake ran in the pre-auth process, common/service/preauth.h):
 *   SPAWN (deadline) -> admission (supervisor: tenant caps)
 *   -> guard -> env policy -> approval -> spawn -> STARTED -> relay -> EXIT -> end.
 * The connection is the child's lease: when it ends, errors or goes silent,
 * when the child's stdin reached EOF and it has not exited within the
 * grace, or at --max-lease-duration, the child's whole tree gets SIGTERM,
 * then SIGKILL after the grace. */
#ifndef AIRLOCK_LEASE_H
#define AIRLOCK_LEASE_H

#include <stdint.h>

#include "common/policy/eckey.h"
#include "common/egress/egress_lease.h"
#include "common/lock/locktree.h"
#include "common/policy/guard.h"
#include "common/jail/jail.h"
#include "common/wire/noise.h"
#include "common/policy/revocation.h"

struct lease_config {
	struct secret_ring *ring;	/* the supervisor's copy: wiped */
	uint32_t handshake_ms;		/* hand-off to SPAWN deadline */
	uint32_t kill_grace_ms;		/* SIGTERM -> SIGKILL */
	uint32_t ping_ms;		/* the relay's PING interval */
	uint32_t liveness_ms;		/* silence that ends the lease */
	uint64_t max_lease_ms;		/* --max-lease-duration */
	const char *jail_name;		/* reported in STARTED and logs */
	const struct jail *jail;	/* the service's jail (jail_init) */
	const struct guard_policy *guard;
	const char *path;		/* PATH given to every child */
	const char *launcher_path;	/* PATH when a launcher looks a
					 * command word up (guardfs.h) */
	const char *lang;		/* LANG given to every child */
	const char *state_dir;		/* per-lease HOME and TMPDIR below */
	const struct eckey_pub *review_key;	/* NULL: approvals not enforced */
	struct revocation_set *revoked;	/* NULL: no revocation list */
	const struct locktree_cfg *locks;	/* --lock-store; NULL: a token
					 * that binds a lock is refused */
	int require_lock;		/* --require-lock: a token for npx,
					 * uvx or uv without a lock is refused */
	const char *surface_store;	/* --surface-store; NULL: a token
					 * that pins a surface is refused */
	int control_fd;			/* SEQPACKET to the supervisor */
	int sigfd;			/* service_handler_signals() */
	uint16_t refuse_code;		/* non-zero: refuse after handshake */
	const char *refuse_message;
	const struct egress_config *egress;	/* a network namespace per
					 * lease, the egress proxy its only way
					 * out; NULL: the runner's network
					 * (--shared-network, --jail none) */
	const struct sock_fprog *egress_filter;	/* the proxy's seccomp
					 * allowlist (egress_proxy_filter), set
					 * with egress */
};

/* Serve the authenticated connection conn_fd with its transport state *t
 * (taken over and wiped), speaking protocol version (the one its msg1
 * authenticated under: version.h); returns the handler's exit status.
 * The caller has made this process a subreaper and set its parent-death
 * signal. lease_id is a short printable id for logs. */
int lease_serve(const struct lease_config *cfg, int conn_fd,
    struct noise_transport *t, unsigned version, const char *peer,
    const char *lease_id);

/* Pure helpers of lease.c, exposed for its unit test. */
/* The refusal code (enum lease_error, proto.h) a guard verdict other
 * than GUARD_OK sends: launcher, inline code, else argv. */
unsigned lease_guard_error(enum guard_verdict v);
/* How a lease ended, as the leases metric's label (enum in metrics.h):
 * the limit that killed it first (memory, then pids), else end_reason,
 * one of lease.c's literals; anything else is an error. */
unsigned lease_end_label(const char *end_reason, const struct jail_stats *st);

#endif
