/* gateway_config.h - the gateway's configuration, as the applet fills it:
 * what the listeners (gateway) and each connection (gw_conn) read. Its
 * own header so that neither of the two includes the other's. */
#ifndef AIRLOCK_GATEWAY_CONFIG_H
#define AIRLOCK_GATEWAY_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "common/gateway/piston.h"
#include "common/wire/secret.h"

#define GATEWAY_LISTEN_MAX 4

struct gateway_config {
	const char *listen[GATEWAY_LISTEN_MAX];
	size_t nlisten;
	int allow_remote;		/* listeners beyond loopback */
	const char *connect;		/* the sandbox service */
	uint8_t psk[SECRET_PSK_LEN];	/* from the shared secret */
	const char *default_tenant;	/* NULL: every request names one */
	struct piston_runtime runtimes[2];
	size_t nruntimes;
	uint64_t max_body;		/* bytes of a request body */
	uint64_t max_output;		/* bytes per stream asked for and kept */
	uint64_t read_timeout_ms, write_timeout_ms, connect_ms;
	uint64_t drain_ms;		/* SIGTERM: requests in flight get this */
	unsigned max_conns;
};

#endif
