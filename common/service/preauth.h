/* preauth.h - the pre-authentication process of a service (privilege
 * separation in the OpenSSH sense). One process, forked by the supervisor
 * and restarted when it dies, owns the listening sockets: it accepts,
 * runs every Noise handshake in one event loop (common/wire/noise.c), and hands
 * each connection that completed one - only those - to the supervisor
 * over its control socket (common/service/ctlmsg.h CONN: the fd and the transport
 * state). It runs under its own uid, with no capability, no_new_privs,
 * rlimits that forbid forking, and a seccomp allowlist (no open, socket,
 * connect, fork or exec). A crash costs the handshakes in flight,
 * never a lease: leases live in other processes.
 *
 * A connection from a lease (a local peer whose uid is in the lease range,
 * common/service/localpeer.h) is closed at accept, before any handshake
 * work; so is a loopback peer whose uid cannot be told. Pending handshakes
 * are bounded and shared fairly among sources (common/service/pending.h:
 * a local peer is its uid); each must complete within the handshake
 * deadline.
 * Refusals, failures and drops are logged as one summary line at most
 * every PREAUTH_SUMMARY_MS, never one line per connection. */
#ifndef AIRLOCK_PREAUTH_H
#define AIRLOCK_PREAUTH_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/wire/secret.h"

#define PREAUTH_SUMMARY_MS 10000
#define PREAUTH_PENDING_DEFAULT 256	/* MaxStartups' "full" */

struct preauth_config {
	const struct secret_ring *ring;	/* the secrets accepted: each is
					 * tried in turn (at most
					 * SECRET_RING_MAX tag checks) */
	uint32_t versions;		/* protocol versions accepted, a
					 * mask (common/wire/version.h); 0: the
					 * build's VERSION_ACCEPTED */
	const char *const *words;	/* prologue words accepted besides
					 * none (a sandbox's languages) */
	size_t nwords;			/* at most VERSION_WORDS_MAX */
	const int *listeners;		/* non-blocking listening sockets */
	size_t nlisteners;
	int ctl;			/* SEQPACKET to the supervisor */
	uint32_t handshake_ms;		/* accept to msg2 sent */
	uint32_t max_pending;		/* pending handshakes in all */
	uint32_t max_per_source;	/* of one source (pending.h) */
	const char *per_source_flag;	/* the flag that sets it, for logs */
	int diag;			/* localpeer_open's socket */
	uid_t lease_first, lease_last;	/* local peers of these uids (the
					 * leases') are closed at accept;
					 * last 0: none */
};

/* Who the process runs as. change 0: stay (an unprivileged service
 * already is its own uid); else setgroups/setresgid/setresuid to these,
 * never 0. */
struct preauth_identity {
	int change;
	uid_t uid;
	gid_t gid;
};

/* Compile the pre-auth syscall allowlist into out (the caller frees it
 * with seccomp_policy_free). Done once by the supervisor, so the child
 * never runs libseccomp. 0, or -1 with err set. */
int preauth_filter(struct sock_fprog *out, char *err, size_t errlen);

/* In the freshly forked process: take id, drop every capability, set
 * no_new_privs and non-dumpable, rlimits (no fork, at most nofile fds,
 * no core), then install filter. Every step is checked;
 * 0, or -1 with err naming the step that failed. */
int preauth_confine(const struct preauth_identity *id,
    const struct sock_fprog *filter, unsigned nofile, char *err,
    size_t errlen);

/* The event loop: says READY on cfg->ctl, then serves. Returns when the
 * supervisor is gone (its control socket closed) or a hand-off failed:
 * the process then exits. */
int preauth_serve(const struct preauth_config *cfg);

#endif
