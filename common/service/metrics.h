/* metrics.h - the service's counters, gauges and histograms, shared by its
 * processes: a MAP_SHARED page made before the first fork, so the
 * supervisor, the pre-auth process and every lease handler add to the same
 * numbers with atomic operations, and the metrics server (its own process)
 * renders them as Prometheus text (format 0.0.4). Every label value comes
 * from a fixed table here: no tenant id, argv, secret or peer text ever
 * becomes a label. With metrics off (metrics_open never called) every
 * update is a no-op. */
#ifndef AIRLOCK_METRICS_H
#define AIRLOCK_METRICS_H

#include <stddef.h>
#include <stdint.h>

enum metric {
	M_LEASES_ACTIVE,	/* gauge */
	M_LEASES_TOTAL,		/* counter, label end (enum metric_end) */
	M_REFUSALS_TOTAL,	/* counter, label code (LERR_*) */
	M_HANDSHAKE_FAILURES,	/* counter */
	M_CONNECTIONS_DROPPED,	/* counter: closed unread (no slot) */
	M_HANDSHAKES_PENDING,	/* gauge */
	M_LEASE_BYTES,		/* counter, label stream (stdin/out/err) */
	M_JAIL_FAILURES,	/* counter */
	M_CGROUP_KILLS,		/* counter, label limit (memory, pids) */
	M_SBX_EXECUTIONS,	/* counter, labels language x reason */
	M_SBX_BUDGET_REFUSALS,	/* counter, label budget */
	M_READY,		/* gauge: 1 when readyz says so */
	M_DRAINING,		/* gauge */
	M_CAPACITY,		/* gauge: the lease/execution cap */
	M_EGRESS_CONNECTIONS,	/* counter, label verdict (egress_proxy.h) */
	M_EGRESS_BYTES,		/* counter, label direction (up, down) */
	M_SBX_WARM_IDLE,	/* gauge: warm slots prepared, waiting */
	M_SBX_WARM_BYTES,	/* gauge: memory their cgroups hold */
	M_SBX_WARM_STARTS,	/* counter, label start (warm, unfit) */
	M_MCP_CALLS,		/* counter, label outcome (mcptap.h) */
	M_MCP_LINES_IGNORED,	/* counter, labels reason x direction */
	M_MCP_PIN_FAILURES,	/* counter, labels kind x item (mcplabels.h) */
	M_NMETRIC_
};

enum metric_hist {
	MH_SPAWN_SECONDS,	/* request to child started */
	MH_LEASE_SECONDS,	/* lease duration */
	MH_SBX_SECONDS,		/* sandbox execution wall time */
	MH_NHIST_
};

/* Label values of M_LEASES_TOTAL. */
enum metric_end {
	ME_EXITED, ME_OOM, ME_PIDS, ME_SHUTDOWN, ME_RELAY_CLOSED,
	ME_LIVENESS, ME_REFUSED, ME_ERROR, ME_DISK, ME_STDIN_CLOSED,
	ME_MAX_DURATION, ME_N_
};

enum metric_stream { MS_STDIN, MS_STDOUT, MS_STDERR, MS_N_ };
enum metric_limit { ML_MEMORY, ML_PIDS, ML_N_ };
enum metric_lang { MLANG_PYTHON, MLANG_JAVA, MLANG_EXEC, MLANG_N_ };
enum metric_budget {
	MB_TENANT_CONCURRENCY, MB_TENANT_QUEUE, MB_TENANT_CPU,
	MB_TOTAL_QUEUE, MB_QUEUE_TIMEOUT, MB_N_
};

enum metrics_service { METRICS_RUNNER = 1, METRICS_SANDBOX = 2 };

/* Map the shared page for one service: its metrics are named
 * airlock_runner_... or airlock_sandbox_..., and only those that apply to
 * it are rendered. 0, or -1 with errno. Call before forking. */
int metrics_open(enum metrics_service which);

/* Updates; label is the index into the metric's label table (ignored for
 * unlabelled metrics; out of range is dropped, never a crash). */
void metric_add(enum metric m, unsigned label, uint64_t n);
void metric_set(enum metric m, unsigned label, uint64_t v);
void metric_observe(enum metric_hist h, uint64_t ms);

/* Current value (tests, readiness). */
uint64_t metric_get(enum metric m, unsigned label);

/* Render every metric into buf (cap bytes): the length written, or 0 when
 * cap is too small (the caller's buffer is sized by METRICS_TEXT_MAX). */
#define METRICS_TEXT_MAX 32768
size_t metrics_render(char *buf, size_t cap);

#endif
