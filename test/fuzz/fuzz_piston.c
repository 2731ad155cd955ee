/* fuzz_piston.c - a POST /api/v2/execute body, arbitrary bytes, through
 * the gateway's request decoding, and an answer written for what passes.
 * Invariants: the same bytes give the same answer; on OK every file has
 * a name the protocol takes, no two alike, 1..SBX_FILES_MAX of them,
 * each and all within the caps, the files and stdin inside the store;
 * on a refusal err says why; the answer written back is one JSON object
 * the gateway's own reader takes, and so is an error object. */
#include <stdlib.h>
#include <string.h>

#include "common/gateway/piston.h"
#include "fuzz.h"

static const struct piston_runtime rts[] = {
	{ SBX_LANG_PYTHON, "3" }, { SBX_LANG_JAVA, "17" },
};
static struct json_node tok[PISTON_TOKENS_MAX];
static struct piston_req q, q2;
static uint8_t store[1 << 20], store2[1 << 20];

static void
assert_json(char *text, size_t len)
{
	struct jsonr j;

	FUZZ_ASSERT(jsonr_parse(&j, text, len, tok, PISTON_TOKENS_MAX) ==
	    JSONR_OK && tok[0].type == JSON_OBJECT);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *body = (const char *)data;
	char err[512], err2[512], *text = NULL;
	size_t total = 0, len = 0;
	enum piston_err e;
	FILE *f;

	if (size > sizeof store)
		return 0;
	err[0] = '\0';
	e = piston_parse_execute(&q, body, size, rts, 2, store, tok, err,
	    sizeof err);
	FUZZ_ASSERT(piston_parse_execute(&q2, body, size, rts, 2, store2, tok,
	    err2, sizeof err2) == e);
	if (e != PISTON_OK) {
		FUZZ_ASSERT(err[0] != '\0' && strcmp(err, err2) == 0);
		f = open_memstream(&text, &len);
		piston_write_error(f, piston_err_name(e), err);
		fclose(f);
		assert_json(text, len);
		free(text);
		return 0;
	}
	FUZZ_ASSERT(q.nfiles >= 1 && q.nfiles <= SBX_FILES_MAX && q.rt);
	for (size_t i = 0; i < q.nfiles; i++) {
		const struct sbx_file_data *d = &q.files[i];

		FUZZ_ASSERT(sbx_name_valid((const uint8_t *)d->name,
		    strlen(d->name)));
		for (size_t k = 0; k < i; k++)
			FUZZ_ASSERT(strcmp(q.files[k].name, d->name) != 0);
		FUZZ_ASSERT(d->len <= SBX_FILE_MAX);
		FUZZ_ASSERT(d->data >= store && d->len <= size &&
		    d->data + d->len <= store + size);
		total += d->len;
	}
	FUZZ_ASSERT(total <= SBX_FILES_TOTAL_MAX);
	FUZZ_ASSERT(q.input_len <= SBX_INPUT_MAX && (q.input_len == 0 ||
	    (q.input >= store && q.input + q.input_len <= store + size)));
	/* the words: in the store, NUL-terminated there, within the caps
	 * the protocol's encoder checks again */
	FUZZ_ASSERT(q.nargs <= SBX_ARGS_MAX && q.args[q.nargs] == NULL);
	for (size_t i = 0; i < q.nargs; i++)
		FUZZ_ASSERT((uint8_t *)q.args[i] >= store &&
		    (uint8_t *)q.args[i] + strnlen(q.args[i], size) <
		    store + size);
	FUZZ_ASSERT(sbx_args_check(q.args) == SBX_OK);
	{
		static struct sbx_answer a;
		struct piston_output o = { q.files[0].data, q.input,
			store, q.files[0].len, q.input_len, size };

		memset(&a, 0, sizeof a);
		a.res.reason = (uint8_t)(size % SBX_REASON_MAX_);
		a.res.kind = (uint8_t)(size % 3);
		a.res.status = (uint8_t)size;
		f = open_memstream(&text, &len);
		piston_write_result(f, &q, &a, &o);
		fclose(f);
		assert_json(text, len);
		free(text);
	}
	return 0;
}
