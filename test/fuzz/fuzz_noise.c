/* fuzz_noise.c - hostile bytes as msg1 to a responder, as msg2 to an
 * initiator, and as transport messages after a completed handshake; every
 * failure must be sticky and wipe the state.
 *
 * Input: mode byte, then the bytes for that mode.
 *   mode % 4 == 0  rest is msg1 for a responder
 *   mode % 4 == 1  rest is msg2 for an initiator that sent msg1
 *   mode % 4 == 2  rest is records dir:u8 len:u16 body[len], each body a
 *                  transport message to the side dir & 1 picks
 *   mode % 4 == 3  records used as plaintexts: encrypt, maybe flip one
 *                  byte (dir >> 1 picks it), decrypt on the other side
 *   mode & 4       no psk (NN) instead of NNpsk0
 * Ephemerals are fixed so saved inputs replay the same way. */
#include <string.h>

#include "common/wire/noise.h"
#include "common/base/bounded_rw.h"
#include "fuzz.h"

static const uint8_t fuzz_psk[NOISE_PSK_LEN] =
    "airlock fuzz psk: 32 bytes long.";
static const uint8_t fuzz_ie[NOISE_DH_LEN] = { 0x10, 0x21, 0x32, 0x43,
	0x54, 0x65, 0x76, 0x87, 0x98, 0xa9, 0xba, 0xcb, 0xdc, 0xed, 0xfe,
	0x0f };
static const uint8_t fuzz_re[NOISE_DH_LEN] = { 0xf0, 0xe1, 0xd2, 0xc3,
	0xb4, 0xa5, 0x96, 0x87, 0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e,
	0x0f };

static uint8_t buf[NOISE_MSG_MAX + 1];

static int
all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= b[i];
	return acc == 0;
}

static void
fuzz_init(struct noise_handshake *hs, enum noise_role role, int nn)
{
	FUZZ_ASSERT(noise_handshake_init(hs, role, nn ? NULL : fuzz_psk,
	    NOISE_PROLOGUE, NOISE_PROLOGUE_LEN) == NOISE_OK);
	FUZZ_ASSERT(noise_handshake_set_ephemeral(hs, role == NOISE_INITIATOR ?
	    fuzz_ie : fuzz_re) == NOISE_OK);
}

/* A failed handshake is wiped and refuses everything from then on. */
static void
assert_dead(struct noise_handshake *hs)
{
	struct noise_transport t;
	uint8_t h[NOISE_HASH_LEN];
	size_t n;

	FUZZ_ASSERT(hs->failed && !noise_handshake_complete(hs));
	FUZZ_ASSERT(all_zero(hs->ck, sizeof hs->ck) &&
	    all_zero(hs->e_priv, sizeof hs->e_priv) &&
	    all_zero(hs->psk, sizeof hs->psk) && all_zero(&hs->cs,
	    sizeof hs->cs));
	FUZZ_ASSERT(noise_write_message(hs, NULL, 0, buf, sizeof buf, &n) ==
	    NOISE_ERR_STATE && n == 0);
	FUZZ_ASSERT(noise_read_message(hs, buf, NOISE_MSG1_LEN, buf + 64, 64,
	    &n) == NOISE_ERR_STATE && n == 0);
	FUZZ_ASSERT(noise_handshake_hash(hs, h) == NOISE_ERR_STATE);
	FUZZ_ASSERT(noise_split(hs, &t) == NOISE_ERR_STATE && !t.ready);
}

static void
fuzz_msg1(const uint8_t *in, size_t len, int nn)
{
	static uint8_t payload[NOISE_MSG_MAX];
	struct noise_handshake r;
	enum noise_status st;
	size_t n = 1;

	fuzz_init(&r, NOISE_RESPONDER, nn);
	if (noise_read_message(&r, in, len, payload, sizeof payload, &n) !=
	    NOISE_OK) {
		FUZZ_ASSERT(n == 0);
		assert_dead(&r);
		return;
	}
	FUZZ_ASSERT(n == len - NOISE_DH_LEN - (nn ? 0 : NOISE_TAG_LEN));
	/* NN's msg1 has no tag, so a low-order e gets this far; ee then
	 * refuses it */
	st = noise_write_message(&r, NULL, 0, buf, sizeof buf, &n);
	if (st != NOISE_OK) {
		FUZZ_ASSERT(st == NOISE_ERR_DH && nn && n == 0);
		assert_dead(&r);
		return;
	}
	FUZZ_ASSERT(n == NOISE_MSG2_LEN && noise_handshake_complete(&r));
	noise_handshake_destroy(&r);
}

