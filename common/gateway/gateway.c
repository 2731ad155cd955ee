/* gateway.c - the gateway's listeners and its process per connection. */
#include "common/gateway/gateway.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/base/log.h"
#include "common/gateway/gw_conn.h"
#include "common/wire/netaddr.h"

/* Is the socket fd bound to a loopback address? */
static int
bound_to_loopback(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
		return 0;
	if (ss.ss_family == AF_INET)
		return (ntohl(((struct sockaddr_in *)&ss)->sin_addr.s_addr) >>
		    24) == 127;
	if (ss.ss_family == AF_INET6) {
		const struct in6_addr *a = &((struct sockaddr_in6 *)&ss)->
		    sin6_addr;

		return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) &&
		    a->s6_addr[12] == 127);
	}
	return 0;
}

int
gateway_listen(const struct gateway_config *c, int *fds, char *err,
    size_t errlen)
{
	char why[512];

	for (size_t i = 0; i < c->nlisten; i++) {
		struct netaddr na;

		if (netaddr_parse(&na, c->listen[i], why, sizeof why) != 0) {
			snprintf(err, errlen, "--listen %s: %s", c->listen[i],
			    why);
			return GATEWAY_LISTEN_USAGE;
		}
		if ((fds[i] = netaddr_listen(&na, why, sizeof why)) < 0) {
			snprintf(err, errlen, "--listen %s: %s", c->listen[i],
			    why);
			return -1;
		}
		/* the socket file decides who may call: its owner only */
		if (na.is_unix && chmod(na.host, 0600) != 0) {
			snprintf(err, errlen, "--listen %s: chmod: %s",
			    c->listen[i], strerror(errno));
			return -1;
		}
		if (!na.is_unix && !c->allow_remote &&
		    !bound_to_loopback(fds[i])) {
			snprintf(err, errlen, "--listen %s: not a loopback "
			    "address: the gateway takes any tenant's requests "
			    "from whoever reaches it; listen on 127.0.0.1, "
			    "[::1] or unix:PATH, or pass --allow-remote",
			    c->listen[i]);
			return GATEWAY_LISTEN_REFUSED;
		}
	}
	return 0;
}

/* Refuse a connection past max_conns at once, without a process. */
static void
refuse_busy(int fd)
{
	static const char body[] = "{\"code\":\"gateway_busy\",\"message\":"
	    "\"the gateway is at its --max-conns\"}\n";

	(void)gw_answer(fd, 503, NULL, body, sizeof body - 1, mono_ms() + 100);
	close(fd);
}

/* One connection's process: default signals, dies with the gateway
 * (parent: the gateway's pid, taken before the fork; a gateway that is
 * pid 1, its container's entrypoint, is every child's parent too, so
 * "is my parent 1" cannot tell that it died). */
static void
child(const struct gateway_config *c, const int *fds, int sigfd, int fd,
    pid_t parent)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
		_exit(0);
	for (size_t i = 0; i < c->nlisten; i++)
		close(fds[i]);
	close(sigfd);
	gw_conn_serve(c, fd);
	_exit(0);
}

/* The connection processes alive, by pid (at most max_conns). */
struct kids {
	pid_t *pid;
	unsigned n;
};

static void
reap(struct kids *k)
{
	pid_t p;

	while ((p = waitpid(-1, NULL, WNOHANG)) > 0)
		for (unsigned i = 0; i < k->n; i++)
			if (k->pid[i] == p) {
				k->pid[i] = k->pid[--k->n];
				break;
			}
}

/* Stop listening; give requests in flight drain_ms, then end them. */
static void
drain(const struct gateway_config *c, const int *fds, int sigfd,
    struct kids *k)
{
	int64_t dl = mono_ms() + (int64_t)c->drain_ms;

	for (size_t i = 0; i < c->nlisten; i++)
		close(fds[i]);
	while (k->n > 0 && mono_ms() < dl) {
		struct pollfd pf = { sigfd, POLLIN, 0 };
		struct signalfd_siginfo si;

		if (poll(&pf, 1, (int)(dl - mono_ms())) > 0)
			while (read(sigfd, &si, sizeof si) == sizeof si)
				;
		reap(k);
	}
	if (k->n > 0)
		log_event(LOG_WARN, "gateway drain: ending requests in flight",
		    (struct log_field[]){ LF_NUM("requests", k->n) }, 1);
	for (unsigned i = 0; i < k->n; i++)
		kill(k->pid[i], SIGTERM);
	while (k->n > 0 && waitpid(-1, NULL, 0) > 0)
		reap(k);
}

int
gateway_serve(const struct gateway_config *c, const int *fds, int sigfd,
    char *err, size_t errlen)
{
	struct pollfd pf[GATEWAY_LISTEN_MAX + 1];
	struct kids k = { calloc(c->max_conns ? c->max_conns : 1,
		sizeof(pid_t)), 0 };
	pid_t self = getpid();

	if (!k.pid) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}

	for (;;) {
		pf[0] = (struct pollfd){ sigfd, POLLIN, 0 };
		for (size_t i = 0; i < c->nlisten; i++)
			pf[i + 1] = (struct pollfd){ fds[i], POLLIN, 0 };
		if (poll(pf, c->nlisten + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "poll: %s", strerror(errno));
			return -1;
		}
		if (pf[0].revents) {
			struct signalfd_siginfo si;
			int stop = 0;

			while (read(sigfd, &si, sizeof si) == sizeof si)
				stop |= si.ssi_signo == SIGTERM ||
				    si.ssi_signo == SIGINT;
			reap(&k);
			if (stop) {
				drain(c, fds, sigfd, &k);
				free(k.pid);
				return 0;
			}
		}
		for (size_t i = 0; i < c->nlisten; i++) {
			int fd;
			pid_t pid;

			if (!pf[i + 1].revents)
				continue;
			fd = accept4(fds[i], NULL, NULL, SOCK_CLOEXEC |
			    SOCK_NONBLOCK);
			if (fd < 0)
				continue;
			if (k.n >= c->max_conns) {
				refuse_busy(fd);
				continue;
			}
			if ((pid = fork()) == 0)
				child(c, fds, sigfd, fd, self);
			close(fd);
			if (pid > 0)
				k.pid[k.n++] = pid;
			else
				log_msg(LOG_ERROR, "fork: %s", strerror(errno));
		}
	}
}
