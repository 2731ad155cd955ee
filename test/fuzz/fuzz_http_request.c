/* fuzz_http_request.c - the gateway's request-head parser under
 * arbitrary bytes. Invariants: the same bytes give the same answer; OK
 * only with a NUL-terminated target starting with '/', a head length
 * within the input ending in an empty line, a body length within the
 * cap, and the X-Airlock values NUL-terminated within their size; every
 * proper prefix of an OK head is NEED (resumable); a refusal names why. */
#include <string.h>

#include "common/gateway/http_request.h"
#include "fuzz.h"

#define BODY_MAX 4096

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	struct httpr r, again;
	enum httpr_status st = httpr_parse(p, size, BODY_MAX, &r);

	FUZZ_ASSERT(httpr_parse(p, size, BODY_MAX, &again) == st);
	if (st != HTTPR_OK && st != HTTPR_NEED)
		FUZZ_ASSERT(r.why != NULL);
	if (st != HTTPR_OK)
		return 0;
	FUZZ_ASSERT(r.target[0] == '/');
	FUZZ_ASSERT(memchr(r.target, '\0', sizeof r.target) != NULL);
	FUZZ_ASSERT(memchr(r.tenant, '\0', sizeof r.tenant) != NULL);
	FUZZ_ASSERT(memchr(r.request_id, '\0', sizeof r.request_id) != NULL);
	FUZZ_ASSERT(r.head_len >= 4 && r.head_len <= size &&
	    r.head_len <= HTTPR_HEAD_MAX);
	FUZZ_ASSERT(memcmp(p + r.head_len - 4, "\r\n\r\n", 4) == 0);
	FUZZ_ASSERT(r.content_length <= BODY_MAX);
	FUZZ_ASSERT(r.method != HTTPR_POST || r.has_length);
	for (size_t k = 0; k < r.head_len; k += 3)
		FUZZ_ASSERT(httpr_parse(p, k, BODY_MAX, &again) == HTTPR_NEED);
	return 0;
}
