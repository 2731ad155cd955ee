/* capture.c - one MCP client session against a jailed server, to capture
 * its surface (capture.h). */
#include "common/mcp/capture.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/base/tailbuf.h"
#include "common/mcp/mcptap.h"
#include "common/mcp/ndjson.h"
#include "common/mcp/surface.h"

static const struct json_limits line_limits = {
	64, MCP_LINE_MAX, 64, MCP_MEMBERS_MAX, MCP_NODES_MAX
};

/* One session's state; large, so static (one capture a process). */
struct session {
	int to, from, err_fd;
	int64_t deadline;
	uint64_t read_total;
	unsigned next_id;
	struct ndjson frame;
	struct json_doc doc;
	struct capture_result *out;
	struct surface_builder b;
	struct json_node nodes[MCP_NODES_MAX];
	uint32_t scratch[MCP_NODES_MAX];
	uint8_t line[MCP_LINE_MAX];
	uint8_t in[65536];
	size_t in_off, in_len;
};

static int
fail(char *err, size_t cap, const char *what, const char *detail)
{
	snprintf(err, cap, "%s%s%s", what, detail ? ": " : "",
	    detail ? detail : "");
	return -1;
}

/* Write all of p[0..n) to the server's stdin before the deadline. */
static int
send_all(struct session *s, const char *p, size_t n, char *err, size_t cap)
{
	while (n > 0) {
		struct pollfd pf = { s->to, POLLOUT, 0 };
		int64_t left = s->deadline - mono_ms();
		ssize_t w;

		if (left <= 0)
			return fail(err, cap, "the server did not read its "
			    "input in time", NULL);
		if (poll(&pf, 1, (int)(left > 1000 ? 1000 : left)) < 0 &&
		    errno != EINTR)
			return fail(err, cap, "poll", strerror(errno));
		w = write(s->to, p, n);
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return fail(err, cap, "the server closed its input",
			    strerror(errno));
		if (w > 0) {
			p += w;
			n -= (size_t)w;
		}
	}
	return 0;
}

/* A request with a new id (*id), params already JSON text. */
static int
request(struct session *s, const char *method, const char *params,
    unsigned *id, char *err, size_t cap)
{
	char buf[8704];
	int n;

	*id = ++s->next_id;
	n = snprintf(buf, sizeof buf, "{\"jsonrpc\":\"2.0\",\"id\":%u,"
	    "\"method\":\"%s\",\"params\":%s}\n", *id, method, params);
	if (n < 0 || (size_t)n >= sizeof buf)
		return fail(err, cap, "a request too long", method);
	return send_all(s, buf, (size_t)n, err, cap);
}

/* More of the server's stdout into s->in (stderr drained meanwhile):
 * 0, or -1 (closed, the deadline, the byte cap). */
static int
fill(struct session *s, char *err, size_t cap)
{
	for (;;) {
		struct pollfd pf[2] = { { s->from, POLLIN, 0 },
			{ s->err_fd, POLLIN, 0 } };
		int64_t left = s->deadline - mono_ms();
		char ebuf[4096];
		ssize_t n;

		if (left <= 0)
			return fail(err, cap, "the server did not answer in "
			    "time", NULL);
		if (poll(pf, 2, (int)(left > 1000 ? 1000 : left)) < 0 &&
		    errno != EINTR)
			return fail(err, cap, "poll", strerror(errno));
		if (pf[1].revents) {
			n = read(s->err_fd, ebuf, sizeof ebuf);
			if (n > 0)
				tail_keep(s->out->tail, CAPTURE_TAIL,
				    &s->out->tail_len, ebuf, (size_t)n);
			else if (n == 0 || errno != EAGAIN)
				s->err_fd = -1;	/* poll ignores it */
		}
		if (!pf[0].revents)
			continue;
		n = read(s->from, s->in, sizeof s->in);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			return fail(err, cap, "the server closed its output "
			    "(it exited?)", NULL);
		s->read_total += (uint64_t)n;
		if (s->read_total > CAPTURE_READ_MAX)
			return fail(err, cap, "the server wrote more than "
			    "64 MiB", NULL);
		s->in_off = 0;
		s->in_len = (size_t)n;
		return 0;
	}
}

