/* relay.c - what an MCP client spawns instead of the server: one lease to
 * the runner, stdio relayed byte-exact, the server's exit status as ours. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/wire/channel.h"
#include "common/base/cli.h"
#include "common/base/clock.h"
#include "common/base/envlist.h"
#include "common/base/errstream.h"
#include "common/base/log.h"
#include "common/wire/netaddr.h"
#include "common/wire/fd_writer.h"
#include "common/wire/proto.h"
#include "common/base/bounded_rw.h"
#include "common/base/secmem.h"
#include "common/wire/secret.h"
#include "common/base/signal_fd.h"
#include "common/wire/version.h"
#include "common/base/xwrap.h"
#include "applets/applet.h"

/* Exit codes of the relay itself (the server's own status passes through). */
enum {
	RELAY_UNREACHABLE = EXIT_UNAVAILABLE,	/* 69 */
	RELAY_PROTOCOL = EXIT_PROTOCOL,		/* 76 */
	RELAY_REFUSED = EXIT_NOPERM,		/* 77 */
	RELAY_AUTH = EXIT_AUTH,			/* 80 */
	RELAY_SPAWN = EXIT_OSERR,		/* 71 */
	RELAY_INTERNAL = EXIT_SOFTWARE		/* 70: poll failed */
};

static const char usage[] =
"usage: airlock relay [OPTIONS] [--] COMMAND [ARGS...]\n"
"\n"
"Run COMMAND on an airlock runner and behave exactly like it: stdin,\n"
"stdout (byte-exact) and stderr are relayed, and the exit status is the\n"
"server's own (signal N gives 128+N). Spawn this in place of an MCP\n"
"server's command.\n"
"\n"
"  --connect ADDR        runner address: HOST:PORT, tcp://HOST:PORT,\n"
"                        [IPV6]:PORT or unix:/PATH    (AIRLOCK_RUNNER)\n"
"  --secret-file FILE    shared secret (AIRLOCK_SECRET_FILE, or the value\n"
"                        in AIRLOCK_SECRET); never on the command line\n"
"  --tenant ID           tenant id                    (AIRLOCK_TENANT)\n"
"  --registration ID     registration id              (AIRLOCK_REGISTRATION)\n"
"  --approval-file FILE  approval token file (or the token in\n"
"                        AIRLOCK_APPROVAL)\n"
"  --env KEY             forward the environment variable KEY to the\n"
"                        server (repeatable; or AIRLOCK_ENV=KEY1,KEY2)\n"
"  --timeout DURATION    connect + handshake limit (default 10s)\n"
"  --doctor              check every step, say which one fails, run\n"
"                        COMMAND with stdin closed and report its exit\n"
"  --log-format human|json\n"
"  --help\n"
"\n"
"Only the environment keys named by --env or AIRLOCK_ENV are forwarded\n"
"to the server; everything else stays here (the runner sets PATH and\n"
"HOME itself). A named key that is not set is an error; the runner\n"
"refuses keys its policy forbids, naming them.\n"
"\n"
"stderr carries the server's stderr (control bytes written \\xNN) and\n"
"the relay's own records, each on a fresh line starting \"relay: \" (a\n"
"server line starting so gets \"server: \" in front); with --log-format\n"
"json every line is a JSON record, the server's wrapped with\n"
"\"source\":\"server\". SIGTERM, SIGINT and SIGHUP end the relay within\n"
"250 ms with 128+N, whatever the runner or the output pipes do.\n"
"\n"
"Exit status: the server's; or 64 usage, 69 runner unreachable or lost,\n"
"70 internal error, 71 the runner could not start the server, 76\n"
"protocol error (the runner broke the protocol), 77 request refused by\n"
"the runner (policy, approval, capacity), 78 configuration (secret), 80\n"
"handshake failed (wrong secret or not an airlock runner).\n";

struct relay_config {
	const char *addr;
	const char *secret_file;
	const char *tenant;
	const char *registration;
	const char *approval;
	size_t approval_len;
	uint64_t timeout_ms;
	int doctor;
	char **argv;
	size_t argc;
	struct envlist named;		/* --env and AIRLOCK_ENV */
	char *env_key[PROTO_ENVC_MAX];
	char *env_value[PROTO_ENVC_MAX];
	size_t envc;
};

