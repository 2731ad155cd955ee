/* gw_conn.c - one gateway connection: one request, one answer. */
#include "common/gateway/gw_conn.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/base/log.h"
#include "common/base/random_id.h"
#include "common/gateway/http_request.h"

#define LINGER_MS 1000
#define LINGER_BYTES (1u << 20)

const char *
gw_status_text(int status)
{
	switch (status) {
	case 100: return "100 Continue";
	case 200: return "200 OK";
	case 400: return "400 Bad Request";
	case 403: return "403 Forbidden";
	case 404: return "404 Not Found";
	case 405: return "405 Method Not Allowed";
	case 408: return "408 Request Timeout";
	case 411: return "411 Length Required";
	case 413: return "413 Content Too Large";
	case 415: return "415 Unsupported Media Type";
	case 417: return "417 Expectation Failed";
	case 429: return "429 Too Many Requests";
	case 431: return "431 Request Header Fields Too Large";
	case 501: return "501 Not Implemented";
	case 502: return "502 Bad Gateway";
	case 503: return "503 Service Unavailable";
	case 504: return "504 Gateway Timeout";
	case 505: return "505 HTTP Version Not Supported";
	default: return "500 Internal Server Error";
	}
}

int
gw_refusal_status(unsigned code)
{
	switch (code) {
	case SBX_ERR_BAD_REQUEST: return 400;
	case SBX_ERR_BUDGET_CONCURRENCY:
	case SBX_ERR_BUDGET_QUEUE:
	case SBX_ERR_BUDGET_CPU:
	case SBX_ERR_QUEUE_TIMEOUT: return 429;
	case SBX_ERR_CAPACITY:
	case SBX_ERR_LANGUAGE:
	case SBX_ERR_SHUTDOWN: return 503;
	case SBX_ERR_UPLOAD_TIMEOUT: return 504;
	default: return 502;	/* protocol, internal: the service's side */
	}
}

/* All of p[0..n) to the non-blocking fd by deadline: 0, or -1. */
static int
write_all(int fd, const char *p, size_t n, int64_t deadline)
{
	while (n > 0) {
		struct pollfd pf = { fd, POLLOUT, 0 };
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		int64_t left;

		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		if ((left = deadline - mono_ms()) <= 0 ||
		    poll(&pf, 1, (int)left) < 0)
			return -1;
	}
	return 0;
}

/* The connection this process serves, and whether its answer has begun:
 * SIGTERM (the gateway's drain ran out) answers 503 shutdown in its
 * place, a JSON error as every other, unless the answer has begun (the
 * close then cuts it short). */
static int term_fd = -1;
static volatile sig_atomic_t answer_begun;

#define TERM_BODY "{\"code\":\"shutdown\",\"message\":\"the gateway " \
	"stopped before the tool's answer\"}\n"
#define TERM_BODY_LEN "77"
_Static_assert(sizeof TERM_BODY - 1 == 77, "TERM_BODY_LEN is its length");

static void
on_term(int sig)
{
	static const char msg[] = "HTTP/1.1 503 Service Unavailable\r\n"
	    "Content-Type: application/json\r\nContent-Length: "
	    TERM_BODY_LEN "\r\nConnection: close\r\n\r\n" TERM_BODY;

	(void)sig;
	if (!answer_begun && term_fd >= 0)
		(void)!write(term_fd, msg, sizeof msg - 1);
	_exit(0);
}

int
gw_answer(int fd, int status, const char *extra, const char *body,
    size_t len, int64_t deadline)
{
	char head[512];
	int n = snprintf(head, sizeof head, "HTTP/1.1 %s\r\nContent-Type: "
	    "application/json\r\nContent-Length: %zu\r\nConnection: close\r\n"
	    "%s\r\n", gw_status_text(status), len, extra ? extra : "");

	answer_begun = 1;

	if (n < 0 || (size_t)n >= sizeof head)
		return -1;
	return write_all(fd, head, (size_t)n, deadline) ||
	    write_all(fd, body, len, deadline) ? -1 : 0;
}

