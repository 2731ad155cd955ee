/* supervisor_test.c - the handler table, one poll over signals, listeners
 * and control sockets, refusal slots past the cap, reaping. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/log.h"
#include "common/sigfd.h"
#include "common/supervisor.h"
#include "tap.h"

struct handler {
	struct supervisor_handler sv;
	int seen;		/* the applet's own state */
};

static struct supervisor sv;
static char path[108];
static int accepted, dropped;
static size_t cap;		/* past it, handlers only refuse */

static int
connect_unix(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A handler that says one byte on its control socket, then waits there
 * until it is killed. */
static void
on_listener(void *ctx, int lfd)
{
	char peer[96], b;
	int conn, ctl;
	pid_t pid;

	(void)ctx;
	conn = supervisor_accept(&sv, lfd, cap, "test: dropped", peer,
	    sizeof peer);
	if (conn < 0) {
		dropped++;
		return;
	}
	pid = supervisor_fork(&sv, conn, &ctl);
	if (pid == 0) {
		(void)write(ctl, "x", 1);
		(void)read(ctl, &b, 1);
		_exit(0);
	}
	accepted += pid > 0;
}

static void
on_ctl(void *ctx, void *handler)
{
	struct handler *h = handler;
	char b;

	(void)ctx;
	if (recv(h->sv.ctl, &b, 1, MSG_DONTWAIT) == 1)
		h->seen++;
}

/* Poll until n handlers live and each has spoken, or give up after
 * about 10s. */
static int
settle(size_t n)
{
	for (int round = 0; round < 500; round++) {
		size_t seen = 0;
		int rc = supervisor_poll(&sv, 20, on_ctl, on_listener, NULL);

		if (rc < 0 && errno != EINTR)
			return -1;
		if (rc > 0)	/* a SIGCHLD: read, so the next poll waits */
			(void)supervisor_signals(&sv);
		for (size_t i = 0; i < sv.nh; i++)
			seen += ((struct handler *)supervisor_handler(&sv, i))
			    ->seen > 0;
		if (sv.nh == n && seen == n)
			return 0;
	}
	return -1;
}

static void
test_listen(void)
{
	char err[256];

	ok(supervisor_listen(&sv, "no port", err, sizeof err) ==
	    SUPERVISOR_BAD_ADDRESS, "a bad address is a bad address");
	ok(supervisor_listen(&sv, "unix:/nonexistent/dir/s", err,
	    sizeof err) == SUPERVISOR_CANNOT_LISTEN,
	    "an unusable path cannot listen");
	ok(sv.nlisteners == 0, "neither is kept");
}

static void
test_fork_and_reap(void)
{
	struct handler *h;
	int c = connect_unix();

	ok(c >= 0 && settle(1) == 0 && accepted == 1,
	    "a connection gets a handler that is heard on its control socket");
	h = supervisor_find(&sv, ((struct handler *)supervisor_handler(&sv,
	    0))->sv.pid);
	ok(h && h->seen == 1, "it is found by pid, the applet's part intact");
	ok(supervisor_find(&sv, 1) == NULL, "a stranger's pid is not found");
	supervisor_kill_all(&sv, SIGKILL);
	for (int i = 0; i < 200 && (h = supervisor_reaped(&sv)) == NULL; i++)
		usleep(10000);
	ok(h != NULL, "the killed handler is reaped");
	if (h)
		supervisor_remove(&sv, h);
	ok(sv.nh == 0, "and removed");
	close(c);
}

static void
test_refusal_slots(void)
{
	int c[SUPERVISOR_REFUSAL_SLOTS + 2];
	size_t n = 0;
	void *h;

	cap = 1;
	accepted = dropped = 0;
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		c[i] = connect_unix();
	ok(settle(1 + SUPERVISOR_REFUSAL_SLOTS) == 0,
	    "past the cap, %d more get a handler", SUPERVISOR_REFUSAL_SLOTS);
	for (int i = 0; i < 100 && dropped == 0; i++)
		(void)supervisor_poll(&sv, 20, on_ctl, on_listener, NULL);
	ok(dropped == 1 && sv.nh == 1 + SUPERVISOR_REFUSAL_SLOTS,
	    "the one past the refusal slots is dropped");
	supervisor_kill_all(&sv, SIGKILL);
	for (int i = 0; i < 500 && sv.nh > 0; i++) {
		while ((h = supervisor_reaped(&sv)) != NULL) {
			supervisor_remove(&sv, h);
			n++;
		}
		usleep(10000);
	}
	ok(n == 1 + SUPERVISOR_REFUSAL_SLOTS, "every handler is reaped");
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		close(c[i]);
}

static void
test_signals(void)
{
	kill(getpid(), SIGTERM);
	ok(supervisor_poll(&sv, 1000, on_ctl, on_listener, NULL) == 1,
	    "a pending signal is reported");
	ok(supervisor_signals(&sv) == SIGTERM, "SIGTERM asks to stop, and is named");
	kill(getpid(), SIGTERM);
	kill(getpid(), SIGINT);
	(void)supervisor_poll(&sv, 1000, on_ctl, on_listener, NULL);
	ok(supervisor_signals(&sv) == SIGINT, "SIGINT outranks SIGTERM");
	kill(getpid(), SIGCHLD);
	(void)supervisor_poll(&sv, 1000, on_ctl, on_listener, NULL);
	ok(supervisor_signals(&sv) == 0, "SIGCHLD does not");
}

int
main(void)
{
	static const int sigs[] = { SIGCHLD, SIGTERM, SIGINT };
	char dir[] = "/tmp/supervisor_test.XXXXXX", addr[128], err[256];
	struct stat st;

	log_init("supervisor_test");
	log_set_level(LOG_ERROR);	/* the drop's warning is expected */
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/s", dir);
	snprintf(addr, sizeof addr, "unix:%s", path);
	supervisor_init(&sv, sigfd_open(sigs, 3), sizeof(struct handler));
	test_listen();
	ok(supervisor_listen(&sv, addr, err, sizeof err) ==
	    SUPERVISOR_LISTENING && sv.nlisteners == 1, "listens on %s", addr);
	test_fork_and_reap();
	test_refusal_slots();
	test_signals();
	supervisor_stop_listening(&sv);
	ok(sv.nlisteners == 0 && stat(path, &st) != 0,
	    "stopping closes the listener and unlinks its socket");
	supervisor_fini(&sv);
	rmdir(dir);
	return tap_done();
}
