/* supervisor.c - listeners, signalfd and the handler table of a service
 * that forks one handler per connection. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/log.h"
#include "common/metrics.h"
#include "common/supervisor.h"
#include "common/xwrap.h"

void
supervisor_init(struct supervisor *sv, int sigfd, size_t hsize)
{
	memset(sv, 0, sizeof *sv);
	sv->sigfd = sigfd;
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

void
supervisor_stop_listening(struct supervisor *sv)
{
	for (size_t i = 0; i < sv->nlisteners; i++) {
		close(sv->listeners[i]);
		if (sv->addrs[i].is_unix)
			unlink(sv->addrs[i].host);
	}
	sv->nlisteners = 0;
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

int
supervisor_poll(struct supervisor *sv, int timeout_ms,
    void (*on_ctl)(void *ctx, void *handler),
    void (*on_listener)(void *ctx, int fd), void *ctx)
{
	size_t n = 0, nh = sv->nh, nl = sv->nlisteners, need = 1 + nl + nh;
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
	for (size_t i = 0; i < nl; i++)
		pf[n++] = (struct pollfd){ sv->listeners[i], POLLIN, 0 };
	for (size_t i = 0; i < nh; i++)
		pf[n++] = (struct pollfd){ base(sv, i)->ctl, POLLIN, 0 };
	if (poll(pf, n, timeout_ms) < 0)
		return -1;
	/* on_ctl leaves the table as it is; on_listener only appends, after
	 * the handlers polled, so pf[1 + nl + i] is still handler i's */
	for (size_t i = 0; i < nh; i++)
		if (pf[1 + nl + i].revents & POLLIN)
			on_ctl(ctx, supervisor_handler(sv, i));
	for (size_t i = 0; i < nl; i++)
		if (pf[1 + i].revents & POLLIN)
			on_listener(ctx, pf[1 + i].fd);
	return (pf[0].revents & POLLIN) != 0;
}

int
supervisor_signals(struct supervisor *sv)
{
	struct signalfd_siginfo si;
	int stop = 0;

	/* SIGINT outranks: it means "now" to a draining service */
	while (read(sv->sigfd, &si, sizeof si) == sizeof si)
		if (si.ssi_signo != SIGCHLD && stop != SIGINT)
			stop = (int)si.ssi_signo;
	return stop;
}

int
supervisor_accept(struct supervisor *sv, int lfd, size_t cap,
    const char *dropped_msg, char *peer, size_t peerlen)
{
	int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

	if (conn < 0)
		return -1;	/* EAGAIN, or the peer gave up */
	netaddr_peer_text(conn, peer, peerlen);
	if (sv->nh >= cap + SUPERVISOR_REFUSAL_SLOTS) {
		metric_add(M_CONNECTIONS_DROPPED, 0, 1);
		log_event(LOG_WARN, dropped_msg, (struct log_field[]){
		    LF_STR("peer", peer) }, 1);
		close(conn);
		return -1;
	}
	return conn;
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

void *
supervisor_reaped(struct supervisor *sv)
{
	pid_t pid;
	int status;
	void *h;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		if ((h = supervisor_find(sv, pid)) != NULL)
			return h;
	return NULL;
}

void
supervisor_fini(struct supervisor *sv)
{
	free(sv->h);
	free(sv->pf);
}
