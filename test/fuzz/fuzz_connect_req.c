/* fuzz_connect_req.c - the egress proxy's request parser under arbitrary
 * bytes. Invariants: OK only with a NUL-terminated host whose text parses
 * back to the same target, a port above 0 and a used count within the
 * input; the same bytes give the same answer; and a prefix of an OK
 * request is never BAD (resumable). */
#include <stdio.h>
#include <string.h>

#include "common/egress/connect_req.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct connect_req r, again;
	enum connect_req_status st = connect_req_parse((const char *)data,
	    size, &r);

	FUZZ_ASSERT(connect_req_parse((const char *)data, size, &again) == st);
	if (st == CONNECT_REQ_OK) {
		struct connect_target t;
		char text[CONNECT_HOST_MAX + 16];
		size_t hlen = strnlen(r.target.host, sizeof r.target.host);
		int n;

		FUZZ_ASSERT(hlen > 0 && hlen <= CONNECT_HOST_MAX);
		FUZZ_ASSERT(r.target.port > 0);
		FUZZ_ASSERT(r.used <= size);
		n = snprintf(text, sizeof text, r.target.kind ==
		    CONNECT_HOST_IPV6 ? "[%s]:%u" : "%s:%u", r.target.host,
		    (unsigned)r.target.port);
		FUZZ_ASSERT(n > 0 && (size_t)n < sizeof text);
		FUZZ_ASSERT(connect_authority_parse(text, (size_t)n, &t) == 0);
		FUZZ_ASSERT(memcmp(&t, &r.target, sizeof t) == 0);
		for (size_t k = 0; k < r.used; k += 7)
			FUZZ_ASSERT(connect_req_parse((const char *)data, k,
			    &again) != CONNECT_REQ_BAD);
	}
	return 0;
}
