/* httpline.c - CRLF lines, tokens and header lines of HTTP/1.x. */
#include "common/service/httpline.h"

#include <string.h>

long
httpline_end(const char *buf, size_t len, size_t off)
{
	for (size_t i = off; i < len; i++) {
		if (buf[i] == '\n')
			return -2;
		if (buf[i] == '\r') {
			if (i + 1 == len)
				return -1;
			return buf[i + 1] == '\n' ? (long)i : -2;
		}
	}
	return -1;
}

int
httpline_tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

int
httpline_header_ok(const char *p, size_t n)
{
	size_t m = 0;

	while (m < n && httpline_tchar((unsigned char)p[m]))
		m++;
	if (m == 0 || m == n || p[m] != ':')
		return 0;
	for (size_t i = m + 1; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (!(c == ' ' || c == '\t' || (c > 0x20 && c < 0x7f)))
			return 0;
	}
	return 1;
}
