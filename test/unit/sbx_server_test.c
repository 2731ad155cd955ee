/* sbx_server_test.c - the sandbox service's decisions, without a socket:
 * a request's limits (default, clamp), admission of handlers under
 * the budgets (run, queue, refuse, drain, repeats ignored), what a gone
 * handler gives back (and is charged), the refusal messages. */
#include <string.h>

#include "common/sandbox/sbx_server.h"
#include "tap.h"

static struct sbx_budgets b;

static void
budgets(uint32_t conc, uint32_t queue, uint64_t cpu, uint32_t total)
{
	struct sbx_budget_config c = { conc, queue, cpu, 60000, total, 16 };

	sbx_budget_free(&b);
	if (sbx_budget_init(&b, &c) != 0)
		ok(0, "budgets");
}

static struct ctlmsg
admit_msg(const char *tenant, uint64_t cpu_ms)
{
	struct ctlmsg m;

	memset(&m, 0, sizeof m);
	m.type = CTLMSG_ADMIT;
	m.u.admit.cpu_ms = cpu_ms;
	snprintf(m.u.admit.tenant, sizeof m.u.admit.tenant, "%s", tenant);
	return m;
}

static struct ctlmsg
done_msg(uint64_t used)
{
	struct ctlmsg m;

	memset(&m, 0, sizeof m);
	m.type = CTLMSG_DONE;
	m.u.done_cpu_ms = used;
	return m;
}

static struct sbx_server_handler
handler(pid_t pid)
{
	struct sbx_server_handler h;

	memset(&h, 0, sizeof h);
	h.sv.pid = pid;
	h.sv.ctl = -1;
	return h;
}

static void
test_limits(void)
{
	struct sbx_server_config cfg;
	struct sbx_limits asked, got;

	memset(&cfg, 0, sizeof cfg);
	cfg.def = (struct sbx_limits){ 5000, 2000, 256u << 20, 1u << 20, 64 };
	cfg.max = (struct sbx_limits){ 30000, 10000, 1u << 30, 16u << 20,
		256 };
	memset(&asked, 0, sizeof asked);
	sbx_server_limits(&cfg, &asked, &got);
	ok(memcmp(&got, &cfg.def, sizeof got) == 0,
	    "a request's 0 takes every default");
	asked = (struct sbx_limits){ 99999, 99999, 8ull << 30, 1ull << 30,
		100000 };
	sbx_server_limits(&cfg, &asked, &got);
	ok(memcmp(&got, &cfg.max, sizeof got) == 0,
	    "every limit over its maximum is lowered to it");
	asked = (struct sbx_limits){ 100, 50, 64u << 20, 4096, 3 };
	sbx_server_limits(&cfg, &asked, &got);
	ok(memcmp(&got, &asked, sizeof got) == 0,
	    "limits inside the maxima are kept as asked");
}

static void
test_limits_check(void)
{
	struct sbx_limits asked;
	char why[160] = "";

	memset(&asked, 0, sizeof asked);
	ok(sbx_server_limits_check(&asked, why, sizeof why) == 0,
	    "a request's memory 0 asks for the default: run");
	asked.memory = SBX_MEMORY_MIN;
	ok(sbx_server_limits_check(&asked, why, sizeof why) == 0,
	    "a memory limit of the minimum: run");
	asked.memory = 1;
	ok(sbx_server_limits_check(&asked, why, sizeof why) == -1 &&
	    strcmp(why, "memory limit 1 is under 16777216 bytes (16M), the "
	    "smallest a tool runs under") == 0,
	    "a memory limit of 1 byte is refused, the minimum named: %s", why);
	asked.memory = SBX_MEMORY_MIN - 1;
	ok(sbx_server_limits_check(&asked, why, sizeof why) == -1,
	    "a byte under the minimum is refused");
}

static void
test_admission(void)
{
	struct sbx_server_handler h1 = handler(101), h2 = handler(102),
	    h3 = handler(103), h4 = handler(104);
	struct ctlmsg m = admit_msg("acme", 1000), d = done_msg(400);
	unsigned v = 77;
	uint64_t ids[4];

	budgets(1, 1, 100000, 16);	/* CPU is booked only with a budget */
	ok(sbx_server_admission(&b, &h1, &m, 0, 0, &v) ==
	    SBX_ADMISSION_VERDICT && v == 0 && h1.admitted,
	    "a tenant below its budgets runs at once (verdict 0)");
	v = 77;
	ok(sbx_server_admission(&b, &h1, &m, 0, 0, &v) == SBX_ADMISSION_NONE &&
	    v == 77 && b.running == 1,
	    "a second ADMIT from the same handler is ignored");
	ok(sbx_server_admission(&b, &h2, &m, 0, 1, &v) == SBX_ADMISSION_NONE &&
	    h2.admitted && b.queued == 1,
	    "at its concurrency the next one waits in the queue, no verdict");
	ok(sbx_server_admission(&b, &h3, &m, 0, 2, &v) ==
	    SBX_ADMISSION_VERDICT && v == SBX_ERR_BUDGET_QUEUE && !h3.admitted,
	    "past its queue: refused naming the queue budget");
	ok(sbx_server_admission(&b, &h4, &d, 0, 3, &v) == SBX_ADMISSION_NONE &&
	    !h4.done, "a DONE before any ADMIT is ignored");
	ok(sbx_server_admission(&b, &h1, &d, 0, 4, &v) ==
	    SBX_ADMISSION_FINISHED && h1.done && b.running == 0,
	    "DONE books the CPU used and frees the place");
	ok(sbx_budget_used(&b, "acme", 4) == 400,
	    "what it really used is charged, not its limit");
	ok(sbx_server_admission(&b, &h1, &d, 0, 5, &v) == SBX_ADMISSION_NONE,
	    "a second DONE is ignored");
	ok(sbx_budget_next(&b, 5, ids, 4) == 1 && ids[0] == 102,
	    "the queued handler starts next");
	m.type = CTLMSG_VERDICT;
	ok(sbx_server_admission(&b, &h4, &m, 0, 6, &v) == SBX_ADMISSION_NONE &&
	    !h4.admitted, "a message a handler never sends is ignored");
	m = admit_msg("other", 1000);
	ok(sbx_server_admission(&b, &h4, &m, 1, 7, &v) ==
	    SBX_ADMISSION_VERDICT && v == SBX_ERR_SHUTDOWN && !h4.admitted &&
	    b.running == 1, "while draining every ADMIT is refused (shutdown)");
}

