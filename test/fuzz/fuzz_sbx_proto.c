/* fuzz_sbx_proto.c - the sandbox payload parsers under hostile bytes:
 * what parses must satisfy every cap and re-encode to the same bytes (one
 * spelling per request, so what is logged is what was sent). */
#include <string.h>

#include "common/sandbox/sbx_proto.h"
#include "fuzz.h"

static struct sbx_request req;
static uint8_t again[FRAME_PAYLOAD_MAX + 64];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbx_started s;
	struct sbx_result r;
	long n;

	if (size > FRAME_PAYLOAD_MAX)
		return 0;
	if (sbx_request_parse(&req, data, size) == SBX_OK) {
		FUZZ_ASSERT(req.nfiles >= 1 && req.nfiles <= SBX_FILES_MAX);
		FUZZ_ASSERT(sbx_request_body_len(&req) <= SBX_FILES_TOTAL_MAX +
		    SBX_INPUT_MAX);
		for (size_t i = 0; i < req.nfiles; i++) {
			FUZZ_ASSERT(sbx_name_valid((const uint8_t *)
			    req.files[i].name, strlen(req.files[i].name)));
			FUZZ_ASSERT(!strchr(req.files[i].name, '/'));
		}
		{
			char *argv[SBX_ARGS_MAX + 1];
			size_t total = 0;

			FUZZ_ASSERT(sbx_request_argv(&req, argv) == req.nargs);
			for (size_t i = 0; i < req.nargs; i++)
				total += strlen(argv[i]);
			FUZZ_ASSERT(req.nargs <= SBX_ARGS_MAX &&
			    total <= SBX_ARGS_TOTAL_MAX &&
			    sbx_args_check(argv) == SBX_OK);
		}
		n = sbx_request_encode(again, sizeof again, &req);
		FUZZ_ASSERT(n == (long)size && memcmp(again, data, size) == 0);
	}
	if (sbx_started_parse(&s, data, size) == SBX_OK) {
		n = sbx_started_encode(again, sizeof again, &s);
		FUZZ_ASSERT(n == (long)size && memcmp(again, data, size) == 0);
	}
	if (sbx_result_parse(&r, data, size) == SBX_OK) {
		char json[2 * SBX_DETAIL_MAX * 6 + 1024];

		FUZZ_ASSERT(strlen(r.detail) <= SBX_DETAIL_MAX);
		n = sbx_result_encode(again, sizeof again, &r);
		FUZZ_ASSERT(n == (long)size && memcmp(again, data, size) == 0);
		FUZZ_ASSERT(sbx_result_json(json, sizeof json, &r, 1, NULL) > 0);
	}
	return 0;
}
