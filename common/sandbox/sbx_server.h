/* sbx_server.h - the sandbox service (`airlock sandbox serve`): the
 * supervisor's side (admission against the per-tenant budgets of
 * common/sandbox/sbx_budget.h, reaping, SIGHUP's reload of --config FILE,
 * the drain) and the handler it forks per authenticated connection (the
 * request's upload, admission, one execution of common/sandbox/sbx_exec.h,
 * the tool's output and result as frames). Listeners, the pre-auth
 * process, the control socket and the refusal are common/service's.
 *
 *   handler                            supervisor
 *   SPAWN, STDIN..., STDIN_EOF  (upload deadline: handshake_ms)
 *   ADMIT tenant, CPU limit  -------->  sbx_budget_admit: run, queue or
 *                            <--------  VERDICT  (refuse with its code)
 *   STARTED, STDOUT/STDERR..., EXIT
 *   DONE CPU used            -------->  sbx_budget_finish, start the next
 *
 * With --warm python=N the supervisor also keeps N keepers: handlers
 * forked before any connection, each preparing one warm slot
 * (sbx_exec_warm_prepare) and saying READY; a connection goes to a ready
 * keeper (CONN over its control socket: the fd and the transport state,
 * as the pre-auth process hands them over) and a new keeper is forked
 * when that handler has ended, or SBX_WARM_HOLD_MS after it was given
 * the connection if it runs longer (each slot's own hold: other calls
 * never delay its replacement). The keeper then is that
 * connection's handler: its slot
 * takes the execution when it fits, else it is destroyed unused and the
 * execution starts cold. */
#ifndef AIRLOCK_SBX_SERVER_H
#define AIRLOCK_SBX_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "common/sandbox/sbx_budget.h"
#include "common/sandbox/sbx_config.h"
#include "common/sandbox/sbx_exec.h"
#include "common/sandbox/sbx_proto.h"
#include "common/service/ctlmsg.h"
#include "common/service/supervisor.h"
#include "common/wire/secret.h"

struct sbx_server {
	struct sbx_server_config cfg;	/* in force: cf's sc */
	const struct sbx_config *base;	/* the command line, or NULL */
	struct sbx_config *cf;		/* what cfg came from, or NULL */
	const struct sbx_exec_env *env;	/* every execution's jail */
	struct sbx_budgets budgets;
	struct secret_ring ring;	/* the secrets accepted */
	struct supervisor sv;
	int draining;
	/* warm slots: keepers forked and not yet given a connection
	 * (preparing or ready), of them ready; no new keeper before
	 * warm_retry_at (one died before it was given a connection) */
	uint32_t warm_keepers, warm_ready;
	int64_t warm_retry_at;
};

/* The limits of a request that asked for asked: a 0 takes cfg's
 * default, anything over cfg's maximum is lowered to it. */
void sbx_server_limits(const struct sbx_server_config *cfg,
    const struct sbx_limits *asked, struct sbx_limits *out);

/* 0 when the service runs a request that asked for asked; -1 with why
 * when it asked for a memory limit under SBX_MEMORY_MIN (0 asks for the
 * default): refused, never raised. */
int sbx_server_limits_check(const struct sbx_limits *asked, char *why,
    size_t cap);

/* One connection's handler process, as the supervisor sees it. */
struct sbx_server_handler {
	struct supervisor_handler sv;	/* first: the supervisor's part */
	int admitted;		/* asked, and answered run or queued */
	int done;		/* said what it used (DONE) */
	int warm;		/* a warm slot's keeper not yet given a
				 * connection: 1 preparing, 2 ready */
	unsigned warm_lang;	/* its slot's enum sbx_lang */
	int64_t warm_given_at;	/* a keeper given a connection: when
				 * (mono_ms), else 0 */
};

/* A slot's preparation (namespaces, mounts, cgroups, an interpreter)
 * beside a running execution slows it by a third on a 2-CPU VM
 * (measured: its TLB shootdowns and RCU grace periods interrupt the
 * tool), so the keeper that replaces a taken slot waits for the call
 * to end, or this long for a call that runs on. */
