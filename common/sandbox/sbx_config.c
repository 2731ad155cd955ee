/* sbx_config.c - the sandbox service's options and their rules
 * (sbx_config.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/base/cli.h"
#include "common/base/errbuf.h"
#include "common/jail/jail_options.h"
#include "common/sandbox/sbx_config.h"

enum {
	O_LISTEN, O_SECRET, O_MAX_TIMEOUT, O_MAX_CPU, O_OLD_MAX_CPU,
	O_MAX_MEMORY, O_MAX_PIDS, O_MAX_OUTPUT, O_MAX_DISK, O_T_CONC,
	O_T_QUEUE, O_T_CPU, O_OLD_T_CPU, O_WINDOW, O_MAX_CONC, O_MAX_QUEUE,
	O_QUEUE_TIMEOUT, O_HS, O_PER_PEER, O_PREAUTH, O_EXEC, O_TIMEOUT,
	O_CPU, O_OLD_CPU, O_MEMORY, O_PIDS, O_OUTPUT, O_JAIL, O_UIDS,
	O_OLD_UIDS, O_STATE, O_CGROUP, O_LANDLOCK, O_DISK, O_PYTHON,
	O_JAVA_HOME, O_DENYLIST, O_LOG, O_METRICS, O_DRAIN, O_WARM, O_COUNT
};

/* In the order of the enum above. */
const struct optconfig_option sbx_options[] = {
	{ "listen", 1, 1, OPTCONFIG_FIXED },
	{ "secret-file", 1, 1, OPTCONFIG_RELOAD },
	{ "max-timeout", 1, 0, OPTCONFIG_RELOAD },
	{ "max-cpu-time", 1, 0, OPTCONFIG_RELOAD },
	{ "max-cpu", 1, 0, OPTCONFIG_FIXED },		/* renamed: refused */
	{ "max-memory", 1, 0, OPTCONFIG_RELOAD },
	{ "max-pids", 1, 0, OPTCONFIG_RELOAD },
	{ "max-output", 1, 0, OPTCONFIG_RELOAD },
	{ "max-disk", 1, 0, OPTCONFIG_RELOAD },
	{ "tenant-concurrency", 1, 0, OPTCONFIG_RELOAD },
	{ "tenant-queue", 1, 0, OPTCONFIG_RELOAD },
	{ "tenant-cpu-time", 1, 0, OPTCONFIG_RELOAD },
	{ "tenant-cpu", 1, 0, OPTCONFIG_FIXED },	/* renamed: refused */
	{ "cpu-window", 1, 0, OPTCONFIG_RELOAD },
	{ "max-concurrency", 1, 0, OPTCONFIG_RELOAD },
	{ "max-queue", 1, 0, OPTCONFIG_RELOAD },
	{ "queue-timeout", 1, 0, OPTCONFIG_RELOAD },
	{ "handshake-timeout", 1, 0, OPTCONFIG_RELOAD },
	{ "max-conns-per-peer", 1, 0, OPTCONFIG_RELOAD },
	{ "preauth-uid", 1, 0, OPTCONFIG_FIXED },
	{ "exec-interpreter", 1, 0, OPTCONFIG_FIXED },
	{ "timeout", 1, 0, OPTCONFIG_RELOAD },
	{ "cpu-time", 1, 0, OPTCONFIG_RELOAD },
	{ "cpu", 1, 0, OPTCONFIG_FIXED },		/* renamed: refused */
	{ "memory", 1, 0, OPTCONFIG_RELOAD },
	{ "pids", 1, 0, OPTCONFIG_RELOAD },
	{ "output", 1, 0, OPTCONFIG_RELOAD },
	{ "jail", 1, 0, OPTCONFIG_FIXED },
	{ "uid-range", 1, 0, OPTCONFIG_FIXED },
	{ "uids", 1, 0, OPTCONFIG_FIXED },	/* uid-range's old name */
	{ "state-dir", 1, 0, OPTCONFIG_FIXED },
	{ "cgroup", 1, 0, OPTCONFIG_FIXED },
	{ "landlock", 1, 0, OPTCONFIG_FIXED },
	{ "disk", 1, 0, OPTCONFIG_RELOAD },
	{ "python", 1, 0, OPTCONFIG_FIXED },
	{ "java-home", 1, 0, OPTCONFIG_FIXED },
	{ "java-denylist", 1, 0, OPTCONFIG_FIXED },
	{ "log-format", 1, 0, OPTCONFIG_FIXED },
	{ "metrics", 1, 0, OPTCONFIG_FIXED },
	{ "drain-timeout", 1, 0, OPTCONFIG_RELOAD },
	{ "warm", 1, 0, OPTCONFIG_FIXED },
};
const size_t sbx_noptions = sizeof sbx_options / sizeof *sbx_options;

