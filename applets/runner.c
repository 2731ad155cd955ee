/* runner.c - the lease service: handshakes in the pre-auth process, then
 * admit, fork one handler per authenticated connection (common/lease),
 * keep the caps, drain on SIGTERM. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/base/cli.h"
#include "common/service/ctlmsg.h"
#include "common/policy/eckey.h"
#include "common/jail/jail.h"
#include "common/jail/seccomp_policy.h"
#include "common/policy/revocation.h"
#include "common/policy/guard.h"
#include "common/policy/guardfs.h"
#include "common/service/lease.h"
#include "common/base/log.h"
#include "common/wire/netaddr.h"
#include "common/wire/proto.h"
#include "common/wire/secret.h"
#include "common/service/service.h"
#include "common/base/signal_fd.h"
#include "common/base/random_id.h"
#include "common/jail/spawn.h"
#include "common/service/supervisor.h"
#include "common/base/xwrap.h"
#include "common/base/fsutil.h"
#include "common/base/clock.h"
#include "common/wire/version.h"
#include "common/service/metrics.h"
#include "common/service/metrics_http.h"
#include "common/wire/netaddr.h"
#include "applets/applet.h"

static const char usage[] =
"usage: airlock runner --listen ADDR [--listen ADDR]... --jail MODE [OPTIONS]\n"
"       airlock runner --check [--json] [--jail MODE] [OPTIONS]\n"
"\n"
"Serve leases: each accepted connection authenticates (Noise, keyed by\n"
"the shared secret), sends one spawn request, and owns the child it\n"
"starts; when the connection ends the child's whole tree is killed.\n"
"\n"
"  --listen ADDR             HOST:PORT, [IPV6]:PORT or unix:/PATH\n"
"                            (repeatable, at most 8)\n"
"  --secret-file FILE        shared secret, at least 32 bytes\n"
"                            (AIRLOCK_SECRET_FILE, or AIRLOCK_SECRET)\n"
"  --allow LIST              launchers allowed as argv[0], comma-separated\n"
"                            (default npx,node,uvx,uv,python,python3)\n"
"  --script-dir DIR          scripts (node FILE, python FILE, --require\n"
"                            FILE) may be files below DIR, named by their\n"
"                            canonical path (repeatable; default none)\n"
"  --allow-index URL         a registry/index URL npx --registry and uv\n"
"                            --index* / --find-links may name (repeatable)\n"
"  --allow-module NAME       a module python -m may run (repeatable)\n"
"                            (docs/GUARD.md: the grammar these extend)\n"
"  --max-leases N            live leases in all (default 64)\n"
"  --max-leases-per-tenant N (default 16)\n"
"  --max-conns-per-peer N    pending handshakes of one source: an IPv4\n"
"                            address, an IPv6 /64, a unix peer's uid\n"
"                            (default 32; 256 pending in all)\n"
"  --handshake-timeout DUR   the handshake, then the spawn request, each\n"
"                            (default 5s)\n"
"  --preauth-uid UID         the uid (and gid) of the pre-auth process\n"
"                            that runs handshakes (default: the first uid\n"
"                            of --uid-range, which leases then do not get;\n"
"                            nobody with --jail none as root)\n"
"  --kill-grace DUR          SIGTERM to SIGKILL at lease end (default 2s)\n"
"  --ping-interval DUR       the relay's keep-alive interval (default 10s)\n"
"  --liveness-timeout DUR    silence that ends a lease (default 30s)\n"
"  --review-pubkey FILE      enforce approvals: every spawn must carry a\n"
"                            token signed by this reviewer key that binds\n"
"                            its tenant, registration, argv and env keys\n"
"  --revocations FILE        revoked tokens (airlock review revoke); re-read\n"
"                            when it changes, unusable = refuse everything\n"
"  --state-dir DIR           lease HOMEs, package caches, the uid table\n"
"                            (default /tmp/airlock-runner)\n"
"  --log-format human|json   one line per lease event on stderr\n"
"\n"
"Jail (see docs/JAIL.md; there is no default mode, on purpose):\n"
"  --jail uid|ns|none        uid: a uid of the range per lease, no caps,\n"
"                            no_new_privs, rlimits, Landlock, seccomp\n"
"                            (needs CAP_SETUID, CAP_SETGID, CAP_KILL);\n"
"                            ns: uid + user/pid/mount/ipc/uts/cgroup\n"
"                            namespaces and a read-only root view;\n"
"                            none: development only, no isolation\n"
"  --uid-range FIRST-LAST    uids for leases (uid/ns; required): a range\n"
"                            no other process on the host uses\n"
"  --uid-unit registration|lease  one stable uid per (tenant,\n"
"                            registration) with a persistent package\n"
"                            cache (default), or a fresh uid per lease\n"
"  --landlock auto|require|off  (default auto: what the kernel offers)\n"
"  --allow-bind              let leases bind TCP ports (Landlock)\n"
"  --egress-ports LIST       TCP connect only to these ports, e.g. 443,80\n"
"                            (Landlock ABI 4; UDP is not governed)\n"
"  --egress-allow LIST|none  ns: each lease gets its own network namespace\n"
"                            with only loopback; its way out is the\n"
"                            runner's HTTP CONNECT proxy, to exactly these\n"
"                            host:port pairs plus its approval token's\n"
"                            (review submit --egress), e.g.\n"
"                            registry.npmjs.org:443 (needs CAP_SYS_ADMIN)\n"
"  --ro-path DIR             also readable+executable (repeatable); the\n"
"                            system dirs, PATH dirs, launcher prefixes,\n"
"                            --script-dirs and STATE/launchers are always\n"
"                            in (see --check)\n"
"  --cgroup DIR              a delegated cgroup v2 directory; default:\n"
"                            the v1 hierarchies when writable\n"
"  --memory SIZE             per lease, cgroup, no swap (default 1G; 0 off)\n"
"  --pids N                  tasks per lease, cgroup (default 512; 0 off)\n"
"  --cpu CPUS                CPU bandwidth per lease, e.g. 0.5 (default off)\n"
"  --nproc N --nofile N --fsize SIZE  rlimits (default 512, 4096, 1G)\n"
"  --tmpfs SIZE              ns mode: size of the lease's /tmp and of its HOME,\n"
"                            each (default 64M; memory, counted by --memory)\n"
"  --metrics ADDR            serve GET /metrics (Prometheus), /healthz and\n"
"                            /readyz on HOST:PORT (off by default; see\n"
"                            docs/OPERATIONS.md and airlock probe)\n"
"  --drain-timeout DUR       on SIGTERM, how long live leases may run on\n"
"                            before they are ended (default 2m; a second\n"
"                            SIGTERM or a SIGINT ends them at once)\n"
"  --check [--json]          report what this host supports and exit:\n"
"                            0 when --jail MODE (default: uid) can run.\n"
"                            With --listen or --secret-file: the preflight\n"
"                            of exactly that configuration, every check\n"
"                            the service makes at start (secret, state\n"
"                            dir, uid range, cgroup limits, Landlock,\n"
"                            listen addresses, review key, revocations),\n"
"                            failing with the service's own message; it\n"
"                            sweeps and removes nothing\n"
"  --help\n"
"\n"
"Refusals reach the relay as ERROR frames with stable codes (see\n"
"docs/PROTOCOL.md). SIGTERM drains: no new lease, /readyz 503, live ones\n"
"run up to --drain-timeout; SIGINT or a second SIGTERM ends them now.\n"
"\n"
"Exit status: 0 after a drain, 64 usage, 71 system error, 78\n"
"configuration (secret, listen address, state directory, a jail mode or\n"
"layer this host cannot honour).\n";

struct runner_config {
	const char *listen[SUPERVISOR_LISTEN_MAX];
	size_t nlisten;
	const char *secret_files[SECRET_RING_MAX + 1];
	size_t nsecret;
	const char *jail;
	char *allow;
	uint64_t max_leases, max_per_tenant, max_per_peer, preauth_uid;
	uint64_t handshake_ms, grace_ms, ping_ms, liveness_ms;
	const char *state_dir;
	const char *review_pubkey;
	const char *revocations;
	struct jail_config jail_cfg;
	const char *ro_paths[JAIL_PATHS_MAX];
	struct {
		enum guard_list list;
		const char *value;
	} guard_items[3 * GUARD_LIST_MAX];	/* --script-dir ... */
	size_t nguard_items;
	char launcher_dir[PATH_MAX];
	uint16_t ports[JAIL_PORTS_MAX];
	int check, check_json;
	const char *metrics;		/* --metrics ADDR, or NULL */
	const char *egress_allow;	/* --egress-allow, or NULL */
	uint64_t drain_ms;		/* --drain-timeout */
	int limits_given;		/* a limit flag was used */
};

