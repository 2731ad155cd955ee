/* sbx_server.c - the sandbox service: supervisor callbacks, admission,
 * the handler of one connection, the serve loop and its drain. */
#include "common/sandbox/sbx_server.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/base/log.h"
#include "common/base/random_id.h"
#include "common/base/secmem.h"
#include "common/base/xwrap.h"
#include "common/jail/jail_options.h"
#include "common/sandbox/sbx_config.h"
#include "common/sandbox/sbx_env.h"
#include "common/sandbox/sbx_warm.h"
#include "common/service/metrics.h"
#include "common/service/service.h"
#include "common/wire/channel.h"
#include "common/wire/netaddr.h"
#include "common/wire/version.h"

/* Supervisor <-> handler: ADMIT (tenant, CPU asked), VERDICT (0: run now,
 * else the refusal code), DONE (CPU used): common/service/service.h. */

/* Answer the queued handlers ids[0..n) with VERDICT code. */
static void
verdict_queued(struct sbx_server *s, const uint64_t *ids, size_t n,
    unsigned code)
{
	for (size_t i = 0; i < n; i++) {
		struct sbx_server_handler *h = supervisor_find(&s->sv,
		    (pid_t)ids[i]);

		if (h)
			service_verdict(h->sv.ctl, code);
	}
}

/* Start what the budgets let start now. */
static void
start_queued(struct sbx_server *s)
{
	uint64_t ids[64];
	size_t n;

	while ((n = sbx_budget_next(&s->budgets, (uint64_t)mono_ms(), ids,
	    sizeof ids / sizeof ids[0])) > 0)
		verdict_queued(s, ids, n, 0);
}

/* Draining: every request still waiting for admission is refused. */
static void
refuse_queued(struct sbx_server *s)
{
	uint64_t ids[64];
	size_t n;

	while ((n = sbx_budget_expire(&s->budgets, (uint64_t)mono_ms(), 0, ids,
	    sizeof ids / sizeof ids[0])) > 0)
		verdict_queued(s, ids, n, SBX_ERR_SHUTDOWN);
}

static void
expire_queued(struct sbx_server *s)
{
	uint64_t ids[64];
	size_t n = sbx_budget_expire(&s->budgets, (uint64_t)mono_ms(),
	    s->cfg.queue_timeout_ms, ids, sizeof ids / sizeof ids[0]);

	verdict_queued(s, ids, n, SBX_ERR_QUEUE_TIMEOUT);
}

enum sbx_admission
sbx_server_admission(struct sbx_budgets *b, struct sbx_server_handler *h,
    const struct ctlmsg *m, int draining, uint64_t now_ms, unsigned *verdict)
{
	int rc;

	if (m->type == CTLMSG_ADMIT && !h->admitted) {
		if (draining) {
			*verdict = SBX_ERR_SHUTDOWN;
			return SBX_ADMISSION_VERDICT;
		}
		rc = sbx_budget_admit(b, (uint64_t)h->sv.pid, m->u.admit.tenant,
		    m->u.admit.cpu_ms, now_ms);
		if (rc == SBX_ADMIT_RUN || rc == SBX_ADMIT_QUEUED)
			h->admitted = 1;
		if (rc == SBX_ADMIT_QUEUED)
			return SBX_ADMISSION_NONE;
		*verdict = rc == SBX_ADMIT_RUN ? 0 : (unsigned)rc;
		return SBX_ADMISSION_VERDICT;
	}
	/* only a running handler is done: one still queued that says so is
	 * out of turn, and taking its word would leave its place in the
	 * queue with no one to give it back (found by fuzz_sbx_server) */
	if (m->type == CTLMSG_DONE && h->admitted && !h->done &&
	    sbx_budget_finish(b, (uint64_t)h->sv.pid, m->u.done_cpu_ms,
	    now_ms) == 0) {
		h->done = 1;
		return SBX_ADMISSION_FINISHED;
	}
	return SBX_ADMISSION_NONE;
}

void
sbx_server_release(struct sbx_budgets *b, const struct sbx_server_handler *h,
    uint64_t now_ms)
{
	uint64_t pid = (uint64_t)h->sv.pid, limit = 0;

	if (!h->admitted || h->done || sbx_budget_cancel(b, pid) == 0)
		return;
	for (size_t i = 0; i < b->nentries; i++)
		if (b->entries[i].state == SBX_RUNNING && b->entries[i].id ==
		    pid)
			limit = b->entries[i].cpu_ms;
	sbx_budget_finish(b, pid, limit, now_ms);
}

static void
on_ctl(void *ctx, void *handler)
{
	struct sbx_server *s = ctx;
	struct sbx_server_handler *h = handler;
	struct ctlmsg m;
	unsigned verdict;
	int fd;

	if (ctlmsg_recv(h->sv.ctl, &m, &fd, MSG_DONTWAIT) != CTLMSG_OK)
		return;		/* gone (SIGCHLD cleans up), or nonsense */
	if (m.type == CTLMSG_READY) {	/* a keeper's slot is prepared */
		if (h->warm == 1) {
			h->warm = 2;
			s->warm_ready++;
			metric_set(M_SBX_WARM_IDLE, 0, s->warm_ready);
		}
		return;
	}
	switch (sbx_server_admission(&s->budgets, h, &m, s->draining,
	    (uint64_t)mono_ms(), &verdict)) {
	case SBX_ADMISSION_VERDICT:
		service_verdict(h->sv.ctl, verdict);
		break;
	case SBX_ADMISSION_FINISHED:
		start_queued(s);
		break;
	case SBX_ADMISSION_NONE:
		/* queued: a handler given a warm slot is told, so that it
		 * does not hold the slot's jail while it waits */
		if (m.type == CTLMSG_ADMIT && h->admitted && h->warm_given_at)
			service_verdict(h->sv.ctl, SERVICE_VERDICT_QUEUED);
		break;
	}
}