static int set_value(void *cfg, size_t o, const char *v, char *err,
    size_t errlen);

const struct optconfig_service sbx_optconfig = {
	sbx_options, sizeof sbx_options / sizeof *sbx_options,
	"airlock sandbox serve --help", "the sandbox service", set_value
};

_Static_assert(sizeof sbx_options / sizeof *sbx_options == O_COUNT,
    "one sbx_options entry per option");

void
sbx_jail_opts_default(struct sbx_jail_opts *o)
{
	memset(o, 0, sizeof *o);
	o->mode = JAIL_NS;
	o->uid_first = 300000;
	o->uid_last = 300999;
	o->state_dir = "/tmp/airlock-sandbox";
	o->python = "/usr/bin/python3";
}

void
sbx_limits_default(struct sbx_limits *l)
{
	l->timeout_ms = 5000;
	l->cpu_ms = 2000;
	l->memory = 256u << 20;
	l->pids = 64;
	l->output = 1u << 20;
}

void
sbx_config_defaults(struct sbx_config *c)
{
	memset(c, 0, sizeof *c);
	sbx_jail_opts_default(&c->jo);
	sbx_limits_default(&c->sc.def);
	c->sc.max = (struct sbx_limits){ 30000, 10000, 1ull << 30, 16u << 20,
		256 };
	c->sc.max_disk = 512u << 20;
	c->sc.budget = (struct sbx_budget_config){ 4, 8, 0, 60000, 16, 64 };
	c->sc.queue_timeout_ms = 30000;
	c->sc.drain_ms = 30000;	/* the default --max-timeout: every
				 * execution may end by itself */
	c->sc.handshake_ms = 10000;
	c->sc.max_per_peer = 32;
}

static int
size(const char *name, const char *v, uint64_t *b, char *err, size_t errlen)
{
	if (cli_size_bytes(v, b) || *b > (64ull << 30))
		return errbuf_set(err, errlen, "--%s: '%s' is not a size up to 64G "
		    "(e.g. 64K, 256M)", name, v);
	return 0;
}

/* A memory limit: a size, at least SBX_MEMORY_MIN. */
static int
memory_size(const char *name, const char *v, uint64_t *b, char *err,
    size_t errlen)
{
	if (size(name, v, b, err, errlen) != 0)
		return -1;
	if (*b < SBX_MEMORY_MIN)
		return errbuf_set(err, errlen, "--%s: '%s' is under %lluM, the "
		    "smallest memory limit a tool runs under", name, v,
		    SBX_MEMORY_MIN >> 20);
	return 0;
}

/* A count from min (or "0" when zero_ok) to max. */
static int
count(const char *name, const char *v, uint64_t min, uint64_t max,
    int zero_ok, uint32_t *out, char *err, size_t errlen)
{
	uint64_t n;

	if (zero_ok && strcmp(v, "0") == 0) {
		*out = 0;
		return 0;
	}
	if (cli_count(v, min, max, &n))
		return errbuf_set(err, errlen, "--%s: '%s' is not a count from %llu "
		    "to %llu", name, v, zero_ok ? 0ull :
		    (unsigned long long)min, (unsigned long long)max);
	*out = (uint32_t)n;
	return 0;
}

