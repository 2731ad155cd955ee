/* gateway.h - `airlock sandbox gateway`: an HTTP/1.1 JSON API in Piston's
 * v2 shape, in the platform's container (like the relay), forwarding
 * each request over the sandbox protocol (Noise, the shared secret) to
 * `sandbox serve` through the client of `sandbox call` (sbx_client).
 *
 * One process per connection, one request per connection (every answer
 * says Connection: close; bytes after the request's body are never read
 * as a second request). The head and body must arrive within
 * read_timeout_ms, the answer leave within write_timeout_ms; at most
 * max_conns connections at once (past it: 503 gateway_busy at once).
 * Listeners are loopback TCP or unix sockets (0600) unless allow_remote. */
#ifndef AIRLOCK_GATEWAY_H
#define AIRLOCK_GATEWAY_H

#include <stddef.h>

#include "common/gateway/gateway_config.h"

/* Listen on every address of c; listening fds go to fds[0..c->nlisten).
 * 0; GATEWAY_LISTEN_USAGE when an address does not parse,
 * GATEWAY_LISTEN_REFUSED when one is not loopback without allow_remote,
 * -1 when a socket failed; err names the address. */
enum { GATEWAY_LISTEN_USAGE = -3, GATEWAY_LISTEN_REFUSED = -2 };
int gateway_listen(const struct gateway_config *c, int *fds, char *err,
    size_t errlen);

/* Serve on fds until SIGTERM or SIGINT (sigfd: a signalfd for those and
 * SIGCHLD), then drain: stop listening, give requests in flight
 * drain_ms, end the rest. Returns 0, or -1 with err. */
int gateway_serve(const struct gateway_config *c, const int *fds, int sigfd,
    char *err, size_t errlen);

#endif