struct handler {
	struct supervisor_handler sv;
	int refusing;			/* forked only to send a refusal */
	char tenant[PROTO_ID_MAX + 1];	/* "" until admitted */
};

struct runner {
	struct runner_config cfg;
	struct lease_config lease;
	struct guard_policy guard;
	struct eckey_pub review_key;
	struct revocation_set revoked;
	struct jail jail;
	struct egress_config egress;
	struct sock_fprog seccomp;
	struct secret_ring ring;	/* the secrets accepted */
	struct supervisor sv;
	int draining;
};

static void
duration_opt(const char *name, const char *val, uint64_t *ms)
{
	if (cli_duration_ms(val, ms) || *ms > 86400000)
		die(EXIT_USAGE, "--%s: '%s' is not a duration up to 1d (e.g. "
		    "500ms, 5s, 2m)", name, val);
}

static void
count_opt(const char *name, const char *val, uint64_t *n)
{
	if (cli_count(val, 1, 100000, n))
		die(EXIT_USAGE, "--%s: '%s' is not a count from 1 to 100000",
		    name, val);
}

static void
size_opt(const char *name, const char *val, uint64_t *bytes)
{
	if (strcmp(val, "0") == 0) {
		*bytes = 0;
		return;
	}
	if (cli_size_bytes(val, bytes))
		die(EXIT_USAGE, "--%s: '%s' is not a size (e.g. 512M, 2G, or "
		    "0 for none)", name, val);
}

static void
limit_opt(const char *name, const char *val, uint64_t *n)
{
	if (strcmp(val, "0") == 0) {
		*n = 0;
		return;
	}
	if (cli_count(val, 1, 1000000, n))
		die(EXIT_USAGE, "--%s: '%s' is not a count from 0 to 1000000",
		    name, val);
}

/* "1.5" CPUs in thousandths. */
static void
cpu_opt(const char *val, uint64_t *milli)
{
	char *end;
	double v = strtod(val, &end);

	if (end == val || *end || v < 0 || v > 1024)
		die(EXIT_USAGE, "--cpu: '%s' is not a number of CPUs (e.g. "
		    "0.5, 2; 0 for none)", val);
	*milli = (uint64_t)(v * 1000 + 0.5);
	if (v > 0 && *milli < 10)
		die(EXIT_USAGE, "--cpu: at least 0.01");
}

