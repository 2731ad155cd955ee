/* decnum.c - canonical decimal numbers (decnum.h). */
#include "common/base/decnum.h"

#include <string.h>

int
decnum_parse_max(const char *buf, size_t len, uint64_t max, uint64_t *v)
{
	const char *nl = memchr(buf, '\n', len);
	size_t n = nl ? (size_t)(nl - buf) : len;
	uint64_t x = 0;

	/* one spelling per number: no sign, space, leading zero or
	 * trailing junk is ever accepted */
	if (n == 0 || (n > 1 && buf[0] == '0'))
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t d = (uint64_t)(unsigned char)buf[i] - '0';

		/* checked before the multiply: strtoul wraps a 64-bit value
		 * into the range when cast down ("4294968296" is 1000) */
		if (d > 9 || d > max || x > (max - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

int
decnum_parse(const char *buf, size_t len, uint32_t *v)
{
	uint64_t x;

	if (decnum_parse_max(buf, len, UINT32_MAX, &x) != 0)
		return -1;
	*v = (uint32_t)x;
	return 0;
}
