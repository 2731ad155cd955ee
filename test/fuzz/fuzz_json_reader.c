/* fuzz_json_reader.c - the gateway's JSON reader under arbitrary bytes.
 * Invariants: the same bytes give the same answer; on OK the tokens are
 * a tree within the text (every value's text inside the input, each
 * container's children inside it, tok[0] spanning all of them), every
 * string decodes to valid UTF-8 no longer than its text, and looking up
 * each key of an object finds a value of that object. */
#include <string.h>

#include "common/base/utf8.h"
#include "common/gateway/json_reader.h"
#include "fuzz.h"

#define TOKS 256

static struct json_node tok[TOKS], again[TOKS];
static char dec[1 << 20];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jsonr j, j2;
	enum jsonr_status st = jsonr_parse(&j, (const char *)data, size, tok,
	    TOKS);

	FUZZ_ASSERT(jsonr_parse(&j2, (const char *)data, size, again, TOKS)
	    == st);
	if (st != JSONR_OK) {
		FUZZ_ASSERT(j.err != NULL);
		return 0;
	}
	FUZZ_ASSERT(j.n >= 1 && j.n <= TOKS && tok[0].end == j.n);
	FUZZ_ASSERT(memcmp(tok, again, j.n * sizeof tok[0]) == 0);
	for (size_t i = 0; i < j.n; i++) {
		const struct json_node *t = &tok[i];
		size_t n, off = 0;

		FUZZ_ASSERT(t->off <= size && t->len <= size - t->off);
		FUZZ_ASSERT(t->end > i && t->end <= tok[0].end);
		if (t->type == JSON_STRING) {
			FUZZ_ASSERT(jsonr_string(&j, i, dec, sizeof dec, &n) ==
			    0 && n <= t->len);
			while (off < n) {
				uint32_t cp;
				size_t k = utf8_seq((const uint8_t *)dec + off,
				    n - off, &cp);

				FUZZ_ASSERT(k > 0);
				off += k;
			}
		}
		if (t->type == JSON_OBJECT) {
			size_t members = 0;

			for (size_t k = i + 1; k < t->end;
			    k = tok[k + 1].end) {
				FUZZ_ASSERT(tok[k].type == JSON_STRING);
				members++;
			}
			FUZZ_ASSERT(members == t->count);
		}
		if (t->type == JSON_ARRAY && t->count > 0)
			FUZZ_ASSERT(jsonr_element(&j, i, t->count - 1) > (long)i &&
			    jsonr_element(&j, i, t->count) == -1);
	}
	/* the first key, looked up by its decoded text, finds its value
	 * (keys never repeat, so no other) */
	if (tok[0].type == JSON_OBJECT && tok[0].count > 0) {
		size_t n;

		if (jsonr_string(&j, 1, dec, 64, &n) == 0 &&
		    memchr(dec, '\0', n) == NULL) {
			dec[n] = '\0';
			FUZZ_ASSERT(jsonr_member(&j, 0, dec) == 2);
		}
	}
	return 0;
}
