/* fuzz_store.c - review record files under arbitrary bytes: the parser
 * never crashes, and an accepted record formats to bytes that parse back
 * and format identically (one spelling per record). */
#include <stdlib.h>
#include <string.h>

#include "common/policy/store.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct store_rec *rec = malloc(sizeof *rec), *back = malloc(sizeof
	    *back);
	uint8_t *one, *two;
	size_t n1, n2, line;
	const char *why;

	FUZZ_ASSERT(rec && back);
	if (store_rec_parse(data, size, rec, &line, &why) == 0) {
		FUZZ_ASSERT(rec->argc >= 1 && rec->nevents >= 1);
		FUZZ_ASSERT(store_rec_format(rec, &one, &n1) == 0);
		FUZZ_ASSERT(n1 == size && memcmp(one, data, size) == 0);
		FUZZ_ASSERT(store_rec_parse(one, n1, back, &line, &why) == 0);
		FUZZ_ASSERT(store_rec_format(back, &two, &n2) == 0);
		FUZZ_ASSERT(n1 == n2 && memcmp(one, two, n1) == 0);
		free(one);
		free(two);
		store_rec_free(back);
		store_rec_free(rec);
	}
	free(rec);
	free(back);
	return 0;
}
