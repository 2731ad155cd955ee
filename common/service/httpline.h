/* httpline.h - the line-level pieces of HTTP/1.x request parsing shared
 * by the strict parsers (common/service/httpreq.c for probes, common/egress/connect_req.c
 * for the egress proxy): CRLF line ends only, RFC 9110 tokens, and header
 * lines of visible ASCII. */
#ifndef AIRLOCK_HTTPLINE_H
#define AIRLOCK_HTTPLINE_H

#include <stddef.h>

/* The end of the line starting at off within buf[0..len): the offset of
 * its CR (followed by LF). -1: no CRLF yet; -2: a bare CR or LF (request
 * smuggling lives in such leniency). */
long httpline_end(const char *buf, size_t len, size_t off);

/* 1 when c is an RFC 9110 tchar. */
int httpline_tchar(unsigned char c);

/* 1 when p[0..n) is "Name: value": a token, a colon, then visible ASCII,
 * spaces or tabs (no obs-fold, no control bytes, no 8-bit bytes). */
int httpline_header_ok(const char *p, size_t n);

#endif
