/* runner.c - the runner's command line: parse and validate the flags,
 * print --help or the --check report, then run the lease service
 * (common/service/runner_service.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "common/base/xwrap.h"
#include "common/jail/jail.h"
#include "common/jail/jail_probe.h"
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
"  --max-conns-per-peer N    pending handshakes of one source: a local\n"
"                            peer's uid (any address it uses), else an\n"
"                            IPv4 address or an IPv6 /64 (default 32; 256\n"
"                            pending in all); a lease's connection to the\n"
"                            service's own ports is closed at accept\n"
"  --handshake-timeout DUR   the handshake, then the spawn request, each\n"
"                            (default 5s)\n"
"  --preauth-uid UID         the uid (and gid) of the pre-auth process\n"
"                            that runs handshakes (default: the first uid\n"
"                            of --uid-range, which leases then do not get;\n"
"                            nobody with --jail none as root)\n"
"  --kill-grace DUR          SIGTERM to SIGKILL at lease end (default 2s);\n"
"                            also how long a server may live on once its\n"
"                            stdin reached EOF (its client is gone)\n"
"  --max-lease-duration DUR  the longest a lease lives (default 1d, up to\n"
"                            30d); then the server is ended and the relay\n"
"                            gets ERROR max_duration (it exits 75)\n"
"  --ping-interval DUR       the relay's keep-alive interval (default 10s)\n"
"  --liveness-timeout DUR    silence that ends a lease (default 30s)\n"
"  --review-pubkey FILE      enforce approvals: every spawn must carry a\n"
"                            token signed by this reviewer key that binds\n"
"                            its tenant, registration, argv and env keys\n"
"  --revocations FILE        revoked tokens (airlock review revoke), signed,\n"
"                            with a serial; re-read when it changes; a list\n"
"                            older than the last accepted (remembered in\n"
"                            --floor-dir) or bad is refused and the last\n"
"                            good one stays in force\n"
"  --floor-dir DIR           where the newest revocation list accepted is\n"
"                            remembered, one small file per reviewer key\n"
"                            (default: --state-dir); give it storage that\n"
"                            outlives a restart when the state is a tmpfs\n"
"  --lock-store DIR          the review store's locks/ (read-only): a token\n"
"                            that binds a lock runs its tree, installed\n"
"                            once per lock (npm ci, or pip for a uvx lock:\n"
"                            wheels only, hashes required; jailed) into\n"
"                            STATE/trees, checked and sealed read-only, its\n"
"                            bin started with node (a console script with\n"
"                            python3); without it such a token is refused\n"
"  --lock-uid-range F-L      the installer's own uids (needed with\n"
"                            --lock-store; apart from --uid-range)\n"
"  --require-lock            refuse every npx, uvx or uv approval that\n"
"                            binds no lock (lock_required): nothing is\n"
"                            resolved from a registry at run time\n"
"  --prefetch FILE           approval tokens, one a line: each that\n"
"                            verifies and binds a lock has its tree\n"
"                            installed and checked at start and after each\n"
"                            SIGHUP, in the background, so its first lease\n"
"                            needs no registry (with --lock-store)\n"
"  --prefetch-jobs N         trees prefetched at once (default 2, 1-16)\n"
"  --py-index URL            the package index pip installs uvx locks from\n"
"                            (its simple API; default\n"
"                            https://pypi.org/simple/; with --lock-store)\n"
"  --surface-store DIR       the review store's surfaces/ (read-only): a\n"
"                            token that pins an MCP surface has the server's\n"
"                            initialize and list answers compared with it;\n"
"                            a changed or added tool, prompt or template\n"
"                            ends the lease (ERROR mcp); without it such a\n"
"                            token is refused\n"
"  --state-dir DIR           lease HOMEs, package caches, the uid table\n"
"                            (default /var/lib/airlock-runner; in uid\n"
"                            mode no directory above it may be writable\n"
"                            by anyone but root and the runner)\n"
"  --log-format human|json   one line per lease event on stderr\n"
"  --config FILE             more of these options, one a line, without\n"
"                            dashes ('memory 512M', 'allow npx'; '#'\n"
"                            comments), read at start and again on SIGHUP;\n"
"                            strict (FILE:LINE on any error). An option is\n"
"                            given in one place: in FILE or on the command\n"
"                            line, never both. A reload changes only what\n"
"                            applies to new leases (docs/OPERATIONS.md)\n"
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
"  --allow-bind              let leases accept connections and datagrams:\n"
"                            listen(), bind() (seccomp) and TCP bind\n"
"                            (Landlock), in their own network namespace\n"
"                            (with --shared-network, from other leases\n"
"                            and the network too); off, a lease accepts\n"
"                            nothing from outside itself\n"
"  --egress-allow LIST|none  each lease has its own network namespace,\n"
"                            only loopback; its way out is the runner's\n"
"                            HTTP CONNECT proxy, to exactly these\n"
"                            host:port pairs plus its approval token's\n"
"                            (review submit --egress). The word launcher\n"
"                            stands for the launcher's package hosts:\n"
"                            npx registry.npmjs.org:443, uvx and uv\n"
"                            pypi.org:443,files.pythonhosted.org:443,\n"
"                            none for others and a locked tree (default\n"
"                            launcher; e.g. launcher,api.example.com:443).\n"
"                            Needs CAP_SYS_ADMIN\n"
"  --shared-network          leases share the runner's network namespace\n"
"                            (for a runner without CAP_SYS_ADMIN, or one\n"
"                            an AppArmor profile keeps from mounting a\n"
"                            lease's /proc: uid mode refuses that one\n"
"                            without it): an unconnected UDP socket of\n"
"                            one lease then receives other leases'\n"
"                            datagrams, /proc/net shows every lease's\n"
"                            sockets, and without CAP_SYS_ADMIN (or with\n"
"                            the profile) /proc every lease's pids;\n"
"                            egress is the network layer's, and\n"
"  --egress-ports LIST       TCP connect only to these ports, e.g. 443,80\n"
"                            (with --shared-network; Landlock ABI 4; UDP\n"
"                            is not governed)\n"
"  --ro-path DIR             also readable+executable (repeatable); the\n"
"                            system dirs, PATH dirs, launcher prefixes,\n"
"                            --script-dirs and STATE/launchers are always\n"
"                            in (see --check)\n"
"  --cgroup DIR              a delegated cgroup v2 directory; default:\n"
"                            the v1 hierarchies when writable, else the\n"
"                            v2 group it was started in when delegated\n"
"  --memory SIZE             per lease, cgroup, no swap (default 1G; 0 off)\n"
"  --pids N                  tasks per lease, cgroup (default 512; 0 off)\n"
"  --cpu CPUS                CPU bandwidth per lease, e.g. 0.5 (default off)\n"
"  --nproc N --nofile N --fsize SIZE  rlimits (default 512, 4096, 1G)\n"
"  --tmpfs SIZE              ns mode: size of the lease's /tmp and of its HOME,\n"
"                            each (default 64M; memory, counted by --memory)\n"
"  --home-size SIZE          what a lease's HOME, TMPDIR and work dir may\n"
"                            hold on the state volume (uid mode; default\n"
"                            256M; 0 off)\n"
"  --cache-size SIZE         what a registration's package cache may hold\n"
"                            (default 1G; 0 off). A lease past either is\n"
"                            ended, reason disk; a cache found past it at\n"
"                            a lease's start is emptied. Accounted by the\n"
"                            runner, not a kernel quota (docs/JAIL.md)\n"
"  --disk-reserve SIZE       space of the state volume held for new leases\n"
"                            as allocated blocks no lease can write into\n"
"                            (default 128M; 0 off): a lease starting on a\n"
"                            full volume draws on it, and one still growing\n"
"                            then is ended; with less than SIZE free a new\n"
"                            lease first evicts idle caches (at most 8,\n"
"                            least recently used, each logged); the reserve\n"
"                            spent, leases are refused: no space on the\n"
"                            state volume\n"
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
"                            every problem found named at once, each with\n"
"                            the service's own message; exit 78 if any.\n"
"                            It sweeps and removes nothing\n"
"  --help\n"
"\n"
"Refusals reach the relay as ERROR frames with stable codes (see\n"
"docs/PROTOCOL.md). SIGTERM drains: no new lease, /readyz 503, live ones\n"
"run up to --drain-timeout; SIGINT or a second SIGTERM ends them now.\n"
"SIGHUP re-reads the secrets, the reviewer key, the revocation list and\n"
"--config FILE for new leases; live leases keep theirs; anything wrong\n"
"keeps the whole configuration in force and the log says why.\n"
"\n"
"Exit status: 0 after a drain, 64 usage, 71 system error, 78\n"
"configuration (secret, --config FILE, listen address, state directory,\n"
"a jail mode or layer this host cannot honour).\n";

/* The command line's own options, beside the service's configuration. */
struct runner_cli {
	int check, check_json;
};

