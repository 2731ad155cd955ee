/* errbuf.c - the caller's error buffer (errbuf.h). */
#include "common/base/errbuf.h"

#include <stdarg.h>
#include <stdio.h>

int
errbuf_set(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}
