/* supervisor_test.c - the handler table, the pre-auth process (only a
 * peer that completes the handshake reaches the supervisor; a killed
 * pre-auth process is restarted), one poll over signals, the pre-auth
 * process and control sockets, reaping. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/wire/channel.h"
#include "common/base/log.h"
#include "common/service/service.h"
#include "common/base/signal_fd.h"
#include "common/service/supervisor.h"
#include "common/wire/version.h"
#include "tap.h"

struct handler {
	struct supervisor_handler sv;
	int seen;		/* the applet's own state */
};

static struct supervisor sv;
static char path[108];
static int accepted;
static const uint8_t psk[32] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const uint8_t other_psk[32] = { 9 };
static const uint8_t next_psk[32] = { 7, 7 };	/* a rotation's new one */
static struct secret_ring ring;
static unsigned last_key = 99, last_version, last_word = 99;

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

/* An authenticated connection: a handler that says one byte on its
 * control socket, then waits there until it is killed. */
static void
on_conn(void *ctx, int conn, struct noise_transport *t, unsigned key,
    unsigned version, unsigned word)
{
	struct channel ch;
	char b;
	int ctl;
	pid_t pid;

	(void)ctx;
	last_key = key;
	last_version = version;
	last_word = word;
	pid = supervisor_fork(&sv, conn, &ctl);
	if (pid == 0) {
		channel_adopt(&ch, conn, t);
		(void)write(ctl, "x", 1);
		(void)read(ctl, &b, 1);
		_exit(0);
	}
	accepted += pid > 0;
}

/* Connect and run the client's side of the handshake with key and a
 * prologue word (NULL: none); the socket, or -1 when the handshake
 * failed. */
static int
handshake_word(const uint8_t *key, const char *word)
{
	struct channel ch;
	char err[256];
	int fd = connect_unix();

	if (fd < 0 || channel_handshake_as(&ch, fd, CHANNEL_INITIATOR, key,
	    VERSION_CURRENT, word, "client", "service", 5000, err,
	    sizeof err) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The relay's side: no word. */
static int
handshake(const uint8_t *key)
{
	return handshake_word(key, NULL);
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
		int rc = supervisor_poll(&sv, 20, on_ctl, on_conn, NULL);

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
	int c;

	ok(handshake(other_psk) < 0 && accepted == 0,
	    "a peer without the key fails the handshake and gets no handler");
	for (int i = 0; i < 20; i++)
		(void)supervisor_poll(&sv, 10, on_ctl, on_conn, NULL);
	ok(sv.nh == 0 && accepted == 0, "... nothing reached the supervisor");
	ok(handshake_word(psk, "ruby") < 0,
	    "a prologue word the service does not take fails the handshake");
	for (int i = 0; i < 20; i++)
		(void)supervisor_poll(&sv, 10, on_ctl, on_conn, NULL);
	ok(sv.nh == 0 && accepted == 0, "... nothing reached the supervisor");
	c = handshake(psk);
	ok(c >= 0 && settle(1) == 0 && accepted == 1,
	    "an authenticated peer gets a handler that is heard on its "
	    "control socket");
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
	ok(last_key == 0, "the first secret of the ring was the one used");
	ok(last_version == VERSION_CURRENT, "... under this build's protocol "
	    "version (%u), which CONN carries", last_version);
	ok(last_word == 0, "... and a plain prologue: word 0");
	c = handshake_word(next_psk, "java");
	ok(c >= 0 && settle(1) == 0 && accepted == 2 && last_key == 1 &&
	    last_word == 2, "a peer with the ring's second secret and the "
	    "word java is served, the secret's index and word 2 said");
	supervisor_kill_all(&sv, SIGKILL);
	for (int i = 0; i < 200 && sv.nh; i++) {
		if ((h = supervisor_reaped(&sv)) != NULL)
			supervisor_remove(&sv, h);
		usleep(10000);
	}
	if (c >= 0)
		close(c);
}

static void
test_preauth_restart(void)
{
	pid_t old = sv.preauth_pid;
	int c;

	kill(old, SIGKILL);
	for (int i = 0; i < 200 && sv.preauth_pid == old; i++) {
		(void)supervisor_reaped(&sv);
		usleep(10000);
	}
	ok(sv.preauth_pid != old && kill(old, 0) != 0,
	    "a killed pre-auth process is replaced");
	c = handshake(psk);
	ok(c >= 0 && settle(1) == 0 && accepted == 3,
	    "the new one hands over authenticated connections");
	supervisor_kill_all(&sv, SIGKILL);
	for (int i = 0; i < 200 && sv.nh > 0; i++) {
		void *h = supervisor_reaped(&sv);

		if (h)
			supervisor_remove(&sv, h);
		else
			usleep(10000);
	}
	close(c);
}

static void
test_signals(void)
{
	kill(getpid(), SIGTERM);
	ok(supervisor_poll(&sv, 1000, on_ctl, on_conn, NULL) == 1,
	    "a pending signal is reported");
	ok(supervisor_signals(&sv) == SIGTERM, "SIGTERM asks to stop, and is named");
	kill(getpid(), SIGTERM);
	kill(getpid(), SIGINT);
	(void)supervisor_poll(&sv, 1000, on_ctl, on_conn, NULL);
	ok(supervisor_signals(&sv) == SIGINT, "SIGINT outranks SIGTERM");
	kill(getpid(), SIGCHLD);
	(void)supervisor_poll(&sv, 1000, on_ctl, on_conn, NULL);
	ok(supervisor_signals(&sv) == 0, "SIGCHLD does not");
}

int
main(void)
{
	static const int sigs[] = { SIGCHLD, SIGTERM, SIGINT };
	char dir[] = "/tmp/supervisor_test.XXXXXX", addr[128], err[256];
	static const char *const words[] = { "python", "java", NULL };
	struct preauth_config pc = { .ring = &ring, .handshake_ms = 5000,
		.max_pending = 16, .max_per_source = 16,
		.per_source_flag = "--max-conns-per-peer", .words = words,
		.nwords = 2 };
	struct preauth_identity id;
	struct stat st;
	pid_t old;

	ring.n = 2;
	memcpy(ring.psk[0], psk, 32);
	memcpy(ring.psk[1], next_psk, 32);
	log_init("supervisor_test");
	log_set_level(LOG_ERROR);	/* the failed handshake is expected */
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/s", dir);
	snprintf(addr, sizeof addr, "unix:%s", path);
	supervisor_init(&sv, signal_fd_open(sigs, 3), sizeof(struct handler));
	test_listen();
	ok(supervisor_listen(&sv, addr, err, sizeof err) ==
	    SUPERVISOR_LISTENING && sv.nlisteners == 1, "listens on %s", addr);
	service_preauth_identity(65534, &id);
	ok(supervisor_start_preauth(&sv, &pc, &id, err, sizeof err) == 0,
	    "the pre-auth process starts");
	test_fork_and_reap();
	test_preauth_restart();
	test_signals();
	old = sv.preauth_pid;
	supervisor_stop_listening(&sv);
	ok(sv.nlisteners == 0 && stat(path, &st) != 0,
	    "stopping closes the listener and unlinks its socket");
	for (int i = 0; i < 200 && kill(old, 0) == 0; i++) {
		(void)supervisor_reaped(&sv);
		usleep(10000);
	}
	ok(kill(old, 0) != 0 && sv.preauth_pid == old,
	    "... and ends the pre-auth process for good");
	supervisor_fini(&sv);
	rmdir(dir);
	return tap_done();
}
