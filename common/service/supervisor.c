/* supervisor.c - listeners, the pre-auth process, signalfd and the
 * handler table of a service that forks one handler per connection. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/service/ctlmsg.h"
#include "common/service/localpeer.h"
#include "common/base/log.h"
#include "common/service/metrics.h"
#include "common/jail/seccomp_policy.h"
#include "common/base/secmem.h"
#include "common/service/supervisor.h"
#include "common/base/xwrap.h"

void
supervisor_init(struct supervisor *sv, int sigfd, size_t hsize)
{
	memset(sv, 0, sizeof *sv);
	sv->sigfd = sigfd;
	sv->preauth_ctl = -1;
	sv->preauth.diag = -1;
	sv->hsize = hsize;
}

enum supervisor_listen_result
supervisor_listen(struct supervisor *sv, const char *addr, char *err,
    size_t errlen)
{
	struct netaddr *a;
	int fd;

	if (sv->nlisteners == SUPERVISOR_LISTEN_MAX) {
		snprintf(err, errlen, "at most %d listen addresses",
		    SUPERVISOR_LISTEN_MAX);
		return SUPERVISOR_BAD_ADDRESS;
	}
	a = &sv->addrs[sv->nlisteners];
	if (netaddr_parse(a, addr, err, errlen) != 0)
		return SUPERVISOR_BAD_ADDRESS;
	fd = netaddr_listen(a, err, errlen);
	if (fd < 0)
		return SUPERVISOR_CANNOT_LISTEN;
	sv->listeners[sv->nlisteners++] = fd;
	return SUPERVISOR_LISTENING;
}

/* In the pre-auth child: close every fd but stdio and keep[0..n). */
static int
close_except(const int *keep, size_t n)
{
	unsigned next = 3;

	for (;;) {
		unsigned low = ~0U;

		for (size_t i = 0; i < n; i++)
			if ((unsigned)keep[i] >= next && (unsigned)keep[i] < low)
				low = (unsigned)keep[i];
		if (low > next && syscall(SYS_close_range, next,
		    low == ~0U ? ~0U : low - 1, 0) != 0)
			return -1;
		if (low == ~0U)
			return 0;
		next = low + 1;
	}
}

static _Noreturn void
preauth_child(struct supervisor *sv, int ctl, pid_t parent)
{
	int keep[SUPERVISOR_LISTEN_MAX + 2];
	struct preauth_config cfg = sv->preauth;
	char err[256];
	sigset_t none;

	/* stopped with SIGKILL by the supervisor, and by its death */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(1);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a peer gone mid-write is a failed
					 * handshake, not the process's end */
	memcpy(keep, sv->listeners, sv->nlisteners * sizeof keep[0]);
	keep[sv->nlisteners] = ctl;
	keep[sv->nlisteners + 1] = sv->preauth.diag;
	cfg.listeners = sv->listeners;
	cfg.nlisteners = sv->nlisteners;
	cfg.ctl = ctl;
	if (close_except(keep, sv->nlisteners + 2) != 0) {
		log_msg(LOG_ERROR, "pre-auth: cannot close inherited fds");
		_exit(1);
	}
	if (preauth_confine(&sv->preauth_id, &sv->preauth_filter,
	    (unsigned)(cfg.max_pending + sv->nlisteners + 17), err,
	    sizeof err) != 0) {
		log_msg(LOG_ERROR, "%s", err);
		_exit(1);
	}
	_exit(preauth_serve(&cfg) == 0 ? 0 : 1);
}

/* Fork the pre-auth process; -1 when that failed (logged). */
static int
spawn_preauth(struct supervisor *sv)
{
	pid_t pid, parent = getpid();
	int sp[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) != 0) {
		log_msg(LOG_ERROR, "socketpair: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(sp[0]);
		preauth_child(sv, sp[1], parent);
	}
	close(sp[1]);
	if (pid < 0) {
		log_msg(LOG_ERROR, "fork: %s", strerror(errno));
		close(sp[0]);
		return -1;
	}
	sv->preauth_pid = pid;
	sv->preauth_ctl = sp[0];
	sv->preauth_started = mono_ms();
	log_event(LOG_INFO, "pre-auth process started", (struct log_field[]){
	    LF_NUM("pid", pid), LF_NUM("uid", sv->preauth_id.change ?
	    sv->preauth_id.uid : getuid()),
	    LF_NUM("max_pending", sv->preauth.max_pending),
	    LF_NUM("max_per_peer", sv->preauth.max_per_source) }, 4);
	return 0;
}

static void
stop_preauth(struct supervisor *sv)
{
	if (sv->preauth_ctl >= 0) {
		kill(sv->preauth_pid, SIGKILL);
		close(sv->preauth_ctl);
		sv->preauth_ctl = -1;
	}
}

