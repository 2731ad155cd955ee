/* connect_req_test.c - the egress proxy's request parser on its edges:
 * the accepted shapes, each authority form and its near misses (names a
 * resolver would read as numbers, zones, leading zeros, ports), every
 * line-end trick, other methods and the absolute form, header syntax and
 * the caps, and NEED on every proper prefix of a good request. */
#include <string.h>

#include "common/egress/connect_req.h"
#include "tap.h"

struct auth_case {
	const char *text;
	const char *host;	/* canonical */
	enum connect_host_kind kind;
	unsigned port;
};

struct req_case {
	const char *text;
	enum connect_req_status want;
};

static void
authorities(void)
{
	static const struct auth_case accepted[] = {
		{ "registry.npmjs.org:443", "registry.npmjs.org",
		  CONNECT_HOST_NAME, 443 },
		{ "Registry.NPMJS.org:443", "registry.npmjs.org",
		  CONNECT_HOST_NAME, 443 },
		{ "localhost:1", "localhost", CONNECT_HOST_NAME, 1 },
		{ "a-b.c9:65535", "a-b.c9", CONNECT_HOST_NAME, 65535 },
		{ "1.2.3.4:80", "1.2.3.4", CONNECT_HOST_IPV4, 80 },
		{ "255.255.255.255:80", "255.255.255.255", CONNECT_HOST_IPV4,
		  80 },
		{ "[::1]:443", "::1", CONNECT_HOST_IPV6, 443 },
		{ "[2001:DB8:0:0::1]:443", "2001:db8::1", CONNECT_HOST_IPV6,
		  443 },
		{ "[::ffff:169.254.169.254]:80", "::ffff:169.254.169.254",
		  CONNECT_HOST_IPV6, 80 },
		/* review: every spelling of this host and the metadata name
		 * comes out canonical */
		{ "0.0.0.0:80", "0.0.0.0", CONNECT_HOST_IPV4, 80 },
		{ "[::]:80", "::", CONNECT_HOST_IPV6, 80 },
		{ "[0:0:0:0:0:ffff:127.0.0.1]:80", "::ffff:127.0.0.1",
		  CONNECT_HOST_IPV6, 80 },
		{ "[::ffff:7f00:1]:80", "::ffff:127.0.0.1", CONNECT_HOST_IPV6,
		  80 },
		{ "LOCALHOST:443", "localhost", CONNECT_HOST_NAME, 443 },
		{ "Metadata.Google.Internal:80", "metadata.google.internal",
		  CONNECT_HOST_NAME, 80 },
		{ "xn--e1afmkfd.xn--p1ai:443", "xn--e1afmkfd.xn--p1ai",
		  CONNECT_HOST_NAME, 443 },
	};
	/* near misses: ports, names, numbers, IPv6 forms */
	static const char *const refused[] = {
		"example.com:0", "example.com:65536", "example.com:0443",
		"example.com:+443", "example.com:", "example.com", ":443",
		"example.com.:443", ".example.com:443", "a..b:443",
		"-a.com:443", "a-.com:443", "a.com-:443", "a_b.com:443",
		"*.example.com:443", "exa mple.com:443", "example.com:443:443",
		"user@example.com:443",
		"127.1:80", "0x7f000001:80", "2130706433:80", "a.0x7f:80",
		"01.2.3.4:80", "1.2.3.256:80", "1.2.3:80", "1.2.3.4.5:80",
		"::1:443", "[::1%lo]:443", "[::1]443", "[]:443",
		"[1.2.3.4]:443", "[::g]:443", "[:443", "",
		/* review: numbers a resolver or inet_aton would accept, a
		 * trailing dot, zones, spaces, IDN bytes */
		"localhost.:443", "0177.0.0.1:80", "0x7f.0.0.1:80", "0x7f.1:80",
		"017700000001:80", "a.1e100:80", "1.2.3.4.:80", " 1.2.3.4:80",
		"1.2.3.4 :80", "[fe80::1%25eth0]:80", "[::ffff:1.2.3.4]:080",
		"[::ffff:01.2.3.4]:80", "169.254.169.254:80\r",
		"\xd0\xbf\xd1\x80.com:443",
	};
	struct connect_target t;
	char label[80];

	for (size_t i = 0; i < sizeof accepted / sizeof *accepted; i++) {
		const struct auth_case *c = &accepted[i];

		ok(connect_authority_parse(c->text, strlen(c->text), &t) == 0 &&
		    strcmp(t.host, c->host) == 0 && t.kind == c->kind &&
		    t.port == c->port, "authority \"%s\" ok", c->text);
	}
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
		ok(connect_authority_parse(refused[i], strlen(refused[i]),
		    &t) != 0, "authority \"%s\" refused", refused[i]);
	/* label and name length limits */
	memset(label, 'a', 63);
	memcpy(label + 63, ".com:1", 7);
	ok(connect_authority_parse(label, strlen(label), &t) == 0,
	    "a 63-byte label");
	memset(label, 'a', 64);
	memcpy(label + 64, ".com:1", 7);
	ok(connect_authority_parse(label, strlen(label), &t) != 0,
	    "a 64-byte label is refused");
	{
		char name[300];

		/* four labels of 63, 63, 63 and 61 bytes: 253 in all */
		memset(name, 'a', sizeof name);
		name[63] = name[127] = name[191] = '.';
		memcpy(name + 253, ":9", 2);
		ok(connect_authority_parse(name, 255, &t) == 0 &&
		    strlen(t.host) == 253, "a 253-byte name");
		memset(name, 'a', sizeof name);
		name[63] = name[127] = name[191] = '.';
		memcpy(name + 254, ":9", 2);
		ok(connect_authority_parse(name, 256, &t) != 0,
		    "a 254-byte name is refused");
	}
	ok(connect_authority_parse("a.com:443\0x", 11, &t) != 0,
	    "an embedded NUL is refused");
}

