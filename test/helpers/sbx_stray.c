/* sbx_stray.c - a sandbox client that sends one more frame while its
 * request waits for its turn, for test/sandbox.test: the service keeps a
 * queued request's connection alive by answering PINGs, and refuses
 * anything else with a protocol ERROR that says why.
 *
 *   sbx_stray ADDR TENANT ping|stdin
 *
 * The secret comes from AIRLOCK_SECRET_FILE. It sends a complete Python
 * request (one file, no input), waits a second for an answer that should
 * not come (the tenant's slot is busy: the request is queued), then sends
 * a PING or a STDIN frame and prints the first frame it gets back:
 * "pong", "error NAME: MESSAGE", "started", "exit", or "closed: WHY".
 * Exits 0 once it printed; 1 on a set-up failure, 2 on usage. */
#include <stdio.h>
#include <string.h>

#include "common/base/secmem.h"
#include "common/sandbox/sbx_proto.h"
#include "common/wire/channel.h"
#include "common/wire/netaddr.h"
#include "common/wire/proto.h"
#include "common/wire/secret.h"
#include "common/wire/version.h"

static const char tool[] = "print(1)\n";

/* SPAWN, the file's bytes, STDIN_EOF: a complete request. */
static int
send_request(struct channel *ch, const char *tenant)
{
	static struct sbx_request req;
	static uint8_t spawn[FRAME_PAYLOAD_MAX];
	long n;

	snprintf(req.tenant, sizeof req.tenant, "%s", tenant);
	snprintf(req.request_id, sizeof req.request_id, "stray");
	req.lang = SBX_LANG_PYTHON;
	req.nfiles = 1;
	snprintf(req.files[0].name, sizeof req.files[0].name, "tool.py");
	req.files[0].size = sizeof tool - 1;
	if ((n = sbx_request_encode(spawn, sizeof spawn, &req)) < 0)
		return -1;
	return channel_send_wait(ch, FRAME_SPAWN, spawn, (size_t)n, 5000) ||
	    channel_send_wait(ch, FRAME_STDIN, tool, sizeof tool - 1, 5000) ||
	    channel_send_wait(ch, FRAME_STDIN_EOF, NULL, 0, 5000) ? -1 : 0;
}

/* The first frame back, in words. */
static void
print_answer(uint8_t type, const uint8_t *p, size_t len)
{
	struct error_info e;

	if (type == FRAME_PONG)
		printf("pong\n");
	else if (type == FRAME_ERROR && proto_error_parse(&e, p, len) ==
	    PROTO_OK)
		printf("error %s: %s\n", sbx_error_name(e.code), e.message);
	else if (type == FRAME_STARTED)
		printf("started\n");
	else
		printf("%s\n", frame_type_name(type));
}

int
main(int argc, char **argv)
{
	static struct channel ch;
	static const uint8_t ping[PROTO_PING_LEN] = { 0, 0, 0, 0, 0, 0, 0, 7 };
	uint8_t psk[SECRET_PSK_LEN], type;
	const uint8_t *p;
	const char *why = "";
	char err[512];
	struct netaddr na;
	size_t len;
	int fd, stdin_frame;

	if (argc != 4 || (strcmp(argv[3], "ping") != 0 &&
	    strcmp(argv[3], "stdin") != 0)) {
		fprintf(stderr, "usage: sbx_stray ADDR TENANT ping|stdin\n");
		return 2;
	}
	stdin_frame = strcmp(argv[3], "stdin") == 0;
	if (secret_load_psk(NULL, psk, err, sizeof err) != 0 ||
	    netaddr_parse(&na, argv[1], err, sizeof err) != 0 ||
	    (fd = netaddr_connect(&na, err, sizeof err)) < 0 ||
	    channel_handshake_as(&ch, fd, CHANNEL_INITIATOR, psk,
	    VERSION_CURRENT, NULL, "client", "sandbox service", 5000, err,
	    sizeof err) != 0) {
		fprintf(stderr, "sbx_stray: %s\n", err);
		return 1;
	}
	secure_wipe(psk, sizeof psk);
	if (send_request(&ch, argv[2]) != 0) {
		fprintf(stderr, "sbx_stray: cannot send the request\n");
		return 1;
	}
	/* queued: nothing comes back meanwhile */
	if (channel_recv_wait(&ch, &type, &p, &len, 1000, &why) !=
	    CHANNEL_NEED) {
		printf("not queued: %s\n", why[0] ? why :
		    frame_type_name(type));
		return 1;
	}
	if (channel_send_wait(&ch, stdin_frame ? FRAME_STDIN : FRAME_PING,
	    stdin_frame ? (const void *)"x" : ping, stdin_frame ? 1 :
	    sizeof ping, 5000) != 0) {
		printf("closed: the frame could not be sent\n");
		return 0;
	}
	switch (channel_recv_wait(&ch, &type, &p, &len, 10000, &why)) {
	case CHANNEL_FRAME:
		print_answer(type, p, len);
		break;
	case CHANNEL_NEED:
		printf("no answer in 10 s\n");
		break;
	default:
		printf("closed: %s\n", why);
	}
	channel_close(&ch);
	return 0;
}
