/* fuzz_metrics_http.c - the --metrics endpoint's answer to one request
 * (metrics_http_answer, common/service/metrics_http.c) under arbitrary
 * bytes: what a probe, a scraper or anyone who reaches the port sends.
 * The first byte sets the gauges /readyz reads (ready, draining, leases,
 * capacity) and whether the peer has finished sending; the rest is the
 * request. Invariants: while the peer may still send, no answer until
 * the request is whole (httpreq_parse: NEED), then the same answer as at
 * its end; at its end every input gets one whole HTTP/1.1 response,
 * "Connection: close", whose Content-Length is its body, and whose
 * status is the request's: 400 for a malformed or cut one, 405 for
 * another method, 431 for one too big, and for a GET 200 /healthz, 200
 * or 503 /readyz exactly as ready, not draining and below capacity,
 * 200 /metrics with Prometheus text (every line a "# HELP" or "# TYPE"
 * comment or a sample "name{labels} value"), 404 anything else. */
#include <string.h>

#include "common/service/httpreq.h"
#include "common/service/metrics.h"
#include "common/service/metrics_http.h"
#include "fuzz.h"

static char out[METRICS_TEXT_MAX + 512], again[METRICS_TEXT_MAX + 512];

/* The status line's code, or 0. */
static unsigned
status_of(const char *p, size_t n)
{
	if (n < 12 || memcmp(p, "HTTP/1.1 ", 9) != 0)
		return 0;
	return (unsigned)(p[9] - '0') * 100 + (unsigned)(p[10] - '0') * 10 +
	    (unsigned)(p[11] - '0');
}

static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == ':';
}

/* Prometheus text 0.0.4 as airlock writes it. */
static void
check_exposition(const char *p, size_t n)
{
	FUZZ_ASSERT(n > 0 && p[n - 1] == '\n');
	while (n > 0) {
		const char *nl = memchr(p, '\n', n);
		size_t len = (size_t)(nl - p), i = 0;

		FUZZ_ASSERT(nl != NULL && len > 0);
		if (p[0] == '#') {
			FUZZ_ASSERT(len > 7 && (memcmp(p, "# HELP ", 7) == 0 ||
			    memcmp(p, "# TYPE ", 7) == 0));
		} else {
			while (i < len && name_char(p[i]))
				i++;
			FUZZ_ASSERT(i > 0);
			if (i < len && p[i] == '{') {
				const char *close = memchr(p + i, '}', len - i);

				FUZZ_ASSERT(close != NULL);
				i = (size_t)(close - p) + 1;
			}
			FUZZ_ASSERT(i + 1 < len && p[i] == ' ');
			for (i++; i < len; i++)
				FUZZ_ASSERT((p[i] >= '0' && p[i] <= '9') ||
				    p[i] == '.' || p[i] == 'e' || p[i] == '+' ||
				    p[i] == '-' || p[i] == 'I' || p[i] == 'n' ||
				    p[i] == 'f');
		}
		n -= len + 1;
		p = nl + 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int mapped;
	struct httpreq r;
	enum httpreq_status st;
	const char *sep, *req;
	unsigned want, got, ready;
	unsigned long clen = 0;
	size_t n, body;
	int eof;

	if (size < 1)
		return 0;
	if (!mapped)
		mapped = metrics_open(METRICS_RUNNER) == 0;
	FUZZ_ASSERT(mapped);
	metric_set(M_READY, 0, data[0] & 1);
	metric_set(M_DRAINING, 0, data[0] >> 1 & 1);
	metric_set(M_LEASES_ACTIVE, 0, data[0] >> 2 & 3);
	metric_set(M_CAPACITY, 0, data[0] >> 4 & 3);
	ready = (data[0] & 1) && !(data[0] >> 1 & 1) &&
	    (data[0] >> 2 & 3) < (data[0] >> 4 & 3);
	eof = data[0] >> 7;
	req = (const char *)data + 1;
	size--;

	st = httpreq_parse(req, size, &r);
	n = metrics_http_answer(req, size, eof, out, sizeof out);
	if (!eof && st == HTTPREQ_NEED) {
		FUZZ_ASSERT(n == 0);
		return 0;
	}
	FUZZ_ASSERT(n > 0 && n <= sizeof out);
	if (!eof)	/* whole: the end of input changes nothing */
		FUZZ_ASSERT(metrics_http_answer(req, size, 1, again,
		    sizeof again) == n && memcmp(again, out, n) == 0);
	sep = memmem(out, n, "\r\n\r\n", 4);
	FUZZ_ASSERT(sep != NULL);
	body = n - (size_t)(sep + 4 - out);
	FUZZ_ASSERT(memmem(out, (size_t)(sep + 4 - out), "\r\nConnection: "
	    "close\r\n", 21) != NULL);
	sep = memmem(out, n, "\r\nContent-Length: ", 18);
	FUZZ_ASSERT(sep != NULL);
	for (sep += 18; *sep >= '0' && *sep <= '9'; sep++)
		clen = clen * 10 + (unsigned long)(*sep - '0');
	FUZZ_ASSERT(clen == body);
	got = status_of(out, n);
	switch (st) {
	case HTTPREQ_NEED:
	case HTTPREQ_BAD:
		want = 400;
		break;
	case HTTPREQ_METHOD:
		want = 405;
		break;
	case HTTPREQ_TOO_BIG:
		want = 431;
		break;
	default:
		want = strcmp(r.path, "/healthz") == 0 ? 200 :
		    strcmp(r.path, "/readyz") == 0 ? (ready ? 200 : 503) :
		    strcmp(r.path, "/metrics") == 0 ? 200 : 404;
	}
	FUZZ_ASSERT(got == want);
	if (st == HTTPREQ_OK && strcmp(r.path, "/metrics") == 0)
		check_exposition(out + n - body, body);
	return 0;
}
