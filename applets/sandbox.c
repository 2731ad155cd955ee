/* sandbox.c - run tenant code tools (Python, Java, a configured
 * interpreter) once per request in a fresh jail with no network:
 *   run       one execution from the command line
 *   serve     the service: Noise-authenticated requests, per-tenant budgets
 *   call      its client
 *   verify    check class files against the Java denylist
 *   denylist  print the built-in Java denylist
 * The execution itself is common/sandbox/sbx_exec (jail, event loop,
 * limits), what executions share sbx_env, the Java stage sbx_java, the
 * wire format sbx_proto, the service sbx_server (with the budgets of
 * sbx_budget), its client sbx_client; this file is options, help and
 * output. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/base/cli.h"
#include "common/gateway/gateway.h"
#include "common/jail/jail_probe.h"
#include "common/sandbox/javacheck.h"
#include "common/service/metrics.h"
#include "common/service/metrics_http.h"
#include "common/service/problems.h"
#include "common/jail/jail.h"
#include "common/base/json.h"
#include "common/base/log.h"
#include "common/sandbox/sbx_budget.h"
#include "common/sandbox/sbx_exec.h"
#include "common/sandbox/sbx_java.h"
#include "common/sandbox/sbx_jwarm.h"
#include "common/sandbox/sbx_proto.h"
#include "common/sandbox/sbx_client.h"
#include "common/sandbox/sbx_config.h"
#include "common/sandbox/sbx_env.h"
#include "common/sandbox/sbx_server.h"
#include "common/jail/seccomp_policy.h"
#include "common/wire/secret.h"
#include "common/base/signal_fd.h"
#include "common/base/random_id.h"
#include "common/jail/spawn.h"
#include "common/base/tailbuf.h"
#include "common/base/xwrap.h"
#include "applets/applet.h"

/* Exit codes of run and call besides the tool's own status. */
enum {
	SBX_EXIT_TIMEOUT = EXIT_TIMEOUT,	/* wall clock: 124 */
	SBX_EXIT_LIMIT = EXIT_LIMIT,	/* memory, cpu, output, pids: 125 */
	SBX_EXIT_REFUSED = EXIT_DATAERR,	/* verify, compile: 65 */
	SBX_EXIT_JAIL = EXIT_OSERR,	/* 71 */
	SBX_EXIT_AUTH = EXIT_AUTH	/* call: handshake failed (80) */
};

#define EXIT_CODES \
"Exit status: the tool's own (a signal N gives 128+N); 124 wall-clock\n" \
"timeout; 125 another limit (memory, cpu, output, pids, disk); 65\n" \
"verify_failed or compile_failed (or an unreadable input); 64 usage; 71\n" \
"jail_failed or a system error; 78 configuration; call: 75 shutdown\n" \
"(the service drained past its --drain-timeout; the result says so).\n"

static const char usage_main[] =
"usage: airlock sandbox run|serve|call|gateway|verify|denylist|check ...\n"
"\n"
"Run tenant code tools once per request in a fresh jail with no network.\n"
"\n"
"  run    [OPTIONS] -- SOURCE...|COMMAND...  one execution, here\n"
"  serve  --listen ADDR --secret-file F [--config FILE] [OPTIONS]\n"
"                                            the service\n"
"  call   --connect ADDR --secret-file F [OPTIONS] -- SOURCE...\n"
"  gateway --listen 127.0.0.1:PORT|unix:PATH --connect ADDR [OPTIONS]\n"
"                                            an HTTP JSON API (Piston's v2)\n"
"                                            in front of serve\n"
"  verify [--java-denylist FILE] DIR...      check class files\n"
"  denylist                                  print the built-in Java denylist\n"
"  check  [--json] [JAIL OPTIONS]            what this host supports (modes,\n"
"         cgroups, Landlock ABI); exit 0 when the chosen --jail can run\n"
"\n"
"'airlock sandbox COMMAND --help' describes each; docs/SANDBOX.md the\n"
"protocol.\n";

#define LIMIT_HELP \
"  --timeout DUR     wall clock (default 5s)\n" \
"  --cpu-time DUR    CPU time of the whole jail (default 2s)\n" \
"  --memory SIZE     memory of the whole jail, no swap (default 256M,\n" \
"                    at least 16M); Java's heap is sized from it\n" \
"  --pids N          tasks in the jail (default 64)\n" \
"  --output SIZE     cap of stdout and of stderr each (default 1M)\n"

#define JAIL_HELP \
"  --jail ns|uid|none  jail mode (default ns: user, pid, mount, ipc, uts,\n" \
"                    cgroup and an empty network namespace; uid: a uid of\n" \
"                    the range in an empty network namespace, needs\n" \
"                    CAP_SYS_ADMIN and Landlock; none is for development\n" \
"                    only)\n" \
"  --uid-range FIRST-LAST  uids of executions (default 300000-300999;\n" \
"                    --uids is its old name)\n" \
"  --state-dir DIR   per-execution state (default /tmp/airlock-sandbox)\n" \
"  --cgroup DIR      a delegated cgroup v2 directory (default: cgroup v1\n" \
"                    hierarchies when writable, else the v2 group it\n" \
"                    was started in when delegated)\n" \
"  --landlock auto|require|off  (default auto)\n" \
"  --disk SIZE       the tool's writable space: HOME, work dir, /tmp and\n" \
"                    /dev/shm together, on one tmpfs that counts against\n" \
"                    --memory (default: half the memory limit)\n" \
"  --python PATH     python3 (default /usr/bin/python3)\n" \
"  --java-home DIR   the JDK (default: from javac on PATH)\n" \
"  --java-denylist FILE  replaces the built-in Java denylist\n"

#define ARG_HELP \
"  --arg WORD        one word of the tool's argv after its name (Python's\n" \
"                    sys.argv[1:], Java's main(String[]), exec's COMMAND's\n" \
"                    arguments); repeatable, exactly as given, never an\n" \
"                    option of the interpreter; at most 64 words of 4096\n" \
"                    bytes, 16384 in all\n"

static const char usage_run[] =
"usage: airlock sandbox run --lang python|java|exec [OPTIONS] -- SOURCE...\n"
"       airlock sandbox run --lang exec [OPTIONS] -- COMMAND [ARGS...]\n"
"\n"
"Run one tool in a fresh jail: python3 -E -s on SOURCE (its first file;\n"
"the others beside it on sys.path),\n"
"javac then java for Java sources (one set of limits for both; every\n"
"class file checked against the denylist before anything runs, then the\n"
"JVM's only class path; the first file names the main class),\n"
"or COMMAND for exec. The sources are copied into the jail's working\n"
"directory (on the --disk tmpfs, the only writable space); the input is\n"
"the tool's stdin. The tool's stdout is passed through when it exited\n"
"by itself; its stderr always (capped, with a truncation marker, every\n"
"control and byte not in valid UTF-8 written \\xNN); then\n"
"one result line on stderr, or with --json one JSON object on stdout\n"
"holding the result, the tool's stdout and the end of its stderr.\n"
"\n"
"  --lang L          python, java or exec\n"
"  --input FILE|-    the tool's stdin (default: empty)\n"
"  --file NAME=PATH  one of the tool's files, called NAME in the jail\n"
"                    (repeatable; every --file, then each SOURCE, the\n"
"                    first runs: Python imports the others, javac\n"
"                    compiles them all; at most 15)\n"
ARG_HELP
LIMIT_HELP
"  --json            the result, or an error with a stable code, as one\n"
"                    JSON object on stdout (docs/SANDBOX.md)\n"
JAIL_HELP
"  --java-unconfined test hook for the A/B tests of the Java stage's run-\n"
"                    time layers: the JVM loads classes from the directory\n"
"                    the tool can write, and writes where the jail lets it\n"
"                    (unsafe: never for real tools)\n"
"  --log-format human|json\n"
"\n"
EXIT_CODES;

