/* pingpong.c - a no-Node benchmark driver for bench/run.sh: it runs a
 * command as a child with pipes on its stdin and stdout and times bytes
 * through it. The command is `cat` directly, or `cat` behind a hop (socat,
 * airlock relay -> runner), so the difference is what the hop adds.
 *
 *   pingpong rtt [-n COUNT] [-s SIZE] [-t SEC] -- CMD [ARGS...]
 *	COUNT (20000) round trips of one SIZE-byte line (16, newline included)
 *	each one written, then read back whole and compared.
 *   pingpong bulk [-b BYTES] [-t SEC] -- CMD [ARGS...]
 *	streams BYTES (64 MiB) through CMD while reading them back, compares.
 *   pingpong firstbyte [-n COUNT] [-e VAR] [-t SEC] -- CMD [ARGS...]
 *	listens on 127.0.0.1 (a free port), gives the child VAR=127.0.0.1:PORT
 *	(VAR defaults to AIRLOCK_RUNNER) and replaces "@ADDR@" in its
 *	arguments by the same address, writes "x\n" to its stdin, then times, COUNT (50)
 *	times, from just before fork to the accepted connection and to its
 *	first byte. The connection is then closed and the child SIGTERMed and
 *	reaped.
 *
 * Prints one line of key=value pairs (times in microseconds) and exits 0,
 * or names the failure on stderr and exits 1; 2 on usage errors. Every loop
 * is bounded by its count and by the -t watchdog (default 300 s), after
 * which the child is killed and the run fails. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINE	65536
#define CHUNK		65536

static volatile sig_atomic_t timed_out;
static pid_t child = -1;

static void
on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
reap_child(void)
{
	int st;

	if (child <= 0)
		return;
	kill(child, SIGTERM);
	/* Bounded: 5 s for a clean exit, then SIGKILL. */
	for (int i = 0; i < 500; i++) {
		if (waitpid(child, &st, WNOHANG) == child) {
			child = -1;
			return;
		}
		usleep(10000);
	}
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	child = -1;
}

static void
fail(const char *what)
{
	if (timed_out)
		fprintf(stderr, "pingpong: %s: watchdog expired\n", what);
	else if (errno)
		fprintf(stderr, "pingpong: %s: %s\n", what, strerror(errno));
	else
		fprintf(stderr, "pingpong: %s\n", what);
	reap_child();
	exit(1);
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: pingpong rtt [-n COUNT] [-s SIZE] [-t SEC] -- CMD [ARGS...]\n"
	    "       pingpong bulk [-b BYTES] [-t SEC] -- CMD [ARGS...]\n"
	    "       pingpong firstbyte [-n COUNT] [-e VAR] [-t SEC] -- CMD [ARGS...]\n");
	exit(2);
}

/* Parses a decimal count in [min, max]; exits 2 otherwise. */
static unsigned long long
parse_num(const char *s, unsigned long long min, unsigned long long max)
{
	unsigned long long v = 0;

	if (!s || !*s)
		usage();
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (max - (unsigned)(*s - '0')) / 10)
			usage();
		v = v * 10 + (unsigned)(*s - '0');
	}
	if (v < min)
		usage();
	return v;
}

/* Starts argv with stdin from *to_child and stdout into *from_child. */
static void
spawn(char **argv, int *to_child, int *from_child)
{
	int in[2], out[2];

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0)
		fail("pipe");
	child = fork();
	if (child < 0)
		fail("fork");
	if (child == 0) {
		if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "pingpong: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*to_child = in[1];
	*from_child = out[0];
}

static void
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR && !timed_out)
			continue;
		if (w <= 0)
			fail("write to child");
		p += w;
		n -= (size_t)w;
	}
}

/* Read what the child has (at least a byte) into p: the count. A read
 * error or an early end of its stdout is fatal. */
static size_t
read_some(int fd, void *p, size_t n)
{
	for (;;) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && errno == EINTR && !timed_out)
			continue;
		if (r < 0)
			fail("read from child");
		if (r == 0) {
			errno = 0;
			fail("child closed its stdout early");
		}
		return (size_t)r;
	}
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The p-th percentile (nearest rank) of n sorted values, n > 0. */
static double
pct_us(const uint64_t *v, size_t n, unsigned p)
{
	size_t rank = (n * p + 99) / 100;

	return (double)v[rank ? rank - 1 : 0] / 1000.0;
}