static void
requests(void)
{
	static const struct req_case cases[] = {
		{ "CONNECT a.com:443 HTTP/1.1\r\n\r\n", CONNECT_REQ_OK },
		{ "CONNECT a.com:443 HTTP/1.0\r\nHost: a.com:443\r\n"
		  "User-Agent: npm/10\r\nProxy-Connection: keep-alive\r\n\r\n",
		  CONNECT_REQ_OK },
		{ "CONNECT [::1]:443 HTTP/1.1\r\n\r\n", CONNECT_REQ_OK },
		{ "GET http://a.com/ HTTP/1.1\r\nHost: a.com\r\n\r\n",
		  CONNECT_REQ_METHOD },
		{ "connect a.com:443 HTTP/1.1\r\n\r\n", CONNECT_REQ_METHOD },
		{ "POST / HTTP/1.1\r\n\r\n", CONNECT_REQ_METHOD },
		{ "CONNECT a.com:443 HTTP/1.1\n\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com:443 HTTP/1.1\r\nA: b\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com:443 HTTP/1.1\rX\r\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com:443 HTTP/1.1\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT  a.com:443 HTTP/1.1\r\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com:443  HTTP/1.1\r\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com:443 HTTP/2\r\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com:443 HTTP/1.1 \r\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com:443\r\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com HTTP/1.1\r\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT http://a.com:443 HTTP/1.1\r\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com:443/x HTTP/1.1\r\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT 127.1:443 HTTP/1.1\r\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com:443 HTTP/1.1\r\nNo colon\r\n\r\n",
		  CONNECT_REQ_BAD },
		{ "CONNECT a.com:443 HTTP/1.1\r\n: v\r\n\r\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com:443 HTTP/1.1\r\n folded: x\r\n\r\n",
		  CONNECT_REQ_BAD },
		{ "CONNECT a.com:443 HTTP/1.1\r\nA: \x7f\r\n\r\n",
		  CONNECT_REQ_BAD },
		{ "CONNECT a.com:443 HTTP/1.1\r\nA: \x80\r\n\r\n",
		  CONNECT_REQ_BAD },
		{ "\r\n", CONNECT_REQ_BAD },
		{ "CONNECT a.com:443 HTTP/1.1\r\n", CONNECT_REQ_NEED },
		{ "CONNECT a.com:443 HTTP/1.1\r\nHost: a\r\n\r", CONNECT_REQ_NEED },
		{ "CONN", CONNECT_REQ_NEED },
		{ "", CONNECT_REQ_NEED },
	};
	static char big[CONNECT_REQ_MAX + 64];
	struct connect_req r;
	const char *good = "CONNECT Registry.npmjs.org:443 HTTP/1.1\r\n"
	    "Host: registry.npmjs.org:443\r\n\r\n\x16\x03\x01";
	size_t n, glen = strlen(good);

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		ok(connect_req_parse(cases[i].text, strlen(cases[i].text), &r)
		    == cases[i].want, "request %zu", i);
	ok(connect_req_parse(good, glen, &r) == CONNECT_REQ_OK &&
	    strcmp(r.target.host, "registry.npmjs.org") == 0 &&
	    r.target.port == 443 && r.used == glen - 3,
	    "target lower-cased, used stops before the tunnel bytes");
	for (n = 0; n < glen - 3; n++)
		if (connect_req_parse(good, n, &r) != CONNECT_REQ_NEED)
			break;
	ok(n == glen - 3, "every proper prefix is NEED");
	/* 33 headers */
	n = (size_t)snprintf(big, sizeof big, "CONNECT a.com:1 HTTP/1.1\r\n");
	for (int h = 0; h < CONNECT_REQ_HEADERS_MAX + 1; h++)
		n += (size_t)snprintf(big + n, sizeof big - n, "H%d: x\r\n", h);
	n += (size_t)snprintf(big + n, sizeof big - n, "\r\n");
	ok(connect_req_parse(big, n, &r) == CONNECT_REQ_BAD,
	    "more than %d headers is BAD", CONNECT_REQ_HEADERS_MAX);
	/* no end within the cap */
	n = (size_t)snprintf(big, sizeof big, "CONNECT a.com:1 HTTP/1.1\r\n"
	    "X: ");
	memset(big + n, 'a', sizeof big - n);
	ok(connect_req_parse(big, CONNECT_REQ_MAX - 1, &r) == CONNECT_REQ_NEED,
	    "one byte under the cap is NEED");
	ok(connect_req_parse(big, CONNECT_REQ_MAX, &r) == CONNECT_REQ_TOO_BIG,
	    "the cap without an end is TOO_BIG");
	ok(connect_req_parse(big, sizeof big, &r) == CONNECT_REQ_TOO_BIG,
	    "past the cap is TOO_BIG");
	/* an end just past the cap does not count */
	n = (size_t)snprintf(big, sizeof big, "CONNECT a.com:1 HTTP/1.1\r\n"
	    "X: ");
	memset(big + n, 'a', CONNECT_REQ_MAX - n - 3);
	memcpy(big + CONNECT_REQ_MAX - 3, "\r\n\r\n", 4);
	ok(connect_req_parse(big, CONNECT_REQ_MAX + 1, &r) ==
	    CONNECT_REQ_TOO_BIG, "an end past the cap is TOO_BIG");
}

int
main(void)
{
	authorities();
	requests();
	return tap_done();
}
