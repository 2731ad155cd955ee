/* supervisor.h - the privileged part of a service that forks one handler
 * process per authenticated connection: its listeners (owned and served by
 * the pre-auth process, common/service/preauth.h, which it starts and restarts),
 * its signalfd, the table of live handlers (each with a SEQPACKET control
 * socket speaking common/service/ctlmsg.h), one poll over all of them, and
 * reaping. It never reads a byte from an unauthenticated peer. What a
 * handler may do (admission, budgets) stays with the applet. */
#ifndef AIRLOCK_SUPERVISOR_H
#define AIRLOCK_SUPERVISOR_H

#include <poll.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/wire/netaddr.h"
#include "common/wire/noise.h"
#include "common/service/preauth.h"

#define SUPERVISOR_LISTEN_MAX 8
/* Handlers past the applet's cap that only say "no" (an ERROR and a
 * lingering close, so stdin already on its way cannot reset the connection
 * before the peer reads why); past these a connection is dropped unread. */
#define SUPERVISOR_REFUSAL_SLOTS 16

/* The first member of every applet's handler struct. */
struct supervisor_handler {
	pid_t pid;
	int ctl;		/* SEQPACKET to the handler */
};

struct supervisor {
	int listeners[SUPERVISOR_LISTEN_MAX];
	struct netaddr addrs[SUPERVISOR_LISTEN_MAX];
	size_t nlisteners;
	int sigfd;
	unsigned char *h;	/* nh handlers of hsize bytes each */
	size_t nh, cap_h, hsize;
	struct pollfd *pf;	/* sigfd, pre-auth, handlers' ctl: poll's */
	size_t cap_pf;
	/* the pre-auth process: running while preauth_on */
	int preauth_on;
	pid_t preauth_pid;
	int preauth_ctl;
	int64_t preauth_started;
	struct preauth_config preauth;
	struct preauth_identity preauth_id;
	struct sock_fprog preauth_filter;
	pid_t preauth_replaced;		/* stopped on purpose: not restarted */
};

enum supervisor_listen_result {
	SUPERVISOR_LISTENING,
	SUPERVISOR_BAD_ADDRESS,		/* the text is not an address */
	SUPERVISOR_CANNOT_LISTEN,	/* bind or listen failed */
};

/* An empty supervisor waiting on sigfd (owned from now on) whose handlers
 * are structs of hsize bytes that begin with struct supervisor_handler. */
void supervisor_init(struct supervisor *sv, int sigfd, size_t hsize);

/* Listen on one more address (at most SUPERVISOR_LISTEN_MAX); on failure
 * err says why. */
enum supervisor_listen_result supervisor_listen(struct supervisor *sv,
    const char *addr, char *err, size_t errlen);

/* Start the pre-auth process on the listeners (all given before this):
 * it runs handshakes under cfg (psk, deadline, pending bounds; the
 * listeners and ctl fields are filled here) as id, and is restarted
 * whenever it dies. psk must outlive sv. 0, or -1 with err set. */
/* Replace the pre-auth process with a new one that reads cfg's pointees
 * afresh (a reload: the secrets it accepts). Handshakes in flight in the
 * old one are lost; leases are not. */
void supervisor_replace_preauth(struct supervisor *sv);

int supervisor_start_preauth(struct supervisor *sv,
    const struct preauth_config *cfg, const struct preauth_identity *id,
    char *err, size_t errlen);

/* Stop the pre-auth process (handshakes in flight are lost) and close
 * every listener, unlinking unix sockets: no new connections. */
void supervisor_stop_listening(struct supervisor *sv);

/* The i-th live handler (i < nh); the pointer lasts until the table
 * changes (supervisor_fork, supervisor_remove). */
void *supervisor_handler(const struct supervisor *sv, size_t i);

/* The live handler with this pid, or NULL. */
void *supervisor_find(const struct supervisor *sv, pid_t pid);

/* Close h's control socket and drop it from the table (the last handler
 * takes its place). */
void supervisor_remove(struct supervisor *sv, void *h);

/* Send sig to every live handler. */
void supervisor_kill_all(struct supervisor *sv, int sig);

/* Poll the signalfd, the pre-auth process and every handler's control
 * socket (timeout_ms as for poll), then call on_ctl(ctx, handler) for
 * each readable control socket and on_conn(ctx, fd, transport, key,
 * version, word) for each authenticated connection the pre-auth process
 * handed over (key: the index of the secret it used in the ring; version:
 * the protocol version its msg1 authenticated under; word: its prologue's
 * word, 0 none, else the number of the pre-auth's word; fd and the
 * transport state are on_conn's; the supervisor wipes its copy of the
 * state after the call), in that order. Returns 1 when signals are
 * pending (see supervisor_signals), 0 when not, -1 with errno when poll
 * failed (EINTR: nothing was called). */
int supervisor_poll(struct supervisor *sv, int timeout_ms,
    void (*on_ctl)(void *ctx, void *handler),
    void (*on_conn)(void *ctx, int fd, struct noise_transport *t,
    unsigned key, unsigned version, unsigned word), void *ctx);

/* Read every pending signal: of SIGINT, SIGTERM and SIGHUP the first
 * in that order that is among them, or 0 (SIGCHLD alone). */
int supervisor_signals(struct supervisor *sv);

/* Fork a handler for conn, which the supervisor closes in every case
 * (-1: a handler of the service's own with no connection).
 * In the handler: returns 0 with *ctl its end of the control socket and
 * the supervisor's fds (listeners, other handlers, signalfd) closed; the
 * handler gets SIGTERM when the supervisor dies (PR_SET_PDEATHSIG), and
 * exits EXIT_OSERR at once if the supervisor died before that was set. In
 * the supervisor: returns the pid; the new handler is the table's last,
 * zero but for pid and ctl. -1: failed (logged), nothing added. */
pid_t supervisor_fork(struct supervisor *sv, int conn, int *ctl);

/* Reap exited children: the next one that was a live handler (still in
 * the table: the caller removes it), or NULL when none is left. A dead
 * pre-auth process is logged and started again here. */
void *supervisor_reaped(struct supervisor *sv);

/* Free the table and the poll set: sv is done with (its fds are the
 * caller's to close). */
void supervisor_fini(struct supervisor *sv);

#endif