/* The environment to forward: exactly the named keys, each of which must
 * be set (its first occurrence when the environment repeats it). */
static void
collect_env(struct relay_config *cfg)
{
	extern char **environ;

	for (size_t i = 0; i < cfg->named.n; i++) {
		const char *key = cfg->named.key[i];
		size_t klen = strlen(key);
		char **e;

		for (e = environ; *e; e++)
			if (strncmp(*e, key, klen) == 0 && (*e)[klen] == '=')
				break;
		if (!*e)
			die(EXIT_USAGE, "%s is named by --env or AIRLOCK_ENV but "
			    "not set in the relay's environment", key);
		cfg->env_key[cfg->envc] = cfg->named.key[i];
		cfg->env_value[cfg->envc] = *e + klen + 1;
		cfg->envc++;
	}
}

/* --doctor: the names (never the values) of what stays behind; airlock's
 * own control variables are consumed here and not listed. */
static void
doctor_env(const struct relay_config *cfg)
{
	extern char **environ;
	char name[256];
	size_t dropped = 0;

	printf("ok   env: forwarding %zu named key%s", cfg->envc,
	    cfg->envc == 1 ? "" : "s");
	for (size_t i = 0; i < cfg->envc; i++)
		printf("%s%s", i ? " " : ": ", cfg->env_key[i]);
	printf("\n");
	for (char **e = environ; *e; e++) {
		const char *eq = strchr(*e, '=');
		size_t klen = eq ? (size_t)(eq - *e) : strlen(*e);

		if ((klen >= 8 && strncmp(*e, "AIRLOCK_", 8) == 0) ||
		    envlist_has(&cfg->named, *e, klen))
			continue;
		log_escape(name, sizeof name, *e, klen);
		printf("%s%s", dropped++ ? " " : "ok   env: dropped (not named): ",
		    name);
	}
	if (dropped)
		printf("\n");
}

static char *
read_token_file(const char *path, size_t *len)
{
	char *buf = xmalloc(PROTO_APPROVAL_MAX + 2);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		die_errno(EXIT_CONFIG, "cannot open approval file %s", path);
	n = read(fd, buf, PROTO_APPROVAL_MAX + 2);
	close(fd);
	if (n < 0)
		die_errno(EXIT_CONFIG, "cannot read approval file %s", path);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	if (n == 0 || n > PROTO_APPROVAL_MAX)
		die(EXIT_CONFIG, "approval file %s is empty or over %d bytes",
		    path, PROTO_APPROVAL_MAX);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static void
parse_args(struct relay_config *cfg, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "connect", required_argument, NULL, 'c' },
		{ "secret-file", required_argument, NULL, 's' },
		{ "tenant", required_argument, NULL, 't' },
		{ "registration", required_argument, NULL, 'r' },
		{ "approval-file", required_argument, NULL, 'a' },
		{ "env", required_argument, NULL, 'e' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "doctor", no_argument, NULL, 'd' },
		{ "log-format", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *approval_file = NULL, *list;
	char err[256];
	int c;

	cfg->addr = getenv("AIRLOCK_RUNNER");
	cfg->tenant = getenv("AIRLOCK_TENANT");
	cfg->registration = getenv("AIRLOCK_REGISTRATION");
	cfg->approval = getenv("AIRLOCK_APPROVAL");
	cfg->timeout_ms = 10000;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': cfg->addr = optarg; break;
		case 's': cfg->secret_file = optarg; break;
		case 't': cfg->tenant = optarg; break;
		case 'r': cfg->registration = optarg; break;
		case 'a': approval_file = optarg; break;
		case 'e':
			if (envlist_add(&cfg->named, optarg, strlen(optarg), err,
			    sizeof err) != 0)
				die(EXIT_USAGE, "--env: %s", err);
			break;
		case 'd': cfg->doctor = 1; break;
		case 'T':
			if (cli_duration_ms(optarg, &cfg->timeout_ms) ||
			    cfg->timeout_ms > 3600000)
				die(EXIT_USAGE, "--timeout: '%s' is not a "
				    "duration up to 1h (e.g. 10s)", optarg);
			break;
		case 'l':
			if (log_set_format(optarg))
				die(EXIT_USAGE, "--log-format: human or json");
			break;
		case 'h': fputs(usage, stdout); exit(EXIT_OK);
		default: fputs(usage, stderr); exit(EXIT_USAGE);
		}
	}
	if ((list = getenv("AIRLOCK_ENV")) && envlist_parse(&cfg->named, list,
	    strlen(list), err, sizeof err) != 0)
		die(EXIT_USAGE, "AIRLOCK_ENV: %s (a comma-separated list of key "
		    "names, e.g. API_KEY,DB_URL)", err);
	if (optind >= argc)
		die(EXIT_USAGE, "no COMMAND given (usage: airlock relay "
		    "[OPTIONS] -- COMMAND [ARGS...])");
	cfg->argv = argv + optind;
	cfg->argc = (size_t)(argc - optind);
	if (!cfg->addr || !*cfg->addr)
		die(EXIT_USAGE, "no runner address: give --connect ADDR or "
		    "set AIRLOCK_RUNNER");
	if (!cfg->tenant || !cfg->registration)
		die(EXIT_USAGE, "no tenant/registration: give --tenant and "
		    "--registration or set AIRLOCK_TENANT and "
		    "AIRLOCK_REGISTRATION");
	if (approval_file)
		cfg->approval = read_token_file(approval_file,
		    &cfg->approval_len);
	else if (cfg->approval)
		cfg->approval_len = strnlen(cfg->approval,
		    PROTO_APPROVAL_MAX + 1);
	else
		cfg->approval = "";
}

