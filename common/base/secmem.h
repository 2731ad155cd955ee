/* secmem.h - constant-time comparison and wiping of key material. */
#ifndef AIRLOCK_SECMEM_H
#define AIRLOCK_SECMEM_H

#include <stddef.h>

/* 1 when the n bytes are equal, else 0; time depends only on n. */
int ct_equal(const void *a, const void *b, size_t n);
/* 1 when the n bytes are all zero (a wiped key, an X25519 result from a
 * low-order point), else 0; time depends only on n. */
int ct_is_zero(const void *p, size_t n);
/* Zero n bytes in a way the compiler may not remove. */
void secure_wipe(void *p, size_t n);

#endif