#define SBX_WARM_HOLD_MS 250

enum sbx_admission {
	SBX_ADMISSION_NONE,	/* nothing to do now: queued (a verdict
				 * comes when it starts or expires), or a
				 * message out of turn, ignored */
	SBX_ADMISSION_VERDICT,	/* send *verdict to the handler: 0 run now,
				 * else the refusal's enum sbx_error */
	SBX_ADMISSION_FINISHED,	/* a DONE: the CPU it used is booked, a
				 * place is free (sbx_budget_next) */
};

/* The supervisor's answer to handler h's control message m (a decoded
 * ctlmsg: ADMIT or DONE count, anything else is ignored) under budgets b
 * at now_ms; while draining every ADMIT is refused (shutdown). Pure: the
 * caller sends the verdict. Each handler is admitted once and finishes
 * once, and only while it runs (a DONE from a queued one is out of turn);
 * a repeat is ignored. */
enum sbx_admission sbx_server_admission(struct sbx_budgets *b,
    struct sbx_server_handler *h, const struct ctlmsg *m, int draining,
    uint64_t now_ms, unsigned *verdict);

/* Handler h is gone: its place in b goes back. One that was admitted and
 * never said what it used is charged its whole CPU limit (fail closed);
 * a queued one only leaves its queue. */
void sbx_server_release(struct sbx_budgets *b,
    const struct sbx_server_handler *h, uint64_t now_ms);

/* The message of an admission refusal (code: enum sbx_error) for the
 * client, into out (cap bytes, always terminated). */
void sbx_server_refusal(unsigned code, const char *tenant, char *out,
    size_t cap);

/* What failed at start-up, named by what fixes it. */
enum sbx_server_status {
	SBX_SERVER_OK = 0,
	SBX_SERVER_BAD_OPTIONS,	/* options that do not fit together, an
				 * address that is none: the command line */
	SBX_SERVER_BAD_SETUP,	/* a secret, a listener, the pre-auth uid:
				 * the files and host it was given */
	SBX_SERVER_SYSTEM,	/* a system call failed while serving */
};

/* An idle service for cfg (copied; its pointees must outlive s) whose
 * supervisor waits on sigfd (owned from now on: SIGCHLD, SIGTERM, SIGINT,
 * SIGHUP): the secrets loaded, the budgets sized. On failure err says
 * why. */
enum sbx_server_status sbx_server_init(struct sbx_server *s,
    const struct sbx_server_config *cfg, int sigfd, char *err,
    size_t errlen);

/* SIGHUP re-reads base's --config FILE onto base (the command line;
 * unfinished), checks it whole (sbx_config_finish, no fixed option
 * changed, the secrets load, the budgets fit) and switches cf and s to
 * it: executions admitted from then on get its limits and budgets; those
 * running or queued keep theirs. Anything wrong keeps cf and the log says
 * why (FILE:LINE for the file). Without this, or without --config,
 * SIGHUP re-reads the secrets only. Both must outlive s. */
void sbx_server_reload_from(struct sbx_server *s,
    const struct sbx_config *base, struct sbx_config *cf);

/* Listen on addr too (HOST:PORT, [IPV6]:PORT, unix:/PATH). */
enum sbx_server_status sbx_server_listen(struct sbx_server *s,
    const char *addr, char *err, size_t errlen);

/* Close every listener (the preflight's end: nothing was served). */
void sbx_server_stop_listening(struct sbx_server *s);

/* Start the pre-auth process and serve executions in env (its pointees
 * outlive s) until SIGTERM or SIGINT; SIGHUP reloads
 * (sbx_server_reload_from). Then
 * drain: no new connection, queued requests refused (shutdown), the
 * executions in flight run up to cfg.drain_ms (0 after SIGINT), then
 * end with reason shutdown and their result; what is left 5 s after
 * that is killed. SBX_SERVER_OK after the drain; else err says why
 * the service could not start or go on. */
enum sbx_server_status sbx_server_run(struct sbx_server *s,
    const struct sbx_exec_env *env, char *err, size_t errlen);

#endif
