/* sbx_budget.c - per-tenant concurrency, CPU window and queue. */
#include "common/sandbox/sbx_budget.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/sandbox/sbx_proto.h"

static int
config_valid(const struct sbx_budget_config *cfg)
{
	if (cfg->tenant_concurrent == 0 || cfg->total_concurrent == 0 ||
	    (cfg->tenant_cpu_ms && cfg->window_ms == 0) ||
	    (uint64_t)cfg->total_concurrent + cfg->total_queue > 1000000) {
		errno = EINVAL;
		return 0;
	}
	return 1;
}

int
sbx_budget_init(struct sbx_budgets *b, const struct sbx_budget_config *cfg)
{
	memset(b, 0, sizeof *b);
	if (!config_valid(cfg))
		return -1;
	b->cfg = *cfg;
	b->nentries = (size_t)cfg->total_concurrent + cfg->total_queue;
	/* a tenant needs a slot only while it runs, waits or has history;
	 * more slots than entries are needed for the history alone */
	b->ntenants = SBX_BUDGET_TENANTS_MAX;
	b->entries = calloc(b->nentries, sizeof *b->entries);
	b->tenants = calloc(b->ntenants, sizeof *b->tenants);
	if (!b->entries || !b->tenants) {
		sbx_budget_free(b);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int
sbx_budget_reconfigure(struct sbx_budgets *b,
    const struct sbx_budget_config *cfg)
{
	size_t need = (size_t)cfg->total_concurrent + cfg->total_queue;
	struct sbx_entry *e;

	if (!config_valid(cfg))
		return -1;
	/* the table only grows: live entries keep their places, and the
	 * caps (not the table's size) bound what is admitted */
	if (need > b->nentries) {
		if (!(e = realloc(b->entries, need * sizeof *e))) {
			errno = ENOMEM;
			return -1;
		}
		memset(e + b->nentries, 0, (need - b->nentries) * sizeof *e);
		b->entries = e;
		b->nentries = need;
	}
	b->cfg = *cfg;
	return 0;
}

void
sbx_budget_free(struct sbx_budgets *b)
{
	free(b->entries);
	free(b->tenants);
	b->entries = NULL;
	b->tenants = NULL;
}

/* Forget uses older than the window. */
static void
prune(const struct sbx_budgets *b, struct sbx_tenant *t, uint64_t now)
{
	size_t drop = 0;

	if (b->cfg.window_ms == 0) {
		t->hist_n = 0;
		return;
	}
	while (drop < t->hist_n && t->hist[drop].at_ms + b->cfg.window_ms <=
	    now)
		drop++;
	if (drop) {
		memmove(t->hist, t->hist + drop, (t->hist_n - drop) *
		    sizeof t->hist[0]);
		t->hist_n -= drop;
	}
}

static uint64_t
used(const struct sbx_budgets *b, struct sbx_tenant *t, uint64_t now)
{
	uint64_t sum = 0;

	prune(b, t, now);
	for (size_t i = 0; i < t->hist_n; i++)
		sum += t->hist[i].cpu_ms;
	return sum;
}

static int
idle(const struct sbx_tenant *t)
{
	return t->running == 0 && t->queued == 0;
}

/* The tenant's slot, made if needed (reusing a free one, or the idle one
 * whose history is oldest). NULL when every slot is busy. */
static struct sbx_tenant *
tenant_get(struct sbx_budgets *b, const char *name, uint64_t now, int make)
{
	struct sbx_tenant *free_slot = NULL, *oldest = NULL;
	size_t n = strnlen(name, PROTO_ID_MAX + 1);

	if (n == 0 || n > PROTO_ID_MAX)
		return NULL;
	for (size_t i = 0; i < b->ntenants; i++) {
		struct sbx_tenant *t = &b->tenants[i];

		if (t->name[0] == '\0') {
			if (!free_slot)
				free_slot = t;
			continue;
		}
		if (strcmp(t->name, name) == 0)
			return t;
		if (idle(t)) {
			prune(b, t, now);
			if (t->hist_n == 0) {
				t->name[0] = '\0';	/* nothing to keep */
				if (!free_slot)
					free_slot = t;
			} else if (!oldest || t->hist[t->hist_n - 1].at_ms <
			    oldest->hist[oldest->hist_n - 1].at_ms) {
				oldest = t;
			}
		}
	}
	if (!make)
		return NULL;
	/* evicting a history forgets CPU use: only when the table is full
	 * of idle tenants, and then the one idle longest */
	if (!free_slot)
		free_slot = oldest;
	if (!free_slot)
		return NULL;
	memset(free_slot, 0, sizeof *free_slot);
	memcpy(free_slot->name, name, n + 1);
	return free_slot;
}

static struct sbx_entry *
entry_find(struct sbx_budgets *b, uint64_t id)
{
	for (size_t i = 0; i < b->nentries; i++)
		if (b->entries[i].state != SBX_FREE && b->entries[i].id == id)
			return &b->entries[i];
	return NULL;
}

static struct sbx_entry *
entry_free(struct sbx_budgets *b)
{
	for (size_t i = 0; i < b->nentries; i++)
		if (b->entries[i].state == SBX_FREE)
			return &b->entries[i];
	return NULL;
}

/* Can an execution of t with limit cpu start now? */
static int
can_start(struct sbx_budgets *b, struct sbx_tenant *t, uint64_t cpu,
    uint64_t now)
{
	if (b->running >= b->cfg.total_concurrent ||
	    t->running >= b->cfg.tenant_concurrent)
		return 0;
	if (b->cfg.tenant_cpu_ms && used(b, t, now) + t->reserved_ms + cpu >
	    b->cfg.tenant_cpu_ms)
		return 0;
	return 1;
}

static void
start(struct sbx_budgets *b, struct sbx_tenant *t, struct sbx_entry *e,
    uint64_t now)
{
	if (e->state == SBX_QUEUED) {
		t->queued--;
		b->queued--;
	}
	e->state = SBX_RUNNING;
	e->since_ms = now;
	t->running++;
	t->reserved_ms += e->cpu_ms;
	b->running++;
}

int
sbx_budget_admit(struct sbx_budgets *b, uint64_t id, const char *tenant,
    uint64_t cpu_ms, uint64_t now)
{
	struct sbx_tenant *t;
	struct sbx_entry *e;

	if (entry_find(b, id))
		return SBX_ERR_INTERNAL;
	if (!(t = tenant_get(b, tenant, now, 1)))
		return SBX_ERR_CAPACITY;
	if (b->cfg.tenant_cpu_ms && used(b, t, now) + cpu_ms >
	    b->cfg.tenant_cpu_ms)
		return SBX_ERR_BUDGET_CPU;
	if (!(e = entry_free(b)))
		return SBX_ERR_CAPACITY;
	/* FIFO: nothing overtakes a tenant's own queue */
	if (t->queued == 0 && can_start(b, t, cpu_ms, now)) {
		*e = (struct sbx_entry){ id, (uint32_t)(t - b->tenants),
		    SBX_QUEUED, cpu_ms, now, b->seq++ };
		t->queued++;
		b->queued++;
		start(b, t, e, now);
		return SBX_ADMIT_RUN;
	}
	if (t->queued >= b->cfg.tenant_queue)
		return b->cfg.tenant_queue == 0 ? SBX_ERR_BUDGET_CONCURRENCY :
		    SBX_ERR_BUDGET_QUEUE;
	if (b->queued >= b->cfg.total_queue)
		return SBX_ERR_CAPACITY;
	*e = (struct sbx_entry){ id, (uint32_t)(t - b->tenants), SBX_QUEUED,
	    cpu_ms, now, b->seq++ };
	t->queued++;
	b->queued++;
	return SBX_ADMIT_QUEUED;
}

int
sbx_budget_finish(struct sbx_budgets *b, uint64_t id, uint64_t cpu_used,
    uint64_t now)
{
	struct sbx_entry *e = entry_find(b, id);
	struct sbx_tenant *t;

	if (!e || e->state != SBX_RUNNING)
		return -1;
	t = &b->tenants[e->tenant];
	t->running--;
	t->reserved_ms -= e->cpu_ms;
	b->running--;
	e->state = SBX_FREE;
	if (b->cfg.tenant_cpu_ms == 0)
		return 0;
	prune(b, t, now);
	if (t->hist_n == SBX_BUDGET_HISTORY) {
		/* merge the two oldest, stamped with the later time */
		t->hist[1].cpu_ms += t->hist[0].cpu_ms;
		memmove(t->hist, t->hist + 1, (t->hist_n - 1) *
		    sizeof t->hist[0]);
		t->hist_n--;
	}
	t->hist[t->hist_n++] = (struct sbx_use){ now, cpu_used };
	return 0;
}

int
sbx_budget_cancel(struct sbx_budgets *b, uint64_t id)
{
	struct sbx_entry *e = entry_find(b, id);

	if (!e || e->state != SBX_QUEUED)
		return -1;
	b->tenants[e->tenant].queued--;
	b->queued--;
	e->state = SBX_FREE;
	return 0;
}

/* The oldest queued entry of tenant index ti, or NULL. */
static struct sbx_entry *
oldest_queued(struct sbx_budgets *b, size_t ti)
{
	struct sbx_entry *best = NULL;

	for (size_t i = 0; i < b->nentries; i++) {
		struct sbx_entry *e = &b->entries[i];

		if (e->state == SBX_QUEUED && e->tenant == ti &&
		    (!best || e->seq < best->seq))
			best = e;
	}
	return best;
}

size_t
sbx_budget_next(struct sbx_budgets *b, uint64_t now, uint64_t *out,
    size_t cap)
{
	size_t n = 0;
	int progress = 1;

	while (progress && n < cap && b->queued > 0 &&
	    b->running < b->cfg.total_concurrent) {
		progress = 0;
		for (size_t k = 0; k < b->ntenants && n < cap; k++) {
			size_t ti = (b->rr + k) % b->ntenants;
			struct sbx_tenant *t = &b->tenants[ti];
			struct sbx_entry *e;

			if (t->name[0] == '\0' || t->queued == 0)
				continue;
			e = oldest_queued(b, ti);
			if (!e || !can_start(b, t, e->cpu_ms, now))
				continue;
			start(b, t, e, now);
			out[n++] = e->id;
			b->rr = (ti + 1) % b->ntenants;
			progress = 1;
			break;	/* restart after this tenant: round robin */
		}
	}
	return n;
}

size_t
sbx_budget_expire(struct sbx_budgets *b, uint64_t now, uint64_t max_wait,
    uint64_t *out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nentries && n < cap; i++) {
		struct sbx_entry *e = &b->entries[i];

		if (e->state == SBX_QUEUED && now - e->since_ms >= max_wait) {
			out[n++] = e->id;
			sbx_budget_cancel(b, e->id);
		}
	}
	return n;
}

uint64_t
sbx_budget_used(struct sbx_budgets *b, const char *tenant, uint64_t now)
{
	struct sbx_tenant *t = tenant_get(b, tenant, now, 0);

	return t ? used(b, t, now) : 0;
}
