/* fuzz_proto.c - every lease payload parser under hostile bytes; what
 * parses must re-encode to the same bytes (one spelling per request). */
#include <string.h>

#include "common/wire/proto.h"
#include "fuzz.h"

static struct spawn_req req;
static uint8_t again[FRAME_PAYLOAD_MAX + 64];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct started_info s;
	struct exit_info x;
	struct error_info e;

	if (size > FRAME_PAYLOAD_MAX)
		return 0;
	if (proto_spawn_parse(&req, data, size) == PROTO_OK) {
		long n = proto_spawn_encode(again, sizeof again, req.tenant,
		    req.registration, req.argv, req.argc, req.env_key,
		    req.env_value, req.envc, req.approval, req.approval_len);

		FUZZ_ASSERT(req.argc >= 1 && req.argc <= PROTO_ARGC_MAX);
		FUZZ_ASSERT(req.argv[req.argc] == NULL);
		FUZZ_ASSERT(n == (long)size && memcmp(again, data, size) == 0);
	}
	if (proto_exit_parse(&x, data, size) == PROTO_OK)
		FUZZ_ASSERT(strlen(x.detail) <= PROTO_TEXT_MAX);
	if (proto_error_parse(&e, data, size) == PROTO_OK)
		FUZZ_ASSERT(strlen(e.message) <= PROTO_TEXT_MAX);
	/* STARTED in both versions: what parses re-encodes to the same
	 * bytes, so a policy has one spelling on the wire */
	for (unsigned v = 1; v <= 2; v++) {
		long n;

		if (proto_started_parse(&s, v, data, size) != PROTO_OK)
			continue;
		FUZZ_ASSERT(s.liveness_ms > s.ping_ms);
		FUZZ_ASSERT(v == 2 ? s.egress < EGRESS_MODE_MAX_ :
		    s.egress == EGRESS_UNREPORTED);
		FUZZ_ASSERT(s.nports <= PROTO_EGRESS_PORTS_MAX &&
		    s.nrules <= PROTO_EGRESS_RULES_MAX);
		n = proto_started_encode(again, sizeof again, v, &s);
		FUZZ_ASSERT(n == (long)size && memcmp(again, data, size) == 0);
	}
	return 0;
}
