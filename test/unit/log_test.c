/* log_test.c - log lines are escaped, JSON lines parse as one object. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "tap.h"

/* Run one log call with stderr redirected into buf. */
static size_t
capture(char *buf, size_t cap, const char *format, const char *event,
    const struct log_field *f, size_t n)
{
	int fds[2], saved = dup(2);
	ssize_t got;

	if (pipe(fds) != 0 || saved < 0)
		return 0;
	dup2(fds[1], 2);
	log_set_format(format);
	log_event(LOG_INFO, event, f, n);
	dup2(saved, 2);
	close(saved);
	close(fds[1]);
	got = read(fds[0], buf, cap - 1);
	close(fds[0]);
	buf[got > 0 ? got : 0] = '\0';
	return got > 0 ? (size_t)got : 0;
}

/* The one human escaper: what a terminal would act on never passes. */
static void
test_escape(void)
{
	static const struct { const char *in, *want, *why; } t[] = {
		{ "caf\xc3\xa9 ok", "caf\xc3\xa9 ok", "UTF-8 as itself" },
		{ "\x1b[2J\r\x7f", "\\x1b[2J\\x0d\\x7f", "C0 and DEL" },
		{ "\xc2\x9b" "2J", "\\xc2\\x9b2J", "C1 CSI in UTF-8" },
		{ "\xc2\x9d" "0;t\x07", "\\xc2\\x9d0;t\\x07", "C1 OSC" },
		{ "\xc2\x85relay: error", "\\xc2\\x85relay: error",
		    "NEL: no line break" },
		{ "\x9b" "2J", "\\x9b2J", "raw 0x9b" },
		{ "\xe2\x80\xae" "cba", "\\xe2\\x80\\xaecba", "bidi override" },
		{ "\xe2\x81\xa6\xd8\x9c\xe2\x80\x8f",
		    "\\xe2\\x81\\xa6\\xd8\\x9c\\xe2\\x80\\x8f",
		    "bidi isolate and marks" },
		{ "\xe2\x80\xa8\xe2\x80\xa9", "\\xe2\\x80\\xa8\\xe2\\x80\\xa9",
		    "line and paragraph separators" },
		{ "\xc1\x9b\xff", "\\xc1\\x9b\\xff", "overlong and invalid" },
		{ "a\\b", "a\\x5cb", "backslash" },
	};
	char out[256];

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		log_escape(out, sizeof out, t[i].in, strlen(t[i].in));
		ok(strcmp(out, t[i].want) == 0, "log_escape: %s: %s", t[i].why,
		    out);
	}
	log_escape(out, 9, "\xc3\xa9\xc3\xa9\xc3\xa9", 6);
	ok(strcmp(out, "\xc3\xa9\xc3\xa9...") == 0,
	    "cut between characters, never inside one");
}

/* "YYYY-MM-DDTHH:MM:SS.mmmZ\"" at p: digits where digits go */
static int
ts_shape(const char *p)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddZ\"";

	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)p[i]) :
		    p[i] != shape[i])
			return 0;
	return 1;
}

int
main(void)
{
	char buf[8192], big[1000];
	struct log_field f[3];

	log_init("unit");
	f[0] = LF_STR("tenant", "t1\nforged: error: x");
	f[1] = LF_NUM("bytes", 42);
	f[2] = LF_STR("argv", "a \"b\"");
	capture(buf, sizeof buf, "human", "lease ended", f, 3);
	ok(strcmp(buf, "unit: info: lease ended tenant=\"t1\\x0aforged: error: x\" "
	    "bytes=42 argv=\"a \\x22b\\x22\"\n") == 0,
	    "human line escapes newlines and quotes: %s", buf);

	capture(buf, sizeof buf, "json", "lease \"ended\"", f, 3);
	ok(strncmp(buf, "{\"ts\":\"", 7) == 0 && strchr(buf, '\n') ==
	    buf + strlen(buf) - 1, "json line is one line starting with ts");
	ok(strstr(buf, "\"msg\":\"lease \\\"ended\\\"\",\"tenant\":"
	    "\"t1\\nforged: error: x\",\"bytes\":42,\"argv\":"
	    "\"a \\\"b\\\"\"}\n") != NULL, "json escapes: %s", buf);

	/* numbers and the timestamp are written digit by digit */
	f[0] = LF_NUM("zero", 0);
	f[1] = LF_NUM("neg", -1);
	f[2] = LF_NUM("min", INT64_MIN);
	capture(buf, sizeof buf, "human", "n", f, 3);
	ok(strcmp(buf, "unit: info: n zero=0 neg=-1 "
	    "min=-9223372036854775808\n") == 0, "human numbers: %s", buf);
	f[0] = LF_NUM("max", INT64_MAX);
	capture(buf, sizeof buf, "json", "n", f, 1);
	ok(strstr(buf, ",\"max\":9223372036854775807}\n") != NULL,
	    "json numbers: %s", buf);
	ok(ts_shape(buf + 7), "the timestamp is YYYY-MM-DDTHH:MM:SS.mmmZ: %.32s",
	    buf);

	memset(big, 'v', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	f[0] = LF_STR("big", big);
	capture(buf, sizeof buf, "human", "x", f, 1);
	ok(strlen(buf) == strlen("unit: info: x big=") + LOG_VALUE_MAX + 4,
	    "a long value is cut at %d bytes with ...", LOG_VALUE_MAX);
	ok(log_set_format("xml") == -1, "unknown format refused");
	test_escape();
	return tap_done();
}
