/* sbx_budget.h - per-tenant budgets of the sandbox service: concurrent
 * executions, CPU-milliseconds per rolling window, and a bounded FIFO
 * queue per tenant, under service-wide caps. Pure bookkeeping: the caller
 * passes the time (monotonic ms) and ids it chose, and acts on the
 * answers; nothing here blocks, so nothing here can hang a request.
 *
 * CPU: an execution is admitted only if the tenant's CPU used in the
 * window plus its own CPU limit fits the budget (else budget_cpu at
 * once: waiting would not help until the window moves). It starts only
 * if used + the limits of the tenant's running executions + its own
 * limit fit: the CPU limit is enforced on each execution, so a tenant
 * can never run past its budget. On finish the reservation is replaced
 * by what the execution really used.
 *
 * The history of finished executions is kept per tenant in a ring of
 * SBX_BUDGET_HISTORY entries; when it is full the two oldest merge into
 * one stamped with the later time, which only ever overstates recent use
 * (fail closed). */
#ifndef AIRLOCK_SBX_BUDGET_H
#define AIRLOCK_SBX_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "common/wire/proto.h"

#define SBX_BUDGET_HISTORY 64
#define SBX_BUDGET_TENANTS_MAX 1024

struct sbx_budget_config {
	uint32_t tenant_concurrent;	/* >= 1 */
	uint32_t tenant_queue;		/* 0: refuse instead of queueing */
	uint64_t tenant_cpu_ms;		/* per window; 0: no CPU budget */
	uint64_t window_ms;		/* >= 1 when tenant_cpu_ms */
	uint32_t total_concurrent;	/* >= 1 */
	uint32_t total_queue;		/* queued requests of all tenants */
};

struct sbx_use {
	uint64_t at_ms, cpu_ms;
};

struct sbx_tenant {
	char name[PROTO_ID_MAX + 1];	/* "" = free slot */
	uint32_t running, queued;
	uint64_t reserved_ms;		/* CPU limits of running executions */
	struct sbx_use hist[SBX_BUDGET_HISTORY];
	size_t hist_n;			/* oldest first */
};

enum sbx_entry_state { SBX_FREE = 0, SBX_QUEUED, SBX_RUNNING };

struct sbx_entry {
	uint64_t id;
	uint32_t tenant;		/* index into tenants */
	uint8_t state;
	uint64_t cpu_ms;		/* the execution's CPU limit */
	uint64_t since_ms;		/* queued or started at */
	uint64_t seq;			/* FIFO order */
};

struct sbx_budgets {
	struct sbx_budget_config cfg;
	struct sbx_tenant *tenants;
	size_t ntenants;		/* slots allocated */
	struct sbx_entry *entries;	/* total_concurrent + total_queue */
	size_t nentries;
	uint32_t running, queued;
	uint64_t seq;
	size_t rr;			/* round-robin cursor over tenants */
};

/* Allocate for cfg. 0, or -1 (bad config: errno EINVAL, or ENOMEM). */
int sbx_budget_init(struct sbx_budgets *b, const struct sbx_budget_config *cfg);
void sbx_budget_free(struct sbx_budgets *b);

/* Switch b to cfg (a reload): what is running or queued stays, with the
 * CPU it reserved; the caps and the window apply from the next admission
 * or start; the use already booked is counted against the new window and
 * budget (a shorter window forgets older use at once, a longer one cannot
 * bring back what the old one had already forgotten). 0, or -1 with b
 * unchanged (errno EINVAL: a bad config, ENOMEM). */
int sbx_budget_reconfigure(struct sbx_budgets *b,
    const struct sbx_budget_config *cfg);

enum sbx_admit {
	SBX_ADMIT_RUN = 0,	/* running now: call sbx_budget_finish later */
	SBX_ADMIT_QUEUED = 1	/* wait for sbx_budget_next to name id */
	/* otherwise an enum sbx_error: BUDGET_CONCURRENCY (the tenant is at
	 * its cap and queueing is off), BUDGET_QUEUE (its queue is full),
	 * BUDGET_CPU, CAPACITY (the service's queue or tenant table is
	 * full) */
};

/* Ask to run execution id (unique among live ones) for tenant, whose
 * CPU limit is cpu_ms. */
int sbx_budget_admit(struct sbx_budgets *b, uint64_t id, const char *tenant,
    uint64_t cpu_ms, uint64_t now_ms);

/* id finished having used cpu_used_ms. 0, or -1 if id is not running. */
int sbx_budget_finish(struct sbx_budgets *b, uint64_t id, uint64_t cpu_used_ms,
    uint64_t now_ms);

/* Drop a queued id (its client left, or it timed out). 0 or -1. */
int sbx_budget_cancel(struct sbx_budgets *b, uint64_t id);

/* Start what can start now, round-robin across tenants, oldest first
 * within one: writes up to cap ids (now running) to out; returns count. */
size_t sbx_budget_next(struct sbx_budgets *b, uint64_t now_ms, uint64_t *out,
    size_t cap);

/* Queued ids older than max_wait_ms: removed, written to out; count. */
size_t sbx_budget_expire(struct sbx_budgets *b, uint64_t now_ms,
    uint64_t max_wait_ms, uint64_t *out, size_t cap);

/* CPU ms the tenant used in the window ending now (0 if unknown). */
uint64_t sbx_budget_used(struct sbx_budgets *b, const char *tenant,
    uint64_t now_ms);

#endif
