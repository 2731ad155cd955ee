/* fuzz_json.c - the JSON string escaper under arbitrary bytes: both
 * writers agree, the output reads back (json_check.h) as valid JSON string
 * content with no raw control to exactly what the rule says, and the
 * bounded writer never passes its cap or splits an escape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/json.h"
#include "fuzz.h"
#include "json_check.h"

#define IN_MAX 4096

static char out[IN_MAX * JSON_STEP_MAX], cut[IN_MAX * JSON_STEP_MAX];
static uint32_t got[IN_MAX * JSON_STEP_MAX], want[IN_MAX];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = 0, flen = 0, clen = 0, cap, ngot, nwant, taken;
	char *fbuf = NULL;
	FILE *f;

	if (size < 1 || size - 1 > IN_MAX)
		return 0;
	/* first byte: the small cap for the cut run */
	cap = data[0];
	data++;
	size--;
	FUZZ_ASSERT(json_append(out, sizeof out, &len, data, size) == size);
	f = open_memstream(&fbuf, &flen);
	FUZZ_ASSERT(f != NULL);
	json_write(f, data, size);
	fclose(f);
	FUZZ_ASSERT(flen == len && memcmp(fbuf, out, len) == 0);
	free(fbuf);
	for (size_t i = 0; i < len; i++)
		FUZZ_ASSERT((uint8_t)out[i] >= 0x20 && out[i] != 0x7f);
	FUZZ_ASSERT(jc_decode((uint8_t *)out, len, got, &ngot) == 0);
	nwant = jc_expect(data, size, want);
	FUZZ_ASSERT(ngot == nwant &&
	    memcmp(got, want, ngot * sizeof got[0]) == 0);
	/* cut short: a prefix of the whole, ending on an escape boundary */
	memset(cut, 0, sizeof cut);
	taken = json_append(cut, cap, &clen, data, size);
	FUZZ_ASSERT(taken <= size && clen <= cap && clen <= len &&
	    memcmp(cut, out, clen) == 0 && cut[cap] == 0);
	FUZZ_ASSERT(jc_decode((uint8_t *)cut, clen, got, &ngot) == 0);
	FUZZ_ASSERT(taken == size || clen + JSON_STEP_MAX > cap);
	return 0;
}
