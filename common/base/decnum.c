/* decnum.c - canonical decimal numbers (decnum.h). */
#include "common/base/decnum.h"

#include <string.h>

int
decnum_parse(const char *buf, size_t len, uint32_t *v)
{
	const char *nl = memchr(buf, '\n', len);
	size_t n = nl ? (size_t)(nl - buf) : len;
	uint32_t x = 0;

	/* one spelling per number: no sign, space, leading zero or
	 * trailing junk is ever accepted */
	if (n == 0 || (n > 1 && buf[0] == '0'))
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint32_t d = (uint32_t)(unsigned char)buf[i] - '0';

		/* checked before the multiply: strtoul wraps a 64-bit value
		 * into the range when cast down ("4294968296" is 1000) */
		if (d > 9 || x > (UINT32_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}
