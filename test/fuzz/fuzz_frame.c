/* fuzz_frame.c - the record decoder under arbitrary bytes and splits. */
#include "common/wire/frame.h"
#include "fuzz.h"

static uint8_t body[FRAME_RECORD_MAX];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frame_decoder d;
	size_t off = 1, used, step;

	if (size < 1)
		return 0;
	/* first byte: chunk size and cap, so splits and caps are explored */
	step = (size_t)(data[0] & 0x0f) + 1;
	frame_decoder_init(&d, body, data[0] & 0x80 ? 64 : sizeof body);
	while (off < size) {
		size_t n = size - off < step ? size - off : step;
		enum frame_status st = frame_feed(&d, data + off, n, &used);

		FUZZ_ASSERT(used <= n);
		if (st == FRAME_BAD) {
			FUZZ_ASSERT(frame_feed(&d, data, size, &used) ==
			    FRAME_BAD && used == 0);
			return 0;
		}
		if (st == FRAME_OK)
			FUZZ_ASSERT(d.want >= 1 && d.want <= d.cap);
		else
			FUZZ_ASSERT(used == n);
		off += used;
	}
	return 0;
}
