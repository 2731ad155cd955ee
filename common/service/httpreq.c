/* httpreq.c - a strict, bounded parser for one probe's HTTP request. */
#include "common/service/httpreq.h"

#include <string.h>

#include "common/service/httpline.h"

static int
path_char(unsigned char c)	/* what our own paths use, and a query */
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c && strchr("/-._~?=&", c));
}

static enum httpreq_status
request_line(const char *p, size_t n, struct httpreq *req)
{
	size_t m = 0, plen;
	const char *path, *ver;

	while (m < n && httpline_tchar((unsigned char)p[m]))
		m++;
	if (m == 0 || m == n || p[m] != ' ')
		return HTTPREQ_BAD;
	path = p + m + 1;
	ver = memchr(path, ' ', n - m - 1);
	if (!ver)
		return HTTPREQ_BAD;
	plen = (size_t)(ver - path);
	ver++;
	if (n - (size_t)(ver - p) != 8 || (memcmp(ver, "HTTP/1.1", 8) != 0 &&
	    memcmp(ver, "HTTP/1.0", 8) != 0))
		return HTTPREQ_BAD;
	if (plen == 0 || plen > HTTPREQ_PATH_MAX || path[0] != '/')
		return HTTPREQ_BAD;
	for (size_t i = 0; i < plen; i++)
		if (!path_char((unsigned char)path[i]))
			return HTTPREQ_BAD;
	if (m != 3 || memcmp(p, "GET", 3) != 0)
		return HTTPREQ_METHOD;
	memcpy(req->path, path, plen);
	req->path[plen] = '\0';
	return HTTPREQ_OK;
}

enum httpreq_status
httpreq_parse(const char *buf, size_t len, struct httpreq *req)
{
	size_t off = 0, nheaders = 0, cap = len < HTTPREQ_MAX ? len :
	    HTTPREQ_MAX;
	enum httpreq_status first = HTTPREQ_NEED;

	memset(req, 0, sizeof *req);
	for (;;) {
		long e = httpline_end(buf, cap, off);

		if (e == -2)
			return HTTPREQ_BAD;
		if (e == -1)
			return len >= HTTPREQ_MAX ? HTTPREQ_TOO_BIG : HTTPREQ_NEED;
		if (off == 0) {
			first = request_line(buf, (size_t)e, req);
			if (first == HTTPREQ_BAD)
				return HTTPREQ_BAD;
		} else if ((size_t)e == off) {
			req->used = off + 2;	/* the empty line */
			return first;
		} else if (++nheaders > HTTPREQ_HEADERS_MAX ||
		    !httpline_header_ok(buf + off, (size_t)e - off)) {
			return HTTPREQ_BAD;
		}
		off = (size_t)e + 2;
	}
}
