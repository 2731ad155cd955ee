/* channel_test.c - a channel set up over dirty memory (its buffers are not
 * zeroed: channel.h) carries frames both ways byte for byte, and its close
 * wipes every body byte a record ever wrote. Real sockets, an in-memory
 * handshake. */
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/wire/channel.h"
#include "tap.h"
#include "test/helpers/noise_pair.h"

#define DIRT 0xa5

static struct channel a, b;
static uint8_t big[FRAME_PAYLOAD_MAX];

/* a and b over a socketpair, keyed by one in-memory handshake, both
 * structs filled with DIRT first. */
static int
pair_up(void)
{
	static const uint8_t psk[32] = { 7 };
	struct noise_handshake i, r;
	struct noise_transport ti, tr;
	uint8_t m1[NOISE_MSG1_LEN], m2[NOISE_MSG2_LEN];
	size_t n, pl;
	int sv[2];

	noise_pair_init(&i, &r, psk, NULL, NULL);
	if (noise_write_message(&i, NULL, 0, m1, sizeof m1, &n) ||
	    noise_read_message(&r, m1, n, NULL, 0, &pl) ||
	    noise_write_message(&r, NULL, 0, m2, sizeof m2, &n) ||
	    noise_read_message(&i, m2, n, NULL, 0, &pl) ||
	    noise_split(&i, &ti) || noise_split(&r, &tr) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return -1;
	memset(&a, DIRT, sizeof a);
	memset(&b, DIRT, sizeof b);
	channel_adopt(&a, sv[0], &ti);
	channel_adopt(&b, sv[1], &tr);
	return 0;
}

/* Send one frame from s to d and take it there: 1 when it arrives whole
 * with its type. */
static int
carry(struct channel *s, struct channel *d, uint8_t type, const uint8_t *p,
    size_t len)
{
	const uint8_t *got;
	const char *why;
	uint8_t t;
	size_t n;

	if (channel_queue(s, type, p, len) != 0)
		return 0;
	while (channel_pending(s) > 0) {
		if (channel_flush(s) != 0)
			return 0;
		(void)channel_fill(d);
	}
	for (int tries = 0; tries < 100; tries++) {
		enum channel_next r = channel_next(d, &t, &got, &n, &why);

		if (r == CHANNEL_FRAME)
			return t == type && n == len && memcmp(got, p, len) == 0;
		if (r == CHANNEL_BAD)
			return 0;
		if (channel_fill(d) < 0 && channel_pending(s) == 0)
			usleep(1000);
	}
	return 0;
}

static int
all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

int
main(void)
{
	static const uint8_t small[] = "hello, dirty buffers";
	size_t high;

	for (size_t i = 0; i < sizeof big; i++)
		big[i] = (uint8_t)(i * 131 + 7);
	ok(pair_up() == 0, "two channels over a socketpair, keyed in memory");
	ok(carry(&a, &b, FRAME_STDOUT, small, sizeof small - 1),
	    "a small frame a -> b arrives byte for byte over dirty buffers");
	ok(carry(&b, &a, FRAME_STDIN, small, sizeof small - 1),
	    "... and b -> a");
	ok(carry(&a, &b, FRAME_STDOUT, big, sizeof big),
	    "a frame of the largest payload arrives byte for byte");
	high = b.dec.high;
	ok(high >= sizeof big + 1 + FRAME_TAG_LEN,
	    "the decoder says how much of the body a record wrote");
	channel_close(&b);
	ok(all_zero(b.body, high), "the close wipes every body byte written");
	channel_close(&a);
	ok(a.fd == -1 && b.fd == -1, "both sockets closed");
	return tap_done();
}
