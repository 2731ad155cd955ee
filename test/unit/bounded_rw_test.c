/* bounded_rw_test.c - the bounded reader never reads past the end, the writer
 * never writes past its capacity. */
#include <stdint.h>
#include <string.h>

#include "common/base/bounded_rw.h"
#include "tap.h"

int
main(void)
{
	const uint8_t in[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x00, 0x03, 'a', 'b', 'c', 0x00, 0x09, 'x' };
	struct rd r = rd_init(in, sizeof in);
	const uint8_t *s;
	uint64_t v64;
	uint16_t v16;
	uint8_t out[8];
	size_t n;

	ok(rd_u64(&r, &v64) == 0 && v64 == 0x0102030405060708ull,
	    "u64 is big-endian");
	ok(rd_str16(&r, &s, &n) == 0 && n == 3 && memcmp(s, "abc", 3) == 0,
	    "str16 reads its length and bytes");
	ok(rd_str16(&r, &s, &n) == -1 && r.off == 13,
	    "a str16 longer than what is left fails without moving");
	ok(rd_bytes(&r, SIZE_MAX, &s) == -1,
	    "a huge length cannot wrap the bounds check");
	ok(rd_u16(&r, &v16) == 0 && v16 == 9 && !rd_done(&r), "u16");
	ok(rd_u16(&r, &v16) == -1 && rd_left(&r) == 1,
	    "u16 with one byte left fails");

	struct wr w = wr_init(out, sizeof out);
	wr_u32(&w, 0xdeadbeef);
	wr_str16(&w, "ab", 2);
	ok(!w.bad && w.off == 8 && out[0] == 0xde && out[5] == 2,
	    "writer fills exactly its capacity");
	wr_u8(&w, 1);
	ok(w.bad && w.off == 8, "one byte more marks it bad, writes nothing");
	return tap_done();
}
