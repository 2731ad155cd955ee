/* http_request.c - a strict, bounded parser for the gateway's request
 * heads. */
#include "common/gateway/http_request.h"

#include <string.h>
#include <strings.h>

#include "common/service/httpline.h"

#define REFUSE(r, st, text) ((r)->why = (text), (st))

static enum httpr_status
request_line(const char *p, size_t n, struct httpr *r)
{
	size_t m = 0, tlen;
	const char *target, *ver;

	while (m < n && httpline_tchar((unsigned char)p[m]))
		m++;
	if (m == 0 || m == n || p[m] != ' ')
		return REFUSE(r, HTTPR_BAD, "a malformed request line");
	target = p + m + 1;
	ver = memchr(target, ' ', n - m - 1);
	if (!ver)
		return REFUSE(r, HTTPR_BAD, "a malformed request line");
	tlen = (size_t)(ver - target);
	ver++;
	if (n - (size_t)(ver - p) != 8 || memcmp(ver, "HTTP/1.", 7) != 0 ||
	    (ver[7] != '1' && ver[7] != '0')) {
		if (n - (size_t)(ver - p) == 8 && memcmp(ver, "HTTP/", 5) == 0
		    && ver[5] >= '0' && ver[5] <= '9' && ver[6] == '.' &&
		    ver[7] >= '0' && ver[7] <= '9')
			return REFUSE(r, HTTPR_VERSION, "only HTTP/1.1 and "
			    "HTTP/1.0");
		return REFUSE(r, HTTPR_BAD, "a malformed request line");
	}
	if (tlen == 0 || target[0] != '/')
		return REFUSE(r, HTTPR_BAD, "the target must be a path");
	if (tlen > HTTPR_TARGET_MAX)
		return REFUSE(r, HTTPR_TOO_BIG, "the target is too long");
	for (size_t i = 0; i < tlen; i++)
		if ((unsigned char)target[i] <= 0x20 ||
		    (unsigned char)target[i] >= 0x7f)
			return REFUSE(r, HTTPR_BAD, "a byte the target may not "
			    "hold");
	if (m == 3 && memcmp(p, "GET", 3) == 0)
		r->method = HTTPR_GET;
	else if (m == 4 && memcmp(p, "POST", 4) == 0)
		r->method = HTTPR_POST;
	else if (m == 4 && memcmp(p, "HEAD", 4) == 0)
		r->method = HTTPR_HEAD;	/* refused, with a head alone */
	memcpy(r->target, target, tlen);
	r->target[tlen] = '\0';
	r->http10 = ver[7] == '0';
	return HTTPR_OK;
}

/* Is the value v[0..n) equal to word, ASCII case aside? */
static int
value_is(const char *v, size_t n, const char *word)
{
	return n == strlen(word) && strncasecmp(v, word, n) == 0;
}

/* A kept X-Airlock-* value: once, at most HTTPR_VALUE_MAX bytes. */
static enum httpr_status
keep_value(char *dst, const char *v, size_t n, struct httpr *r)
{
	if (dst[0])
		return REFUSE(r, HTTPR_BAD, "an X-Airlock header given twice");
	if (n == 0 || n > HTTPR_VALUE_MAX)
		return REFUSE(r, HTTPR_BAD, "an X-Airlock header value of 1-64 "
		    "bytes expected");
	memcpy(dst, v, n);
	dst[n] = '\0';
	return HTTPR_OK;
}

static enum httpr_status
content_length(const char *v, size_t n, uint64_t body_max, struct httpr *r)
{
	uint64_t len = 0;

	if (r->has_length)
		return REFUSE(r, HTTPR_BAD, "Content-Length given twice");
	if (n == 0 || n > 19)
		return REFUSE(r, HTTPR_BAD, "a malformed Content-Length");
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return REFUSE(r, HTTPR_BAD, "a malformed "
			    "Content-Length");
		len = len * 10 + (uint64_t)(v[i] - '0');
	}
	r->has_length = 1;
	r->content_length = len;
	if (len > body_max)
		return REFUSE(r, HTTPR_BODY_TOO_BIG, "the body is larger than "
		    "the gateway takes");
	return HTTPR_OK;
}

/* The media type mt, optionally with parameters (charset). */
static int
media_is(const char *v, size_t n, const char *mt)
{
	size_t k = strlen(mt);

	if (n < k || strncasecmp(v, mt, k) != 0)
		return 0;
	while (k < n && (v[k] == ' ' || v[k] == '\t'))
		k++;
	return k == n || v[k] == ';';
}

