/* sbx_stage_test.c - the Java stage record decoder: the record exactly as
 * sbx_java.c writes it (magic, status, len:u32 big-endian, detail), whole and byte by byte; bad magic, bad status, oversize length
 * (sticky); the tool's output after the record is left to the caller. */
#include <string.h>

#include "common/sandbox/sbx_stage.h"
#include "tap.h"

static struct sbx_stage s;

/* A record as sbx_java.c's record() lays it out; its length. */
static size_t
mk(uint8_t *out, unsigned status, uint32_t len, const char *detail)
{
	size_t o = SBX_STAGE_MAGIC_LEN;

	memcpy(out, SBX_STAGE_MAGIC, SBX_STAGE_MAGIC_LEN);
	out[o++] = (uint8_t)status;
	for (int i = 3; i >= 0; i--)
		out[o++] = (uint8_t)(len >> (8 * i));
	if (detail)
		memcpy(out + o, detail, len);
	return o + (detail ? len : 0);
}

static void
test_whole(void)
{
	uint8_t b[256];
	const char *msg = "Main.java:1: error: ';' expected";
	size_t n = mk(b, SBX_STAGE_COMPILE, (uint32_t)strlen(msg), msg);
	size_t used = 99;

	ok(n == SBX_STAGE_HEADER_LEN + strlen(msg), "header is 20 bytes");
	sbx_stage_init(&s);
	ok(sbx_stage_feed(&s, b, n, &used) == SBX_STAGE_DONE && used == n,
	    "a whole record in one piece is done, every byte used");
	ok(s.status == SBX_STAGE_COMPILE && s.len == strlen(msg) &&
	    memcmp(s.detail, msg, s.len) == 0, "status and detail decoded");
	ok(sbx_stage_feed(&s, b, n, &used) == SBX_STAGE_DONE && used == 0,
	    "done is sticky and takes nothing more");
}

static void
test_bytewise(void)
{
	uint8_t b[256];
	size_t n = mk(b, SBX_STAGE_VERIFY, 5, "nope!"), used, i;
	enum sbx_stage_rc rc = SBX_STAGE_NEED;
	int all_need = 1;

	sbx_stage_init(&s);
	for (i = 0; i < n; i++) {
		rc = sbx_stage_feed(&s, b + i, 1, &used);
		if (i + 1 < n && (rc != SBX_STAGE_NEED || used != 1))
			all_need = 0;
	}
	ok(all_need, "byte by byte: need more until the last byte");
	ok(rc == SBX_STAGE_DONE && used == 1 && s.status == SBX_STAGE_VERIFY &&
	    s.len == 5 && memcmp(s.detail, "nope!", 5) == 0,
	    "byte by byte: the last byte completes the same record");
	sbx_stage_init(&s);
	ok(sbx_stage_feed(&s, b, 0, &used) == SBX_STAGE_NEED && used == 0,
	    "an empty feed needs more");
}

static void
test_empty_ok_then_output(void)
{
	uint8_t b[256];
	size_t n = mk(b, SBX_STAGE_OK, 0, ""), used;

	memcpy(b + n, "hello\n", 6);
	sbx_stage_init(&s);
	ok(sbx_stage_feed(&s, b, n + 6, &used) == SBX_STAGE_DONE &&
	    used == SBX_STAGE_HEADER_LEN && s.status == SBX_STAGE_OK &&
	    s.len == 0,
	    "an ok record with no detail is done after the header");
	ok(n + 6 - used == 6 && memcmp(b + used, "hello\n", 6) == 0,
	    "the tool's output after the record is left over");
	sbx_stage_init(&s);
	ok(sbx_stage_feed(&s, b, 10, &used) == SBX_STAGE_NEED && used == 10 &&
	    sbx_stage_feed(&s, b + 10, n + 6 - 10, &used) == SBX_STAGE_DONE &&
	    used == SBX_STAGE_HEADER_LEN - 10,
	    "split inside the header: the rest is still the tool's");
}

static void
test_bad(void)
{
	uint8_t b[256];
	size_t n, used;

	n = mk(b, SBX_STAGE_OK, 0, "");
	b[3] ^= 1;
	sbx_stage_init(&s);
	ok(sbx_stage_feed(&s, b, n, &used) == SBX_STAGE_BAD &&
	    used == SBX_STAGE_HEADER_LEN, "bad magic is malformed");
	ok(sbx_stage_feed(&s, (const uint8_t *)SBX_STAGE_MAGIC, 1, &used) ==
	    SBX_STAGE_BAD && used == 0, "malformed is sticky");

	n = mk(b, SBX_STAGE_ERROR + 1, 0, "");
	sbx_stage_init(&s);
	ok(sbx_stage_feed(&s, b, n, &used) == SBX_STAGE_BAD,
	    "a status past stage error is malformed");
	n = mk(b, SBX_STAGE_ERROR, 0, "");
	sbx_stage_init(&s);
	ok(sbx_stage_feed(&s, b, n, &used) == SBX_STAGE_DONE,
	    "stage error itself is a status");

	n = mk(b, SBX_STAGE_COMPILE, SBX_DETAIL_MAX + 1, NULL);
	sbx_stage_init(&s);
	ok(sbx_stage_feed(&s, b, n, &used) == SBX_STAGE_BAD,
	    "a length over SBX_DETAIL_MAX is malformed");
	n = mk(b, SBX_STAGE_COMPILE, 0xffffffffu, NULL);
	sbx_stage_init(&s);
	ok(sbx_stage_feed(&s, b, n, &used) == SBX_STAGE_BAD,
	    "a length of 2^32-1 is malformed (no wrap)");
}

static void
test_max(void)
{
	static uint8_t b[SBX_STAGE_HEADER_LEN + SBX_DETAIL_MAX + 1];
	static char d[SBX_DETAIL_MAX];
	size_t n, used;

	memset(d, 'x', sizeof d);
	n = mk(b, SBX_STAGE_VERIFY, SBX_DETAIL_MAX, d);
	sbx_stage_init(&s);
	ok(sbx_stage_feed(&s, b, n, &used) == SBX_STAGE_DONE && used == n &&
	    s.len == SBX_DETAIL_MAX, "a detail of exactly SBX_DETAIL_MAX");
}

int
main(void)
{
	test_whole();
	test_bytewise();
	test_empty_ok_then_output();
	test_bad();
	test_max();
	return tap_done();
}
