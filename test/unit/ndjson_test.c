/* ndjson_test.c - lines cut from a stream: split anywhere, zero-copy when
 * whole, a line at the cap and one past it (reported once, skipped to its
 * newline, nothing held). */
#include <string.h>

#include "common/mcp/ndjson.h"
#include "tap.h"

/* Feed p in chunks of step bytes; the lines joined by '|', TOO_LONG as
 * '!'. */
static void
run(const char *p, size_t step, size_t cap, char *out, size_t outcap)
{
	uint8_t buf[64];
	struct ndjson f;
	size_t n = strlen(p), off = 0, o = 0;

	ndjson_init(&f, buf, cap);
	out[0] = '\0';
	while (off < n) {
		size_t chunk = n - off < step ? n - off : step, at = 0;

		while (at < chunk) {
			const uint8_t *line;
			size_t len, used;
			enum ndjson_next nx = ndjson_take(&f,
			    (const uint8_t *)p + off + at, chunk - at, &used,
			    &line, &len);

			at += used;
			if (nx == NDJSON_LINE && o + len + 2 < outcap) {
				memcpy(out + o, line, len);
				o += len;
				out[o++] = '|';
			} else if (nx == NDJSON_TOO_LONG && o + 2 < outcap) {
				out[o++] = '!';
			}
			out[o] = '\0';
		}
		off += chunk;
	}
}

int
main(void)
{
	char out[256];
	uint8_t buf[8];
	struct ndjson f;
	const uint8_t *line = NULL, *in = (const uint8_t *)"xy\nz";
	size_t len = 0, used = 0;

	for (size_t step = 1; step <= 9; step++) {
		run("ab\n\ncd\r\nefgh", step, 8, out, sizeof out);
		ok(strcmp(out, "ab||cd\r|") == 0, "chunks of %zu: %s", step,
		    out);
	}
	run("12345678\n123456789\nok\n", 3, 8, out, sizeof out);
	ok(strcmp(out, "12345678|!ok|") == 0,
	    "8 bytes at cap 8 pass; 9 are reported once and skipped: %s", out);
	run("123456789012345678901234567890\nok\n", 1, 8, out, sizeof out);
	ok(strcmp(out, "!ok|") == 0, "a long line byte by byte: once: %s",
	    out);
	ndjson_init(&f, buf, sizeof buf);
	ok(ndjson_take(&f, in, 4, &used, &line, &len) == NDJSON_LINE &&
	    used == 3 && len == 2 && line == in,
	    "a whole line in the input is not copied");
	ok(ndjson_take(&f, (const uint8_t *)"z", 1, &used, &line, &len) ==
	    NDJSON_NEED && ndjson_pending(&f) == 1 && f.lines == 1,
	    "a partial line is held and counted as pending");
	ok(ndjson_take(&f, (const uint8_t *)"123456789", 9, &used, &line,
	    &len) == NDJSON_TOO_LONG && ndjson_pending(&f) == 0 && f.skipping,
	    "too long: nothing held, skipping");
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
