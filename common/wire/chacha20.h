/* chacha20.h - the ChaCha20 stream cipher (RFC 8439) for the lease
 * channel's ChaCha20-Poly1305.
 *
 * BearSSL's fastest ChaCha20 (SSE2) computes one block at a time, about
 * 250 MiB/s on the machines airlock was measured on, which made the
 * cipher most of a 1 MiB MCP message's cost through relay and runner.
 * This one computes four blocks at once in SSE2 lanes (one 32-bit word
 * of four blocks per register), about four times as fast; without SSE2
 * it is the plain one-block code. No branch or memory index depends on
 * the key or the data, and the state and key stream it computes are
 * wiped before it returns. It has BearSSL's br_chacha20_run signature and
 * semantics, so br_poly1305_*_run takes it as its ChaCha20, and the
 * tests check it against RFC 8439's vectors and against
 * br_chacha20_ct_run byte for byte. */
#ifndef AIRLOCK_CHACHA20_H
#define AIRLOCK_CHACHA20_H

#include <stddef.h>
#include <stdint.h>

/* XOR data[0..len) in place with the key stream of key (32 bytes), iv
 * (12 bytes), blocks from counter cc on (wrapping at 2^32). Returns the
 * counter after the last block, a partial last block counted; chunks
 * other than the last must be multiples of 64 bytes to continue a
 * stream. */
uint32_t chacha20_xor(const void *key, const void *iv, uint32_t cc,
    void *data, size_t len);

#endif
