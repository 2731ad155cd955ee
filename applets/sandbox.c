/* sandbox.c - run tenant code tools (Python, Java, a configured
 * interpreter) once per request in a fresh jail with no network:
 *   run       one execution from the command line
 *   serve     the service: Noise-authenticated requests, per-tenant budgets
 *   call      its client
 *   verify    check class files against the Java denylist
 *   denylist  print the built-in Java denylist
 * The execution itself is common/sbx_exec (jail, event loop, limits), the
 * Java stage common/sbx_java, the wire format common/sbx_proto, the
 * budgets common/sbx_budget; this file is options, plumbing and output. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/wire/channel.h"
#include "common/base/cli.h"
#include "common/base/clock.h"
#include "common/service/ctlmsg.h"
#include "common/base/fsutil.h"
#include "common/sandbox/javacheck.h"
#include "common/service/metrics.h"
#include "common/service/metrics_http.h"
#include "common/jail/jail.h"
#include "common/base/json.h"
#include "common/base/log.h"
#include "common/wire/netaddr.h"
#include "common/sandbox/sbx_budget.h"
#include "common/sandbox/sbx_exec.h"
#include "common/sandbox/sbx_java.h"
#include "common/sandbox/sbx_proto.h"
#include "common/jail/seccomp_policy.h"
#include "common/base/secmem.h"
#include "common/wire/secret.h"
#include "common/service/service.h"
#include "common/base/signal_fd.h"
#include "common/base/random_id.h"
#include "common/jail/spawn.h"
#include "common/service/supervisor.h"
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
"jail_failed or a system error; 78 configuration.\n"

static const char usage_main[] =
"usage: airlock sandbox run|serve|call|verify|denylist|check [OPTIONS] ...\n"
"\n"
"Run tenant code tools once per request in a fresh jail with no network.\n"
"\n"
"  run    [OPTIONS] -- SOURCE...|COMMAND...  one execution, here\n"
"  serve  --listen ADDR --secret-file F [OPTIONS]  the service\n"
"  call   --connect ADDR --secret-file F [OPTIONS] -- SOURCE...\n"
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
"  --memory SIZE     memory of the whole jail, no swap (default 256M);\n" \
"                    Java's heap is sized from it\n" \
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
"                    hierarchies when writable)\n" \
"  --landlock auto|require|off  (default auto)\n" \
"  --disk SIZE       the tool's writable space: HOME, work dir, /tmp and\n" \
"                    /dev/shm together, on one tmpfs that counts against\n" \
"                    --memory (default: half the memory limit)\n" \
"  --python PATH     python3 (default /usr/bin/python3)\n" \
"  --java-home DIR   the JDK (default: from javac on PATH)\n" \
"  --java-denylist FILE  replaces the built-in Java denylist\n"

static const char usage_run[] =
"usage: airlock sandbox run --lang python|java|exec [OPTIONS] -- SOURCE...\n"
"       airlock sandbox run --lang exec [OPTIONS] -- COMMAND [ARGS...]\n"
"\n"
"Run one tool in a fresh jail: python3 -I on SOURCE (its first file),\n"
"javac then java for Java sources (one set of limits for both; every\n"
"class file checked against the denylist before anything runs, then the\n"
"JVM's only class path; the first file names the main class),\n"
"or COMMAND for exec. The sources are copied into the jail's working\n"
"directory (on the --disk tmpfs, the only writable space); the input is\n"
"the tool's stdin. The tool's stdout is passed through when it exited\n"
"by itself; its stderr always (capped, with a truncation marker); then\n"
"one result line on stderr, or with --json one JSON object on stdout\n"
"holding the result, the tool's stdout and the end of its stderr.\n"
"\n"
"  --lang L          python, java or exec\n"
"  --input FILE|-    the tool's stdin (default: empty)\n"
LIMIT_HELP
"  --json            the result as one JSON object on stdout\n"
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
"  --handshake-timeout DUR   the handshake, then the request upload, each\n"
"                            (default 10s)\n"
"  --max-conns-per-peer N    pending handshakes of one source: an IPv4\n"
"                            address, an IPv6 /64, a unix peer's uid\n"
"                            (default 32; 256 pending in all)\n"
"  --preauth-uid UID         the uid (and gid) of the pre-auth process\n"
"                            that runs handshakes (default: the first uid\n"
"                            of --uid-range, which executions then do not get;\n"
"                            nobody with --jail none as root)\n"
"  --exec-interpreter PATH   what language exec runs (files[0] as its\n"
"                            argument); without it exec is refused\n"
JAIL_HELP
"  --log-format human|json\n"
"  --metrics ADDR            serve GET /metrics (Prometheus), /healthz and\n"
"                            /readyz on HOST:PORT (off by default; see\n"
"                            docs/OPERATIONS.md and airlock probe)\n"
"  --check                   the preflight: every start-up check of this\n"
"                            configuration (secret, state dir, uid range,\n"
"                            cgroup limits, Landlock, listen addresses),\n"
"                            the host report, then exit 0; or the\n"
"                            service's own message and status. Sweeps and\n"
"                            removes nothing (also: sandbox check with\n"
"                            --listen or --secret-file)\n"
"\n"
"Exit status: 0 after a drain (SIGTERM), 64 usage, 71 system error,\n"
"78 configuration.\n";

static const char usage_call[] =
"usage: airlock sandbox call --connect ADDR --tenant ID --lang L\n"
"                            [OPTIONS] -- SOURCE...\n"
"\n"
"Send one request to airlock sandbox serve and print what run would.\n"
"\n"
"  --connect ADDR      the service (AIRLOCK_SANDBOX)\n"
"  --secret-file FILE  shared secret (AIRLOCK_SECRET_FILE, AIRLOCK_SECRET)\n"
"  --tenant ID         (AIRLOCK_TENANT)\n"
"  --request-id ID     (default: random)\n"
"  --lang L            python, java or exec\n"
"  --input FILE|-      the tool's stdin\n"
"  --timeout DUR --cpu-time DUR --memory SIZE --pids N --output SIZE\n"
"                      requested limits (default: the service's)\n"
"  --json              the result as one JSON object on stdout\n"
"  --connect-timeout DUR  connect + handshake (default 10s)\n"
"\n"
EXIT_CODES
"69 service unreachable, 76 protocol error, 77 refused (the budget or\n"
"cause is named), 80 handshake failed.\n";

/* --- options shared by run and serve ----------------------------------- */

struct jail_opts {
	enum jail_mode mode;
	uint32_t uid_first, uid_last;
	const char *state_dir;
	const char *cgroup;
	enum jail_landlock landlock;
	uint64_t disk;		/* 0: half the execution's memory limit */
	const char *python;
	const char *java_home;
	const char *denylist;
};

static void
jail_opts_default(struct jail_opts *o)
{
	memset(o, 0, sizeof *o);
	o->mode = JAIL_NS;
	o->uid_first = 300000;
	o->uid_last = 300999;
	o->state_dir = "/tmp/airlock-sandbox";
	o->python = "/usr/bin/python3";
}

static void
limits_default(struct sbx_limits *l)
{
	l->timeout_ms = 5000;
	l->cpu_ms = 2000;
	l->memory = 256u << 20;
	l->pids = 64;
	l->output = 1u << 20;
}