/* More bytes into buf[*len..cap) by deadline: 1 some came, 0 the peer
 * closed, -1 the deadline passed or the read failed. */
static int
read_more(int fd, char *buf, size_t cap, size_t *len, int64_t deadline)
{
	for (;;) {
		struct pollfd pf = { fd, POLLIN, 0 };
		ssize_t r = recv(fd, buf + *len, cap - *len, MSG_DONTWAIT);
		int64_t left;

		if (r > 0) {
			*len += (size_t)r;
			return 1;
		}
		if (r == 0)
			return 0;
		if (errno != EAGAIN && errno != EINTR)
			return -1;
		if ((left = deadline - mono_ms()) <= 0 ||
		    poll(&pf, 1, (int)left) < 0)
			return -1;
	}
}

/* The tool's output as it comes: stdout, stderr, and both in order,
 * each within its cap (the service stops the tool at the cap it was
 * asked for, so nothing is normally dropped here). */
struct capture {
	uint8_t *b[3];
	size_t len[3], cap[3];
	int client_fd;		/* watched for the client leaving */
};

static void
keep(struct capture *k, int i, const uint8_t *p, size_t n)
{
	size_t room = k->cap[i] - k->len[i];

	if (n > room)
		n = room;
	memcpy(k->b[i] + k->len[i], p, n);
	k->len[i] += n;
}

static int
capture_emit(void *ctx, int stream, const uint8_t *p, size_t n)
{
	struct capture *k = ctx;

	keep(k, stream == 1 ? 0 : 1, p, n);
	keep(k, 2, p, n);
	return 0;
}

/* One connection, and what its request came to (its log line). */
struct conn {
	const struct gateway_config *c;
	int fd;
	int64_t read_dl;		/* head and body by then */
	int status;
	const char *code;		/* "ok" or the error's */
	const char *tenant, *request_id, *exec_id, *reason;
	int head_only;			/* a HEAD request: no body back */
};

/* The deadline of an answer started now. */
static int64_t
write_dl(const struct conn *k)
{
	return mono_ms() + (int64_t)k->c->write_timeout_ms;
}

/* Answer with body[0..len) (JSON) and record the status. */
static void
answer(struct conn *k, int status, const char *code, const char *extra,
    const char *body, size_t len)
{
	k->status = status;
	k->code = code;
	/* a HEAD request gets the head alone (RFC 9110 9.3.2) */
	(void)gw_answer(k->fd, status, extra, body, k->head_only ? 0 : len,
	    write_dl(k));
}

/* Answer with an error object. */
static void
refuse(struct conn *k, int status, const char *code, const char *extra,
    const char *msg)
{
	char *body = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&body, &len);

	k->status = status;
	k->code = code;
	if (!f)
		return;
	piston_write_error(f, code, msg);
	if (fclose(f) == 0)
		answer(k, status, code, extra, body, len);
	free(body);
}

static void
refuse_head(struct conn *k, enum httpr_status st, const struct httpr *r)
{
	static const struct {
		int status;
		const char *code;
	} map[] = {
		[HTTPR_BAD] = { 400, "bad_http" },
		[HTTPR_TOO_BIG] = { 431, "headers_too_large" },
		[HTTPR_VERSION] = { 505, "http_version" },
		[HTTPR_LENGTH] = { 411, "length_required" },
		[HTTPR_BODY_TOO_BIG] = { 413, "payload_too_large" },
		[HTTPR_EXPECT] = { 417, "expectation_failed" },
		[HTTPR_MEDIA] = { 415, "unsupported_media_type" },
	};

	refuse(k, map[st].status, map[st].code, NULL, r->why);
}

/* The tenant: the header's, the body's, or the gateway's default; when
 * both name one they must agree. NULL, answered, when there is none. */
