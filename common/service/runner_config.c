/* runner_config.c - the runner's options and their rules
 * (runner_config.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/cli.h"
#include "common/base/errbuf.h"
#include "common/base/xwrap.h"
#include "common/jail/jail_options.h"
#include "common/lock/pytree.h"
#include "common/service/optconfig.h"
#include "common/service/runner_config.h"

enum {
	O_LISTEN, O_SECRET, O_JAIL, O_ALLOW, O_SCRIPTS, O_INDEX, O_MODULE,
	O_MAXL, O_MAXT, O_MAXP, O_HS, O_PREAUTH, O_GRACE, O_PING, O_LIVE,
	O_STATE, O_PUBKEY, O_REVOKED, O_LOG, O_UIDS, O_UNIT, O_LANDLOCK,
	O_BIND, O_EGRESS, O_EGRESS_ALLOW, O_SHARED_NET, O_RO, O_CGROUP,
	O_MEM, O_PIDS, O_CPU, O_NPROC, O_NOFILE, O_FSIZE, O_TMPFS, O_METRICS,
	O_DRAIN,
	O_HOME_SIZE, O_CACHE_SIZE, O_DISK_RESERVE, O_MAX_LEASE, O_LOCK_STORE,
	O_LOCK_UIDS, O_REQUIRE_LOCK, O_PREFETCH, O_PREFETCH_JOBS,
	O_SURFACE_STORE, O_PY_INDEX, O_FLOOR_DIR, O_COUNT
};

/* In the order of the enum above. */
const struct optconfig_option runner_options[] = {
	{ "listen", 1, 1, OPTCONFIG_FIXED },
	{ "secret-file", 1, 1, OPTCONFIG_RELOAD },
	{ "jail", 1, 0, OPTCONFIG_FIXED },
	{ "allow", 1, 0, OPTCONFIG_RELOAD },
	{ "script-dir", 1, 1, OPTCONFIG_FIXED },
	{ "allow-index", 1, 1, OPTCONFIG_RELOAD },
	{ "allow-module", 1, 1, OPTCONFIG_RELOAD },
	{ "max-leases", 1, 0, OPTCONFIG_RELOAD },
	{ "max-leases-per-tenant", 1, 0, OPTCONFIG_RELOAD },
	{ "max-conns-per-peer", 1, 0, OPTCONFIG_RELOAD },
	{ "handshake-timeout", 1, 0, OPTCONFIG_RELOAD },
	{ "preauth-uid", 1, 0, OPTCONFIG_FIXED },
	{ "kill-grace", 1, 0, OPTCONFIG_RELOAD },
	{ "ping-interval", 1, 0, OPTCONFIG_RELOAD },
	{ "liveness-timeout", 1, 0, OPTCONFIG_RELOAD },
	{ "state-dir", 1, 0, OPTCONFIG_FIXED },
	{ "review-pubkey", 1, 0, OPTCONFIG_SWAP },
	{ "revocations", 1, 0, OPTCONFIG_SWAP },
	{ "log-format", 1, 0, OPTCONFIG_FIXED },
	{ "uid-range", 1, 0, OPTCONFIG_FIXED },
	{ "uid-unit", 1, 0, OPTCONFIG_FIXED },
	{ "landlock", 1, 0, OPTCONFIG_FIXED },
	{ "allow-bind", 0, 0, OPTCONFIG_FIXED },
	{ "egress-ports", 1, 0, OPTCONFIG_FIXED },
	{ "egress-allow", 1, 0, OPTCONFIG_RELOAD },
	{ "shared-network", 0, 0, OPTCONFIG_FIXED },
	{ "ro-path", 1, 1, OPTCONFIG_FIXED },
	{ "cgroup", 1, 0, OPTCONFIG_FIXED },
	{ "memory", 1, 0, OPTCONFIG_RELOAD },
	{ "pids", 1, 0, OPTCONFIG_RELOAD },
	{ "cpu", 1, 0, OPTCONFIG_RELOAD },
	{ "nproc", 1, 0, OPTCONFIG_RELOAD },
	{ "nofile", 1, 0, OPTCONFIG_RELOAD },
	{ "fsize", 1, 0, OPTCONFIG_RELOAD },
	{ "tmpfs", 1, 0, OPTCONFIG_RELOAD },
	{ "metrics", 1, 0, OPTCONFIG_FIXED },
	{ "drain-timeout", 1, 0, OPTCONFIG_RELOAD },
	{ "home-size", 1, 0, OPTCONFIG_RELOAD },
	{ "cache-size", 1, 0, OPTCONFIG_RELOAD },
	{ "disk-reserve", 1, 0, OPTCONFIG_RELOAD },
	{ "max-lease-duration", 1, 0, OPTCONFIG_RELOAD },
	{ "lock-store", 1, 0, OPTCONFIG_FIXED },
	{ "lock-uid-range", 1, 0, OPTCONFIG_FIXED },
	{ "require-lock", 0, 0, OPTCONFIG_FIXED },
	{ "prefetch", 1, 0, OPTCONFIG_RELOAD },
	{ "prefetch-jobs", 1, 0, OPTCONFIG_RELOAD },
	{ "surface-store", 1, 0, OPTCONFIG_FIXED },
	{ "py-index", 1, 0, OPTCONFIG_FIXED },
	{ "floor-dir", 1, 0, OPTCONFIG_FIXED },
};
const size_t runner_noptions = sizeof runner_options / sizeof *runner_options;