enum {
	OPT_LANG = 256, OPT_INPUT, OPT_TIMEOUT, OPT_CPU, OPT_MEMORY,
	OPT_PIDS, OPT_OUTPUT, OPT_JSON, OPT_JAIL, OPT_UIDS, OPT_STATE,
	OPT_CGROUP, OPT_LANDLOCK, OPT_DISK, OPT_PYTHON, OPT_JAVA_HOME,
	OPT_DENYLIST, OPT_LOG, OPT_LISTEN, OPT_SECRET,
	OPT_MAX_TIMEOUT, OPT_MAX_CPU, OPT_MAX_MEMORY, OPT_MAX_PIDS,
	OPT_MAX_OUTPUT, OPT_T_CONC, OPT_T_QUEUE, OPT_T_CPU, OPT_WINDOW,
	OPT_MAX_CONC, OPT_MAX_QUEUE, OPT_QUEUE_TIMEOUT, OPT_HS_TIMEOUT,
	OPT_EXEC, OPT_CHECK, OPT_METRICS, OPT_CONNECT, OPT_TENANT, OPT_REQID,
	OPT_CONNECT_TIMEOUT, OPT_HEAP, OPT_JAVA_UNCONFINED, OPT_PER_PEER,
	OPT_PREAUTH_UID, OPT_MAX_DISK, OPT_OLD_CPU, OPT_OLD_MAX_CPU, OPT_OLD_T_CPU
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

/* The sandbox's CPU-time flags once shared the runner's --cpu name, which
 * means CPU bandwidth (CPUs) there: the old names are refused, never read
 * with either meaning. */
static void
renamed_cpu_opt(int opt)
{
	const char *old = opt == OPT_OLD_CPU ? "cpu" :
	    opt == OPT_OLD_MAX_CPU ? "max-cpu" : "tenant-cpu";

	die(EXIT_USAGE, "--%s is now --%s-time DUR (CPU time); --cpu means "
	    "CPU bandwidth in CPUs, as in the runner", old, old);
}

static uint64_t
size_arg(const char *name, const char *v)
{
	uint64_t b;

	if (cli_size_bytes(v, &b) || b > (64ull << 30))
		die(EXIT_USAGE, "--%s: '%s' is not a size up to 64G (e.g. 64K, "
		    "256M)", name, v);
	return b;
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

/* A limit option into l; 0 if opt is not one. */
static int
limit_opt(int opt, const char *v, struct sbx_limits *l)
{
	switch (opt) {
	case OPT_TIMEOUT: l->timeout_ms = duration_arg("timeout", v); return 1;
	case OPT_CPU: l->cpu_ms = duration_arg("cpu-time", v); return 1;
	case OPT_OLD_CPU: renamed_cpu_opt(opt); return 1;
	case OPT_MEMORY: l->memory = size_arg("memory", v); return 1;
	case OPT_PIDS:
		l->pids = (uint32_t)count_arg("pids", v, 1, 65536);
		return 1;
	case OPT_OUTPUT: l->output = size_arg("output", v); return 1;
	default: return 0;
	}
}

/* A jail option into o; 0 if opt is not one. */
static int
jail_opt(int opt, const char *v, struct jail_opts *o)
{
	switch (opt) {
	case OPT_JAIL:
		if (jail_mode_parse(v, &o->mode) != 0)
			die(EXIT_USAGE, "--jail: ns, uid or none");
		return 1;
	case OPT_UIDS:
		if (cli_uid_range(v, &o->uid_first, &o->uid_last) != 0)
			die(EXIT_USAGE, "--uid-range: '%s' is not FIRST-LAST "
			    "with 0 < FIRST <= LAST <= %u (e.g. 200000-265535)",
			    v, CLI_UID_MAX);
		return 1;
	case OPT_STATE: o->state_dir = v; return 1;
	case OPT_CGROUP: o->cgroup = v; return 1;
	case OPT_LANDLOCK:
		if (jail_landlock_parse(v, &o->landlock) != 0)
			die(EXIT_USAGE, "--landlock: auto, require or off");
		return 1;
	case OPT_DISK:
		if ((o->disk = size_arg("disk", v)) < (1u << 20))
			die(EXIT_USAGE, "--disk: at least 1M");
		return 1;
	case OPT_PYTHON: o->python = v; return 1;
	case OPT_JAVA_HOME: o->java_home = v; return 1;
	case OPT_DENYLIST: o->denylist = v; return 1;
	case OPT_LOG:
		if (log_set_format(v))
			die(EXIT_USAGE, "--log-format: human or json");
		return 1;
	default:
		return 0;
	}
}

/* JAVA_HOME from javac on PATH: realpath(javac) minus "/bin/javac". */
static const char *
find_java_home(void)
{
	static char home[PATH_MAX];
	const char *path = getenv("PATH");
	char cand[PATH_MAX];

	for (const char *p = path ? path : "/usr/bin"; *p; ) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len && len + 7 < sizeof cand) {
			memcpy(cand, p, len);
			memcpy(cand + len, "/javac", 7);
			if (access(cand, X_OK) == 0 && realpath(cand, home)) {
				size_t n = strlen(home);

				if (n > 10 && strcmp(home + n - 10,
				    "/bin/javac") == 0) {
					home[n - 10] = '\0';
					return home;
				}
			}
		}
		p = end ? end + 1 : p + len;
	}
	return NULL;
}

/* Everything one service (or one run) needs for its executions. */
struct sandbox {
	struct jail jail;
	struct sock_fprog seccomp;
	struct sbx_exec_env env;
	char self[PATH_MAX];
	char *deny_text;
	size_t deny_len;
	const char *ro[16];
	size_t nro;
	const char *launchers[2];	/* python, the exec command */
	char ro_buf[8][PATH_MAX];
};

/* The JDK's configuration lives outside it on Debian (conf/ and lib/
 * link into /etc/java-17-openjdk): each link's target directory, two
 * levels deep when outside /usr, joins the jail's read-only list. */
static void
java_ro_paths(struct sandbox *s, const char *java_home)
{
	static const char *const sub[] = { "conf", "conf/security",
		"conf/management", "lib" };
	size_t nbuf = 0;

	for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		char dir[PATH_MAX];
		DIR *d;
		struct dirent *e;

		snprintf(dir, sizeof dir, "%s/%s", java_home, sub[i]);
		if (!(d = opendir(dir)))
			continue;
		while ((e = readdir(d))) {
			char path[PATH_MAX + 256], real[PATH_MAX], *cut;
			struct stat st;
			int dup = 0;

			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode) ||
			    !realpath(path, real) || strncmp(real, "/usr/", 5)
			    == 0 || real[0] != '/')
				continue;
			/* /etc/java-17-openjdk/x -> /etc/java-17-openjdk */
			cut = strchr(real + 1, '/');
			cut = cut ? strchr(cut + 1, '/') : NULL;
			if (!cut)
				continue;
			*cut = '\0';
			for (size_t k = 0; k < nbuf; k++)
				dup |= strcmp(s->ro_buf[k], real) == 0;
			if (dup || nbuf == sizeof s->ro_buf / sizeof s->ro_buf[0])
				continue;
			memcpy(s->ro_buf[nbuf], real, strlen(real) + 1);
			s->ro[s->nro++] = s->ro_buf[nbuf++];
		}
		closedir(d);
	}
}

static void
read_denylist(struct sandbox *s, const char *path)
{
	struct javacheck_policy pol;
	char err[512];
	int fd;
	ssize_t n;

	if (!path)
		return;
	/* parse it here first: a bad list is a start-up error, not a
	 * failure of every Java request */
	if (javacheck_policy_load(&pol, path, err, sizeof err) != 0)
		die(EXIT_CONFIG, "--java-denylist: %s", err);
	javacheck_policy_free(&pol);
	s->deny_text = xmalloc(JAVACHECK_TEXT_MAX + 1);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 ||
	    (n = read(fd, s->deny_text, JAVACHECK_TEXT_MAX + 1)) < 0)
		die_errno(EXIT_CONFIG, "--java-denylist %s", path);
	close(fd);
	s->deny_len = (size_t)n;
}

/* The writable space of an execution with this memory limit: --disk,
 * or half the limit (tmpfs pages count against it: the tool keeps the
 * other half, and a full disk ends as disk, not as an OOM kill); at most
 * max_disk, at least 1 MiB. */
static uint64_t
disk_for(const struct jail_opts *o, uint64_t memory, uint64_t max_disk)
{
	uint64_t d = o->disk ? o->disk : memory / 2;

	d = d > max_disk ? max_disk : d;
	return d < (1u << 20) ? (1u << 20) : d;
}

/* The jail of every execution: fixed at start-up, limits at their
 * maxima (an execution's own are applied to its copy). one_shot: run's
 * single execution is its own trial (see struct jail_config). The view
 * holds python, exec_cmd (run's command or serve's --exec-interpreter;
 * NULL: none) and the JDK. */
