/* http_request.h - the head of one HTTP/1.1 request to the gateway,
 * parsed strictly and within bounds from untrusted bytes:
 *   - request line "METHOD SP /target SP HTTP/1.1" (or HTTP/1.0), single
 *     spaces, an origin-form target of visible ASCII (at most
 *     HTTPR_TARGET_MAX bytes);
 *   - at most HTTPR_HEADERS_MAX header lines "Name: value" of visible
 *     ASCII (common/service/httpline.h), CRLF line ends only, no
 *     obs-fold; the whole head at most HTTPR_HEAD_MAX bytes;
 *   - a body only by Content-Length (digits, once); Transfer-Encoding of
 *     any kind is refused (a body of unknown length is one the gateway
 *     would have to buffer without bound, and two length rules are where
 *     request smuggling lives); Expect only 100-continue; Content-Type,
 *     when present, application/json; Host exactly once in HTTP/1.1.
 * Resumable: call again with the whole prefix received so far. Pure. */
#ifndef AIRLOCK_HTTP_REQUEST_H
#define AIRLOCK_HTTP_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#define HTTPR_HEAD_MAX 16384	/* request line and headers */
#define HTTPR_HEADERS_MAX 64
#define HTTPR_TARGET_MAX 256
#define HTTPR_VALUE_MAX 64	/* the X-Airlock-* values kept */

enum httpr_method { HTTPR_OTHER, HTTPR_GET, HTTPR_POST, HTTPR_HEAD };

enum httpr_status {
	HTTPR_NEED,		/* a prefix of an acceptable head */
	HTTPR_OK,		/* the head: r holds it, r->head_len bytes */
	HTTPR_BAD,		/* malformed (400) */
	HTTPR_TOO_BIG,		/* head or header count over its cap (431) */
	HTTPR_VERSION,		/* another HTTP version (505) */
	HTTPR_LENGTH,		/* a POST without Content-Length, or with
				 * Transfer-Encoding (411) */
	HTTPR_BODY_TOO_BIG,	/* Content-Length over the caller's cap (413) */
	HTTPR_EXPECT,		/* an Expect other than 100-continue (417) */
	HTTPR_MEDIA		/* a Content-Type other than JSON (415) */
};

struct httpr {
	enum httpr_method method;
	char target[HTTPR_TARGET_MAX + 1];	/* NUL-terminated, from '/' */
	int http10;				/* HTTP/1.0 */
	int has_host, has_length;
	uint64_t content_length;		/* 0 without a body */
	int expect_continue;			/* "Expect: 100-continue" */
	int origin;				/* an Origin header: a
						 * browser's request */
	char tenant[HTTPR_VALUE_MAX + 1];	/* X-Airlock-Tenant, or "" */
	int tenant_bad;				/* ... given, empty or too
						 * long (bad_tenant) */
	char request_id[HTTPR_VALUE_MAX + 1];	/* X-Airlock-Request-Id */
	size_t head_len;			/* bytes up to the body */
	const char *why;			/* not OK: what, static text */
};

/* Parse the head at buf[0..len). body_max caps Content-Length. */
enum httpr_status httpr_parse(const char *buf, size_t len, uint64_t body_max,
    struct httpr *r);

#endif