static const char *
pick_tenant(struct conn *k, const struct httpr *r, const struct piston_req *q)
{
	if (r->tenant_bad || (r->tenant[0] &&
	    !proto_id_valid((const uint8_t *)r->tenant, strlen(r->tenant)))) {
		refuse(k, 400, "bad_tenant", NULL, "X-Airlock-Tenant: "
		    "1-64 bytes of [A-Za-z0-9._-], not starting with '.'");
		return NULL;
	}
	if (r->tenant[0] && q->tenant[0] && strcmp(r->tenant, q->tenant)) {
		refuse(k, 400, "tenant_conflict", NULL, "X-Airlock-Tenant "
		    "and the body's \"tenant\" differ");
		return NULL;
	}
	if (r->tenant[0])
		return r->tenant;
	if (q->tenant[0])
		return q->tenant;
	if (k->c->default_tenant)
		return k->c->default_tenant;
	refuse(k, 400, "tenant_missing", NULL, "no tenant: send "
	    "X-Airlock-Tenant or \"tenant\" (this gateway has no "
	    "--default-tenant)");
	return NULL;
}

/* The request id into q: the header's, the body's, or a random one;
 * when both name one they must agree, as the tenant's. -1, answered,
 * when refused. */
static int
pick_request_id(struct conn *k, const struct httpr *r, struct piston_req *q)
{
	char rid[17];

	if (r->request_id[0] && !proto_id_valid((const uint8_t *)
	    r->request_id, strlen(r->request_id))) {
		refuse(k, 400, "bad_request", NULL, "X-Airlock-Request-Id: "
		    "1-64 bytes of [A-Za-z0-9._-]");
		return -1;
	}
	if (r->request_id[0] && q->request_id[0] &&
	    strcmp(r->request_id, q->request_id)) {
		refuse(k, 400, "request_id_conflict", NULL,
		    "X-Airlock-Request-Id and the body's \"request_id\" "
		    "differ");
		return -1;
	}
	if (r->request_id[0])
		snprintf(q->request_id, sizeof q->request_id, "%s",
		    r->request_id);
	else if (!q->request_id[0] && random_id(rid) == 0)
		snprintf(q->request_id, sizeof q->request_id, "%s", rid);
	return 0;
}

/* Has the HTTP client gone while its execution runs? Its end of file
 * (or a reset) says so, as nginx takes it: an HTTP client does not
 * half-close and then wait for its answer. Bytes it still sends (a
 * pipelined request) are dropped unread in close_lingering, not here. */