static void
sandbox_setup(struct sandbox *s, const struct jail_opts *o,
    const struct sbx_limits *max, uint64_t max_disk, int sigfd,
    int one_shot, int check_only, const char *exec_cmd)
{
	struct jail_config cfg;
	char err[768];
	ssize_t n;

	memset(s, 0, sizeof *s);
	n = readlink("/proc/self/exe", s->self, sizeof s->self - 1);
	if (n <= 0)
		die_errno(EXIT_OSERR, "cannot find this binary (/proc/self/exe)");
	s->self[n] = '\0';
	seccomp_policy_program(&s->seccomp);
	read_denylist(s, o->denylist);
	if (o->java_home) {
		s->ro[s->nro++] = o->java_home;
		java_ro_paths(s, o->java_home);
	}
	s->launchers[0] = o->python;
	s->launchers[1] = exec_cmd;
	memset(&cfg, 0, sizeof cfg);
	cfg.mode = o->mode;
	cfg.unit = JAIL_UNIT_LEASE;
	cfg.uid_first = o->uid_first;
	cfg.uid_last = o->uid_last;
	cfg.state_dir = o->state_dir;
	cfg.cgroup_dir = o->cgroup;
	cfg.limits = (struct jail_limits){
		.memory = max->memory, .pids = max->pids,
		.nproc = max->pids, .nofile = 1024,
		.cpu_seconds = (max->cpu_ms + 999) / 1000 + 1,
		.disk = disk_for(o, max->memory, max_disk),
	};
	cfg.new_net = 1;
	cfg.landlock = o->landlock;
	cfg.ro_paths = s->ro;
	cfg.nro = s->nro;
	cfg.path = "/usr/local/bin:/usr/bin:/bin";
	cfg.launchers = s->launchers;
	cfg.nlaunchers = exec_cmd ? 2 : 1;
	/* the binary itself runs the Java stage inside the jail */
	cfg.self_exe = s->self;
	cfg.seccomp = &s->seccomp;
	cfg.one_shot = one_shot;
	cfg.check_only = check_only;
	if (fs_mkdir_private(o->state_dir, 0700) != 0)
		die_errno(EXIT_CONFIG, "state directory %s", o->state_dir);
	if (jail_init(&s->jail, &cfg, err, sizeof err) != 0)
		die(EXIT_CONFIG, "%s", err);
	if (o->mode == JAIL_NONE)
		log_msg(LOG_WARN, "jail mode none: the tool runs as this "
		    "process's user, with its network and files "
		    "(development only)");
	else if (!s->jail.proc_private)
		log_msg(LOG_WARN, "uid mode: tools can read other executions' "
		    "/proc/PID/cmdline and status (%s); --jail ns hides them",
		    s->jail.host.proc_why);
	s->env = (struct sbx_exec_env){
		.jail = &s->jail, .python = o->python,
		.java_home = o->java_home, .self_exe = jail_self_exe(&s->jail),
		.deny_text = s->deny_text, .deny_len = s->deny_len,
		.sigfd = sigfd,
		.use_cgroup_limits = 1,
	};
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
		for (size_t off = 0; off < n; ) {
			ssize_t w = write(STDERR_FILENO, p + off, n - off);

			if (w <= 0 && errno != EINTR)
				break;
			if (w > 0)
				off += (size_t)w;
		}
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
	if (r->detail[0] && r->reason != SBX_EXITED)
		fprintf(stderr, "%s: %s\n", sbx_reason_name(r->reason),
		    r->detail);
	return result_exit(r);
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
		if (n > cap)
			die(EXIT_DATAERR, "%s is larger than %zu bytes", path,
			    cap);
	}
	if (fd != STDIN_FILENO)
		close(fd);
	*len = n;
	return buf;
}

/* The sources named on the command line: name = basename. */
static size_t
read_sources(char **paths, size_t n, struct sbx_file_data *files)
{
	size_t total = 0;

	if (n > SBX_FILES_MAX)
		die(EXIT_USAGE, "at most %d files", SBX_FILES_MAX);
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(paths[i], '/');

		base = base ? base + 1 : paths[i];
		if (!sbx_name_valid((const uint8_t *)base, strlen(base)))
			die(EXIT_USAGE, "%s: file names are 1-%d bytes of "
			    "[A-Za-z0-9._-], not starting with '.'", paths[i],
			    SBX_NAME_MAX);
		for (size_t j = 0; j < i; j++)
			if (strcmp(files[j].name, base) == 0)
				die(EXIT_USAGE, "two files named %s", base);
		files[i].name = base;
		files[i].data = read_all(paths[i], SBX_FILE_MAX, &files[i].len);
		total += files[i].len;
		if (total > SBX_FILES_TOTAL_MAX)
			die(EXIT_USAGE, "the files are larger than %u bytes in "
			    "all", SBX_FILES_TOTAL_MAX);
	}
	return n;
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
		LIMIT_OPTIONS, JAIL_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	static struct sandbox sb;
	static struct sbx_file_data files[SBX_FILES_MAX];
	struct jail_opts jo;
	struct sbx_limits lim;
	struct sbx_job job;
	struct sbx_result res;
	struct capture cap;
	struct sbx_output out;
	const char *input = NULL;
	char id[17], why[768];
	unsigned lang = 0;
	int json = 0, o, sigfd, unconfined = 0, rc;

	jail_opts_default(&jo);
	limits_default(&lim);
	while ((o = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (limit_opt(o, optarg, &lim) || jail_opt(o, optarg, &jo))
			continue;
		switch (o) {
		case OPT_LANG:
			if (!(lang = sbx_lang_parse(optarg)))
				die(EXIT_USAGE, "--lang: python, java or exec");
			break;
		case OPT_INPUT: input = optarg; break;
		case OPT_JSON: json = 1; break;
		case OPT_JAVA_UNCONFINED: unconfined = 1; break;
		case 'h': fputs(usage_run, stdout); return EXIT_OK;
		default: fputs(usage_run, stderr); return EXIT_USAGE;
		}
	}
	if (!lang)
		die(EXIT_USAGE, "no --lang given (python, java or exec)");
	if (optind >= argc)
		die(EXIT_USAGE, "nothing to run: give -- SOURCE... (or -- "
		    "COMMAND for exec)");
	if (lang == SBX_LANG_JAVA && !jo.java_home &&
	    !(jo.java_home = find_java_home()))
		die(EXIT_CONFIG, "no JDK found (javac on PATH); give "
		    "--java-home");
	memset(&job, 0, sizeof job);
	exec_id(id);
	job.id = id;
	job.tenant = "cli";
	job.lang = lang;
	job.lim = lim;
	job.disk = disk_for(&jo, lim.memory, UINT64_MAX);
	if (lang == SBX_LANG_EXEC) {
		job.exec_argv = argv + optind;
	} else {
		job.nfiles = read_sources(argv + optind,
		    (size_t)(argc - optind), files);
		job.files = files;
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
	sandbox_setup(&sb, &jo, &lim, UINT64_MAX, sigfd, 1, 0,
	    lang == SBX_LANG_EXEC ? argv[optind] : NULL);
	sb.env.java_unconfined = unconfined;
	if (unconfined)
		log_msg(LOG_WARN, "--java-unconfined: the JVM loads "
		    "classes from a directory the tool can write (classes "
		    "nobody checked) and may write /proc (a test hook: never "
		    "use it for real tools)");
	capture_init(&cap, lim.output, !json);
	out = (struct sbx_output){ &cap, capture_emit, capture_room, -1, NULL,
		NULL };
	if (sbx_exec(&sb.env, &job, &out, &res) != 0) {
		log_msg(LOG_WARN, "stopped by a signal");
		jail_fini(&sb.jail);
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
		{ NULL, 0, NULL, 0 }
	};
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
		default: return EXIT_USAGE;
		}
	}
	if (!jo.java_home || !jo.heap || optind >= argc)
		die(EXIT_USAGE, "internal: _java-stage --java-home DIR --heap N "
		    "-- FILES");
	jo.files = argv + optind;
	jo.nfiles = (size_t)(argc - optind);
	return sbx_java_stage(&jo);
}

static int serve_main(int argc, char **argv);
static int call_main(int argc, char **argv);
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
	struct jail_opts jo;
	struct jail_config cfg;
	struct jail_host h;
	struct sock_fprog prog;
	int json = 0, o;

	/* with the service's own flags: the preflight of serve --check */
	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "--listen", 8) == 0 ||
		    strncmp(argv[i], "--secret-file", 13) == 0) {
			preflight_asked = 1;
			return serve_main(argc, argv);
		}
	jail_opts_default(&jo);
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (o == OPT_JSON)
			json = 1;
		else if (o == 'h') {
			fputs("usage: airlock sandbox check [--json] [--jail MODE] "
			    "[--landlock auto|require|off] [--cgroup DIR] ...\n"
			    "Exit 0 when the chosen mode (default ns) can run "
			    "here, 78 when not.\n"
			    "With --listen or --secret-file it takes every flag "
			    "of sandbox serve and runs its preflight\n"
			    "(sandbox serve --check).\n", stdout);
			return EXIT_OK;
		} else if (jail_opt(o, optarg, &jo) == 0)
			die(EXIT_USAGE, "usage: airlock sandbox check [--json] "
			    "[JAIL OPTIONS]");
	}
	memset(&cfg, 0, sizeof cfg);
	cfg.mode = jo.mode;
	cfg.unit = JAIL_UNIT_LEASE;
	cfg.uid_first = jo.uid_first;
	cfg.uid_last = jo.uid_last;
	cfg.state_dir = jo.state_dir;
	cfg.cgroup_dir = jo.cgroup;
	cfg.new_net = 1;
	cfg.limits.disk = disk_for(&jo, 256u << 20, UINT64_MAX);
	cfg.landlock = jo.landlock;
	seccomp_policy_program(&prog);
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


