/* noise_pair.h - both sides of an airlock-profile handshake (psk,
 * NOISE_PROLOGUE) in one process, for the unit tests and fuzz targets
 * that drive a handshake in memory. */
#ifndef TEST_NOISE_PAIR_H
#define TEST_NOISE_PAIR_H

#include "common/wire/noise.h"

/* Start initiator i and responder r with one psk; with the ephemeral
 * keys ei and er when given (known answers), else fresh random ones. */
static void
noise_pair_init(struct noise_handshake *i, struct noise_handshake *r,
    const uint8_t *psk, const uint8_t *ei, const uint8_t *er)
{
	noise_handshake_init(i, NOISE_INITIATOR, psk, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN);
	noise_handshake_init(r, NOISE_RESPONDER, psk, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN);
	if (ei && er) {
		noise_handshake_set_ephemeral(i, ei);
		noise_handshake_set_ephemeral(r, er);
	}
}

#endif