/* Connect, retrying briefly so a restarting runner is not an error. */
static int
connect_runner(const struct netaddr *a, uint64_t timeout_ms, char *err,
    size_t errlen)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	uint64_t waited = 0;
	int fd;

	for (;;) {
		fd = netaddr_connect(a, err, errlen);
		if (fd >= 0 || waited >= timeout_ms || waited >= 2000 ||
		    (errno != ECONNREFUSED && errno != ENOENT &&
		    errno != ECONNRESET && errno != EAGAIN))
			return fd;
		nanosleep(&pause, NULL);
		waited += (uint64_t)pause.tv_nsec / 1000000;
		if (pause.tv_nsec < 400 * 1000 * 1000)
			pause.tv_nsec *= 2;
	}
}

/* Bounds on the runner's keep-alive contract (STARTED), whatever it asks:
 * a PING at least every 100 ms .. 60 s; give up on a runner silent for
 * 500 ms .. 10 min. Values outside are clamped (docs/PROTOCOL.md). */
#define PING_MIN_MS 100u
#define PING_MAX_MS 60000u
#define LIVENESS_MIN_MS 500u
#define LIVENESS_MAX_MS 600000u
/* PINGs in a row we could not answer (our queue to the runner full)
 * before the runner counts as flooding without reading. */
#define UNANSWERED_PINGS_MAX 8
/* How long stderr may hold up our exit once the lease is over. */
#define ERR_DRAIN_MS 2000
/* The highest signal number an EXIT may carry (Linux's SIGRTMAX). */
#define SIGNAL_MAX 64

/* Everything the event loop needs. */
struct relay {
	struct channel ch;
	struct fd_writer out;
	struct errstream err;
	int sigfd;
	int stdin_open;
	int started;		/* STARTED arrived: output and EXIT may follow */
	int exit_status;	/* -1 until the lease is decided */
	int64_t last_heard_ms;
	int64_t last_ping_ms;
	uint64_t pings;		/* PINGs sent; a PONG must echo one of them */
	unsigned unanswered;	/* PINGs in a row we could not answer */
	uint32_t ping_ms;	/* from STARTED; defaults until then */
	uint32_t liveness_ms;
	int violated;		/* the runner broke the protocol */
	int signalled;		/* SIGTERM, SIGINT or SIGHUP arrived */
};

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
	default:
		return RELAY_REFUSED;
	}
}