/* --- serve ------------------------------------------------------------- */

struct serve_config {
	const char *listen[SUPERVISOR_LISTEN_MAX];
	size_t nlisten;
	const char *secret_files[SECRET_RING_MAX + 1];
	size_t nsecret;
	struct sbx_limits max, def;
	uint64_t max_disk;		/* caps --disk and its default */
	struct sbx_budget_config budget;
	uint64_t queue_timeout_ms, handshake_ms, max_per_peer, preauth_uid;
	const char *exec_interpreter;
	struct jail_opts jo;
	int check;			/* --check: the preflight only */
	const char *metrics;		/* --metrics ADDR, or NULL */
};

/* One connection's process, as the supervisor sees it. */
struct handler {
	struct supervisor_handler sv;
	int admitted;		/* asked and answered RUN or QUEUED */
	int done;		/* sent its CPU use */
};

struct server {
	struct serve_config cfg;
	struct sandbox sb;
	struct sbx_budgets budgets;
	struct secret_ring ring;	/* the secrets accepted */
	struct supervisor sv;
	int draining;
};

/* Supervisor <-> handler: ADMIT (tenant, CPU asked), VERDICT (0: run now,
 * else the refusal code), DONE (CPU used): common/service/service.h. */

static struct handler *
handler_by_pid(struct server *s, uint64_t pid)
{
	return supervisor_find(&s->sv, (pid_t)pid);
}

/* Start what the budgets let start now. */
static void
start_queued(struct server *s)
{
	uint64_t ids[64];
	size_t n;

	while ((n = sbx_budget_next(&s->budgets, (uint64_t)mono_ms(), ids,
	    sizeof ids / sizeof ids[0])) > 0)
		for (size_t i = 0; i < n; i++) {
			struct handler *h = handler_by_pid(s, ids[i]);

			if (h)
				service_verdict(h->sv.ctl, 0);
		}
}

static void
expire_queued(struct server *s)
{
	uint64_t ids[64];
	size_t n = sbx_budget_expire(&s->budgets, (uint64_t)mono_ms(),
	    s->cfg.queue_timeout_ms, ids, sizeof ids / sizeof ids[0]);

	for (size_t i = 0; i < n; i++) {
		struct handler *h = handler_by_pid(s, ids[i]);

		if (h)
			service_verdict(h->sv.ctl, SBX_ERR_QUEUE_TIMEOUT);
	}
}

static void
on_ctl(void *ctx, void *handler)
{
	struct server *s = ctx;
	struct handler *h = handler;
	struct ctlmsg m;
	int fd, rc;
	enum ctlmsg_status st = ctlmsg_recv(h->sv.ctl, &m, &fd, MSG_DONTWAIT);

	if (st != CTLMSG_OK)
		return;		/* gone (SIGCHLD cleans up), or nonsense */
	if (m.type == CTLMSG_ADMIT && !h->admitted) {
		if (s->draining) {
			service_verdict(h->sv.ctl, SBX_ERR_SHUTDOWN);
			return;
		}
		rc = sbx_budget_admit(&s->budgets, (uint64_t)h->sv.pid,
		    m.u.admit.tenant, m.u.admit.cpu_ms, (uint64_t)mono_ms());
		if (rc == SBX_ADMIT_RUN || rc == SBX_ADMIT_QUEUED)
			h->admitted = 1;
		if (rc == SBX_ADMIT_RUN)
			service_verdict(h->sv.ctl, 0);
		else if (rc != SBX_ADMIT_QUEUED)
			service_verdict(h->sv.ctl, (unsigned)rc);
	} else if (m.type == CTLMSG_DONE && h->admitted && !h->done) {
		h->done = 1;
		sbx_budget_finish(&s->budgets, (uint64_t)h->sv.pid,
		    m.u.done_cpu_ms, (uint64_t)mono_ms());
		start_queued(s);
	}
}

/* A handler is gone: what it held goes back (an execution that never
 * said what it used is charged its whole CPU limit: fail closed). */
static void
reap(struct server *s)
{
	struct handler *h;

	while ((h = supervisor_reaped(&s->sv)) != NULL) {
		uint64_t pid = (uint64_t)h->sv.pid;
		size_t i;

		if (h->admitted && !h->done &&
		    sbx_budget_cancel(&s->budgets, pid) != 0) {
			for (i = 0; i < s->budgets.nentries; i++)
				if (s->budgets.entries[i].state == SBX_RUNNING &&
				    s->budgets.entries[i].id == pid)
					break;
			sbx_budget_finish(&s->budgets, pid,
			    i < s->budgets.nentries ?
			    s->budgets.entries[i].cpu_ms : 0,
			    (uint64_t)mono_ms());
		}
		supervisor_remove(&s->sv, h);
		start_queued(s);
	}
}

/* --- the handler: one connection, one execution ------------------------ */

struct conn {
	struct server *s;
	struct channel ch;
	int ctl;
	const char *peer;
	char key_id[SECRET_KEY_ID_LEN + 1];	/* the secret it used */
	char exec_id[17];
	struct sbx_request req;
	struct sbx_file_data files[SBX_FILES_MAX];
	uint8_t *body;
	const char *why;	/* the receiver went away: why */
};

/* Send ERROR and end the connection (the handler exits next); the close
 * lingers (service_refuse): a refusal can come while the client is still
 * uploading. Only a client that completed the handshake gets here. */
static void
conn_error(struct conn *c, unsigned code, const char *msg)
{
	log_event(LOG_WARN, "request refused", (struct log_field[]){
	    LF_STR("exec", c->exec_id), LF_STR("peer", c->peer),
	    LF_STR("tenant", c->req.tenant), LF_STR("request",
	    c->req.request_id), LF_STR("code", sbx_error_name(code)),
	    LF_STR("reason", msg) }, 6);
	service_refuse(&c->ch, code, msg);
}

