/* sbx_client.c - one request to the sandbox service, and its answer. */
#include "common/sandbox/sbx_client.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/base/log.h"
#include "common/base/secmem.h"
#include "common/wire/channel.h"
#include "common/wire/netaddr.h"
#include "common/wire/secret.h"
#include "common/wire/version.h"

enum sbx_answer_step
sbx_answer_read(struct sbx_answer *a, uint8_t type, const uint8_t *p,
    size_t len, char *err, size_t errlen)
{
	switch (type) {
	case FRAME_STARTED:
		if (a->started || sbx_started_parse(&a->info, p, len) !=
		    SBX_OK) {
			snprintf(err, errlen, "bad STARTED from the sandbox");
			return SBX_ANSWER_BAD;
		}
		a->started = 1;
		return SBX_ANSWER_MORE;
	case FRAME_STDOUT:
	case FRAME_STDERR:
		if (!a->started) {
			snprintf(err, errlen, "output before STARTED");
			return SBX_ANSWER_BAD;
		}
		return SBX_ANSWER_OUTPUT;
	case FRAME_PING:
		return len == PROTO_PING_LEN ? SBX_ANSWER_PING :
		    SBX_ANSWER_MORE;
	case FRAME_ERROR:
		if (proto_error_parse(&a->refusal, p, len) != PROTO_OK) {
			snprintf(err, errlen, "bad ERROR from the sandbox");
			return SBX_ANSWER_BAD;
		}
		return SBX_ANSWER_REFUSED;
	case FRAME_EXIT:
		if (!a->started || sbx_result_parse(&a->res, p, len) !=
		    SBX_OK) {
			snprintf(err, errlen, "bad result from the sandbox");
			return SBX_ANSWER_BAD;
		}
		return SBX_ANSWER_RESULT;
	default:
		snprintf(err, errlen, "unexpected %s frame from the sandbox",
		    frame_type_name(type));
		return SBX_ANSWER_BAD;
	}
}

/* Sending the request failed: the service may have refused it and
 * closed (a reset then meets our writes). Its ERROR, if it came first,
 * is the answer; only without one is the request lost (what). */
static enum sbx_call_status
send_failed(struct channel *ch, struct sbx_answer *a, const char *what,
    char *err, size_t errlen)
{
	const uint8_t *p;
	const char *why;
	uint8_t type;
	size_t len;
	long got;

	do {
		while (channel_next(ch, &type, &p, &len, &why) ==
		    CHANNEL_FRAME)
			if (type == FRAME_ERROR)
				return sbx_answer_read(a, type, p, len, err,
				    errlen) == SBX_ANSWER_REFUSED ?
				    SBX_CALL_REFUSED : SBX_CALL_PROTOCOL;
		got = channel_fill(ch);
	} while (got > 0 || (got < 0 && errno == EINTR));
	snprintf(err, errlen, "%s", what);
	return SBX_CALL_UNREACHABLE;
}

/* Queue one frame, flushing first when the send buffer is full:
 * SBX_CALL_DONE, or what went wrong. */
static enum sbx_call_status
send_frame(struct channel *ch, struct sbx_answer *a, uint8_t type,
    const void *p, size_t n, char *err, size_t errlen)
{
	if (!channel_can_queue(ch) && channel_flush_wait(ch, 30000) != 0)
		return send_failed(ch, a, "the service stopped taking the "
		    "request", err, errlen);
	if (channel_queue(ch, type, p, n) != 0) {
		snprintf(err, errlen, "cannot queue a frame");
		return SBX_CALL_INTERNAL;
	}
	return SBX_CALL_DONE;
}

/* Bytes as STDIN frames of at most FRAME_PAYLOAD_MAX. */
static enum sbx_call_status
send_bytes(struct channel *ch, struct sbx_answer *a, const uint8_t *p,
    size_t n, char *err, size_t errlen)
{
	enum sbx_call_status st = SBX_CALL_DONE;

	for (size_t off = 0; off < n && st == SBX_CALL_DONE; off +=
	    FRAME_PAYLOAD_MAX)
		st = send_frame(ch, a, FRAME_STDIN, p + off, n - off <
		    FRAME_PAYLOAD_MAX ? n - off : FRAME_PAYLOAD_MAX, err,
		    errlen);
	return st;
}

