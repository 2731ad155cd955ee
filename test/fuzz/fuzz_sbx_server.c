/* fuzz_sbx_server.c - the sandbox service's pure decisions (common/
 * sandbox/sbx_server.c) under arbitrary bytes: a request's limits
 * against the service's (sbx_server_limits, sbx_server_limits_check,
 * sbx_server_refusal), and the supervisor's admission of its handlers'
 * control messages (sbx_server_admission, sbx_server_release) over the
 * budgets, as on_ctl, start_queued, expire_queued and release drive
 * them. The first byte picks which.
 * Limits: the first 36 bytes are the limits asked; each one used is the
 * asked value when it is 1..max, the default (at most max) for 0, max
 * above it; a request is refused for its memory exactly when it asks
 * 1..SBX_MEMORY_MIN-1 bytes, saying so; a refusal's message fits its
 * buffer, terminated, and names the tenant when no fixed text says why.
 * Admission: the next two bytes size the budgets; then each step is a
 * handler (one of six) and what happens: it asks (ADMIT, through
 * ctlmsg_encode and ctlmsg_decode as the control socket carries it), it
 * says it is done (DONE), another message, raw bytes decoded as one
 * datagram, it exits (release: a fresh handler takes its place), time
 * passes and queued requests start, queued requests expire, a drain
 * starts or ends. Invariants: an ADMIT of a handler not yet admitted is
 * answered (run, a budget's refusal, capacity, or shutdown while
 * draining, which admits nothing), any later one is ignored; a DONE
 * counts once, exactly when its handler runs, and frees its place; a
 * message that does not count changes nothing; the budgets' counts are
 * their entries' and within their caps; a handler gone holds no place
 * (its entry is freed); with every handler gone nothing runs or waits. */
#include <string.h>

#include "common/sandbox/sbx_budget.h"
#include "common/sandbox/sbx_server.h"
#include "common/service/ctlmsg.h"
#include "fuzz.h"

#define HANDLERS 6

static const char *const tenants[] = { "t0", "tenant-1", "a.b", "t0" };

static uint64_t
be(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void
limits_case(const uint8_t *data, size_t size)
{
	static const struct sbx_server_config cfg = {
		.max = { 30000, 10000, 1ull << 30, 16u << 20, 256 },
		.def = { 5000, 2000, 256u << 20, 1u << 20, 64 },
	};
	struct sbx_limits asked, out;
	char why[160], msg[64];
	uint64_t a[5], d[5], m[5], o[5];
	unsigned code;

	if (size < 36)
		return;
	asked = (struct sbx_limits){ be(data, 8), be(data + 8, 8),
		be(data + 16, 8), be(data + 24, 8),
		(uint32_t)be(data + 32, 4) };
	sbx_server_limits(&cfg, &asked, &out);
	memcpy(a, (uint64_t[]){ asked.timeout_ms, asked.cpu_ms, asked.memory,
	    asked.output, asked.pids }, sizeof a);
	memcpy(d, (uint64_t[]){ cfg.def.timeout_ms, cfg.def.cpu_ms,
	    cfg.def.memory, cfg.def.output, cfg.def.pids }, sizeof d);
	memcpy(m, (uint64_t[]){ cfg.max.timeout_ms, cfg.max.cpu_ms,
	    cfg.max.memory, cfg.max.output, cfg.max.pids }, sizeof m);
	memcpy(o, (uint64_t[]){ out.timeout_ms, out.cpu_ms, out.memory,
	    out.output, out.pids }, sizeof o);
	for (size_t i = 0; i < 5; i++)
		FUZZ_ASSERT(o[i] == (a[i] == 0 ? (d[i] < m[i] ? d[i] : m[i]) :
		    a[i] < m[i] ? a[i] : m[i]));
	if (sbx_server_limits_check(&asked, why, sizeof why) != 0)
		FUZZ_ASSERT(asked.memory > 0 && asked.memory < SBX_MEMORY_MIN &&
		    strstr(why, "memory limit") != NULL);
	else
		FUZZ_ASSERT(asked.memory == 0 ||
		    asked.memory >= SBX_MEMORY_MIN);
	/* a refusal's text for any code, into a small buffer */
	code = (unsigned)data[35] % (SBX_ERR_MAX_ + 2);
	memset(msg, 'x', sizeof msg);
	sbx_server_refusal(code, tenants[data[34] & 3], msg, sizeof msg);
	FUZZ_ASSERT(memchr(msg, '\0', sizeof msg) != NULL && msg[0]);
	if (code != SBX_ERR_BUDGET_CONCURRENCY &&
	    code != SBX_ERR_BUDGET_QUEUE && code != SBX_ERR_BUDGET_CPU &&
	    code != SBX_ERR_QUEUE_TIMEOUT && code != SBX_ERR_SHUTDOWN)
		FUZZ_ASSERT(strstr(msg, tenants[data[34] & 3]) != NULL);
}

struct sim {
	struct sbx_budgets b;
	struct sbx_server_handler h[HANDLERS];
	pid_t next_pid;
	uint64_t now;
	int draining;
	uint64_t queue_timeout;
};

static void
fresh(struct sim *s, size_t i)
{
	memset(&s->h[i], 0, sizeof s->h[i]);
	s->h[i].sv.pid = s->next_pid++;
}

/* The budgets' counts are their entries', within the caps. */
static void
check_budgets(const struct sbx_budgets *b)
{
	uint32_t running = 0, queued = 0;

	for (size_t i = 0; i < b->nentries; i++) {
		running += b->entries[i].state == SBX_RUNNING;
		queued += b->entries[i].state == SBX_QUEUED;
	}
	FUZZ_ASSERT(running == b->running && queued == b->queued);
	FUZZ_ASSERT(running <= b->cfg.total_concurrent &&
	    queued <= b->cfg.total_queue);
}

/* Entries of id still held (in state, or in any state but free). */
static size_t
held_as(const struct sbx_budgets *b, uint64_t id, int state)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nentries; i++)
		n += b->entries[i].id == id && (state < 0 ?
		    b->entries[i].state != SBX_FREE :
		    b->entries[i].state == state);
	return n;
}

