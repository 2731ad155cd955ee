/* sbx_client.h - the client of the sandbox service (`airlock sandbox
 * call`): one request over one connection (docs/SANDBOX.md, "Protocol"):
 * connect, the Noise handshake keyed by the shared secret, SPAWN, the
 * files and input as STDIN frames, STDIN_EOF; then read the service's
 * answer: ERROR, or STARTED, the tool's output, EXIT. Every frame the
 * service sends is checked (sbx_answer_read) before it is used. */
#ifndef AIRLOCK_SBX_CLIENT_H
#define AIRLOCK_SBX_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "common/sandbox/sbx_exec.h"
#include "common/sandbox/sbx_proto.h"
#include "common/wire/proto.h"

/* No frame from the service for this long ends the wait. */
#define SBX_CLIENT_ANSWER_MS 600000

struct sbx_call {
	const char *addr;		/* the service: netaddr.h's forms */
	const char *secret_file;	/* NULL: the environment's secret */
	const uint8_t *psk;		/* not NULL: this PSK, loaded once by
					 * a long-lived caller (the gateway);
					 * secret_file is then unused */
	uint64_t connect_ms;		/* connect and handshake */
	const char *tenant;		/* proto_id_valid */
	const char *request_id;		/* proto_id_valid */
	unsigned lang;			/* enum sbx_lang */
	struct sbx_limits lim;		/* 0: the service's default */
	const struct sbx_file_data *files;	/* sbx_name_valid names; the
					 * first runs */
	size_t nfiles;
	char *const *args;		/* the tool's argv words (sent as
					 * SBX2, which an older service
					 * refuses), or NULL */
	size_t nargs;
	const uint8_t *input;
	size_t input_len;
	/* The tool's output, as it comes (stream 1 stdout, 2 stderr);
	 * -1 ends the call (SBX_CALL_INTERNAL). */
	void *ctx;
	int (*emit)(void *ctx, int stream, const uint8_t *p, size_t n);
	/* NULL, or asked every SBX_CLIENT_WATCH_MS while no answer comes:
	 * 1 when whoever wanted the result has gone (the gateway's HTTP
	 * client closed), which ends the call (SBX_CALL_CANCELLED) and so,
	 * by the closed connection, the execution or its place in a queue. */
	int (*cancelled)(void *ctx);
};

#define SBX_CLIENT_WATCH_MS 200

/* What the service said so far. */
struct sbx_answer {
	int started;			/* STARTED came: info holds it */
	struct sbx_started info;	/* the execution id, the limits in
					 * force after clamping */
	struct sbx_result res;		/* EXIT: how the tool ended */
	struct error_info refusal;	/* ERROR: enum sbx_error, message */
};

enum sbx_answer_step {
	SBX_ANSWER_MORE,	/* STARTED, or a PING of another size */
	SBX_ANSWER_OUTPUT,	/* STDOUT or STDERR after STARTED: the tool's
				 * bytes */
	SBX_ANSWER_PING,	/* answer PONG with the same bytes */
	SBX_ANSWER_RESULT,	/* EXIT after STARTED: a->res, the end */
	SBX_ANSWER_REFUSED,	/* ERROR: a->refusal, the end */
	SBX_ANSWER_BAD,		/* the service broke the protocol: err says
				 * how, the end */
};

/* Read one frame of the service's answer (type, len bytes at p: hostile)
 * into a (zeroed before the first). Pure. */
enum sbx_answer_step sbx_answer_read(struct sbx_answer *a, uint8_t type,
    const uint8_t *p, size_t len, char *err, size_t errlen);

enum sbx_call_status {
	SBX_CALL_DONE,		/* the tool ran: a->res, a->info */
	SBX_CALL_REFUSED,	/* the service refused: a->refusal */
	SBX_CALL_BAD_REQUEST,	/* past the protocol's caps, or an address
				 * that is none: the command line */
	SBX_CALL_BAD_SECRET,	/* the secret did not load */
	SBX_CALL_UNREACHABLE,	/* no connection, it was lost, or no answer */
	SBX_CALL_AUTH,		/* the handshake failed: a wrong secret */
	SBX_CALL_PROTOCOL,	/* the service broke the protocol */
	SBX_CALL_INTERNAL,
	SBX_CALL_CANCELLED,	/* c->cancelled said so */
};

/* Send c's request and read the answer into a; the tool's output goes to
 * c->emit as it comes. Anything but DONE and REFUSED leaves why in err.
 * SIGPIPE must be ignored. One call at a time: its buffers are static. */
enum sbx_call_status sbx_call(const struct sbx_call *c, struct sbx_answer *a,
    char *err, size_t errlen);

#endif
