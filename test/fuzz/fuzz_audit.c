/* fuzz_audit.c - the audit log verifier (chain only, or with a public key:
 * the signature item's decoding, the key id and the signature check) and
 * the revocation list parser under arbitrary bytes (the first byte picks):
 * no crash, and what passes has the shape it claims (one entry per line;
 * every listed id found; a signed entry counted as signed). The key is
 * test/helpers/test_key.h; the corpus holds a log it signed. */
#include <stdlib.h>
#include <string.h>

#include "common/policy/audit.h"
#include "common/policy/revocation.h"
#include "fuzz.h"
#include "test/helpers/test_key.h"

static size_t seen, seen_signed;

static void
count(void *ctx, const struct audit_view *v)
{
	(void)ctx;
	FUZZ_ASSERT(v->seq == ++seen);
	if (v->is_signed)
		seen_signed = v->seq;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct eckey_priv key;
	static int have_key;
	uint8_t (*ids)[REVOCATION_ID_LEN];
	struct audit_summary sum;
	size_t n, line, lines = 0;
	const char *why;
	struct revocation_set set = { 0 };
	struct revocation_sig rsig;
	uint64_t serial;

	if (!have_key) {
		FUZZ_ASSERT(eckey_priv_parse(test_key_sec1,
		    sizeof test_key_sec1 - 1, &key, &why) == 0);
		have_key = 1;
	}
	if (size < 1)
		return 0;
	if (data[0] & 1) {
		seen = seen_signed = 0;
		if (audit_verify(data + 1, size - 1, data[0] & 2 ? &key.pub :
		    NULL, &sum, &line, &why, count, NULL) == 0) {
			for (size_t i = 1; i < size; i++)
				lines += data[i] == '\n';
			FUZZ_ASSERT(sum.count == lines && sum.count == seen &&
			    sum.last_signed == seen_signed);
		}
		return 0;
	}
	if (revocation_parse(data + 1, size - 1, &ids, &n, &rsig, &serial,
	    &line, &why) == 0) {
		set.ids = ids;
		set.n = n;
		set.usable = 1;
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(revocation_contains(&set, ids[i]));
		free(ids);
	}
	return 0;
}
