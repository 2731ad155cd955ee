/* runner.c - the runner's command line: parse and validate the flags,
 * print --help or the --check report, then run the lease service
 * (common/service/runner_service.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/cli.h"
#include "common/base/log.h"
#include "common/base/xwrap.h"
#include "common/jail/jail.h"
#include "common/service/metrics.h"
#include "common/service/metrics_http.h"
#include "common/service/runner_service.h"
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
"                            (default /var/lib/airlock-runner; in uid\n"
"                            mode no directory above it may be writable\n"
"                            by anyone but root and the runner)\n"
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

/* The command line's own options, beside the service's configuration. */
struct runner_cli {
	int check, check_json;
	const char *metrics;		/* --metrics ADDR, or NULL */
	int limits_given;		/* a limit flag was used */
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
parse_args(struct runner_cli *cli, struct runner_service_config *c,
    int argc, char **argv)
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
	c->state_dir = "/var/lib/airlock-runner";
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
			cli->limits_given = 1; break;
		case O_PIDS: limit_opt("pids", optarg, &lim->pids);
			cli->limits_given = 1; break;
		case O_CPU: cpu_opt(optarg, &lim->cpu_millicpus);
			cli->limits_given = 1; break;
		case O_NPROC: limit_opt("nproc", optarg, &lim->nproc); break;
		case O_NOFILE: limit_opt("nofile", optarg, &lim->nofile); break;
		case O_FSIZE: size_opt("fsize", optarg, &lim->fsize); break;
		case O_TMPFS: size_opt("tmpfs", optarg, &lim->tmpfs); break;
		case O_CHECK: cli->check = c->preflight = 1; break;
		case O_METRICS: cli->metrics = optarg; break;
		case O_EGRESS_ALLOW: c->egress_allow = optarg; break;
		case O_DRAIN: duration_opt("drain-timeout", optarg, &c->drain_ms);
			break;
		case O_JSON: cli->check_json = 1; break;
		case 'h': fputs(usage, stdout); exit(EXIT_OK);
		default: fputs(usage, stderr); exit(EXIT_USAGE);
		}
	}
	j->ro_paths = c->ro_paths;
	if (optind < argc)
		die(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (cli->check_json && !cli->check)
		die(EXIT_USAGE, "--json goes with --check");
	if (c->jail && jail_mode_parse(c->jail, &j->mode))
		die(EXIT_USAGE, "--jail %s: unknown mode (uid, ns or none)",
		    c->jail);
	if (cli->check && c->nlisten == 0 && !c->nsecret)
		return;		/* the host report alone */
	j->check_only = cli->check;
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
		if (cli->limits_given || j->cgroup_dir || j->negress ||
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

static const char *
child_path(void)
{
	return getenv("PATH") ? getenv("PATH") : "/usr/local/bin:/usr/bin:/bin";
}

/* --check: the report, and whether the asked mode (uid by default) runs;
 * with a service configuration, then the service's own start-up checks,
 * which fail with the service's message. */
static int
check(const struct runner_cli *cli, struct runner_service *r)
{
	struct jail_host h;
	struct jail_config *j = &r->cfg.jail_cfg;
	enum jail_mode want = r->cfg.jail ? j->mode : JAIL_UID;
	char err[512];
	int rc;

	if (!j->uid_last)
		j->uid_last = 65534;	/* a probe uid when no range given */
	jail_probe(j, &h);
	jail_host_print(stdout, j, &h, cli->check_json);
	fflush(stdout);
	if (!j->check_only)
		return h.mode_ok[want] ? EXIT_OK : EXIT_CONFIG;
	if (cli->metrics)
		xmetrics_listen_start(cli->metrics, METRICS_RUNNER,
		    r->cfg.max_leases, 1);
	if ((rc = runner_service_setup(r, err, sizeof err)) != 0)
		die(rc, "%s", err);
	runner_service_end_preflight(r);
	if (!cli->check_json)
		printf("preflight: this configuration starts here\n");
	return EXIT_OK;
}

int
runner_main(int argc, char **argv)
{
	static struct runner_cli c;
	static struct runner_service r;
	char err[512];
	int rc;

	parse_args(&c, &r.cfg, argc, argv);
	if ((rc = runner_service_jail_config(&r, child_path(), err,
	    sizeof err)) != 0)
		die(rc, "%s", err);
	if (c.check)
		return check(&c, &r);
	/* before the secret is loaded: the endpoint's process never has it */
	if (c.metrics)
		xmetrics_listen_start(c.metrics, METRICS_RUNNER,
		    r.cfg.max_leases, 0);
	if ((rc = runner_service_setup(&r, err, sizeof err)) != 0)
		die(rc, "%s", err);
	if (runner_service_serve(&r) != 0)
		die_errno(EXIT_OSERR, "poll");
	runner_service_fini(&r);
	return EXIT_OK;
}