/* application/json, or text/plain: what fetch sends for a string body
 * unless told otherwise (the body is read as strict JSON either way). */
static int
json_media(const char *v, size_t n)
{
	return media_is(v, n, "application/json") ||
	    media_is(v, n, "text/plain");
}

static enum httpr_status
header(const char *p, size_t n, uint64_t body_max, struct httpr *r)
{
	const char *colon = memchr(p, ':', n), *v;
	size_t name_len, vn;

	if (!httpline_header_ok(p, n) || !colon)
		return REFUSE(r, HTTPR_BAD, "a malformed header line");
	name_len = (size_t)(colon - p);
	v = colon + 1;
	vn = n - name_len - 1;
	while (vn && (*v == ' ' || *v == '\t')) {
		v++;
		vn--;
	}
	while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t'))
		vn--;
#define NAME(s) (name_len == sizeof(s) - 1 && strncasecmp(p, s, name_len) == 0)
	if (NAME("Content-Length"))
		return content_length(v, vn, body_max, r);
	if (NAME("Transfer-Encoding"))
		return REFUSE(r, HTTPR_LENGTH, "Transfer-Encoding is refused "
		    "(chunked bodies too): send Content-Length");
	if (NAME("Host")) {
		if (r->has_host)
			return REFUSE(r, HTTPR_BAD, "Host given twice");
		r->has_host = 1;
		return HTTPR_OK;
	}
	if (NAME("Expect")) {
		if (!value_is(v, vn, "100-continue") || r->expect_continue)
			return REFUSE(r, HTTPR_EXPECT, "only Expect: "
			    "100-continue");
		r->expect_continue = 1;
		return HTTPR_OK;
	}
	if (NAME("Content-Type"))
		return json_media(v, vn) ? HTTPR_OK : REFUSE(r, HTTPR_MEDIA,
		    "the body must be application/json (or text/plain)");
	if (NAME("Origin")) {
		r->origin = 1;
		return HTTPR_OK;
	}
	if (NAME("X-Airlock-Tenant")) {
		/* a tenant of the wrong length is the tenant's refusal
		 * (bad_tenant), as one outside the grammar is */
		if (!r->tenant[0] && !r->tenant_bad &&
		    (vn == 0 || vn > HTTPR_VALUE_MAX)) {
			r->tenant_bad = 1;
			return HTTPR_OK;
		}
		if (r->tenant_bad)
			return REFUSE(r, HTTPR_BAD, "an X-Airlock header given "
			    "twice");
		return keep_value(r->tenant, v, vn, r);
	}
	if (NAME("X-Airlock-Request-Id"))
		return keep_value(r->request_id, v, vn, r);
#undef NAME
	return HTTPR_OK;
}

enum httpr_status
httpr_parse(const char *buf, size_t len, uint64_t body_max, struct httpr *r)
{
	size_t off = 0, nheaders = 0, cap = len < HTTPR_HEAD_MAX ? len :
	    HTTPR_HEAD_MAX;
	enum httpr_status st;

	memset(r, 0, sizeof *r);
	for (;;) {
		long e = httpline_end(buf, cap, off);

		if (e == -2)
			return REFUSE(r, HTTPR_BAD, "a bare CR or LF");
		if (e == -1)
			return len >= HTTPR_HEAD_MAX ? REFUSE(r, HTTPR_TOO_BIG,
			    "the request head is too large") : HTTPR_NEED;
		if (off == 0)
			st = request_line(buf, (size_t)e, r);
		else if ((size_t)e == off)
			break;
		else if (++nheaders > HTTPR_HEADERS_MAX)
			st = REFUSE(r, HTTPR_TOO_BIG, "too many header lines");
		else
			st = header(buf + off, (size_t)e - off, body_max, r);
		if (st != HTTPR_OK)
			return st;
		off = (size_t)e + 2;
	}
	r->head_len = off + 2;
	if (!r->http10 && !r->has_host)
		return REFUSE(r, HTTPR_BAD, "HTTP/1.1 without Host");
	if (r->method == HTTPR_POST && !r->has_length)
		return REFUSE(r, HTTPR_LENGTH, "a POST needs Content-Length");
	if (r->method == HTTPR_GET && r->content_length)
		return REFUSE(r, HTTPR_BAD, "a GET with a body");
	return HTTPR_OK;
}
