/* fuzz_httpreq.c - the probe request parser (common/service/httpreq.c)
 * under arbitrary bytes; the endpoint's answer built on it is
 * fuzz_metrics_http's. Invariants: OK only with a NUL-terminated path
 * that starts with '/' and a used count within the input; the same bytes
 * give the same answer; a prefix of an OK request is never BAD
 * (resumable). */
#include <string.h>

#include "common/service/httpreq.h"
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
	return 0;
}
