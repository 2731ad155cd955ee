/* http_request_test.c - the gateway's request-head parser on its edges:
 * the shapes it takes, every line-end trick, versions, targets, header
 * syntax and caps, the body-length rules (Content-Length once, digits
 * only; Transfer-Encoding refused, also beside a length), Expect,
 * Content-Type, Origin, the X-Airlock values; and NEED on every proper
 * prefix of a good head. */
#include <string.h>

#include "common/gateway/http_request.h"
#include "tap.h"

#define MAXB 1000

struct case_ {
	const char *text;
	enum httpr_status want;
};

static enum httpr_status
parse(const char *t, struct httpr *r)
{
	return httpr_parse(t, strlen(t), MAXB, r);
}

int
main(void)
{
	static const struct case_ cases[] = {
		{ "GET /api/v2/runtimes HTTP/1.1\r\nHost: x\r\n\r\n", HTTPR_OK },
		{ "GET /a HTTP/1.0\r\n\r\n", HTTPR_OK },
		{ "POST /api/v2/execute HTTP/1.1\r\nHost: x\r\n"
		  "Content-Length: 10\r\nContent-Type: application/json; "
		  "charset=utf-8\r\n\r\n", HTTPR_OK },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
		  "Content-Type: text/plain;charset=UTF-8\r\n\r\n", HTTPR_OK },
		{ "DELETE /e HTTP/1.1\r\nHost: x\r\n\r\n", HTTPR_OK },
		{ "GET /a HTTP/1.1\r\n\r\n", HTTPR_BAD },	/* no Host */
		{ "GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", HTTPR_BAD },
		{ "GET /a HTTP/1.1\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET /a HTTP/1.1\r\nHost: x\n\r\n", HTTPR_BAD },
		{ "GET /a HTTP/1.1\r\nHost: x\r\n\n", HTTPR_BAD },
		{ "GET /a HTTP/1.1\rHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET  /a HTTP/1.1\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET /a  HTTP/1.1\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET /a HTTP/1.1 \r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET a HTTP/1.1\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET http://h/a HTTP/1.1\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET * HTTP/1.1\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET /a\x01 HTTP/1.1\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET /\xc3\xa9 HTTP/1.1\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET /a HTTP/2.0\r\nHost: x\r\n\r\n", HTTPR_VERSION },
		{ "GET /a HTTP/1.2\r\nHost: x\r\n\r\n", HTTPR_VERSION },
		{ "GET /a http/1.1\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "G@T /a HTTP/1.1\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET /a HTTP/1.1\r\nNo colon\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET /a HTTP/1.1\r\nA b: c\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET /a HTTP/1.1\r\n fold\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET /a HTTP/1.1\r\nX: \x7f\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "GET /a HTTP/1.1\r\nX: \xc3\xa9\r\nHost: x\r\n\r\n", HTTPR_BAD },
		{ "POST /e HTTP/1.1\r\nHost: x\r\n\r\n", HTTPR_LENGTH },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked"
		  "\r\n\r\n", HTTPR_LENGTH },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
		  "Transfer-Encoding: chunked\r\n\r\n", HTTPR_LENGTH },
		{ "POST /e HTTP/1.1\r\nHost: x\r\ntransfer-encoding: identity"
		  "\r\nContent-Length: 5\r\n\r\n", HTTPR_LENGTH },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
		  "Content-Length: 5\r\n\r\n", HTTPR_BAD },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\n",
		  HTTPR_BAD },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n",
		  HTTPR_BAD },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 0x5\r\n\r\n",
		  HTTPR_BAD },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n",
		  HTTPR_BAD },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: "
		  "99999999999999999999\r\n\r\n", HTTPR_BAD },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n",
		  HTTPR_BODY_TOO_BIG },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n",
		  HTTPR_OK },
		{ "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n",
		  HTTPR_BAD },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
		  "Expect: 100-continue\r\n\r\n", HTTPR_OK },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
		  "Expect: something\r\n\r\n", HTTPR_EXPECT },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
		  "Content-Type: application/x-www-form-urlencoded\r\n\r\n",
		  HTTPR_MEDIA },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
		  "Content-Type: application/jsonx\r\n\r\n", HTTPR_MEDIA },
		{ "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
		  "Content-Type: multipart/form-data; boundary=x\r\n\r\n",
		  HTTPR_MEDIA },
		{ "GET /a HTTP/1.1\r\nHost: x\r\nX-Airlock-Tenant: a\r\n"
		  "X-Airlock-Tenant: a\r\n\r\n", HTTPR_BAD },
		{ "GET /a HTTP/1.1\r\nHost: x\r\nX-Airlock-Request-Id: \r\n\r\n",
		  HTTPR_BAD },
		{ "GET /a HTTP/1.1\r\nHost: x\r\nX-Airlock-Tenant: \r\n"
		  "X-Airlock-Tenant: a\r\n\r\n", HTTPR_BAD },
	};
	static const char good[] = "POST /api/v2/execute HTTP/1.1\r\n"
	    "Host: 127.0.0.1:9\r\nContent-Length: 12\r\n"
	    "Expect: 100-Continue\r\nX-Airlock-Tenant:  acme \r\n"
	    "x-airlock-request-id: r-1\r\nOrigin: http://evil\r\n\r\n{\"a\":1}";
	char big[HTTPR_HEAD_MAX + 64];
	struct httpr r;
	size_t n;
	int prefix_ok = 1;

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
		ok(parse(cases[k].text, &r) == cases[k].want, "case %zu", k);

	ok(parse(good, &r) == HTTPR_OK && r.method == HTTPR_POST &&
	    strcmp(r.target, "/api/v2/execute") == 0 &&
	    r.content_length == 12 && r.expect_continue && r.origin &&
	    strcmp(r.tenant, "acme") == 0 && strcmp(r.request_id, "r-1") == 0
	    && r.head_len == strlen(good) - 7,
	    "a full head: method, target, length, expect, origin, the "
	    "X-Airlock values trimmed, where the body starts");
	for (n = 0; n < strlen(good) - 7; n++)
		if (httpr_parse(good, n, MAXB, &r) != HTTPR_NEED)
			prefix_ok = 0;
	ok(prefix_ok, "every proper prefix of the head is NEED");

	/* caps */
	memset(big, 'a', sizeof big);
	memcpy(big, "GET /", 5);
	ok(httpr_parse(big, sizeof big, MAXB, &r) == HTTPR_TOO_BIG,
	    "a request line past the head's cap");
	n = (size_t)snprintf(big, sizeof big, "GET /%0300d HTTP/1.1\r\n"
	    "Host: x\r\n\r\n", 0);
	ok(httpr_parse(big, n, MAXB, &r) == HTTPR_TOO_BIG,
	    "a target over %d bytes", HTTPR_TARGET_MAX);
	n = (size_t)snprintf(big, sizeof big, "GET /a HTTP/1.1\r\nHost: x\r\n");
	for (int i = 0; i < HTTPR_HEADERS_MAX; i++)
		n += (size_t)snprintf(big + n, sizeof big - n, "X-%d: y\r\n", i);
	n += (size_t)snprintf(big + n, sizeof big - n, "\r\n");
	ok(httpr_parse(big, n, MAXB, &r) == HTTPR_TOO_BIG,
	    "%d header lines and Host: too many", HTTPR_HEADERS_MAX);
	n = (size_t)snprintf(big, sizeof big, "GET /a HTTP/1.1\r\n"
	    "X-Airlock-Request-Id: %065d\r\nHost: x\r\n\r\n", 0);
	ok(httpr_parse(big, n, MAXB, &r) == HTTPR_BAD,
	    "an X-Airlock-Request-Id over 64 bytes");
	/* a tenant of the wrong length: the head parses, the tenant is
	 * marked bad (the gateway's bad_tenant, as for one outside the
	 * grammar) */
	n = (size_t)snprintf(big, sizeof big, "GET /a HTTP/1.1\r\n"
	    "X-Airlock-Tenant: %065d\r\nHost: x\r\n\r\n", 0);
	ok(httpr_parse(big, n, MAXB, &r) == HTTPR_OK && r.tenant_bad &&
	    r.tenant[0] == '\0', "an X-Airlock-Tenant over 64 bytes: marked bad");
	n = (size_t)snprintf(big, sizeof big, "GET /a HTTP/1.1\r\n"
	    "X-Airlock-Tenant: \r\nHost: x\r\n\r\n");
	ok(httpr_parse(big, n, MAXB, &r) == HTTPR_OK && r.tenant_bad,
	    "an empty X-Airlock-Tenant: marked bad");
	n = (size_t)snprintf(big, sizeof big, "GET /a HTTP/1.1\r\n"
	    "X-Airlock-Tenant: acme\r\nHost: x\r\n\r\n");
	ok(httpr_parse(big, n, MAXB, &r) == HTTPR_OK && !r.tenant_bad &&
	    strcmp(r.tenant, "acme") == 0, "a good one kept, not marked");
	n = (size_t)snprintf(big, sizeof big, "HEAD /a HTTP/1.1\r\n"
	    "Host: x\r\n\r\n");
	ok(httpr_parse(big, n, MAXB, &r) == HTTPR_OK &&
	    r.method == HTTPR_HEAD, "HEAD is known (answered without a body)");
	n = (size_t)snprintf(big, sizeof big, "GET /a HTTP/1.1\r\nHost: x\r\n"
	    "X-Long: %0*d\r\n\r\n", HTTPR_HEAD_MAX, 0);
	if (n >= sizeof big)
		n = sizeof big - 1;
	ok(httpr_parse(big, n, MAXB, &r) == HTTPR_TOO_BIG,
	    "one header line past the head's cap");
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
