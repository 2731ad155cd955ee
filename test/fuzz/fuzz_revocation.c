/* fuzz_revocation.c - revocation_parse directly, under arbitrary file
 * contents. Invariants: on success the ids are sorted, one per line after
 * the header (and format 3's serial line: a list with a serial is
 * signed, and its line spells the serial), each the decoding of its line's 22-character token id, and
 * each re-encodes (b64url, one spelling per value) to exactly that text;
 * a sig line is the last line, within the bytes, and signs exactly the
 * bytes before it; on failure *why is set and *line is within the file's
 * lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/b64url.h"
#include "common/policy/revocation.h"
#include "fuzz.h"

#define ID_TEXT_LEN 22

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t hlen = sizeof REVOCATION_HEADER - 1;
	uint8_t (*ids)[REVOCATION_ID_LEN] = NULL;
	struct revocation_sig sig;
	size_t count = 0, line = 0, lines = 1, seen = 0, end, body;
	const char *why = NULL;
	uint64_t serial = 0;
	char spelt[32];

	if (size > 1u << 16)
		return 0;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (revocation_parse(data, size, &ids, &count, &sig, &serial, &line,
	    &why) != 0) {
		FUZZ_ASSERT(why != NULL);
		FUZZ_ASSERT(line >= 1 && line <= lines);
		return 0;
	}
	FUZZ_ASSERT(size >= hlen && data[size - 1] == '\n');
	body = revocation_entries_off(serial);
	FUZZ_ASSERT(!serial || (sig.present && memcmp(data,
	    REVOCATION_HEADER_V3, hlen) == 0 && (size_t)snprintf(spelt,
	    sizeof spelt, "serial %llu\n", (unsigned long long)serial) ==
	    body - hlen && memcmp(data + hlen, spelt, body - hlen) == 0));
	end = sig.present ? sig.signed_len : size;
	FUZZ_ASSERT(end >= body && end <= size && data[end - 1] == '\n');
	FUZZ_ASSERT(!sig.present || memcmp(data + end, "sig ", 4) == 0);
	/* header; the serial line; last line empty; the sig line */
	FUZZ_ASSERT(count == lines - 2 - (size_t)(serial > 0) -
	    (size_t)sig.present);
	for (size_t i = 1; i < count; i++)
		FUZZ_ASSERT(memcmp(ids[i - 1], ids[i], REVOCATION_ID_LEN) <= 0);
	/* every line's id is in the set, spelt canonically */
	for (size_t off = body; off < end; seen++) {
		const uint8_t *nl = memchr(data + off, '\n', size - off);
		uint8_t id[REVOCATION_ID_LEN];
		char text[ID_TEXT_LEN + 1];
		int found = 0;

		FUZZ_ASSERT(nl && (size_t)(nl - (data + off)) > ID_TEXT_LEN);
		FUZZ_ASSERT(b64url_decode((const char *)data + off,
		    ID_TEXT_LEN, id, sizeof id) == REVOCATION_ID_LEN);
		FUZZ_ASSERT(b64url_encode(id, sizeof id, text, sizeof text) ==
		    ID_TEXT_LEN && memcmp(text, data + off, ID_TEXT_LEN) == 0);
		for (size_t i = 0; i < count && !found; i++)
			found = memcmp(ids[i], id, sizeof id) == 0;
		FUZZ_ASSERT(found);
		off = (size_t)(nl - data) + 1;
	}
	FUZZ_ASSERT(seen == count);
	free(ids);
	return 0;
}
