/* kmempin.c - a hostile tool that tries to hold kernel memory through one
 * route, outside what a memory cgroup sees, for test/kmem.test: run as a
 * sandbox execution (--lang exec) or as a lease's "node" (the runner's
 * guard takes it for `node SCRIPT`, and the script's name is the route).
 *
 *   kmempin ROUTE MIB           or   node .../ROUTE MIB
 *
 * It keeps opening objects of ROUTE and filling them until it believes it
 * holds MIB MiB, a call fails, or nothing grows any more; then, with all
 * of it still held, it prints one line
 *   ROUTE objects=N held_kib=H sunreclaim_kib=S stop=WHY
 * (S: how much the host's SUnreclaim grew since the start, from
 * /proc/meminfo, which is not namespaced; H: its own count, from
 * SO_MEMINFO for sockets, FIONREAD for inotify, bytes written or a
 * per-object estimate otherwise; WHY: "target",
 * "full" when the last objects stopped growing, or the errno of the call
 * that failed, as ERRNO@what), removes what would outlive it and exits 0.
 * Killed on the way (the memory limit), it prints nothing.
 *
 * Routes: netlink (NETLINK_ROUTE sockets, receive buffers raised, link
 * requests never read), unix (stream socketpairs, send buffers filled),
 * dgram (datagram socketpairs), inflight (filled socketpairs sent by
 * SCM_RIGHTS and closed), udp (loopback datagrams never read), pipe,
 * inotify (queued events), epoll (watches), timerfd, mqueue (POSIX),
 * msg (SysV queues), shm (SysV segments, touched and detached), sem
 * (SysV semaphore sets),
 * shmfile (/dev/shm), tmpfile ($TMPDIR or /tmp). */
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <unistd.h>

#define KIB 1024ull
#define MIB (1024ull * 1024)
#define IDS_MAX 100000		/* SysV objects removed at the end */

static uint64_t target, held;
static unsigned long objects;
static char stop[64] = "target";
static char buf[64 * 1024];

/* SUnreclaim in KiB, or 0 */
static uint64_t
sunreclaim(void)
{
	char line[128];
	unsigned long long v = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "SUnreclaim: %llu kB", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int
failed(const char *what)
{
	const char *n;

	switch (errno) {
	case EAFNOSUPPORT: n = "EAFNOSUPPORT"; break;
	case EPERM: n = "EPERM"; break;
	case EACCES: n = "EACCES"; break;
	case EMFILE: n = "EMFILE"; break;
	case ENFILE: n = "ENFILE"; break;
	case ENOSPC: n = "ENOSPC"; break;
	case ENOMEM: n = "ENOMEM"; break;
	case ENOBUFS: n = "ENOBUFS"; break;
	case EFBIG: n = "EFBIG"; break;
	case EAGAIN: n = "EAGAIN"; break;
	case ETOOMANYREFS: n = "ETOOMANYREFS"; break;
	case ENOSYS: n = "ENOSYS"; break;
	case EINVAL: n = "EINVAL"; break;
	case ENETUNREACH: n = "ENETUNREACH"; break;
	case EADDRNOTAVAIL: n = "EADDRNOTAVAIL"; break;
	default: n = "errno"; break;
	}
	snprintf(stop, sizeof stop, "%s@%s", n, what);
	return -1;
}

static int
more(void)
{
	return held < target;
}

/* what the kernel holds for a socket: its receive and send queues */
static uint64_t
sock_held(int fd)
{
	uint32_t m[SK_MEMINFO_VARS];
	socklen_t len = sizeof m;

	if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, m, &len) != 0)
		return 0;
	return (uint64_t)m[SK_MEMINFO_RMEM_ALLOC] + m[SK_MEMINFO_WMEM_ALLOC];
}

static void
raise_bufs(int fd)
{
	int big = 64 << 20;

	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
}