static int set_value(void *cfg, size_t o, const char *v, char *err,
    size_t errlen);

const struct optconfig_service runner_optconfig = {
	runner_options, sizeof runner_options / sizeof *runner_options,
	"airlock runner --help", "the runner", set_value
};

_Static_assert(sizeof runner_options / sizeof *runner_options == O_COUNT,
    "one runner_options entry per option");

void
runner_config_defaults(struct runner_config *c)
{
	memset(c, 0, sizeof *c);
	c->max_leases = 64;
	c->max_per_tenant = 16;
	c->max_per_peer = 32;
	c->handshake_ms = 5000;
	c->grace_ms = 2000;
	c->drain_ms = 120000;
	c->max_lease_ms = 86400000;	/* a day: lifted up to 30d */
	c->ping_ms = 10000;
	c->liveness_ms = 30000;
	c->state_dir = "/var/lib/airlock-runner";
	c->prefetch_jobs = 2;
	c->jail_cfg.limits = (struct jail_limits){ .memory = 1ull << 30,
		.pids = 512, .nproc = 512, .nofile = 4096,
		.fsize = 1ull << 30, .tmpfs = 64ull << 20,
		.home_size = 256ull << 20, .cache_size = 1ull << 30,
		.disk_reserve = 128ull << 20 };
}

static int
count_opt(const char *name, const char *val, uint64_t *n, char *err,
    size_t errlen)
{
	if (cli_count(val, 1, 100000, n))
		return errbuf_set(err, errlen, "--%s: '%s' is not a count from 1 to "
		    "100000", name, val);
	return 0;
}

/* A limit: "0" for none, else a size (512M, 2G) or a count. */
static int
limit_opt(const char *name, const char *val, int size, uint64_t *out,
    char *err, size_t errlen)
{
	if (strcmp(val, "0") == 0) {
		*out = 0;
		return 0;
	}
	if (size ? cli_size_bytes(val, out) : cli_count(val, 1, 1000000, out))
		return errbuf_set(err, errlen, size ? "--%s: '%s' is not a size "
		    "(e.g. 512M, 2G, or 0 for none)" : "--%s: '%s' is not a "
		    "count from 0 to 1000000", name, val);
	return 0;
}