/* The request: SPAWN, every file, the input, STDIN_EOF, all sent. */
static enum sbx_call_status
send_request(struct channel *ch, const struct sbx_call *c,
    struct sbx_answer *a, const uint8_t *spawn, size_t spawn_len,
    char *err, size_t errlen)
{
	enum sbx_call_status st = send_frame(ch, a, FRAME_SPAWN, spawn,
	    spawn_len, err, errlen);

	for (size_t i = 0; i < c->nfiles && st == SBX_CALL_DONE; i++)
		st = send_bytes(ch, a, c->files[i].data, c->files[i].len, err,
		    errlen);
	if (st == SBX_CALL_DONE)
		st = send_bytes(ch, a, c->input, c->input_len, err, errlen);
	if (st == SBX_CALL_DONE)
		st = send_frame(ch, a, FRAME_STDIN_EOF, NULL, 0, err, errlen);
	if (st == SBX_CALL_DONE && channel_flush_wait(ch, 30000) != 0)
		st = send_failed(ch, a, "cannot send the request", err, errlen);
	return st;
}

/* Read the answer until EXIT or ERROR. */
static enum sbx_call_status
read_answer(struct channel *ch, const struct sbx_call *c,
    struct sbx_answer *a, char *err, size_t errlen)
{
	int64_t quiet_until = mono_ms() + SBX_CLIENT_ANSWER_MS;

	for (;;) {
		const uint8_t *p;
		const char *why = "";
		uint8_t type;
		size_t len;
		enum sbx_call_status st;
		enum channel_next nx;

		/* wait in slices while a caller may go away in between */
		while ((nx = channel_recv_wait(ch, &type, &p, &len,
		    c->cancelled ? SBX_CLIENT_WATCH_MS : SBX_CLIENT_ANSWER_MS,
		    &why)) == CHANNEL_NEED && c->cancelled &&
		    mono_ms() < quiet_until)
			if (c->cancelled(c->ctx)) {
				snprintf(err, errlen, "the caller went away");
				return SBX_CALL_CANCELLED;
			}
		quiet_until = mono_ms() + SBX_CLIENT_ANSWER_MS;
		if (nx == CHANNEL_NEED) {
			snprintf(err, errlen, "no answer from the sandbox for "
			    "%d minutes", SBX_CLIENT_ANSWER_MS / 60000);
			return SBX_CALL_UNREACHABLE;
		}
		if (nx == CHANNEL_BAD) {
			snprintf(err, errlen, "connection to the sandbox lost: "
			    "%s", why);
			return SBX_CALL_UNREACHABLE;
		}
		switch (sbx_answer_read(a, type, p, len, err, errlen)) {
		case SBX_ANSWER_MORE:
			if (type == FRAME_STARTED)
				log_event(LOG_DEBUG, "execution started",
				    (struct log_field[]){ LF_STR("exec",
				    a->info.exec_id), LF_STR("jail",
				    a->info.jail) }, 2);
			break;
		case SBX_ANSWER_OUTPUT:
			if (c->emit(c->ctx, type == FRAME_STDOUT ? 1 : 2, p,
			    len) != 0) {
				snprintf(err, errlen, "the tool's output could "
				    "not be kept");
				return SBX_CALL_INTERNAL;
			}
			break;
		case SBX_ANSWER_PING:
			if ((st = send_frame(ch, a, FRAME_PONG, p, len, err,
			    errlen)) != SBX_CALL_DONE)
				return st;
			break;
		case SBX_ANSWER_RESULT:
			return SBX_CALL_DONE;
		case SBX_ANSWER_REFUSED:
			return SBX_CALL_REFUSED;
		case SBX_ANSWER_BAD:
			return SBX_CALL_PROTOCOL;
		}
		if (channel_pending(ch))
			(void)channel_flush(ch);
	}
}

/* Connect to na and run the handshake, the prologue naming the tool's
 * language when it is one with warm slots (docs/PROTOCOL.md, "Languages
 * in the prologue"), so a warm slot of that language takes the call. A
 * service that knows no such word (an older one) answers with its
 * versions hint, listing this version: then once more, plain; a wrong
 * secret fails both. SBX_CALL_DONE with ch open, or the failure. */
