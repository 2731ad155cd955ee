/* fuzz.h - the libFuzzer entry point every target defines. */
#ifndef AIRLOCK_FUZZ_H
#define AIRLOCK_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken invariant must crash loudly under both libFuzzer and replay. */
#define FUZZ_ASSERT(c) do { if (!(c)) abort(); } while (0)

#endif
