/* sbx_budget_test.c - per-tenant budgets: concurrency, queue, CPU window,
 * fairness, expiry; never a hang (every answer is immediate). */
#include <string.h>

#include "common/sandbox/sbx_budget.h"
#include "common/sandbox/sbx_proto.h"
#include "tap.h"

static struct sbx_budgets b;

static void
init(uint32_t conc, uint32_t queue, uint64_t cpu, uint64_t window,
    uint32_t total, uint32_t total_queue)
{
	struct sbx_budget_config c = { conc, queue, cpu, window, total,
		total_queue };

	sbx_budget_free(&b);
	if (sbx_budget_init(&b, &c) != 0)
		ok(0, "init");
}

static void
test_concurrency(void)
{
	init(2, 0, 0, 0, 16, 16);
	ok(sbx_budget_admit(&b, 1, "a", 100, 0) == SBX_ADMIT_RUN &&
	    sbx_budget_admit(&b, 2, "a", 100, 0) == SBX_ADMIT_RUN,
	    "two executions of tenant a run");
	ok(sbx_budget_admit(&b, 3, "a", 100, 0) == SBX_ERR_BUDGET_CONCURRENCY,
	    "the third is refused naming the concurrency budget (no queue)");
	ok(sbx_budget_admit(&b, 4, "b", 100, 0) == SBX_ADMIT_RUN,
	    "tenant b is still served");
	ok(sbx_budget_finish(&b, 1, 50, 10) == 0 &&
	    sbx_budget_admit(&b, 5, "a", 100, 10) == SBX_ADMIT_RUN,
	    "after one ends, a runs again");
	ok(sbx_budget_finish(&b, 1, 50, 10) == -1, "finishing twice fails");
	ok(sbx_budget_admit(&b, 5, "c", 1, 10) == SBX_ERR_INTERNAL,
	    "a live id cannot be admitted twice");
}

static void
test_queue(void)
{
	uint64_t ids[8];

	init(1, 2, 0, 0, 16, 16);
	ok(sbx_budget_admit(&b, 1, "a", 1, 0) == SBX_ADMIT_RUN, "a runs");
	ok(sbx_budget_admit(&b, 2, "a", 1, 1) == SBX_ADMIT_QUEUED &&
	    sbx_budget_admit(&b, 3, "a", 1, 2) == SBX_ADMIT_QUEUED,
	    "two more of a wait");
	ok(sbx_budget_admit(&b, 4, "a", 1, 3) == SBX_ERR_BUDGET_QUEUE,
	    "the fourth is refused naming the queue budget");
	ok(sbx_budget_next(&b, 4, ids, 8) == 0, "nothing starts while a "
	    "runs");
	sbx_budget_finish(&b, 1, 1, 5);
	ok(sbx_budget_next(&b, 5, ids, 8) == 1 && ids[0] == 2,
	    "the oldest waiting one starts when a slot frees");
	ok(sbx_budget_expire(&b, 1000, 500, ids, 8) == 1 && ids[0] == 3,
	    "a request queued too long expires");
	ok(sbx_budget_cancel(&b, 3) == -1, "an expired id is gone");
}

static void
test_total(void)
{
	uint64_t ids[8];

	init(4, 4, 0, 0, 2, 1);
	ok(sbx_budget_admit(&b, 1, "a", 1, 0) == SBX_ADMIT_RUN &&
	    sbx_budget_admit(&b, 2, "b", 1, 0) == SBX_ADMIT_RUN,
	    "two tenants fill the service");
	ok(sbx_budget_admit(&b, 3, "c", 1, 0) == SBX_ADMIT_QUEUED,
	    "a third waits in the service's queue");
	ok(sbx_budget_admit(&b, 4, "d", 1, 0) == SBX_ERR_CAPACITY,
	    "a fourth finds the service's queue full");
	sbx_budget_finish(&b, 2, 1, 1);
	ok(sbx_budget_next(&b, 1, ids, 8) == 1 && ids[0] == 3, "c starts");
}

static void
test_cpu(void)
{
	uint64_t ids[8];

	init(4, 4, 1000, 60000, 16, 16);
	ok(sbx_budget_admit(&b, 1, "a", 600, 0) == SBX_ADMIT_RUN,
	    "600 ms of a 1000 ms budget runs");
	ok(sbx_budget_admit(&b, 2, "a", 600, 0) == SBX_ADMIT_QUEUED,
	    "another 600 ms waits: reservations would pass the budget");
	ok(sbx_budget_admit(&b, 3, "b", 600, 0) == SBX_ADMIT_RUN,
	    "b has its own budget");
	sbx_budget_finish(&b, 1, 300, 100);
	ok(sbx_budget_next(&b, 100, ids, 8) == 1 && ids[0] == 2,
	    "after a used 300 ms the waiting 600 ms fits and starts");
	sbx_budget_finish(&b, 2, 600, 200);
	ok(sbx_budget_used(&b, "a", 200) == 900, "a used 900 ms in the window");
	ok(sbx_budget_admit(&b, 4, "a", 200, 200) == SBX_ERR_BUDGET_CPU,
	    "200 ms more is refused at once, naming the CPU budget");
	ok(sbx_budget_admit(&b, 5, "a", 100, 200) == SBX_ADMIT_RUN,
	    "100 ms more still fits");
	sbx_budget_finish(&b, 5, 100, 300);
	ok(sbx_budget_used(&b, "a", 60100) == 700 &&
	    sbx_budget_used(&b, "a", 60250) == 100 &&
	    sbx_budget_used(&b, "a", 60300) == 0, "uses leave the rolling "
	    "window one by one");
	ok(sbx_budget_admit(&b, 6, "a", 1000, 60300) == SBX_ADMIT_RUN,
	    "and the budget is whole again");
}

