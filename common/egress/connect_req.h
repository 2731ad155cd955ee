/* connect_req.h - the one request the egress proxy takes, parsed strictly
 * from untrusted bytes (a lease's client):
 *     CONNECT host:port HTTP/1.1 (or HTTP/1.0)
 * then header lines "Name: value" of visible ASCII, then an empty line;
 * CRLF line ends only, at most CONNECT_REQ_MAX bytes, at most
 * CONNECT_REQ_HEADERS_MAX headers (their values are never used or
 * logged: Proxy-Authorization may hold a secret). Any other method,
 * including an absolute-form "GET http://..." request, is METHOD: the
 * proxy only tunnels (see docs/SECURITY.md, "Egress by name").
 *
 * The authority (host:port) has one grammar, shared with the allow list
 * (common/egress/egress_allow.h), so a rule and a request compare as bytes:
 *   name   labels of [a-z0-9-] (upper case is folded), 1..63 bytes each,
 *          no leading or trailing '-', 253 bytes at most, no trailing
 *          dot; the last label starts with a letter (so "127.1" or
 *          "0x7f000001", which a resolver may read as IPv4, are refused);
 *   ipv4   a dotted quad in plain decimal (no leading zero, 0..255);
 *   ipv6   in brackets, hex digits, ':' and '.', no zone ("%eth0"),
 *          stored in canonical inet_ntop form without brackets;
 *   port   1..65535 in plain decimal, no leading zero, always present. */
#ifndef AIRLOCK_CONNECT_REQ_H
#define AIRLOCK_CONNECT_REQ_H

#include <stddef.h>
#include <stdint.h>

#define CONNECT_REQ_MAX 4096
#define CONNECT_REQ_HEADERS_MAX 32
#define CONNECT_HOST_MAX 253

enum connect_host_kind { CONNECT_HOST_NAME, CONNECT_HOST_IPV4,
	CONNECT_HOST_IPV6 };

struct connect_target {
	char host[CONNECT_HOST_MAX + 1];	/* NUL-terminated, lower case */
	enum connect_host_kind kind;
	uint16_t port;
	uint8_t addr[16];			/* ipv4: 4 bytes; ipv6: 16 */
};

enum connect_req_status {
	CONNECT_REQ_NEED,	/* a prefix of a valid request: read more */
	CONNECT_REQ_OK,		/* complete: target set, *used bytes */
	CONNECT_REQ_BAD,	/* malformed (answer 400) */
	CONNECT_REQ_METHOD,	/* well-formed, not CONNECT (answer 405) */
	CONNECT_REQ_TOO_BIG	/* no end within CONNECT_REQ_MAX (431) */
};

struct connect_req {
	struct connect_target target;
	size_t used;		/* bytes of the request; any after are the
				 * client's first tunnel bytes */
};

/* Parse "host:port" (exactly len bytes) into t. 0, or -1 (t undefined). */
int connect_authority_parse(const char *s, size_t len,
    struct connect_target *t);

/* Parse the request at the start of buf (the whole prefix received so
 * far: resumable by calling again with more). */
enum connect_req_status connect_req_parse(const char *buf, size_t len,
    struct connect_req *req);

#endif