/* Read the request header and its body, within the upload deadline. */
static int
conn_request(struct conn *c, int64_t deadline)
{
	const uint8_t *p;
	const char *why = "";
	uint8_t type;
	size_t len, have = 0;
	uint64_t body_len;
	enum sbx_status st;
	enum channel_next nx;

	nx = channel_recv_wait(&c->ch, &type, &p, &len,
	    (int)(deadline - mono_ms()), &why);
	if (nx == CHANNEL_NEED) {
		conn_error(c, SBX_ERR_UPLOAD_TIMEOUT, "no request in time");
		return -1;
	}
	if (nx != CHANNEL_FRAME || type != FRAME_SPAWN) {
		if (nx == CHANNEL_FRAME)
			conn_error(c, SBX_ERR_PROTOCOL, "expected the request");
		return -1;
	}
	if ((st = sbx_request_parse(&c->req, p, len)) != SBX_OK) {
		conn_error(c, st == SBX_BAD_MAGIC ? SBX_ERR_PROTOCOL :
		    SBX_ERR_BAD_REQUEST, sbx_status_text(st));
		return -1;
	}
	body_len = sbx_request_body_len(&c->req);	/* capped by the parser */
	c->body = malloc(body_len ? (size_t)body_len : 1);
	if (!c->body) {
		conn_error(c, SBX_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (;;) {
		int left = (int)(deadline - mono_ms());

		if (left <= 0 || (nx = channel_recv_wait(&c->ch, &type, &p,
		    &len, left, &why)) == CHANNEL_NEED) {
			conn_error(c, SBX_ERR_UPLOAD_TIMEOUT, "the request's "
			    "files and input did not arrive in time");
			return -1;
		}
		if (nx != CHANNEL_FRAME)
			return -1;
		if (type == FRAME_STDIN_EOF)
			break;
		if (type != FRAME_STDIN || len > body_len - have) {
			conn_error(c, SBX_ERR_PROTOCOL, "more bytes than the "
			    "request announced, or an unexpected frame");
			return -1;
		}
		memcpy(c->body + have, p, len);
		have += len;
	}
	if (have != body_len) {
		conn_error(c, SBX_ERR_PROTOCOL, "fewer bytes than the request "
		    "announced");
		return -1;
	}
	have = 0;
	for (size_t i = 0; i < c->req.nfiles; i++) {
		c->files[i] = (struct sbx_file_data){ c->req.files[i].name,
		    c->body + have, c->req.files[i].size };
		have += c->req.files[i].size;
	}
	return 0;
}

static uint64_t
clamp(uint64_t want, uint64_t def, uint64_t max)
{
	uint64_t v = want ? want : def;

	return v > max ? max : v;
}

/* Ask the supervisor; wait for its answer while the client may leave:
 * 0 run, > 0 refused, -1 the client left. */
static int
conn_admit(struct conn *c, uint64_t cpu_ms)
{
	int rc = service_admit(c->ctl, c->req.tenant, cpu_ms, &c->ch);

	return rc == -2 ? SBX_ERR_SHUTDOWN : rc;	/* supervisor gone */
}

/* The execution's output goes out as STDOUT/STDERR frames: queued,
 * never waited for (conn_room said it fits; the loop flushes on POLLOUT
 * while the limits' clocks run). */
static int
conn_emit(void *ctx, int stream, const uint8_t *p, size_t n)
{
	struct conn *c = ctx;

	if (n > FRAME_PAYLOAD_MAX || channel_queue(&c->ch, stream == 1 ?
	    FRAME_STDOUT : FRAME_STDERR, p, n) != 0) {
		c->why = "internal: the output queue overflowed";
		return -1;
	}
	return 0;
}

/* One frame's worth while the queue has room for a record, else 0: the
 * tool then blocks on its pipe until the client reads. */
static size_t
conn_room(void *ctx)
{
	struct conn *c = ctx;

	return channel_can_queue(&c->ch) ? FRAME_PAYLOAD_MAX : 0;
}

static short
conn_events(void *ctx)
{
	struct conn *c = ctx;

	return (short)(POLLIN | (channel_pending(&c->ch) ? POLLOUT : 0));
}

static int
conn_ready(void *ctx, short revents)
{
	struct conn *c = ctx;
	const uint8_t *p;
	const char *why;
	uint8_t type;
	size_t len;

	if ((revents & POLLOUT) && channel_flush(&c->ch) != 0) {
		c->why = "connection lost";
		return -1;
	}
	if (revents & (POLLIN | POLLHUP | POLLERR)) {
		long got = channel_fill(&c->ch);

		if (got == 0 || (got < 0 && errno != EAGAIN)) {
			c->why = "the client went away";
			return -1;
		}
		while (channel_next(&c->ch, &type, &p, &len, &why) ==
		    CHANNEL_FRAME) {
			if (type != FRAME_PING || len != PROTO_PING_LEN ||
			    channel_queue(&c->ch, FRAME_PONG, p, len) != 0) {
				c->why = "protocol error from the client";
				return -1;
			}
		}
		if (c->ch.failed) {
			c->why = "protocol error from the client";
			return -1;
		}
	}
	return 0;
}

/* The execution in the service's metrics (labels from fixed tables). */
static void
count_execution(unsigned lang, const struct sbx_result *r)
{
	if (lang >= SBX_LANG_PYTHON && lang <= SBX_LANG_EXEC &&
	    r->reason < SBX_REASON_MAX_)
		metric_add(M_SBX_EXECUTIONS, (lang - SBX_LANG_PYTHON) *
		    SBX_REASON_MAX_ + r->reason, 1);
	metric_observe(MH_SBX_SECONDS, r->wall_ms);
	if (r->reason == SBX_MEMORY)
		metric_add(M_CGROUP_KILLS, ML_MEMORY, 1);
	else if (r->reason == SBX_PIDS)
		metric_add(M_CGROUP_KILLS, ML_PIDS, 1);
	else if (r->reason == SBX_JAIL_FAILED)
		metric_add(M_JAIL_FAILURES, 0, 1);
}

/* One JSON record per execution: never the source or the input. */
static void
log_execution(const struct conn *c, const struct sbx_job *job,
    const struct sbx_result *r)
{
	const struct sbx_limits *lim = &job->lim;
	/* a compiler message quotes source lines: not in the log */
	const char *detail = r->reason == SBX_COMPILE_FAILED ?
	    "(compiler message sent to the client only)" : r->detail;

	count_execution(c->req.lang, r);
	log_event(r->reason == SBX_EXITED ? LOG_INFO : LOG_WARN, "execution",
	    (struct log_field[]){
	    LF_STR("exec", c->exec_id), LF_STR("tenant", c->req.tenant),
	    LF_STR("request", c->req.request_id), LF_STR("key", c->key_id),
	    LF_STR("language", sbx_lang_name(c->req.lang)),
	    LF_NUM("timeout_ms", lim->timeout_ms),
	    LF_NUM("cpu_limit_ms", lim->cpu_ms),
	    LF_NUM("memory_limit", lim->memory),
	    LF_NUM("pids_limit", lim->pids),
	    LF_NUM("output_limit", lim->output),
	    LF_NUM("disk_limit", job->disk),
	    LF_STR("reason", sbx_reason_name(r->reason)),
	    LF_STR("status_kind", r->kind == SBX_KIND_CODE ? "exit" :
	    r->kind == SBX_KIND_SIGNAL ? "signal" : "none"),
	    LF_NUM("status", r->status),
	    LF_NUM("wall_ms", r->wall_ms), LF_NUM("cpu_ms", r->cpu_ms),
	    LF_NUM("peak_memory", r->peak_memory),
	    LF_NUM("stdout_bytes", r->stdout_bytes),
	    LF_NUM("stderr_bytes", r->stderr_bytes),
	    LF_NUM("truncated", r->flags & (SBX_F_STDOUT_TRUNCATED |
	    SBX_F_STDERR_TRUNCATED)),
	    LF_STR("detail", detail) }, 20);
}

static _Noreturn void
handler_run(struct server *s, int fd, struct noise_transport *t, int ctl,
    const char *peer, unsigned key)
{
	static struct conn c;
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct sbx_started started;
	struct sbx_result res;
	struct sbx_output out;
	struct sbx_job job;
	struct sbx_exec_env env = s->sb.env;
	uint8_t buf[SBX_DETAIL_MAX + 256];
	int64_t deadline = mono_ms() + (int64_t)s->cfg.handshake_ms;
	long n;
	int rc;

	env.sigfd = signals_fd(sigs, sizeof sigs / sizeof sigs[0]);
	{
		sigset_t none;

		sigemptyset(&none);
		sigaddset(&none, SIGTERM);
		sigaddset(&none, SIGINT);
		sigaddset(&none, SIGHUP);
		sigprocmask(SIG_SETMASK, &none, NULL);
	}
	spawn_become_subreaper();
	memset(&c, 0, sizeof c);
	c.s = s;
	c.ctl = ctl;
	c.peer = peer;
	memcpy(c.key_id, key < s->ring.n ? s->ring.id[key] : "?",
	    key < s->ring.n ? sizeof c.key_id : 2);
	exec_id(c.exec_id);
	/* the handshake ran in the pre-auth process: the inherited copy of
	 * the secret serves nothing here */
	secret_ring_wipe(&s->ring);
	channel_adopt(&c.ch, fd, t);
	netaddr_keepalive(c.ch.fd, 15, 5, 3);
	if (conn_request(&c, deadline) != 0)
		_exit(EXIT_PROTOCOL);
	if ((c.req.lang == SBX_LANG_JAVA && !env.java_home) ||
	    (c.req.lang == SBX_LANG_EXEC && !s->cfg.exec_interpreter)) {
		conn_error(&c, SBX_ERR_LANGUAGE, c.req.lang == SBX_LANG_JAVA ?
		    "this service has no JDK" : "this service has no "
		    "--exec-interpreter");
		_exit(EXIT_OK);
	}
	memset(&job, 0, sizeof job);
	job.id = c.exec_id;
	job.tenant = c.req.tenant;
	job.lang = c.req.lang;
	job.lim.timeout_ms = clamp(c.req.lim.timeout_ms, s->cfg.def.timeout_ms,
	    s->cfg.max.timeout_ms);
	job.lim.cpu_ms = clamp(c.req.lim.cpu_ms, s->cfg.def.cpu_ms,
	    s->cfg.max.cpu_ms);
	job.lim.memory = clamp(c.req.lim.memory, s->cfg.def.memory,
	    s->cfg.max.memory);
	job.lim.output = clamp(c.req.lim.output, s->cfg.def.output,
	    s->cfg.max.output);
	job.lim.pids = (uint32_t)clamp(c.req.lim.pids, s->cfg.def.pids,
	    s->cfg.max.pids);
	job.disk = disk_for(&s->cfg.jo, job.lim.memory, s->cfg.max_disk);
	job.files = c.files;
	job.nfiles = c.req.nfiles;
	job.input = c.body + (sbx_request_body_len(&c.req) - c.req.input_size);
	job.input_len = c.req.input_size;
	if (c.req.lang == SBX_LANG_EXEC) {
		static char *xargv[3];

		xargv[0] = (char *)s->cfg.exec_interpreter;
		xargv[1] = (char *)c.files[0].name;
		job.exec_argv = xargv;
	}
	rc = conn_admit(&c, job.lim.cpu_ms);
	if (rc < 0)
		_exit(EXIT_OK);		/* the client left while waiting */
	if (rc > 0) {
		char msg[160];

		snprintf(msg, sizeof msg, "refused by the %s budget of tenant "
		    "%s", sbx_error_name((unsigned)rc), c.req.tenant);
		metric_add(M_SBX_BUDGET_REFUSALS, rc == SBX_ERR_BUDGET_CONCURRENCY
		    ? MB_TENANT_CONCURRENCY : rc == SBX_ERR_BUDGET_QUEUE ?
		    MB_TENANT_QUEUE : rc == SBX_ERR_BUDGET_CPU ? MB_TENANT_CPU :
		    rc == SBX_ERR_QUEUE_TIMEOUT ? MB_QUEUE_TIMEOUT :
		    MB_TOTAL_QUEUE, rc != SBX_ERR_SHUTDOWN);
		conn_error(&c, (unsigned)rc, rc == SBX_ERR_BUDGET_CONCURRENCY ?
		    "the tenant is at its concurrent executions" :
		    rc == SBX_ERR_BUDGET_QUEUE ? "the tenant's queue is full" :
		    rc == SBX_ERR_BUDGET_CPU ? "the tenant has used its CPU "
		    "time for this window" : rc == SBX_ERR_QUEUE_TIMEOUT ?
		    "waited in the tenant's queue too long" :
		    rc == SBX_ERR_SHUTDOWN ? "the service is shutting down" :
		    msg);
		_exit(EXIT_OK);
	}
	memset(&started, 0, sizeof started);
	snprintf(started.exec_id, sizeof started.exec_id, "%s", c.exec_id);
	snprintf(started.jail, sizeof started.jail, "%s",
	    jail_mode_name(s->cfg.jo.mode));
	started.lim = job.lim;
	n = sbx_started_encode(buf, sizeof buf, &started);
	if (n < 0 || channel_queue(&c.ch, FRAME_STARTED, buf, (size_t)n) != 0)
		_exit(EXIT_SOFTWARE);
	out = (struct sbx_output){ &c, conn_emit, conn_room, c.ch.fd,
		conn_events, conn_ready };
	rc = sbx_exec(&env, &job, &out, &res);
	service_done(ctl, res.cpu_ms);
	log_execution(&c, &job, &res);
	if (rc != 0) {
		log_event(LOG_WARN, "execution abandoned", (struct log_field[]){
		    LF_STR("exec", c.exec_id), LF_STR("reason", c.why ? c.why :
		    "the service is stopping") }, 2);
		_exit(EXIT_OK);
	}
	n = sbx_result_encode(buf, sizeof buf, &res);
	if (n < 0 || channel_send_wait(&c.ch, FRAME_EXIT, buf, (size_t)n,
	    10000) != 0)
		_exit(EXIT_IOERR);
	/* the result is a final frame too: close as conn_error does */
	(void)channel_close_lingering(&c.ch, SERVICE_FINAL_FRAME_MS);
	_exit(EXIT_OK);
}

/* An authenticated connection from the pre-auth process: one handler,
 * up to the executions and queue places in all plus the refusal slots
 * (the budgets refuse past the first two); past them it is closed. */
static void
take_conn(void *ctx, int conn, struct noise_transport *t, unsigned key)
{
	struct server *s = ctx;
	char peer[96];
	int ctl;

	netaddr_peer_text(conn, peer, sizeof peer);
	if (s->sv.nh >= (size_t)s->cfg.budget.total_concurrent +
	    s->cfg.budget.total_queue + SUPERVISOR_REFUSAL_SLOTS) {
		metric_add(M_CONNECTIONS_DROPPED, 0, 1);
		log_event(LOG_WARN, "connection dropped: at the connection cap",
		    (struct log_field[]){ LF_STR("peer", peer) }, 1);
		close(conn);
		return;
	}
	if (supervisor_fork(&s->sv, conn, &ctl) == 0)
		handler_run(s, conn, t, ctl, peer, key);
}

static void
reap_all(void *ctx)
{
	reap(ctx);
	metric_set(M_LEASES_ACTIVE, 0, ((struct server *)ctx)->sv.nh);
}

/* SIGHUP: re-read the secrets for new connections (rotation); a file
 * that does not load keeps the ones in force, and the log says why. */
static void
reload_secrets(struct server *s)
{
	struct secret_ring ring;
	char err[512];

	if (secret_ring_load(&ring, s->cfg.secret_files, s->cfg.nsecret, err,
	    sizeof err) != 0) {
		log_event(LOG_ERROR, "reload refused: the secrets in force stay",
		    (struct log_field[]){ LF_STR("reason", err) }, 1);
		return;
	}
	s->ring = ring;
	secret_ring_wipe(&ring);
	supervisor_replace_preauth(&s->sv);
	log_event(LOG_INFO, "reloaded", (struct log_field[]){
	    LF_NUM("secrets", s->ring.n) }, 1);
}

static int
serve_loop(struct server *s)
{
	struct supervisor *sv = &s->sv;

	metric_set(M_READY, 0, 1);
	for (;;) {
		int rc = supervisor_poll(sv, s->budgets.queued ? 50 : -1,
		    on_ctl, take_conn, s);
		int sig = 0;

		if (rc < 0 && errno != EINTR)
			die_errno(EXIT_OSERR, "poll");
		if (rc > 0 && (sig = supervisor_signals(sv)) == SIGHUP)
			reload_secrets(s);
		else if (rc > 0 && sig)
			break;
		reap(s);
		expire_queued(s);
		metric_set(M_LEASES_ACTIVE, 0, sv->nh);
	}
	/* drain: no new connections, every handler stops its execution at
	 * once; what is left after 5 s is killed */
	s->draining = 1;
	metric_set(M_READY, 0, 0);
	metric_set(M_DRAINING, 0, 1);
	log_event(LOG_INFO, "sandbox draining", (struct log_field[]){
	    LF_NUM("executions", sv->nh) }, 1);
	service_drain(sv, 0, 5000, on_ctl, reap_all, s);
	supervisor_fini(sv);
	jail_fini(&s->sb.jail);
	log_msg(LOG_INFO, "sandbox stopped");
	return EXIT_OK;
}

static void
serve_args(struct serve_config *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "secret-file", required_argument, NULL, OPT_SECRET },
		{ "max-timeout", required_argument, NULL, OPT_MAX_TIMEOUT },
		{ "max-cpu-time", required_argument, NULL, OPT_MAX_CPU },
		{ "max-cpu", required_argument, NULL, OPT_OLD_MAX_CPU },
		{ "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
		{ "max-pids", required_argument, NULL, OPT_MAX_PIDS },
		{ "max-output", required_argument, NULL, OPT_MAX_OUTPUT },
		{ "max-disk", required_argument, NULL, OPT_MAX_DISK },
		{ "tenant-concurrency", required_argument, NULL, OPT_T_CONC },
		{ "tenant-queue", required_argument, NULL, OPT_T_QUEUE },
		{ "tenant-cpu-time", required_argument, NULL, OPT_T_CPU },
		{ "tenant-cpu", required_argument, NULL, OPT_OLD_T_CPU },
		{ "cpu-window", required_argument, NULL, OPT_WINDOW },
		{ "max-concurrency", required_argument, NULL, OPT_MAX_CONC },
		{ "max-queue", required_argument, NULL, OPT_MAX_QUEUE },
		{ "queue-timeout", required_argument, NULL, OPT_QUEUE_TIMEOUT },
		{ "handshake-timeout", required_argument, NULL, OPT_HS_TIMEOUT },
		{ "exec-interpreter", required_argument, NULL, OPT_EXEC },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "max-conns-per-peer", required_argument, NULL, OPT_PER_PEER },
		{ "preauth-uid", required_argument, NULL, OPT_PREAUTH_UID },
		LIMIT_OPTIONS, JAIL_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int o;

	memset(c, 0, sizeof *c);
	c->check = preflight_asked;
	jail_opts_default(&c->jo);
	limits_default(&c->def);
	c->max = (struct sbx_limits){ 30000, 10000, 1ull << 30, 16u << 20,
		256 };
	c->max_disk = 512u << 20;
	c->budget = (struct sbx_budget_config){ 4, 8, 0, 60000, 16, 64 };
	c->queue_timeout_ms = 30000;
	c->handshake_ms = 10000;
	c->max_per_peer = 32;
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (limit_opt(o, optarg, &c->def) || jail_opt(o, optarg, &c->jo))
			continue;
		switch (o) {
		case OPT_LISTEN:
			if (c->nlisten == SUPERVISOR_LISTEN_MAX)
				die(EXIT_USAGE, "at most %d --listen",
				    SUPERVISOR_LISTEN_MAX);
			c->listen[c->nlisten++] = optarg;
			break;
		case OPT_SECRET:
			if (c->nsecret == SECRET_RING_MAX)
				die(EXIT_USAGE, "--secret-file: at most %d "
				    "secrets at once", SECRET_RING_MAX);
			c->secret_files[c->nsecret++] = optarg;
			break;
		case OPT_CHECK: c->check = 1; break;
		case OPT_METRICS: c->metrics = optarg; break;
		case OPT_MAX_TIMEOUT:
			c->max.timeout_ms = duration_arg("max-timeout", optarg);
			break;
		case OPT_MAX_CPU:
			c->max.cpu_ms = duration_arg("max-cpu-time", optarg);
			break;
		case OPT_OLD_MAX_CPU:
		case OPT_OLD_T_CPU:
			renamed_cpu_opt(o);
			break;
		case OPT_MAX_MEMORY:
			c->max.memory = size_arg("max-memory", optarg);
			break;
		case OPT_MAX_PIDS:
			c->max.pids = (uint32_t)count_arg("max-pids", optarg, 1,
			    65536);
			break;
		case OPT_MAX_OUTPUT:
			c->max.output = size_arg("max-output", optarg);
			break;
		case OPT_MAX_DISK:
			if ((c->max_disk = size_arg("max-disk", optarg)) <
			    (1u << 20))
				die(EXIT_USAGE, "--max-disk: at least 1M");
			break;
		case OPT_T_CONC:
			c->budget.tenant_concurrent = (uint32_t)count_arg(
			    "tenant-concurrency", optarg, 1, 10000);
			break;
		case OPT_T_QUEUE:
			c->budget.tenant_queue = optarg[0] == '0' &&
			    !optarg[1] ? 0 : (uint32_t)count_arg(
			    "tenant-queue", optarg, 1, 10000);
			break;
		case OPT_T_CPU:
			c->budget.tenant_cpu_ms = duration_arg("tenant-cpu-time",
			    optarg);
			break;
		case OPT_WINDOW:
			c->budget.window_ms = duration_arg("cpu-window", optarg);
			break;
		case OPT_MAX_CONC:
			c->budget.total_concurrent = (uint32_t)count_arg(
			    "max-concurrency", optarg, 1, 10000);
			break;
		case OPT_MAX_QUEUE:
			c->budget.total_queue = optarg[0] == '0' && !optarg[1] ?
			    0 : (uint32_t)count_arg("max-queue", optarg, 1,
			    100000);
			break;
		case OPT_QUEUE_TIMEOUT:
			c->queue_timeout_ms = duration_arg("queue-timeout",
			    optarg);
			break;
		case OPT_HS_TIMEOUT:
			c->handshake_ms = duration_arg("handshake-timeout",
			    optarg);
			break;
		case OPT_EXEC: c->exec_interpreter = optarg; break;
		case OPT_PER_PEER:
			c->max_per_peer = count_arg("max-conns-per-peer",
			    optarg, 1, 100000);
			break;
		case OPT_PREAUTH_UID:
			c->preauth_uid = count_arg("preauth-uid", optarg, 1,
			    0xfffffffdUL);
			break;
		case 'h': fputs(usage_serve, stdout); exit(EXIT_OK);
		default: fputs(usage_serve, stderr); exit(EXIT_USAGE);
		}
	}
	if (optind < argc)
		die(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (c->nlisten == 0)
		die(EXIT_USAGE, "no --listen address given");
	if (c->exec_interpreter && c->exec_interpreter[0] != '/')
		die(EXIT_USAGE, "--exec-interpreter: an absolute path");
	if (c->jo.mode != JAIL_NONE && c->preauth_uid >= c->jo.uid_first &&
	    c->preauth_uid <= c->jo.uid_last)
		die(EXIT_USAGE, "--preauth-uid %llu is in --uid-range: executions "
		    "must never share the pre-auth process's uid",
		    (unsigned long long)c->preauth_uid);
	if (c->jo.mode != JAIL_NONE && !c->preauth_uid) {
		/* the range's first uid runs the pre-auth process */
		if (c->jo.uid_first == c->jo.uid_last)
			die(EXIT_USAGE, "--uid-range needs two uids at least: the "
			    "first runs the pre-auth process (or give "
			    "--preauth-uid)");
		c->preauth_uid = c->jo.uid_first++;
	}
	/* defaults above a maximum are lowered to it, said once */
	if (c->def.timeout_ms > c->max.timeout_ms)
		c->def.timeout_ms = c->max.timeout_ms;
	if (c->def.cpu_ms > c->max.cpu_ms)
		c->def.cpu_ms = c->max.cpu_ms;
	if (c->def.memory > c->max.memory)
		c->def.memory = c->max.memory;
	if (c->def.pids > c->max.pids)
		c->def.pids = c->max.pids;
	if (c->def.output > c->max.output)
		c->def.output = c->max.output;
	if (c->jo.disk > c->max_disk)
		die(EXIT_USAGE, "--disk %llu is over --max-disk %llu",
		    (unsigned long long)c->jo.disk,
		    (unsigned long long)c->max_disk);
}

/* serve --check, past every start-up step: report, undo, succeed. */
static int
serve_preflight(struct server *s)
{
	jail_host_print(stdout, &s->sb.jail.cfg, &s->sb.jail.host, 0);
	supervisor_stop_listening(&s->sv);
	jail_fini(&s->sb.jail);
	printf("preflight: this configuration starts here\n");
	return EXIT_OK;
}

static int
serve_main(int argc, char **argv)
{
	static struct server s;
	static const int sigs[] = { SIGCHLD, SIGTERM, SIGINT, SIGHUP };
	char err[512];

	serve_args(&s.cfg, argc, argv);
	if (s.cfg.metrics)
		xmetrics_listen_start(s.cfg.metrics, METRICS_SANDBOX,
		    s.cfg.budget.total_concurrent + s.cfg.budget.total_queue,
		    s.cfg.check);
	if (!s.cfg.jo.java_home)
		s.cfg.jo.java_home = find_java_home();
	supervisor_init(&s.sv, signals_fd(sigs, sizeof sigs / sizeof sigs[0]),
	    sizeof(struct handler));
	if (secret_ring_load(&s.ring, s.cfg.secret_files, s.cfg.nsecret, err,
	    sizeof err) != 0)
		die(EXIT_CONFIG, "%s", err);
	if (sbx_budget_init(&s.budgets, &s.cfg.budget) != 0)
		die(EXIT_USAGE, "the budget options do not fit together");
	sandbox_setup(&s.sb, &s.cfg.jo, &s.cfg.max, s.cfg.max_disk, -1, 0,
	    s.cfg.check, s.cfg.exec_interpreter);
	for (size_t i = 0; i < s.cfg.nlisten; i++) {
		switch (supervisor_listen(&s.sv, s.cfg.listen[i], err,
		    sizeof err)) {
		case SUPERVISOR_LISTENING: break;
		case SUPERVISOR_BAD_ADDRESS:
			die(EXIT_USAGE, "--listen: %s", err);
		case SUPERVISOR_CANNOT_LISTEN: die(EXIT_CONFIG, "%s", err);
		}
	}
	if (s.cfg.check)
		return serve_preflight(&s);
	for (size_t i = 0; i < s.cfg.nlisten; i++) {
		log_event(LOG_INFO, "sandbox listening", (struct log_field[]){
		    LF_STR("address", s.cfg.listen[i]),
		    LF_STR("jail", jail_summary(&s.sb.jail)),
		    LF_STR("java", s.cfg.jo.java_home ? s.cfg.jo.java_home :
		    "none"), LF_NUM("max_concurrency",
		    s.cfg.budget.total_concurrent),
		    LF_NUM("tenant_concurrency",
		    s.cfg.budget.tenant_concurrent),
		    LF_NUM("tenant_queue", s.cfg.budget.tenant_queue) }, 6);
	}
	/* handshakes run in the pre-auth process, as its own uid */
	if (service_start_preauth(&s.sv, &s.ring, 0,
	    (uint32_t)s.cfg.handshake_ms,
	    (uint32_t)s.cfg.max_per_peer, (uint32_t)s.cfg.preauth_uid, 0,
	    err, sizeof err) != 0)
		die(EXIT_CONFIG, "%s", err);
	return serve_loop(&s);
}

/* --- call -------------------------------------------------------------- */

/* The service's ERROR: say it, and the exit status it gives. */
static int
call_refused(const uint8_t *p, size_t len)
{
	struct error_info e;

	if (proto_error_parse(&e, p, len) != PROTO_OK)
		die(EXIT_PROTOCOL, "bad ERROR from the sandbox");
	log_msg(LOG_ERROR, "the sandbox refused the request: %s: %s",
	    sbx_error_name(e.code), e.message);
	switch (e.code) {
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

/* Sending the request failed: the service may have refused it and
 * closed (a reset then meets our writes). Its ERROR, if it came first,
 * is read and reported; only without one is the request lost. */
static _Noreturn void
call_send_failed(struct channel *ch, const char *what)
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
				exit(call_refused(p, len));
		got = channel_fill(ch);
	} while (got > 0 || (got < 0 && errno == EINTR));
	die(EXIT_UNAVAILABLE, "%s", what);
}

/* Queue one frame, flushing first when the send buffer is full. */
static void
call_send(struct channel *ch, uint8_t type, const void *p, size_t n)
{
	if (!channel_can_queue(ch) && channel_flush_wait(ch, 30000) != 0)
		call_send_failed(ch, "the service stopped taking the request");
	if (channel_queue(ch, type, p, n) != 0)
		die(EXIT_SOFTWARE, "cannot queue a frame");
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
		{ "json", no_argument, NULL, OPT_JSON },
		{ "connect-timeout", required_argument, NULL,
		    OPT_CONNECT_TIMEOUT },
		{ "log-format", required_argument, NULL, OPT_LOG },
		LIMIT_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct sbx_request req;
	static struct sbx_file_data files[SBX_FILES_MAX];
	static struct channel ch;
	static uint8_t payload[FRAME_PAYLOAD_MAX];
	const char *addr = getenv("AIRLOCK_SANDBOX"), *secret_file = NULL;
	const char *tenant = getenv("AIRLOCK_TENANT"), *reqid = NULL;
	const char *input = NULL;
	const uint8_t *in = NULL;
	size_t in_len = 0;
	uint64_t connect_ms = 10000;
	struct sbx_started started;
	struct sbx_result res;
	struct capture cap;
	struct netaddr na;
	uint8_t psk[32];
	char err[512], id[17];
	unsigned lang = 0;
	int json = 0, o, fd, have_started = 0;
	long n;

	memset(&req, 0, sizeof req);
	while ((o = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (limit_opt(o, optarg, &req.lim))
			continue;
		switch (o) {
		case OPT_CONNECT: addr = optarg; break;
		case OPT_SECRET: secret_file = optarg; break;
		case OPT_TENANT: tenant = optarg; break;
		case OPT_REQID: reqid = optarg; break;
		case OPT_LANG:
			if (!(lang = sbx_lang_parse(optarg)))
				die(EXIT_USAGE, "--lang: python, java or exec");
			break;
		case OPT_INPUT: input = optarg; break;
		case OPT_JSON: json = 1; break;
		case OPT_CONNECT_TIMEOUT:
			connect_ms = duration_arg("connect-timeout", optarg);
			break;
		case OPT_LOG:
			if (log_set_format(optarg))
				die(EXIT_USAGE, "--log-format: human or json");
			break;
		case 'h': fputs(usage_call, stdout); return EXIT_OK;
		default: fputs(usage_call, stderr); return EXIT_USAGE;
		}
	}
	if (!addr || !*addr)
		die(EXIT_USAGE, "no service address: --connect or "
		    "AIRLOCK_SANDBOX");
	if (!tenant || !proto_id_valid((const uint8_t *)tenant,
	    strlen(tenant)))
		die(EXIT_USAGE, "--tenant: 1-64 bytes of [A-Za-z0-9._-]");
	if (!lang)
		die(EXIT_USAGE, "no --lang given");
	if (optind >= argc)
		die(EXIT_USAGE, "no SOURCE given");
	exec_id(id);
	if (!reqid)
		reqid = id;
	if (!proto_id_valid((const uint8_t *)reqid, strlen(reqid)))
		die(EXIT_USAGE, "--request-id: 1-64 bytes of [A-Za-z0-9._-]");
	snprintf(req.tenant, sizeof req.tenant, "%s", tenant);
	snprintf(req.request_id, sizeof req.request_id, "%s", reqid);
	req.lang = (uint8_t)lang;
	req.nfiles = (uint16_t)read_sources(argv + optind,
	    (size_t)(argc - optind), files);
	for (size_t i = 0; i < req.nfiles; i++) {
		snprintf(req.files[i].name, sizeof req.files[i].name, "%s",
		    files[i].name);
		req.files[i].size = (uint32_t)files[i].len;
	}
	if (input)
		in = read_all(input, SBX_INPUT_MAX, &in_len);
	req.input_size = (uint32_t)in_len;
	if ((n = sbx_request_encode(payload, sizeof payload, &req)) < 0)
		die(EXIT_USAGE, "the request does not fit the protocol's caps");
	if (secret_load_psk(secret_file, psk, err, sizeof err) != 0)
		die(EXIT_CONFIG, "%s", err);
	signal(SIGPIPE, SIG_IGN);
	if (netaddr_parse(&na, addr, err, sizeof err))
		die(EXIT_USAGE, "%s", err);
	if ((fd = netaddr_connect(&na, err, sizeof err)) < 0)
		die(EXIT_UNAVAILABLE, "sandbox unreachable: %s", err);
	if (channel_handshake(&ch, fd, CHANNEL_INITIATOR, psk, (int)connect_ms,
	    err, sizeof err) != 0)
		die(SBX_EXIT_AUTH, "%s", err);
	secure_wipe(psk, sizeof psk);
	netaddr_keepalive(ch.fd, 15, 5, 3);
	call_send(&ch, FRAME_SPAWN, payload, (size_t)n);
	for (size_t i = 0; i < req.nfiles; i++)
		for (size_t off = 0; off < files[i].len; off +=
		    FRAME_PAYLOAD_MAX)
			call_send(&ch, FRAME_STDIN, files[i].data + off,
			    files[i].len - off < FRAME_PAYLOAD_MAX ?
			    files[i].len - off : FRAME_PAYLOAD_MAX);
	for (size_t off = 0; off < in_len; off += FRAME_PAYLOAD_MAX)
		call_send(&ch, FRAME_STDIN, in + off, in_len - off <
		    FRAME_PAYLOAD_MAX ? in_len - off : FRAME_PAYLOAD_MAX);
	call_send(&ch, FRAME_STDIN_EOF, NULL, 0);
	if (channel_flush_wait(&ch, 30000) != 0)
		call_send_failed(&ch, "cannot send the request");
	/* the service's caps bound what comes back; ours bound it again */
	capture_init(&cap, SBX_OUTPUT_CLIENT_MAX, !json);
	for (;;) {
		const uint8_t *p;
		const char *why = "";
		uint8_t type;
		size_t len;
		enum channel_next nx = channel_recv_wait(&ch, &type, &p, &len,
		    600000, &why);

		if (nx == CHANNEL_NEED)
			die(EXIT_UNAVAILABLE, "no answer from the sandbox for "
			    "10 minutes");
		if (nx == CHANNEL_BAD)
			die(EXIT_UNAVAILABLE, "connection to the sandbox lost: %s",
			    why);
		switch (type) {
		case FRAME_STARTED:
			if (have_started || sbx_started_parse(&started, p, len)
			    != SBX_OK)
				die(EXIT_PROTOCOL, "bad STARTED from the sandbox");
			have_started = 1;
			log_event(LOG_DEBUG, "execution started",
			    (struct log_field[]){ LF_STR("exec",
			    started.exec_id), LF_STR("jail", started.jail) },
			    2);
			break;
		case FRAME_STDOUT:
		case FRAME_STDERR:
			if (!have_started)
				die(EXIT_PROTOCOL, "output before STARTED");
			capture_emit(&cap, type == FRAME_STDOUT ? 1 : 2, p, len);
			break;
		case FRAME_PING:
			if (len == PROTO_PING_LEN)
				call_send(&ch, FRAME_PONG, p, len);
			break;
		case FRAME_ERROR:
			return call_refused(p, len);
		case FRAME_EXIT:
			if (!have_started || sbx_result_parse(&res, p, len) !=
			    SBX_OK)
				die(EXIT_PROTOCOL, "bad result from the sandbox");
			channel_close(&ch);
			return report(&res, lang, &started.lim, &cap, json);
		default:
			die(EXIT_PROTOCOL, "unexpected %s frame from the "
			    "sandbox", frame_type_name(type));
		}
		if (channel_pending(&ch))
			(void)channel_flush(&ch);
	}
}
