/* metrics.c - shared counters and their Prometheus text. */
#include "common/service/metrics.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "common/mcp/mcplabels.h"
#include "common/sandbox/sbx_proto.h"

static const char *const end_labels[] = {
	"exited", "oom", "pids", "shutdown", "relay_closed", "liveness",
	"refused", "error", "disk", "stdin_closed", "max_duration"
};
static const char *const refusal_labels[] = {	/* by LERR_* number */
	"none", "bad_request", "launcher", "inline_code", "env", "approval",
	"capacity", "tenant_capacity", "peer_capacity", "spawn", "jail",
	"protocol", "timeout", "shutdown", "internal", "argv", "max_duration",
	"mcp"
};
static const char *const stream_labels[] = { "stdin", "stdout", "stderr" };
static const char *const limit_labels[] = { "memory", "pids" };
static const char *const lang_labels[] = { "python", "java", "exec" };
static const char *const egress_labels[] = {	/* by enum egress_verdict */
	"allowed", "not_listed", "address", "bad_request", "resolve_failed",
	"connect_failed", "incomplete"
};
static const char *const direction_labels[] = { "up", "down" };
static const char *const budget_labels[] = {
	"tenant_concurrency", "tenant_queue", "tenant_cpu", "total_queue",
	"queue_timeout"
};

static const char *const warm_labels[] = { "warm", "unfit" };

#define N(a) (sizeof (a) / sizeof *(a))
#define R METRICS_RUNNER
#define S METRICS_SANDBOX

/* One metric: its name after the prefix, help, type, and up to two label
 * dimensions (the first varies slowest). */
struct metric_def {
	unsigned services;	/* METRICS_RUNNER | METRICS_SANDBOX */
	const char *name, *help, *type;
	const char *label1;
	const char *const *values1;
	unsigned n1;
	const char *label2;
	const char *const *values2;
	unsigned n2;
};