static const char usage_serve[] =
"usage: airlock sandbox serve --listen ADDR --secret-file FILE [OPTIONS]\n"
"\n"
"Serve executions: each connection authenticates (Noise, keyed by the\n"
"shared secret: the internal token), sends one request (tenant, request\n"
"id, language, files, input, limits) and gets the tool's output and a\n"
"result. Requested limits are clamped to the maxima below; 0 asks for\n"
"the default. Per-tenant budgets refuse with a stable code naming the\n"
"budget, never hang. One log record per execution: tenant, request id,\n"
"language, limits, result and reason; never source or input bytes.\n"
"\n"
"  --listen ADDR             HOST:PORT, [IPV6]:PORT or unix:/PATH\n"
"  --secret-file FILE        shared secret (AIRLOCK_SECRET_FILE, or\n"
"                            AIRLOCK_SECRET); at least 32 bytes\n"
"  --max-timeout DUR         (default 30s)  --max-cpu-time DUR (10s)\n"
"  --max-memory SIZE         (default 1G)   --max-pids N (default 256)\n"
"  --max-output SIZE         (default 16M)\n"
"  --max-disk SIZE           caps --disk and its default (default 512M)\n"
LIMIT_HELP
"                            (the defaults for requests that give 0)\n"
"  --tenant-concurrency N    executions of one tenant at once (default 4)\n"
"  --tenant-queue N          requests of one tenant waiting (default 8;\n"
"                            0 refuses at once)\n"
"  --tenant-cpu-time DUR     CPU time per tenant per window (default: none)\n"
"  --cpu-window DUR          the rolling window (default 1m)\n"
"  --max-concurrency N       executions at once in all (default 16)\n"
"  --max-queue N             requests waiting in all (default 64)\n"
"  --queue-timeout DUR       longest wait in a queue (default 30s)\n"
"  --drain-timeout DUR       SIGTERM: executions in flight may finish this\n"
"                            long, then end with reason shutdown, their\n"
"                            result delivered (default 30s; SIGINT: 0)\n"
"  --handshake-timeout DUR   the handshake, then the request upload, each\n"
"                            (default 10s)\n"
"  --max-conns-per-peer N    pending handshakes of one source: a local\n"
"                            peer's uid (any address it uses), else an\n"
"                            IPv4 address or an IPv6 /64 (default 32; 256\n"
"                            pending in all); a lease's connection to the\n"
"                            service's own ports is closed at accept\n"
"  --preauth-uid UID         the uid (and gid) of the pre-auth process\n"
"                            that runs handshakes (default: the first uid\n"
"                            of --uid-range, which executions then do not get;\n"
"                            nobody with --jail none as root)\n"
"  --exec-interpreter PATH   what language exec runs (files[0] as its\n"
"                            argument); without it exec is refused\n"
"  --warm python=N,java=M    keep N (M) warm slots (1..64 each, at most\n"
"                            --max-concurrency in all): jails prepared with\n"
"                            the default limits, python3 (a JVM that has\n"
"                            warmed up javac) started and waiting; each\n"
"                            takes one execution of its language whose\n"
"                            memory, pids, CPU rlimit and disk are the\n"
"                            defaults, is then destroyed and made again\n"
"                            (others start cold)\n"
JAIL_HELP
"  --log-format human|json\n"
"  --config FILE             more of these options, one a line, without\n"
"                            dashes ('max-timeout 10s'); only root and this\n"
"                            user may be able to change it. SIGHUP re-reads\n"
"                            it (and the secrets) all or nothing: secrets,\n"
"                            limits, budgets, --handshake-timeout and\n"
"                            --max-conns-per-peer change for executions\n"
"                            admitted afterwards; the rest needs a restart\n"
"                            (docs/OPERATIONS.md, Reload)\n"
"  --metrics ADDR            serve GET /metrics (Prometheus), /healthz and\n"
"                            /readyz on HOST:PORT (off by default; see\n"
"                            docs/OPERATIONS.md and airlock probe)\n"
"  --check                   the preflight: every start-up check of this\n"
"                            configuration (secret, state dir, uid range,\n"
"                            cgroup limits, Landlock, listen addresses),\n"
"                            the host report, then exit 0; or every\n"
"                            problem found, each with the service's own\n"
"                            message, and exit 78. Sweeps and\n"
"                            removes nothing (also: sandbox check with\n"
"                            --listen or --secret-file)\n"
"\n"
"Exit status: 0 after a drain (SIGTERM), 64 usage, 71 system error,\n"
"78 configuration.\n";

static const char usage_call[] =
"usage: airlock sandbox call --connect ADDR --tenant ID --lang L\n"
"                            [OPTIONS] [--file NAME=PATH]... -- SOURCE...\n"
"\n"
"Send one request to airlock sandbox serve and print what run would.\n"
"\n"
"  --connect ADDR      the service (AIRLOCK_SANDBOX)\n"
"  --secret-file FILE  shared secret (AIRLOCK_SECRET_FILE, AIRLOCK_SECRET)\n"
"  --tenant ID         (AIRLOCK_TENANT)\n"
"  --request-id ID     (default: random)\n"
"  --lang L            python, java or exec\n"
"  --input FILE|-      the tool's stdin\n"
"  --file NAME=PATH    one of the tool's files, called NAME (repeatable;\n"
"                      every --file, then each SOURCE; the first runs)\n"
ARG_HELP
"  --timeout DUR --cpu-time DUR --memory SIZE --pids N --output SIZE\n"
"                      requested limits (default: the service's)\n"
"  --json              the result, or an error with a stable code, as\n"
"                      one JSON object on stdout\n"
"  --connect-timeout DUR  connect + handshake (default 10s)\n"
"\n"
EXIT_CODES
"69 service unreachable, 76 protocol error, 77 refused (the budget or\n"
"cause is named), 80 handshake failed.\n";

static const char usage_gateway[] =
"usage: airlock sandbox gateway --listen 127.0.0.1:PORT|unix:PATH\n"
"                               --connect ADDR [OPTIONS]\n"
"\n"
"An HTTP/1.1 JSON API in Piston's v2 shape, run beside the platform (like\n"
"the relay): POST /api/v2/execute and GET /api/v2/runtimes. Each\n"
"execution is forwarded over the sandbox protocol (Noise, the shared\n"
"secret) to airlock sandbox serve; the answer is Piston's fields plus\n"
"\"airlock\" (reason, cpu_ms, peak_memory, limits, budget). Every error is\n"
"a JSON object with a stable \"code\". The tenant: the X-Airlock-Tenant\n"
"header or the body's \"tenant\" (docs/SANDBOX.md, \"Gateway\").\n"
"\n"
"  --listen ADDR         127.0.0.1:PORT, [::1]:PORT or unix:/PATH (made\n"
"                        0600); repeatable, at most 4\n"
"  --allow-remote        allow a --listen address that is not loopback\n"
"                        (whoever reaches it runs code as any tenant)\n"
"  --connect ADDR        the sandbox service (AIRLOCK_SANDBOX)\n"
"  --secret-file FILE    shared secret (AIRLOCK_SECRET_FILE, AIRLOCK_SECRET)\n"
"  --default-tenant ID   the tenant of a request that names none (default:\n"
"                        none; such a request is refused)\n"
"  --runtime LANG=VERSION  what /api/v2/runtimes reports and a request's\n"
"                        \"version\" must match (or \"*\"); repeatable\n"
"                        (default python=3 and java=17)\n"
"  --max-conns N         connections at once (default 64; past it 503)\n"
"  --max-body SIZE       request body (default 16M)\n"
"  --max-output SIZE     stdout and stderr each, asked of the service and\n"
"                        kept (default 1M)\n"
"  --read-timeout DUR    the request's head and body (default 10s)\n"
"  --write-timeout DUR   the answer (default 10s)\n"
"  --connect-timeout DUR the service's connect and handshake (default 10s)\n"
"  --drain-timeout DUR   SIGTERM: requests in flight may finish this long\n"
"                        (default 30s)\n"
"  --log-format human|json\n"
"\n"
"Exit status: 0 after a drain (SIGTERM, SIGINT), 64 usage, 71 a socket\n"
"could not be made, 78 configuration (the secret, a --listen address\n"
"that is not loopback).\n";

