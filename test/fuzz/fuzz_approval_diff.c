/* fuzz_approval_diff.c - the text a mismatch refusal carries, over
 * arbitrary approvals and requests. Input: a byte giving the request's
 * argc (low 3 bits, plus 1) and env key count (next 2 bits), then its
 * strings, each ended by a NUL (tenant, registration, argv, env keys),
 * then an approval payload. Invariants: the text is printable ASCII,
 * NUL-terminated within every cap, empty when nothing differs and not
 * empty when something does. */
#include <string.h>

#include "common/policy/approval_diff.h"
#include "fuzz.h"

static struct approval a;

static void
check_text(const struct approval_request *req, enum approval_result r)
{
	static const size_t caps[] = { 1, 2, 5, 33, 80, 1025 };
	char out[1025];

	for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
		size_t n;

		memset(out, 'z', sizeof out);
		approval_diff(&a, req, r, out, caps[k]);
		n = strnlen(out, caps[k]);
		FUZZ_ASSERT(n < caps[k]);
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(out[i] >= 0x20 && out[i] < 0x7f);
		if (caps[k] == sizeof out)
			FUZZ_ASSERT((n == 0) == (r < APPROVAL_TENANT_MISMATCH));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[1 << 16];
	char *words[2 + 8 + 4], *argv[8], *env[4];
	struct approval_request req;
	size_t argc, envc, nwords, off = 1, k;

	if (size < 1 || size > sizeof buf)
		return 0;
	argc = (data[0] & 7) + 1;
	envc = (data[0] >> 3) & 3;
	nwords = 2 + argc + envc;
	memcpy(buf, data, size);
	for (k = 0; k < nwords; k++) {
		char *nul = memchr(buf + off, '\0', size - off);

		if (!nul)
			return 0;
		words[k] = buf + off;
		off = (size_t)(nul - buf) + 1;
	}
	if (approval_parse_payload(data + off, size - off, &a) != 0)
		return 0;
	memcpy(argv, words + 2, argc * sizeof argv[0]);
	memcpy(env, words + 2 + argc, envc * sizeof env[0]);
	req = (struct approval_request){ words[0], words[1], argv, argc, env,
		envc };
	check_text(&req, approval_check(&a, &req, a.issued_at, 0, NULL));
	return 0;
}
