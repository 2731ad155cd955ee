/* abrupt_runner.c - a runner that ends leases rudely, for test/lease.test:
 * it accepts COUNT connections on ADDR one after the other, runs the
 * handshake with the secret in SECRET_FILE, reads the first frame (the
 * SPAWN), answers with ERROR env and closes at once, with the relay's
 * stdin unread: the close resets the connection, as a runner without a
 * lingering close or a lossy path would. A relay still writing must read
 * the ERROR that came before the reset, not report a lost connection;
 * so must `sandbox call` mid-upload (to which code 4 is budget_queue).
 *
 *   abrupt_runner ADDR SECRET_FILE COUNT [WORD]
 * WORD: the prologue word its peers say (a sandbox client's language,
 * docs/PROTOCOL.md), as `sandbox serve` takes it; none without.
 * Prints "ready" once listening; exits 0 after COUNT connections. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/wire/channel.h"
#include "common/wire/proto.h"
#include "common/wire/secret.h"
#include "common/wire/version.h"
#include "test/helpers/runner_listen.h"

int
main(int argc, char **argv)
{
	static struct channel ch;
	uint8_t psk[SECRET_PSK_LEN], buf[256];
	char err[512];
	int lfd, count;
	long n;

	if ((argc != 4 && argc != 5) || (count = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: abrupt_runner ADDR SECRET_FILE COUNT "
		    "[WORD]\n");
		return 2;
	}
	lfd = runner_listen("abrupt_runner", argv[1], argv[2], psk);
	printf("ready\n");
	fflush(stdout);
	n = proto_error_encode(buf, sizeof buf, LERR_ENV, "refused at once");
	for (int i = 0; i < count && n > 0; i++) {
		const uint8_t *p;
		const char *why;
		uint8_t type;
		size_t len;
		struct pollfd pf = { lfd, POLLIN, 0 };
		int fd;

		/* the listener is non-blocking */
		if (poll(&pf, 1, 30000) != 1 ||
		    (fd = accept(lfd, NULL, NULL)) < 0)
			return 1;
		if (channel_handshake_as(&ch, fd, CHANNEL_RESPONDER, psk,
		    VERSION_CURRENT, argc == 5 ? argv[4] : NULL, "runner",
		    "relay", 5000, err, sizeof err) != 0) {
			close(fd);
			continue;
		}
		if (channel_recv_wait(&ch, &type, &p, &len, 5000, &why) ==
		    CHANNEL_FRAME)
			(void)channel_send_wait(&ch, FRAME_ERROR, buf,
			    (size_t)n, 5000);
		channel_close(&ch);	/* no linger: unread stdin -> reset */
	}
	return 0;
}