static void
uid_range_opt(const char *val, struct jail_config *j)
{
	if (cli_uid_range(val, &j->uid_first, &j->uid_last) != 0)
		die(EXIT_USAGE, "--uid-range: '%s' is not FIRST-LAST with "
		    "0 < FIRST <= LAST <= %u (e.g. 200000-265535)", val,
		    CLI_UID_MAX);
}

static void
parse_args(struct runner_config *c, int argc, char **argv)
{
	enum { O_ALLOW = 256, O_MAXL, O_MAXT, O_MAXP, O_HS, O_GRACE, O_PING,
		O_LIVE, O_STATE, O_LOG, O_JAIL, O_SECRET, O_PUBKEY, O_REVOKED,
		O_UIDS, O_UNIT, O_LANDLOCK, O_BIND, O_EGRESS, O_RO, O_CGROUP,
		O_MEM, O_PIDS, O_CPU, O_NPROC, O_NOFILE, O_FSIZE, O_TMPFS,
		O_CHECK, O_JSON, O_SCRIPTS, O_INDEX, O_MODULE, O_METRICS,
		O_DRAIN, O_PREAUTH, O_EGRESS_ALLOW };
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "secret-file", required_argument, NULL, O_SECRET },
		{ "jail", required_argument, NULL, O_JAIL },
		{ "allow", required_argument, NULL, O_ALLOW },
		{ "script-dir", required_argument, NULL, O_SCRIPTS },
		{ "allow-index", required_argument, NULL, O_INDEX },
		{ "allow-module", required_argument, NULL, O_MODULE },
		{ "max-leases", required_argument, NULL, O_MAXL },
		{ "max-leases-per-tenant", required_argument, NULL, O_MAXT },
		{ "max-conns-per-peer", required_argument, NULL, O_MAXP },
		{ "handshake-timeout", required_argument, NULL, O_HS },
		{ "preauth-uid", required_argument, NULL, O_PREAUTH },
		{ "kill-grace", required_argument, NULL, O_GRACE },
		{ "ping-interval", required_argument, NULL, O_PING },
		{ "liveness-timeout", required_argument, NULL, O_LIVE },
		{ "state-dir", required_argument, NULL, O_STATE },
		{ "review-pubkey", required_argument, NULL, O_PUBKEY },
		{ "revocations", required_argument, NULL, O_REVOKED },
		{ "log-format", required_argument, NULL, O_LOG },
		{ "uid-range", required_argument, NULL, O_UIDS },
		{ "uid-unit", required_argument, NULL, O_UNIT },
		{ "landlock", required_argument, NULL, O_LANDLOCK },
		{ "allow-bind", no_argument, NULL, O_BIND },
		{ "egress-ports", required_argument, NULL, O_EGRESS },
		{ "egress-allow", required_argument, NULL, O_EGRESS_ALLOW },
		{ "ro-path", required_argument, NULL, O_RO },
		{ "cgroup", required_argument, NULL, O_CGROUP },
		{ "memory", required_argument, NULL, O_MEM },
		{ "pids", required_argument, NULL, O_PIDS },
		{ "cpu", required_argument, NULL, O_CPU },
		{ "nproc", required_argument, NULL, O_NPROC },
		{ "nofile", required_argument, NULL, O_NOFILE },
		{ "fsize", required_argument, NULL, O_FSIZE },
		{ "tmpfs", required_argument, NULL, O_TMPFS },
		{ "check", no_argument, NULL, O_CHECK },
		{ "json", no_argument, NULL, O_JSON },
		{ "metrics", required_argument, NULL, O_METRICS },
		{ "drain-timeout", required_argument, NULL, O_DRAIN },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct jail_config *j = &c->jail_cfg;
	struct jail_limits *lim = &j->limits;
	long np;
	int o;

	c->max_leases = 64;
	c->max_per_tenant = 16;
	c->max_per_peer = 32;
	c->handshake_ms = 5000;
	c->grace_ms = 2000;
	c->drain_ms = 120000;
	c->ping_ms = 10000;
	c->liveness_ms = 30000;
	c->state_dir = "/tmp/airlock-runner";
	*lim = (struct jail_limits){ .memory = 1ull << 30, .pids = 512,
		.nproc = 512, .nofile = 4096, .fsize = 1ull << 30,
		.tmpfs = 64ull << 20 };
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case 'l':
			xcli_append(c->listen, &c->nlisten,
			    SUPERVISOR_LISTEN_MAX, optarg, "--listen");
			break;
		case O_SECRET:
			xcli_append(c->secret_files, &c->nsecret,
			    SECRET_RING_MAX, optarg, "--secret-file");
			break;
		case O_JAIL: c->jail = optarg; break;
		case O_ALLOW: c->allow = optarg; break;
		case O_SCRIPTS: case O_INDEX: case O_MODULE:
			if (c->nguard_items == 3 * GUARD_LIST_MAX)
				die(EXIT_USAGE, "too many --script-dir, "
				    "--allow-index, --allow-module");
			c->guard_items[c->nguard_items].list = o == O_SCRIPTS ?
			    GUARD_SCRIPT_DIR : o == O_INDEX ? GUARD_INDEX :
			    GUARD_MODULE;
			c->guard_items[c->nguard_items++].value = optarg;
			break;
		case O_MAXL: count_opt("max-leases", optarg, &c->max_leases); break;
		case O_MAXT:
			count_opt("max-leases-per-tenant", optarg,
			    &c->max_per_tenant);
			break;
		case O_MAXP:
			count_opt("max-conns-per-peer", optarg, &c->max_per_peer);
			break;
		case O_HS: duration_opt("handshake-timeout", optarg,
		    &c->handshake_ms); break;
		case O_PREAUTH:
			if (cli_count(optarg, 1, 0xfffffffdUL, &c->preauth_uid))
				die(EXIT_USAGE, "--preauth-uid: '%s' is not a "
				    "uid from 1", optarg);
			break;
		case O_GRACE: duration_opt("kill-grace", optarg, &c->grace_ms);
			break;
		case O_PING: duration_opt("ping-interval", optarg, &c->ping_ms);
			break;
		case O_LIVE: duration_opt("liveness-timeout", optarg,
		    &c->liveness_ms); break;
		case O_STATE: c->state_dir = optarg; break;
		case O_PUBKEY: c->review_pubkey = optarg; break;
		case O_REVOKED: c->revocations = optarg; break;
		case O_LOG:
			if (log_set_format(optarg))
				die(EXIT_USAGE, "--log-format: human or json");
			break;
		case O_UIDS: uid_range_opt(optarg, j); break;
		case O_UNIT:
			if (jail_unit_parse(optarg, &j->unit))
				die(EXIT_USAGE, "--uid-unit: registration or "
				    "lease");
			break;
		case O_LANDLOCK:
			if (jail_landlock_parse(optarg, &j->landlock))
				die(EXIT_USAGE, "--landlock: auto, require or "
				    "off");
			break;
		case O_BIND: j->allow_bind = 1; break;
		case O_EGRESS:
			np = jail_ports_parse(optarg, c->ports, JAIL_PORTS_MAX);
			if (np < 0)
				die(EXIT_USAGE, "--egress-ports: '%s' is not a "
				    "list of ports (e.g. 443,80)", optarg);
			j->egress_ports = c->ports;
			j->negress = (size_t)np;
			break;
		case O_RO:
			if (j->nro == JAIL_PATHS_MAX)
				die(EXIT_USAGE, "at most %d --ro-path",
				    JAIL_PATHS_MAX);
			c->ro_paths[j->nro++] = optarg;
			break;
		case O_CGROUP: j->cgroup_dir = optarg; break;
		case O_MEM: size_opt("memory", optarg, &lim->memory);
			c->limits_given = 1; break;
		case O_PIDS: limit_opt("pids", optarg, &lim->pids);
			c->limits_given = 1; break;
		case O_CPU: cpu_opt(optarg, &lim->cpu_millicpus);
			c->limits_given = 1; break;
		case O_NPROC: limit_opt("nproc", optarg, &lim->nproc); break;
		case O_NOFILE: limit_opt("nofile", optarg, &lim->nofile); break;
		case O_FSIZE: size_opt("fsize", optarg, &lim->fsize); break;
		case O_TMPFS: size_opt("tmpfs", optarg, &lim->tmpfs); break;
		case O_CHECK: c->check = 1; break;
		case O_METRICS: c->metrics = optarg; break;
		case O_EGRESS_ALLOW: c->egress_allow = optarg; break;
		case O_DRAIN: duration_opt("drain-timeout", optarg, &c->drain_ms);
			break;
		case O_JSON: c->check_json = 1; break;
		case 'h': fputs(usage, stdout); exit(EXIT_OK);
		default: fputs(usage, stderr); exit(EXIT_USAGE);
		}
	}
	j->ro_paths = c->ro_paths;
	if (optind < argc)
		die(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (c->check_json && !c->check)
		die(EXIT_USAGE, "--json goes with --check");
	if (c->jail && jail_mode_parse(c->jail, &j->mode))
		die(EXIT_USAGE, "--jail %s: unknown mode (uid, ns or none)",
		    c->jail);
	if (c->check && c->nlisten == 0 && !c->nsecret)
		return;		/* the host report alone */
	j->check_only = c->check;
	if (c->nlisten == 0)
		die(EXIT_USAGE, "no --listen address given");
	if (!c->jail)
		die(EXIT_USAGE, "no --jail mode given: choose uid or ns (see "
		    "'airlock runner --check' for what this host supports), or "
		    "none for development (no isolation between leases)");
	if (j->mode != JAIL_NONE && !j->uid_first)
		die(EXIT_USAGE, "--jail %s needs --uid-range FIRST-LAST: uids "
		    "no other process on this host uses", c->jail);
	if (j->uid_first && c->preauth_uid >= j->uid_first &&
	    c->preauth_uid <= j->uid_last)
		die(EXIT_USAGE, "--preauth-uid %llu is in --uid-range: leases "
		    "must never share the pre-auth process's uid",
		    (unsigned long long)c->preauth_uid);
	if (j->uid_first && !c->preauth_uid) {
		/* the range's first uid runs the pre-auth process */
		if (j->uid_first == j->uid_last)
			die(EXIT_USAGE, "--uid-range needs two uids at least: "
			    "the first runs the pre-auth process (or give "
			    "--preauth-uid)");
		c->preauth_uid = j->uid_first++;
	}
	if (j->mode == JAIL_NONE) {
		if (c->limits_given || j->cgroup_dir || j->negress ||
		    j->allow_bind || j->landlock == JAIL_LANDLOCK_REQUIRE)
			die(EXIT_USAGE, "--jail none applies no jail: limits, "
			    "--cgroup, Landlock options need uid or ns");
		*lim = (struct jail_limits){ 0 };
	}
	if (c->revocations && !c->review_pubkey)
		die(EXIT_USAGE, "--revocations needs --review-pubkey");
	if (c->liveness_ms <= c->ping_ms)
		die(EXIT_USAGE, "--liveness-timeout must exceed "
		    "--ping-interval");
}

