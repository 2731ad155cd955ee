/* service.h - what the runner and `sandbox serve` share beyond the
 * supervisor (common/service/supervisor.h) and the pre-auth process
 * (common/service/preauth.h): who runs the pre-auth process, the serve
 * loop, the connection cap, a handler's signals, reaping, admission over
 * the control socket (common/service/ctlmsg.h), PINGs answered while a
 * handler is busy, the refusal of an authenticated connection, and the
 * drain. What stays each applet's: what a handler serves, how admission
 * decides (the runner's per-tenant cap answers at once; the sandbox's
 * budgets may queue), and the drain's timeouts.
 *
 *   handler                          supervisor
 *   service_admit(tenant, cpu) ----> ADMIT   (applet's budgets decide)
 *                              <---- VERDICT  service_verdict(code)
 *   service_done(cpu_used)     ----> DONE    (stop counting this one) */
#ifndef AIRLOCK_SERVICE_H
#define AIRLOCK_SERVICE_H

#include <stddef.h>
#include <stdint.h>

#include "common/wire/channel.h"
#include "common/service/preauth.h"
#include "common/service/supervisor.h"

struct jail_config;

/* The budget of a lingering close after a final frame (ERROR, EXIT), the
 * frame's sending included (channel_close_lingering): long enough to
 * drain the largest upload a client may still be sending. */
#define SERVICE_FINAL_FRAME_MS 2000

/* Whom the pre-auth process runs as (docs/SECURITY.md): a service that is
 * not root stays its own uid (it has nothing to drop but capabilities);
 * as root, uid (and the gid of the same number) when non-zero: the
 * operator's choice or the first uid of the jail's range, which the
 * caller then keeps from executions; else nobody (65534), with a
 * warning. */
void service_preauth_identity(uint32_t uid, struct preauth_identity *id);

/* Start sv's pre-auth process (supervisor_start_preauth) on the listeners
 * given so far: handshakes under the versions' prologues, plain or with
 * one of words (NULL-terminated, NULL: none; common/wire/version.h)
 * keyed by any secret of ring (which must
 * outlive sv, or be replaced by supervisor_restart_preauth) within
 * handshake_ms, PREAUTH_PENDING_DEFAULT pending, per_peer of one source
 * (--max-conns-per-peer), as uid (service_preauth_identity), which must
 * be no account of /etc/passwd or /etc/group and, unless preflight (a
 * check beside the live service, whose pre-auth process holds it), held
 * by no process. Local peers whose uid is in jail's uid range (the
 * children's; none in mode none) are refused at accept. 0, or -1 with
 * err set. */
int service_start_preauth(struct supervisor *sv,
    const struct secret_ring *ring, uint32_t versions,
    const char *const *words, uint32_t handshake_ms, uint32_t per_peer,
    uint32_t uid, int preflight, const struct jail_config *jail, char *err,
    size_t errlen);

/* An authenticated connection from the pre-auth process, before a handler
 * is forked for it: when the handlers fill the serving cap and every
 * refusal slot (serving_cap + SUPERVISOR_REFUSAL_SLOTS) it is counted,
 * logged and closed unread (-1); else 0. peer gets its address text. */
int service_take(struct supervisor *sv, size_t serving_cap, int conn,
    char *peer, size_t peerlen);

/* The id of the secret a connection's handshake used (supervisor_poll's
 * key), for the log: "?" when ring has no such key. */
const char *service_key_id(const struct secret_ring *ring, unsigned key);

/* In a forked handler: SIGPIPE ignored, the supervisor's signal mask left
 * behind, SIGTERM, SIGINT and SIGHUP read from the returned signalfd (they
 * end the work), and a subreaper (the jailed child's descendants are its
 * to reap). -1 with errno when one of them failed. */
int service_handler_signals(void);

/* Reap every handler that exited: gone(ctx, handler) (when not NULL)
 * gives back what it held, then it leaves the table. */
void service_reap(struct supervisor *sv,
    void (*gone)(void *ctx, void *handler), void *ctx);

/* The peer of a busy handler spoke (ch readable): answer each PING with
 * its PONG, queued (wait_ms 0: the caller's loop flushes) or sent within
 * wait_ms. 0; -1 the peer left; -2 a frame other than PING (or a record
 * that does not decode); -3 a PONG that could not be queued or sent. */
int service_answer_pings(struct channel *ch, int wait_ms);

/* Send ERROR code/msg on an authenticated channel and close it lingering
 * (SERVICE_FINAL_FRAME_MS, CHANNEL_LINGER_BYTES): stdin the peer is
 * still sending cannot reset the connection before it reads why. */
void service_refuse(struct channel *ch, unsigned code, const char *msg);

/* A VERDICT that is no verdict yet: the request waits its turn, the real
 * one follows (sandbox serve tells a handler holding a warm slot, which
 * must not hold it while it waits). */
#define SERVICE_VERDICT_QUEUED 0xffffu

/* Handler side: ask the supervisor to admit tenant, wait for its VERDICT
 * and return its code (0: go ahead; SERVICE_VERDICT_QUEUED: wait for the
 * next with service_admit_wait). With watch, keep that channel alive
 * meanwhile: PINGs are answered; its end, or a PONG it does not take,
 * gives -1 (the peer left); any other frame -3 (the peer broke the
 * protocol: the caller says so before it closes). -2 when the supervisor
 * is gone or answered nonsense. */
int service_admit(int ctl, const char *tenant, uint64_t cpu_ms,
    struct channel *watch);

/* The next VERDICT of an admission already asked for, as service_admit
 * waits for it. */
int service_admit_wait(int ctl, struct channel *watch);

/* Handler side: the request is over but for its final frame. */
void service_done(int ctl, uint64_t cpu_used_ms);

/* Supervisor side: answer an ADMIT. */
void service_verdict(int ctl, unsigned code);

/* What an applet's service does in service_serve's loop. */
struct service_loop {
	void (*on_ctl)(void *ctx, void *handler);	/* supervisor_poll's */
	void (*on_conn)(void *ctx, int fd, struct noise_transport *t,
	    unsigned key, unsigned version, unsigned word);		/* supervisor_poll's */
	void (*reload)(void *ctx);			/* SIGHUP */
	/* after each pass: reap, publish the gauges; returns the next
	 * poll's timeout (-1: until something happens) */
	int (*tick)(void *ctx);
};

/* Ready (the ready gauge) and serve sv's listeners and handlers until
 * SIGTERM or SIGINT: returns that signal (the caller drains), or -1 with
 * errno when poll failed. */
int service_serve(struct supervisor *sv, const struct service_loop *loop,
    void *ctx);

/* Drain: readiness drops (the ready and draining gauges /readyz reads),
 * stop listening (the pre-auth process ends); let the handlers
 * run on for up to wait_ms (0: not at all; a second stop signal ends the
 * wait), then SIGTERM every one, and SIGKILL those still there kill_ms
 * later. Meanwhile serve their control messages (on_ctl, answering with
 * the applet's shutdown code) and reap them (reap). Returns when no
 * handler is left. */
void service_drain(struct supervisor *sv, uint32_t wait_ms, uint32_t kill_ms,
    void (*on_ctl)(void *ctx, void *handler), void (*reap)(void *ctx),
    void *ctx);

#endif