static int
netlink(void)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg i;
	} req;

	while (more()) {
		int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
		    NETLINK_ROUTE);
		uint64_t last = 0, now;
		unsigned seq = 0;

		if (fd < 0)
			return failed("socket");
		objects++;
		raise_bufs(fd);
		for (;;) {
			memset(&req, 0, sizeof req);
			req.h.nlmsg_len = sizeof req;
			req.h.nlmsg_type = RTM_GETLINK;
			req.h.nlmsg_flags = NLM_F_REQUEST;
			req.h.nlmsg_seq = ++seq;
			req.i.ifi_family = AF_UNSPEC;
			req.i.ifi_index = 1;	/* lo: in every netns */
			if (send(fd, &req, sizeof req, 0) < 0)
				return failed("send");
			if (seq % 64)
				continue;
			now = sock_held(fd);
			if (now <= last || held + now >= target)
				break;
			last = now;
		}
		held += sock_held(fd);
	}
	return 0;
}

/* fill fd (non-blocking) with chunks of len; the bytes it holds */
static uint64_t
fill(int fd, size_t len)
{
	while (write(fd, buf, len) > 0)
		;
	return sock_held(fd);
}

static int
unix_pairs(int type, size_t chunk)
{
	int sv[2];

	while (more()) {
		if (socketpair(AF_UNIX, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
		    sv) != 0)
			return failed("socketpair");
		objects++;
		raise_bufs(sv[0]);
		held += fill(sv[0], chunk);
	}
	return 0;
}

/* filled pairs sent over a carrier and closed: held by no fd at all */
static int
inflight(void)
{
	int carrier[2], sv[2];
	char one = 'x';

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, carrier) != 0)
		return failed("socketpair");
	raise_bufs(carrier[0]);
	while (more()) {
		union {
			struct cmsghdr h;
			char space[CMSG_SPACE(2 * sizeof(int))];
		} c;
		struct iovec iov = { &one, 1 };
		struct msghdr m = { 0 };
		uint64_t got;

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0, sv) != 0)
			return failed("socketpair");
		raise_bufs(sv[0]);
		got = fill(sv[0], sizeof buf);
		memset(&c, 0, sizeof c);
		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		m.msg_control = c.space;
		m.msg_controllen = sizeof c.space;
		c.h.cmsg_level = SOL_SOCKET;
		c.h.cmsg_type = SCM_RIGHTS;
		c.h.cmsg_len = CMSG_LEN(2 * sizeof(int));
		memcpy(CMSG_DATA(&c.h), sv, sizeof sv);
		if (sendmsg(carrier[0], &m, MSG_DONTWAIT) != 1)
			return failed("sendmsg");
		close(sv[0]);
		close(sv[1]);
		objects++;
		held += got;
	}
	return 0;
}

static int
udp(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
	    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof a;
	int tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (tx < 0)
		return failed("socket");
	while (more()) {
		int rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		uint64_t got;

		if (rx < 0)
			return failed("socket");
		raise_bufs(rx);
		a.sin_port = 0;
		if (bind(rx, (struct sockaddr *)&a, sizeof a) != 0 ||
		    getsockname(rx, (struct sockaddr *)&a, &alen) != 0)
			return failed("bind");
		/* the kernel drops what does not fit: stop when it stops
		 * growing */
		for (uint64_t last = 0, now; ; last = now) {
			for (int i = 0; i < 16; i++)
				sendto(tx, buf, 60000, 0, (struct sockaddr *)&a,
				    sizeof a);
			now = sock_held(rx);
			if (now <= last || held + now >= target)
				break;
		}
		if ((got = sock_held(rx)) == 0)
			return failed("sendto");
		objects++;
		held += got;
	}
	return 0;
}

static int
pipes(void)
{
	int p[2];
	ssize_t n;

	while (more()) {
		if (pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0)
			return failed("pipe");
		objects++;
		fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
		while ((n = write(p[1], buf, 4096)) > 0)
			held += (uint64_t)n;
	}
	return 0;
}

