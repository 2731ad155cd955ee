/* frame_test.c - record codec: whole, split at every byte, caps, sticky BAD. */
#include <string.h>

#include "common/wire/frame.h"
#include "tap.h"

static uint8_t body[FRAME_RECORD_MAX];

static void
test_roundtrip_split_everywhere(void)
{
	uint8_t wire[2 + 5 + 2 + 3];
	struct frame_decoder d;
	int all_ok = 1;

	frame_header(wire, 5);
	memcpy(wire + 2, "hello", 5);
	frame_header(wire + 7, 3);
	memcpy(wire + 9, "abc", 3);
	/* feed the two records in two pieces split at every position */
	for (size_t cut = 0; cut <= sizeof wire; cut++) {
		size_t off = 0, used, got = 0;
		const uint8_t *piece[2] = { wire, wire + cut };
		size_t plen[2] = { cut, sizeof wire - cut };

		frame_decoder_init(&d, body, sizeof body);
		for (int p = 0; p < 2; p++) {
			off = 0;
			while (off < plen[p]) {
				enum frame_status st = frame_feed(&d, piece[p] + off,
				    plen[p] - off, &used);

				off += used;
				if (st == FRAME_OK) {
					const char *want = got == 0 ? "hello" : "abc";

					all_ok &= d.want == strlen(want) &&
					    memcmp(d.body, want, d.want) == 0;
					got++;
				} else if (st == FRAME_BAD) {
					all_ok = 0;
					break;
				}
			}
		}
		all_ok &= got == 2;
	}
	ok(all_ok, "two records decode identically for every split point");
}

static void
test_limits(void)
{
	struct frame_decoder d;
	uint8_t hdr[2], big[3] = { 0x01, 0x00, 'x' };
	size_t used;

	ok(frame_header(hdr, 0) == -1, "header refuses an empty body");
	ok(frame_header(hdr, FRAME_RECORD_MAX + 1) == -1,
	    "header refuses a body over 65535");
	ok(frame_header(hdr, FRAME_RECORD_MAX) == 0 && hdr[0] == 0xff &&
	    hdr[1] == 0xff, "header for 65535 is ff ff");

	frame_decoder_init(&d, body, 255);
	ok(frame_feed(&d, big, sizeof big, &used) == FRAME_BAD && used == 2,
	    "length 256 over a cap of 255 is BAD after the header alone");
	ok(frame_feed(&d, (const uint8_t *)"\x00\x01z", 3, &used) == FRAME_BAD &&
	    used == 0, "BAD is sticky");

	frame_decoder_init(&d, body, sizeof body);
	ok(frame_feed(&d, (const uint8_t *)"\x00\x00", 2, &used) == FRAME_BAD,
	    "a zero-length record is BAD");

	frame_decoder_init(&d, body, sizeof body);
	ok(frame_feed(&d, (const uint8_t *)"\x00", 1, &used) == FRAME_NEED &&
	    used == 1, "half a header needs more");
	ok(frame_feed(&d, (const uint8_t *)"\x02", 1, &used) == FRAME_NEED,
	    "a header without body needs more");
	ok(frame_feed(&d, (const uint8_t *)"ab\x00", 3, &used) == FRAME_OK &&
	    used == 2 && d.want == 2, "record completes and leaves the rest");
}

static void
test_types(void)
{
	ok(frame_type_known(FRAME_SPAWN) && frame_type_known(FRAME_PONG),
	    "spawn and pong are known");
	ok(!frame_type_known(0) && !frame_type_known(FRAME_PONG + 1) &&
	    !frame_type_known(255), "0, pong+1 and 255 are unknown");
	ok(strcmp(frame_type_name(FRAME_STDOUT), "stdout") == 0 &&
	    strcmp(frame_type_name(200), "unknown") == 0, "type names");
	ok(FRAME_PAYLOAD_MAX == 65518, "largest payload is 65518 bytes");
}

int
main(void)
{
	test_roundtrip_split_everywhere();
	test_limits();
	test_types();
	return tap_done();
}
