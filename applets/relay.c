/* relay.c - what an MCP client spawns instead of the server: one lease to
 * the runner, stdio relayed byte-exact, the server's exit status as ours. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/base/cli.h"
#include "common/base/clock.h"
#include "common/base/envlist.h"
#include "common/base/log.h"
#include "common/base/secmem.h"
#include "common/base/signal_fd.h"
#include "common/base/xwrap.h"
#include "common/wire/netaddr.h"
#include "common/wire/proto.h"
#include "common/wire/relay_session.h"
#include "common/wire/secret.h"
#include "common/wire/version.h"
#include "applets/applet.h"

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
"  --timeout DURATION    connect + handshake limit (default 10s); a\n"
"                        handshake the runner closed before answering\n"
"                        is tried again within it, 4 times at most\n"
"  --doctor              check every step, say which one fails, run\n"
"                        COMMAND with stdin closed and report its exit\n"
"                        and the lease's egress policy\n"
"  --log-format human|json\n"
"  --help\n"
"\n"
"Only the environment keys named by --env or AIRLOCK_ENV are forwarded\n"
"to the server; everything else stays here (the runner sets PATH and\n"
"HOME itself). A named key that is not set is an error; the runner\n"
"refuses keys its policy forbids, naming them.\n"
"\n"
"stderr carries the server's stderr (every control character, C1 and\n"
"bidi ones included, and every byte not in valid UTF-8 written \\xNN) and\n"
"the relay's own records, each on a fresh line starting \"relay: \" (a\n"
"server line starting so gets \"server: \" in front); with --log-format\n"
"json every line is a JSON record, the server's wrapped with\n"
"\"source\":\"server\". SIGTERM, SIGINT and SIGHUP end the relay within\n"
"250 ms with 128+N, whatever the runner or the output pipes do. When\n"
"the process that spawned the relay ends (any of its threads may have\n"
"spawned it), the lease ends at once (129); the runner ends the server.\n"
"\n"
"Exit status: the server's; or 64 usage, 69 runner unreachable or lost,\n"
"70 internal error, 71 the runner could not start the server, 76\n"
"protocol error (the runner broke the protocol), 77 request refused by\n"
"the runner (policy, approval, capacity), 78 configuration (secret), 80\n"
"handshake failed (wrong secret or not an airlock runner), 75 the lease\n"
"reached the runner's --max-lease-duration, 129 the relay's parent\n"
"process ended.\n";

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

/* A pidfd of the process that spawned us, taken first thing: it becomes
 * readable when that process has ended, whichever of its threads spawned
 * us; -1 when the parent is outside our pid namespace. (PR_SET_PDEATHSIG
 * fires when the spawning *thread* ends: under a JVM or Node platform
 * that is any worker thread, which would end a lease whose client is
 * alive.) getppid() again after the open: had the parent died in
 * between, we are reparented and its pid may be another's. */
