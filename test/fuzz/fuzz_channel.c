/* fuzz_channel.c - the receiving side of a lease after the handshake.
 * First byte even: the input is raw records from an attacker without the
 * keys (every one must fail, and failure is sticky). Odd: the input is a
 * list of plaintext frames (type:u8 len:u16 payload) sealed with the real
 * peer key, so the decrypted-frame path and every payload parser see
 * hostile plaintext from an authenticated but buggy peer. */
#include <string.h>

#include "common/wire/channel.h"
#include "common/wire/proto.h"
#include "common/wire/version.h"
#include "fuzz.h"
#include "test/helpers/noise_pair.h"

static struct channel rx;
static struct spawn_req req;

/* A completed in-memory handshake: tx seals for rx. */
static void
pair(struct noise_transport *tx)
{
	static const uint8_t psk[32] = { 1 }, ei[32] = { 2 }, er[32] = { 3 };
	struct noise_handshake a, b;
	uint8_t m1[NOISE_MSG1_LEN], m2[NOISE_MSG2_LEN];
	size_t n, pl;

	noise_pair_init(&a, &b, psk, ei, er);
	FUZZ_ASSERT(noise_write_message(&a, NULL, 0, m1, sizeof m1, &n) == 0);
	FUZZ_ASSERT(noise_read_message(&b, m1, n, NULL, 0, &pl) == 0);
	FUZZ_ASSERT(noise_write_message(&b, NULL, 0, m2, sizeof m2, &n) == 0);
	FUZZ_ASSERT(noise_read_message(&a, m2, n, NULL, 0, &pl) == 0);
	FUZZ_ASSERT(noise_split(&a, tx) == 0);
	memset(&rx, 0, sizeof rx);
	rx.fd = -1;
	frame_decoder_init(&rx.dec, rx.body, sizeof rx.body);
	FUZZ_ASSERT(noise_split(&b, &rx.nt) == 0);
}

/* Seal plaintext frames from data into rx.in as records. */
static void
seal_frames(struct noise_transport *tx, const uint8_t *data, size_t size)
{
	static uint8_t rec[FRAME_HEADER_LEN + FRAME_RECORD_MAX];
	size_t off = 0;

	while (size - off >= 3) {
		size_t len = (size_t)data[off + 1] << 8 | data[off + 2], sealed;

		if (len > FRAME_PAYLOAD_MAX || len > size - off - 3)
			len = size - off - 3;
		rec[FRAME_HEADER_LEN] = data[off];
		memcpy(rec + FRAME_HEADER_LEN + 1, data + off + 3, len);
		off += 3 + len;
		if (noise_encrypt(tx, rec + FRAME_HEADER_LEN, 1 + len,
		    FRAME_RECORD_MAX, &sealed) != NOISE_OK ||
		    sizeof rx.in - rx.in_len < FRAME_HEADER_LEN + sealed)
			return;
		frame_header(rec, sealed);
		memcpy(rx.in + rx.in_len, rec, FRAME_HEADER_LEN + sealed);
		rx.in_len += FRAME_HEADER_LEN + sealed;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct noise_transport tx;
	const uint8_t *p;
	const char *why;
	uint8_t type;
	size_t len;
	enum channel_next r;
	struct exit_info x;
	struct error_info e;
	static struct started_info s;

	if (size < 1)
		return 0;
	pair(&tx);
	if (data[0] & 1) {
		seal_frames(&tx, data + 1, size - 1);
	} else {
		len = size - 1 < sizeof rx.in ? size - 1 : sizeof rx.in;
		memcpy(rx.in, data + 1, len);
		rx.in_len = len;
	}
	while ((r = channel_next(&rx, &type, &p, &len, &why)) ==
	    CHANNEL_FRAME) {
		FUZZ_ASSERT(data[0] & 1);	/* forged records never open */
		FUZZ_ASSERT(frame_type_known(type) && len <= FRAME_PAYLOAD_MAX);
		if (type == FRAME_SPAWN)
			(void)proto_spawn_parse(&req, p, len);
		else if (type == FRAME_EXIT)
			(void)proto_exit_parse(&x, p, len);
		else if (type == FRAME_ERROR)
			(void)proto_error_parse(&e, p, len);
		else if (type == FRAME_STARTED)
			(void)proto_started_parse(&s, VERSION_CURRENT, p, len);
	}
	if (r == CHANNEL_BAD)
		FUZZ_ASSERT(channel_next(&rx, &type, &p, &len, &why) ==
		    CHANNEL_BAD);
	noise_transport_destroy(&tx);
	noise_transport_destroy(&rx.nt);
	return 0;
}