int
supervisor_start_preauth(struct supervisor *sv,
    const struct preauth_config *cfg, const struct preauth_identity *id,
    char *err, size_t errlen)
{
	if (preauth_filter(&sv->preauth_filter, err, errlen) != 0)
		return -1;
	struct pollfd pf;
	struct ctlmsg m;
	int fd;

	sv->preauth = *cfg;
	sv->preauth_id = *id;
	/* opened here: the pre-auth process may not open sockets */
	if ((sv->preauth.diag = localpeer_open(err, errlen)) < 0)
		return -1;
	sv->preauth_on = 1;
	if (spawn_preauth(sv) != 0) {
		snprintf(err, errlen, "cannot start the pre-auth process");
		return -1;
	}
	/* a process that cannot confine itself (no CAP_SETUID for its uid,
	 * say) fails the start, not a restart loop */
	pf = (struct pollfd){ sv->preauth_ctl, POLLIN, 0 };
	if (poll(&pf, 1, 10000) != 1 || ctlmsg_recv(sv->preauth_ctl, &m, &fd,
	    MSG_DONTWAIT) != CTLMSG_OK || m.type != CTLMSG_READY) {
		sv->preauth_on = 0;
		stop_preauth(sv);
		snprintf(err, errlen, "the pre-auth process could not start "
		    "(its reason is logged above)");
		return -1;
	}
	return 0;
}


void
supervisor_replace_preauth(struct supervisor *sv)
{
	pid_t old = sv->preauth_pid;

	if (!sv->preauth_on || sv->preauth_ctl < 0)
		return;
	stop_preauth(sv);
	sv->preauth_replaced = old;
	(void)spawn_preauth(sv);
}

void
supervisor_stop_listening(struct supervisor *sv)
{
	sv->preauth_on = 0;
	stop_preauth(sv);
	for (size_t i = 0; i < sv->nlisteners; i++) {
		close(sv->listeners[i]);
		if (sv->addrs[i].is_unix)
			unlink(sv->addrs[i].host);
	}
	sv->nlisteners = 0;
	if (sv->preauth.diag >= 0)
		close(sv->preauth.diag);
	sv->preauth.diag = -1;
}

void *
supervisor_handler(const struct supervisor *sv, size_t i)
{
	return sv->h + i * sv->hsize;
}

static struct supervisor_handler *
base(const struct supervisor *sv, size_t i)
{
	return supervisor_handler(sv, i);
}

void *
supervisor_find(const struct supervisor *sv, pid_t pid)
{
	for (size_t i = 0; i < sv->nh; i++)
		if (base(sv, i)->pid == pid)
			return base(sv, i);
	return NULL;
}

void
supervisor_remove(struct supervisor *sv, void *h)
{
	unsigned char *last = sv->h + --sv->nh * sv->hsize;

	close(((struct supervisor_handler *)h)->ctl);
	if ((unsigned char *)h != last)
		memcpy(h, last, sv->hsize);
}

void
supervisor_kill_all(struct supervisor *sv, int sig)
{
	for (size_t i = 0; i < sv->nh; i++)
		kill(base(sv, i)->pid, sig);
}

/* The pre-auth process has something: an authenticated connection for
 * on_conn, or (a bad message, its end) nothing; SIGCHLD restarts it. */
static void
from_preauth(struct supervisor *sv,
    void (*on_conn)(void *ctx, int fd, struct noise_transport *t,
    unsigned key, unsigned version, unsigned word), void *ctx)
{
	struct ctlmsg m;
	int fd;
	enum ctlmsg_status st = ctlmsg_recv(sv->preauth_ctl, &m, &fd,
	    MSG_DONTWAIT);

	if (st == CTLMSG_OK && m.type == CTLMSG_CONN && on_conn)
		on_conn(ctx, fd, &m.u.conn, m.conn_key, m.conn_version,
		    m.conn_word);
	else if (fd >= 0)
		close(fd);
	if (st == CTLMSG_OK && m.type == CTLMSG_READY)
		return;		/* a restarted one */
	if (st != CTLMSG_OK && st != CTLMSG_IO && st != CTLMSG_CLOSED)
		log_msg(LOG_ERROR, "pre-auth process sent a bad message: %s",
		    ctlmsg_status_text(st));
	if (st == CTLMSG_CLOSED || (st != CTLMSG_OK && st != CTLMSG_IO))
		stop_preauth(sv);	/* restarted when reaped */
	secure_wipe(&m, sizeof m);
}

int
supervisor_poll(struct supervisor *sv, int timeout_ms,
    void (*on_ctl)(void *ctx, void *handler),
    void (*on_conn)(void *ctx, int fd, struct noise_transport *t,
    unsigned key, unsigned version, unsigned word),
    void *ctx)
{
	size_t n = 0, nh = sv->nh, need = 2 + nh;
	struct pollfd *pf;

	if (need > sv->cap_pf) {
		pf = calloc(need * 2, sizeof *pf);
		if (!pf)
			return -1;
		free(sv->pf);
		sv->pf = pf;
		sv->cap_pf = need * 2;
	}
	pf = sv->pf;
	pf[n++] = (struct pollfd){ sv->sigfd, POLLIN, 0 };
	pf[n++] = (struct pollfd){ sv->preauth_ctl, POLLIN, 0 };
	for (size_t i = 0; i < nh; i++)
		pf[n++] = (struct pollfd){ base(sv, i)->ctl, POLLIN, 0 };
	if (poll(pf, n, timeout_ms) < 0)
		return -1;
	/* on_ctl leaves the table as it is; on_conn only appends, after
	 * the handlers polled, so pf[2 + i] is still handler i's */
	for (size_t i = 0; i < nh; i++)
		if (pf[2 + i].revents & (POLLIN | POLLHUP))
			on_ctl(ctx, supervisor_handler(sv, i));
	if (pf[1].fd >= 0 && pf[1].revents)
		from_preauth(sv, on_conn, ctx);
	return (pf[0].revents & POLLIN) != 0;
}