/* The runner broke the protocol: the lease ends with 76 and says how. */
static int
violation(struct relay *r, uint8_t type, const char *why)
{
	log_msg(LOG_ERROR, "protocol error: the runner sent %s %s; ending the "
	    "lease", frame_type_name(type), why);
	r->violated = 1;
	r->exit_status = RELAY_PROTOCOL;
	return -1;
}

/* STARTED: once, first; printable ids; the timers clamped. */
static int
on_started(struct relay *r, const uint8_t *p, size_t n)
{
	struct started_info s;

	if (r->started)
		return violation(r, FRAME_STARTED, "a second time");
	if (proto_started_parse(&s, p, n) != PROTO_OK)
		return violation(r, FRAME_STARTED, "malformed (bad lengths, "
		    "or liveness_ms not above ping_ms)");
	if (!proto_id_valid((const uint8_t *)s.lease_id, strlen(s.lease_id)) ||
	    !proto_id_valid((const uint8_t *)s.jail, strlen(s.jail)))
		return violation(r, FRAME_STARTED, "with a lease id or jail "
		    "name outside [A-Za-z0-9._-]{1,64}");
	r->started = 1;
	r->ping_ms = clamp_u32(s.ping_ms, PING_MIN_MS, PING_MAX_MS);
	r->liveness_ms = clamp_u32(s.liveness_ms, LIVENESS_MIN_MS,
	    LIVENESS_MAX_MS);
	log_event(LOG_DEBUG, "lease started", (struct log_field[]){
	    LF_STR("lease", s.lease_id), LF_STR("jail", s.jail),
	    LF_NUM("ping_ms", r->ping_ms),
	    LF_NUM("liveness_ms", r->liveness_ms) }, 4);
	return 0;
}

/* EXIT: after STARTED; a real signal number; a known reason. */
static int
on_exit_frame(struct relay *r, const uint8_t *p, size_t n)
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

/* ERROR: only instead of STARTED; a known code. */
static int
on_error_frame(struct relay *r, const uint8_t *p, size_t n)
{
	struct error_info e;

	if (r->started)
		return violation(r, FRAME_ERROR, "after STARTED");
	if (proto_error_parse(&e, p, n) != PROTO_OK)
		return violation(r, FRAME_ERROR, "malformed");
	if (e.code == 0 || e.code >= LERR_MAX_)
		return violation(r, FRAME_ERROR, "with an unknown code");
	/* log.c escapes the message: it is the runner's text */
	log_msg(LOG_ERROR, "runner refused the request: %s: %s",
	    proto_error_name(e.code), e.message);
	r->exit_status = refused_exit(&e);
	return -1;
}

/* Handle one frame from the runner, checked against the lease's state
 * (docs/PROTOCOL.md, "What the relay accepts"); returns -1 to stop the
 * loop with r->exit_status set. */
