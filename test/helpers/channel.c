/* channel.c - one tenant's end of a channel between leases, for
 * test/channels.test: each subcommand opens one kind of channel or uses
 * it, and prints "what: ok" or "what: ERRNO_NAME" per attempt, and what
 * it received as "got: TEXT", so the test compares words. A receiving
 * end waits until its stdin ends (the test closes it once the sender is
 * done), then says "got: nothing" unless something came within a
 * second. Installed as "node" in a private PATH, like
 * hostile.c, so the runner's guard takes it for `node SCRIPT`; run
 * directly too, under setpriv and `airlock seccomp`, for the A/B.
 *
 *   tcp-listen | tcp-bind-listen   listen (after bind to 127.0.0.1:0, or
 *                          none: the kernel picks the port), print
 *                          "port: N", accept one connection, print a line
 *   udp-bind               bind UDP 127.0.0.1:0, print "port: N", wait
 *   udp-unconnected        sendto 127.0.0.1:9 (the kernel binds a port),
 *                          print "port: N", wait for a datagram
 *   udp-connected          connect to 127.0.0.1:9, print "port: N", wait
 *   tcp-send PORT MSG | udp-send PORT MSG   to 127.0.0.1:PORT
 *   unix-connect PATH      connect to a path socket, print a line read
 *   abstract-listen NAME   listen on @NAME, print "ready", accept one
 *   abstract-send NAME MSG connect to @NAME, send MSG
 *   shm-put KEY MSG        System V: create KEY (0666), write MSG, sleep
 *   shm-get KEY            shmget(KEY, IPC_CREAT|0600), print its bytes
 *   mq-put NAME MSG        POSIX mqueue: create /NAME (0666), send, sleep
 *   mq-get NAME            mq_open(/NAME, O_CREAT, 0600), receive
 *   sysvipc KEY            is KEY listed in /proc/sysvipc/shm?
 *   udp-find PORT          is a UDP socket on local PORT listed in
 *                          /proc/net/udp (how a lease finds another's)?
 *   pid PID                kill(PID, 0) and pidfd_open(PID): who exists
 *   sleep                  print "pid: N", sleep */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "test/helpers/attempt_say.h"

#define WAIT_MS 120000	/* never hang: the test ends it long before */
#define GRACE_MS 1000	/* after stdin ends: loopback delivery is done */
#define SHM_SIZE 4096

static _Noreturn void
fail(const char *what)
{
	say(what, errno);
	exit(1);
}

static struct sockaddr_in
loopback(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
		.sin_port = htons((uint16_t)port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK) };

	return a;
}

static void
print_port(int fd)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;

	if (getsockname(fd, (struct sockaddr *)&a, &len) != 0)
		fail("getsockname");
	printf("port: %d\n", ntohs(a.sin_port));
	fflush(stdout);
}

/* 1 once fd is readable, 0 when it was not by GRACE_MS after stdin
 * ended (or by WAIT_MS). */
static int
wait_readable(int fd)
{
	struct pollfd p[2] = { { fd, POLLIN, 0 }, { 0, POLLIN, 0 } };
	char c;

	while (poll(p, 2, WAIT_MS) > 0) {
		if (p[0].revents)
			return 1;
		if (p[1].revents && read(0, &c, 1) <= 0)
			return poll(p, 1, GRACE_MS) == 1;
	}
	return 0;
}

/* Read what arrives on fd (a datagram, or a stream's first bytes) and
 * print it, or "got: nothing" (wait_readable). */
static void
print_got(int fd)
{
	char buf[256];
	ssize_t n;

	if (!wait_readable(fd)) {
		printf("got: nothing\n");
		fflush(stdout);
		return;
	}
	n = recv(fd, buf, sizeof buf - 1, 0);
	if (n < 0)
		fail("recv");
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	printf("got: %s\n", buf);
	fflush(stdout);
}

