/* random_id.c - 64 random bits as hex, for log correlation (not secrets). */
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
