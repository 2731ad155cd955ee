/* fuzz_gw_conn.c - one gateway connection (gw_conn_serve, common/gateway/
 * gw_conn.c) under arbitrary bytes: what any HTTP client of the gateway
 * may send. The request is written into one end of a socketpair and that
 * end shut for writing (the client has sent all it will); the other end
 * is served in this process; the sandbox service is an address no one
 * listens on, so an execution that gets that far ends in 502
 * unreachable. No network, no child. The first byte picks the gateway's
 * --default-tenant (bit 0) and a small --max-body (bit 1).
 * Invariants, against the routing docs/SANDBOX.md gives, worked out
 * from the head's own parse (httpr_parse) and the body's
 * (piston_parse_execute): a head cut short, or a body shorter than its
 * Content-Length, gets no answer; otherwise exactly one answer, with
 * the status and error code of the first rule the request breaks: the
 * head's (400, 431, 505, 411, 413, 417, 415), an Origin (403), the path
 * (404) or method (405, with Allow), the body (400, 413), the tenant
 * (bad_tenant, tenant_conflict, tenant_missing), the request id
 * (bad_request, request_id_conflict); else 502 unreachable, and GET
 * /api/v2/runtimes 200. The answer is HTTP/1.1 with the status line of
 * gw_status_text, Content-Type: application/json, Connection: close and
 * a Content-Length that is its body, empty for HEAD; an error's body is
 * strict JSON {"code":CODE,"message":...}; a 100 Continue comes before
 * it only for an HTTP/1.1 execute that asked for one. The connection's
 * log line is one JSON record with the same status and code. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/gateway/gw_conn.h"
#include "common/gateway/http_request.h"
#include "common/mcp/jsonparse.h"
#include "common/wire/proto.h"
#include "fuzz.h"

#define RESP_MAX (1 << 16)

static char resp[RESP_MAX + 1], logline[LOG_LINE_MAX + 1];
static size_t loglen, nlogs;

static void
sink(const char *line, size_t n, void *arg)
{
	(void)arg;
	nlogs++;
	if (n > LOG_LINE_MAX)
		n = LOG_LINE_MAX;
	memcpy(logline, line, n);
	logline[n] = '\0';
	loglen = n;
}

/* What the gateway must answer: status (0: nothing) and code. */
struct expect {
	int status;
	const char *code;
	int head_only;
	int may_continue;
};

static int
id_ok(const char *s)
{
	return proto_id_valid((const uint8_t *)s, strlen(s));
}

static void
expect_execute(const struct gateway_config *c, const struct httpr *r,
    const uint8_t *body, size_t avail, struct expect *e)
{
	static struct json_node tok[PISTON_TOKENS_MAX];
	static struct piston_req q;
	static uint8_t store[1 << 17];
	enum piston_err pe;
	char err[512];

	e->may_continue = r->expect_continue && !r->http10;
	if (r->content_length > avail) {
		e->status = 0;	/* the client closed before its body */
		return;
	}
	pe = piston_parse_execute(&q, (const char *)body,
	    (size_t)r->content_length, c->runtimes, c->nruntimes, store, tok,
	    err, sizeof err);
	if (pe != PISTON_OK) {
		e->status = piston_err_status(pe);
		e->code = piston_err_name(pe);
	} else if (r->tenant_bad || (r->tenant[0] && !id_ok(r->tenant))) {
		*e = (struct expect){ 400, "bad_tenant", 0, e->may_continue };
	} else if (r->tenant[0] && q.tenant[0] && strcmp(r->tenant,
	    q.tenant) != 0) {
		*e = (struct expect){ 400, "tenant_conflict", 0,
			e->may_continue };
	} else if (!r->tenant[0] && !q.tenant[0] && !c->default_tenant) {
		*e = (struct expect){ 400, "tenant_missing", 0,
			e->may_continue };
	} else if (r->request_id[0] && !id_ok(r->request_id)) {
		*e = (struct expect){ 400, "bad_request", 0, e->may_continue };
	} else if (r->request_id[0] && q.request_id[0] &&
	    strcmp(r->request_id, q.request_id) != 0) {
		*e = (struct expect){ 400, "request_id_conflict", 0,
			e->may_continue };
	} else {
		*e = (struct expect){ 502, "unreachable", 0, e->may_continue };
	}
}

static void
expect_of(const struct gateway_config *c, const uint8_t *data, size_t size,
    struct expect *e)
{
	static const struct {
		int status;
		const char *code;
	} head_map[] = {
		[HTTPR_BAD] = { 400, "bad_http" },
		[HTTPR_TOO_BIG] = { 431, "headers_too_large" },
		[HTTPR_VERSION] = { 505, "http_version" },
		[HTTPR_LENGTH] = { 411, "length_required" },
		[HTTPR_BODY_TOO_BIG] = { 413, "payload_too_large" },
		[HTTPR_EXPECT] = { 417, "expectation_failed" },
		[HTTPR_MEDIA] = { 415, "unsupported_media_type" },
	};
	static struct httpr r;
	size_t head = size < HTTPR_HEAD_MAX ? size : HTTPR_HEAD_MAX;
	enum httpr_status st = httpr_parse((const char *)data, head,
	    c->max_body, &r);