static void
test_cpu_budget(void)
{
	struct sbx_server_handler h1 = handler(201), h2 = handler(202);
	struct ctlmsg m = admit_msg("acme", 3000);
	unsigned v;

	budgets(4, 4, 5000, 16);
	ok(sbx_server_admission(&b, &h1, &m, 0, 0, &v) ==
	    SBX_ADMISSION_VERDICT && v == 0, "3 s of a 5 s CPU budget runs");
	sbx_server_release(&b, &h1, 10);
	ok(sbx_budget_used(&b, "acme", 10) == 3000 && b.running == 0,
	    "a handler gone without DONE is charged its whole CPU limit");
	ok(sbx_server_admission(&b, &h2, &m, 0, 20, &v) ==
	    SBX_ADMISSION_VERDICT && v == SBX_ERR_BUDGET_CPU,
	    "the next 3 s no longer fit: refused naming the CPU budget");
}

static void
test_release(void)
{
	struct sbx_server_handler h1 = handler(301), h2 = handler(302),
	    h3 = handler(303);
	struct ctlmsg m = admit_msg("acme", 1000), d = done_msg(10);
	unsigned v;

	budgets(1, 4, 100000, 16);
	sbx_server_admission(&b, &h1, &m, 0, 0, &v);
	sbx_server_admission(&b, &h2, &m, 0, 0, &v);
	ok(b.running == 1 && b.queued == 1, "one runs, one waits");
	sbx_server_release(&b, &h2, 1);
	ok(b.queued == 0 && b.running == 1 &&
	    sbx_budget_used(&b, "acme", 1) == 0,
	    "a queued handler that leaves gives its place back, uncharged");
	sbx_server_admission(&b, &h1, &d, 0, 2, &v);
	sbx_server_release(&b, &h1, 3);
	ok(b.running == 0 && sbx_budget_used(&b, "acme", 3) == 10,
	    "one that said DONE is not charged again when reaped");
	sbx_server_release(&b, &h3, 4);
	ok(b.running == 0 && b.queued == 0,
	    "one never admitted holds nothing");
	/* a DONE out of turn (found by fuzz_sbx_server: it was taken, and
	 * the queued place was never given back) */
	h1 = handler(304);
	h2 = handler(305);
	sbx_server_admission(&b, &h1, &m, 0, 5, &v);
	sbx_server_admission(&b, &h2, &m, 0, 5, &v);
	ok(sbx_server_admission(&b, &h2, &d, 0, 6, &v) == SBX_ADMISSION_NONE &&
	    !h2.done && b.queued == 1,
	    "a DONE from a queued handler is ignored");
	sbx_server_release(&b, &h1, 7);
	sbx_server_release(&b, &h2, 7);
	ok(b.running == 0 && b.queued == 0,
	    "and it gives its place back when it leaves");
}

static void
test_refusal(void)
{
	static const struct {
		unsigned code;
		const char *msg;
	} cases[] = {
		{ SBX_ERR_BUDGET_CONCURRENCY,
		    "the tenant is at its concurrent executions" },
		{ SBX_ERR_BUDGET_QUEUE, "the tenant's queue is full" },
		{ SBX_ERR_BUDGET_CPU,
		    "the tenant has used its CPU time for this window" },
		{ SBX_ERR_QUEUE_TIMEOUT,
		    "waited in the tenant's queue too long" },
		{ SBX_ERR_SHUTDOWN, "the service is shutting down" },
		{ SBX_ERR_CAPACITY,
		    "refused by the capacity budget of tenant acme" },
	};
	char out[160], tiny[8];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sbx_server_refusal(cases[i].code, "acme", out, sizeof out);
		ok(strcmp(out, cases[i].msg) == 0, "refusal %s: '%s'",
		    sbx_error_name(cases[i].code), out);
	}
	sbx_server_refusal(SBX_ERR_CAPACITY, "acme", tiny, sizeof tiny);
	ok(strlen(tiny) == sizeof tiny - 1, "a short buffer is cut, "
	    "terminated");
}

int
main(void)
{
	test_limits();
	test_limits_check();
	test_admission();
	test_cpu_budget();
	test_release();
	test_refusal();
	sbx_budget_free(&b);
	return tap_done();
}
