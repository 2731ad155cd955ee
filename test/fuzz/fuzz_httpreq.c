/* fuzz_httpreq.c - the probe request parser, and the endpoint's answer
 * built on it (metrics_http_answer, common/service/metrics_http.c),
 * under arbitrary bytes. Invariants:
 * OK only with a NUL-terminated path that starts with '/' and a used
 * count within the input; the same bytes give the same answer; a prefix
 * of an OK request is never BAD (resumable); and at its end every input
 * gets one whole HTTP/1.1 response whose Content-Length is its body. */
#include <string.h>

#include "common/service/httpreq.h"
#include "common/service/metrics.h"
#include "common/service/metrics_http.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct httpreq r, again;
	enum httpreq_status st = httpreq_parse((const char *)data, size, &r);

	FUZZ_ASSERT(httpreq_parse((const char *)data, size, &again) == st);
	if (st == HTTPREQ_OK) {
		FUZZ_ASSERT(r.path[0] == '/');
		FUZZ_ASSERT(memchr(r.path, '\0', sizeof r.path) != NULL);
		FUZZ_ASSERT(r.used <= size);
		for (size_t k = 0; k < r.used; k += 7)
			FUZZ_ASSERT(httpreq_parse((const char *)data, k, &again)
			    != HTTPREQ_BAD);
	}
	{
		static char out[METRICS_TEXT_MAX + 512];
		static int mapped;
		size_t n, body;
		const char *sep;
		unsigned long clen = 0;

		if (!mapped)
			mapped = metrics_open(METRICS_RUNNER) == 0;
		FUZZ_ASSERT(mapped);
		n = metrics_http_answer((const char *)data, size, 1, out,
		    sizeof out);
		FUZZ_ASSERT(n > 17 && memcmp(out, "HTTP/1.1 ", 9) == 0);
		sep = memmem(out, n, "\r\n\r\n", 4);
		FUZZ_ASSERT(sep != NULL);
		body = n - (size_t)(sep + 4 - out);
		sep = memmem(out, n, "Content-Length: ", 16);
		FUZZ_ASSERT(sep != NULL);
		for (sep += 16; *sep >= '0' && *sep <= '9'; sep++)
			clen = clen * 10 + (unsigned long)(*sep - '0');
		FUZZ_ASSERT(clen == body);
	}
	return 0;
}
