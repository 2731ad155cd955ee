/* log.c - human and JSON log lines on stderr, escaped and truncated. */
#include "common/base/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/base/json.h"
#include "common/base/utf8.h"

static const char *log_prog = "airlock";
static int log_json;
static enum log_level log_max = LOG_INFO;

static const char *const level_names[] = { "error", "warn", "info", "debug" };

void
log_init(const char *prog)
{
	log_prog = prog;
}

int
log_set_format(const char *name)
{
	if (strcmp(name, "human") == 0)
		log_json = 0;
	else if (strcmp(name, "json") == 0)
		log_json = 1;
	else
		return -1;
	return 0;
}

void
log_set_level(enum log_level max)
{
	log_max = max;
}

int
log_is_json(void)
{
	return log_json;
}

const char *
log_prog_name(void)
{
	return log_prog;
}

/* A line under construction; overflow truncates, it never writes past. */
struct line {
	char buf[LOG_LINE_MAX];
	size_t len;
};

static void
line_put(struct line *l, const char *s, size_t n)
{
	if (n > sizeof l->buf - 1 - l->len)
		n = sizeof l->buf - 1 - l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

static void
line_puts(struct line *l, const char *s)
{
	line_put(l, s, strlen(s));
}

/* v in decimal, zero-padded to width digits: snprintf cost the MCP tap's
 * per-call record a third of its time (BENCHMARKS.md). */
static void
line_dec(struct line *l, long long v, int width)
{
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v :
	    (unsigned long long)v;
	char tmp[24];
	int i = (int)sizeof tmp;

	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u || (int)sizeof tmp - i < width);
	if (v < 0)
		tmp[--i] = '-';
	line_put(l, tmp + i, sizeof tmp - (size_t)i);
}

/* One byte as \xNN: 4 bytes into out. */
static size_t
hex_byte(char out[LOG_ESCAPE_STEP_MAX], uint8_t c)
{
	static const char hex[] = "0123456789abcdef";

	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 0xf];
	return 4;
}

size_t
log_escape_step(const uint8_t *p, size_t n, size_t *off,
    char out[LOG_ESCAPE_STEP_MAX])
{
	uint32_t cp;
	size_t len = utf8_seq(p + *off, n - *off, &cp);

	if (len > 0 && !utf8_must_escape(cp)) {
		memcpy(out, p + *off, len);
		*off += len;
		return len;
	}
	*off += 1;
	return hex_byte(out, p[*off - 1]);
}

size_t
log_stream_step(const uint8_t *p, size_t n, size_t *off,
    char out[LOG_ESCAPE_STEP_MAX])
{
	if (p[*off] == '\t' || p[*off] == '\n') {
		out[0] = (char)p[(*off)++];
		return 1;
	}
	return log_escape_step(p, n, off, out);
}

/* The human form of p[*off] for a log line: log_escape_step, with the
 * backslash (and the quote when quoted) as \xNN too, so a value's text
 * cannot pass for an escape or end its quotes. */
static size_t
human_step(const uint8_t *p, size_t n, size_t *off, int quoted,
    char out[LOG_ESCAPE_STEP_MAX])
{
	uint8_t c = p[*off];

	if (c == '\\' || (quoted && c == '"')) {
		*off += 1;
		return hex_byte(out, c);
	}
	return log_escape_step(p, n, off, out);
}

/* Append p[0..n) as JSON string content (common/base/json.h), whole escapes
 * only: what does not fit is cut, like line_put. */
static void
line_json(struct line *l, const void *p, size_t n)
{
	json_append(l->buf, sizeof l->buf - 1, &l->len, p, n);
}

/* Append the C string s escaped, at most max bytes of it. */
static void
line_escaped(struct line *l, const char *s, size_t max, int json, int quoted)
{
	size_t n = strnlen(s, max);
	char step[LOG_ESCAPE_STEP_MAX];

	if (json) {
		line_json(l, s, n);
	} else {
		/* whole characters only: a cut one could pair with the next
		 * byte written */
		for (size_t off = 0; off < n; ) {
			size_t k = human_step((const uint8_t *)s, n, &off,
			    quoted, step);

			if (k > sizeof l->buf - 1 - l->len)
				break;
			line_put(l, step, k);
		}
	}
	if (s[n])
		line_puts(l, "...");
}

char *
log_escape(char *out, size_t cap, const void *s, size_t n)
{
	char step[LOG_ESCAPE_STEP_MAX];
	size_t o = 0, off = 0;

	while (off < n) {
		size_t next = off, k = human_step(s, n, &next, 0, step);

		if (k > cap - 4 - o)
			break;
		memcpy(out + o, step, k);
		o += k;
		off = next;
	}
	if (off < n) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
	return out;
}

