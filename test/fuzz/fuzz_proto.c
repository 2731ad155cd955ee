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
	struct exit_info x;
	struct error_info e;
	struct started_info s;

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
	if (proto_started_parse(&s, data, size) == PROTO_OK)
		FUZZ_ASSERT(s.liveness_ms > s.ping_ms);
	return 0;
}
