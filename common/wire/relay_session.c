/* relay_session.c - the relay's side of one lease (relay_session.h). */
#include "common/wire/relay_session.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "common/base/bounded_rw.h"
#include "common/base/clock.h"
#include "common/base/log.h"
#include "common/wire/proto.h"

int
relay_connect(const struct netaddr *a, uint64_t timeout_ms, char *err,
    size_t errlen)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	uint64_t waited = 0;
	int fd;

	for (;;) {
		fd = netaddr_connect(a, err, errlen);
		if (fd >= 0) {
			netaddr_keepalive(fd, 15, 5, 3);
			return fd;
		}
		if (waited >= timeout_ms || waited >= 2000 ||
		    (errno != ECONNREFUSED && errno != ENOENT &&
		    errno != ECONNRESET && errno != EAGAIN))
			return -1;
		nanosleep(&pause, NULL);
		waited += (uint64_t)pause.tv_nsec / 1000000;
		if (pause.tv_nsec < 400 * 1000 * 1000)
			pause.tv_nsec *= 2;
	}
}

int
relay_session_handshake(struct relay_session *r, int fd,
    const uint8_t psk[32], unsigned version, uint64_t timeout_ms, char *err,
    size_t errlen)
{
	r->version = version;
	r->sigfd = -1;
	r->exit_status = -1;
	r->ping_ms = 10000;	/* until STARTED says otherwise */
	r->liveness_ms = 60000;
	return channel_handshake_as(&r->ch, fd, CHANNEL_INITIATOR, psk,
	    version, NULL, "relay", "runner", (int)timeout_ms, err, errlen);
}

int
relay_session_spawn(struct relay_session *r, const struct relay_request *q)
{
	static uint8_t payload[FRAME_PAYLOAD_MAX];
	long n = proto_spawn_encode(payload, sizeof payload, q->tenant,
	    q->registration, q->argv, q->argc, q->env_key, q->env_value,
	    q->envc, q->approval, q->approval_len);

	if (n < 0) {
		errno = EMSGSIZE;
		return -1;
	}
	return channel_queue(&r->ch, FRAME_SPAWN, payload, (size_t)n);
}

/* Bounds on the runner's keep-alive contract (STARTED), whatever it asks:
 * a PING at least every 100 ms .. 60 s; give up on a runner silent for
 * 500 ms .. 10 min. Values outside are clamped (docs/PROTOCOL.md). */
#define PING_MIN_MS 100u
#define PING_MAX_MS 60000u
#define LIVENESS_MIN_MS 500u
#define LIVENESS_MAX_MS 600000u
/* PINGs in a row, each within PING_MIN_MS of the last, that found a
 * PONG still owed (our queue to the runner full) before the runner counts
 * as flooding without reading. A runner that PINGs at its pace while it
 * does not read (a lease waiting for its locked tree behind a client's
 * megabytes) is never one: its PINGs are spaced. */
#define FAST_OWED_PINGS_MAX 8
/* How long stderr may hold up our exit once the lease is over. */
#define ERR_DRAIN_MS 2000
/* The highest signal number an EXIT may carry (Linux's SIGRTMAX). */
#define SIGNAL_MAX 64