static const struct metric_def defs[M_NMETRIC_] = {
	[M_LEASES_ACTIVE] = { R | S, "leases_active", "Leases (or executions) "
	    "being served now.", "gauge", NULL, NULL, 1, NULL, NULL, 1 },
	[M_LEASES_TOTAL] = { R, "leases_total", "Leases ended, by how they "
	    "ended.", "counter", "end", end_labels, N(end_labels), NULL,
	    NULL, 1 },
	[M_REFUSALS_TOTAL] = { R, "refusals_total", "Requests refused, by "
	    "protocol error code.", "counter", "code", refusal_labels,
	    N(refusal_labels), NULL, NULL, 1 },
	[M_HANDSHAKE_FAILURES] = { R | S, "handshake_failures_total", "Connections "
	    "that failed or timed out in the handshake.", "counter", NULL,
	    NULL, 1, NULL, NULL, 1 },
	[M_CONNECTIONS_DROPPED] = { R | S, "connections_dropped_total",
	    "Connections closed unread: no slot left.", "counter", NULL,
	    NULL, 1, NULL, NULL, 1 },
	[M_HANDSHAKES_PENDING] = { R | S, "handshakes_pending", "Connections in "
	    "their handshake now.", "gauge", NULL, NULL, 1, NULL, NULL, 1 },
	[M_LEASE_BYTES] = { R, "bytes_total", "Payload bytes relayed, by "
	    "stream.", "counter", "stream", stream_labels, N(stream_labels),
	    NULL, NULL, 1 },
	[M_JAIL_FAILURES] = { R | S, "jail_failures_total", "Jails that could not "
	    "be built (a step failed).", "counter", NULL, NULL, 1, NULL,
	    NULL, 1 },
	[M_CGROUP_KILLS] = { R | S, "cgroup_limit_hits_total", "Leases or "
	    "executions that hit a cgroup limit.", "counter", "limit",
	    limit_labels, N(limit_labels), NULL, NULL, 1 },
	[M_SBX_EXECUTIONS] = { S, "executions_total", "Sandbox executions, by "
	    "language and why they ended.", "counter", "language",
	    lang_labels, N(lang_labels), "reason", sbx_reason_names,
	    SBX_REASON_MAX_ },
	[M_SBX_BUDGET_REFUSALS] = { S, "budget_refusals_total", "Requests "
	    "refused by a budget.", "counter", "budget", budget_labels,
	    N(budget_labels), NULL, NULL, 1 },
	[M_READY] = { R | S, "ready", "1 when the service accepts new work (what "
	    "/readyz answers).", "gauge", NULL, NULL, 1, NULL, NULL, 1 },
	[M_DRAINING] = { R | S, "draining", "1 while draining after SIGTERM.",
	    "gauge", NULL, NULL, 1, NULL, NULL, 1 },
	[M_CAPACITY] = { R | S, "capacity", "The most leases (or executions) at "
	    "once.", "gauge", NULL, NULL, 1, NULL, NULL, 1 },
	[M_EGRESS_CONNECTIONS] = { R, "egress_connections_total", "Egress "
	    "proxy connections, by verdict.", "counter", "verdict",
	    egress_labels, N(egress_labels), NULL, NULL, 1 },
	[M_SBX_WARM_IDLE] = { S, "warm_slots_idle", "Warm slots prepared "
	    "and waiting for an execution (--warm).", "gauge", NULL, NULL, 1,
	    NULL, NULL, 1 },
	[M_SBX_WARM_BYTES] = { S, "warm_slots_memory_bytes", "Memory the "
	    "waiting warm slots' cgroups hold (each capped by --memory).",
	    "gauge", NULL, NULL, 1, NULL, NULL, 1 },
	[M_SBX_WARM_STARTS] = { S, "warm_starts_total", "Executions a "
	    "keeper of a warm slot served: warm (the slot took it) or unfit "
	    "(its settings differ: destroyed unused, started cold).",
	    "counter", "start", warm_labels, N(warm_labels), NULL, NULL, 1 },
	[M_EGRESS_BYTES] = { R, "egress_bytes_total", "Bytes tunnelled by "
	    "the egress proxy: up (lease to host) and down.", "counter",
	    "direction", direction_labels, N(direction_labels), NULL, NULL,
	    1 },
	[M_MCP_CALLS] = { R, "mcp_tool_calls_total", "MCP tools/call "
	    "requests, by how they ended (one log record each).", "counter",
	    "outcome", mcp_outcome_names, MO_N_, NULL, NULL, 1 },
	[M_MCP_LINES_IGNORED] = { R, "mcp_lines_ignored_total", "MCP lines "
	    "the runner's tap could not use, by why and direction.",
	    "counter", "reason", mcp_ignored_names, MI_N_, "direction",
	    mcp_direction_names, 2 },
	[M_MCP_PIN_FAILURES] = { R, "mcp_pin_failures_total", "Leases "
	    "ended because a server's answer differed from its approval's "
	    "surface pin, by how and in what.", "counter", "kind",
	    mcp_pin_kind_names, MPK_N_, "item", mcp_pin_item_names, MPI_N_ },
};

/* Histogram bucket bounds in milliseconds (+Inf is implied). */
static const uint64_t spawn_bounds[] = { 1, 5, 10, 25, 50, 100, 250, 500,
	1000, 2500, 5000, 10000 };
static const uint64_t long_bounds[] = { 100, 1000, 10000, 60000, 300000,
	900000, 3600000, 14400000 };
#define HIST_BUCKETS_MAX 13

static const struct hist_def {
	unsigned services;
	const char *name, *help;
	const uint64_t *bounds;
	unsigned n;
} hdefs[MH_NHIST_] = {
	[MH_SPAWN_SECONDS] = { R, "spawn_seconds", "From the request to the "
	    "child running (jail included).", spawn_bounds, N(spawn_bounds) },
	[MH_LEASE_SECONDS] = { R, "lease_duration_seconds", "How long leases "
	    "lasted.", long_bounds, N(long_bounds) },
	[MH_SBX_SECONDS] = { S, "execution_seconds", "Sandbox executions' wall "
	    "time.", spawn_bounds, N(spawn_bounds) },
};

#define SLOTS_MAX 64	/* the widest metric: language x reason = 33 */

struct shared {
	uint64_t v[M_NMETRIC_][SLOTS_MAX];
	struct {
		uint64_t bucket[HIST_BUCKETS_MAX];	/* cumulative at render */
		uint64_t sum_ms;
	} h[MH_NHIST_];
};

static struct shared *shm;
static const char *prefix = "service";
static unsigned service;