static void
test_history_merge(void)
{
	init(1, 0, 1000000, 1000, 4, 4);
	for (uint64_t i = 0; i < 3 * SBX_BUDGET_HISTORY; i++) {
		sbx_budget_admit(&b, i + 1, "a", 1, i);
		sbx_budget_finish(&b, i + 1, 1, i);
	}
	ok(sbx_budget_used(&b, "a", 3 * SBX_BUDGET_HISTORY) ==
	    3 * SBX_BUDGET_HISTORY, "a full history merges: no use is lost "
	    "(%llu)", (unsigned long long)sbx_budget_used(&b, "a",
	    3 * SBX_BUDGET_HISTORY));
}

static void
test_fairness(void)
{
	uint64_t ids[8];
	size_t n;

	init(1, 8, 0, 0, 1, 16);
	sbx_budget_admit(&b, 1, "a", 1, 0);
	sbx_budget_admit(&b, 2, "a", 1, 1);
	sbx_budget_admit(&b, 3, "a", 1, 2);
	sbx_budget_admit(&b, 4, "b", 1, 3);
	sbx_budget_finish(&b, 1, 1, 4);
	n = sbx_budget_next(&b, 4, ids, 8);
	ok(n == 1, "one slot, one start");
	sbx_budget_finish(&b, ids[0], 1, 5);
	n = sbx_budget_next(&b, 5, ids + 1, 7);
	ok(n == 1 && ids[0] != ids[1] && (ids[0] == 4 || ids[1] == 4),
	    "b is not starved behind a's queue (%llu then %llu)",
	    (unsigned long long)ids[0], (unsigned long long)ids[1]);
}

static void
test_config(void)
{
	struct sbx_budgets x;
	struct sbx_budget_config bad = { 0, 0, 0, 0, 1, 0 };

	ok(sbx_budget_init(&x, &bad) == -1, "a zero concurrency is refused");
	bad = (struct sbx_budget_config){ 1, 0, 100, 0, 1, 0 };
	ok(sbx_budget_init(&x, &bad) == -1, "a CPU budget without a window "
	    "is refused");
}

/* A reload: what runs stays, the caps apply from the next admission,
 * the table grows for larger totals, the CPU booked carries over. */
static void
test_reconfigure(void)
{
	struct sbx_budget_config c = { 2, 0, 1000, 60000, 2, 0 };
	uint64_t ids[8];

	init(2, 0, 1000, 60000, 2, 0);
	ok(sbx_budget_admit(&b, 1, "a", 400, 0) == SBX_ADMIT_RUN &&
	    sbx_budget_admit(&b, 2, "a", 400, 0) == SBX_ADMIT_RUN,
	    "reconfigure: two of a run");
	c.tenant_concurrent = 1;
	ok(sbx_budget_reconfigure(&b, &c) == 0 && b.running == 2,
	    "a lower tenant cap keeps both running");
	ok(sbx_budget_finish(&b, 1, 300, 10) == 0 &&
	    sbx_budget_admit(&b, 3, "a", 100, 10) ==
	    SBX_ERR_BUDGET_CONCURRENCY, "and refuses a new one while at it");
	c = (struct sbx_budget_config){ 4, 4, 1000, 60000, 8, 8 };
	ok(sbx_budget_reconfigure(&b, &c) == 0 && b.nentries == 16,
	    "larger totals grow the table");
	ok(sbx_budget_admit(&b, 4, "a", 200, 20) == SBX_ADMIT_RUN,
	    "the raised cap admits at once");
	c.tenant_cpu_ms = 350;
	ok(sbx_budget_reconfigure(&b, &c) == 0 &&
	    sbx_budget_admit(&b, 5, "a", 100, 30) == SBX_ERR_BUDGET_CPU,
	    "a lower CPU budget counts the use already booked");
	c.window_ms = 5;
	ok(sbx_budget_reconfigure(&b, &c) == 0 &&
	    sbx_budget_used(&b, "a", 30) == 0,
	    "a shorter window forgets older use at once");
	c.total_concurrent = 0;
	ok(sbx_budget_reconfigure(&b, &c) == -1 && b.cfg.window_ms == 5,
	    "a bad config is refused, the old one kept");
	ok(sbx_budget_next(&b, 40, ids, 8) == 0 && b.running == 2,
	    "the running ones are untouched");
}

int
main(void)
{
	test_concurrency();
	test_queue();
	test_total();
	test_cpu();
	test_history_merge();
	test_fairness();
	test_config();
	test_reconfigure();
	sbx_budget_free(&b);
	return tap_done();
}
