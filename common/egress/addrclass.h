/* addrclass.h - what kind of address the egress proxy is about to
 * connect to. Everything but ADDR_PUBLIC is refused unless the allow list
 * names that very address as an IP literal (common/egress/egress_proxy.c).
 * IPv6 forms that carry an IPv4 address (mapped ::ffff:0:0/96, the
 * deprecated compatible ::/96, NAT64 64:ff9b::/96) are classed by the
 * IPv4 address inside, so ::ffff:169.254.169.254 is METADATA. Transition
 * prefixes that reach an address we cannot see (6to4 2002::/16, Teredo
 * 2001::/32, local NAT64 64:ff9b:1::/48) are RESERVED. The documentation
 * ranges (192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32) are
 * PUBLIC: they route nowhere, and the tests use them as "internet". */
#ifndef AIRLOCK_ADDRCLASS_H
#define AIRLOCK_ADDRCLASS_H

#include <stdint.h>
#include <sys/socket.h>

enum addr_class {
	ADDR_PUBLIC,
	ADDR_UNSPECIFIED,	/* 0.0.0.0/8, :: */
	ADDR_LOOPBACK,		/* 127/8, ::1 */
	ADDR_PRIVATE,		/* 10/8, 172.16/12, 192.168/16, fc00::/7,
				 * fec0::/10 (site-local) */
	ADDR_CGNAT,		/* 100.64/10 */
	ADDR_LINKLOCAL,		/* 169.254/16, fe80::/10 */
	ADDR_METADATA,		/* 169.254.169.254, 100.100.100.200,
				 * fd00:ec2::254 */
	ADDR_MULTICAST,		/* 224/4, ff00::/8 */
	ADDR_RESERVED,		/* 240/4 and broadcast, 192.0.0/24,
				 * 198.18/15, 192.88.99/24, other ::/8,
				 * 100::/64, transition prefixes */
	ADDR_N_
};

enum addr_class addrclass_v4(const uint8_t a[4]);
enum addr_class addrclass_v6(const uint8_t a[16]);

/* An AF_INET or AF_INET6 sockaddr of len bytes; anything else (another
 * family, a short length) is RESERVED. */
enum addr_class addrclass_sockaddr(const struct sockaddr *sa, socklen_t len);

/* "public" "unspecified" "loopback" ... (logs, the proxy's reason). */
const char *addrclass_name(enum addr_class c);

#endif