static int
run_rtt(char **argv, unsigned long long count, size_t size)
{
	char line[MAX_LINE], back[MAX_LINE];
	uint64_t *lat, t0, total = 0;
	int to, from;

	lat = calloc((size_t)count, sizeof(*lat));
	if (!lat)
		fail("calloc");
	spawn(argv, &to, &from);
	for (unsigned long long i = 0; i < count; i++) {
		size_t got = 0;

		char num[24];
		int nl;

		/* A distinct line each time: a stale or duplicated reply fails. */
		memset(line, 'a' + (int)(i % 26), size - 1);
		nl = snprintf(num, sizeof(num), "%llu", i);
		memcpy(line, num, (size_t)nl < size - 1 ? (size_t)nl : size - 1);
		line[size - 1] = '\n';
		t0 = now_ns();
		write_all(to, line, size);
		while (got < size)
			got += read_some(from, back + got, size - got);
		lat[i] = now_ns() - t0;
		total += lat[i];
		if (memcmp(line, back, size) != 0) {
			errno = 0;
			fail("echoed line differs");
		}
	}
	close(to);
	reap_child();
	qsort(lat, (size_t)count, sizeof(*lat), cmp_u64);
	printf("mode=rtt count=%llu size=%zu p50_us=%.1f p90_us=%.1f p99_us=%.1f "
	    "mean_us=%.1f rt_per_s=%.0f\n", count, size,
	    pct_us(lat, (size_t)count, 50), pct_us(lat, (size_t)count, 90),
	    pct_us(lat, (size_t)count, 99), (double)total / (double)count / 1000.0,
	    (double)count / ((double)total / 1e9));
	free(lat);
	return 0;
}

/* Byte i of the bulk stream: a pattern with a long period, so shifted,
 * dropped or repeated chunks show up. */
static unsigned char
bulk_byte(uint64_t i)
{
	return (unsigned char)((i * 2654435761u) >> 13);
}

static int
run_bulk(char **argv, unsigned long long bytes)
{
	unsigned char out[CHUNK], in[CHUNK];
	uint64_t sent = 0, recvd = 0, t0;
	int to, from;

	spawn(argv, &to, &from);
	if (fcntl(to, F_SETFL, O_NONBLOCK) < 0)
		fail("fcntl");
	t0 = now_ns();
	while (recvd < bytes) {
		struct pollfd p[2] = {
			{ .fd = sent < bytes ? to : -1, .events = POLLOUT },
			{ .fd = from, .events = POLLIN },
		};

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR && !timed_out)
				continue;
			fail("poll");
		}
		if (p[0].revents & (POLLOUT | POLLERR)) {
			size_t n = bytes - sent < CHUNK ? (size_t)(bytes - sent) : CHUNK;
			ssize_t w;

			for (size_t k = 0; k < n; k++)
				out[k] = bulk_byte(sent + k);
			w = write(to, out, n);
			if (w < 0 && errno != EAGAIN && errno != EINTR)
				fail("write to child");
			if (w > 0)
				sent += (uint64_t)w;
			if (sent == bytes)
				close(to);
		}
		if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			size_t r = read_some(from, in, sizeof(in));

			for (size_t k = 0; k < r; k++)
				if (in[k] != bulk_byte(recvd + k)) {
					errno = 0;
					fail("streamed bytes differ");
				}
			recvd += r;
		}
	}
	{
		double s = (double)(now_ns() - t0) / 1e9;

		reap_child();
		printf("mode=bulk bytes=%llu seconds=%.3f mib_per_s=%.1f\n", bytes, s,
		    (double)bytes / 1048576.0 / s);
	}
	return 0;
}

/* arg with every "@ADDR@" replaced by addr; a new string when replaced. */
static char *
subst_addr(char *arg, const char *addr)
{
	const char *tag = "@ADDR@", *p;
	size_t n = 0, tl = strlen(tag), al = strlen(addr);
	char *out, *o;

	for (p = strstr(arg, tag); p; p = strstr(p + tl, tag))
		n++;
	if (n == 0)
		return arg;
	out = malloc(strlen(arg) + n * al + 1);
	if (!out)
		fail("malloc");
	for (o = out, p = arg; *p;) {
		if (strncmp(p, tag, tl) == 0) {
			memcpy(o, addr, al);
			o += al;
			p += tl;
		} else
			*o++ = *p++;
	}
	*o = '\0';
	return out;
}

/* Accepts one connection on ls, failing (instead of waiting for the
 * watchdog) when the child exits without connecting. */