/* Accept one connection on the listening fd and print what it sends. */
static void
accept_got(int fd)
{
	int c;

	if (!wait_readable(fd)) {
		printf("got: nothing\n");
		return;
	}
	if ((c = accept(fd, NULL, NULL)) < 0)
		fail("accept");
	print_got(c);
}

static void
tcp_listen(int do_bind)
{
	struct sockaddr_in a = loopback(0);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fail("socket");
	if (do_bind && bind(fd, (struct sockaddr *)&a, sizeof a) != 0)
		fail("bind");
	if (listen(fd, 4) != 0)
		fail("listen");
	print_port(fd);
	accept_got(fd);
}

static void
udp_wait(const char *how)
{
	struct sockaddr_in a = loopback(0), discard = loopback(9);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fail("socket");
	if (strcmp(how, "bind") == 0 &&
	    bind(fd, (struct sockaddr *)&a, sizeof a) != 0)
		fail("bind");
	if (strcmp(how, "unconnected") == 0 && sendto(fd, "x", 1, 0,
	    (struct sockaddr *)&discard, sizeof discard) != 1)
		fail("sendto");
	if (strcmp(how, "connected") == 0 && connect(fd,
	    (struct sockaddr *)&discard, sizeof discard) != 0)
		fail("connect");
	print_port(fd);
	print_got(fd);
}

static void
send_to(int type, const char *port, const char *msg)
{
	struct sockaddr_in a = loopback(atoi(port));
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fail("socket");
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
		fail("connect");
	if (send(fd, msg, strlen(msg), 0) < 0)
		fail("send");
	say("sent", 0);
}

static socklen_t
unix_addr(struct sockaddr_un *a, const char *name, int abstract)
{
	size_t n = strlen(name);

	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	if (n + 2 > sizeof a->sun_path)
		exit(64);
	memcpy(a->sun_path + (abstract ? 1 : 0), name, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
	    (abstract ? 1 : 0));
}

static int
unix_connect(const char *name, int abstract)
{
	struct sockaddr_un a;
	socklen_t len = unix_addr(&a, name, abstract);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fail("socket");
	if (connect(fd, (struct sockaddr *)&a, len) != 0)
		fail("connect");
	say("connect", 0);
	return fd;
}