/* --warm LANG=N[,LANG=N...]: the warm slots kept per language (python,
 * java). */
static int
warm_parse(struct sbx_server_config *s, const char *v, char *err,
    size_t errlen)
{
	char one[32];

	s->warm_python = s->warm_java = 0;
	while (*v) {
		uint32_t *slots;

		size_t n = strcspn(v, ",");
		char *eq;

		if (n == 0 || n >= sizeof one)
			return errbuf_set(err, errlen, "--warm: LANG=N[,LANG=N], "
			    "e.g. python=4");
		memcpy(one, v, n);
		one[n] = '\0';
		v += n + (v[n] == ',');
		if (!(eq = strchr(one, '=')))
			return errbuf_set(err, errlen, "--warm: '%s' is not LANG=N",
			    one);
		*eq = '\0';
		if (strcmp(one, "python") == 0)
			slots = &s->warm_python;
		else if (strcmp(one, "java") == 0)
			slots = &s->warm_java;
		else
			return errbuf_set(err, errlen, "--warm: '%s' is not a "
			    "language with warm slots (python, java)", one);
		if (count("warm", eq + 1, 1, 64, 0, slots, err, errlen) != 0)
			return -1;
	}
	return 0;
}

/* The sandbox's CPU-time flags once shared the runner's --cpu name, which
 * means CPU bandwidth (CPUs) there: the old names are refused, never read
 * with either meaning. */
static int
renamed(const char *old, char *err, size_t errlen)
{
	return errbuf_set(err, errlen, "--%s is now --%s-time DUR (CPU time); --cpu "
	    "means CPU bandwidth in CPUs, as in the runner", old, old);
}

int
sbx_limit_set(struct sbx_limits *l, const char *name, const char *v,
    char *err, size_t errlen)
{
	int rc;

	if (strcmp(name, "timeout") == 0)
		rc = optconfig_duration(name, v, &l->timeout_ms, err, errlen);
	else if (strcmp(name, "cpu-time") == 0)
		rc = optconfig_duration(name, v, &l->cpu_ms, err, errlen);
	else if (strcmp(name, "cpu") == 0)
		rc = renamed(name, err, errlen);
	else if (strcmp(name, "memory") == 0)
		rc = memory_size(name, v, &l->memory, err, errlen);
	else if (strcmp(name, "pids") == 0)
		rc = count(name, v, 1, 65536, 0, &l->pids, err, errlen);
	else if (strcmp(name, "output") == 0)
		rc = size(name, v, &l->output, err, errlen);
	else
		return 0;
	return rc ? -1 : 1;
}

int
sbx_jail_opt_set(struct sbx_jail_opts *o, const char *name, const char *v,
    char *err, size_t errlen)
{
	if (strcmp(name, "jail") == 0) {
		if (jail_mode_parse(v, &o->mode) != 0)
			return errbuf_set(err, errlen, "--jail: ns, uid or none");
	} else if (strcmp(name, "uid-range") == 0 ||
	    strcmp(name, "uids") == 0) {
		if (cli_uid_range(v, &o->uid_first, &o->uid_last) != 0)
			return errbuf_set(err, errlen, "--uid-range: '%s' is not "
			    "FIRST-LAST with 0 < FIRST <= LAST <= %u (e.g. "
			    "200000-265535)", v, CLI_UID_MAX);
	} else if (strcmp(name, "state-dir") == 0) {
		o->state_dir = v;
	} else if (strcmp(name, "cgroup") == 0) {
		o->cgroup = v;
	} else if (strcmp(name, "landlock") == 0) {
		if (jail_landlock_parse(v, &o->landlock) != 0)
			return errbuf_set(err, errlen, "--landlock: auto, require or "
			    "off");
	} else if (strcmp(name, "disk") == 0) {
		if (size(name, v, &o->disk, err, errlen) != 0)
			return -1;
		if (o->disk < (1u << 20))
			return errbuf_set(err, errlen, "--disk: at least 1M");
	} else if (strcmp(name, "python") == 0) {
		o->python = v;
	} else if (strcmp(name, "java-home") == 0) {
		o->java_home = v;
	} else if (strcmp(name, "java-denylist") == 0) {
		o->denylist = v;
	} else {
		return 0;
	}
	return 1;
}