static int
accept_from_child(int ls)
{
	for (;;) {
		struct pollfd p = { .fd = ls, .events = POLLIN };
		int st, r = poll(&p, 1, 100);

		if (r < 0 && (errno != EINTR || timed_out))
			fail("poll");
		if (r > 0) {
			int c = accept4(ls, NULL, NULL, SOCK_CLOEXEC);

			if (c >= 0)
				return c;
			if (errno != EINTR && errno != EAGAIN)
				fail("accept");
		}
		if (timed_out)
			fail("accept");
		if (child > 0 && waitpid(child, &st, WNOHANG) == child) {
			child = -1;
			errno = 0;
			fail("the command exited without connecting");
		}
	}
}

static int
run_firstbyte(char **argv, unsigned long long count, const char *var)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sa);
	uint64_t *acc, *first;
	char addr[32], envset[96];
	char **av;
	int ls, argc = 0;

	while (argv[argc])
		argc++;
	av = calloc((size_t)argc + 1, sizeof(*av));
	acc = calloc((size_t)count, sizeof(*acc));
	first = calloc((size_t)count, sizeof(*first));
	if (!av || !acc || !first)
		fail("calloc");
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(ls, 16) < 0 || getsockname(ls, (struct sockaddr *)&sa, &sl) < 0)
		fail("listen on 127.0.0.1");
	snprintf(addr, sizeof(addr), "127.0.0.1:%u", (unsigned)ntohs(sa.sin_port));
	snprintf(envset, sizeof(envset), "%s=%s", var, addr);
	if (putenv(envset) != 0)
		fail("putenv");
	for (int i = 0; i < argc; i++)
		av[i] = subst_addr(argv[i], addr);

	for (unsigned long long i = 0; i < count; i++) {
		int to, from, c;
		char b;
		ssize_t r;
		uint64_t t0 = now_ns();

		spawn(av, &to, &from);
		write_all(to, "x\n", 2);
		c = accept_from_child(ls);
		acc[i] = now_ns() - t0;
		do
			r = read(c, &b, 1);
		while (r < 0 && errno == EINTR && !timed_out);
		if (r != 1) {
			if (r == 0)
				errno = 0;
			fail("first byte");
		}
		first[i] = now_ns() - t0;
		close(c);
		close(to);
		close(from);
		reap_child();
	}
	qsort(acc, (size_t)count, sizeof(*acc), cmp_u64);
	qsort(first, (size_t)count, sizeof(*first), cmp_u64);
	printf("mode=firstbyte count=%llu accept_p50_us=%.1f first_p50_us=%.1f "
	    "first_p90_us=%.1f first_min_us=%.1f\n", count,
	    pct_us(acc, (size_t)count, 50), pct_us(first, (size_t)count, 50),
	    pct_us(first, (size_t)count, 90), pct_us(first, (size_t)count, 1));
	free(av);
	free(acc);
	free(first);
	close(ls);
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned long long count = 0, bytes = 64ull << 20, secs = 300;
	size_t size = 16;
	const char *mode, *var = "AIRLOCK_RUNNER";
	struct sigaction sa = { .sa_handler = on_alarm };
	int i;

	if (argc < 2)
		usage();
	mode = argv[1];
	for (i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (i + 1 >= argc)
			usage();
		if (strcmp(argv[i], "-n") == 0)
			count = parse_num(argv[++i], 1, 10000000);
		else if (strcmp(argv[i], "-s") == 0)
			size = (size_t)parse_num(argv[++i], 2, MAX_LINE);
		else if (strcmp(argv[i], "-b") == 0)
			bytes = parse_num(argv[++i], 1, 1ull << 40);
		else if (strcmp(argv[i], "-t") == 0)
			secs = parse_num(argv[++i], 1, 3600);
		else if (strcmp(argv[i], "-e") == 0)
			var = argv[++i];
		else
			usage();
	}
	if (i + 1 >= argc)
		usage();
	argv += i + 1;

	/* No SA_RESTART: the watchdog interrupts a blocked read or write. */
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	alarm((unsigned)secs);
	if (strcmp(mode, "rtt") == 0)
		return run_rtt(argv, count ? count : 20000, size);
	if (strcmp(mode, "bulk") == 0)
		return run_bulk(argv, bytes);
	if (strcmp(mode, "firstbyte") == 0)
		return run_firstbyte(argv, count ? count : 50, var);
	usage();
	return 2;
}