/* "1.5" CPUs in thousandths. */
static int
cpu_opt(const char *val, uint64_t *milli, char *err, size_t errlen)
{
	char *end;
	double v = strtod(val, &end);

	/* written so that a NaN ("nan") fails it too */
	if (end == val || *end || !(v >= 0 && v <= 1024))
		return errbuf_set(err, errlen, "--cpu: '%s' is not a number of CPUs "
		    "(e.g. 0.5, 2; 0 for none)", val);
	*milli = (uint64_t)(v * 1000 + 0.5);
	if (v > 0 && *milli < 10)
		return errbuf_set(err, errlen, "--cpu: at least 0.01");
	return 0;
}

static int
append(const char **list, size_t *n, size_t max, const char *value,
    const char *name, char *err, size_t errlen)
{
	if (cli_append(list, n, max, value) != 0)
		return errbuf_set(err, errlen, "--%s: given more than %zu times (the "
		    "most it takes)", name, max);
	return 0;
}

/* The value into c's field for option o. */
static int
set_value(void *cfg, size_t o, const char *v, char *err, size_t errlen)
{
	struct runner_config *c = cfg;
	struct jail_config *j = &c->jail_cfg;
	struct jail_limits *lim = &j->limits;
	const char *name = runner_options[o].name, *why;
	long np;
	uint64_t n;

	switch (o) {
	case O_LISTEN:
		return append(c->listen, &c->nlisten, SUPERVISOR_LISTEN_MAX,
		    v, name, err, errlen);
	case O_SECRET:
		return append(c->secret_files, &c->nsecret, SECRET_RING_MAX,
		    v, name, err, errlen);
	case O_JAIL:
		if (jail_mode_parse(v, &j->mode))
			return errbuf_set(err, errlen, "--jail %s: unknown mode (uid, "
			    "ns or none)", v);
		c->jail = v;
		return 0;
	case O_ALLOW: c->allow = v; return 0;
	case O_SCRIPTS: case O_INDEX: case O_MODULE:
		if (c->nguard_items == 3 * GUARD_LIST_MAX)
			return errbuf_set(err, errlen, "too many --script-dir, "
			    "--allow-index, --allow-module");
		c->guard_items[c->nguard_items].list = o == O_SCRIPTS ?
		    GUARD_SCRIPT_DIR : o == O_INDEX ? GUARD_INDEX :
		    GUARD_MODULE;
		c->guard_items[c->nguard_items++].value = v;
		return 0;
	case O_MAXL: case O_MAXT: case O_MAXP:
		return count_opt(name, v, o == O_MAXL ? &c->max_leases :
		    o == O_MAXT ? &c->max_per_tenant : &c->max_per_peer, err,
		    errlen);
	case O_HS:
		return optconfig_duration(name, v, &c->handshake_ms, err,
		    errlen);
	case O_PREAUTH:
		if (cli_count(v, 1, 0xfffffffdUL, &c->preauth_uid))
			return errbuf_set(err, errlen, "--preauth-uid: '%s' is not a "
			    "uid from 1", v);
		return 0;
	case O_GRACE:
		return optconfig_duration(name, v, &c->grace_ms, err,
		    errlen);
	case O_PING:
		return optconfig_duration(name, v, &c->ping_ms, err,
		    errlen);
	case O_LIVE:
		return optconfig_duration(name, v, &c->liveness_ms, err,
		    errlen);
	case O_DRAIN:
		return optconfig_duration(name, v, &c->drain_ms, err,
		    errlen);
	case O_MAX_LEASE:
		if (cli_duration_ms(v, &c->max_lease_ms) ||
		    c->max_lease_ms == 0 || c->max_lease_ms > 2592000000ull)
			return errbuf_set(err, errlen, "--%s: '%s' is not a "
			    "duration from 1ms up to 30d (e.g. 12h, 7d)", name,
			    v);
		return 0;
	case O_STATE: c->state_dir = v; return 0;
	case O_PUBKEY: c->review_pubkey = v; return 0;
	case O_REVOKED: c->revocations = v; return 0;
	case O_FLOOR_DIR: c->floor_dir = v; return 0;
	case O_LOCK_STORE: c->lock_store = v; return 0;
	case O_SURFACE_STORE: c->surface_store = v; return 0;
	case O_PY_INDEX:
		if ((why = pytree_index_refusal(v)) != NULL)
			return errbuf_set(err, errlen, "--py-index '%.200s': "
			    "%s", v, why);
		c->py_index = v;
		return 0;
	case O_LOCK_UIDS:
		if (cli_uid_range(v, &c->lock_uid_first, &c->lock_uid_last))
			return errbuf_set(err, errlen, "--lock-uid-range: '%s' is "
			    "not FIRST-LAST (e.g. 270000-270015)", v);
		return 0;
	case O_REQUIRE_LOCK: c->require_lock = 1; return 0;
	case O_PREFETCH: c->prefetch = v; return 0;
	case O_PREFETCH_JOBS:
		if (cli_count(v, 1, 16, &n))
			return errbuf_set(err, errlen, "--prefetch-jobs: "
			    "'%s' is not a count from 1 to 16", v);
		c->prefetch_jobs = (unsigned)n;
		return 0;
	case O_LOG:
		if (strcmp(v, "human") != 0 && strcmp(v, "json") != 0)
			return errbuf_set(err, errlen, "--log-format: human or json");
		c->log_format = v;
		return 0;
	case O_UIDS:
		if (cli_uid_range(v, &j->uid_first, &j->uid_last) != 0)
			return errbuf_set(err, errlen, "--uid-range: '%s' is not "
			    "FIRST-LAST with 0 < FIRST <= LAST <= %u (e.g. "
			    "200000-265535)", v, CLI_UID_MAX);
		return 0;
	case O_UNIT:
		if (jail_unit_parse(v, &j->unit))
			return errbuf_set(err, errlen, "--uid-unit: registration or "
			    "lease");
		return 0;
	case O_LANDLOCK:
		if (jail_landlock_parse(v, &j->landlock))
			return errbuf_set(err, errlen, "--landlock: auto, require or "
			    "off");
		return 0;
	case O_BIND: j->allow_bind = 1; return 0;
	case O_EGRESS:
		np = jail_ports_parse(v, c->ports, JAIL_PORTS_MAX);
		if (np < 0)
			return errbuf_set(err, errlen, "--egress-ports: '%s' is not a "
			    "list of ports (e.g. 443,80)", v);
		j->negress = (size_t)np;
		return 0;
	case O_EGRESS_ALLOW: c->egress_allow = v; return 0;
	case O_SHARED_NET: c->shared_network = 1; return 0;
	case O_RO:
		if (j->nro == JAIL_PATHS_MAX)
			return errbuf_set(err, errlen, "at most %d --ro-path",
			    JAIL_PATHS_MAX);
		c->ro_paths[j->nro++] = v;
		return 0;
	case O_CGROUP: j->cgroup_dir = v; return 0;
	case O_MEM: c->limits_given = 1;
		return limit_opt(name, v, 1, &lim->memory, err, errlen);
	case O_PIDS: c->limits_given = 1;
		return limit_opt(name, v, 0, &lim->pids, err, errlen);
	case O_CPU: c->limits_given = 1;
		return cpu_opt(v, &lim->cpu_millicpus, err, errlen);
	case O_NPROC: return limit_opt(name, v, 0, &lim->nproc, err, errlen);
	case O_NOFILE:
		return limit_opt(name, v, 0, &lim->nofile, err, errlen);
	case O_FSIZE: return limit_opt(name, v, 1, &lim->fsize, err, errlen);
	case O_TMPFS: return limit_opt(name, v, 1, &lim->tmpfs, err, errlen);
	case O_HOME_SIZE:
		return limit_opt(name, v, 1, &lim->home_size, err, errlen);
	case O_CACHE_SIZE:
		return limit_opt(name, v, 1, &lim->cache_size, err, errlen);
	case O_DISK_RESERVE:
		return limit_opt(name, v, 1, &lim->disk_reserve, err, errlen);
	case O_METRICS: c->metrics = v; return 0;
	}
	return errbuf_set(err, errlen, "option %zu unknown", o);
}