static void
setup_signals(struct runner *r)
{
	static const int sigs[] = { SIGCHLD, SIGTERM, SIGINT, SIGHUP };
	int fd;

	signal(SIGPIPE, SIG_IGN);
	fd = signal_fd_open(sigs, sizeof sigs / sizeof sigs[0]);
	if (fd < 0)
		die_errno(EXIT_OSERR, "signalfd");
	supervisor_init(&r->sv, fd, sizeof(struct handler));
}

static struct handler *
handler_at(const struct runner *r, size_t i)
{
	return supervisor_handler(&r->sv, i);
}

static size_t
count_serving(const struct runner *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->sv.nh; i++)
		n += !handler_at(r, i)->refusing;
	return n;
}

/* In the forked handler (the supervisor's fds already closed): leave its
 * signal mask behind and serve the lease. Never returns. */
static _Noreturn void
handler_run(struct runner *r, int conn, struct noise_transport *t, int ctl,
    const char *peer, const char *id, uint16_t refuse)
{
	struct lease_config lc = r->lease;
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (spawn_become_subreaper() != 0)
		_exit(EXIT_OSERR);
	lc.control_fd = ctl;
	lc.refuse_code = refuse;
	lc.refuse_message = refuse == LERR_CAPACITY ?
	    "the runner is at its lease limit" : "";
	_exit(lease_serve(&lc, conn, t, peer, id));
}

