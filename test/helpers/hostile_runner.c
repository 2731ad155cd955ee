/* hostile_runner.c - a compromised runner for test/relay_hostile.test: it
 * holds the shared secret and speaks the real protocol (common/wire/noise.c,
 * common/wire/channel.c), and breaks it on purpose. It listens on ADDR, forks
 * per connection, completes the handshake, reads the SPAWN and plays the
 * scenario named by the server's argv[1] (the relay is run as
 * `relay -- node SCENARIO [ARG]`), so one helper serves every case.
 *
 *   hostile_runner ADDR SECRET_FILE
 * Prints "ready" once listening; runs until killed. Scenarios:
 *
 * Order and direction
 *   stdout-before-started  stderr-before-started  exit-before-started
 *   started-twice  error-after-started (a refusal's code)
 *   max-duration-early     ERROR max_duration instead of STARTED
 *   max-duration           STARTED, then ERROR max_duration (the lease's
 *                          legitimate end: 75)
 *   type-N                 STARTED, then a frame of type N (1, 3, 4 are
 *                          the relay's own; 0, 11, 255 unknown)
 * Values (after STARTED where it matters)
 *   started-short  started-trailing  started-ping0  started-live-le-ping
 *   started-escape         lease id holding ESC [2J
 *   started-v1             version 1's STARTED (no egress policy)
 *   egress-mode3  egress-ports-unsorted  egress-ports-65  egress-ports0
 *   egress-hosts-upper  egress-hosts-unsorted  egress-hosts-escape
 *   egress-hosts-cut       an egress policy outside its grammar or caps
 *   egress-hosts           a valid one (a.io:443,b.io:80), then EXIT 0
 *   stdout-empty  stderr-empty
 *   exit-kindN  exit-sigN  exit-reasonN   EXIT with kind, signal or
 *                          reason N (2, 0, 65, 128, 9 are out of range)
 *   exit-short  exit-trailing  exit-detail-nul
 *   error-code0  error-code99  error-short  error-nul
 *   error-escape           ERROR whose message holds ESC, CR, newlines
 *                          and a fake "relay: info: all checks passed"
 *   ping-short  ping-long  pong-unasked  pong-short
 *   record-garbage         a record of random bytes (fails its tag)
 *   record-short           a record shorter than a tag
 * Legitimate ends, the baseline
 *   exit CODE  |  signal N  |  refuse    (ERROR env)
 *   timers-huge            STARTED ping 2^32-2, liveness 2^32-1, then
 *                          "alive\n" after 1 s and EXIT 0
 *   timers-tiny            STARTED ping 1 ms, liveness 2 ms; answers
 *                          PINGs for 1 s, prints "pings N" (how many it
 *                          got) on its stdout, then goes deaf
 * Floods, stalls, half-closes
 *   stdout-flood MIB       MIB MiB of STDOUT in full frames, then answers
 *                          PINGs until the relay goes
 *   stderr-flood MIB       the same on STDERR (lines of 100 bytes)
 *   tiny-frames N          N one-byte STDERR frames, then EXIT 0
 *   ping-flood             PINGs without end, never reading
 *   silent                 STARTED (ping 100 ms, liveness 600 ms), then
 *                          reads but says nothing
 *   deaf                   STARTED (liveness 10 min), then neither reads
 *                          nor writes
 *   answer                 STARTED (liveness 10 min), answers PINGs
 *   half-close             STARTED, STDOUT "partial\n", shuts down its
 *                          sending side, keeps reading
 *   reset                  STARTED, STDOUT "x\n", closes with unread data
 *   forge                  STARTED; STDERR "no newline ", "\nrelay: error:
 *                          forged\n", an OSC title escape, "relay: info:
 *                          ok"; then EXIT 0 with reason shutdown (so the
 *                          relay logs a record after a partial line)
 *   forge-c1               STARTED; one STDERR of UTF-8 C1 controls (NEL
 *                          before a forged "relay: error:", CSI, OSC 52),
 *                          raw 0x9b, bidi controls, U+2028 and "cafe"
 *                          with an accent; then EXIT 0
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/wire/channel.h"
#include "common/wire/proto.h"
#include "common/wire/secret.h"
#include "test/helpers/runner_listen.h"

static struct channel ch;
static struct spawn_req req;

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Send one frame, waiting for the socket; exit quietly once the relay is
 * gone (that is how most scenarios end). */