static uint32_t
clamp_u32(uint32_t v, uint32_t lo, uint32_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int
refused_exit(const struct error_info *e)
{
	switch (e->code) {
	case LERR_SPAWN:
	case LERR_JAIL:
		return RELAY_SPAWN;
	case LERR_PROTOCOL:
		return RELAY_PROTOCOL;
	case LERR_SHUTDOWN:
		return RELAY_UNREACHABLE;
	case LERR_MAX_DURATION:
		return EXIT_TEMPFAIL;
	case LERR_MCP:
		return RELAY_REFUSED;
	default:
		return RELAY_REFUSED;
	}
}

/* The runner broke the protocol: the lease ends with 76 and says how. */
static int
violation(struct relay_session *r, uint8_t type, const char *why)
{
	log_msg(LOG_ERROR, "protocol error: the runner sent %s %s; ending the "
	    "lease", frame_type_name(type), why);
	r->violated = 1;
	r->exit_status = RELAY_PROTOCOL;
	return -1;
}

/* STARTED: once, first; printable ids; the timers clamped; from version
 * 2 on, an egress policy in its grammar and caps. Parsed into *s. */
static int
on_started(struct relay_session *r, const uint8_t *p, size_t n,
    struct started_info *s)
{
	char egress[LOG_VALUE_MAX + 1];
	enum proto_status st;

	if (r->started)
		return violation(r, FRAME_STARTED, "a second time");
	st = proto_started_parse(s, r->version, p, n);
	if (st == PROTO_BAD_EGRESS)
		return violation(r, FRAME_STARTED, "with an egress policy "
		    "outside its grammar or caps (docs/PROTOCOL.md, STARTED)");
	if (st != PROTO_OK)
		return violation(r, FRAME_STARTED, "malformed (bad lengths, "
		    "or liveness_ms not above ping_ms)");
	if (!proto_id_valid((const uint8_t *)s->lease_id,
	    strlen(s->lease_id)) ||
	    !proto_id_valid((const uint8_t *)s->jail, strlen(s->jail)))
		return violation(r, FRAME_STARTED, "with a lease id or jail "
		    "name outside [A-Za-z0-9._-]{1,64}");
	r->started = 1;
	r->ping_ms = clamp_u32(s->ping_ms, PING_MIN_MS, PING_MAX_MS);
	r->liveness_ms = clamp_u32(s->liveness_ms, LIVENESS_MIN_MS,
	    LIVENESS_MAX_MS);
	proto_egress_text(s, egress, sizeof egress);
	log_event(LOG_DEBUG, "lease started", (struct log_field[]){
	    LF_STR("lease", s->lease_id), LF_STR("jail", s->jail),
	    LF_NUM("ping_ms", r->ping_ms),
	    LF_NUM("liveness_ms", r->liveness_ms),
	    LF_STR("egress", egress) }, 5);
	return 0;
}

/* EXIT: after STARTED; a real signal number; a known reason. */
static int
on_exit_frame(struct relay_session *r, const uint8_t *p, size_t n)
{
	struct exit_info x;

	if (!r->started)
		return violation(r, FRAME_EXIT, "before STARTED");
	if (proto_exit_parse(&x, p, n) != PROTO_OK)
		return violation(r, FRAME_EXIT, "malformed");
	if (x.kind == EXIT_KIND_SIGNAL && (x.status < 1 ||
	    x.status > SIGNAL_MAX))
		return violation(r, FRAME_EXIT, "with a signal number outside "
		    "1..64");
	if (x.reason >= EXIT_REASON_MAX_)
		return violation(r, FRAME_EXIT, "with an unknown reason");
	r->exit_status = x.kind == EXIT_KIND_SIGNAL ? 128 + x.status :
	    x.status;
	if (x.reason != EXIT_REASON_EXITED)
		log_msg(LOG_WARN, "server stopped by the runner: %s",
		    proto_exit_reason_name(x.reason));
	return -1;
}

/* ERROR: instead of STARTED, a refusal's code; after it, only the end
 * of a lease that reached --max-lease-duration or broke the approval's
 * MCP rules. */
static int
on_error_frame(struct relay_session *r, const uint8_t *p, size_t n)
{
	struct error_info e;

	if (proto_error_parse(&e, p, n) != PROTO_OK)
		return violation(r, FRAME_ERROR, "malformed");
	if (e.code == 0 || e.code >= LERR_MAX_)
		return violation(r, FRAME_ERROR, "with an unknown code");
	if (r->started != (e.code == LERR_MAX_DURATION ||
	    e.code == LERR_MCP))
		return violation(r, FRAME_ERROR, r->started ? "after STARTED "
		    "with a refusal's code" : "before STARTED with a code "
		    "only a started lease ends with");
	/* log.c escapes the message: it is the runner's text */
	if (r->started)
		log_msg(LOG_ERROR, "runner ended the lease: %s: %s",
		    proto_error_name(e.code), e.message);
	else
		log_msg(LOG_ERROR, "runner refused the request: %s: %s",
		    proto_error_name(e.code), e.message);
	r->exit_status = refused_exit(&e);
	return -1;
}

/* Queue the PONG owed, if any and if it fits now: before any stdin, so
 * a full queue delays the answer, never loses it. */
static void
answer_owed(struct relay_session *r)
{
	if (r->pong_owed && channel_queue(&r->ch, FRAME_PONG, r->pong,
	    sizeof r->pong) == 0)
		r->pong_owed = 0;
}

/* PING: its PONG is owed; while our queue is full only the latest is
 * kept (8 bytes, whatever the runner sends: the runner takes any PONG as
 * hearing us), and answered once the runner reads again. */
static int
on_ping(struct relay_session *r, const uint8_t *p)
{
	int64_t now = mono_ms();

	if (r->pong_owed && now - r->last_ping_heard_ms < PING_MIN_MS) {
		if (++r->fast_owed > FAST_OWED_PINGS_MAX)
			return violation(r, FRAME_PING, "again and again "
			    "without reading the answers (a PING flood)");
	} else
		r->fast_owed = 0;
	r->last_ping_heard_ms = now;
	memcpy(r->pong, p, sizeof r->pong);
	r->pong_owed = 1;
	answer_owed(r);
	return 0;
}

/* Handle one frame from the runner, checked against the lease's state
 * (docs/PROTOCOL.md, "What the relay accepts"); returns -1 to stop the
 * loop with r->exit_status set. */
static int
on_frame(struct relay_session *r, uint8_t type, const uint8_t *p, size_t n)
{
	static struct started_info started;
	struct rd rd;
	uint64_t echo;

	switch (type) {
	case FRAME_STDOUT:
		if (!r->started || n == 0)
			return violation(r, type, r->started ? "empty" :
			    "before STARTED");
		if (fd_writer_write(&r->out, p, n) != 0) {
			/* our reader is gone: what the server would die of */
			r->exit_status = 128 + SIGPIPE;
			return -1;
		}
		return 0;
	case FRAME_STDERR:
		if (!r->started || n == 0)
			return violation(r, type, r->started ? "empty" :
			    "before STARTED");
		errstream_put(&r->err, p, n);
		errstream_flush(&r->err);
		return 0;
	case FRAME_PING:
		if (n != PROTO_PING_LEN)
			return violation(r, type, "of a length other than 8");
		return on_ping(r, p);
	case FRAME_PONG:
		rd = rd_init(p, n);
		if (n != PROTO_PING_LEN || rd_u64(&rd, &echo) != 0)
			return violation(r, type, "of a length other than 8");
		if (echo == 0 || echo > r->pings)
			return violation(r, type, "for a PING never sent");
		return 0;	/* hearing it is the point */
	case FRAME_STARTED:
		return on_started(r, p, n, &started);
	case FRAME_ERROR:
		return on_error_frame(r, p, n);
	case FRAME_EXIT:
		return on_exit_frame(r, p, n);
	default:
		return violation(r, type, "(a frame only a relay sends)");
	}
}

/* Read stdin into STDIN frames; EOF becomes STDIN_EOF (half-close). */
static int
pump_stdin(struct relay_session *r)
{
	static uint8_t buf[FRAME_PAYLOAD_MAX];
	ssize_t n;

	do
		n = read(STDIN_FILENO, buf, sizeof buf);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n <= 0) {
		r->stdin_open = 0;
		return channel_queue(&r->ch, FRAME_STDIN_EOF, NULL, 0);
	}
	return channel_queue(&r->ch, FRAME_STDIN, buf, (size_t)n);
}