static size_t
held(const struct sbx_budgets *b, uint64_t id)
{
	return held_as(b, id, -1);
}

/* Handler i's message m, as on_ctl hands it over. */
static void
deliver(struct sim *s, size_t i, const struct ctlmsg *m)
{
	struct sbx_server_handler *h = &s->h[i], before = *h;
	enum sbx_admission a;
	unsigned verdict = 0xffff;
	int running = held_as(&s->b, (uint64_t)h->sv.pid, SBX_RUNNING) == 1;

	a = sbx_server_admission(&s->b, h, m, s->draining, s->now, &verdict);
	if (m->type == CTLMSG_ADMIT && !before.admitted) {
		FUZZ_ASSERT(a == SBX_ADMISSION_VERDICT ||
		    (a == SBX_ADMISSION_NONE && h->admitted &&
		    held(&s->b, (uint64_t)h->sv.pid) == 1));
		if (a == SBX_ADMISSION_VERDICT) {
			FUZZ_ASSERT(verdict == 0 ||
			    verdict == SBX_ERR_BUDGET_CONCURRENCY ||
			    verdict == SBX_ERR_BUDGET_QUEUE ||
			    verdict == SBX_ERR_BUDGET_CPU ||
			    verdict == SBX_ERR_CAPACITY ||
			    verdict == SBX_ERR_SHUTDOWN);
			FUZZ_ASSERT(h->admitted == (verdict == 0));
			FUZZ_ASSERT(!s->draining ||
			    verdict == SBX_ERR_SHUTDOWN);
			FUZZ_ASSERT(held(&s->b, (uint64_t)h->sv.pid) ==
			    (verdict == 0));
		}
		return;
	}
	/* a DONE counts exactly when it comes from a running handler */
	if (m->type == CTLMSG_DONE && before.admitted && !before.done)
		FUZZ_ASSERT((a == SBX_ADMISSION_FINISHED) == running);
	if (a == SBX_ADMISSION_FINISHED)
		FUZZ_ASSERT(m->type == CTLMSG_DONE && before.admitted &&
		    !before.done && h->done &&
		    held(&s->b, (uint64_t)h->sv.pid) == 0);
	else
		FUZZ_ASSERT(a == SBX_ADMISSION_NONE &&
		    memcmp(&before, h, sizeof before) == 0);
}