/* --- options shared by run and serve ----------------------------------- */

enum {
	OPT_LANG = 256, OPT_INPUT, OPT_TIMEOUT, OPT_CPU, OPT_MEMORY,
	OPT_PIDS, OPT_OUTPUT, OPT_JSON, OPT_JAIL, OPT_UIDS, OPT_STATE,
	OPT_CGROUP, OPT_LANDLOCK, OPT_DISK, OPT_PYTHON, OPT_JAVA_HOME,
	OPT_DENYLIST, OPT_LOG, OPT_SECRET, OPT_CHECK, OPT_CONFIG, OPT_CONNECT,
	OPT_TENANT, OPT_REQID, OPT_CONNECT_TIMEOUT, OPT_HEAP,
	OPT_JAVA_UNCONFINED, OPT_OLD_CPU, OPT_FILE, OPT_LISTEN, OPT_REMOTE,
	OPT_DEFAULT_TENANT, OPT_RUNTIME, OPT_MAX_CONNS, OPT_MAX_BODY,
	OPT_MAX_OUTPUT, OPT_READ_TIMEOUT, OPT_WRITE_TIMEOUT, OPT_DRAIN,
	OPT_STAGE_WARM,
	OPT_ARG,
	OPT_SERVICE = 1000	/* + the index of sbx_options[] */
};

#define JAIL_OPTIONS \
	{ "jail", required_argument, NULL, OPT_JAIL }, \
	{ "uid-range", required_argument, NULL, OPT_UIDS }, \
	{ "uids", required_argument, NULL, OPT_UIDS }, /* its old name */ \
	{ "state-dir", required_argument, NULL, OPT_STATE }, \
	{ "cgroup", required_argument, NULL, OPT_CGROUP }, \
	{ "landlock", required_argument, NULL, OPT_LANDLOCK }, \
	{ "disk", required_argument, NULL, OPT_DISK }, \
	{ "python", required_argument, NULL, OPT_PYTHON }, \
	{ "java-home", required_argument, NULL, OPT_JAVA_HOME }, \
	{ "java-denylist", required_argument, NULL, OPT_DENYLIST }, \
	{ "log-format", required_argument, NULL, OPT_LOG }

#define LIMIT_OPTIONS \
	{ "timeout", required_argument, NULL, OPT_TIMEOUT }, \
	{ "cpu-time", required_argument, NULL, OPT_CPU }, \
	{ "cpu", required_argument, NULL, OPT_OLD_CPU }, \
	{ "memory", required_argument, NULL, OPT_MEMORY }, \
	{ "pids", required_argument, NULL, OPT_PIDS }, \
	{ "output", required_argument, NULL, OPT_OUTPUT }

static uint64_t
duration_arg(const char *name, const char *v)
{
	uint64_t ms;

	if (cli_duration_ms(v, &ms) || ms > 86400000)
		die(EXIT_USAGE, "--%s: '%s' is not a duration up to 1d (e.g. "
		    "500ms, 5s, 2m)", name, v);
	return ms;
}

static uint64_t
count_arg(const char *name, const char *v, uint64_t min, uint64_t max)
{
	uint64_t n;

	if (cli_count(v, min, max, &n))
		die(EXIT_USAGE, "--%s: '%s' is not a count from %llu to %llu",
		    name, v, (unsigned long long)min, (unsigned long long)max);
	return n;
}

/* A limit option of run or call (sbx_config's parser), the idx-th of
 * opts (-1: a short one): 1 taken, 0 not one; a bad value exits. */
static int
limit_opt(const struct option *opts, int idx, const char *v,
    struct sbx_limits *l)
{
	char err[256];
	int rc;

	if (idx < 0)
		return 0;
	if ((rc = sbx_limit_set(l, opts[idx].name, v, err, sizeof err)) < 0)
		die(EXIT_USAGE, "%s", err);
	return rc;
}

/* A jail option of run or check, or --log-format, as limit_opt. */
static int
jail_opt(const struct option *opts, int idx, const char *v,
    struct sbx_jail_opts *o)
{
	char err[256];
	int rc;

	if (idx < 0)
		return 0;
	if (strcmp(opts[idx].name, "log-format") == 0) {
		if (log_set_format(v))
			die(EXIT_USAGE, "--log-format: human or json");
		return 1;
	}
	if ((rc = sbx_jail_opt_set(o, opts[idx].name, v, err, sizeof err)) < 0)
		die(EXIT_USAGE, "%s", err);
	return rc;
}

/* The jail and the rest every execution shares (sbx_env_init), or exit
 * naming what is wrong; a preflight's pb notes it and goes on. 0 when
 * the jail is set up. */
static int
env_setup(struct sbx_env *e, const struct sbx_jail_opts *o,
    const struct sbx_limits *max, uint64_t max_disk, int sigfd,
    int one_shot, int check_only, const char *exec_cmd, struct problems *pb)
{
	char err[1024];
	int rc = EXIT_OSERR;

	switch (sbx_env_init(e, o, max, max_disk, sigfd, one_shot, check_only,
	    exec_cmd, err, sizeof err)) {
	case SBX_ENV_OK:
		return 0;
	case SBX_ENV_BAD_SETUP:
		rc = EXIT_CONFIG;
		break;
	case SBX_ENV_SYSTEM:
		break;
	}
	if ((rc = problems_note(pb, rc, err)) != 0)
		die(rc, "%s", err);
	return -1;
}

/* --- what a tool gives back: kept for run and call --------------------- */

#define STDERR_TAIL 4096
#define SBX_OUTPUT_CLIENT_MAX (64u << 20)	/* call keeps at most this */

/* The tool's stdout (up to its cap) and the end of its stderr; stderr
 * is also passed through to ours as it comes, when pass_stderr. */
struct capture {
	uint8_t *out;
	size_t out_len, out_cap;
	uint8_t tail[STDERR_TAIL];
	size_t tail_len;
	int pass_stderr;
};

static void
capture_init(struct capture *c, uint64_t cap, int pass_stderr)
{
	memset(c, 0, sizeof *c);
	c->out_cap = (size_t)cap;
	c->out = xmalloc(c->out_cap ? c->out_cap : 1);
	c->pass_stderr = pass_stderr;
}

/* A tool's text on our stderr in human form (log_stream_step): no byte
 * it wrote reaches a terminal as a control. A character cut between two
 * pieces is written as its bytes, \xNN each. */
static void
write_human(const uint8_t *p, size_t n)
{
	char buf[1024];
	size_t off = 0, len;

	while (off < n) {
		for (len = 0; off < n && len <= sizeof buf - LOG_ESCAPE_STEP_MAX; )
			len += log_stream_step(p, n, &off, buf + len);
		fwrite(buf, 1, len, stderr);
	}
	fflush(stderr);
}

static int
capture_emit(void *ctx, int stream, const uint8_t *p, size_t n)
{
	struct capture *c = ctx;

	if (stream == 1) {
		size_t take = n < c->out_cap - c->out_len ? n :
		    c->out_cap - c->out_len;

		memcpy(c->out + c->out_len, p, take);
		c->out_len += take;
		return 0;
	}
	if (c->pass_stderr)
		write_human(p, n);
	tail_keep(c->tail, sizeof c->tail, &c->tail_len, p, n);
	return 0;
}

/* run keeps what it captures in memory: it always has room */
static size_t
capture_room(void *ctx)
{
	(void)ctx;
	return SIZE_MAX;
}

static int
result_exit(const struct sbx_result *r)
{
	switch (r->reason) {
	case SBX_EXITED:
		return r->kind == SBX_KIND_SIGNAL ? 128 + r->status :
		    r->status;
	case SBX_TIMEOUT:
		return SBX_EXIT_TIMEOUT;
	case SBX_VERIFY_FAILED:
	case SBX_COMPILE_FAILED:
		return SBX_EXIT_REFUSED;
	case SBX_JAIL_FAILED:
		return SBX_EXIT_JAIL;
	case SBX_SHUTDOWN:
		return EXIT_TEMPFAIL;
	default:
		return SBX_EXIT_LIMIT;
	}
}

