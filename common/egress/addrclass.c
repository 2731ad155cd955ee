/* addrclass.c - special-purpose address ranges (RFC 6890 and the cloud
 * metadata endpoints), for the egress proxy's refusal. */
#include "common/egress/addrclass.h"

#include <netinet/in.h>
#include <string.h>

/* a within prefix/bits (both in network byte order, bytes) */
static int
in_prefix(const uint8_t *a, const uint8_t *prefix, unsigned bits)
{
	unsigned whole = bits / 8, rest = bits % 8;

	if (memcmp(a, prefix, whole) != 0)
		return 0;
	return rest == 0 || ((a[whole] ^ prefix[whole]) &
	    (0xff00u >> rest) & 0xff) == 0;
}

enum addr_class
addrclass_v4(const uint8_t a[4])
{
	static const struct { uint8_t p[4]; unsigned bits; enum addr_class c; }
	    ranges[] = {	/* the most specific first */
		{ { 169, 254, 169, 254 }, 32, ADDR_METADATA },
		{ { 100, 100, 100, 200 }, 32, ADDR_METADATA },
		{ { 0, 0, 0, 0 }, 8, ADDR_UNSPECIFIED },
		{ { 127, 0, 0, 0 }, 8, ADDR_LOOPBACK },
		{ { 10, 0, 0, 0 }, 8, ADDR_PRIVATE },
		{ { 172, 16, 0, 0 }, 12, ADDR_PRIVATE },
		{ { 192, 168, 0, 0 }, 16, ADDR_PRIVATE },
		{ { 100, 64, 0, 0 }, 10, ADDR_CGNAT },
		{ { 169, 254, 0, 0 }, 16, ADDR_LINKLOCAL },
		{ { 224, 0, 0, 0 }, 4, ADDR_MULTICAST },
		{ { 240, 0, 0, 0 }, 4, ADDR_RESERVED },
		{ { 192, 0, 0, 0 }, 24, ADDR_RESERVED },
		{ { 192, 88, 99, 0 }, 24, ADDR_RESERVED },
		{ { 198, 18, 0, 0 }, 15, ADDR_RESERVED },
	};

	for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
		if (in_prefix(a, ranges[i].p, ranges[i].bits))
			return ranges[i].c;
	return ADDR_PUBLIC;
}

enum addr_class
addrclass_v6(const uint8_t a[16])
{
	static const uint8_t zero[16], mapped[12] = { [10] = 0xff,
		[11] = 0xff }, nat64[12] = { 0, 0x64, 0xff, 0x9b },
	    metadata[16] = { 0xfd, 0, 0x0e, 0xc2, [14] = 0x02,
		[15] = 0x54 };
	static const struct { uint8_t p[16]; unsigned bits; enum addr_class c; }
	    ranges[] = {
		{ { 0, 0x64, 0xff, 0x9b, 0, 1 }, 48, ADDR_RESERVED },
		{ { 0x20, 0x02 }, 16, ADDR_RESERVED },
		{ { 0x20, 0x01, 0, 0 }, 32, ADDR_RESERVED },
		{ { 0x01, 0 }, 64, ADDR_RESERVED },
		{ { 0xfe, 0x80 }, 10, ADDR_LINKLOCAL },
		{ { 0xfe, 0xc0 }, 10, ADDR_PRIVATE },
		{ { 0xfc }, 7, ADDR_PRIVATE },
		{ { 0xff }, 8, ADDR_MULTICAST },
	};

	if (memcmp(a, metadata, 16) == 0)
		return ADDR_METADATA;
	if (memcmp(a, zero, 16) == 0)
		return ADDR_UNSPECIFIED;
	if (memcmp(a, zero, 15) == 0 && a[15] == 1)
		return ADDR_LOOPBACK;
	/* forms that carry an IPv4 address: its class, not ours */
	if (memcmp(a, mapped, 12) == 0 || memcmp(a, zero, 12) == 0 ||
	    memcmp(a, nat64, 12) == 0)
		return addrclass_v4(a + 12);
	if (a[0] == 0)		/* the rest of ::/8 */
		return ADDR_RESERVED;
	for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
		if (in_prefix(a, ranges[i].p, ranges[i].bits))
			return ranges[i].c;
	return ADDR_PUBLIC;
}

enum addr_class
addrclass_sockaddr(const struct sockaddr *sa, socklen_t len)
{
	if (sa->sa_family == AF_INET && len >= (socklen_t)sizeof(struct
	    sockaddr_in))
		return addrclass_v4((const uint8_t *)&((const struct
		    sockaddr_in *)sa)->sin_addr);
	if (sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct
	    sockaddr_in6))
		return addrclass_v6(((const struct sockaddr_in6 *)sa)->
		    sin6_addr.s6_addr);
	return ADDR_RESERVED;
}

const char *
addrclass_name(enum addr_class c)
{
	static const char *const names[ADDR_N_] = { "public", "unspecified",
		"loopback", "private", "cgnat", "link-local", "metadata",
		"multicast", "reserved" };

	return (unsigned)c < ADDR_N_ ? names[c] : "reserved";
}