enum { O_CHECK = 256, O_JSON, O_CONFIG, O_SERVICE };	/* O_SERVICE + i:
							 * runner_options[i] */

/* getopt's table: the service's options (runner_config.h), then the
 * command line's own. */
static void
build_opts(struct option *opts)
{
	size_t n = 0;

	for (size_t i = 0; i < runner_noptions; i++)
		opts[n++] = (struct option){ runner_options[i].name,
		    runner_options[i].has_value ? required_argument :
		    no_argument, NULL, O_SERVICE + (int)i };
	opts[n++] = (struct option){ "check", no_argument, NULL, O_CHECK };
	opts[n++] = (struct option){ "json", no_argument, NULL, O_JSON };
	opts[n++] = (struct option){ "config", required_argument, NULL,
	    O_CONFIG };
	opts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	opts[n] = (struct option){ NULL, 0, NULL, 0 };
}

static void
parse_args(struct runner_cli *cli, struct runner_config *c, int argc,
    char **argv)
{
	static struct option opts[64];
	char err[512];
	int o;

	if (runner_noptions + 5 > sizeof opts / sizeof *opts)
		die(EXIT_SOFTWARE, "getopt table too small");
	build_opts(opts);
	runner_config_defaults(c);
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case O_CHECK: cli->check = 1; break;
		case O_JSON: cli->check_json = 1; break;
		case O_CONFIG:
			if (c->config_path)
				die(EXIT_USAGE, "--config: one file");
			c->config_path = optarg;
			break;
		case 'h': fputs(usage, stdout); exit(EXIT_OK);
		default:
			if (o < O_SERVICE ||
			    (size_t)(o - O_SERVICE) >= runner_noptions) {
				fputs(usage, stderr);
				exit(EXIT_USAGE);
			}
			if (runner_config_set(c, (size_t)(o - O_SERVICE),
			    optarg, 0, err, sizeof err) != 0)
				die(EXIT_USAGE, "%s", err);
		}
	}
	if (optind < argc)
		die(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (cli->check_json && !cli->check)
		die(EXIT_USAGE, "--json goes with --check");
	if (c->log_format)
		log_set_format(c->log_format);
}