/* 1 while our outputs hold a frame back (the reader is slow). */
static int
outputs_full(const struct relay_session *r)
{
	return fd_writer_busy(&r->out) || !errstream_can_put(&r->err);
}

/* Deliver buffered frames while our outputs can take them; -1 when the
 * lease is over (r->exit_status set), 0 to go on. */
static int
deliver(struct relay_session *r)
{
	enum channel_next nx = CHANNEL_NEED;
	const uint8_t *p;
	const char *why = "";
	uint8_t type;
	size_t len;

	while (!outputs_full(r) &&
	    (nx = channel_next(&r->ch, &type, &p, &len, &why)) ==
	    CHANNEL_FRAME)
		if (on_frame(r, type, p, len) != 0)
			return -1;
	if (nx == CHANNEL_BAD) {
		log_msg(LOG_ERROR, "protocol error: %s", why);
		r->exit_status = RELAY_PROTOCOL;
		return -1;
	}
	return 0;
}

/* A signal read from the signalfd: its exit status, or 0 if none. */
static int
signalled(struct relay_session *r)
{
	struct signalfd_siginfo si;

	if (r->sigfd < 0 || read(r->sigfd, &si, sizeof si) != sizeof si)
		return 0;
	r->signalled = 1;
	return 128 + (int)si.ssi_signo;
}