/* An authenticated connection from the pre-auth process. Past
 * max_leases it still gets a handler, one that only refuses (see
 * SUPERVISOR_REFUSAL_SLOTS); each lives at most the SPAWN deadline, then
 * the linger of service_refuse. */
static void
take_conn(void *ctx, int conn, struct noise_transport *t, unsigned key)
{
	struct runner *r = ctx;
	char peer[96], id[17];
	uint16_t refuse = 0;
	struct handler *h;
	int ctl;
	pid_t pid;

	netaddr_peer_text(conn, peer, sizeof peer);
	if (r->sv.nh >= r->cfg.max_leases + SUPERVISOR_REFUSAL_SLOTS) {
		metric_add(M_CONNECTIONS_DROPPED, 0, 1);
		log_event(LOG_WARN, "connection dropped: no refusal slot left",
		    (struct log_field[]){ LF_STR("peer", peer) }, 1);
		close(conn);
		return;
	}
	if (count_serving(r) >= r->cfg.max_leases)
		refuse = LERR_CAPACITY;
	if (random_id(id) != 0)
		die_errno(EXIT_OSERR, "getrandom");
	log_event(LOG_INFO, "lease accepted", (struct log_field[]){
	    LF_STR("lease", id), LF_STR("peer", peer),
	    LF_STR("key", key < r->ring.n ? r->ring.id[key] : "?") }, 3);
	pid = supervisor_fork(&r->sv, conn, &ctl);
	if (pid == 0)
		handler_run(r, conn, t, ctl, peer, id, refuse);
	if (pid < 0)
		return;
	h = handler_at(r, r->sv.nh - 1);
	h->refusing = refuse != 0;
}

/* A handler asks to admit its tenant (ADMIT): answer with VERDICT 0 or
 * the refusal code. Or it says (DONE) that its lease is over but for the
 * final frame: from then on it counts as a refusal handler (bounded by
 * the refusal slots), not against --max-leases or its tenant's cap. */
static void
admit(void *ctx, void *handler)
{
	struct runner *r = ctx;
	struct handler *h = handler;
	struct ctlmsg m;
	unsigned answer = 0;
	size_t same = 0;
	int fd;
	enum ctlmsg_status st = ctlmsg_recv(h->sv.ctl, &m, &fd, MSG_DONTWAIT);

	if (st == CTLMSG_IO || st == CTLMSG_CLOSED)
		return;	/* handler gone; SIGCHLD will clean up */
	if (st == CTLMSG_OK && m.type == CTLMSG_DONE) {
		h->refusing = 1;
		h->tenant[0] = '\0';
		return;
	}
	if (st != CTLMSG_OK || m.type != CTLMSG_ADMIT || h->tenant[0]) {
		answer = LERR_PROTOCOL;
	} else {
		for (size_t i = 0; i < r->sv.nh; i++)
			same += strcmp(handler_at(r, i)->tenant,
			    m.u.admit.tenant) == 0;
		if (same >= r->cfg.max_per_tenant)
			answer = LERR_TENANT_CAPACITY;
		else if (r->draining)
			answer = LERR_SHUTDOWN;
		else
			memcpy(h->tenant, m.u.admit.tenant,
			    sizeof h->tenant);
	}
	if (answer)
		h->refusing = 1;	/* it only sends the refusal now */
	service_verdict(h->sv.ctl, answer);
}

static void
reap_handlers(struct runner *r)
{
	void *h;

	while ((h = supervisor_reaped(&r->sv)) != NULL)
		supervisor_remove(&r->sv, h);
}

/* The gauges /readyz and /metrics read. */
static void
publish(const struct runner *r)
{
	metric_set(M_LEASES_ACTIVE, 0, count_serving(r));
}

static void
reap_all(void *ctx)
{
	reap_handlers(ctx);
	publish(ctx);
}