static void
human_size(char *out, size_t cap, uint64_t b)
{
	if (b >= (10u << 20))
		snprintf(out, cap, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= (10u << 10))
		snprintf(out, cap, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(out, cap, "%llu B", (unsigned long long)b);
}

/* Print the outcome as run and call do; returns the exit status. */
static int
report(const struct sbx_result *r, unsigned lang,
    const struct sbx_limits *lim, const struct capture *c, int json)
{
	char line[256], peak[32], out[32];
	struct rusage ru;

	if (json) {
		static char obj[SBX_DETAIL_MAX * 2 + 2048];
		long n = sbx_result_json(obj, sizeof obj, r, lang, lim);

		if (n < 2)
			die(EXIT_SOFTWARE, "cannot format the result");
		/* the result object, its last '}' replaced by the outputs */
		fwrite(obj, 1, (size_t)n - 1, stdout);
		fputs(",\"stdout\":", stdout);
		json_write_quoted(stdout, c->out, c->out_len);
		fputs(",\"stderr_tail\":", stdout);
		json_write_quoted(stdout, c->tail, c->tail_len);
		fputs("}\n", stdout);
	} else if (r->reason == SBX_EXITED) {
		fwrite(c->out, 1, c->out_len, stdout);
	}
	fflush(stdout);
	if (r->flags & SBX_F_STDERR_TRUNCATED)
		fprintf(stderr, "\n[airlock: stderr truncated at %llu bytes]\n",
		    (unsigned long long)r->stderr_bytes);
	if (r->flags & SBX_F_STDOUT_TRUNCATED)
		fprintf(stderr, "[airlock: stdout truncated at %llu bytes]\n",
		    (unsigned long long)r->stdout_bytes);
	if (r->kind == SBX_KIND_CODE)
		snprintf(line, sizeof line, "exit code %u", r->status);
	else if (r->kind == SBX_KIND_SIGNAL)
		snprintf(line, sizeof line, "signal %u", r->status);
	else
		snprintf(line, sizeof line, "did not run");
	human_size(peak, sizeof peak, r->peak_memory);
	human_size(out, sizeof out, r->stdout_bytes);
	/* our own peak, too: output past the caps never reaches memory */
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		ru.ru_maxrss = 0;
	log_event(r->reason == SBX_EXITED ? LOG_INFO : LOG_WARN, "execution "
	    "ended", (struct log_field[]){
	    LF_STR("reason", sbx_reason_name(r->reason)),
	    LF_STR("status", line), LF_NUM("wall_ms", r->wall_ms),
	    LF_NUM("cpu_ms", r->cpu_ms), LF_STR("peak", peak),
	    LF_STR("stdout", out), LF_NUM("sandbox_rss_kb", ru.ru_maxrss) },
	    7);
	if (r->detail[0] && r->reason != SBX_EXITED) {
		fprintf(stderr, "%s: ", sbx_reason_name(r->reason));
		write_human((const uint8_t *)r->detail, strlen(r->detail));
		fputc('\n', stderr);
	}
	return result_exit(r);
}

/* --- --json: every other outcome as one object too -------------------- */

/* The stable code of an outcome that is neither a result nor a
 * service's refusal, by its exit status (docs/SANDBOX.md, "Errors"). */
static const char *
error_code(int status)
{
	switch (status) {
	case EXIT_USAGE: return "usage";
	case EXIT_DATAERR: return "input";
	case EXIT_UNAVAILABLE: return "unreachable";
	case EXIT_SOFTWARE: return "internal";
	case EXIT_OSERR: return "system";
	case EXIT_IOERR: return "io";
	case EXIT_PROTOCOL: return "bad_answer";
	case EXIT_CONFIG: return "config";
	case EXIT_AUTH: return "handshake_failed";
	default: return "error";
	}
}

/* {"code":..,"message":..,"exit_status":N}: the one object on stdout. */
static void
json_error(const char *code, const char *msg, int status)
{
	printf("{\"code\":\"%s\",\"message\":", code);
	json_write_quoted(stdout, msg, strlen(msg));
	printf(",\"exit_status\":%d}\n", status);
	fflush(stdout);
}

static void
json_die(int status, const char *msg)
{
	json_error(error_code(status), msg, status);
}

/* --json anywhere before "--": from then on die() writes its error as
 * the one JSON object, and getopt's complaints become die()'s. */
static int
json_asked(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--json") == 0) {
			die_set_hook(json_die);
			opterr = 0;
			return 1;
		}
	return 0;
}

/* An option getopt refused (o is '?' or ':'): the usage text, or with
 * --json the error object. Returns the exit status. */
static int
bad_option(int json, const char *usage, int argc, char **argv)
{
	const char *arg = optind - 1 < argc ? argv[optind - 1] : "";

	if (json)
		die(EXIT_USAGE, "unknown option or missing value: %s", arg);
	fputs(usage, stderr);
	return EXIT_USAGE;
}

/* --- reading the tool's files and input -------------------------------- */

static uint8_t *
read_all(const char *path, size_t cap, size_t *len)
{
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO :
	    open(path, O_RDONLY | O_CLOEXEC);
	uint8_t *buf = xmalloc(cap + 1);
	size_t n = 0;

	if (fd < 0)
		die_errno(EXIT_DATAERR, "cannot open %s", path);
	for (;;) {
		ssize_t r = read(fd, buf + n, cap + 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die_errno(EXIT_DATAERR, "cannot read %s", path);
		if (r == 0)
			break;
		n += (size_t)r;
		/* a size outside the limits is the caller's (usage), as a
		 * name outside the grammar is */
		if (n > cap)
			die(EXIT_USAGE, "%s is larger than %zu bytes", path,
			    cap);
	}
	if (fd != STDIN_FILENO)
		close(fd);
	*len = n;
	return buf;
}

/* The tool's files, in command-line order: each --file NAME=PATH, then
 * each SOURCE (named by its basename). The first runs. */
struct sources {
	struct sbx_file_data f[SBX_FILES_MAX];
	size_t n, total;
};

static void
source_add(struct sources *s, const char *name, const char *path)
{
	struct sbx_file_data *f;

	if (s->n == SBX_FILES_MAX)
		die(EXIT_USAGE, "at most %d files", SBX_FILES_MAX);
	if (!sbx_name_valid((const uint8_t *)name, strlen(name)))
		die(EXIT_USAGE, "%s: file names are 1-%d bytes of "
		    "[A-Za-z0-9._-], not starting with '.' or '-'", name,
		    SBX_NAME_MAX);
	for (size_t j = 0; j < s->n; j++)
		if (strcmp(s->f[j].name, name) == 0)
			die(EXIT_USAGE, "two files named %s", name);
	f = &s->f[s->n++];
	f->name = name;
	f->data = read_all(path, SBX_FILE_MAX, &f->len);
	s->total += f->len;
	if (s->total > SBX_FILES_TOTAL_MAX)
		die(EXIT_USAGE, "the files are larger than %u bytes in all",
		    SBX_FILES_TOTAL_MAX);
}

/* --file NAME=PATH: the file at PATH, called NAME in the jail. */
static void
source_named(struct sources *s, const char *arg)
{
	char *name = xstrdup(arg), *eq = strchr(name, '=');

	if (!eq || eq == name || !eq[1])
		die(EXIT_USAGE, "--file: NAME=PATH, e.g. --file "
		    "helper.py=/tmp/x1");
	*eq = '\0';
	source_add(s, name, eq + 1);
}

/* The --file arguments as given, read once the command line parsed. */
struct named_files {
	const char *arg[SBX_FILES_MAX];
	size_t n;
};

static void
named_add(struct named_files *nf, const char *arg)
{
	if (nf->n == SBX_FILES_MAX)
		die(EXIT_USAGE, "at most %d files", SBX_FILES_MAX);
	nf->arg[nf->n++] = arg;
}

/* The --arg words, in order, NULL-terminated: the tool's argv after its
 * name. */
struct tool_args {
	char *w[SBX_ARGS_MAX + 1];
	size_t n;
};

static void
arg_add(struct tool_args *ta, char *word)
{
	if (ta->n == SBX_ARGS_MAX)
		die(EXIT_USAGE, "--arg: at most %d words", SBX_ARGS_MAX);
	ta->w[ta->n++] = word;
	ta->w[ta->n] = NULL;
	if (sbx_args_check(ta->w) != SBX_OK)
		die(EXIT_USAGE, "--arg: a word is at most %d bytes, all at "
		    "most %d", SBX_ARG_MAX, SBX_ARGS_TOTAL_MAX);
}

/* Every --file, then each SOURCE (named by its basename). */
static void
sources_read(struct sources *s, const struct named_files *nf, char **paths,
    size_t n)
{
	for (size_t i = 0; i < nf->n; i++)
		source_named(s, nf->arg[i]);
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(paths[i], '/');

		source_add(s, base ? base + 1 : paths[i], paths[i]);
	}
}

