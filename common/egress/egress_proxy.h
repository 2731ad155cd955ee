/* egress_proxy.h - the egress proxy: one lease's only way out.
 *
 * A client inside the lease sends "CONNECT host:port" (common/
 * connect_req.h). The proxy answers 400/405/431 to anything else, 403
 * unless the allow list names host:port exactly, resolves a name itself
 * (the lease never does DNS), classes every resolved address
 * (common/egress/addrclass.h) and connects only to one that passed: a public
 * address, or any address the allow list names as an IP literal. The
 * socket connects to the very sockaddr that was checked, so no second
 * lookup can rebind the name between check and connect. Then it answers
 * 200 and copies bytes both ways through two bounded buffers until both
 * sides are done, an error, or EGRESS_IDLE_MS without a byte.
 *
 * Every connection ends in exactly one log line ("egress") with the
 * lease, host, port, resolved address, bytes each way, duration, and the
 * verdict with its reason; and in the runner's metrics. */
#ifndef AIRLOCK_EGRESS_PROXY_H
#define AIRLOCK_EGRESS_PROXY_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

#include "common/egress/egress_allow.h"

#define EGRESS_REQUEST_MS 10000		/* the whole request */
#define EGRESS_CONNECT_MS 10000		/* each address tried */
#define EGRESS_IDLE_MS 300000		/* no byte either way */
#define EGRESS_CONNS_MAX 64		/* open at once, per lease */
#define EGRESS_ADDRS_MAX 16		/* resolved addresses tried */
#define EGRESS_BUF 65536		/* each direction's buffer */

/* How a connection ended; also the label of its metric. */
enum egress_verdict {
	EGRESS_ALLOWED,		/* tunnelled */
	EGRESS_NOT_LISTED,	/* host:port not in the allow list */
	EGRESS_ADDRESS,		/* every resolved address refused */
	EGRESS_BAD_REQUEST,	/* malformed, too big, another method */
	EGRESS_RESOLVE,		/* the name did not resolve */
	EGRESS_CONNECT,		/* no allowed address answered */
	EGRESS_INCOMPLETE,	/* the client left or stalled mid-request */
	EGRESS_N_
};

const char *egress_verdict_name(enum egress_verdict v);

/* Serve one accepted client (fd, owned and closed here): request,
 * decision, tunnel, log line. Returns the verdict. */
enum egress_verdict egress_proxy_conn(int fd, const struct egress_allow *a,
    const char *lease_id);

/* Compile the proxy's seccomp allowlist (egress_proxy.c says what it
 * holds and why) into out, the caller's to free with
 * seccomp_policy_free: done once by the runner at start-up, so the proxy
 * never runs libseccomp. A call outside it kills the process (SIGSYS).
 * 0, or -1 with err set. */
int egress_proxy_filter(struct sock_fprog *out, char *err, size_t errlen);

/* Install filter on this process (single-threaded, no_new_privs already
 * set: else -1 with errno EPERM and nothing served), then accept on
 * listen_fd and serve each connection in a child process of its own (at
 * most EGRESS_CONNS_MAX at once; more wait in the backlog), each under
 * the same filter and tied to this process by its parent-death signal:
 * when this process ends, each connection stops within seconds and still
 * writes its log line; one the filter killed gets an error line from
 * this process instead. Returns only when the filter cannot be installed
 * or listen_fd fails: -1 with errno. */
int egress_proxy_run(int listen_fd, const struct sock_fprog *filter,
    const struct egress_allow *a, const char *lease_id);

#endif