/* a long name, so that every queued event carries 200 bytes of it */
static int
inotify(void)
{
	char dir[256], a[512], b[512];
	const char *t = getenv("TMPDIR");
	int fa, fb, full = 0;

	snprintf(dir, sizeof dir, "%s/kmempin-%ld", t ? t : "/tmp",
	    (long)getpid());
	if (mkdir(dir, 0700) != 0)
		return failed("mkdir");
	memset(buf, 'n', 200);
	snprintf(a, sizeof a, "%s/a%.200s", dir, buf);
	snprintf(b, sizeof b, "%s/b%.200s", dir, buf);
	fa = open(a, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	fb = open(b, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fa < 0 || fb < 0)
		return failed("open");
	while (more() && !full) {
		int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		int q = 0, last = 0;

		if (fd < 0) {
			failed("inotify_init1");
			break;
		}
		if (inotify_add_watch(fd, dir, IN_MODIFY) < 0) {
			failed("inotify_add_watch");
			break;
		}
		objects++;
		/* alternate: the kernel merges an event equal to the last;
		 * a full queue (or a refused charge) stops growing */
		for (int i = 1; held + (uint64_t)q < target; i++) {
			if (pwrite(i % 2 ? fb : fa, "x", 1, 0) != 1)
				break;
			if (i % 256)
				continue;
			if (ioctl(fd, FIONREAD, &q) != 0 || q <= last)
				break;
			last = q;
		}
		held += (uint64_t)q;
		full = q == 0;
	}
	unlink(a);
	unlink(b);
	rmdir(dir);
	return 0;
}

static int
epoll(void)
{
	int fds[512], n = 0;

	for (; n < 512; n++)
		if ((fds[n] = eventfd(0, EFD_CLOEXEC)) < 0)
			break;
	while (more()) {
		int ep = epoll_create1(EPOLL_CLOEXEC);

		if (ep < 0)
			return failed("epoll_create1");
		for (int i = 0; i < n && more(); i++) {
			struct epoll_event ev = { EPOLLIN, { .u32 = 0 } };

			if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev) != 0)
				return failed("epoll_ctl");
			objects++;
			held += 192;	/* an epitem and its wait entry */
		}
	}
	return 0;
}

static int
timerfds(void)
{
	struct itimerspec it = { { 1000, 0 }, { 1000, 0 } };

	while (more()) {
		int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);

		if (fd < 0)
			return failed("timerfd_create");
		timerfd_settime(fd, 0, &it, NULL);
		objects++;
		held += 512;	/* the file, its context */
	}
	return 0;
}

static int
mqueue(void)
{
	struct mq_attr at = { .mq_maxmsg = 10, .mq_msgsize = 8192 };
	char name[64];
	int rc = 0;

	while (more()) {
		mqd_t q;

		snprintf(name, sizeof name, "/kmempin-%ld-%lu", (long)getpid(),
		    objects);
		if ((q = mq_open(name, O_RDWR | O_CREAT | O_EXCL | O_NONBLOCK,
		    0600, &at)) == (mqd_t)-1) {
			rc = failed("mq_open");
			break;
		}
		mq_unlink(name);	/* held by the descriptor alone */
		objects++;
		while (mq_send(q, buf, 8192, 0) == 0)
			held += 8192;
	}
	return rc;
}

static int ids[IDS_MAX];

static int
msgq(void)
{
	struct { long type; char text[8192]; } m = { 1, { 0 } };
	int rc = 0;

	while (more() && objects < IDS_MAX) {
		int id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);

		if (id < 0) {
			rc = failed("msgget");
			break;
		}
		ids[objects++] = id;
		while (msgsnd(id, &m, sizeof m.text, IPC_NOWAIT) == 0)
			held += sizeof m.text;
	}
	return rc;
}

static int
shm(void)
{
	int rc = 0;

	while (more() && objects < IDS_MAX) {
		int id = shmget(IPC_PRIVATE, 16 * MIB, IPC_CREAT | 0600);
		char *p;

		if (id < 0) {
			rc = failed("shmget");
			break;
		}
		ids[objects++] = id;
		if ((p = shmat(id, NULL, 0)) == (void *)-1) {
			rc = failed("shmat");
			break;
		}
		for (uint64_t o = 0; o < 16 * MIB; o += 4096)
			p[o] = 1;
		shmdt(p);
		held += 16 * MIB;
	}
	return rc;
}