/* The next whole line of the server's, parsed as a JSON-RPC message. */
static const struct json_node *
next_message(struct session *s, char *err, size_t cap)
{
	for (;;) {
		const uint8_t *line;
		size_t len, used;
		enum ndjson_next r;
		enum json_status st;
		const struct json_node *m, *v;

		if (s->in_off == s->in_len && fill(s, err, cap) != 0)
			return NULL;
		r = ndjson_take(&s->frame, s->in + s->in_off,
		    s->in_len - s->in_off, &used, &line, &len);
		s->in_off += used;
		if (r == NDJSON_TOO_LONG) {
			fail(err, cap, "the server wrote a line longer than "
			    "4 MiB", NULL);
			return NULL;
		}
		if (r != NDJSON_LINE || len == 0)
			continue;
		st = json_parse(&s->doc, line, len, &line_limits, s->nodes,
		    MCP_NODES_MAX, s->scratch);
		if (st != JSON_OK) {
			fail(err, cap, "the server wrote a line that is not "
			    "JSON the runner reads", json_status_name(st));
			return NULL;
		}
		m = &s->doc.nodes[0];
		v = json_get(&s->doc, m, "jsonrpc", 7);
		if (m->type != JSON_OBJECT || !v || v->type != JSON_STRING ||
		    !json_str_eq(&s->doc, v, "2.0", 3)) {
			fail(err, cap, "the server wrote a line that is not "
			    "a JSON-RPC 2.0 message", NULL);
			return NULL;
		}
		return m;
	}
}

/* The result of the response to request id; requests the server makes
 * meanwhile are refused, its notifications ignored. */
static const struct json_node *
await(struct session *s, unsigned id, const char *method, char *err,
    size_t cap)
{
	char want[16];

	snprintf(want, sizeof want, "%u", id);
	for (;;) {
		const struct json_node *m = next_message(s, err, cap);
		const struct json_node *rid, *res, *er;

		if (!m)
			return NULL;
		rid = json_get(&s->doc, m, "id", 2);
		if (json_get(&s->doc, m, "method", 6)) {
			char ans[256];
			uint8_t idt[MCP_ID_MAX];
			struct jcs_buf b = { idt, sizeof idt, 0 };
			struct jcs_sink sk = { jcs_buf_put, &b };
			int n;

			if (!rid)
				continue;	/* a notification */
			if ((rid->type != JSON_STRING &&
			    rid->type != JSON_NUMBER) ||
			    jcs_write(&s->doc, rid, &sk, s->scratch) != 0) {
				fail(err, cap, "the server made a request "
				    "with an unusable id", NULL);
				return NULL;
			}
			n = snprintf(ans, sizeof ans, "{\"jsonrpc\":\"2.0\","
			    "\"id\":%.*s,\"error\":{\"code\":-32601,"
			    "\"message\":\"not offered during capture\"}}\n",
			    (int)b.len, (const char *)idt);
			if (send_all(s, ans, (size_t)n, err, cap) != 0)
				return NULL;
			continue;
		}
		res = json_get(&s->doc, m, "result", 6);
		er = json_get(&s->doc, m, "error", 5);
		if (!rid || rid->type != JSON_NUMBER || rid->len != strlen(want)
		    || memcmp(s->doc.src + rid->off, want, rid->len) != 0) {
			fail(err, cap, "the server answered a request the "
			    "capture did not make", method);
			return NULL;
		}
		if (er || !res || res->type != JSON_OBJECT) {
			fail(err, cap, "the server answered with an error or "
			    "no result object", method);
			return NULL;
		}
		return res;
	}
}

/* Every page of one list: its items to kind k (or counted only, k ==
 * SK_N_: resources). */
static int
list_all(struct session *s, const char *method, const char *key, int k,
    char *err, size_t cap)
{
	static char cursor[2][8192];	/* the last two, as JSON text */
	char params[8300];
	int have = 0;

	cursor[0][0] = cursor[1][0] = '\0';
	for (unsigned page = 0;; page++) {
		const struct json_node *res, *arr, *nc;
		struct jcs_buf b = { (uint8_t *)cursor[page & 1],
			sizeof cursor[0] - 1, 0 };
		struct jcs_sink sk = { jcs_buf_put, &b };
		unsigned id;
		size_t i;

		if (page == CAPTURE_PAGES_MAX)
			return fail(err, cap, "more than 64 pages", method);
		snprintf(params, sizeof params, have ? "{\"cursor\":%s}" :
		    "{}", cursor[(page + 1) & 1]);
		if (request(s, method, params, &id, err, cap) != 0 ||
		    !(res = await(s, id, method, err, cap)))
			return -1;
		arr = json_get(&s->doc, res, key, strlen(key));
		if (!arr || arr->type != JSON_ARRAY)
			return fail(err, cap, "a list result without its "
			    "array", method);
		i = json_index(&s->doc, arr) + 1;
		for (uint32_t m = 0; m < arr->count; m++) {
			const struct json_node *e = &s->doc.nodes[i];

			if (k == SK_N_)
				s->out->resources++;
			else if (surface_add_item(&s->b, (enum surface_kind)k,
			    &s->doc, e, s->scratch, err, cap) != 0)
				return -1;
			i = e->end;
		}
		nc = json_get(&s->doc, res, "nextCursor", 10);
		if (!nc || nc->type == JSON_NULL)
			return 0;
		if (nc->type != JSON_STRING ||
		    jcs_write(&s->doc, nc, &sk, s->scratch) != 0)
			return fail(err, cap, "a nextCursor that is not a "
			    "string of at most 8 KiB", method);
		cursor[page & 1][b.len] = '\0';
		/* the same cursor twice in a row: a loop */
		if (have && strcmp(cursor[0], cursor[1]) == 0)
			return fail(err, cap, "the same nextCursor twice",
			    method);
		have = 1;
	}
}