static void
frame(uint8_t type, const void *p, size_t n)
{
	if (channel_send_wait(&ch, type, p, n, 60000) != 0)
		_exit(0);
}

static void
put16(uint8_t *p, size_t *o, unsigned v)
{
	p[(*o)++] = (uint8_t)(v >> 8);
	p[(*o)++] = (uint8_t)v;
}

static void
put32(uint8_t *p, size_t *o, uint32_t v)
{
	for (int i = 24; i >= 0; i -= 8)
		p[(*o)++] = (uint8_t)(v >> i);
}

static void
put64(uint8_t *p, size_t *o, uint64_t v)
{
	for (int i = 56; i >= 0; i -= 8)
		p[(*o)++] = (uint8_t)(v >> i);
}

static void
putstr(uint8_t *p, size_t *o, const char *s, size_t n)
{
	put16(p, o, (unsigned)n);
	memcpy(p + *o, s, n);
	*o += n;
}

/* STARTED of protocol version 2: the version 1 fields, then the egress
 * policy tail[n] (one byte 0, "no rule", when tail is NULL). */
static void
started_tail(const char *lease, uint32_t ping, uint32_t live,
    const void *tail, size_t n, int extra)
{
	uint8_t p[512];
	size_t o = 0;

	putstr(p, &o, lease, strlen(lease));
	putstr(p, &o, "none", 4);
	put32(p, &o, ping);
	put32(p, &o, live);
	if (tail) {
		memcpy(p + o, tail, n);
		o += n;
	} else
		p[o++] = 0;
	if (extra)
		p[o++] = 0;
	frame(FRAME_STARTED, p, o);
}

static void
started(const char *lease, uint32_t ping, uint32_t live, int extra)
{
	started_tail(lease, ping, live, NULL, 0, extra);
}

/* STARTED whose egress policy is hosts with list text */
static void
started_hosts(const char *list)
{
	uint8_t t[300];
	size_t o = 0;

	t[o++] = 2;
	putstr(t, &o, list, strlen(list));
	started_tail("id", 100, 1000, t, o, 0);
}

static void
exit_frame(uint8_t kind, uint8_t status, uint8_t reason, const char *detail,
    size_t dn, int cut)
{
	uint8_t p[256];
	size_t o = 0;

	p[o++] = kind;
	p[o++] = status;
	p[o++] = reason;
	for (int i = 0; i < 5; i++)
		put64(p, &o, 0);
	putstr(p, &o, detail, dn);
	frame(FRAME_EXIT, p, cut < 0 ? o + 1 : o - (size_t)cut);
}

static void
error_frame(unsigned code, const char *msg, size_t n, int cut)
{
	uint8_t p[2048];
	size_t o = 0;

	put16(p, &o, code);
	putstr(p, &o, msg, n);
	frame(FRAME_ERROR, p, o - (size_t)cut);
}

static void
ping_like(uint8_t type, uint64_t v, size_t n)
{
	uint8_t p[16] = { 0 };
	size_t o = 0;

	put64(p, &o, v);
	frame(type, p, n);
}

/* Read and answer PINGs until the relay closes (or ms passes, if > 0);
 * returns the PINGs seen. */
static long
answer(long ms)
{
	struct timespec t0, t;
	long pings = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pf = { ch.fd, POLLIN, 0 };
		const uint8_t *p;
		const char *why;
		uint8_t type;
		size_t len;
		enum channel_next nx;

		while ((nx = channel_next(&ch, &type, &p, &len, &why)) ==
		    CHANNEL_FRAME)
			if (type == FRAME_PING) {
				pings++;
				frame(FRAME_PONG, p, len);
			}
		if (nx == CHANNEL_BAD)
			_exit(0);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (ms > 0 && (t.tv_sec - t0.tv_sec) * 1000 +
		    (t.tv_nsec - t0.tv_nsec) / 1000000 >= ms)
			return pings;
		if (poll(&pf, 1, 50) > 0) {
			long n = channel_fill(&ch);

			if (n == 0 || (n < 0 && errno != EAGAIN))
				_exit(0);
		}
	}
}