/* The process that spawned us (the MCP client) has ended: nobody reads
 * our outputs or writes our stdin any more, so the lease ends now (the
 * runner ends the server when the connection closes) and nothing more is
 * written, as after a signal. */
static int
parent_gone(struct relay_session *r)
{
	log_msg(LOG_ERROR, "the relay's parent process has ended: ending the "
	    "lease");
	r->signalled = 1;
	return 128 + SIGHUP;
}

/* Write what our outputs hold until they are empty, blocking in poll (a
 * signal still ends it at once). stderr gets until err_deadline, then is
 * given up. Returns 0, the signal's exit status, or 128 + SIGPIPE when
 * our stdout's reader is gone. */
static int
flush_outputs(struct relay_session *r, int64_t err_deadline)
{
	for (;;) {
		int64_t now = mono_ms();
		int out_busy = fd_writer_busy(&r->out), err_busy, sig;
		struct pollfd pf[3];

		if (errstream_busy(&r->err) && now >= err_deadline)
			errstream_abandon(&r->err);
		err_busy = errstream_busy(&r->err);
		if (!out_busy && !err_busy)
			return 0;
		pf[0] = (struct pollfd){ r->sigfd, POLLIN, 0 };
		pf[1] = (struct pollfd){ out_busy ? r->out.fd : -1, POLLOUT, 0 };
		pf[2] = (struct pollfd){ err_busy ? r->err.q.fd : -1, POLLOUT,
		    0 };
		if (poll(pf, 3, err_busy ? (int)(err_deadline - now) : -1) < 0 &&
		    errno != EINTR)
			return RELAY_INTERNAL;
		if ((sig = signalled(r)) != 0)
			return sig;
		if (pf[1].revents && fd_writer_flush(&r->out) != 0)
			return 128 + SIGPIPE;
		if (pf[2].revents)
			errstream_flush(&r->err);
	}
}

/* The runner hung up or stopped taking our frames: deliver what it sent
 * before (EXIT or ERROR may be among it), waiting on our outputs now that
 * nothing else can happen. Only without an EXIT or ERROR is the
 * connection lost (69, with what). */
static int
salvage(struct relay_session *r, const char *what)
{
	int64_t err_deadline = mono_ms() + ERR_DRAIN_MS;
	long got;
	int st;

	do {
		do {
			if ((st = flush_outputs(r, err_deadline)) != 0)
				return st;
			if (deliver(r) != 0)
				return r->exit_status;
		} while (outputs_full(r));
		got = channel_fill(&r->ch);
	} while (got > 0 || (got < 0 && errno == EINTR));
	log_msg(LOG_ERROR, "%s", what);
	return RELAY_UNREACHABLE;
}

/* Keep-alive: a PING every ping_ms tells the runner we are alive even
 * when stdin is quiet; its PONG tells us the runner is. */
static int
keepalive(struct relay_session *r, int64_t now)
{
	uint8_t p[PROTO_PING_LEN];
	struct wr w = wr_init(p, sizeof p);

	if (now - r->last_ping_ms < r->ping_ms || !channel_can_queue(&r->ch))
		return 0;
	r->pings++;
	wr_u64(&w, r->pings);
	r->last_ping_ms = now;
	return channel_queue(&r->ch, FRAME_PING, p, sizeof p);
}

/* Queueing a frame failed although there was room: the channel failed
 * (its nonce ran out); nothing more can be said to the runner. */
static int
queue_failed(const char *what)
{
	log_msg(LOG_ERROR, "cannot send %s to the runner: the channel failed",
	    what);
	return RELAY_INTERNAL;
}

