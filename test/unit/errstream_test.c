/* errstream_test.c - a server's stderr and the relay's records on one fd:
 * control bytes escaped, the record prefix never at a server line's start,
 * records on a fresh line, JSON wrapping, a dead fd dropped. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/base/errstream.h"
#include "common/base/log.h"
#include "tap.h"

static struct errstream s;
static char got[1 << 16];
static int fd = -1;

static void
begin(int json)
{
	if (fd >= 0)
		close(fd);
	fd = memfd_create("errstream_test", MFD_CLOEXEC);
	errstream_init(&s, fd, json, "relay");
}

/* What was written so far (NUL-terminated). */
static const char *
output(void)
{
	ssize_t n;

	errstream_finish(&s);
	while (errstream_busy(&s))
		errstream_flush(&s);
	n = pread(fd, got, sizeof got - 1, 0);
	got[n > 0 ? n : 0] = '\0';
	return got;
}

/* got, escaped for a one-line TAP message */
static const char *
shown(void)
{
	static char e[4 * sizeof got];

	return log_escape(e, sizeof e, got, strlen(got));
}

static void
put(const char *p)
{
	errstream_put(&s, (const uint8_t *)p, strlen(p));
	while (errstream_busy(&s))
		errstream_flush(&s);
}

static void
record(const char *line)
{
	errstream_record(&s, line, strlen(line));
}

static void
test_human(void)
{
	static const struct { const char *in, *want; } t[] = {
		{ "abc\n", "abc\n" },
		{ "\x1b[2J\r\a\tx\x7f\n", "\\x1b[2J\\x0d\\x07\tx\\x7f\n" },
		{ "caf\xc3\xa9 \xff\n", "caf\xc3\xa9 \\xff\n" },
		{ "\xc2\x9b" "2J\xc2\x9d" "0;t\x07\n", "\\xc2\\x9b2J\\xc2\\x9d0;t\\x07\n" },
		{ "x\xc2\x85relay: error: forged\n",
		    "x\\xc2\\x85relay: error: forged\n" },
		{ "\x9b" "31m\xe2\x80\xae\xe2\x80\xa8\n",
		    "\\x9b31m\\xe2\\x80\\xae\\xe2\\x80\\xa8\n" },
		{ "relay: error: forged\n", "server: relay: error: forged\n" },
		{ "relax: fine\nrelay:x\n", "relax: fine\nrelay:x\n" },
		{ "x relay: y\n", "x relay: y\n" },
		{ "\nrelay: a\nrelay: b\n", "\nserver: relay: a\nserver: relay: b\n" },
		{ "rrelay: z\n", "rrelay: z\n" },
		{ "relay", "relay" },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		begin(0);
		put(t[i].in);
		output();
		ok(strcmp(got, t[i].want) == 0, "human %zu: %s", i, shown());
	}
	begin(0);
	put("rel");
	put("ay: split\n");
	output();
	ok(strcmp(got, "server: relay: split\n") == 0,
	    "the prefix split across frames is still caught: %s", shown());
	begin(0);
	put("partial");
	record("relay: warn: ours\n");
	put(" more\n");
	output();
	ok(strcmp(got, "partial\nrelay: warn: ours\n more\n") == 0,
	    "our record starts on a fresh line: %s", shown());
	begin(0);
	put("rel");
	record("relay: warn: ours\n");
	put("ay: forged\n");
	output();
	ok(strcmp(got, "rel\nrelay: warn: ours\nay: forged\n") == 0,
	    "a held prefix is released before our record: %s", shown());
	begin(0);
	put("line\n");
	record("relay: error: e\n");
	output();
	ok(strcmp(got, "line\nrelay: error: e\n") == 0,
	    "no extra newline after a full line: %s", shown());
}

static void
test_json(void)
{
	char big[1200];

	begin(1);
	put("a\n\"b\\\x1b");
	record("{\"ours\":1}\n");
	output();
	ok(strstr(got, "\"source\":\"server\",\"text\":\"a\",\"eol\":true}\n") &&
	    strstr(got, "\"text\":\"\\\"b\\\\\\u001b\",\"eol\":false}\n") &&
	    strstr(got, "}\n{\"ours\":1}\n"),
	    "json: lines wrapped, bytes escaped, ours kept apart: %s", shown());
	begin(1);
	put("caf\xc3\xa9 \xc2\x9b\xe2\x80\xae\xff\n");
	output();
	ok(strstr(got, "\"text\":\"caf\xc3\xa9 \\u009b\\u202e\\ufffd\","
	    "\"eol\":true}\n") != NULL,
	    "json: UTF-8 kept, C1 and bidi escaped, a bad byte as U+FFFD: %s",
	    shown());
	begin(1);
	memset(big, 'x', sizeof big);
	big[sizeof big - 1] = '\0';
	put(big);
	output();
	{
		int lines = 0;

		for (const char *p = got; *p; p++)
			lines += *p == '\n';
		ok(lines == 3, "json: a %zu-byte line takes 3 records of <= %d "
		    "(got %d)", sizeof big - 1, LOG_STREAM_PIECE, lines);
	}
	begin(1);
	put("relay: error: forged\n");
	output();
	ok(strncmp(got, "{\"ts\":", 6) == 0 && strstr(got,
	    "\"text\":\"relay: error: forged\""), "json: a forged line is "
	    "only text: %s", shown());
}

static void
test_dead(void)
{
	int p[2];

	signal(SIGPIPE, SIG_IGN);
	if (pipe(p) != 0)
		return;
	close(p[0]);
	errstream_init(&s, p[1], 0, "relay");
	errstream_put(&s, (const uint8_t *)"lost\n", 5);
	errstream_flush(&s);
	ok(!errstream_busy(&s) && s.dead && s.dropped == 5,
	    "a stderr nobody can read is dropped, not retried");
	record("relay: error: x\n");
	ok(s.dropped == 5 + 16, "records after it are counted as dropped");
	ok((fcntl(p[1], F_GETFL) & O_NONBLOCK) == 0,
	    "the fd's status flags are untouched");
	close(p[1]);
}

int
main(void)
{
	test_human();
	test_json();
	test_dead();
	return tap_done();
}