/* Neither read nor write; end when the relay hangs up. */
static void
deaf(void)
{
	for (;;) {
		struct pollfd pf = { ch.fd, POLLRDHUP, 0 };

		if (poll(&pf, 1, -1) > 0 && (pf.revents & (POLLRDHUP | POLLHUP |
		    POLLERR)))
			_exit(0);
	}
}

/* Read and drop everything, saying nothing, until the relay closes. */
static void
mute(void)
{
	for (;;) {
		struct pollfd pf = { ch.fd, POLLIN, 0 };
		long n;

		if (poll(&pf, 1, -1) <= 0)
			continue;
		n = read(ch.fd, ch.in, sizeof ch.in);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			_exit(0);
	}
}

static void
flood(uint8_t type, long mib)
{
	static uint8_t buf[FRAME_PAYLOAD_MAX];
	size_t chunk = type == FRAME_STDOUT ? sizeof buf : 100 * 600;
	uint64_t left = (uint64_t)mib << 20;

	memset(buf, 'o', sizeof buf);
	for (size_t i = 99; i < sizeof buf; i += 100)
		buf[i] = '\n';
	while (left > 0) {
		size_t n = left < chunk ? (size_t)left : chunk;

		frame(type, buf, n);
		left -= n;
	}
}

static void
raw_record(const uint8_t *body, size_t n)
{
	uint8_t hdr[2] = { (uint8_t)(n >> 8), (uint8_t)n };

	if (write(ch.fd, hdr, 2) != 2 || write(ch.fd, body, n) != (ssize_t)n)
		_exit(0);
}

#define LONG_LIVE 600000u