static int
needs_quotes(const char *s)
{
	if (!*s)
		return 1;
	for (; *s; s++)
		if (*s == ' ' || *s == '"' || *s == '=')
			return 1;
	return 0;
}

static void
line_timestamp(struct line *l)
{
	static const int width[] = { 4, 2, 2, 2, 2, 2, 3 };
	static const char after[] = "--T::.Z";	/* after each part */
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	const int v[] = { tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ts.tv_nsec / 1000000) };
	for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
		line_dec(l, v[i], width[i]);
		line_put(l, &after[i], 1);
	}
}

static void
line_field(struct line *l, const struct log_field *f)
{
	const char *str = f->str ? f->str : "";

	if (log_json) {
		line_puts(l, ",\"");
		line_escaped(l, f->key, 64, 1, 1);
		line_puts(l, "\":");
		if (!f->is_num) {
			line_puts(l, "\"");
			line_escaped(l, str, LOG_VALUE_MAX, 1, 1);
			line_puts(l, "\"");
		} else {
			line_dec(l, f->num, 1);
		}
		return;
	}
	line_puts(l, " ");
	line_escaped(l, f->key, 64, 0, 0);
	line_puts(l, "=");
	if (f->is_num) {
		line_dec(l, f->num, 1);
	} else if (needs_quotes(str)) {
		line_puts(l, "\"");
		line_escaped(l, str, LOG_VALUE_MAX, 0, 1);
		line_puts(l, "\"");
	} else {
		line_escaped(l, str, LOG_VALUE_MAX, 0, 0);
	}
}

static void (*log_sink)(const char *line, size_t n, void *arg);
static void *log_sink_arg;

void
log_set_sink(void (*sink)(const char *line, size_t n, void *arg), void *arg)
{
	log_sink = sink;
	log_sink_arg = arg;
}

static void
line_emit(struct line *l)
{
	size_t off = 0;

	l->buf[l->len++] = '\n';	/* line_put always leaves this byte */
	if (log_sink) {
		log_sink(l->buf, l->len, log_sink_arg);
		return;
	}
	while (off < l->len) {
		ssize_t n = write(STDERR_FILENO, l->buf + off, l->len - off);

		if (n <= 0)
			return;	/* nowhere left to report a logging failure */
		off += (size_t)n;
	}
}

/* The record's opening: timestamp, prog, level and message. */
static void
line_head(struct line *l, enum log_level level, const char *event)
{
	if (log_json) {
		line_puts(l, "{\"ts\":\"");
		line_timestamp(l);
		line_puts(l, "\",\"prog\":\"");
		line_escaped(l, log_prog, 64, 1, 1);
		line_puts(l, "\",\"level\":\"");
		line_puts(l, level_names[level]);
		line_puts(l, "\",\"msg\":\"");
		line_escaped(l, event, 1024, 1, 1);
		line_puts(l, "\"");
	} else {
		line_escaped(l, log_prog, 64, 0, 0);
		line_puts(l, ": ");
		line_puts(l, level_names[level]);
		line_puts(l, ": ");
		line_escaped(l, event, 1024, 0, 0);
	}
}

size_t
log_stream_record(char out[LOG_LINE_MAX], const char *source,
    const uint8_t *p, size_t n, int eol)
{
	struct line l = { .len = 0 };
	int json = log_json;

	log_json = 1;
	line_head(&l, LOG_INFO, "peer output");
	log_json = json;
	line_puts(&l, ",\"source\":\"");
	line_escaped(&l, source, 64, 1, 1);
	line_puts(&l, "\",\"text\":\"");
	line_json(&l, p, n < LOG_STREAM_PIECE ? n : LOG_STREAM_PIECE);
	line_puts(&l, eol ? "\",\"eol\":true}" : "\",\"eol\":false}");
	l.buf[l.len++] = '\n';
	memcpy(out, l.buf, l.len);
	return l.len;
}

void
log_event(enum log_level level, const char *event,
    const struct log_field *fields, size_t nfields)
{
	struct line l = { .len = 0 };
	size_t i;

	if (level > log_max)
		return;
	line_head(&l, level, event);
	for (i = 0; i < nfields; i++)
		line_field(&l, &fields[i]);
	if (log_json)
		line_puts(&l, "}");
	line_emit(&l);
}

void
log_msg(enum log_level level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	log_event(level, msg, NULL, 0);
}