/* semaphore sets of the largest size the kernel takes (SEMMSL) */
static int
sem(void)
{
	int rc = 0;

	while (more() && objects < IDS_MAX) {
		int id = semget(IPC_PRIVATE, 32000, IPC_CREAT | 0600);

		if (id < 0)
			id = semget(IPC_PRIVATE, 250, IPC_CREAT | 0600);
		if (id < 0) {
			rc = failed("semget");
			break;
		}
		ids[objects++] = id;
		held += 32000 * 64;	/* a struct sem each, about */
	}
	return rc;
}

static void
ipc_remove(const char *route)
{
	for (unsigned long i = 0; i < objects; i++)
		if (strcmp(route, "msg") == 0)
			msgctl(ids[i], IPC_RMID, NULL);
		else if (strcmp(route, "shm") == 0)
			shmctl(ids[i], IPC_RMID, NULL);
		else
			semctl(ids[i], 0, IPC_RMID);
}

static int
file(const char *dir, char *path, size_t cap)
{
	int fd;
	ssize_t n;

	snprintf(path, cap, "%s/kmempin-%ld", dir, (long)getpid());
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) < 0)
		return failed("open");
	objects = 1;
	while (more()) {
		if ((n = write(fd, buf, sizeof buf)) <= 0)
			return failed("write");
		held += (uint64_t)n;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const char *route, *slash;
	char path[512];
	uint64_t before;

	/* kmempin ROUTE MIB, or as a lease's node: node SCRIPT MIB */
	if (argc != 3) {
		fprintf(stderr, "usage: kmempin ROUTE MIB\n");
		return 64;
	}
	route = (slash = strrchr(argv[1], '/')) ? slash + 1 : argv[1];
	target = strtoull(argv[2], NULL, 10) * MIB;
	memset(buf, 'k', sizeof buf);
	before = sunreclaim();
	if (strcmp(route, "netlink") == 0)
		netlink();
	else if (strcmp(route, "unix") == 0)
		unix_pairs(SOCK_STREAM, sizeof buf);
	else if (strcmp(route, "dgram") == 0)
		unix_pairs(SOCK_DGRAM, sizeof buf);
	else if (strcmp(route, "inflight") == 0)
		inflight();
	else if (strcmp(route, "udp") == 0)
		udp();
	else if (strcmp(route, "pipe") == 0)
		pipes();
	else if (strcmp(route, "inotify") == 0)
		inotify();
	else if (strcmp(route, "epoll") == 0)
		epoll();
	else if (strcmp(route, "timerfd") == 0)
		timerfds();
	else if (strcmp(route, "mqueue") == 0)
		mqueue();
	else if (strcmp(route, "msg") == 0)
		msgq();
	else if (strcmp(route, "shm") == 0)
		shm();
	else if (strcmp(route, "sem") == 0)
		sem();
	else if (strcmp(route, "shmfile") == 0)
		file("/dev/shm", path, sizeof path);
	else if (strcmp(route, "tmpfile") == 0)
		file(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", path,
		    sizeof path);
	else {
		fprintf(stderr, "kmempin: no route %s\n", route);
		return 64;
	}
	if (held < target && strcmp(stop, "target") == 0)
		strcpy(stop, "full");
	printf("%s objects=%lu held_kib=%llu sunreclaim_kib=%lld stop=%s\n",
	    route, objects, (unsigned long long)(held / KIB),
	    (long long)sunreclaim() - (long long)before, stop);
	fflush(stdout);
	if (strcmp(route, "msg") == 0 || strcmp(route, "shm") == 0 ||
	    strcmp(route, "sem") == 0)
		ipc_remove(route);
	if (strcmp(route, "shmfile") == 0 || strcmp(route, "tmpfile") == 0)
		unlink(path);
	return 0;
}