/* The value into c's field for option o. */
static int
set_value(void *cfg, size_t o, const char *v, char *err, size_t errlen)
{
	struct sbx_config *c = cfg;
	struct sbx_server_config *s = &c->sc;
	struct sbx_budget_config *b = &s->budget;
	const char *name = sbx_options[o].name;
	uint32_t n = 0;
	int rc;

	if ((rc = sbx_limit_set(&s->def, name, v, err, errlen)) != 0 ||
	    (rc = sbx_jail_opt_set(&c->jo, name, v, err, errlen)) != 0)
		return rc < 0 ? -1 : 0;
	switch (o) {
	case O_LISTEN:
		if (cli_append(c->listen, &c->nlisten, SUPERVISOR_LISTEN_MAX,
		    v) != 0)
			return errbuf_set(err, errlen, "--listen: given more than %d "
			    "times", SUPERVISOR_LISTEN_MAX);
		return 0;
	case O_SECRET:
		if (cli_append(c->secret_files, &s->nsecret, SECRET_RING_MAX,
		    v) != 0)
			return errbuf_set(err, errlen, "--secret-file: given more "
			    "than %d times", SECRET_RING_MAX);
		return 0;
	case O_MAX_TIMEOUT:
		return optconfig_duration(name, v, &s->max.timeout_ms, err,
		    errlen);
	case O_MAX_CPU:
		return optconfig_duration(name, v, &s->max.cpu_ms, err,
		    errlen);
	case O_OLD_MAX_CPU: return renamed("max-cpu", err, errlen);
	case O_OLD_T_CPU: return renamed("tenant-cpu", err, errlen);
	case O_MAX_MEMORY:
		return memory_size(name, v, &s->max.memory, err, errlen);
	case O_MAX_PIDS:
		return count(name, v, 1, 65536, 0, &s->max.pids, err, errlen);
	case O_MAX_OUTPUT: return size(name, v, &s->max.output, err, errlen);
	case O_MAX_DISK:
		if (size(name, v, &s->max_disk, err, errlen) != 0)
			return -1;
		if (s->max_disk < (1u << 20))
			return errbuf_set(err, errlen, "--max-disk: at least 1M");
		return 0;
	case O_T_CONC:
		return count(name, v, 1, 10000, 0, &b->tenant_concurrent, err,
		    errlen);
	case O_T_QUEUE:
		return count(name, v, 1, 10000, 1, &b->tenant_queue, err,
		    errlen);
	case O_T_CPU:
		return optconfig_duration(name, v, &b->tenant_cpu_ms, err,
		    errlen);
	case O_WINDOW:
		return optconfig_duration(name, v, &b->window_ms, err,
		    errlen);
	case O_MAX_CONC:
		return count(name, v, 1, 10000, 0, &b->total_concurrent, err,
		    errlen);
	case O_MAX_QUEUE:
		return count(name, v, 1, 100000, 1, &b->total_queue, err,
		    errlen);
	case O_QUEUE_TIMEOUT:
		return optconfig_duration(name, v, &s->queue_timeout_ms, err,
		    errlen);
	case O_HS:
		return optconfig_duration(name, v, &s->handshake_ms, err,
		    errlen);
	case O_PER_PEER:
		return count(name, v, 1, 100000, 0, &s->max_per_peer, err,
		    errlen);
	case O_PREAUTH:
		if (count(name, v, 1, 0xfffffffdUL, 0, &n, err, errlen) != 0)
			return -1;
		s->preauth_uid = n;
		return 0;
	case O_EXEC:
		if (v[0] != '/')
			return errbuf_set(err, errlen, "--exec-interpreter: an "
			    "absolute path");
		s->exec_interpreter = v;
		return 0;
	case O_LOG:
		if (strcmp(v, "human") != 0 && strcmp(v, "json") != 0)
			return errbuf_set(err, errlen, "--log-format: human or json");
		c->log_format = v;
		return 0;
	case O_METRICS: c->metrics = v; return 0;
	case O_DRAIN:
		return optconfig_duration(name, v, &s->drain_ms, err, errlen);
	case O_WARM:
		return warm_parse(s, v, err, errlen);
	}
	return errbuf_set(err, errlen, "option %zu unknown", o);
}