static int
client_gone(void *ctx)
{
	struct capture *k = ctx;
	struct pollfd pf = { k->client_fd, POLLRDHUP, 0 };

	return poll(&pf, 1, 0) > 0 &&
	    (pf.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

static int
capture_init(struct capture *k, uint64_t cap, int client_fd)
{
	memset(k, 0, sizeof *k);
	k->client_fd = client_fd;
	for (int i = 0; i < 3; i++) {
		k->cap[i] = (size_t)(i == 2 ? 2 * cap : cap);
		if (!(k->b[i] = malloc(k->cap[i] ? k->cap[i] : 1)))
			return -1;
	}
	return 0;
}

/* The request to the sandbox service, from q. */
static void
call_from(struct sbx_call *call, const struct gateway_config *c,
    const struct piston_req *q, struct capture *cap)
{
	memset(call, 0, sizeof *call);
	call->addr = c->connect;
	call->psk = c->psk;
	call->connect_ms = c->connect_ms;
	call->tenant = q->tenant;
	call->request_id = q->request_id;
	call->lang = q->lang;
	call->lim = q->lim;
	call->files = q->files;
	call->nfiles = q->nfiles;
	call->args = q->args;
	call->nargs = q->nargs;
	call->input = q->input;
	call->input_len = q->input_len;
	call->ctx = cap;
	call->emit = capture_emit;
	call->cancelled = client_gone;
}

/* An sbx_call that came to no result and no refusal, answered. */
static void
refuse_call(struct conn *k, enum sbx_call_status st, const char *err)
{
	switch (st) {
	case SBX_CALL_UNREACHABLE:
		refuse(k, 502, "unreachable", NULL, err);
		break;
	case SBX_CALL_AUTH:
		refuse(k, 502, "handshake_failed", NULL, err);
		break;
	case SBX_CALL_PROTOCOL:
		refuse(k, 502, "bad_answer", NULL, err);
		break;
	case SBX_CALL_BAD_REQUEST:
		refuse(k, 400, "bad_request", NULL, err);
		break;
	case SBX_CALL_CANCELLED:
		k->status = 499;	/* nginx's word: nobody to answer */
		k->code = "client_closed";
		break;
	default:
		refuse(k, 500, "internal", NULL, err);
	}
}

/* The body: what of it came with the head (got), then the rest by the
 * read deadline. NULL when it did not come (answered, or closed). */
static char *
read_body(struct conn *k, const struct httpr *r, const char *got,
    size_t got_len)
{
	size_t want = (size_t)r->content_length, len = got_len < want ?
	    got_len : want;
	char *body = malloc(want + 1);

	if (!body) {
		refuse(k, 500, "internal", NULL, "out of memory");
		return NULL;
	}
	memcpy(body, got, len);
	/* never a 1xx to HTTP/1.0, which ignores the expectation */
	if (r->expect_continue && !r->http10 && len < want && write_all(k->fd,
	    "HTTP/1.1 100 Continue\r\n\r\n", 25, write_dl(k)) != 0) {
		free(body);
		return NULL;
	}
	while (len < want) {
		int rc = read_more(k->fd, body, want, &len, k->read_dl);

		if (rc < 0)
			refuse(k, 408, "request_timeout", NULL, "the body did "
			    "not arrive in time");
		if (rc <= 0) {
			free(body);
			return NULL;
		}
	}
	return body;
}

/* POST /api/v2/execute, its head read: the body, the call, the answer. */
static void
execute(struct conn *k, const struct httpr *r, const char *got,
    size_t got_len)
{
	static struct json_node tok[PISTON_TOKENS_MAX];
	static struct piston_req q;
	static struct sbx_answer ans;
	const struct gateway_config *c = k->c;
	char *body = read_body(k, r, got, got_len), *out = NULL;
	uint8_t *store = NULL;
	struct capture cap;
	struct sbx_call call;
	char err[512];
	enum piston_err pe;
	enum sbx_call_status st;
	size_t out_len = 0;
	FILE *f;

	memset(&cap, 0, sizeof cap);
	if (!body)
		return;
	if (!(store = malloc((size_t)r->content_length + 1)) ||
	    capture_init(&cap, c->max_output, k->fd) != 0) {
		refuse(k, 500, "internal", NULL, "out of memory");
		goto out;
	}
	if ((pe = piston_parse_execute(&q, body, (size_t)r->content_length,
	    c->runtimes, c->nruntimes, store, tok, err, sizeof err)) !=
	    PISTON_OK) {
		refuse(k, piston_err_status(pe), piston_err_name(pe), NULL, err);
		goto out;
	}
	if (!(k->tenant = pick_tenant(k, r, &q)))
		goto out;
	if (k->tenant != q.tenant)	/* the header's or the default */
		snprintf(q.tenant, sizeof q.tenant, "%s", k->tenant);
	k->tenant = q.tenant;
	if (pick_request_id(k, r, &q) != 0)
		goto out;
	k->request_id = q.request_id;
	q.lim.output = c->max_output;
	call_from(&call, c, &q, &cap);
	if ((st = sbx_call(&call, &ans, err, sizeof err)) == SBX_CALL_REFUSED) {
		refuse(k, gw_refusal_status(ans.refusal.code),
		    sbx_error_name(ans.refusal.code), NULL,
		    ans.refusal.message);
		goto out;
	}
	if (st != SBX_CALL_DONE) {
		refuse_call(k, st, err);
		goto out;
	}
	k->exec_id = ans.info.exec_id;
	k->reason = sbx_reason_name(ans.res.reason);
	if (!(f = open_memstream(&out, &out_len))) {
		refuse(k, 500, "internal", NULL, "out of memory");
		goto out;
	}
	piston_write_result(f, &q, &ans, &(struct piston_output){ cap.b[0],
	    cap.b[1], cap.b[2], cap.len[0], cap.len[1], cap.len[2] });
	if (fclose(f) != 0)
		refuse(k, 500, "internal", NULL, "out of memory");
	else
		answer(k, 200, "ok", NULL, out, out_len);
out:
	/* the connection's process exits next; freed all the same, so
	 * that a leak checker (the fuzzer's) sees none */
	for (int i = 0; i < 3; i++)
		free(cap.b[i]);
	free(out);
	free(store);
	free(body);
}

static void
runtimes(struct conn *k)
{
	char *body = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&body, &len);

	if (!f)
		return;
	piston_write_runtimes(f, k->c->runtimes, k->c->nruntimes);
	if (fclose(f) == 0)
		answer(k, 200, "ok", NULL, body, len);
	free(body);
}

/* Close after the answer without a reset: stop sending, then read and
 * drop what the client still sends (a body we refused unread) until it
 * closes, for at most LINGER_MS and LINGER_BYTES. */
static void
close_lingering(int fd)
{
	static char sink[16384];
	int64_t dl = mono_ms() + LINGER_MS;
	size_t total = 0;

	shutdown(fd, SHUT_WR);
	while (total < LINGER_BYTES) {
		size_t n = 0;

		if (read_more(fd, sink, sizeof sink, &n, dl) <= 0)
			break;
		total += n;
	}
	close(fd);
}

void
gw_conn_serve(const struct gateway_config *c, int fd)
{
	static char head[HTTPR_HEAD_MAX];
	int64_t t0 = mono_ms();
	struct conn k = { c, fd, t0 + (int64_t)c->read_timeout_ms, 0,
		"closed", "", "", "", "", 0 };
	enum httpr_status st;
	struct httpr r;
	size_t len = 0;
	int rc;
	struct sigaction term = { .sa_handler = on_term };

	term_fd = fd;
	sigfillset(&term.sa_mask);
	sigaction(SIGTERM, &term, NULL);
	while ((st = httpr_parse(head, len, c->max_body, &r)) == HTTPR_NEED) {
		if ((rc = read_more(fd, head, sizeof head, &len, k.read_dl)) < 0)
			refuse(&k, 408, "request_timeout", NULL, "the request "
			    "head did not arrive in time");
		if (rc <= 0)
			goto out;
	}
	k.head_only = st == HTTPR_OK && r.method == HTTPR_HEAD;
	if (st != HTTPR_OK) {
		refuse_head(&k, st, &r);
	} else if (r.origin) {
		refuse(&k, 403, "origin_refused", NULL, "a request with an "
		    "Origin header (a browser's) is refused");
	} else if (strcmp(r.target, "/api/v2/runtimes") == 0) {
		if (r.method == HTTPR_GET)
			runtimes(&k);
		else
			refuse(&k, 405, "method_not_allowed", "Allow: GET\r\n",
			    "GET /api/v2/runtimes");
	} else if (strcmp(r.target, "/api/v2/execute") == 0) {
		if (r.method == HTTPR_POST)
			execute(&k, &r, head + r.head_len, len - r.head_len);
		else
			refuse(&k, 405, "method_not_allowed", "Allow: "
			    "POST\r\n", "POST /api/v2/execute");
	} else {
		refuse(&k, 404, "not_found", NULL, "the gateway serves GET "
		    "/api/v2/runtimes and POST /api/v2/execute");
	}
out:
	log_event(k.status == 200 ? LOG_INFO : LOG_WARN, "request",
	    (struct log_field[]){ LF_STR("method", st != HTTPR_OK ? "-" :
	    r.method == HTTPR_GET ? "GET" : r.method == HTTPR_POST ? "POST" :
	    r.method == HTTPR_HEAD ? "HEAD" : "other"),
	    LF_STR("path", st == HTTPR_OK ? r.target : "-"),
	    LF_NUM("status", k.status), LF_STR("code", k.code),
	    LF_STR("tenant", k.tenant), LF_STR("request", k.request_id),
	    LF_STR("exec", k.exec_id), LF_STR("reason", k.reason),
	    LF_NUM("ms", mono_ms() - t0) }, 9);
	close_lingering(fd);
}