static void
exec_id(char out[17])
{
	if (random_id(out) != 0)
		die_errno(EXIT_OSERR, "getrandom");
}

static int
signals_fd(const int *sigs, size_t n)
{
	int fd;

	signal(SIGPIPE, SIG_IGN);
	fd = signal_fd_open(sigs, n);
	if (fd < 0)
		die_errno(EXIT_OSERR, "signalfd");
	return fd;
}

/* --- run --------------------------------------------------------------- */

static int
run_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "lang", required_argument, NULL, OPT_LANG },
		{ "input", required_argument, NULL, OPT_INPUT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "java-unconfined", no_argument, NULL,
		    OPT_JAVA_UNCONFINED },
		{ "file", required_argument, NULL, OPT_FILE },
		{ "arg", required_argument, NULL, OPT_ARG },
		LIMIT_OPTIONS, JAIL_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	static struct sbx_env sb;
	static struct sources src;
	static struct tool_args targs;
	struct named_files named = { .n = 0 };
	struct sbx_jail_opts jo;
	struct sbx_limits lim;
	struct sbx_job job;
	struct sbx_result res;
	struct capture cap;
	struct sbx_output out;
	const char *input = NULL;
	char id[17], why[768];
	unsigned lang = 0;
	int json = 0, o, idx, sigfd, unconfined = 0, rc;

	sbx_jail_opts_default(&jo);
	sbx_limits_default(&lim);
	json = json_asked(argc, argv);
	for (idx = -1; (o = getopt_long(argc, argv, "+h", opts, &idx)) != -1;
	    idx = -1) {
		if (limit_opt(opts, idx, optarg, &lim) ||
		    jail_opt(opts, idx, optarg, &jo))
			continue;
		switch (o) {
		case OPT_LANG:
			if (!(lang = sbx_lang_parse(optarg)))
				die(EXIT_USAGE, "--lang: python, java or exec");
			break;
		case OPT_INPUT: input = optarg; break;
		case OPT_JSON: json = 1; break;
		case OPT_JAVA_UNCONFINED: unconfined = 1; break;
		case OPT_FILE: named_add(&named, optarg); break;
		case OPT_ARG: arg_add(&targs, optarg); break;
		case 'h': fputs(usage_run, stdout); return EXIT_OK;
		default: return bad_option(json, usage_run, argc, argv);
		}
	}
	if (!lang)
		die(EXIT_USAGE, "no --lang given (python, java or exec)");
	if (optind >= argc && (lang == SBX_LANG_EXEC || !named.n))
		die(EXIT_USAGE, "nothing to run: give -- SOURCE... or --file "
		    "NAME=PATH (or -- COMMAND for exec)");
	if (lang == SBX_LANG_EXEC && named.n)
		die(EXIT_USAGE, "--file: exec runs COMMAND, it takes no "
		    "files");
	if (lang == SBX_LANG_JAVA && !jo.java_home &&
	    !(jo.java_home = sbx_env_java_home()))
		die(EXIT_CONFIG, "no JDK found (javac on PATH); give "
		    "--java-home");
	memset(&job, 0, sizeof job);
	exec_id(id);
	job.id = id;
	job.tenant = "cli";
	job.lang = lang;
	job.lim = lim;
	job.disk = sbx_env_disk(jo.disk, lim.memory, UINT64_MAX);
	job.args = targs.w;
	job.nargs = targs.n;
	if (lang == SBX_LANG_EXEC) {
		job.exec_argv = argv + optind;
	} else {
		sources_read(&src, &named, argv + optind,
		    (size_t)(argc - optind));
		job.nfiles = src.n;
		job.files = src.f;
	}
	if (input) {
		job.input = read_all(input, SBX_INPUT_MAX, &job.input_len);
	}
	sigfd = signals_fd(sigs, sizeof sigs / sizeof sigs[0]);
	/* the jail's own processes (its init, a sweeper) come back to us
	 * if their parent dies first, to be reaped: never left as zombies
	 * for a container init that may not reap */
	if (spawn_become_subreaper() != 0)
		die_errno(EXIT_OSERR, "cannot become a subreaper");
	env_setup(&sb, &jo, &lim, UINT64_MAX, sigfd, 1, 0,
	    lang == SBX_LANG_EXEC ? argv[optind] : NULL,
	    &(struct problems){ 0 });
	sb.exec.java_unconfined = unconfined;
	if (unconfined)
		log_msg(LOG_WARN, "--java-unconfined: the JVM loads "
		    "classes from a directory the tool can write (classes "
		    "nobody checked) and may write /proc (a test hook: never "
		    "use it for real tools)");
	capture_init(&cap, lim.output, !json);
	out = (struct sbx_output){ &cap, capture_emit, capture_room, -1, NULL,
		NULL };
	if (sbx_exec(&sb.exec, &job, &out, &res) != 0 ||
	    res.reason == SBX_SHUTDOWN) {
		log_msg(LOG_WARN, "stopped by a signal");
		jail_fini(&sb.jail);
		if (json)
			json_error("signal", "stopped by a signal", 128 +
			    SIGTERM);
		return 128 + SIGTERM;
	}
	rc = report(&res, lang, &lim, &cap, json);
	/* run skipped the trial jails at start: say why the real one failed */
	if (res.reason == SBX_JAIL_FAILED &&
	    jail_diagnose(&sb.jail.cfg, why, sizeof why) == 0)
		log_msg(LOG_ERROR, "why: %s", why);
	jail_fini(&sb.jail);
	return rc;
}

/* --- verify, denylist, the Java stage ---------------------------------- */