int
runner_config_set(struct runner_config *c, size_t o, const char *v,
    unsigned line, char *err, size_t errlen)
{
	return optconfig_set(&runner_optconfig, &c->given, c, o, v, line, err,
	    errlen);
}

int
runner_config_apply_text(struct runner_config *c, const char *path,
    char *buf, size_t len, char *err, size_t errlen)
{
	return optconfig_apply(&runner_optconfig, &c->given, c, path, buf, len,
	    err, errlen);
}

int
runner_config_load(struct runner_config *c, const char *path, char *err,
    size_t errlen)
{
	return optconfig_load(&runner_optconfig, &c->given, c, path,
	    &c->file_buf, &c->config_path, err, errlen);
}

int
runner_config_finish(struct runner_config *c, int check, char *err,
    size_t errlen)
{
	struct jail_config *j = &c->jail_cfg;
	unsigned preauth_in_range = 0;	/* the range's first uid taken */

	j->ro_paths = c->ro_paths;
	j->egress_ports = j->negress ? c->ports : NULL;
	c->preflight = check;
	if (check && c->nlisten == 0 && !c->nsecret)
		return 0;	/* the host report alone */
	j->check_only = check;
	if (c->nlisten == 0)
		return errbuf_set(err, errlen, "no --listen address given"),
		    EXIT_USAGE;
	if (!c->jail)
		return errbuf_set(err, errlen, "no --jail mode given: choose uid or "
		    "ns (see 'airlock runner --check' for what this host "
		    "supports), or none for development (no isolation "
		    "between leases)"), EXIT_USAGE;
	if (j->mode != JAIL_NONE && !j->uid_first)
		return errbuf_set(err, errlen, "--jail %s needs --uid-range "
		    "FIRST-LAST: uids no other process on this host uses",
		    c->jail), EXIT_USAGE;
	if (j->uid_first && c->preauth_uid >= j->uid_first &&
	    c->preauth_uid <= j->uid_last)
		return errbuf_set(err, errlen, "--preauth-uid %llu is in "
		    "--uid-range: leases must never share the pre-auth "
		    "process's uid", (unsigned long long)c->preauth_uid),
		    EXIT_USAGE;
	if (j->uid_first && !c->preauth_uid) {
		/* the range's first uid runs the pre-auth process */
		preauth_in_range = 1;
		if (j->uid_first == j->uid_last)
			return errbuf_set(err, errlen, "--uid-range needs two uids "
			    "at least: the first runs the pre-auth process (or "
			    "give --preauth-uid)"), EXIT_USAGE;
		c->preauth_uid = j->uid_first++;
	}
	if (j->mode == JAIL_NONE) {
		if (c->limits_given || j->cgroup_dir || j->negress ||
		    j->allow_bind || j->landlock == JAIL_LANDLOCK_REQUIRE ||
		    c->egress_allow || c->shared_network)
			return errbuf_set(err, errlen, "--jail none applies no jail: "
			    "limits, --cgroup, Landlock and network options "
			    "need uid or ns"), EXIT_USAGE;
		j->limits = (struct jail_limits){ 0 };
	}
	if (c->surface_store && !c->review_pubkey)
		return errbuf_set(err, errlen, "--surface-store needs "
		    "--review-pubkey"), EXIT_USAGE;
	/* each lease's own network namespace unless --shared-network */
	if (c->shared_network && c->egress_allow)
		return errbuf_set(err, errlen, "--egress-allow needs each "
		    "lease's own network namespace: drop --shared-network (or "
		    "--egress-allow)"), EXIT_USAGE;
	if (j->mode != JAIL_NONE && !c->shared_network && j->negress)
		return errbuf_set(err, errlen, "--egress-ports governs a "
		    "network namespace the leases share: add "
		    "--shared-network, or drop it (each lease has its own "
		    "namespace by default, its way out the egress proxy: name "
		    "hosts in --egress-allow)"), EXIT_USAGE;
	if (c->revocations && !c->review_pubkey)
		return errbuf_set(err, errlen, "--revocations needs --review-pubkey"),
		    EXIT_USAGE;
	if (c->lock_store && (!c->review_pubkey || !c->lock_uid_first ||
	    j->mode == JAIL_NONE))
		return errbuf_set(err, errlen, "--lock-store needs "
		    "--review-pubkey, --lock-uid-range (the installer's own "
		    "uids) and --jail uid or ns"), EXIT_USAGE;
	if (!c->lock_store && c->lock_uid_first)
		return errbuf_set(err, errlen, "--lock-uid-range goes with "
		    "--lock-store"), EXIT_USAGE;
	if (!c->lock_store && (c->require_lock || c->prefetch ||
	    c->py_index))
		return errbuf_set(err, errlen, "--require-lock, --prefetch and "
		    "--py-index go with --lock-store"), EXIT_USAGE;
	if (c->lock_store && c->lock_uid_first <= j->uid_last &&
	    c->lock_uid_last >= j->uid_first - preauth_in_range)
		return errbuf_set(err, errlen, "--lock-uid-range must not "
		    "overlap --uid-range (nor its pre-auth uid)"), EXIT_USAGE;
	/* a --preauth-uid given is outside --uid-range, not yet outside
	 * this one */
	if (c->lock_store && c->preauth_uid >= c->lock_uid_first &&
	    c->preauth_uid <= c->lock_uid_last)
		return errbuf_set(err, errlen, "--preauth-uid %llu is in "
		    "--lock-uid-range: the installer's jails must never share "
		    "the pre-auth process's uid",
		    (unsigned long long)c->preauth_uid), EXIT_USAGE;
	if (c->liveness_ms <= c->ping_ms)
		return errbuf_set(err, errlen, "--liveness-timeout must exceed "
		    "--ping-interval"), EXIT_USAGE;
	return 0;
}

