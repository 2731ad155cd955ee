/* httpreq.h - the one HTTP/1.x request a health or metrics probe sends,
 * parsed strictly from untrusted bytes: "GET /path HTTP/1.1" or HTTP/1.0,
 * header lines of visible ASCII with a "Name:" each, then an empty line;
 * CRLF line ends only (a bare LF or CR is refused: request smuggling lives
 * in such leniency). No body, no other method, no absolute form, no query
 * beyond a plain one, at most HTTPREQ_MAX bytes in all. Resumable: call
 * again with more bytes (the whole prefix received so far). */
#ifndef AIRLOCK_HTTPREQ_H
#define AIRLOCK_HTTPREQ_H

#include <stddef.h>

#define HTTPREQ_MAX 4096	/* request line + headers */
#define HTTPREQ_PATH_MAX 64
#define HTTPREQ_HEADERS_MAX 32

enum httpreq_status {
	HTTPREQ_NEED,		/* a prefix of a valid request: read more */
	HTTPREQ_OK,		/* complete: path set, *used bytes */
	HTTPREQ_BAD,		/* not a request we take (answer 400) */
	HTTPREQ_METHOD,		/* well-formed, but not GET (answer 405) */
	HTTPREQ_TOO_BIG	/* no end within HTTPREQ_MAX (answer 431) */
};

struct httpreq {
	char path[HTTPREQ_PATH_MAX + 1];	/* NUL-terminated, from '/' */
	size_t used;				/* bytes of the request */
};

enum httpreq_status httpreq_parse(const char *buf, size_t len,
    struct httpreq *req);

#endif