/* Drain: readiness drops and the listeners close at once (the pre-auth
 * process ends: handshakes in flight are dropped); live leases run on
 * until they end or --drain-timeout passes, then every handler ends its
 * lease (SIGTERM, grace, SIGKILL) as a second SIGTERM or a SIGINT does at
 * once. Handlers that outlive the grace by far are killed. Requests still
 * waiting for admission are refused (shutdown). */
static int
drain(struct runner *r, int now)
{
	r->draining = 1;
	metric_set(M_DRAINING, 0, 1);
	log_event(LOG_INFO, "runner draining", (struct log_field[]){
	    LF_NUM("leases", count_serving(r)),
	    LF_NUM("drain_timeout_ms", now ? 0 : r->cfg.drain_ms) }, 2);
	service_drain(&r->sv, now ? 0 : (uint32_t)r->cfg.drain_ms,
	    (uint32_t)r->cfg.grace_ms + 3000, admit, reap_all, r);
	log_msg(LOG_INFO, "runner stopped");
	return EXIT_OK;
}

/* The protocol versions accepted: the build's, or the test hook's. */
static uint32_t
test_versions(void)
{
	uint32_t mask = VERSION_ACCEPTED;
	char list[VERSION_HINT_MAX];

	switch (version_test_hook(&mask)) {
	case 0:
		return mask;
	case 1:
		version_list_text(mask, list, sizeof list);
		log_msg(LOG_WARN, "test hook %s: accepting protocol versions %s "
		    "(unset it in production)", VERSION_TEST_HOOK, list);
		return mask;
	default:
		die(EXIT_CONFIG, "%s must be versions like 1,2 (a test hook; "
		    "unset it in production)", VERSION_TEST_HOOK);
	}
}

/* SIGHUP: re-read what lives in files (the secrets, the reviewer key, the
 * revocation list) for new leases; live leases are not touched. All or
 * nothing: a file that does not load keeps the whole old configuration,
 * and the log says why. */
static void
reload(struct runner *r)
{
	struct secret_ring ring;
	struct eckey_pub key;
	const char *why = NULL;
	char err[512], ids[SECRET_RING_MAX * (SECRET_KEY_ID_LEN + 1)] = "";

	if (secret_ring_load(&ring, r->cfg.secret_files, r->cfg.nsecret, err,
	    sizeof err) != 0)
		why = err;
	else if (r->cfg.review_pubkey &&
	    eckey_pub_load(r->cfg.review_pubkey, &key, &why) != 0)
		snprintf(err, sizeof err, "--review-pubkey %s: %s",
		    r->cfg.review_pubkey, why), why = err;
	else if (r->cfg.revocations &&
	    revocation_reload(&r->revoked, &why) != 0)
		snprintf(err, sizeof err, "--revocations %s: %s",
		    r->cfg.revocations, why), why = err;
	if (why) {
		secret_ring_wipe(&ring);
		log_event(LOG_ERROR, "reload refused: the configuration in "
		    "force stays", (struct log_field[]){
		    LF_STR("reason", why) }, 1);
		return;
	}
	r->ring = ring;
	secret_ring_wipe(&ring);
	if (r->cfg.review_pubkey)
		r->review_key = key;
	supervisor_replace_preauth(&r->sv);
	for (size_t i = 0; i < r->ring.n; i++) {
		strcat(ids, i ? "," : "");
		strcat(ids, r->ring.id[i]);
	}
	log_event(LOG_INFO, "reloaded", (struct log_field[]){
	    LF_STR("keys", ids) }, 1);
}

static int
serve(struct runner *r)
{
	metric_set(M_READY, 0, 1);
	for (;;) {
		int rc = supervisor_poll(&r->sv, -1, admit, take_conn, r);
		int sig;

		if (rc < 0 && errno != EINTR)
			die_errno(EXIT_OSERR, "poll");
		if (rc > 0) {
			if ((sig = supervisor_signals(&r->sv)) == SIGHUP) {
				reload(r);
			} else if (sig != 0) {
				metric_set(M_READY, 0, 0);
				return drain(r, sig == SIGINT);
			}
			reap_handlers(r);
		}
		publish(r);
	}
}

/* Approval enforcement: the key and the revocation list must both load
 * now; a runner told to enforce never starts without them. */
static void
load_review(struct runner *r)
{
	const char *why;

	if (!r->cfg.review_pubkey) {
		log_msg(LOG_WARN, "approvals are NOT enforced (no "
		    "--review-pubkey): any request that passes the guard runs");
		return;
	}
	if (eckey_pub_load(r->cfg.review_pubkey, &r->review_key, &why) != 0)
		die(EXIT_CONFIG, "--review-pubkey %s: %s", r->cfg.review_pubkey,
		    why);
	if (r->cfg.revocations) {
		revocation_init(&r->revoked, r->cfg.revocations);
		if (revocation_reload(&r->revoked, &why) != 0)
			die(EXIT_CONFIG, "--revocations %s: %s",
			    r->cfg.revocations, why);
	}
	log_msg(LOG_INFO, "approvals enforced with reviewer key %s",
	    r->cfg.review_pubkey);
}

static const char *const launcher_names[] = {
	"npx", "node", "uvx", "uv", "python", "python3"
};