static enum sbx_call_status
handshake(struct channel *ch, const struct netaddr *na,
    const uint8_t psk[SECRET_PSK_LEN], const struct sbx_call *c, char *err,
    size_t errlen)
{
	const char *word = c->lang == SBX_LANG_PYTHON ||
	    c->lang == SBX_LANG_JAVA ? sbx_lang_name(c->lang) : NULL;
	char cause[512];
	int fd;

	switch (version_word_hook(&word)) {
	case 1:
		log_msg(LOG_WARN, "test hook %s: the prologue says %s (unset "
		    "it in production)", VERSION_WORD_HOOK, word ? word :
		    "no language");
		break;
	case -1:
		snprintf(err, errlen, "%s is neither none nor a word of "
		    "lower-case letters", VERSION_WORD_HOOK);
		return SBX_CALL_BAD_REQUEST;
	}
	for (;;) {
		if ((fd = netaddr_connect(na, cause, sizeof cause)) < 0) {
			snprintf(err, errlen, "sandbox unreachable: %s", cause);
			return SBX_CALL_UNREACHABLE;
		}
		if (channel_handshake_as(ch, fd, CHANNEL_INITIATOR, psk,
		    VERSION_CURRENT, word, "client", "sandbox service",
		    (int)c->connect_ms, err, errlen) == 0)
			return SBX_CALL_DONE;
		close(fd);
		if (!word || !(ch->peer_versions & (1u << VERSION_CURRENT)))
			return SBX_CALL_AUTH;
		word = NULL;
	}
}

enum sbx_call_status
sbx_call(const struct sbx_call *c, struct sbx_answer *a, char *err,
    size_t errlen)
{
	static struct sbx_request req;
	static uint8_t spawn[FRAME_PAYLOAD_MAX];
	static struct channel ch;
	struct netaddr na;
	uint8_t psk[SECRET_PSK_LEN];
	enum sbx_call_status st;
	long n;

	memset(a, 0, sizeof *a);
	memset(&req, 0, sizeof req);
	snprintf(req.tenant, sizeof req.tenant, "%s", c->tenant);
	snprintf(req.request_id, sizeof req.request_id, "%s", c->request_id);
	req.lang = (uint8_t)c->lang;
	req.lim = c->lim;
	req.nfiles = (uint16_t)c->nfiles;
	for (size_t i = 0; i < c->nfiles && i < SBX_FILES_MAX; i++) {
		snprintf(req.files[i].name, sizeof req.files[i].name, "%s",
		    c->files[i].name);
		req.files[i].size = (uint32_t)c->files[i].len;
	}
	req.input_size = (uint32_t)c->input_len;
	for (size_t i = 0; i < c->nargs; i++)
		if (sbx_request_add_arg(&req, c->args[i], strlen(c->args[i]))
		    != SBX_OK) {
			snprintf(err, errlen, "the arguments do not fit the "
			    "protocol's caps (%d words of %d bytes, %d in "
			    "all, no NUL)", SBX_ARGS_MAX, SBX_ARG_MAX,
			    SBX_ARGS_TOTAL_MAX);
			return SBX_CALL_BAD_REQUEST;
		}
	if (c->nfiles > SBX_FILES_MAX || c->input_len > SBX_INPUT_MAX ||
	    (n = sbx_request_encode(spawn, sizeof spawn, &req)) < 0) {
		snprintf(err, errlen, "the request does not fit the protocol's "
		    "caps");
		return SBX_CALL_BAD_REQUEST;
	}
	if (c->psk)
		memcpy(psk, c->psk, sizeof psk);
	else if (secret_load_psk(c->secret_file, psk, err, errlen) != 0)
		return SBX_CALL_BAD_SECRET;
	if (netaddr_parse(&na, c->addr, err, errlen)) {
		secure_wipe(psk, sizeof psk);
		return SBX_CALL_BAD_REQUEST;
	}
	st = handshake(&ch, &na, psk, c, err, errlen);
	secure_wipe(psk, sizeof psk);
	if (st != SBX_CALL_DONE)
		return st;
	netaddr_keepalive(ch.fd, 15, 5, 3);
	st = send_request(&ch, c, a, spawn, (size_t)n, err, errlen);
	if (st == SBX_CALL_DONE)
		st = read_answer(&ch, c, a, err, errlen);
	channel_close(&ch);
	return st;
}