static int
on_frame(struct relay *r, uint8_t type, const uint8_t *p, size_t n)
{
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
		if (channel_can_queue(&r->ch)) {
			r->unanswered = 0;
			return channel_queue(&r->ch, FRAME_PONG, p, n) == 0 ? 0 :
			    violation(r, type, "that could not be answered");
		}
		if (++r->unanswered > UNANSWERED_PINGS_MAX)
			return violation(r, type, "again and again without "
			    "reading the answers (a PING flood)");
		return 0;
	case FRAME_PONG:
		rd = rd_init(p, n);
		if (n != PROTO_PING_LEN || rd_u64(&rd, &echo) != 0)
			return violation(r, type, "of a length other than 8");
		if (echo == 0 || echo > r->pings)
			return violation(r, type, "for a PING never sent");
		return 0;	/* hearing it is the point */
	case FRAME_STARTED:
		return on_started(r, p, n);
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
pump_stdin(struct relay *r)
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
outputs_full(const struct relay *r)
{
	return fd_writer_busy(&r->out) || !errstream_can_put(&r->err);
}

/* Deliver buffered frames while our outputs can take them; -1 when the
 * lease is over (r->exit_status set), 0 to go on. */
static int
deliver(struct relay *r)
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
signalled(struct relay *r)
{
	struct signalfd_siginfo si;

	if (r->sigfd < 0 || read(r->sigfd, &si, sizeof si) != sizeof si)
		return 0;
	r->signalled = 1;
	return 128 + (int)si.ssi_signo;
}

/* Write what our outputs hold until they are empty, blocking in poll (a
 * signal still ends it at once). stderr gets until err_deadline, then is
 * given up. Returns 0, the signal's exit status, or 128 + SIGPIPE when
 * our stdout's reader is gone. */
static int
flush_outputs(struct relay *r, int64_t err_deadline)
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
salvage(struct relay *r, const char *what)
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
keepalive(struct relay *r, int64_t now)
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
relay_loop(struct relay *r)
{
	char lost[128];

	for (;;) {
		struct pollfd pf[5];
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

/* Our log records go through the stderr stream, so they never land in
 * the middle of the server's bytes (errstream.h). */
static void
log_to_stream(const char *line, size_t n, void *arg)
{
	errstream_record(arg, line, n);
}

static int
signals_fd(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	int fd = signal_fd_open(sigs, sizeof sigs / sizeof sigs[0]);

	if (fd < 0)
		die_errno(EXIT_OSERR, "signalfd");
	return fd;
}

/* Connect and authenticate; dies with the documented code on failure. */
/* The protocol version this relay speaks: the build's, or the lowest of
 * the test hook's list. */
static unsigned
spoken_version(void)
{
	uint32_t mask;
	unsigned v = VERSION_CURRENT;

	switch (version_test_hook(&mask)) {
	case 0:
		return v;
	case 1:
		for (v = 1; !(mask & (1u << v)); v++)
			;
		log_msg(LOG_WARN, "test hook %s: speaking protocol version %u "
		    "(unset it in production)", VERSION_TEST_HOOK, v);
		return v;
	default:
		die(EXIT_USAGE, "%s must be versions like 1,2 (a test hook; "
		    "unset it in production)", VERSION_TEST_HOOK);
	}
}

static void
open_lease(struct relay *r, const struct relay_config *cfg,
    const uint8_t psk[32], int doctor)
{
	struct netaddr addr;
	char err[512];
	int fd;
	int64_t t0 = mono_ms();

	if (netaddr_parse(&addr, cfg->addr, err, sizeof err))
		die(EXIT_USAGE, "%s", err);
	fd = connect_runner(&addr, cfg->timeout_ms, err, sizeof err);
	if (fd < 0) {
		if (doctor)
			printf("FAIL connect: %s\n", err);
		die(RELAY_UNREACHABLE, "runner unreachable: %s", err);
	}
	if (doctor)
		printf("ok   connect: %s (%lld ms)\n", cfg->addr,
		    (long long)(mono_ms() - t0));
	netaddr_keepalive(fd, 15, 5, 3);
	t0 = mono_ms();
	if (channel_handshake_as(&r->ch, fd, CHANNEL_INITIATOR, psk,
	    spoken_version(), (int)cfg->timeout_ms, err, sizeof err) != 0) {
		if (doctor)
			printf("FAIL handshake: %s\n", err);
		die(RELAY_AUTH, "%s", err);
	}
	if (doctor)
		printf("ok   handshake: %s (%lld ms)\n", NOISE_NAME_PSK,
		    (long long)(mono_ms() - t0));
}

static void
send_spawn(struct relay *r, const struct relay_config *cfg)
{
	static uint8_t payload[FRAME_PAYLOAD_MAX];
	long n = proto_spawn_encode(payload, sizeof payload, cfg->tenant,
	    cfg->registration, cfg->argv, cfg->argc, cfg->env_key,
	    cfg->env_value, cfg->envc, cfg->approval, cfg->approval_len);

	if (n < 0)
		die(EXIT_USAGE, "the spawn request does not fit the protocol's "
		    "caps (ids: 1-64 of [A-Za-z0-9._-]; up to 256 args of 4096 "
		    "bytes, 256 env entries, %d bytes in all)",
		    FRAME_PAYLOAD_MAX);
	if (channel_queue(&r->ch, FRAME_SPAWN, payload, (size_t)n) != 0)
		die(EXIT_SOFTWARE, "cannot queue the spawn request");
}

/* --doctor: the same lease with stdin closed at once; report each step.
 * The runner's frames pass the same checks as in a lease, and every text
 * from it is printed escaped. */
static int
doctor(struct relay *r, const struct relay_config *cfg)
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

	if (channel_queue(&r->ch, FRAME_STDIN_EOF, NULL, 0) != 0)
		die(EXIT_SOFTWARE, "cannot queue stdin EOF");
	while (!r->violated) {
		if (channel_flush_wait(&r->ch, 10000) != 0) {
			printf("FAIL lease: cannot send to the runner\n");
			return RELAY_UNREACHABLE;
		}
		if (channel_recv_wait(&r->ch, &type, &p, &len, 30000, &why) !=
		    CHANNEL_FRAME) {
			printf("FAIL lease: %s\n", why);
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
			if (on_started(r, p, len) != 0 ||
			    proto_started_parse(&s, p, len) != PROTO_OK)
				break;
			printf("ok   spawn: lease %s, jail %s, argv[0] %s\n",
			    log_escape(t1, sizeof t1, s.lease_id,
			    strlen(s.lease_id)), log_escape(t2, sizeof t2,
			    s.jail, strlen(s.jail)), cfg->argv[0]);
			break;
		case FRAME_ERROR:
			(void)on_error_frame(r, p, len);
			if (r->violated ||
			    proto_error_parse(&e, p, len) != PROTO_OK)
				break;
			printf("FAIL spawn: refused: %s: %s\n",
			    proto_error_name(e.code), log_escape(msg, sizeof msg,
			    e.message, strlen(e.message)));
			return r->exit_status;
		case FRAME_EXIT:
			(void)on_exit_frame(r, p, len);
			if (r->violated ||
			    proto_exit_parse(&x, p, len) != PROTO_OK)
				break;
			printf("ok   server %s %u after stdin closed (%lld ms, "
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
	printf("FAIL lease: the runner broke the protocol (%s frame)\n",
	    frame_type_name(type));
	return RELAY_PROTOCOL;
}

int
relay_main(int argc, char **argv)
{
	static struct relay r;
	struct relay_config cfg;
	uint8_t psk[32];
	char err[512];
	int status, st;

	memset(&cfg, 0, sizeof cfg);
	signal(SIGPIPE, SIG_IGN);
	parse_args(&cfg, argc, argv);
	collect_env(&cfg);
	if (secret_load_psk(cfg.secret_file, psk, err, sizeof err) != 0) {
		if (cfg.doctor)
			printf("FAIL secret: %s\n", err);
		die(EXIT_CONFIG, "%s", err);
	}
	if (cfg.doctor) {
		printf("ok   configuration: runner %s, tenant %s, registration "
		    "%s, %zu env keys, approval %s\n", cfg.addr, cfg.tenant,
		    cfg.registration, cfg.envc,
		    cfg.approval_len ? "given" : "none");
		doctor_env(&cfg);
	}
	r.sigfd = -1;
	r.exit_status = -1;
	r.ping_ms = 10000;	/* until STARTED says otherwise */
	r.liveness_ms = 60000;
	/* until signals_fd below, SIGTERM, SIGINT and SIGHUP keep their
	 * default action: they end the relay at once, whatever the connect
	 * or the handshake is doing */
	open_lease(&r, &cfg, psk, cfg.doctor);
	secure_wipe(psk, sizeof psk);
	send_spawn(&r, &cfg);
	if (cfg.doctor) {
		status = doctor(&r, &cfg);
		channel_close(&r.ch);
		return status;
	}
	r.sigfd = signals_fd();
	if (fd_writer_init_shared(&r.out, STDOUT_FILENO) != 0 ||
	    errstream_init(&r.err, STDERR_FILENO, log_is_json(),
	    log_prog_name()) != 0)
		die_errno(EXIT_OSERR, "cannot set up the output writers");
	log_set_sink(log_to_stream, &r.err);
	r.stdin_open = 1;
	r.last_heard_ms = r.last_ping_ms = mono_ms();
	status = relay_loop(&r);
	channel_close(&r.ch);
	if (r.signalled)	/* nothing more is written: we end now */
		return status;
	errstream_finish(&r.err);
	st = flush_outputs(&r, mono_ms() + ERR_DRAIN_MS);
	return r.signalled ? st : status;
}