static int
verify_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "java-denylist", required_argument, NULL, OPT_DENYLIST },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct javacheck_policy pol;
	const char *list = NULL;
	char err[512], why[JAVACHECK_WHY_MAX];
	int o, rc = EXIT_OK;

	while ((o = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (o) {
		case OPT_DENYLIST: list = optarg; break;
		case 'h':
			puts("usage: airlock sandbox verify [--java-denylist "
			    "FILE] DIR...\n\nCheck every class file below each "
			    "DIR (javac's -d output) against the\nJava denylist, "
			    "as the sandbox does before running a tool.\n\nExit "
			    "status: 0 all pass, 65 one is refused or malformed, "
			    "64 usage,\n71 I/O, 78 a bad denylist.");
			return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		die(EXIT_USAGE, "no DIR given");
	if ((list ? javacheck_policy_load(&pol, list, err, sizeof err) :
	    javacheck_policy_default(&pol, err, sizeof err)) != 0)
		die(EXIT_CONFIG, "denylist: %s", err);
	for (int i = optind; i < argc; i++) {
		struct javacheck_stats st;
		int fd = open(argv[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		enum javacheck_status js;

		if (fd < 0)
			die_errno(EXIT_IOERR, "%s", argv[i]);
		js = javacheck_tree(&pol, fd, &st, why, sizeof why);
		close(fd);
		if (js == JAVACHECK_OK) {
			printf("ok %s: %zu class files, %zu references\n",
			    argv[i], st.files, st.refs);
		} else {
			printf("%s %s: %s\n", js == JAVACHECK_DENIED ?
			    "refused" : js == JAVACHECK_BAD ? "malformed" :
			    "error", argv[i], why);
			rc = js == JAVACHECK_ERROR ? EXIT_IOERR : EXIT_DATAERR;
		}
	}
	javacheck_policy_free(&pol);
	return rc;
}

static int
java_stage_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "java-home", required_argument, NULL, OPT_JAVA_HOME },
		{ "heap", required_argument, NULL, OPT_HEAP },
		{ "java-denylist", required_argument, NULL, OPT_DENYLIST },
		{ "unconfined", no_argument, NULL, OPT_JAVA_UNCONFINED },
		{ "warm", no_argument, NULL, OPT_STAGE_WARM },
		{ "arg", required_argument, NULL, OPT_ARG },
		{ NULL, 0, NULL, 0 }
	};
	static struct tool_args targs;
	struct sbx_java_opts jo;
	int o;

	memset(&jo, 0, sizeof jo);
	while ((o = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (o) {
		case OPT_JAVA_HOME: jo.java_home = optarg; break;
		case OPT_HEAP:
			jo.heap = count_arg("heap", optarg, 1u << 20,
			    64ull << 30);
			break;
		case OPT_DENYLIST: jo.denylist = optarg; break;
		case OPT_JAVA_UNCONFINED: jo.unconfined = 1; break;
		case OPT_STAGE_WARM: jo.warm = 1; break;
		case OPT_ARG: arg_add(&targs, optarg); break;
		default: return EXIT_USAGE;
		}
	}
	jo.args = targs.w;
	jo.nargs = targs.n;
	if (!jo.java_home || !jo.heap || (optind >= argc) != jo.warm)
		die(EXIT_USAGE, "internal: _java-stage --java-home DIR --heap N "
		    "(--warm | -- FILES)");
	if (jo.warm)
		return sbx_jwarm_stage(&jo);
	jo.files = argv + optind;
	jo.nfiles = (size_t)(argc - optind);
	return sbx_java_stage(&jo);
}

static int serve_main(int argc, char **argv);
static int call_main(int argc, char **argv);
static int gateway_main(int argc, char **argv);
static int preflight_asked;	/* sandbox check with service flags */

/* check: the host report for the sandbox's jail (the runner's --check,
 * with the sandbox's own choices: lease uids, an empty network). */
static int
check_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		JAIL_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sbx_jail_opts jo;
	struct jail_config cfg;
	struct jail_host h;
	struct sock_fprog prog;
	int json = 0, o, idx;

	/* with the service's own flags: the preflight of serve --check */
	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "--listen", 8) == 0 ||
		    strncmp(argv[i], "--secret-file", 13) == 0 ||
		    strncmp(argv[i], "--config", 8) == 0) {
			preflight_asked = 1;
			return serve_main(argc, argv);
		}
	sbx_jail_opts_default(&jo);
	for (idx = -1; (o = getopt_long(argc, argv, "h", opts, &idx)) != -1;
	    idx = -1) {
		if (o == OPT_JSON)
			json = 1;
		else if (o == 'h') {
			fputs("usage: airlock sandbox check [--json] [--jail MODE] "
			    "[--landlock auto|require|off] [--cgroup DIR] ...\n"
			    "Exit 0 when the chosen mode (default ns) can run "
			    "here, 78 when not.\n"
			    "With --listen, --secret-file or --config it takes "
			    "every flag "
			    "of sandbox serve and runs its preflight\n"
			    "(sandbox serve --check).\n", stdout);
			return EXIT_OK;
		} else if (jail_opt(opts, idx, optarg, &jo) == 0)
			die(EXIT_USAGE, "usage: airlock sandbox check [--json] "
			    "[JAIL OPTIONS]");
	}
	memset(&cfg, 0, sizeof cfg);
	sbx_env_jail_config(&jo, &cfg);
	cfg.limits.disk = sbx_env_disk(jo.disk, 256u << 20, UINT64_MAX);
	seccomp_policy_program(&prog, SECCOMP_PROG_JAIL);
	cfg.seccomp = &prog;
	jail_probe(&cfg, &h);
	jail_host_print(stdout, &cfg, &h, json);
	return h.mode_ok[jo.mode] ? EXIT_OK : EXIT_CONFIG;
}

int
sandbox_main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (strcmp(cmd, "run") == 0)
		return run_main(argc - 1, argv + 1);
	if (strcmp(cmd, "serve") == 0)
		return serve_main(argc - 1, argv + 1);
	if (strcmp(cmd, "call") == 0)
		return call_main(argc - 1, argv + 1);
	if (strcmp(cmd, "gateway") == 0)
		return gateway_main(argc - 1, argv + 1);
	if (strcmp(cmd, "verify") == 0)
		return verify_main(argc - 1, argv + 1);
	if (strcmp(cmd, "_java-stage") == 0)
		return java_stage_main(argc - 1, argv + 1);
	if (strcmp(cmd, "denylist") == 0) {
		fputs(javacheck_default_text, stdout);
		return EXIT_OK;
	}
	if (strcmp(cmd, "check") == 0 || strcmp(cmd, "--check") == 0)
		return check_main(argc - 1, argv + 1);
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		fputs(usage_main, stdout);
		return EXIT_OK;
	}
	fputs(usage_main, stderr);
	return EXIT_USAGE;
}


/* --- serve ------------------------------------------------------------ */

/* serve's command line beside the service's configuration. */
struct serve_cli {
	int check;			/* --check: the preflight only */
	const char *config_path;	/* --config FILE, or NULL */
};

/* getopt's table: the service's options (sbx_config.h), then the command
 * line's own. */
static void
serve_args(struct serve_cli *cli, struct sbx_config *c, int argc,
    char **argv)
{
	static struct option opts[64];
	char err[512];
	size_t n = 0;
	int o;

	if (sbx_noptions + 4 > sizeof opts / sizeof *opts)
		die(EXIT_SOFTWARE, "getopt table too small");
	for (size_t i = 0; i < sbx_noptions; i++)
		opts[n++] = (struct option){ sbx_options[i].name,
		    sbx_options[i].has_value ? required_argument :
		    no_argument, NULL, OPT_SERVICE + (int)i };
	opts[n++] = (struct option){ "config", required_argument, NULL,
	    OPT_CONFIG };
	opts[n++] = (struct option){ "check", no_argument, NULL, OPT_CHECK };
	opts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	memset(cli, 0, sizeof *cli);
	cli->check = preflight_asked;
	sbx_config_defaults(c);
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case OPT_CONFIG:
			if (cli->config_path)
				die(EXIT_USAGE, "--config: one file");
			cli->config_path = optarg;
			break;
		case OPT_CHECK: cli->check = 1; break;
		case 'h': fputs(usage_serve, stdout); exit(EXIT_OK);
		default:
			if (o < OPT_SERVICE) {
				fputs(usage_serve, stderr);
				exit(EXIT_USAGE);
			}
			if (sbx_config_set(c, (size_t)(o - OPT_SERVICE), optarg,
			    0, err, sizeof err) != 0)
				die(EXIT_USAGE, "%s", err);
		}
	}
	if (optind < argc)
		die(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	c->config_path = cli->config_path;
}