static int
play(const char *s, const char *arg)
{
	static const char esc_id[] = "id\x1b[2J";
	static const char forged[] = "\x1b[2J\rrelay: info: all checks "
	    "passed\nrelay: info: all checks passed\n\x1b]0;owned\x07";
	long a = arg ? atol(arg) : 0;
	uint8_t junk[64];

	if (strcmp(s, "stdout-before-started") == 0)
		frame(FRAME_STDOUT, "x", 1);
	else if (strcmp(s, "stderr-before-started") == 0)
		frame(FRAME_STDERR, "x", 1);
	else if (strcmp(s, "exit-before-started") == 0)
		exit_frame(0, 0, 0, "", 0, 0);
	else if (strcmp(s, "started-short") == 0)
		frame(FRAME_STARTED, "\0\2id", 4);
	else if (strcmp(s, "started-trailing") == 0)
		started("id", 100, 1000, 1);
	else if (strcmp(s, "started-ping0") == 0)
		started("id", 0, 1000, 0);
	else if (strcmp(s, "started-live-le-ping") == 0)
		started("id", 1000, 1000, 0);
	else if (strcmp(s, "started-escape") == 0)
		started(esc_id, 100, 1000, 0);
	else if (strcmp(s, "started-v1") == 0)
		started_tail("id", 100, 1000, "", 0, 0);
	else if (strcmp(s, "egress-mode3") == 0)
		started_tail("id", 100, 1000, "\3", 1, 0);
	else if (strcmp(s, "egress-ports-unsorted") == 0)
		started_tail("id", 100, 1000, "\1\0\2\1\273\0\120", 7, 0);
	else if (strcmp(s, "egress-ports-65") == 0)
		started_tail("id", 100, 1000, "\1\0\101", 3, 0);
	else if (strcmp(s, "egress-ports0") == 0)
		started_tail("id", 100, 1000, "\1\0\1\0\0", 5, 0);
	else if (strcmp(s, "egress-hosts-upper") == 0)
		started_hosts("A.io:443");
	else if (strcmp(s, "egress-hosts-unsorted") == 0)
		started_hosts("b.io:443,a.io:443");
	else if (strcmp(s, "egress-hosts-escape") == 0)
		started_hosts("a.io:443\x1b]0;owned\x07");
	else if (strcmp(s, "egress-hosts-cut") == 0)
		started_tail("id", 100, 1000, "\2\0\50a.io:443", 11, 0);
	else if (strcmp(s, "egress-hosts") == 0) {
		started_hosts("a.io:443,b.io:80");
		exit_frame(0, 0, 0, "", 0, 0);
	}
	else if (strcmp(s, "max-duration-early") == 0)
		error_frame(LERR_MAX_DURATION, "early", 5, 0);
	else if (strcmp(s, "error-code0") == 0)
		error_frame(0, "x", 1, 0);
	else if (strcmp(s, "error-code99") == 0)
		error_frame(99, "x", 1, 0);
	else if (strcmp(s, "error-short") == 0)
		error_frame(LERR_ENV, "xyz", 3, 2);
	else if (strcmp(s, "error-nul") == 0)
		error_frame(LERR_ENV, "a\0b", 3, 0);
	else if (strcmp(s, "error-escape") == 0)
		error_frame(LERR_ENV, forged, sizeof forged - 1, 0);
	else if (strcmp(s, "refuse") == 0)
		error_frame(LERR_ENV, "refused", 7, 0);
	else if (strcmp(s, "record-garbage") == 0) {
		for (size_t i = 0; i < sizeof junk; i++)
			junk[i] = (uint8_t)(i * 37 + 11);
		raw_record(junk, sizeof junk);
	} else if (strcmp(s, "record-short") == 0) {
		raw_record((const uint8_t *)"short", 5);
	} else if (strcmp(s, "ping-flood") == 0) {
		started("id", 100, LONG_LIVE, 0);
		for (uint64_t i = 1;; i++)
			ping_like(FRAME_PING, i, 8);
	} else {
		/* everything below starts the lease properly first */
		started("id", strcmp(s, "silent") == 0 ? 100 : 10000,
		    strcmp(s, "silent") == 0 ? 600 : LONG_LIVE, 0);
		if (strcmp(s, "started-twice") == 0)
			started("id", 100, 1000, 0);
		else if (strcmp(s, "error-after-started") == 0)
			error_frame(LERR_ENV, "late", 4, 0);
		else if (strcmp(s, "max-duration") == 0)
			error_frame(LERR_MAX_DURATION, "a day\x1b[2J", 9, 0);
		else if (strncmp(s, "type-", 5) == 0)
			frame((uint8_t)atoi(s + 5), "", 0);
		else if (strcmp(s, "stdout-empty") == 0)
			frame(FRAME_STDOUT, "", 0);
		else if (strcmp(s, "stderr-empty") == 0)
			frame(FRAME_STDERR, "", 0);
		else if (strncmp(s, "exit-kind", 9) == 0)
			exit_frame((uint8_t)atoi(s + 9), 0, 0, "", 0, 0);
		else if (strncmp(s, "exit-sig", 8) == 0)
			exit_frame(1, (uint8_t)atoi(s + 8), 0, "", 0, 0);
		else if (strncmp(s, "exit-reason", 11) == 0)
			exit_frame(0, 0, (uint8_t)atoi(s + 11), "", 0, 0);
		else if (strcmp(s, "exit-short") == 0)
			exit_frame(0, 0, 0, "tail", 4, 3);
		else if (strcmp(s, "exit-trailing") == 0)
			exit_frame(0, 0, 0, "tail", 4, -1);
		else if (strcmp(s, "exit-detail-nul") == 0)
			exit_frame(0, 0, 0, "a\0b", 3, 0);
		else if (strcmp(s, "exit") == 0)
			exit_frame(0, (uint8_t)a, 0, "", 0, 0);
		else if (strcmp(s, "signal") == 0)
			exit_frame(1, (uint8_t)a, 0, "", 0, 0);
		else if (strcmp(s, "ping-short") == 0)
			ping_like(FRAME_PING, 1, 7);
		else if (strcmp(s, "ping-long") == 0)
			ping_like(FRAME_PING, 1, 9);
		else if (strcmp(s, "pong-unasked") == 0)
			ping_like(FRAME_PONG, 1000000, 8);
		else if (strcmp(s, "pong-short") == 0)
			ping_like(FRAME_PONG, 1, 4);
		else if (strcmp(s, "stdout-flood") == 0) {
			flood(FRAME_STDOUT, a);
			answer(0);
		} else if (strcmp(s, "stderr-flood") == 0) {
			flood(FRAME_STDERR, a);
			answer(0);
		} else if (strcmp(s, "tiny-frames") == 0) {
			for (long i = 0; i < a; i++)
				frame(FRAME_STDERR, i % 64 == 63 ? "\n" : "e", 1);
			exit_frame(0, 0, 0, "", 0, 0);
		} else if (strcmp(s, "silent") == 0) {
			mute();
		} else if (strcmp(s, "deaf") == 0) {
			deaf();
		} else if (strcmp(s, "answer") == 0) {
			answer(0);
		} else if (strcmp(s, "half-close") == 0) {
			frame(FRAME_STDOUT, "partial\n", 8);
			shutdown(ch.fd, SHUT_WR);
			mute();
		} else if (strcmp(s, "reset") == 0) {
			frame(FRAME_STDOUT, "x\n", 2);
			sleep_ms(200);	/* let stdin EOF arrive, unread */
			close(ch.fd);
			_exit(0);
		} else if (strcmp(s, "forge") == 0) {
			frame(FRAME_STDERR, "no newline ", 11);
			frame(FRAME_STDERR, "\nrelay: error: forged\n", 22);
			frame(FRAME_STDERR, "\x1b]0;owned\x07\r", 10);
			frame(FRAME_STDERR, "relay: info: ok", 15);
			exit_frame(0, 0, EXIT_REASON_SHUTDOWN, "", 0, 0);
		} else if (strcmp(s, "forge-c1") == 0) {
			static const char c1[] = "x\xc2\x85relay: error: forged\n"
			    "\xc2\x9b" "2J\xc2\x9d" "52;c;aGk=\x07\x9b" "31m"
			    "\xe2\x80\xae" "cba\xe2\x80\xa8\xe2\x81\xa6"
			    "\xd8\x9c caf\xc3\xa9\n";

			frame(FRAME_STDERR, c1, sizeof c1 - 1);
			exit_frame(0, 0, 0, "", 0, 0);
		} else if (strcmp(s, "timers-huge") == 0) {
			sleep_ms(1000);
			frame(FRAME_STDOUT, "alive\n", 6);
			exit_frame(0, 0, 0, "", 0, 0);
		} else if (strcmp(s, "timers-tiny") == 0) {
			/* replace the lease's STARTED contract: a fresh lease */
			return 2;
		} else {
			fprintf(stderr, "hostile_runner: no scenario '%s'\n", s);
			return 1;
		}
	}
	return 0;
}