static const char *
child_path(void)
{
	return getenv("PATH") ? getenv("PATH") : "/usr/local/bin:/usr/bin:/bin";
}

/* --check: the report, and whether the asked mode (uid by default) runs;
 * with a service configuration, then the service's own start-up checks,
 * every one of them: each problem is logged with the service's own
 * message, and any makes the exit status EXIT_CONFIG. */
static int
check(const struct runner_cli *cli, struct runner_service *r)
{
	struct jail_host h;
	struct jail_config *j = &r->cfg.jail_cfg;
	enum jail_mode want = r->cfg.jail ? j->mode : JAIL_UID;
	uid_t first, last;
	char err[1024];	/* as runner_main's: the same message, uncut */
	int rc;

	if (!j->uid_last)
		j->uid_last = 65534;	/* a probe uid when no range given */
	jail_probe(j, &h);
	jail_host_print(stdout, j, &h, cli->check_json);
	if (!cli->check_json)
		runner_service_print_network(&r->cfg, want, stdout);
	fflush(stdout);
	if (!j->check_only)
		return h.mode_ok[want] ? EXIT_OK : EXIT_CONFIG;
	jail_child_uids(j, &first, &last);
	if (r->cfg.metrics)
		xmetrics_listen_start(r->cfg.metrics, METRICS_RUNNER,
		    r->cfg.max_leases, first, last, 1);
	rc = runner_service_setup(r, err, sizeof err);	/* logs each problem */
	runner_service_end_preflight(r);
	if (cli->check_json)
		return rc;
	if (rc)
		printf("preflight: %u problem(s) above: this configuration "
		    "does not start here\n", r->problems.n);
	else
		printf("preflight: this configuration starts here\n");
	return rc;
}

int
runner_main(int argc, char **argv)
{
	static struct runner_cli c;
	static struct runner_config cmdline;
	static struct runner_service r;
	uid_t first, last;
	char err[1024];	/* the cgroup refusal alone is over 500 bytes */
	int rc;

	parse_args(&c, &cmdline, argc, argv);
	if ((rc = runner_service_configure(&r, &cmdline, c.check, err,
	    sizeof err)) != 0)
		die(rc, "%s", err);
	if (r.cfg.log_format)
		log_set_format(r.cfg.log_format);
	if ((rc = runner_service_jail_config(&r, child_path(), err,
	    sizeof err)) != 0)
		die(rc, "%s", err);
	if (c.check)
		return check(&c, &r);
	/* before the secret is loaded: the endpoint's process never has it */
	jail_child_uids(&r.cfg.jail_cfg, &first, &last);
	if (r.cfg.metrics)
		xmetrics_listen_start(r.cfg.metrics, METRICS_RUNNER,
		    r.cfg.max_leases, first, last, 0);
	if ((rc = runner_service_setup(&r, err, sizeof err)) != 0) {
		/* the jail may be made: its cgroups go before we do */
		runner_service_fini(&r);
		die(rc, "%s", err);
	}
	if (runner_service_serve(&r) != 0)
		die_errno(EXIT_OSERR, "poll");
	runner_service_fini(&r);
	return EXIT_OK;
}