/* serve: start-up in the order of its checks, then the service. */
static int
serve_main(int argc, char **argv)
{
	static struct sbx_config base, c;
	static struct serve_cli cli;
	static struct sbx_server s;
	static struct sbx_env sb;
	static const int sigs[] = { SIGCHLD, SIGTERM, SIGINT, SIGHUP };
	static const int exit_for[] = { [SBX_SERVER_OK] = EXIT_OK,
		[SBX_SERVER_BAD_OPTIONS] = EXIT_USAGE,
		[SBX_SERVER_BAD_SETUP] = EXIT_CONFIG,
		[SBX_SERVER_SYSTEM] = EXIT_OSERR };
	enum sbx_server_status st;
	struct problems pb = { 0 };
	char err[640], why[700];
	int rc, jail_ok;

	serve_args(&cli, &base, argc, argv);
	c = base;
	if (cli.config_path && sbx_config_load(&c, cli.config_path, err,
	    sizeof err) != 0)
		die(EXIT_CONFIG, "%s", err);
	if (sbx_config_finish(&c, err, sizeof err) != 0)
		die(EXIT_USAGE, "%s", err);
	if (c.log_format)
		log_set_format(c.log_format);
	if (c.metrics)
		xmetrics_listen_start(c.metrics, METRICS_SANDBOX,
		    c.sc.budget.total_concurrent + c.sc.budget.total_queue,
		    c.jo.mode == JAIL_NONE ? 0 : c.jo.uid_first,
		    c.jo.mode == JAIL_NONE ? 0 : c.jo.uid_last, cli.check);
	if (!c.jo.java_home)
		c.jo.java_home = sbx_env_java_home();
	/* a preflight (--check) notes every problem and goes on */
	pb.preflight = cli.check;
	st = sbx_server_init(&s, &c.sc, signals_fd(sigs, sizeof sigs /
	    sizeof sigs[0]), err, sizeof err);
	if (st != SBX_SERVER_OK && (rc = problems_note(&pb, exit_for[st],
	    err)) != 0)
		die(rc, "%s", err);
	sbx_server_reload_from(&s, &base, &c);
	jail_ok = env_setup(&sb, &c.jo, &c.sc.max, c.sc.max_disk, -1, 0,
	    cli.check, c.sc.exec_interpreter, &pb) == 0;
	for (size_t i = 0; i < c.nlisten; i++)
		if ((st = sbx_server_listen(&s, c.listen[i], err, sizeof err))
		    != SBX_SERVER_OK) {
			if (st == SBX_SERVER_BAD_OPTIONS)
				snprintf(why, sizeof why, "--listen: %s", err);
			else
				snprintf(why, sizeof why, "%s", err);
			if ((rc = problems_note(&pb, exit_for[st], why)) != 0)
				die(rc, "%s", why);
		}
	if (cli.check) {
		/* the preflight, past every start-up step: report, undo */
		if (jail_ok)
			jail_host_print(stdout, &sb.jail.cfg, &sb.jail.host, 0);
		sbx_server_stop_listening(&s);
		jail_fini(&sb.jail);
		if (pb.n) {
			printf("preflight: %u problem(s) above: this "
			    "configuration does not start here\n", pb.n);
			return problems_status(&pb);
		}
		printf("preflight: this configuration starts here\n");
		return EXIT_OK;
	}
	for (size_t i = 0; i < c.nlisten; i++)
		log_event(LOG_INFO, "sandbox listening", (struct log_field[]){
		    LF_STR("address", c.listen[i]),
		    LF_STR("jail", jail_summary(&sb.jail)),
		    LF_STR("java", c.jo.java_home ? c.jo.java_home : "none"),
		    LF_NUM("max_concurrency", c.sc.budget.total_concurrent),
		    LF_NUM("tenant_concurrency", c.sc.budget.tenant_concurrent),
		    LF_NUM("tenant_queue", c.sc.budget.tenant_queue) }, 6);
	if ((st = sbx_server_run(&s, &sb.exec, err, sizeof err)) !=
	    SBX_SERVER_OK)
		die(exit_for[st], "%s", err);
	jail_fini(&sb.jail);
	log_msg(LOG_INFO, "sandbox stopped");
	return EXIT_OK;
}

/* --- call -------------------------------------------------------------- */

/* The exit status of a refusal, by the code the service named. */
static int
refusal_exit(unsigned code)
{
	switch (code) {
	case SBX_ERR_PROTOCOL:
		return EXIT_PROTOCOL;
	case SBX_ERR_BAD_REQUEST:
		return EXIT_DATAERR;
	case SBX_ERR_INTERNAL:
		return EXIT_SOFTWARE;
	default:
		return EXIT_NOPERM;
	}
}

static int
call_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "connect", required_argument, NULL, OPT_CONNECT },
		{ "secret-file", required_argument, NULL, OPT_SECRET },
		{ "tenant", required_argument, NULL, OPT_TENANT },
		{ "request-id", required_argument, NULL, OPT_REQID },
		{ "lang", required_argument, NULL, OPT_LANG },
		{ "input", required_argument, NULL, OPT_INPUT },
		{ "file", required_argument, NULL, OPT_FILE },
		{ "arg", required_argument, NULL, OPT_ARG },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "connect-timeout", required_argument, NULL,
		    OPT_CONNECT_TIMEOUT },
		{ "log-format", required_argument, NULL, OPT_LOG },
		LIMIT_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const int exit_for[] = {
		[SBX_CALL_BAD_REQUEST] = EXIT_USAGE,
		[SBX_CALL_BAD_SECRET] = EXIT_CONFIG,
		[SBX_CALL_UNREACHABLE] = EXIT_UNAVAILABLE,
		[SBX_CALL_AUTH] = SBX_EXIT_AUTH,
		[SBX_CALL_PROTOCOL] = EXIT_PROTOCOL,
		[SBX_CALL_INTERNAL] = EXIT_SOFTWARE,
		[SBX_CALL_CANCELLED] = EXIT_SOFTWARE };
	static struct sources src;
	static struct sbx_answer ans;
	static struct tool_args targs;
	struct named_files named = { .n = 0 };
	const char *input = NULL;
	struct sbx_call call = {
		.addr = getenv("AIRLOCK_SANDBOX"),
		.tenant = getenv("AIRLOCK_TENANT"),
		.connect_ms = 10000,
	};
	struct capture cap;
	enum sbx_call_status st;
	char err[512], id[17];
	int json = json_asked(argc, argv), o, idx;

	for (idx = -1; (o = getopt_long(argc, argv, "+h", opts, &idx)) != -1;
	    idx = -1) {
		if (limit_opt(opts, idx, optarg, &call.lim))
			continue;
		switch (o) {
		case OPT_CONNECT: call.addr = optarg; break;
		case OPT_SECRET: call.secret_file = optarg; break;
		case OPT_TENANT: call.tenant = optarg; break;
		case OPT_REQID: call.request_id = optarg; break;
		case OPT_LANG:
			if (!(call.lang = sbx_lang_parse(optarg)))
				die(EXIT_USAGE, "--lang: python, java or exec");
			break;
		case OPT_INPUT: input = optarg; break;
		case OPT_FILE: named_add(&named, optarg); break;
		case OPT_ARG: arg_add(&targs, optarg); break;
		case OPT_JSON: json = 1; break;
		case OPT_CONNECT_TIMEOUT:
			call.connect_ms = duration_arg("connect-timeout",
			    optarg);
			break;
		case OPT_LOG:
			if (log_set_format(optarg))
				die(EXIT_USAGE, "--log-format: human or json");
			break;
		case 'h': fputs(usage_call, stdout); return EXIT_OK;
		default: return bad_option(json, usage_call, argc, argv);
		}
	}
	if (!call.addr || !*call.addr)
		die(EXIT_USAGE, "no service address: --connect or "
		    "AIRLOCK_SANDBOX");
	if (!call.tenant || !proto_id_valid((const uint8_t *)call.tenant,
	    strlen(call.tenant)))
		die(EXIT_USAGE, "--tenant: 1-64 bytes of [A-Za-z0-9._-]");
	if (!call.lang)
		die(EXIT_USAGE, "no --lang given");
	if (optind >= argc && !named.n)
		die(EXIT_USAGE, "no SOURCE given (-- SOURCE... or --file "
		    "NAME=PATH)");
	exec_id(id);
	if (!call.request_id)
		call.request_id = id;
	if (!proto_id_valid((const uint8_t *)call.request_id,
	    strlen(call.request_id)))
		die(EXIT_USAGE, "--request-id: 1-64 bytes of [A-Za-z0-9._-]");
	sources_read(&src, &named, argv + optind, (size_t)(argc - optind));
	call.nfiles = src.n;
	call.files = src.f;
	call.args = targs.w;
	call.nargs = targs.n;
	if (input)
		call.input = read_all(input, SBX_INPUT_MAX, &call.input_len);
	/* the service's caps bound what comes back; ours bound it again */
	capture_init(&cap, SBX_OUTPUT_CLIENT_MAX, !json);
	call.ctx = &cap;
	call.emit = capture_emit;
	signal(SIGPIPE, SIG_IGN);
	switch ((st = sbx_call(&call, &ans, err, sizeof err))) {
	case SBX_CALL_DONE:
		return report(&ans.res, call.lang, &ans.info.lim, &cap, json);
	case SBX_CALL_REFUSED:
		log_msg(LOG_ERROR, "the sandbox refused the request: %s: %s",
		    sbx_error_name(ans.refusal.code), ans.refusal.message);
		if (json)
			json_error(sbx_error_name(ans.refusal.code),
			    ans.refusal.message, refusal_exit(ans.refusal.code));
		return refusal_exit(ans.refusal.code);
	default:
		die(exit_for[st], "%s", err);
	}
}