/* The lease's main loop: until EXIT, ERROR, a signal or a lost runner. */
static int
relay_loop(struct relay_session *r)
{
	char lost[128];

	for (;;) {
		struct pollfd pf[6];
		int full, stdin_slot = -1, timeout, sig;
		int64_t now, next_ping;
		nfds_t n = 0;

		if (deliver(r) != 0)
			return r->exit_status;
		now = mono_ms();
		if (keepalive(r, now) != 0)
			return queue_failed("PING");
		if (channel_pending(&r->ch) && channel_flush(&r->ch) != 0) {
			snprintf(lost, sizeof lost, "connection to the runner "
			    "lost: %s", strerror(errno));
			return salvage(r, lost);
		}
		answer_owed(r);
		full = outputs_full(r);
		if (full)	/* our reader is slow, not the runner */
			r->last_heard_ms = now;
		pf[n++] = (struct pollfd){ r->ch.fd,
		    (short)((full ? 0 : POLLIN) |
		    (channel_pending(&r->ch) ? POLLOUT : 0)), 0 };
		pf[n++] = (struct pollfd){ r->sigfd, POLLIN, 0 };
		/* an output is watched only while it holds bytes: poll reports
		 * POLLERR even unasked, and a stdout whose reader is gone
		 * would wake us for nothing, forever */
		pf[n++] = (struct pollfd){ fd_writer_busy(&r->out) ? r->out.fd : -1,
		    POLLOUT, 0 };
		pf[n++] = (struct pollfd){ errstream_busy(&r->err) ?
		    r->err.q.fd : -1, POLLOUT, 0 };
		pf[n++] = (struct pollfd){ r->parentfd, POLLIN, 0 };
		if (r->stdin_open && channel_can_queue(&r->ch)) {
			stdin_slot = (int)n;
			pf[n++] = (struct pollfd){ STDIN_FILENO, POLLIN, 0 };
		}
		timeout = (int)(r->last_heard_ms + r->liveness_ms - now);
		if (timeout <= 0) {
			log_msg(LOG_ERROR, "runner silent for %u ms; giving "
			    "up the lease", r->liveness_ms);
			return RELAY_UNREACHABLE;
		}
		next_ping = r->last_ping_ms + r->ping_ms - now;
		if (next_ping < timeout)
			timeout = next_ping > 0 ? (int)next_ping : 1;
		if (poll(pf, n, timeout) < 0 && errno != EINTR)
			return RELAY_INTERNAL;
		if ((sig = signalled(r)) != 0)
			return sig;
		if (pf[4].revents)
			return parent_gone(r);
		if (pf[2].revents && fd_writer_flush(&r->out) != 0)
			return 128 + SIGPIPE;
		if (pf[3].revents)
			errstream_flush(&r->err);
		if (stdin_slot >= 0 && (pf[stdin_slot].revents &
		    (POLLIN | POLLHUP | POLLERR)) && pump_stdin(r) != 0)
			return queue_failed("stdin");
		if (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			long got = channel_fill(&r->ch);

			if (got == 0 || (got < 0 && errno != EAGAIN))
				return salvage(r, "connection to the runner lost "
				    "before the server exited");
			r->last_heard_ms = mono_ms();
		}
	}
}

/* --doctor: what the lease may reach, as STARTED said (escaped all the
 * same: the rules are checked, but they are the runner's bytes). */
static void
doctor_egress(FILE *report, const struct started_info *s, unsigned version)
{
	static char text[PROTO_EGRESS_TEXT_MAX + 8];
	static char esc[4 * sizeof text + 8];

	proto_egress_text(s, text, sizeof text);
	log_escape(esc, sizeof esc, text, strlen(text));
	switch (s->egress) {
	case EGRESS_NONE:
		fprintf(report, "ok   egress: none: no egress rule of airlock's, "
		    "the server has the runner's own network (--jail none, or "
		    "--shared-network without --egress-ports)\n");
		break;
	case EGRESS_PORTS:
		fprintf(report, "ok   egress: %s: TCP connect to these ports "
		    "only (Landlock), to any host\n", esc);
		break;
	case EGRESS_HOSTS:
		fprintf(report, "ok   egress: %s: the server's own network "
		    "namespace; the runner's proxy reaches %s\n", esc,
		    s->nrules ? "these host:port pairs only" : "no host at "
		    "all");
		break;
	default:
		fprintf(report, "ok   egress: not reported: this lease speaks "
		    "protocol version %u, whose STARTED does not carry the "
		    "egress policy (version 2 does)\n", version);
	}
}