/* The jail's configuration from the flags. */
static void
jail_config(struct runner *r, const char *path)
{
	struct jail_config *j = &r->cfg.jail_cfg;
	const char *cap = getenv("AIRLOCK_TEST_LANDLOCK_ABI");

	j->state_dir = r->cfg.state_dir;
	j->cgroup_lean = 1;	/* a v1 hierarchy only for the limits */
	j->path = path;
	j->launchers = launcher_names;
	j->nlaunchers = sizeof launcher_names / sizeof *launcher_names;
	/* test hook: behave as if the kernel offered at most this ABI; it
	 * only ever weakens the jail, so it is refused unless numeric and
	 * announced loudly */
	if (cap && *cap) {
		uint64_t abi;

		if (cli_count(cap, 1, 1000, &abi) != 0)
			die(EXIT_CONFIG, "AIRLOCK_TEST_LANDLOCK_ABI must be a "
			    "number from 1 (a test hook; unset it in production)");
		j->landlock_abi_cap = (unsigned)abi;
		log_msg(LOG_WARN, "test hook AIRLOCK_TEST_LANDLOCK_ABI=%u: "
		    "acting as if the kernel offered at most Landlock ABI %u",
		    j->landlock_abi_cap, j->landlock_abi_cap);
	}
	if (j->mode != JAIL_NONE || r->cfg.check) {
		seccomp_policy_program(&r->seccomp);
		j->seccomp = &r->seccomp;
	}
}

static void setup_signals(struct runner *r);
static void setup(struct runner *r);

/* --check: the report, and whether the asked mode (uid by default) runs;
 * with a service configuration, then the service's own start-up checks
 * (setup), which die with the service's message when one fails. */
static int
check(struct runner *r)
{
	struct jail_host h;
	struct jail_config *j = &r->cfg.jail_cfg;
	enum jail_mode want = r->cfg.jail ? j->mode : JAIL_UID;

	if (!j->uid_last)
		j->uid_last = 65534;	/* a probe uid when no range given */
	jail_probe(j, &h);
	jail_host_print(stdout, j, &h, r->cfg.check_json);
	fflush(stdout);
	if (!j->check_only)
		return h.mode_ok[want] ? EXIT_OK : EXIT_CONFIG;
	if (r->cfg.metrics)
		xmetrics_listen_start(r->cfg.metrics, METRICS_RUNNER,
		    r->cfg.max_leases, 1);
	setup_signals(r);
	setup(r);
	supervisor_stop_listening(&r->sv);
	jail_fini(&r->jail);
	if (!r->cfg.check_json)
		printf("preflight: this configuration starts here\n");
	return EXIT_OK;
}

/* Read-only in every jail mode (the ns root view, Landlock). */
static void
add_ro_path(struct runner *r, const char *dir)
{
	struct jail_config *j = &r->cfg.jail_cfg;

	if (j->nro == JAIL_PATHS_MAX)
		die(EXIT_USAGE, "at most %d --ro-path and --script-dir in all",
		    JAIL_PATHS_MAX);
	r->cfg.ro_paths[j->nro++] = dir;
}

/* The guard's operator lists, each script dir checked on disk, and the
 * launchers-only PATH directory (guardfs.h). */
static void
guard_setup(struct runner *r, const char *path)
{
	struct runner_config *c = &r->cfg;
	const char *why;
	char err[512];

	for (size_t i = 0; i < c->nguard_items; i++) {
		const char *v = c->guard_items[i].value;

		if (guard_policy_add(&r->guard, c->guard_items[i].list, v,
		    &why) != 0)
			die(EXIT_USAGE, "'%s': %s", v, why);
		if (c->guard_items[i].list != GUARD_SCRIPT_DIR)
			continue;
		if (guardfs_script_dir_ok(v, err, sizeof err) != 0)
			die(EXIT_CONFIG, "%s", err);
		add_ro_path(r, v);
	}
	if ((size_t)snprintf(c->launcher_dir, sizeof c->launcher_dir,
	    "%s/launchers", c->state_dir) >= sizeof c->launcher_dir)
		die(EXIT_CONFIG, "state directory path too long");
	if (guardfs_launcher_dir(c->launcher_dir, path, c->check, err,
	    sizeof err) != 0)
		die(EXIT_CONFIG, "%s", err);
	if (!c->check)	/* a preflight built it aside and removed it */
		add_ro_path(r, c->launcher_dir);
}