/* --- gateway ----------------------------------------------------------- */

/* --runtime LANG=VERSION: replaces the default's entry for LANG. */
static void
runtime_arg(struct gateway_config *c, const char *arg, int *given)
{
	const char *eq = strchr(arg, '=');
	char lang[16];
	unsigned l;
	size_t i;

	if (!eq || (size_t)(eq - arg) >= sizeof lang || !eq[1] ||
	    strlen(eq + 1) > PISTON_VERSION_MAX)
		die(EXIT_USAGE, "--runtime: LANG=VERSION (python=3.11), the "
		    "version at most %d bytes", PISTON_VERSION_MAX);
	memcpy(lang, arg, (size_t)(eq - arg));
	lang[eq - arg] = '\0';
	if ((l = sbx_lang_parse(lang)) != SBX_LANG_PYTHON &&
	    l != SBX_LANG_JAVA)
		die(EXIT_USAGE, "--runtime: python or java");
	for (const char *v = eq + 1; *v; v++)
		if (!(*v >= '0' && *v <= '9') && !(*v >= 'a' && *v <= 'z') &&
		    !(*v >= 'A' && *v <= 'Z') && !strchr(".-_+", *v))
			die(EXIT_USAGE, "--runtime: a version of [A-Za-z0-9.+_-]");
	if (!*given) {
		c->nruntimes = 0;
		*given = 1;
	}
	for (i = 0; i < c->nruntimes && c->runtimes[i].lang != l; i++)
		;
	if (i == c->nruntimes)
		c->nruntimes++;
	c->runtimes[i].lang = l;
	snprintf(c->runtimes[i].version, sizeof c->runtimes[i].version, "%s",
	    eq + 1);
}

static uint64_t
size_arg(const char *name, const char *v, uint64_t max)
{
	uint64_t n;

	if (cli_size_bytes(v, &n) || n == 0 || n > max)
		die(EXIT_USAGE, "--%s: '%s' is not a size from 1 to %llu bytes",
		    name, v, (unsigned long long)max);
	return n;
}

static int
gateway_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "allow-remote", no_argument, NULL, OPT_REMOTE },
		{ "connect", required_argument, NULL, OPT_CONNECT },
		{ "secret-file", required_argument, NULL, OPT_SECRET },
		{ "default-tenant", required_argument, NULL,
		    OPT_DEFAULT_TENANT },
		{ "runtime", required_argument, NULL, OPT_RUNTIME },
		{ "max-conns", required_argument, NULL, OPT_MAX_CONNS },
		{ "max-body", required_argument, NULL, OPT_MAX_BODY },
		{ "max-output", required_argument, NULL, OPT_MAX_OUTPUT },
		{ "read-timeout", required_argument, NULL, OPT_READ_TIMEOUT },
		{ "write-timeout", required_argument, NULL, OPT_WRITE_TIMEOUT },
		{ "connect-timeout", required_argument, NULL,
		    OPT_CONNECT_TIMEOUT },
		{ "drain-timeout", required_argument, NULL, OPT_DRAIN },
		{ "log-format", required_argument, NULL, OPT_LOG },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const int sigs[] = { SIGCHLD, SIGTERM, SIGINT };
	static struct gateway_config c = {
		.runtimes = { { SBX_LANG_PYTHON, "3" }, { SBX_LANG_JAVA, "17" } },
		.nruntimes = 2, .max_body = 16u << 20, .max_output = 1u << 20,
		.read_timeout_ms = 10000, .write_timeout_ms = 10000,
		.connect_ms = 10000, .drain_ms = 30000, .max_conns = 64,
	};
	const char *secret_file = NULL;
	int fds[GATEWAY_LISTEN_MAX], o, rc, runtime_given = 0;
	char err[640];

	c.connect = getenv("AIRLOCK_SANDBOX");
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case OPT_LISTEN:
			if (c.nlisten == GATEWAY_LISTEN_MAX)
				die(EXIT_USAGE, "--listen: at most %d",
				    GATEWAY_LISTEN_MAX);
			c.listen[c.nlisten++] = optarg;
			break;
		case OPT_REMOTE: c.allow_remote = 1; break;
		case OPT_CONNECT: c.connect = optarg; break;
		case OPT_SECRET: secret_file = optarg; break;
		case OPT_DEFAULT_TENANT:
			if (!proto_id_valid((const uint8_t *)optarg,
			    strlen(optarg)))
				die(EXIT_USAGE, "--default-tenant: 1-64 bytes of "
				    "[A-Za-z0-9._-]");
			c.default_tenant = optarg;
			break;
		case OPT_RUNTIME: runtime_arg(&c, optarg, &runtime_given); break;
		case OPT_MAX_CONNS:
			c.max_conns = (unsigned)count_arg("max-conns", optarg, 1,
			    4096);
			break;
		case OPT_MAX_BODY:
			c.max_body = size_arg("max-body", optarg, 64u << 20);
			break;
		case OPT_MAX_OUTPUT:
			c.max_output = size_arg("max-output", optarg, 64u << 20);
			break;
		case OPT_READ_TIMEOUT:
			c.read_timeout_ms = duration_arg("read-timeout", optarg);
			break;
		case OPT_WRITE_TIMEOUT:
			c.write_timeout_ms = duration_arg("write-timeout",
			    optarg);
			break;
		case OPT_CONNECT_TIMEOUT:
			c.connect_ms = duration_arg("connect-timeout", optarg);
			break;
		case OPT_DRAIN:
			c.drain_ms = duration_arg("drain-timeout", optarg);
			break;
		case OPT_LOG:
			if (log_set_format(optarg))
				die(EXIT_USAGE, "--log-format: human or json");
			break;
		case 'h': fputs(usage_gateway, stdout); return EXIT_OK;
		default: fputs(usage_gateway, stderr); return EXIT_USAGE;
		}
	}
	if (optind < argc)
		die(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (!c.nlisten)
		die(EXIT_USAGE, "no --listen given (127.0.0.1:PORT or "
		    "unix:PATH)");
	if (!c.connect || !*c.connect)
		die(EXIT_USAGE, "no sandbox service: --connect or "
		    "AIRLOCK_SANDBOX");
	if (c.read_timeout_ms == 0 || c.write_timeout_ms == 0)
		die(EXIT_USAGE, "--read-timeout and --write-timeout: above 0");
	if (secret_load_psk(secret_file, c.psk, err, sizeof err) != 0)
		die(EXIT_CONFIG, "%s", err);
	if ((rc = gateway_listen(&c, fds, err, sizeof err)) != 0)
		die(rc == GATEWAY_LISTEN_USAGE ? EXIT_USAGE :
		    rc == GATEWAY_LISTEN_REFUSED ? EXIT_CONFIG : EXIT_OSERR,
		    "%s", err);
	for (size_t i = 0; i < c.nlisten; i++)
		log_event(LOG_INFO, "gateway listening", (struct log_field[]){
		    LF_STR("address", c.listen[i]),
		    LF_STR("sandbox", c.connect),
		    LF_NUM("max_conns", c.max_conns) }, 3);
	if (gateway_serve(&c, fds, signals_fd(sigs, sizeof sigs /
	    sizeof sigs[0]), err, sizeof err) != 0)
		die(EXIT_OSERR, "%s", err);
	log_msg(LOG_INFO, "gateway stopped");
	return EXIT_OK;
}