static int
parent_fd(void)
{
	pid_t ppid = getppid();
	int fd;

	/* a parent outside our pid namespace (a container runtime's exec)
	 * cannot be named: the runtime's session then holds our stdin */
	if (ppid == 0)
		return -1;
	fd = (int)syscall(SYS_pidfd_open, ppid, 0);
	if (fd < 0)
		die_errno(EXIT_OSERR, "cannot watch the parent process "
		    "(pidfd_open, Linux 5.3 or later)");
	if (getppid() != ppid)
		die(EXIT_UNAVAILABLE, "the relay's parent process has ended");
	return fd;
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

/* A handshake the runner closed before any byte of its answer (its
 * pre-auth table evicted it, or its per-source cap was full) is tried
 * again on a new connection: so many times at most, the first after
 * RETRY_FIRST_MS, doubling, all within --timeout. */
#define HANDSHAKE_RETRIES 4
#define RETRY_FIRST_MS 100

/* What is left until deadline, in ms (0 when past). */
static int64_t
left_ms(int64_t deadline)
{
	int64_t d = deadline - mono_ms();

	return d > 0 ? d : 0;
}

static void
sleep_ms(int64_t ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) *
		1000000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Connect and authenticate; dies with the documented code on failure. */
static void
open_lease(struct relay_session *r, const struct relay_config *cfg,
    const uint8_t psk[32], int doctor)
{
	struct netaddr addr;
	char err[512];
	int fd, tries = 0;
	int64_t t0 = mono_ms(), deadline = t0 + (int64_t)cfg->timeout_ms;
	int64_t wait_ms = RETRY_FIRST_MS;

	if (netaddr_parse(&addr, cfg->addr, err, sizeof err))
		die(EXIT_USAGE, "%s", err);
	for (;;) {
		fd = relay_connect(&addr, (uint64_t)left_ms(deadline), err,
		    sizeof err);
		if (fd < 0) {
			if (doctor)
				printf("FAIL connect: %s\n", err);
			die(RELAY_UNREACHABLE, "runner unreachable: %s", err);
		}
		if (doctor && tries == 0)
			printf("ok   connect: %s (%lld ms)\n", cfg->addr,
			    (long long)(mono_ms() - t0));
		if (relay_session_handshake(r, fd, psk, spoken_version(),
		    (uint64_t)left_ms(deadline), err, sizeof err) == 0)
			break;
		if (!r->ch.unanswered || tries == HANDSHAKE_RETRIES ||
		    mono_ms() + wait_ms >= deadline) {
			if (doctor)
				printf("FAIL handshake: %s\n", err);
			if (tries)
				die(RELAY_AUTH, "%s (%d attempts)", err,
				    tries + 1);
			die(RELAY_AUTH, "%s", err);
		}
		close(fd);
		tries++;
		log_msg(LOG_INFO, "the runner closed the handshake before "
		    "answering: trying again in %lld ms (%d of %d)",
		    (long long)wait_ms, tries, HANDSHAKE_RETRIES);
		sleep_ms(wait_ms);
		wait_ms *= 2;
	}
	if (doctor)
		printf("ok   handshake: %s (%lld ms%s)\n", NOISE_NAME_PSK,
		    (long long)(mono_ms() - t0), tries ? ", tried again" : "");
}

static void
send_spawn(struct relay_session *r, const struct relay_config *cfg)
{
	const struct relay_request q = {
		.tenant = cfg->tenant, .registration = cfg->registration,
		.argv = cfg->argv, .argc = cfg->argc,
		.env_key = cfg->env_key, .env_value = cfg->env_value,
		.envc = cfg->envc,
		.approval = cfg->approval, .approval_len = cfg->approval_len
	};

	if (relay_session_spawn(r, &q) == 0)
		return;
	if (errno == EMSGSIZE)
		die(EXIT_USAGE, "the spawn request does not fit the protocol's "
		    "caps (ids: 1-64 of [A-Za-z0-9._-]; up to 256 args of 4096 "
		    "bytes, 256 env entries, %d bytes in all)",
		    FRAME_PAYLOAD_MAX);
	die(EXIT_SOFTWARE, "cannot queue the spawn request");
}

int
relay_main(int argc, char **argv)
{
	static struct relay_session r;
	struct relay_config cfg;
	uint8_t psk[32];
	char err[512];
	int pfd;

	memset(&cfg, 0, sizeof cfg);
	pfd = parent_fd();
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
	/* until signals_fd below, SIGTERM, SIGINT and SIGHUP keep their
	 * default action: they end the relay at once, whatever the connect
	 * or the handshake is doing */
	open_lease(&r, &cfg, psk, cfg.doctor);
	secure_wipe(psk, sizeof psk);
	send_spawn(&r, &cfg);
	if (cfg.doctor)
		return relay_session_doctor(&r, stdout, cfg.argv[0]);
	if (relay_session_start_io(&r, signals_fd(), pfd) != 0)
		die_errno(EXIT_OSERR, "cannot set up the output writers");
	return relay_session_run(&r);
}