/* A handler that is gone gives back what it held. */
static void
release(void *ctx, void *handler)
{
	struct sbx_server *s = ctx;
	struct sbx_server_handler *h = handler;

	if (h->warm) {
		/* a keeper ended before its connection: its slot failed or
		 * died; the next one waits a second (no fork loop) */
		s->warm_keepers--;
		s->warm_ready -= h->warm == 2;
		s->warm_retry_at = mono_ms() + 1000;
		metric_set(M_SBX_WARM_IDLE, 0, s->warm_ready);
	}
	sbx_server_release(&s->budgets, handler, (uint64_t)mono_ms());
	start_queued(s);
}

static void
reap(struct sbx_server *s)
{
	service_reap(&s->sv, release, s);
}

/* --- the handler: one connection, one execution ------------------------ */

struct conn {
	int ctl;
	const char *peer;
	char key_id[SECRET_KEY_ID_LEN + 1];	/* the secret it used */
	char exec_id[17];
	struct sbx_request req;
	struct sbx_file_data files[SBX_FILES_MAX];
	char *args[SBX_ARGS_MAX + 1];	/* into req's words */
	uint8_t *body;
	const char *why;	/* the receiver went away: why */
	int warm;		/* a warm slot took the execution */
	struct channel ch;	/* last: channel_adopt sets it up */
};

/* Send ERROR and end the connection (the handler exits next); the close
 * lingers (service_refuse): a refusal can come while the client is still
 * uploading. Only a client that completed the handshake gets here. */
static void
conn_error(struct conn *c, unsigned code, const char *msg)
{
	log_event(LOG_WARN, "request refused", (struct log_field[]){
	    LF_STR("exec", c->exec_id), LF_STR("peer", c->peer),
	    LF_STR("tenant", c->req.tenant), LF_STR("request",
	    c->req.request_id), LF_STR("code", sbx_error_name(code)),
	    LF_STR("reason", msg) }, 6);
	service_refuse(&c->ch, code, msg);
}

