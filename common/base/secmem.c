/* secmem.c - constant-time compare and a wipe the optimiser keeps. */
#include "common/base/secmem.h"

#include <stdint.h>
#include <string.h>

int
ct_equal(const void *a, const void *b, size_t n)
{
	const volatile uint8_t *x = a, *y = b;
	uint8_t diff = 0;

	for (size_t i = 0; i < n; i++)
		diff |= x[i] ^ y[i];
	return (1 & ((diff - 1) >> 8));
}

int
ct_is_zero(const void *p, size_t n)
{
	const volatile uint8_t *x = p;
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= x[i];
	return (1 & ((acc - 1) >> 8));
}

void
secure_wipe(void *p, size_t n)
{
	explicit_bzero(p, n);
}
