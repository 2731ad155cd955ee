/* gw_conn.h - one connection to the gateway, in its own process: read
 * one request within the deadline, route it (GET /api/v2/runtimes, POST
 * /api/v2/execute), forward an execution to the sandbox service, answer
 * with one JSON body (a result, the runtimes, or an error object with a
 * stable code), log one line, close. */
#ifndef AIRLOCK_GW_CONN_H
#define AIRLOCK_GW_CONN_H

#include <stddef.h>
#include <stdint.h>

#include "common/gateway/gateway_config.h"

/* Serve the connection fd (the caller's; closed here). */
void gw_conn_serve(const struct gateway_config *c, int fd);

/* An answer's status line text ("429 Too Many Requests") for a status. */
const char *gw_status_text(int status);

/* The HTTP status of a sandbox service's refusal (enum sbx_error). */
int gw_refusal_status(unsigned code);

/* Write a whole HTTP/1.1 answer (JSON body, Connection: close) to fd
 * within deadline (mono_ms); extra: more header lines, each ending CRLF,
 * or NULL. 0, or -1 when the peer did not take it. */
int gw_answer(int fd, int status, const char *extra, const char *body,
    size_t len, int64_t deadline);

#endif