/* Read the request header and its body, within the upload deadline. */
static int
conn_request(struct conn *c, int64_t deadline)
{
	const uint8_t *p;
	const char *why = "";
	uint8_t type;
	size_t len, have = 0;
	uint64_t body_len;
	enum sbx_status st;
	enum channel_next nx;

	nx = channel_recv_wait(&c->ch, &type, &p, &len,
	    (int)(deadline - mono_ms()), &why);
	if (nx == CHANNEL_NEED) {
		conn_error(c, SBX_ERR_UPLOAD_TIMEOUT, "no request in time");
		return -1;
	}
	if (nx != CHANNEL_FRAME || type != FRAME_SPAWN) {
		if (nx == CHANNEL_FRAME)
			conn_error(c, SBX_ERR_PROTOCOL, "expected the request");
		return -1;
	}
	if ((st = sbx_request_parse(&c->req, p, len)) != SBX_OK) {
		conn_error(c, st == SBX_BAD_MAGIC ? SBX_ERR_PROTOCOL :
		    SBX_ERR_BAD_REQUEST, sbx_status_text(st));
		return -1;
	}
	body_len = sbx_request_body_len(&c->req);	/* capped by the parser */
	c->body = malloc(body_len ? (size_t)body_len : 1);
	if (!c->body) {
		conn_error(c, SBX_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (;;) {
		int left = (int)(deadline - mono_ms());

		if (left <= 0 || (nx = channel_recv_wait(&c->ch, &type, &p,
		    &len, left, &why)) == CHANNEL_NEED) {
			conn_error(c, SBX_ERR_UPLOAD_TIMEOUT, "the request's "
			    "files and input did not arrive in time");
			return -1;
		}
		if (nx != CHANNEL_FRAME)
			return -1;
		if (type == FRAME_STDIN_EOF)
			break;
		if (type != FRAME_STDIN || len > body_len - have) {
			conn_error(c, SBX_ERR_PROTOCOL, "more bytes than the "
			    "request announced, or an unexpected frame");
			return -1;
		}
		memcpy(c->body + have, p, len);
		have += len;
	}
	if (have != body_len) {
		conn_error(c, SBX_ERR_PROTOCOL, "fewer bytes than the request "
		    "announced");
		return -1;
	}
	have = 0;
	for (size_t i = 0; i < c->req.nfiles; i++) {
		c->files[i] = (struct sbx_file_data){ c->req.files[i].name,
		    c->body + have, c->req.files[i].size };
		have += c->req.files[i].size;
	}
	return 0;
}

static uint64_t
clamp(uint64_t want, uint64_t def, uint64_t max)
{
	uint64_t v = want ? want : def;

	return v > max ? max : v;
}

void
sbx_server_limits(const struct sbx_server_config *cfg,
    const struct sbx_limits *asked, struct sbx_limits *out)
{
	out->timeout_ms = clamp(asked->timeout_ms, cfg->def.timeout_ms,
	    cfg->max.timeout_ms);
	out->cpu_ms = clamp(asked->cpu_ms, cfg->def.cpu_ms, cfg->max.cpu_ms);
	out->memory = clamp(asked->memory, cfg->def.memory, cfg->max.memory);
	out->output = clamp(asked->output, cfg->def.output, cfg->max.output);
	out->pids = (uint32_t)clamp(asked->pids, cfg->def.pids,
	    cfg->max.pids);
}

int
sbx_server_limits_check(const struct sbx_limits *asked, char *why,
    size_t cap)
{
	if (asked->memory == 0 || asked->memory >= SBX_MEMORY_MIN)
		return 0;
	snprintf(why, cap, "memory limit %llu is under %llu bytes (%lluM), "
	    "the smallest a tool runs under",
	    (unsigned long long)asked->memory, SBX_MEMORY_MIN,
	    SBX_MEMORY_MIN >> 20);
	return -1;
}

void
sbx_server_refusal(unsigned code, const char *tenant, char *out, size_t cap)
{
	const char *why = code == SBX_ERR_BUDGET_CONCURRENCY ?
	    "the tenant is at its concurrent executions" :
	    code == SBX_ERR_BUDGET_QUEUE ? "the tenant's queue is full" :
	    code == SBX_ERR_BUDGET_CPU ? "the tenant has used its CPU time "
	    "for this window" : code == SBX_ERR_QUEUE_TIMEOUT ? "waited in "
	    "the tenant's queue too long" : code == SBX_ERR_SHUTDOWN ?
	    "the service is shutting down" : NULL;

	if (why)
		snprintf(out, cap, "%s", why);
	else
		snprintf(out, cap, "refused by the %s budget of tenant %s",
		    sbx_error_name(code), tenant);
}

/* A refusal in the budget refusals' metric (not a shutdown). */
static void
count_refusal(unsigned code)
{
	if (code != SBX_ERR_SHUTDOWN)
		metric_add(M_SBX_BUDGET_REFUSALS,
		    code == SBX_ERR_BUDGET_CONCURRENCY ? MB_TENANT_CONCURRENCY :
		    code == SBX_ERR_BUDGET_QUEUE ? MB_TENANT_QUEUE :
		    code == SBX_ERR_BUDGET_CPU ? MB_TENANT_CPU :
		    code == SBX_ERR_QUEUE_TIMEOUT ? MB_QUEUE_TIMEOUT :
		    MB_TOTAL_QUEUE, 1);
}

/* Ask the supervisor; wait for its answer while the client may leave:
 * 0 run, > 0 refused, -1 the client left or was refused for a frame it
 * had no business sending (told why). */
static int
conn_admit(struct conn *c, uint64_t cpu_ms)
{
	int rc = service_admit(c->ctl, c->req.tenant, cpu_ms, &c->ch);

	/* queued: a warm slot held while the request waits would be a
	 * prepared jail (a JVM in a Java slot) per queue place, where a
	 * cold one holds only the request: destroyed now, the execution
	 * starts cold at its turn */
	if (rc == (int)SERVICE_VERDICT_QUEUED) {
		sbx_exec_warm_discard();
		rc = service_admit_wait(c->ctl, &c->ch);
	}
	if (rc == -3) {
		conn_error(c, SBX_ERR_PROTOCOL, "a frame other than PING "
		    "while the request waited for its turn: after STDIN_EOF "
		    "a client sends only PING until the answer");
		return -1;
	}
	return rc == -2 ? SBX_ERR_SHUTDOWN : rc;	/* supervisor gone */
}

/* The execution's output goes out as STDOUT/STDERR frames: queued,
 * never waited for (conn_room said it fits; the loop flushes on POLLOUT
 * while the limits' clocks run). */
static int
conn_emit(void *ctx, int stream, const uint8_t *p, size_t n)
{
	struct conn *c = ctx;

	if (n > FRAME_PAYLOAD_MAX || channel_queue(&c->ch, stream == 1 ?
	    FRAME_STDOUT : FRAME_STDERR, p, n) != 0) {
		c->why = "internal: the output queue overflowed";
		return -1;
	}
	return 0;
}

/* One frame's worth while the queue has room for a record, else 0: the
 * tool then blocks on its pipe until the client reads. */
static size_t
conn_room(void *ctx)
{
	struct conn *c = ctx;

	return channel_can_queue(&c->ch) ? FRAME_PAYLOAD_MAX : 0;
}

static short
conn_events(void *ctx)
{
	struct conn *c = ctx;

	return (short)(POLLIN | (channel_pending(&c->ch) ? POLLOUT : 0));
}

static int
conn_ready(void *ctx, short revents)
{
	struct conn *c = ctx;

	if ((revents & POLLOUT) && channel_flush(&c->ch) != 0) {
		c->why = "connection lost";
		return -1;
	}
	if (revents & (POLLIN | POLLHUP | POLLERR)) {
		switch (service_answer_pings(&c->ch, 0)) {
		case 0:
			break;
		case -1:
			c->why = "the client went away";
			return -1;
		case -3:
			c->why = "the client does not read its answers";
			return -1;
		default:
			c->why = "protocol error from the client";
			return -1;
		}
	}
	return 0;
}

/* The execution in the service's metrics (labels from fixed tables). */
static void
count_execution(unsigned lang, const struct sbx_result *r)
{
	if (lang >= SBX_LANG_PYTHON && lang <= SBX_LANG_EXEC &&
	    r->reason < SBX_REASON_MAX_)
		metric_add(M_SBX_EXECUTIONS, (lang - SBX_LANG_PYTHON) *
		    SBX_REASON_MAX_ + r->reason, 1);
	metric_observe(MH_SBX_SECONDS, r->wall_ms);
	if (r->reason == SBX_MEMORY)
		metric_add(M_CGROUP_KILLS, ML_MEMORY, 1);
	else if (r->reason == SBX_PIDS)
		metric_add(M_CGROUP_KILLS, ML_PIDS, 1);
	else if (r->reason == SBX_JAIL_FAILED)
		metric_add(M_JAIL_FAILURES, 0, 1);
}

/* One JSON record per execution: never the source or the input. */
static void
log_execution(const struct conn *c, const struct sbx_job *job,
    const struct sbx_result *r)
{
	const struct sbx_limits *lim = &job->lim;
	/* a compiler message quotes source lines: not in the log */
	const char *detail = r->reason == SBX_COMPILE_FAILED ?
	    "(compiler message sent to the client only)" : r->detail;

	count_execution(c->req.lang, r);
	log_event(r->reason == SBX_EXITED ? LOG_INFO : LOG_WARN, "execution",
	    (struct log_field[]){
	    LF_STR("exec", c->exec_id), LF_STR("start", c->warm ? "warm" :
	    "cold"), LF_STR("tenant", c->req.tenant),
	    LF_STR("request", c->req.request_id), LF_STR("key", c->key_id),
	    LF_STR("language", sbx_lang_name(c->req.lang)),
	    LF_NUM("timeout_ms", lim->timeout_ms), LF_NUM("cpu_limit_ms",
	    lim->cpu_ms), LF_NUM("memory_limit", lim->memory),
	    LF_NUM("pids_limit", lim->pids), LF_NUM("output_limit",
	    lim->output), LF_NUM("disk_limit", job->disk),
	    LF_STR("reason", sbx_reason_name(r->reason)),
	    LF_STR("status_kind", r->kind == SBX_KIND_CODE ? "exit" :
	    r->kind == SBX_KIND_SIGNAL ? "signal" : "none"),
	    LF_NUM("status", r->status),
	    LF_NUM("wall_ms", r->wall_ms), LF_NUM("cpu_ms", r->cpu_ms),
	    LF_NUM("peak_memory", r->peak_memory),
	    LF_NUM("peak_memory_upper_bound", (r->flags &
	    SBX_F_PEAK_UPPER_BOUND) != 0), LF_NUM("stdout_bytes",
	    r->stdout_bytes), LF_NUM("stderr_bytes", r->stderr_bytes),
	    LF_NUM("truncated", r->flags & (SBX_F_STDOUT_TRUNCATED |
	    SBX_F_STDERR_TRUNCATED)),
	    LF_STR("detail", detail) }, 22);
}

/* A well-formed request this service does not run: its language is not
 * here, or its memory limit is under the minimum. 1 when refused (the
 * client told why). */
static int
conn_unservable(struct conn *c, const struct sbx_exec_env *env,
    const struct sbx_server_config *cfg)
{
	char why[160];

	if ((c->req.lang == SBX_LANG_JAVA && !env->java_home) ||
	    (c->req.lang == SBX_LANG_EXEC && !cfg->exec_interpreter)) {
		conn_error(c, SBX_ERR_LANGUAGE, c->req.lang == SBX_LANG_JAVA ?
		    "this service has no JDK" : "this service has no "
		    "--exec-interpreter");
		return 1;
	}
	if (sbx_server_limits_check(&c->req.lim, why, sizeof why) != 0) {
		conn_error(c, SBX_ERR_BAD_REQUEST, why);
		return 1;
	}
	return 0;
}

/* The handler of one authenticated connection, in its own process:
 * returns its exit status. sigfd: the signals that stop the execution,
 * or -1 (made here). In a warm slot's keeper the slot takes the
 * execution when it fits (sbx_warm_fits), else it is destroyed unused
 * and the execution starts cold. */
static int
handler_serve(struct sbx_server *s, int fd, struct noise_transport *t,
    int ctl, const char *peer, unsigned key, int sigfd)
{
	const struct sbx_job *slot = sbx_exec_warm_slot();
	static struct conn c;
	struct sbx_started started;
	struct sbx_result res;
	struct sbx_output out;
	struct sbx_job job;
	struct sbx_exec_env env = *s->env;
	uint8_t buf[SBX_DETAIL_MAX + 256];
	int64_t deadline = mono_ms() + (int64_t)s->cfg.handshake_ms;
	long n;
	int rc;

	/* the signals that stop the execution are read from env.sigfd */
	if ((env.sigfd = sigfd >= 0 ? sigfd : service_handler_signals()) < 0) {
		log_msg(LOG_ERROR, "handler signals: %s", strerror(errno));
		return EXIT_OSERR;
	}
	memset(&c, 0, offsetof(struct conn, ch));
	c.ctl = ctl;
	c.peer = peer;
	/* a copy: the ring is wiped next */
	snprintf(c.key_id, sizeof c.key_id, "%s", service_key_id(&s->ring,
	    key));
	if (slot)	/* the slot's lease is the execution's */
		snprintf(c.exec_id, sizeof c.exec_id, "%s", slot->id);
	else if (random_id(c.exec_id) != 0) {
		log_msg(LOG_ERROR, "getrandom: %s", strerror(errno));
		return EXIT_OSERR;
	}
	/* the handshake ran in the pre-auth process: the inherited copy of
	 * the secret serves nothing here */
	secret_ring_wipe(&s->ring);
	channel_adopt(&c.ch, fd, t);
	netaddr_keepalive(c.ch.fd, 15, 5, 3);
	if (conn_request(&c, deadline) != 0)
		return EXIT_PROTOCOL;
	if (conn_unservable(&c, &env, &s->cfg))
		return EXIT_OK;
	memset(&job, 0, sizeof job);
	job.id = c.exec_id;
	job.tenant = c.req.tenant;
	job.lang = c.req.lang;
	sbx_server_limits(&s->cfg, &c.req.lim, &job.lim);
	job.disk = sbx_env_disk(s->cfg.disk, job.lim.memory,
	    s->cfg.max_disk);
	job.files = c.files;
	job.nfiles = c.req.nfiles;
	job.input = c.body + (sbx_request_body_len(&c.req) - c.req.input_size);
	job.input_len = c.req.input_size;
	job.nargs = sbx_request_argv(&c.req, c.args);
	job.args = c.args;
	if (c.req.lang == SBX_LANG_EXEC) {
		static char *xargv[3];

		xargv[0] = (char *)s->cfg.exec_interpreter;
		xargv[1] = (char *)c.files[0].name;
		job.exec_argv = xargv;
	}
	rc = conn_admit(&c, job.lim.cpu_ms);
	if (rc < 0)
		return EXIT_OK;		/* the client left while waiting */
	if (rc > 0) {
		char msg[160];

		count_refusal((unsigned)rc);
		sbx_server_refusal((unsigned)rc, c.req.tenant, msg,
		    sizeof msg);
		conn_error(&c, (unsigned)rc, msg);
		return EXIT_OK;
	}
	memset(&started, 0, sizeof started);
	snprintf(started.exec_id, sizeof started.exec_id, "%s", c.exec_id);
	snprintf(started.jail, sizeof started.jail, "%s",
	    jail_mode_name(env.jail->cfg.mode));
	started.lim = job.lim;
	n = sbx_started_encode(buf, sizeof buf, &started);
	if (n < 0 || channel_queue(&c.ch, FRAME_STARTED, buf, (size_t)n) != 0)
		return EXIT_SOFTWARE;
	out = (struct sbx_output){ &c, conn_emit, conn_room, c.ch.fd,
		conn_events, conn_ready };
	slot = sbx_exec_warm_slot();	/* none: destroyed while queued */
	c.warm = slot && sbx_warm_fits(slot, &job);
	if (slot)
		metric_add(M_SBX_WARM_STARTS, c.warm ? 0 : 1, 1);
	rc = c.warm ? sbx_exec_warm_run(&job, &out, &res) :
	    sbx_exec(&env, &job, &out, &res);
	service_done(ctl, res.cpu_ms);
	log_execution(&c, &job, &res);
	if (rc != 0) {
		log_event(LOG_WARN, "execution abandoned", (struct log_field[]){
		    LF_STR("exec", c.exec_id), LF_STR("reason", c.why ? c.why :
		    "the service is stopping") }, 2);
		return EXIT_OK;
	}
	n = sbx_result_encode(buf, sizeof buf, &res);
	if (n < 0 || channel_send_wait(&c.ch, FRAME_EXIT, buf, (size_t)n,
	    10000) != 0)
		return EXIT_IOERR;
	/* the result is a final frame too: close as conn_error does */
	(void)channel_close_lingering(&c.ch, SERVICE_FINAL_FRAME_MS);
	return EXIT_OK;
}

/* --- warm slots ----------------------------------------------------------- */

/* A warm slot's keeper, in its own process (a handler not yet given a
 * connection): prepare one slot (sbx_exec_warm_prepare: the service's
 * default limits, nothing of any tenant), say READY, then wait. A CONN
 * from the supervisor makes it that connection's handler. A slot that
 * dies while it waits is destroyed and made again (the keeper stays
 * ready: a connection already on its way is served, cold if need be); a
 * signal ends it, the slot destroyed. It holds no secret while it waits:
 * only the key ids the execution's log line names. */
static int
keeper_serve(struct sbx_server *s, int ctl, unsigned lang)
{
	static char id[17];
	static struct sbx_exec_env env;
	static const struct sbx_limits zero;
	struct sbx_job slot;
	struct ctlmsg m;
	char err[512], peer[96];
	uint64_t idle = 0;
	int sigfd, conn = -1, ready = 0, rc;

	secure_wipe(s->ring.psk, sizeof s->ring.psk);
	if ((sigfd = service_handler_signals()) < 0)
		return EXIT_OSERR;
	env = *s->env;
	env.sigfd = sigfd;
	for (;;) {
		struct pollfd pf[3];

		if (!sbx_exec_warm_slot()) {
			memset(&slot, 0, sizeof slot);
			if (random_id(id) != 0)
				return EXIT_OSERR;
			slot.id = id;
			slot.lang = lang;
			sbx_server_limits(&s->cfg, &zero, &slot.lim);
			slot.disk = sbx_env_disk(s->cfg.disk, slot.lim.memory,
			    s->cfg.max_disk);
			if (sbx_exec_warm_prepare(&env, &slot, err, sizeof err)
			    != 0) {
				log_event(LOG_WARN, "warm slot not prepared",
				    (struct log_field[]){ LF_STR("exec", id),
				    LF_STR("reason", err) }, 2);
				if (!ready)	/* no connection can come */
					return EXIT_UNAVAILABLE;
			} else {
				idle = sbx_exec_warm_memory();
				metric_add(M_SBX_WARM_BYTES, 0, idle);
			}
		}
		if (!ready && ctlmsg_send(ctl, &(struct ctlmsg){ .type =
		    CTLMSG_READY }, -1, 0) != CTLMSG_OK)
			break;
		ready = 1;
		pf[0] = (struct pollfd){ ctl, POLLIN, 0 };
		pf[1] = (struct pollfd){ sigfd, POLLIN, 0 };
		pf[2] = (struct pollfd){ sbx_exec_warm_pidfd(), POLLIN, 0 };
		if (poll(pf, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents)
			break;		/* stopped: draining, a reload */
		if (pf[0].revents)
			break;		/* a connection (or nonsense) */
		if (pf[2].revents) {	/* the slot died waiting */
			metric_add(M_SBX_WARM_BYTES, 0, (uint64_t)0 - idle);
			idle = 0;
			sbx_exec_warm_discard();
		}
	}
	metric_add(M_SBX_WARM_BYTES, 0, (uint64_t)0 - idle);
	if (ready && ctlmsg_recv(ctl, &m, &conn, MSG_DONTWAIT) == CTLMSG_OK &&
	    m.type == CTLMSG_CONN) {
		netaddr_peer_text(conn, peer, sizeof peer);
		rc = handler_serve(s, conn, &m.u.conn, ctl, peer, m.conn_key,
		    sigfd);
		secure_wipe(&m, sizeof m);
		/* a request refused (a budget, a bad request, an upload too
		 * slow) or whose client left before its turn never took the
		 * slot: destroyed here as a used one is (its cgroups, its
		 * uid's entry), not left to the process's exit */
		sbx_exec_warm_discard();
		return rc;
	}
	if (conn >= 0)
		close(conn);
	sbx_exec_warm_discard();
	return EXIT_OK;
}

/* The keepers of lang's slots, and the slots of lang taken by a call
 * still in its hold: each of those has its keeper to come. */
static uint32_t
warm_kept(struct sbx_server *s, unsigned lang)
{
	int64_t now = mono_ms();
	uint32_t n = 0;

	for (size_t i = 0; i < s->sv.nh; i++) {
		struct sbx_server_handler *h = supervisor_handler(&s->sv, i);

		n += (h->warm || (h->warm_given_at && now - h->warm_given_at <
		    SBX_WARM_HOLD_MS)) && h->warm_lang == lang;
	}
	return n;
}

/* When the first hold ends (ms from now), or -1: none runs. */
static int64_t
warm_hold_next(struct sbx_server *s)
{
	int64_t now = mono_ms(), next = -1;

	for (size_t i = 0; i < s->sv.nh; i++) {
		struct sbx_server_handler *h = supervisor_handler(&s->sv, i);
		int64_t left = h->warm_given_at + SBX_WARM_HOLD_MS - now;

		if (h->warm_given_at && left > 0 && (next < 0 || left < next))
			next = left;
	}
	return next;
}

/* Keep --warm keepers, each preparing its slot in its own process while
 * the supervisor serves on; none while draining, none for a second after
 * one died unused. A slot taken by a call is replaced when that call's
 * handler has ended or its hold is over, whichever is first: a slot's
 * hold delays its own replacement only. */
static void
warm_fill(struct sbx_server *s)
{
	static const unsigned langs[] = { SBX_LANG_PYTHON, SBX_LANG_JAVA };

	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		uint32_t want = langs[l] == SBX_LANG_JAVA ? s->cfg.warm_java :
		    s->cfg.warm_python;

		while (!s->draining && warm_kept(s, langs[l]) < want &&
		    mono_ms() >= s->warm_retry_at) {
			struct sbx_server_handler *h;
			int ctl;
			pid_t pid = supervisor_fork(&s->sv, -1, &ctl);

			if (pid == 0)
				_exit(keeper_serve(s, ctl, langs[l]));
			if (pid < 0) {
				s->warm_retry_at = mono_ms() + 1000;
				return;
			}
			h = supervisor_handler(&s->sv, s->sv.nh - 1);
			h->warm = 1;
			h->warm_lang = langs[l];
			s->warm_keepers++;
		}
	}
}

/* The words a client's prologue may name its tool's language with
 * (docs/PROTOCOL.md, "Languages in the prologue"): word k is
 * lang_words[k - 1]. Only the pre-auth process's tag checks tell which. */
static const char *const lang_words[] = { "python", "java", NULL };

/* The language a connection's prologue word names, or 0 (none). */
static unsigned
word_lang(unsigned word)
{
	return word >= 1 && word < sizeof lang_words / sizeof *lang_words ?
	    sbx_lang_parse(lang_words[word - 1]) : 0;
}

/* The words the pre-auth process accepts: lang_words, or none under the
 * test hook's "none" (a service as an older build, for the
 * compatibility tests). */
static const char *const *
accepted_words(void)
{
	const char *word = NULL;

	if (version_word_hook(&word) != 1 || word)
		return lang_words;
	log_msg(LOG_WARN, "test hook %s=none: no language in the prologue is "
	    "accepted (unset it in production)", VERSION_WORD_HOOK);
	return NULL;
}

/* Hand conn to a keeper whose slot is ready, of lang's slots when the
 * client named one (0: any): 0, or -1 when none took it. The keeper's
 * slot fits the request or is destroyed unused there (a client whose
 * word lied): the request is only read by its handler. */
static int
warm_give(struct sbx_server *s, int conn, const struct noise_transport *t,
    unsigned key, unsigned version, unsigned lang)
{
	for (size_t i = 0; i < s->sv.nh; i++) {
		struct sbx_server_handler *h = supervisor_handler(&s->sv, i);
		struct ctlmsg m;
		enum ctlmsg_status st;

		if (h->warm != 2 || (lang && h->warm_lang != lang))
			continue;
		memset(&m, 0, sizeof m);
		m.type = CTLMSG_CONN;
		m.conn_key = (uint8_t)key;
		m.conn_version = (uint8_t)version;
		m.u.conn = *t;
		st = ctlmsg_send(h->sv.ctl, &m, conn, MSG_DONTWAIT);
		secure_wipe(&m, sizeof m);
		if (st != CTLMSG_OK)
			continue;	/* gone: reaping cleans up */
		close(conn);
		h->warm = 0;
		h->warm_given_at = mono_ms();
		s->warm_keepers--;
		s->warm_ready--;
		metric_set(M_SBX_WARM_IDLE, 0, s->warm_ready);
		return 0;
	}
	return -1;
}

/* Every keeper still waiting is told to end (SIGTERM): draining, or a
 * reload whose limits its slot may no longer fit. */
static void
warm_stop(struct sbx_server *s)
{
	for (size_t i = 0; i < s->sv.nh; i++) {
		struct sbx_server_handler *h = supervisor_handler(&s->sv, i);

		if (h->warm)
			kill(h->sv.pid, SIGTERM);
	}
}

/* An authenticated connection from the pre-auth process: a warm slot's
 * keeper, or one new handler, up to the executions and queue places in
 * all plus the refusal slots (the budgets refuse past the first two;
 * keepers not yet given a connection do not count); past them it is
 * closed. */
static void
take_conn(void *ctx, int conn, struct noise_transport *t, unsigned key,
    unsigned version, unsigned word)
{
	struct sbx_server *s = ctx;
	char peer[96];
	int ctl;

	/* no "accepted" line: the handler's execution line says it all */
	if (service_take(&s->sv, (size_t)s->cfg.budget.total_concurrent +
	    s->cfg.budget.total_queue + s->warm_keepers, conn, peer,
	    sizeof peer) != 0)
		return;
	if (warm_give(s, conn, t, key, version, word_lang(word)) == 0)
		return;
	/* the handler is a per-request child: exiting is its cleanup */
	if (supervisor_fork(&s->sv, conn, &ctl) == 0)
		_exit(handler_serve(s, conn, t, ctl, peer, key, -1));
}

/* Reap, then the gauge /readyz reads: every live handler counts, queued
 * ones too (the capacity is executions plus queue places), where the
 * runner leaves out its refusal handlers. */
static void
reap_all(void *ctx)
{
	struct sbx_server *s = ctx;

	reap(s);
	metric_set(M_LEASES_ACTIVE, 0, s->sv.nh - s->warm_keepers);
}

void
sbx_server_reload_from(struct sbx_server *s, const struct sbx_config *base,
    struct sbx_config *cf)
{
	s->base = base;
	s->cf = cf;
}

/* The configuration a reload would switch to, into n: --config FILE read
 * again onto the command line and checked, no fixed option changed.
 * 0, or -1 with err. */
static int
reload_config(struct sbx_server *s, struct sbx_config *n, char *err,
    size_t errlen)
{
	const char *changed;

	*n = *s->base;
	n->file_buf = NULL;
	if (sbx_config_load(n, s->base->config_path, err, errlen) != 0 ||
	    sbx_config_finish(n, err, errlen) != 0)
		return -1;
	if ((changed = sbx_config_fixed_change(s->cf, n)) != NULL) {
		snprintf(err, errlen, "%s: --%s changed, and it needs a "
		    "restart (only secrets, limits and budgets reload: see "
		    "docs/OPERATIONS.md)", s->base->config_path, changed);
		return -1;
	}
	return 0;
}

/* SIGHUP: all or nothing. New connections get the new secrets, new
 * executions the new limits and budgets; a configuration that does not
 * load keeps the one in force, and the log says why. */
static void
reload(struct sbx_server *s)
{
	static struct sbx_config n;
	struct secret_ring ring;
	const struct sbx_server_config *c = &s->cfg;
	char err[640];
	char *old_buf;

	memset(&ring, 0, sizeof ring);
	if (s->base && s->base->config_path) {
		if (reload_config(s, &n, err, sizeof err) != 0)
			goto refused;
		c = &n.sc;
	}
	if (secret_ring_load(&ring, c->secret_files, c->nsecret, err,
	    sizeof err) != 0)
		goto refused;
	if (c != &s->cfg && sbx_budget_reconfigure(&s->budgets, &c->budget)
	    != 0) {
		snprintf(err, sizeof err, "the budgets: %s", strerror(errno));
		goto refused;
	}
	if (c != &s->cfg) {
		old_buf = s->cf->file_buf;
		*s->cf = n;
		s->cf->sc.secret_files = s->cf->secret_files;
		s->cfg = s->cf->sc;
		free(old_buf);
		n.file_buf = NULL;
		s->sv.preauth.handshake_ms = (uint32_t)s->cfg.handshake_ms;
		s->sv.preauth.max_per_source = s->cfg.max_per_peer;
		metric_set(M_CAPACITY, 0,
		    (uint64_t)s->cfg.budget.total_concurrent +
		    s->cfg.budget.total_queue);
	}
	s->ring = ring;
	secret_ring_wipe(&ring);
	supervisor_replace_preauth(&s->sv);
	warm_stop(s);	/* slots of the old limits: made again */
	log_event(LOG_INFO, "reloaded", (struct log_field[]){
	    LF_NUM("secrets", s->ring.n),
	    LF_NUM("max_timeout_ms", s->cfg.max.timeout_ms),
	    LF_NUM("max_cpu_time_ms", s->cfg.max.cpu_ms),
	    LF_NUM("tenant_concurrency", s->cfg.budget.tenant_concurrent),
	    LF_NUM("max_concurrency", s->cfg.budget.total_concurrent) }, 5);
	return;
refused:
	secret_ring_wipe(&ring);
	free(n.file_buf);
	n.file_buf = NULL;
	log_event(LOG_ERROR, "reload refused: the configuration in force "
	    "stays", (struct log_field[]){ LF_STR("reason", err) }, 1);
}

static void
reload_hup(void *ctx)
{
	reload(ctx);
}

/* After each pass of the loop (a handler's exit is one: the keeper
 * behind its slot comes then): a queued execution's deadline wants a
 * look at the queue every 50 ms, a missing keeper one at the end of its
 * hold or its retry. */
static int
tick(void *ctx)
{
	struct sbx_server *s = ctx;
	int64_t hold;

	reap_all(s);
	expire_queued(s);
	warm_fill(s);
	if (s->budgets.queued)
		return 50;
	if (s->draining || s->warm_keepers >= s->cfg.warm_python +
	    s->cfg.warm_java)
		return -1;
	hold = warm_hold_next(s);
	return hold >= 0 && hold < 1000 ? (int)hold + 1 : 1000;
}

enum sbx_server_status
sbx_server_init(struct sbx_server *s, const struct sbx_server_config *cfg,
    int sigfd, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->cfg = *cfg;
	supervisor_init(&s->sv, sigfd, sizeof(struct sbx_server_handler));
	if (secret_ring_load(&s->ring, cfg->secret_files, cfg->nsecret, err,
	    errlen) != 0)
		return SBX_SERVER_BAD_SETUP;
	if (sbx_budget_init(&s->budgets, &cfg->budget) != 0) {
		snprintf(err, errlen, "the budget options do not fit together");
		return SBX_SERVER_BAD_OPTIONS;
	}
	return SBX_SERVER_OK;
}

enum sbx_server_status
sbx_server_listen(struct sbx_server *s, const char *addr, char *err,
    size_t errlen)
{
	switch (supervisor_listen(&s->sv, addr, err, errlen)) {
	case SUPERVISOR_LISTENING:
		return SBX_SERVER_OK;
	case SUPERVISOR_BAD_ADDRESS:
		return SBX_SERVER_BAD_OPTIONS;
	default:
		return SBX_SERVER_BAD_SETUP;
	}
}

void
sbx_server_stop_listening(struct sbx_server *s)
{
	supervisor_stop_listening(&s->sv);
}

enum sbx_server_status
sbx_server_run(struct sbx_server *s, const struct sbx_exec_env *env,
    char *err, size_t errlen)
{
	static const struct service_loop loop = { on_ctl, take_conn,
		reload_hup, tick };
	struct supervisor *sv = &s->sv;
	int sig;

	s->env = env;
	if (s->cfg.warm_java && !env->java_home) {
		snprintf(err, errlen, "--warm java needs a JDK (--java-home, or "
		    "javac on PATH)");
		return SBX_SERVER_BAD_OPTIONS;
	}
	/* handshakes run in the pre-auth process, as its own uid */
	if (service_start_preauth(sv, &s->ring, 0, accepted_words(),
	    (uint32_t)s->cfg.handshake_ms, s->cfg.max_per_peer,
	    s->cfg.preauth_uid, 0, &s->env->jail->cfg, err, errlen) != 0)
		return SBX_SERVER_BAD_SETUP;
	warm_fill(s);
	if ((sig = service_serve(sv, &loop, s)) < 0) {
		snprintf(err, errlen, "poll: %s", strerror(errno));
		return SBX_SERVER_SYSTEM;
	}
	/* drain: no new connections, the queued requests refused
	 * (shutdown); executions in flight run up to --drain-timeout (none
	 * after SIGINT or a second signal), then get SIGTERM and end with
	 * reason shutdown, their result sent; what is left 5 s later is
	 * killed */
	s->draining = 1;
	warm_stop(s);
	refuse_queued(s);
	log_event(LOG_INFO, "sandbox draining", (struct log_field[]){
	    LF_NUM("executions", sv->nh - s->warm_keepers),
	    LF_NUM("drain_timeout_ms",
	    sig == SIGINT ? 0 : s->cfg.drain_ms) }, 2);
	service_drain(sv, sig == SIGINT ? 0 : (uint32_t)s->cfg.drain_ms,
	    5000, on_ctl, reap_all, s);
	supervisor_fini(sv);
	return SBX_SERVER_OK;
}
