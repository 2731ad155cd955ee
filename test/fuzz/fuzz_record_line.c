/* fuzz_record_line.c - the length-prefixed line reader (record_line_next: read_len and
 * parse_line, and record_line_u64) directly, under arbitrary bytes; the first
 * byte picks the item cap. Invariants: an accepted line has a key of
 * 1..RECORD_LINE_KEY_MAX [a-z0-9-] bytes, at most RECORD_LINE_ITEMS_MAX items each within
 * the cap and free of NUL, and re-encodes with the writers (record_line_put,
 * record_line_eol) to exactly the bytes it was read from; a number record_line_u64
 * accepts re-encodes (record_line_num) to its item; a malformed line leaves the
 * reader where the line starts; the reader always moves forward. */
#include <string.h>

#include "common/policy/record_line.h"
#include "fuzz.h"

static uint8_t again[70000 + 64], num[64];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t caps[] = { 0, 1, 9, 10, 64, 4096, 65536 };
	struct record_line_line l;
	struct rd r;
	size_t item_max;
	int rc;

	if (size < 1 || size > 70000)
		return 0;
	item_max = caps[data[0] % (sizeof caps / sizeof *caps)];
	r = rd_init(data + 1, size - 1);
	for (;;) {
		size_t before = r.off;

		rc = record_line_next(&r, item_max, &l);
		FUZZ_ASSERT(r.off <= r.len);
		if (rc == 1) {
			FUZZ_ASSERT(r.off == r.len && before == r.off);
			break;
		}
		if (rc == -1) {
			FUZZ_ASSERT(r.off == before);
			break;
		}
		FUZZ_ASSERT(rc == 0 && r.off > before && l.start == before);
		FUZZ_ASSERT(l.key == r.p + before);
		FUZZ_ASSERT(l.key_len >= 1 && l.key_len <= RECORD_LINE_KEY_MAX);
		FUZZ_ASSERT(l.n <= RECORD_LINE_ITEMS_MAX);
		{
			struct wr w = wr_init(again, sizeof again);

			wr_bytes(&w, l.key, l.key_len);
			for (size_t i = 0; i < l.n; i++) {
				const struct record_line_item *it = &l.item[i];
				uint64_t v;

				FUZZ_ASSERT(it->n <= item_max);
				FUZZ_ASSERT(it->p >= r.p + before &&
				    it->p + it->n <= r.p + r.off);
				FUZZ_ASSERT(!memchr(it->p, '\0', it->n));
				record_line_put(&w, it->p, it->n);
				if (record_line_u64(it, &v) == 0) {
					struct wr w2 = wr_init(num,
					    sizeof num);

					record_line_num(&w2, v);
					/* " LEN:" then the digits */
					FUZZ_ASSERT(!w2.bad && w2.off >= it->n &&
					    memcmp(num + w2.off - it->n,
					    it->p, it->n) == 0);
				}
			}
			record_line_eol(&w);
			FUZZ_ASSERT(!w.bad && w.off == r.off - before &&
			    memcmp(again, r.p + before, w.off) == 0);
		}
	}
	return 0;
}
