/* httpreq_test.c - the probe request parser on its edges: the accepted
 * shapes, every line-end trick (bare LF, bare CR, LF CR), methods, absolute
 * forms, paths with bytes we never serve, header syntax, the header count
 * and size caps, and NEED on every proper prefix of a good request. And
 * the endpoint's answers (metrics_http_answer) to each kind. */
#include <string.h>

#include "common/service/httpreq.h"
#include "common/service/metrics.h"
#include "common/service/metrics_http.h"
#include "tap.h"

struct req_case {
	const char *text;
	enum httpreq_status want;
	const char *path;
};

/* Does the endpoint's answer to GET path start with status_line? */
static int
answers(const char *path, const char *status_line)
{
	char req[64], out[256];
	int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\n\r\n", path);

	return metrics_http_answer(req, (size_t)n, 0, out, sizeof out) > 0 &&
	    strncmp(out, status_line, strlen(status_line)) == 0;
}

int
main(void)
{
	static const struct req_case cases[] = {
		{ "GET /healthz HTTP/1.1\r\n\r\n", HTTPREQ_OK, "/healthz" },
		{ "GET /readyz HTTP/1.0\r\nHost: x\r\n\r\n", HTTPREQ_OK,
		  "/readyz" },
		{ "GET /metrics HTTP/1.1\r\nHost: a:9\r\nAccept: */*\r\n"
		  "User-Agent: Prometheus/2\r\n\r\n", HTTPREQ_OK, "/metrics" },
		{ "GET /metrics?x=1 HTTP/1.1\r\n\r\n", HTTPREQ_OK,
		  "/metrics?x=1" },
		{ "POST /metrics HTTP/1.1\r\n\r\n", HTTPREQ_METHOD, NULL },
		{ "get /metrics HTTP/1.1\r\n\r\n", HTTPREQ_METHOD, NULL },
		{ "GET /metrics HTTP/1.1\n\n", HTTPREQ_BAD, NULL },
		{ "GET /metrics HTTP/1.1\r\nHost: x\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET /metrics HTTP/1.1\rX\r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET /metrics HTTP/1.1\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET http://a/metrics HTTP/1.1\r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET * HTTP/1.1\r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET /a%20b HTTP/1.1\r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET /a\x01 HTTP/1.1\r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET  /metrics HTTP/1.1\r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET /metrics  HTTP/1.1\r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET /metrics HTTP/2.0\r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET /metrics HTTP/1.1 \r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET /metrics\r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET /metrics HTTP/1.1\r\nNo colon\r\n\r\n", HTTPREQ_BAD,
		  NULL },
		{ "GET /metrics HTTP/1.1\r\n: empty name\r\n\r\n", HTTPREQ_BAD,
		  NULL },
		{ "GET /metrics HTTP/1.1\r\nA b: c\r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET /metrics HTTP/1.1\r\nA: \x7f\r\n\r\n", HTTPREQ_BAD, NULL },
		{ "GET /metrics HTTP/1.1\r\n folded: x\r\n\r\n", HTTPREQ_BAD,
		  NULL },
		{ "\r\n", HTTPREQ_BAD, NULL },
		{ "GET /metrics HTTP/1.1\r\n", HTTPREQ_NEED, NULL },
		{ "GET /me", HTTPREQ_NEED, NULL },
		{ "", HTTPREQ_NEED, NULL },
	};
	static char big[HTTPREQ_MAX + 64], out[65536];
	struct httpreq r;
	size_t n;

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct req_case *c = &cases[i];
		enum httpreq_status st = httpreq_parse(c->text, strlen(c->text),
		    &r);

		ok(st == c->want && (!c->path || strcmp(r.path, c->path) == 0),
		    "case %zu: status %d (want %d)", i, (int)st, (int)c->want);
	}
	{
		const char *g = cases[2].text;
		size_t len = strlen(g), bad = 0;

		for (size_t k = 0; k < len; k++)
			bad += httpreq_parse(g, k, &r) != HTTPREQ_NEED;
		ok(bad == 0, "every proper prefix of a good request is NEED");
		ok(httpreq_parse(g, len, &r) == HTTPREQ_OK && r.used == len,
		    "used counts the whole request");
	}
	n = (size_t)snprintf(big, sizeof big, "GET /metrics HTTP/1.1\r\n");
	for (int h = 0; h < 33; h++)
		n += (size_t)snprintf(big + n, sizeof big - n, "X%d: y\r\n", h);
	n += (size_t)snprintf(big + n, sizeof big - n, "\r\n");
	ok(httpreq_parse(big, n, &r) == HTTPREQ_BAD, "33 headers are refused");
	memset(big, 'a', sizeof big);
	memcpy(big, "GET /metrics HTTP/1.1\r\nX: ", 26);
	ok(httpreq_parse(big, HTTPREQ_MAX, &r) == HTTPREQ_TOO_BIG,
	    "no end within HTTPREQ_MAX is too big");
	ok(httpreq_parse(big, HTTPREQ_MAX - 1, &r) == HTTPREQ_NEED,
	    "one byte short of the cap is still NEED");

	/* the endpoint's answers, with the shared counters mapped */
	ok(metrics_open(METRICS_RUNNER) == 0, "shared counters");
	ok(answers("/healthz", "HTTP/1.1 200 OK\r\n"), "healthz 200");
	ok(answers("/readyz", "HTTP/1.1 503 "),
	    "readyz 503 before the service says ready");
	metric_set(M_READY, 0, 1);
	metric_set(M_CAPACITY, 0, 2);
	ok(answers("/readyz", "HTTP/1.1 200 "), "readyz 200 ready");
	metric_set(M_LEASES_ACTIVE, 0, 2);
	ok(answers("/readyz", "HTTP/1.1 503 "), "readyz 503 at capacity");
	metric_set(M_LEASES_ACTIVE, 0, 0);
	metric_set(M_DRAINING, 0, 1);
	ok(answers("/readyz", "HTTP/1.1 503 "), "readyz 503 while draining");
	metric_add(M_REFUSALS_TOTAL, 4, 3);
	n = metrics_http_answer("GET /metrics HTTP/1.1\r\n\r\n", 25, 0, out,
	    sizeof out);
	out[n < sizeof out ? n : sizeof out - 1] = '\0';
	ok(strstr(out, "\nairlock_runner_refusals_total{code=\"env\"} 3\n") &&
	    !strstr(out, "executions_total"),
	    "metrics: a runner's counters, labelled from the fixed table");
	ok(answers("/x", "HTTP/1.1 404 "), "404");
	ok(metrics_http_answer("GET /x", 6, 0, out, sizeof out) == 0,
	    "an incomplete request waits");
	ok(metrics_http_answer("GET /x", 6, 1, out, sizeof out) > 0 &&
	    strncmp(out, "HTTP/1.1 400 ", 13) == 0, "then 400 at its end");
	metric_add(M_REFUSALS_TOTAL, 999, 1);	/* dropped, not a crash */
	metric_add(M_NMETRIC_, 0, 1);
	return tap_done();
}
