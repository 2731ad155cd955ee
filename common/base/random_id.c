/* random_id.c - random ids for log correlation, random words for load
 * shedding (neither is a secret). */
#include "common/base/random_id.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>

int
random_id(char out[17])
{
	uint8_t b[8];

	if (getrandom(b, sizeof b, 0) != sizeof b)
		return -1;
	for (int i = 0; i < 8; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}

uint32_t
random_pool_next(struct random_pool *p)
{
	if (p->n == 0) {
		if (getrandom(p->v, sizeof p->v, 0) != sizeof p->v)
			return 0;
		p->n = sizeof p->v / sizeof p->v[0];
	}
	return p->v[--p->n];
}
