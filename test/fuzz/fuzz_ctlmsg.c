/* fuzz_ctlmsg.c - the control-message decoder under hostile bytes: what
 * decodes re-encodes to the same bytes (one spelling per message), a
 * tenant is always a valid id, and a CONN is a ready transport with a
 * prologue word in range. */
#include <string.h>

#include "common/service/ctlmsg.h"
#include "common/wire/version.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t again[CTLMSG_MAX];
	struct ctlmsg m;
	long n;

	for (int has_fd = 0; has_fd < 2; has_fd++) {
		if (ctlmsg_decode(&m, data, size, has_fd) != CTLMSG_OK)
			continue;
		FUZZ_ASSERT(has_fd == (m.type == CTLMSG_CONN));
		if (m.type == CTLMSG_ADMIT)
			FUZZ_ASSERT(proto_id_valid((const uint8_t *)
			    m.u.admit.tenant, strlen(m.u.admit.tenant)));
		if (m.type == CTLMSG_CONN)
			FUZZ_ASSERT(m.u.conn.ready && m.u.conn.tx.has_key &&
			    m.u.conn.rx.has_key &&
			    m.conn_word <= VERSION_WORDS_MAX);
		n = ctlmsg_encode(again, sizeof again, &m);
		FUZZ_ASSERT(n == (long)size && memcmp(again, data, size) == 0);
	}
	return 0;
}