static void
serve(int fd, const uint8_t *psk)
{
	const uint8_t *p;
	const char *why;
	uint8_t type;
	size_t len;
	char err[512];
	int rc;

	if (channel_handshake(&ch, fd, CHANNEL_RESPONDER, psk, 5000, err,
	    sizeof err) != 0 ||
	    channel_recv_wait(&ch, &type, &p, &len, 5000, &why) !=
	    CHANNEL_FRAME || type != FRAME_SPAWN ||
	    proto_spawn_parse(&req, p, len) != PROTO_OK || req.argc < 2)
		_exit(1);
	if (strcmp(req.argv[1], "timers-tiny") == 0) {
		started("id", 1, 2, 0);
		printf("pings %ld\n", answer(1000));
		fflush(stdout);
		deaf();
	}
	rc = play(req.argv[1], req.argc > 2 ? req.argv[2] : NULL);
	if (rc != 0)
		_exit(rc);
	/* whatever the relay does next, stay until it goes */
	answer(0);
	_exit(0);
}

int
main(int argc, char **argv)
{
	uint8_t psk[SECRET_PSK_LEN];
	int lfd;

	if (argc != 3) {
		fprintf(stderr, "usage: hostile_runner ADDR SECRET_FILE\n");
		return 2;
	}
	lfd = runner_listen("hostile_runner", argv[1], argv[2], psk);
	signal(SIGCHLD, SIG_IGN);	/* no zombies */
	signal(SIGPIPE, SIG_IGN);
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		struct pollfd pf = { lfd, POLLIN, 0 };
		int fd;

		if (poll(&pf, 1, -1) != 1 || (fd = accept(lfd, NULL, NULL)) < 0)
			continue;
		if (fork() == 0) {
			close(lfd);
			serve(fd, psk);
		}
		close(fd);
	}
}
