/* fuzz_locktree.c - what a tree's files say (common/lock/locktree.c)
 * under arbitrary bytes: its seal (TREES/HEX.seal, read before every
 * use: a seal that parses wrongly lets a changed tree run) and its
 * tokens file (TREES/HEX.tokens, read by the sweep: one wrongly read
 * removes a tree still in use, or keeps one whose approvals are all
 * revoked). The first byte picks which; for the tokens, its other bits
 * pick which of the text's ids are in the revoked set.
 * Seal: accepted exactly in locktree_seal_text's spelling, i.e. its
 * digests written again give the same bytes; any two digests (the next
 * 64 bytes) written and read back are themselves.
 * Tokens: removable (1) exactly when the text is one or more lines of 22
 * base64url characters, the last of them one that leaves no bits over
 * (A, Q, g, w), each ended by LF, every id revoked; a line each id's
 * encoding, so ids and lines are one to one. */
#include <stdlib.h>
#include <string.h>

#include "common/base/b64url.h"
#include "common/lock/locktree.h"
#include "common/policy/revocation.h"
#include "fuzz.h"

#define LINE 23			/* 22 base64url characters and LF */
#define IDS_MAX 4096

static uint8_t ids[IDS_MAX][REVOCATION_ID_LEN];

static int
id_cmp(const void *a, const void *b)
{
	return memcmp(a, b, REVOCATION_ID_LEN);
}

static void
seal_case(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1), again[LOCKTREE_SEAL_LEN + 1];
	uint8_t cd[32], sd[32], cd2[32], sd2[32];

	if (!text)
		return;
	/* exactly the bytes given: ASan sees a read past them */
	memcpy(text, data, size);
	if (locktree_seal_parse(text, size, cd, sd) == 0) {
		FUZZ_ASSERT(size == LOCKTREE_SEAL_LEN);
		FUZZ_ASSERT(locktree_seal_text(cd, sd, again) ==
		    LOCKTREE_SEAL_LEN);
		FUZZ_ASSERT(memcmp(again, text, size) == 0);
	}
	free(text);
	if (size < 64)
		return;
	memcpy(cd, data, 32);
	memcpy(sd, data + 32, 32);
	FUZZ_ASSERT(locktree_seal_text(cd, sd, again) == LOCKTREE_SEAL_LEN);
	FUZZ_ASSERT(locktree_seal_parse(again, LOCKTREE_SEAL_LEN, cd2, sd2) ==
	    0 && memcmp(cd, cd2, 32) == 0 && memcmp(sd, sd2, 32) == 0);
}

static int
b64url_char(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* A line as the sweep must take it: 22 characters of the alphabet, the
 * last one with its low four bits zero, then LF. */
static int
line_ok(const uint8_t *p)
{
	for (size_t i = 0; i < LINE - 1; i++)
		if (!b64url_char(p[i]))
			return 0;
	return strchr("AQgw", p[LINE - 2]) != NULL && p[LINE - 1] == '\n';
}

/* id is one of the first n of ids (a linear search: the model, not
 * revocation_contains's). */
static int
listed(const uint8_t *id, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(ids[i], id, REVOCATION_ID_LEN) == 0)
			return 1;
	return 0;
}

static void
tokens_case(unsigned pick, const uint8_t *data, size_t size)
{
	static uint8_t line_id[IDS_MAX][REVOCATION_ID_LEN];
	struct revocation_set set;
	uint8_t *text;
	size_t nlines = size / LINE, n = 0;
	int want = size > 0 && size % LINE == 0;

	if (nlines > IDS_MAX || !(text = malloc(size ? size : 1)))
		return;
	memcpy(text, data, size);
	for (size_t i = 0; i < nlines; i++) {
		const uint8_t *p = data + i * LINE;
		char back[LINE];

		if (!line_ok(p)) {
			want = 0;
			continue;
		}
		FUZZ_ASSERT(b64url_decode((const char *)p, LINE - 1,
		    line_id[i], REVOCATION_ID_LEN) == REVOCATION_ID_LEN);
		FUZZ_ASSERT(b64url_encode(line_id[i], REVOCATION_ID_LEN, back,
		    sizeof back) == LINE - 1 && memcmp(back, p, LINE - 1) ==
		    0);
		/* bit i of pick: line i's id is revoked */
		if (pick >> (i % 7) & 1)
			memcpy(ids[n++], line_id[i], REVOCATION_ID_LEN);
	}
	for (size_t i = 0; want && i < nlines; i++)
		want = listed(line_id[i], n);
	qsort(ids, n, sizeof *ids, id_cmp);
	memset(&set, 0, sizeof set);
	set.ids = ids;
	set.n = n;
	set.usable = 1;
	FUZZ_ASSERT(locktree_tokens_revoked(text, size, &set) == want);
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1)
		seal_case(data + 1, size - 1);
	else
		tokens_case(data[0] >> 1, data + 1, size - 1);
	return 0;
}
