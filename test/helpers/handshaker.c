/* handshaker.c - the relay's side of the Noise handshake, as fast as it
 * goes: handshaker ADDR SECRET_FILE SECONDS PROCS forks PROCS processes
 * that each connect, complete one handshake and close, again and again,
 * for SECONDS; prints "handshakes=N failed=M". For bench/handshake.sh. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/wire/channel.h"
#include "common/base/clock.h"
#include "common/wire/netaddr.h"
#include "common/wire/secret.h"

int
main(int argc, char **argv)
{
	struct netaddr a;
	uint8_t psk[32];
	char err[256];
	long *counts;
	int64_t until;
	long ok = 0, bad = 0;
	int procs;

	if (argc != 5)
		return 64;
	if (netaddr_parse(&a, argv[1], err, sizeof err) != 0 ||
	    secret_load_psk(argv[2], psk, err, sizeof err) != 0) {
		fprintf(stderr, "handshaker: %s\n", err);
		return 64;
	}
	procs = atoi(argv[4]);
	until = mono_ms() + 1000 * atol(argv[3]);
	counts = mmap(NULL, 2 * sizeof(long) * (size_t)procs, PROT_READ |
	    PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counts == MAP_FAILED)
		return 71;
	for (int p = 0; p < procs; p++)
		if (fork() == 0) {
			while (mono_ms() < until) {
				struct channel ch;
				int fd = netaddr_connect(&a, err, sizeof err);

				if (fd >= 0 && channel_handshake(&ch, fd,
				    CHANNEL_INITIATOR, psk, 5000, err,
				    sizeof err) == 0)
					counts[2 * p]++;
				else
					counts[2 * p + 1]++;
				if (fd >= 0)
					close(fd);
			}
			_exit(0);
		}
	while (wait(NULL) > 0)
		;
	for (int p = 0; p < procs; p++) {
		ok += counts[2 * p];
		bad += counts[2 * p + 1];
	}
	printf("handshakes=%ld failed=%ld\n", ok, bad);
	return 0;
}
