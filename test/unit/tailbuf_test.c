/* tailbuf_test.c - tail_keep against a model: the whole stream kept, its
 * last cap bytes compared after every piece, for pieces of every size
 * around the cap. */
#include <string.h>

#include "common/base/tailbuf.h"
#include "tap.h"

int
main(void)
{
	static const size_t caps[] = { 1, 2, 7, 16 };
	unsigned char stream[4096], buf[16 + 1];
	size_t bad = 0, checks = 0;

	for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
		size_t cap = caps[c];

		for (size_t step = 0; step <= 2 * cap + 1; step++) {
			size_t len = 0, total = 0, piece = step;

			memset(buf, 0xee, sizeof buf);
			while (total + piece < sizeof stream) {
				size_t keep;

				for (size_t i = 0; i < piece; i++)
					stream[total + i] =
					    (unsigned char)(total + i) * 7;
				tail_keep(buf, cap, &len, stream + total,
				    piece);
				total += piece;
				keep = total < cap ? total : cap;
				checks++;
				if (len != keep || memcmp(buf, stream + total -
				    keep, keep) != 0 || buf[cap] != 0xee)
					bad++;
				/* vary the piece: 0 .. 2 cap + 1 */
				piece = (piece * 5 + 3) % (2 * cap + 2);
			}
		}
	}
	ok(bad == 0 && checks > 100, "%zu appends: the last min(cap, total) "
	    "bytes in order, nothing past cap (%zu wrong)", checks, bad);
	{
		size_t len = 0;

		tail_keep(buf, 4, &len, "abc", 0);
		ok(len == 0, "an empty piece keeps nothing");
		tail_keep(buf, 4, &len, "abcdef", 6);
		ok(len == 4 && memcmp(buf, "cdef", 4) == 0, "a piece over the "
		    "cap keeps its end");
		tail_keep(buf, 4, &len, "gh", 2);
		ok(len == 4 && memcmp(buf, "efgh", 4) == 0, "older bytes drop "
		    "first");
	}
	return tap_done();
}