int
supervisor_signals(struct supervisor *sv)
{
	struct signalfd_siginfo si;
	int stop = 0;

	/* SIGINT outranks SIGTERM ("now" to a draining service), which
	 * outranks SIGHUP (a reload) */
	while (read(sv->sigfd, &si, sizeof si) == sizeof si)
		if (si.ssi_signo == SIGINT || (si.ssi_signo == SIGTERM &&
		    stop != SIGINT) || (si.ssi_signo == SIGHUP && !stop))
			stop = (int)si.ssi_signo;
	return stop;
}

/* Room for one more handler; -1 when memory is out. */
static int
reserve(struct supervisor *sv)
{
	size_t cap;
	unsigned char *h;

	if (sv->nh < sv->cap_h)
		return 0;
	cap = sv->cap_h ? 2 * sv->cap_h : 16;
	h = realloc(sv->h, cap * sv->hsize);
	if (!h)
		return -1;
	sv->h = h;
	sv->cap_h = cap;
	return 0;
}

/* In the forked handler: what belongs to the supervisor is not its. */
static void
close_inherited(struct supervisor *sv)
{
	for (size_t i = 0; i < sv->nlisteners; i++)
		close(sv->listeners[i]);
	for (size_t i = 0; i < sv->nh; i++)
		close(base(sv, i)->ctl);
	if (sv->preauth_ctl >= 0)
		close(sv->preauth_ctl);
	if (sv->preauth.diag >= 0)
		close(sv->preauth.diag);
	close(sv->sigfd);
}

pid_t
supervisor_fork(struct supervisor *sv, int conn, int *ctl)
{
	struct supervisor_handler *h;
	int sp[2];
	pid_t pid, parent;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) != 0) {
		log_msg(LOG_ERROR, "socketpair: %s", strerror(errno));
		close(conn);
		return -1;
	}
	if (reserve(sv) != 0) {
		log_msg(LOG_ERROR, "out of memory for handlers");
		close(conn);
		close(sp[0]);
		close(sp[1]);
		return -1;
	}
	parent = getpid();
	pid = fork();
	if (pid == 0) {
		/* The supervisor's death (even kill -9) ends this handler like
		 * a close. It may have died before the prctl: then the parent
		 * is no longer the one recorded. Never compare with 1: a
		 * supervisor that is its container's PID 1 is a live parent. */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 ||
		    getppid() != parent)
			_exit(EXIT_OSERR);
		close(sp[0]);
		close_inherited(sv);
		*ctl = sp[1];
		return 0;
	}
	close(conn);
	close(sp[1]);
	if (pid < 0) {
		log_msg(LOG_ERROR, "fork: %s", strerror(errno));
		close(sp[0]);
		return -1;
	}
	h = supervisor_handler(sv, sv->nh++);
	memset(h, 0, sv->hsize);
	h->pid = pid;
	h->ctl = sp[0];
	return pid;
}

/* The pre-auth process died: say how, and start another unless the
 * service stopped listening. One that dies at once is restarted after a
 * pause, so a crash loop cannot spin the supervisor. */
static void
restart_preauth(struct supervisor *sv, int status)
{
	struct timespec pause = { 0, 200 * 1000 * 1000 };

	if (sv->preauth_ctl >= 0) {
		close(sv->preauth_ctl);
		sv->preauth_ctl = -1;
	}
	if (!sv->preauth_on)
		return;
	log_event(LOG_ERROR, "pre-auth process died; handshakes in flight "
	    "are lost, leases are not", (struct log_field[]){
	    LF_NUM("pid", sv->preauth_pid),
	    WIFSIGNALED(status) ? LF_NUM("signal", WTERMSIG(status)) :
	    LF_NUM("exit", WEXITSTATUS(status)) }, 2);
	if (mono_ms() - sv->preauth_started < 1000)
		nanosleep(&pause, NULL);
	(void)spawn_preauth(sv);
}

void *
supervisor_reaped(struct supervisor *sv)
{
	pid_t pid;
	int status;
	void *h;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid == sv->preauth_replaced) {
			sv->preauth_replaced = 0;	/* reloaded: expected */
			continue;
		}
		if (pid == sv->preauth_pid) {
			restart_preauth(sv, status);
			continue;
		}
		if ((h = supervisor_find(sv, pid)) != NULL)
			return h;
	}
	return NULL;
}

void
supervisor_fini(struct supervisor *sv)
{
	free(sv->h);
	free(sv->pf);
	if (sv->preauth_filter.filter)
		seccomp_policy_free(&sv->preauth_filter);
}
