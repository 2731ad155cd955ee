/* metrics_http.h - the service's probe and metrics endpoint: GET /metrics
 * (Prometheus text 0.0.4), /healthz (the process answers) and /readyz
 * (ready, not draining, below capacity: the shared gauges of metrics.h),
 * one request per connection, in a process of its own with no privileges
 * (uid/gid 65534 where the service may switch, no_new_privs), so a probe
 * or a hostile scraper never touches the supervisor. One event loop, no
 * blocking step: each connection has 2 s from accept to its answer's last
 * byte; up to 512 are open at once, shared fairly by source (pending.h),
 * and when full a new source's connection evicts the heaviest source's
 * oldest, so idle or slow connections cannot keep a probe out. It never
 * logs per request. */
#ifndef AIRLOCK_METRICS_HTTP_H
#define AIRLOCK_METRICS_HTTP_H

#include <stdint.h>
#include <sys/types.h>

#include "common/service/metrics.h"

/* --metrics ADDR for a service, at start-up (before its secret is loaded,
 * so the endpoint's process never holds it): the shared counters, the
 * listener and the endpoint's process, capacity published. Local peers
 * whose uid is in [lease_first, lease_last] (the jailed children's; last
 * 0: none) are closed at accept (common/service/localpeer.h). check_only
 * (a preflight): the address is only tried. Dies with the flag named when
 * a step fails (applet start-up, not a library path). */
void xmetrics_listen_start(const char *addr, enum metrics_service which,
    uint64_t capacity, uid_t lease_first, uid_t lease_last, int check_only);

/* The answer to one request's bytes (pure, for tests and the fuzzer):
 * writes the whole HTTP response into out (cap bytes) and returns its
 * length; 0 while the request is incomplete (read more). */
size_t metrics_http_answer(const char *req, size_t len, int eof, char *out,
    size_t cap);

#endif