static void
fuzz_msg2(const uint8_t *in, size_t len, int nn)
{
	static uint8_t payload[NOISE_MSG_MAX];
	struct noise_handshake i;
	struct noise_transport t;
	size_t n;

	fuzz_init(&i, NOISE_INITIATOR, nn);
	FUZZ_ASSERT(noise_write_message(&i, NULL, 0, buf, sizeof buf, &n) ==
	    NOISE_OK);
	if (noise_read_message(&i, in, len, payload, sizeof payload, &n) !=
	    NOISE_OK) {
		assert_dead(&i);
		return;
	}
	FUZZ_ASSERT(n == len - NOISE_DH_LEN - NOISE_TAG_LEN);
	FUZZ_ASSERT(noise_split(&i, &t) == NOISE_OK && t.ready);
	noise_transport_destroy(&t);
	noise_handshake_destroy(&i);
}

/* The two transports of one fixed handshake, made once per process. */
static void
fuzz_pair(int nn, struct noise_transport *it, struct noise_transport *rt)
{
	static struct noise_transport cache[2][2];
	static int made[2];
	struct noise_handshake i, r;
	uint8_t m[NOISE_MSG1_LEN + NOISE_TAG_LEN];
	size_t n;

	if (!made[nn]) {
		fuzz_init(&i, NOISE_INITIATOR, nn);
		fuzz_init(&r, NOISE_RESPONDER, nn);
		FUZZ_ASSERT(noise_write_message(&i, NULL, 0, m, sizeof m, &n) ==
		    NOISE_OK);
		FUZZ_ASSERT(noise_read_message(&r, m, n, NULL, 0, &n) ==
		    NOISE_OK);
		FUZZ_ASSERT(noise_write_message(&r, NULL, 0, m, sizeof m, &n) ==
		    NOISE_OK);
		FUZZ_ASSERT(noise_read_message(&i, m, n, NULL, 0, &n) ==
		    NOISE_OK);
		FUZZ_ASSERT(noise_split(&i, &cache[nn][0]) == NOISE_OK);
		FUZZ_ASSERT(noise_split(&r, &cache[nn][1]) == NOISE_OK);
		made[nn] = 1;
	}
	*it = cache[nn][0];
	*rt = cache[nn][1];
}

/* A dead transport refuses both directions, even a genuine message. */
static void
assert_dead_transport(struct noise_transport *dead,
    struct noise_transport *peer)
{
	size_t n;

	FUZZ_ASSERT(!dead->ready && all_zero(dead, sizeof *dead));
	memcpy(buf, "genuine", 7);
	if (peer->ready && noise_encrypt(peer, buf, 7, sizeof buf, &n) ==
	    NOISE_OK)
		FUZZ_ASSERT(noise_decrypt(dead, buf, n, &n) ==
		    NOISE_ERR_STATE && n == 0);
	FUZZ_ASSERT(noise_encrypt(dead, buf, 1, sizeof buf, &n) ==
	    NOISE_ERR_STATE && n == 0);
}

static void
fuzz_transport(struct rd *r, int nn, int roundtrip)
{
	struct noise_transport t[2];
	const uint8_t *body;
	uint16_t len;
	uint8_t dir;
	size_t n, out;

	fuzz_pair(nn, &t[0], &t[1]);
	while (rd_u8(r, &dir) == 0 && rd_u16(r, &len) == 0) {
		struct noise_transport *to = &t[dir & 1];
		struct noise_transport *from = &t[!(dir & 1)];
		size_t flip = dir >> 1;

		/* a record cut short by the end of input keeps what is there */
		n = len < rd_left(r) ? len : rd_left(r);
		FUZZ_ASSERT(rd_bytes(r, n, &body) == 0);
		memcpy(buf, body, n);
		if (roundtrip) {
			if (noise_encrypt(from, buf, n, sizeof buf, &out) !=
			    NOISE_OK) {
				FUZZ_ASSERT(n > NOISE_MSG_MAX - NOISE_TAG_LEN);
				assert_dead_transport(from, to);
				return;
			}
			FUZZ_ASSERT(out == n + NOISE_TAG_LEN);
			if (flip < out)
				buf[flip] ^= 0x5a;
			if (noise_decrypt(to, buf, out, &out) != NOISE_OK) {
				FUZZ_ASSERT(flip < n + NOISE_TAG_LEN);
				assert_dead_transport(to, from);
				return;
			}
			FUZZ_ASSERT(flip >= n + NOISE_TAG_LEN && out == n &&
			    memcmp(buf, body, n) == 0);
			continue;
		}
		if (noise_decrypt(to, buf, n, &out) != NOISE_OK) {
			FUZZ_ASSERT(out == 0 && all_zero(buf, n));
			assert_dead_transport(to, from);
			return;
		}
		FUZZ_ASSERT(out == n - NOISE_TAG_LEN);
	}
	noise_transport_destroy(&t[0]);
	noise_transport_destroy(&t[1]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd r;
	int nn;

	if (size < 1)
		return 0;
	nn = (data[0] & 4) != 0;
	r = rd_init(data + 1, size - 1);
	switch (data[0] & 3) {
	case 0:
		fuzz_msg1(data + 1, size - 1, nn);
		break;
	case 1:
		fuzz_msg2(data + 1, size - 1, nn);
		break;
	default:
		fuzz_transport(&r, nn, (data[0] & 3) == 3);
		break;
	}
	return 0;
}