static void
setup(struct runner *r)
{
	char err[512];
	const char *path = getenv("PATH") ? getenv("PATH") :
	    "/usr/local/bin:/usr/bin:/bin";

	if (secret_ring_load(&r->ring, r->cfg.secret_files, r->cfg.nsecret,
	    err, sizeof err) != 0)
		die(EXIT_CONFIG, "%s", err);
	guard_policy_default(&r->guard);
	if (r->cfg.allow && guard_policy_parse(&r->guard, r->cfg.allow) != 0)
		die(EXIT_USAGE, "--allow: '%s' is not a list of launchers the "
		    "guard understands (%s)", r->cfg.allow,
		    GUARD_DEFAULT_LAUNCHERS);
	if (fs_mkdir_private(r->cfg.state_dir, 0700) != 0)
		die_errno(EXIT_CONFIG, "state directory %s", r->cfg.state_dir);
	guard_setup(r, path);
	if (jail_init(&r->jail, &r->cfg.jail_cfg, err, sizeof err) != 0)
		die(EXIT_CONFIG, "%s", err);
	if (r->cfg.egress_allow && egress_config_init(&r->egress,
	    r->cfg.egress_allow, &r->jail, err, sizeof err) != 0)
		die(EXIT_CONFIG, "%s", err);
	for (size_t i = 0; i < r->cfg.nlisten; i++)
		switch (supervisor_listen(&r->sv, r->cfg.listen[i], err,
		    sizeof err)) {
		case SUPERVISOR_LISTENING: break;
		case SUPERVISOR_BAD_ADDRESS:
			die(EXIT_USAGE, "--listen: %s", err);
		case SUPERVISOR_CANNOT_LISTEN: die(EXIT_CONFIG, "%s", err);
		}
	load_review(r);
	/* handshakes run in the pre-auth process, as its own uid */
	if (service_start_preauth(&r->sv, &r->ring, test_versions(),
	    (uint32_t)r->cfg.handshake_ms, (uint32_t)r->cfg.max_per_peer,
	    (uint32_t)r->cfg.preauth_uid, r->cfg.jail_cfg.check_only, err,
	    sizeof err) != 0)
		die(EXIT_CONFIG, "%s", err);
	r->lease = (struct lease_config){
		.ring = &r->ring,
		.handshake_ms = (uint32_t)r->cfg.handshake_ms,
		.kill_grace_ms = (uint32_t)r->cfg.grace_ms,
		.ping_ms = (uint32_t)r->cfg.ping_ms,
		.liveness_ms = (uint32_t)r->cfg.liveness_ms,
		.jail_name = r->cfg.jail,
		.jail = &r->jail,
		.guard = &r->guard,
		.path = path,
		.launcher_path = r->cfg.launcher_dir,
		.lang = "C.UTF-8",
		.state_dir = r->cfg.state_dir,
		.review_key = r->cfg.review_pubkey ? &r->review_key : NULL,
		.revoked = r->cfg.revocations ? &r->revoked : NULL,
		.egress = r->cfg.egress_allow ? &r->egress : NULL,
	};
}

/* Say once, loudly, what the jail does not do here. */
static void
log_jail(const struct runner *r)
{
	const struct jail *j = &r->jail;
	char names[256];

	if (j->cfg.mode == JAIL_NONE) {
		log_msg(LOG_WARN, "jail mode none: leases are NOT isolated "
		    "from each other or from this runner (development only)");
		return;
	}
	log_event(LOG_INFO, "jail ready", (struct log_field[]){
	    LF_STR("jail", jail_mode_name(j->cfg.mode)),
	    LF_STR("unit", jail_unit_name(j->cfg.unit)),
	    LF_NUM("uid_first", j->cfg.uid_first),
	    LF_NUM("uid_last", j->cfg.uid_last),
	    LF_NUM("landlock_abi", j->landlock_abi),
	    LF_STR("cgroup", j->cg.kind == CGROUP_V2 ? "v2" :
	        j->cg.kind == CGROUP_V1 ? "v1" : "none"),
	    LF_NUM("memory", j->cfg.limits.memory),
	    LF_NUM("pids", j->cfg.limits.pids) }, 8);
	if (j->cfg.landlock == JAIL_LANDLOCK_OFF)
		log_msg(LOG_WARN, "Landlock is off (--landlock off): leases may "
		    "read any world-readable file, bind ports and signal "
		    "processes of their own uid");
	else if (j->landlock_lacking)
		log_msg(LOG_WARN, "Landlock %s: not applied: %s",
		    j->landlock_abi ? "ABI too old" : "unavailable",
		    landlock_feature_names(j->landlock_lacking, names,
		    sizeof names));
	if (!j->proc_private)
		log_msg(LOG_WARN, "uid mode: leases can read other leases' "
		    "/proc/PID/cmdline and status (%s); --jail ns hides them",
		    j->host.proc_why);
	if (!j->host.cap_setpcap)
		log_msg(LOG_INFO, "no CAP_SETPCAP: leases keep the bounding "
		    "set this runner was given; no_new_privs makes it inert");
	if (j->cfg.unit == JAIL_UNIT_REGISTRATION && j->cfg.mode == JAIL_UID &&
	    !(j->landlock_features & LANDLOCK_FEAT_SCOPE_SIGNAL))
		log_msg(LOG_WARN, "--uid-unit registration in uid mode without "
		    "Landlock scoping: concurrent leases of one registration "
		    "share a uid and can signal each other");
}

int
runner_main(int argc, char **argv)
{
	static struct runner r;
	int rc;

	parse_args(&r.cfg, argc, argv);
	if (r.cfg.check) {
		jail_config(&r, getenv("PATH") ? getenv("PATH") :
		    "/usr/local/bin:/usr/bin:/bin");
		return check(&r);
	}
	/* before the secret is loaded: the endpoint's process never has it */
	if (r.cfg.metrics)
		xmetrics_listen_start(r.cfg.metrics, METRICS_RUNNER,
		    r.cfg.max_leases, 0);
	setup_signals(&r);
	jail_config(&r, getenv("PATH") ? getenv("PATH") :
	    "/usr/local/bin:/usr/bin:/bin");
	setup(&r);
	for (size_t i = 0; i < r.cfg.nlisten; i++)
		log_event(LOG_INFO, "runner listening", (struct log_field[]){
		    LF_STR("address", r.cfg.listen[i]),
		    LF_STR("jail", r.cfg.jail),
		    LF_NUM("max_leases", r.cfg.max_leases) }, 3);
	for (size_t i = 0; i < r.ring.n; i++)
		log_event(LOG_INFO, "secret accepted", (struct log_field[]){
		    LF_STR("key", r.ring.id[i]) }, 1);
	log_jail(&r);
	rc = serve(&r);
	supervisor_fini(&r.sv);
	jail_fini(&r.jail);
	return rc;
}