static void
abstract_listen(const char *name)
{
	struct sockaddr_un a;
	socklen_t len = unix_addr(&a, name, 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fail("socket");
	if (bind(fd, (struct sockaddr *)&a, len) != 0)
		fail("bind");
	if (listen(fd, 4) != 0)
		fail("listen");
	printf("ready\n");
	fflush(stdout);
	accept_got(fd);
}

static void
shm(const char *key, const char *msg)
{
	int id = shmget((key_t)strtol(key, NULL, 0), SHM_SIZE,
	    IPC_CREAT | (msg ? 0666 : 0600));
	char *p;

	if (id < 0)
		fail("shmget");
	if ((p = shmat(id, NULL, 0)) == (void *)-1)
		fail("shmat");
	if (!msg) {
		printf("got: %.*s\n", SHM_SIZE - 1, p[0] ? p : "nothing");
		return;
	}
	snprintf(p, SHM_SIZE, "%s", msg);
	say("shm-put", 0);
	sleep_forever();
}

static void
mq(const char *name, const char *msg)
{
	struct mq_attr at = { .mq_maxmsg = 4, .mq_msgsize = 128 };
	struct timespec ts;
	char q[128], buf[129];
	mqd_t d;
	ssize_t n;

	snprintf(q, sizeof q, "/%s", name);
	umask(0);	/* the mode as asked: 0666 is the attack */
	d = mq_open(q, O_RDWR | O_CREAT | O_CLOEXEC, msg ? 0666 : 0600, &at);
	if (d == (mqd_t)-1)
		fail("mq_open");
	if (msg) {
		if (mq_send(d, msg, strlen(msg), 0) != 0)
			fail("mq_send");
		say("mq-put", 0);
		sleep_forever();
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 2;
	n = mq_timedreceive(d, buf, sizeof buf - 1, NULL, &ts);
	buf[n > 0 ? n : 0] = '\0';
	printf("got: %s\n", n > 0 ? buf : "nothing");
}

static void
sysvipc(const char *key)
{
	char line[512], want[32];
	FILE *f = fopen("/proc/sysvipc/shm", "r");
	int found = 0;

	if (!f)
		fail("sysvipc");
	snprintf(want, sizeof want, "%ld", strtol(key, NULL, 0));
	while (fgets(line, sizeof line, f)) {
		char first[32];

		if (sscanf(line, "%31s", first) == 1 &&
		    strcmp(first, want) == 0)
			found = 1;
	}
	fclose(f);
	printf("listed: %s\n", found ? "yes" : "no");
}

static void
udp_find(const char *port)
{
	char line[512];
	FILE *f = fopen("/proc/net/udp", "r");
	unsigned want = (unsigned)atoi(port), lport;
	int found = 0;

	if (!f)
		fail("udp-find");
	while (fgets(line, sizeof line, f))
		if (sscanf(line, " %*d: %*x:%x", &lport) == 1 &&
		    lport == want)
			found = 1;
	fclose(f);
	printf("listed: %s\n", found ? "yes" : "no");
}

static void
pid_probe(const char *pid)
{
	pid_t p = (pid_t)atoi(pid);
	long fd;

	say("kill0", kill(p, 0) == 0 ? 0 : errno);
	fd = syscall(SYS_pidfd_open, (long)p, 0L);
	say("pidfd", fd >= 0 ? 0 : errno);
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		return 64;
	/* the guard takes scripts as paths below a --script-dir: the
	 * command is the path's last component */
	if (strrchr(argv[1], '/'))
		argv[1] = strrchr(argv[1], '/') + 1;
	if (strcmp(argv[1], "tcp-listen") == 0)
		tcp_listen(0);
	else if (strcmp(argv[1], "tcp-bind-listen") == 0)
		tcp_listen(1);
	else if (strcmp(argv[1], "udp-find") == 0 && argc == 3)
		udp_find(argv[2]);
	else if (strncmp(argv[1], "udp-", 4) == 0 && argc == 2)
		udp_wait(argv[1] + 4);
	else if (strcmp(argv[1], "tcp-send") == 0 && argc == 4)
		send_to(SOCK_STREAM, argv[2], argv[3]);
	else if (strcmp(argv[1], "udp-send") == 0 && argc == 4)
		send_to(SOCK_DGRAM, argv[2], argv[3]);
	else if (strcmp(argv[1], "unix-connect") == 0 && argc == 3)
		print_got(unix_connect(argv[2], 0));
	else if (strcmp(argv[1], "abstract-listen") == 0 && argc == 3)
		abstract_listen(argv[2]);
	else if (strcmp(argv[1], "abstract-send") == 0 && argc == 4) {
		int fd = unix_connect(argv[2], 1);

		if (send(fd, argv[3], strlen(argv[3]), 0) < 0)
			fail("send");
	} else if (strcmp(argv[1], "shm-put") == 0 && argc == 4)
		shm(argv[2], argv[3]);
	else if (strcmp(argv[1], "shm-get") == 0 && argc == 3)
		shm(argv[2], NULL);
	else if (strcmp(argv[1], "mq-put") == 0 && argc == 4)
		mq(argv[2], argv[3]);
	else if (strcmp(argv[1], "mq-get") == 0 && argc == 3)
		mq(argv[2], NULL);
	else if (strcmp(argv[1], "sysvipc") == 0 && argc == 3)
		sysvipc(argv[2]);
	else if (strcmp(argv[1], "pid") == 0 && argc == 3)
		pid_probe(argv[2]);
	else if (strcmp(argv[1], "sleep") == 0) {
		printf("pid: %d\n", (int)getpid());
		fflush(stdout);
		sleep_forever();
	} else
		return 64;
	return 0;
}