/* After a failure: what the server still had to say on stderr (why it
 * exited, usually), for at most a quarter of a second more. */
static void
drain_stderr(struct session *s)
{
	int64_t until = mono_ms() + 250;

	while (s->err_fd >= 0 && mono_ms() < until) {
		struct pollfd pf = { s->err_fd, POLLIN, 0 };
		char buf[4096];
		ssize_t n;

		if (poll(&pf, 1, 50) <= 0)
			continue;
		n = read(s->err_fd, buf, sizeof buf);
		if (n <= 0)
			break;
		tail_keep(s->out->tail, CAPTURE_TAIL, &s->out->tail_len, buf,
		    (size_t)n);
	}
}

static const char initialized[] = "{\"jsonrpc\":\"2.0\",\"method\":"
    "\"notifications/initialized\"}\n";

int
capture_run(int to, int from, int err_fd, int64_t deadline,
    struct capture_result *out, char *err, size_t errcap)
{
	static struct session s;
	const struct json_node *res, *caps;
	unsigned id;
	int has[3], rc = -1;

	memset(out, 0, sizeof *out);
	s.to = to;
	s.from = from;
	s.err_fd = err_fd;
	s.deadline = deadline;
	s.read_total = 0;
	s.next_id = 0;
	s.in_off = s.in_len = 0;
	s.out = out;
	ndjson_init(&s.frame, s.line, sizeof s.line);
	if (surface_builder_init(&s.b) != 0) {
		surface_builder_free(&s.b);
		return fail(err, errcap, "out of memory", NULL);
	}
	if (request(&s, "initialize", "{\"protocolVersion\":\""
	    CAPTURE_PROTOCOL "\",\"capabilities\":{},\"clientInfo\":"
	    "{\"name\":\"airlock-capture\",\"version\":\"1\"}}", &id, err,
	    errcap) != 0 || !(res = await(&s, id, "initialize", err, errcap)) ||
	    surface_add_init(&s.b, &s.doc, res, s.scratch, err, errcap) != 0)
		goto done;
	caps = json_get(&s.doc, res, "capabilities", 12);
	has[0] = caps && json_get(&s.doc, caps, "tools", 5);
	has[1] = caps && json_get(&s.doc, caps, "prompts", 7);
	has[2] = caps && json_get(&s.doc, caps, "resources", 9);
	if (send_all(&s, initialized, sizeof initialized - 1, err,
	    errcap) != 0)
		goto done;
	if ((has[0] && list_all(&s, "tools/list", "tools", SK_TOOL, err,
	    errcap) != 0) || (has[1] && list_all(&s, "prompts/list",
	    "prompts", SK_PROMPT, err, errcap) != 0) || (has[2] &&
	    (list_all(&s, "resources/templates/list", "resourceTemplates",
	    SK_TEMPLATE, err, errcap) != 0 || list_all(&s, "resources/list",
	    "resources", SK_N_, err, errcap) != 0)))
		goto done;
	if ((out->surface = surface_finish(&s.b, &out->len, err, errcap)))
		rc = 0;
done:
	if (rc != 0)
		drain_stderr(&s);
	surface_builder_free(&s.b);
	return rc;
}

static int
drive(void *ctx, int in, int out, int err_fd, int64_t deadline, char *err,
    size_t errcap)
{
	return capture_run(in, out, err_fd, deadline, ctx, err, errcap);
}

int
capture_jailed(const struct lock_jail_opts *o,
    const struct lock_jail_view *v, char *const *argv,
    struct capture_result *out, char *err, size_t errcap)
{
	struct lock_jail_drive d = { drive, out };
	size_t n;

	memset(out, 0, sizeof *out);
	if (lock_jail_run_drive(o, v, argv, &d, err, errcap) == 0)
		return 0;
	free(out->surface);
	out->surface = NULL;
	if (out->tail_len == 0)
		return -1;
	/* raw: whoever prints err escapes it (log.h) */
	n = strlen(err);
	if (n < errcap)
		snprintf(err + n, errcap - n, " (the server's stderr ended: "
		    "%.*s)", (int)out->tail_len, out->tail);
	return -1;
}
