/* runner_listen.h - the start of a stand-in runner (abrupt_runner,
 * hostile_runner): its listener on ADDR and its key from SECRET_FILE. */
#ifndef TEST_RUNNER_LISTEN_H
#define TEST_RUNNER_LISTEN_H

#include <stdio.h>
#include <stdlib.h>

#include "common/wire/netaddr.h"
#include "common/wire/secret.h"

/* The listening socket on addr, psk loaded from secret_file; on failure
 * "PROG: why" on stderr and exit 1. */
static int
runner_listen(const char *prog, const char *addr, const char *secret_file,
    uint8_t psk[SECRET_PSK_LEN])
{
	struct netaddr a;
	char err[512];
	int lfd = -1;

	if (netaddr_parse(&a, addr, err, sizeof err) != 0 ||
	    secret_load_psk(secret_file, psk, err, sizeof err) != 0 ||
	    (lfd = netaddr_listen(&a, err, sizeof err)) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		exit(1);
	}
	return lfd;
}

#endif