int
metrics_open(enum metrics_service which)
{
	void *p = mmap(NULL, sizeof *shm, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	shm = p;
	service = which;
	prefix = which == METRICS_SANDBOX ? "sandbox" : "runner";
	return 0;
}

static uint64_t *
slot(enum metric m, unsigned label)
{
	if (!shm || (unsigned)m >= M_NMETRIC_ ||
	    label >= defs[m].n1 * defs[m].n2)
		return NULL;
	return &shm->v[m][label];
}

void
metric_add(enum metric m, unsigned label, uint64_t n)
{
	uint64_t *s = slot(m, label);

	if (s)
		__atomic_fetch_add(s, n, __ATOMIC_RELAXED);
}

void
metric_set(enum metric m, unsigned label, uint64_t v)
{
	uint64_t *s = slot(m, label);

	if (s)
		__atomic_store_n(s, v, __ATOMIC_RELAXED);
}

uint64_t
metric_get(enum metric m, unsigned label)
{
	uint64_t *s = slot(m, label);

	return s ? __atomic_load_n(s, __ATOMIC_RELAXED) : 0;
}

void
metric_observe(enum metric_hist h, uint64_t ms)
{
	unsigned b = 0;

	if (!shm || (unsigned)h >= MH_NHIST_)
		return;
	while (b < hdefs[h].n && ms > hdefs[h].bounds[b])
		b++;
	__atomic_fetch_add(&shm->h[h].bucket[b], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&shm->h[h].sum_ms, ms, __ATOMIC_RELAXED);
}

/* The text writer: appends, remembers overflow. */
struct out {
	char *p;
	size_t cap, len;
	int full;
};

__attribute__((format(printf, 2, 3))) static void
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->cap - o->len)
		o->full = 1;
	else
		o->len += (size_t)n;
}

/* Milliseconds as seconds with three decimals. */
static void
put_seconds(struct out *o, uint64_t ms)
{
	put(o, "%llu.%03llu", (unsigned long long)(ms / 1000),
	    (unsigned long long)(ms % 1000));
}

static void
render_metric(struct out *o, enum metric m)
{
	const struct metric_def *d = &defs[m];

	put(o, "# HELP airlock_%s_%s %s\n# TYPE airlock_%s_%s %s\n", prefix,
	    d->name, d->help, prefix, d->name, d->type);
	for (unsigned i = 0; i < d->n1; i++)
		for (unsigned j = 0; j < d->n2; j++) {
			uint64_t v = metric_get(m, i * d->n2 + j);

			put(o, "airlock_%s_%s", prefix, d->name);
			if (d->label1 && d->label2)
				put(o, "{%s=\"%s\",%s=\"%s\"}", d->label1,
				    d->values1[i], d->label2, d->values2[j]);
			else if (d->label1)
				put(o, "{%s=\"%s\"}", d->label1, d->values1[i]);
			put(o, " %llu\n", (unsigned long long)v);
		}
}

static void
render_hist(struct out *o, enum metric_hist h)
{
	const struct hist_def *d = &hdefs[h];
	uint64_t cum = 0;

	put(o, "# HELP airlock_%s_%s %s\n# TYPE airlock_%s_%s histogram\n",
	    prefix, d->name, d->help, prefix, d->name);
	for (unsigned b = 0; b <= d->n; b++) {
		cum += __atomic_load_n(&shm->h[h].bucket[b], __ATOMIC_RELAXED);
		put(o, "airlock_%s_%s_bucket{le=\"", prefix, d->name);
		if (b < d->n)
			put_seconds(o, d->bounds[b]);
		else
			put(o, "+Inf");
		put(o, "\"} %llu\n", (unsigned long long)cum);
	}
	put(o, "airlock_%s_%s_sum ", prefix, d->name);
	put_seconds(o, __atomic_load_n(&shm->h[h].sum_ms, __ATOMIC_RELAXED));
	/* the count is the +Inf bucket's: read once, so they always agree */
	put(o, "\nairlock_%s_%s_count %llu\n", prefix, d->name,
	    (unsigned long long)cum);
}

size_t
metrics_render(char *buf, size_t cap)
{
	struct out o = { buf, cap, 0, 0 };

	if (!shm || cap == 0)
		return 0;
	for (unsigned m = 0; m < M_NMETRIC_; m++)
		if (defs[m].services & service)
			render_metric(&o, (enum metric)m);
	for (unsigned h = 0; h < MH_NHIST_; h++)
		if (hdefs[h].services & service)
			render_hist(&o, (enum metric_hist)h);
	return o.full ? 0 : o.len;
}