static void
admit_msg(struct sim *s, size_t i, uint8_t arg)
{
	struct ctlmsg m, got;
	uint8_t wire[CTLMSG_MAX];
	long n;

	memset(&m, 0, sizeof m);
	m.type = CTLMSG_ADMIT;
	m.u.admit.cpu_ms = (uint64_t)(arg >> 2) * 100;
	strcpy(m.u.admit.tenant, tenants[arg & 3]);
	n = ctlmsg_encode(wire, sizeof wire, &m);
	FUZZ_ASSERT(n > 0);
	FUZZ_ASSERT(ctlmsg_decode(&got, wire, (size_t)n, 0) == CTLMSG_OK);
	deliver(s, i, &got);
}

static void
simple_msg(struct sim *s, size_t i, enum ctlmsg_type type, uint8_t arg)
{
	struct ctlmsg m;

	memset(&m, 0, sizeof m);
	m.type = type;
	if (type == CTLMSG_DONE)
		m.u.done_cpu_ms = (uint64_t)arg * 10;
	else
		m.u.verdict = arg;
	deliver(s, i, &m);
}

static void
release(struct sim *s, size_t i)
{
	uint64_t pid = (uint64_t)s->h[i].sv.pid;

	sbx_server_release(&s->b, &s->h[i], s->now);
	/* its place goes back */
	FUZZ_ASSERT(held(&s->b, pid) == 0);
	fresh(s, i);
}

static void
admission_case(const uint8_t *data, size_t size)
{
	static struct sim s;
	struct sbx_budget_config cfg;
	uint64_t ids[64];
	size_t at = 2;

	if (size < 2)
		return;
	cfg = (struct sbx_budget_config){ 1 + (data[0] & 1),
		data[0] >> 1 & 3, (uint64_t)(data[1] & 15) * 500, 1000,
		1 + (data[0] >> 3 & 3), data[0] >> 5 };
	memset(&s, 0, sizeof s);
	FUZZ_ASSERT(sbx_budget_init(&s.b, &cfg) == 0);
	s.next_pid = 100;
	s.queue_timeout = 1000 + (uint64_t)(data[1] >> 4) * 500;
	for (size_t i = 0; i < HANDLERS; i++)
		fresh(&s, i);
	while (at < size) {
		uint8_t op = data[at++], arg = at < size ? data[at++] : 0;
		size_t i = (size_t)(op & 7) % HANDLERS, n;

		switch (op >> 3 & 7) {
		case 0:
			admit_msg(&s, i, arg);
			break;
		case 1:
			simple_msg(&s, i, CTLMSG_DONE, arg);
			break;
		case 2:
			simple_msg(&s, i, arg & 1 ? CTLMSG_VERDICT :
			    CTLMSG_READY, arg);
			break;
		case 3:
			release(&s, i);
			break;
		case 4:
			/* time passes; what can start starts (start_queued) */
			s.now += (uint64_t)arg * 50;
			while ((n = sbx_budget_next(&s.b, s.now, ids,
			    sizeof ids / sizeof *ids)) > 0)
				for (size_t k = 0; k < n; k++)
					FUZZ_ASSERT(held(&s.b, ids[k]) == 1);
			break;
		case 5:
			(void)sbx_budget_expire(&s.b, s.now, s.queue_timeout,
			    ids, sizeof ids / sizeof *ids);
			break;
		case 6:
			/* a drain refuses every queued request */
			s.draining = !s.draining;
			if (s.draining)
				while (sbx_budget_expire(&s.b, s.now, 0, ids,
				    sizeof ids / sizeof *ids) > 0)
					;
			break;
		default: {
			struct ctlmsg m;
			size_t len = (size_t)arg < size - at ? arg : size - at;

			if (ctlmsg_decode(&m, data + at, len, 0) == CTLMSG_OK)
				deliver(&s, i, &m);
			at += len;
		}
		}
		check_budgets(&s.b);
	}
	for (size_t i = 0; i < HANDLERS; i++)
		release(&s, i);
	FUZZ_ASSERT(s.b.running == 0 && s.b.queued == 0);
	sbx_budget_free(&s.b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1)
		limits_case(data + 1, size - 1);
	else
		admission_case(data + 1, size - 1);
	return 0;
}
