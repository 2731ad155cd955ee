/* tailbuf.c - the last bytes of a stream in a fixed buffer. */
#include "common/base/tailbuf.h"

#include <string.h>

void
tail_keep(void *buf, size_t cap, size_t *len, const void *p, size_t n)
{
	unsigned char *b = buf;

	if (n >= cap) {
		memcpy(b, (const unsigned char *)p + (n - cap), cap);
		*len = cap;
		return;
	}
	if (*len > cap - n) {
		size_t drop = *len - (cap - n);

		memmove(b, b + drop, *len - drop);
		*len -= drop;
	}
	memcpy(b + *len, p, n);
	*len += n;
}
