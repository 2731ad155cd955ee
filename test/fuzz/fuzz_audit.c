/* fuzz_audit.c - the audit log verifier and the revocation list parser
 * under arbitrary bytes (first byte picks): no crash, and what passes has
 * the shape it claims (one entry per line; every listed id found). */
#include <stdlib.h>
#include <string.h>

#include "common/audit.h"
#include "common/revocation.h"
#include "fuzz.h"

static size_t seen;

static void
count(void *ctx, const struct audit_view *v)
{
	(void)ctx;
	FUZZ_ASSERT(v->seq == ++seen);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t head[AUDIT_HASH_LEN], (*ids)[REVOCATION_ID_LEN];
	size_t n, line, lines = 0;
	const char *why;
	struct revocation_set set = { 0 };

	if (size < 1)
		return 0;
	if (data[0] & 1) {
		seen = 0;
		if (audit_verify(data + 1, size - 1, &n, head, &line, &why,
		    count, NULL) == 0) {
			for (size_t i = 1; i < size; i++)
				lines += data[i] == '\n';
			FUZZ_ASSERT(n == lines && n == seen);
		}
		return 0;
	}
	if (revocation_parse(data + 1, size - 1, &ids, &n, &line, &why) == 0) {
		set.ids = ids;
		set.n = n;
		set.usable = 1;
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(revocation_contains(&set, ids[i]));
		free(ids);
	}
	return 0;
}