int
sbx_config_set(struct sbx_config *c, size_t o, const char *v,
    unsigned line, char *err, size_t errlen)
{
	return optconfig_set(&sbx_optconfig, &c->given, c, o, v, line, err,
	    errlen);
}

int
sbx_config_apply_text(struct sbx_config *c, const char *path,
    char *buf, size_t len, char *err, size_t errlen)
{
	return optconfig_apply(&sbx_optconfig, &c->given, c, path, buf, len,
	    err, errlen);
}

int
sbx_config_load(struct sbx_config *c, const char *path, char *err,
    size_t errlen)
{
	return optconfig_load(&sbx_optconfig, &c->given, c, path,
	    &c->file_buf, &c->config_path, err, errlen);
}

static void
lower(uint64_t *v, uint64_t max)
{
	if (*v > max)
		*v = max;
}

int
sbx_config_finish(struct sbx_config *c, char *err, size_t errlen)
{
	struct sbx_server_config *s = &c->sc;

	if (c->nlisten == 0)
		return errbuf_set(err, errlen, "no --listen address given");
	if (c->jo.mode != JAIL_NONE && s->preauth_uid >= c->jo.uid_first &&
	    s->preauth_uid <= c->jo.uid_last)
		return errbuf_set(err, errlen, "--preauth-uid %u is in --uid-range: "
		    "executions must never share the pre-auth process's uid",
		    s->preauth_uid);
	if (c->jo.mode != JAIL_NONE && !s->preauth_uid) {
		/* the range's first uid runs the pre-auth process */
		if (c->jo.uid_first == c->jo.uid_last)
			return errbuf_set(err, errlen, "--uid-range needs two uids at "
			    "least: the first runs the pre-auth process (or "
			    "give --preauth-uid)");
		s->preauth_uid = c->jo.uid_first++;
	}
	/* defaults above a maximum are lowered to it, said once */
	lower(&s->def.timeout_ms, s->max.timeout_ms);
	lower(&s->def.cpu_ms, s->max.cpu_ms);
	lower(&s->def.memory, s->max.memory);
	lower(&s->def.output, s->max.output);
	if (s->def.pids > s->max.pids)
		s->def.pids = s->max.pids;
	if (c->jo.disk > s->max_disk)
		return errbuf_set(err, errlen, "--disk %llu is over --max-disk %llu",
		    (unsigned long long)c->jo.disk,
		    (unsigned long long)s->max_disk);
	s->disk = c->jo.disk;
	s->secret_files = c->secret_files;
	/* each waiting slot holds up to --memory: the cap on them all */
	if (s->warm_python + s->warm_java > s->budget.total_concurrent)
		return errbuf_set(err, errlen, "--warm: %u slots are over "
		    "--max-concurrency %u: a warm slot waits for one execution",
		    s->warm_python + s->warm_java, s->budget.total_concurrent);
	if (s->warm_python + s->warm_java && c->jo.mode == JAIL_NONE)
		return errbuf_set(err, errlen, "--warm needs a jail (--jail ns "
		    "or uid): a slot is a prepared jail");
	return 0;
}

const char *
sbx_config_fixed_change(const struct sbx_config *old,
    const struct sbx_config *new)
{
	return optconfig_fixed_change(&sbx_optconfig, &old->given,
	    &new->given);
}