const char *
runner_config_fixed_change(const struct runner_config *old,
    const struct runner_config *new)
{
	return optconfig_fixed_change(&runner_optconfig, &old->given,
	    &new->given);
}

void
runner_config_take_reloadable(struct runner_config *dst,
    const struct runner_config *src)
{
	memcpy(dst->secret_files, src->secret_files, sizeof dst->secret_files);
	dst->nsecret = src->nsecret;
	dst->allow = src->allow;
	memcpy(dst->guard_items, src->guard_items, sizeof dst->guard_items);
	dst->nguard_items = src->nguard_items;
	dst->max_leases = src->max_leases;
	dst->max_per_tenant = src->max_per_tenant;
	dst->max_per_peer = src->max_per_peer;
	dst->handshake_ms = src->handshake_ms;
	dst->grace_ms = src->grace_ms;
	dst->ping_ms = src->ping_ms;
	dst->liveness_ms = src->liveness_ms;
	dst->drain_ms = src->drain_ms;
	dst->max_lease_ms = src->max_lease_ms;
	dst->review_pubkey = src->review_pubkey;
	dst->revocations = src->revocations;
	dst->egress_allow = src->egress_allow;
	dst->prefetch = src->prefetch;
	dst->prefetch_jobs = src->prefetch_jobs;
	dst->jail_cfg.limits = src->jail_cfg.limits;
	dst->limits_given = src->limits_given;
	dst->given = src->given;
	dst->file_buf = src->file_buf;
}