	memset(e, 0, sizeof *e);
	if (st == HTTPR_NEED)
		return;
	if (st != HTTPR_OK) {
		e->status = head_map[st].status;
		e->code = head_map[st].code;
		return;
	}
	e->head_only = r.method == HTTPR_HEAD;
	if (r.origin) {
		e->status = 403;
		e->code = "origin_refused";
	} else if (strcmp(r.target, "/api/v2/runtimes") == 0) {
		e->status = r.method == HTTPR_GET ? 200 : 405;
		e->code = r.method == HTTPR_GET ? "ok" : "method_not_allowed";
	} else if (strcmp(r.target, "/api/v2/execute") == 0) {
		if (r.method == HTTPR_POST) {
			expect_execute(c, &r, data + r.head_len,
			    size - r.head_len, e);
		} else {
			e->status = 405;
			e->code = "method_not_allowed";
		}
	} else {
		e->status = 404;
		e->code = "not_found";
	}
}

/* The answer in resp[0..n) is e's. */
static void
check_answer(const struct expect *e, const char *p, size_t n)
{
	static struct json_node nodes[512];
	static uint32_t scratch[512];
	static const struct json_limits lim = { 8, 4096, 32, 64, 512 };
	char line[64], num[64];
	const char *end, *cl;
	unsigned long clen = 0;
	size_t body;
	struct json_doc d;

	if (n >= 25 && memcmp(p, "HTTP/1.1 100 Continue\r\n\r\n", 25) == 0) {
		FUZZ_ASSERT(e->may_continue);
		p += 25;
		n -= 25;
	}
	if (e->status == 0) {
		FUZZ_ASSERT(n == 0);
		return;
	}
	snprintf(line, sizeof line, "HTTP/1.1 %s\r\n",
	    gw_status_text(e->status));
	FUZZ_ASSERT(n > strlen(line) && memcmp(p, line, strlen(line)) == 0);
	end = memmem(p, n, "\r\n\r\n", 4);
	FUZZ_ASSERT(end != NULL);
	end += 4;
	body = n - (size_t)(end - p);
	FUZZ_ASSERT(memmem(p, (size_t)(end - p), "\r\nContent-Type: "
	    "application/json\r\n", 34) != NULL);
	FUZZ_ASSERT(memmem(p, (size_t)(end - p), "\r\nConnection: close\r\n",
	    21) != NULL);
	FUZZ_ASSERT(e->status != 405 || memmem(p, (size_t)(end - p),
	    "\r\nAllow: ", 9) != NULL);
	cl = memmem(p, (size_t)(end - p), "\r\nContent-Length: ", 18);
	FUZZ_ASSERT(cl != NULL);
	for (cl += 18; *cl >= '0' && *cl <= '9'; cl++)
		clen = clen * 10 + (unsigned long)(*cl - '0');
	FUZZ_ASSERT(clen == body);
	if (e->head_only) {
		FUZZ_ASSERT(body == 0);
		return;
	}
	FUZZ_ASSERT(body > 0 && json_parse(&d, (const uint8_t *)end, body,
	    &lim, nodes, 512, scratch) == JSON_OK);
	if (e->status == 200)
		return;
	snprintf(num, sizeof num, "{\"code\":\"%s\",", e->code);
	FUZZ_ASSERT(body > strlen(num) && memcmp(end, num, strlen(num)) == 0);
}

/* The connection's one log record: JSON, with the status and code. */
static void
check_log(const struct expect *e)
{
	static struct json_node nodes[64];
	static uint32_t scratch[64];
	static const struct json_limits lim = { 2, 4096, 32, 32, 64 };
	struct json_doc d;
	char want[96];

	FUZZ_ASSERT(nlogs == 1 && loglen > 1 && logline[loglen - 1] == '\n');
	FUZZ_ASSERT(json_parse(&d, (const uint8_t *)logline, loglen - 1,
	    &lim, nodes, 64, scratch) == JSON_OK);
	snprintf(want, sizeof want, "\"status\":%d,", e->status);
	FUZZ_ASSERT(strstr(logline, want) != NULL);
	snprintf(want, sizeof want, "\"code\":\"%s\"", e->status ? e->code :
	    "closed");
	FUZZ_ASSERT(strstr(logline, want) != NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gateway_config c;
	static int once;
	struct expect e;
	size_t n = 0;
	ssize_t w;
	int sv[2];

	if (size < 1)
		return 0;
	if (!once) {
		log_init("fuzz");
		(void)log_set_format("json");
		log_set_sink(sink, NULL);
		c.connect = "unix:/nonexistent/airlock-fuzz-gw.sock";
		c.runtimes[0] = (struct piston_runtime){ SBX_LANG_PYTHON,
			"3.11.2" };
		c.runtimes[1] = (struct piston_runtime){ SBX_LANG_JAVA, "17" };
		c.nruntimes = 2;
		c.max_output = 1 << 20;
		c.read_timeout_ms = c.write_timeout_ms = 2000;
		c.connect_ms = 100;
		once = 1;
	}
	c.default_tenant = data[0] & 1 ? "default" : NULL;
	c.max_body = data[0] & 2 ? 64 : 1 << 16;
	data++;
	size--;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return 0;
	(void)fcntl(sv[0], F_SETFL, O_NONBLOCK);
	w = size ? send(sv[0], data, size, MSG_NOSIGNAL) : 0;
	if (w < 0 || (size_t)w != size) {
		close(sv[0]);
		close(sv[1]);
		return 0;	/* more than the socket holds: not this test */
	}
	shutdown(sv[0], SHUT_WR);
	expect_of(&c, data, size, &e);
	nlogs = 0;
	gw_conn_serve(&c, sv[1]);	/* closes sv[1] */
	(void)fcntl(sv[0], F_SETFL, 0);
	for (;;) {
		ssize_t r = recv(sv[0], resp + n, RESP_MAX - n, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(sv[0]);
	check_answer(&e, resp, n);
	check_log(&e);
	return 0;
}