/* The doctor's lease: stdin closed at once, each frame reported. */
static int
doctor_lease(struct relay_session *r, FILE *report, const char *argv0)
{
	uint64_t out = 0, err = 0;
	int64_t t0 = mono_ms();
	char t1[4 * PROTO_ID_MAX + 8], t2[4 * PROTO_ID_MAX + 8];
	char msg[4 * PROTO_TEXT_MAX + 8];
	struct started_info s;
	struct error_info e;
	struct exit_info x;
	const uint8_t *p;
	const char *why;
	uint8_t type;
	size_t len;

	if (channel_queue(&r->ch, FRAME_STDIN_EOF, NULL, 0) != 0) {
		log_msg(LOG_ERROR, "cannot queue stdin EOF");
		return EXIT_SOFTWARE;
	}
	while (!r->violated) {
		if (channel_flush_wait(&r->ch, 10000) != 0) {
			fprintf(report, "FAIL lease: cannot send to the runner\n");
			return RELAY_UNREACHABLE;
		}
		if (channel_recv_wait(&r->ch, &type, &p, &len, 30000, &why) !=
		    CHANNEL_FRAME) {
			fprintf(report, "FAIL lease: %s\n", why);
			return RELAY_UNREACHABLE;
		}
		switch (type) {
		case FRAME_STDOUT:
		case FRAME_STDERR:
			if (!r->started || len == 0)
				violation(r, type, r->started ? "empty" :
				    "before STARTED");
			*(type == FRAME_STDOUT ? &out : &err) += len;
			break;
		case FRAME_PING:
		case FRAME_PONG:
			(void)on_frame(r, type, p, len);
			break;
		case FRAME_STARTED:
			if (on_started(r, p, len, &s) != 0)
				break;
			fprintf(report, "ok   spawn: lease %s, jail %s, argv[0] %s\n",
			    log_escape(t1, sizeof t1, s.lease_id,
			    strlen(s.lease_id)), log_escape(t2, sizeof t2,
			    s.jail, strlen(s.jail)), argv0);
			doctor_egress(report, &s, r->version);
			break;
		case FRAME_ERROR:
			(void)on_error_frame(r, p, len);
			if (r->violated ||
			    proto_error_parse(&e, p, len) != PROTO_OK)
				break;
			fprintf(report, "FAIL spawn: refused: %s: %s\n",
			    proto_error_name(e.code), log_escape(msg, sizeof msg,
			    e.message, strlen(e.message)));
			return r->exit_status;
		case FRAME_EXIT:
			(void)on_exit_frame(r, p, len);
			if (r->violated ||
			    proto_exit_parse(&x, p, len) != PROTO_OK)
				break;
			fprintf(report, "ok   server %s %u after stdin closed (%lld ms, "
			    "%llu bytes stdout, %llu bytes stderr, reason %s)\n",
			    x.kind == EXIT_KIND_SIGNAL ? "killed by signal" :
			    "exited with status", x.status,
			    (long long)(mono_ms() - t0),
			    (unsigned long long)out, (unsigned long long)err,
			    proto_exit_reason_name(x.reason));
			return EXIT_OK;
		default:
			violation(r, type, "(a frame only a relay sends)");
			break;
		}
	}
	fprintf(report, "FAIL lease: the runner broke the protocol (%s frame)\n",
	    frame_type_name(type));
	return RELAY_PROTOCOL;
}

int
relay_session_doctor(struct relay_session *r, FILE *report, const char *argv0)
{
	int status = doctor_lease(r, report, argv0);

	channel_close(&r->ch);
	return status;
}

/* Our log records go through the stderr stream, so they never land in
 * the middle of the server's bytes (errstream.h). */
static void
log_to_stream(const char *line, size_t n, void *arg)
{
	errstream_record(arg, line, n);
}

int
relay_session_start_io(struct relay_session *r, int sigfd, int parentfd)
{
	r->sigfd = sigfd;
	r->parentfd = parentfd;
	if (fd_writer_init_shared(&r->out, STDOUT_FILENO) != 0 ||
	    errstream_init(&r->err, STDERR_FILENO, log_is_json(),
	    log_prog_name()) != 0)
		return -1;
	log_set_sink(log_to_stream, &r->err);
	r->stdin_open = 1;
	r->last_heard_ms = r->last_ping_ms = mono_ms();
	return 0;
}

int
relay_session_run(struct relay_session *r)
{
	int status = relay_loop(r), st;

	channel_close(&r->ch);
	if (r->signalled)	/* nothing more is written: we end now */
		return status;
	errstream_finish(&r->err);
	st = flush_outputs(r, mono_ms() + ERR_DRAIN_MS);
	return r->signalled ? st : status;
}
