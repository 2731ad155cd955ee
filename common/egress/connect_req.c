/* connect_req.c - a strict, bounded parser for the egress proxy's CONNECT
 * request and for the host:port grammar it shares with the allow list. */
#include "common/egress/connect_req.h"

#include <arpa/inet.h>
#include <string.h>

#include "common/service/httpline.h"

static int
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int
is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
is_hex(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static unsigned char
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* Plain decimal without a leading zero, at most max; -1 otherwise. */
static long
decimal(const char *s, size_t len, long max)
{
	long v = 0;

	if (len == 0 || len > 5 || (len > 1 && s[0] == '0'))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!is_digit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v <= max ? v : -1;
}

static int
parse_ipv4(const char *s, size_t len, uint8_t out[4])
{
	size_t start = 0, part = 0;

	for (size_t i = 0; i <= len; i++) {
		long v;

		if (i < len && s[i] != '.')
			continue;
		if (part == 4 || (v = decimal(s + start, i - start, 255)) < 0)
			return -1;
		out[part++] = (uint8_t)v;
		start = i + 1;
	}
	return part == 4 ? 0 : -1;
}

static int
parse_ipv6(const char *s, size_t len, struct connect_target *t)
{
	char text[64];

	/* inet_pton takes no length: a bounded copy of checked bytes */
	if (len < 2 || len > 45)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!is_hex((unsigned char)s[i]) && s[i] != ':' && s[i] != '.')
			return -1;
	memcpy(text, s, len);
	text[len] = '\0';
	if (inet_pton(AF_INET6, text, t->addr) != 1 ||
	    !inet_ntop(AF_INET6, t->addr, t->host, sizeof t->host))
		return -1;
	t->kind = CONNECT_HOST_IPV6;
	return 0;
}

static int
parse_name(const char *s, size_t len, struct connect_target *t)
{
	size_t label = 0, last = 0;

	if (len == 0 || len > CONNECT_HOST_MAX)
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '.') {
			if (label == 0 || s[i - 1] == '-')
				return -1;
			t->host[i] = '.';
			label = 0;
			last = i + 1;
			continue;
		}
		if (!is_alpha(c) && !is_digit(c) && c != '-')
			return -1;
		if ((label == 0 && c == '-') || ++label > 63)
			return -1;
		t->host[i] = (char)lower(c);
	}
	if (label == 0 || s[len - 1] == '-' || !is_alpha((unsigned char)
	    s[last]))
		return -1;
	t->host[len] = '\0';
	t->kind = CONNECT_HOST_NAME;
	return 0;
}

int
connect_authority_parse(const char *s, size_t len, struct connect_target *t)
{
	size_t colon = len;
	long port;

	memset(t, 0, sizeof *t);
	while (colon > 0 && s[colon - 1] != ':')
		colon--;
	if (colon == 0)
		return -1;
	port = decimal(s + colon, len - colon, 65535);
	if (port <= 0)
		return -1;
	t->port = (uint16_t)port;
	colon--;			/* now at the ':' */
	if (colon > 0 && s[0] == '[') {
		if (s[colon - 1] != ']')
			return -1;
		return parse_ipv6(s + 1, colon - 2, t);
	}
	if (parse_ipv4(s, colon, t->addr) == 0) {
		memcpy(t->host, s, colon);
		t->host[colon] = '\0';
		t->kind = CONNECT_HOST_IPV4;
		return 0;
	}
	return parse_name(s, colon, t);
}

static enum connect_req_status
request_line(const char *p, size_t n, struct connect_req *req)
{
	size_t m = 0, alen;
	const char *auth, *ver;

	while (m < n && httpline_tchar((unsigned char)p[m]))
		m++;
	if (m == 0 || m == n || p[m] != ' ')
		return CONNECT_REQ_BAD;
	auth = p + m + 1;
	ver = memchr(auth, ' ', n - m - 1);
	if (!ver)
		return CONNECT_REQ_BAD;
	alen = (size_t)(ver - auth);
	ver++;
	if (n - (size_t)(ver - p) != 8 || (memcmp(ver, "HTTP/1.1", 8) != 0 &&
	    memcmp(ver, "HTTP/1.0", 8) != 0))
		return CONNECT_REQ_BAD;
	if (m != 7 || memcmp(p, "CONNECT", 7) != 0)
		return CONNECT_REQ_METHOD;
	if (connect_authority_parse(auth, alen, &req->target) != 0)
		return CONNECT_REQ_BAD;
	return CONNECT_REQ_OK;
}

enum connect_req_status
connect_req_parse(const char *buf, size_t len, struct connect_req *req)
{
	size_t off = 0, nheaders = 0;
	size_t cap = len < CONNECT_REQ_MAX ? len : CONNECT_REQ_MAX;
	enum connect_req_status first = CONNECT_REQ_NEED;

	memset(req, 0, sizeof *req);
	for (;;) {
		long e = httpline_end(buf, cap, off);

		if (e == -2)
			return CONNECT_REQ_BAD;
		if (e == -1)
			return len >= CONNECT_REQ_MAX ? CONNECT_REQ_TOO_BIG :
			    CONNECT_REQ_NEED;
		if (off == 0) {
			first = request_line(buf, (size_t)e, req);
			if (first == CONNECT_REQ_BAD)
				return CONNECT_REQ_BAD;
		} else if ((size_t)e == off) {
			req->used = off + 2;	/* the empty line */
			return first;
		} else if (++nheaders > CONNECT_REQ_HEADERS_MAX ||
		    !httpline_header_ok(buf + off, (size_t)e - off)) {
			return CONNECT_REQ_BAD;
		}
		off = (size_t)e + 2;
	}
}
