/* egress_allow_test.c - allow lists: the grammar (no wildcards, ranges,
 * spaces or empty entries), exact matching (no suffix, port or address
 * family slack), merging with duplicates dropped, the caps, and the text
 * form that round-trips. And the address classes the proxy refuses,
 * including every IPv6 form that carries one of them. And the runner's
 * --egress-allow: the word launcher, the launchers' hosts, one lease's
 * union. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "common/egress/addrclass.h"
#include "common/egress/egress_allow.h"
#include "common/egress/egress_lease.h"
#include "tap.h"

static int
add(struct egress_allow *a, const char *s)
{
	char err[256];

	return egress_allow_add(a, s, strlen(s), err, sizeof err);
}

static int
allows(const struct egress_allow *a, const char *authority)
{
	struct connect_target t;

	return connect_authority_parse(authority, strlen(authority), &t) == 0 &&
	    egress_allow_match(a, &t);
}

static void
lists(void)
{
	static const char *const bad[] = { ",", "a.com:443,", ",a.com:443",
		"a.com:443,,b.com:443", "a.com:443, b.com:443", "*.a.com:443",
		"a.com:*", "a.com:1-100", "a.com", "a.com:443 ", "A.com:0",
		"a.com:443\n", "127.1:80" };
	struct egress_allow a;
	char err[256], text[512], big[EGRESS_ALLOW_TEXT_MAX + 2];
	size_t n;

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		memset(&a, 0, sizeof a);
		ok(add(&a, "keep.me:1") == 0 && add(&a, bad[i]) != 0 &&
		    a.n == 1, "list \"%s\" refused, the list unchanged", bad[i]);
	}
	memset(&a, 0, sizeof a);
	ok(egress_allow_add(&a, "x.com:1,\x01", 9, err, sizeof err) != 0 &&
	    strstr(err, "\\x01") != NULL, "the message escapes the entry: %s",
	    err);
	memset(&a, 0, sizeof a);
	ok(add(&a, "") == 0 && a.n == 0, "an empty list adds nothing");
	ok(add(&a, "Registry.npmjs.org:443,10.0.0.5:8080,[fd00::1]:443") == 0
	    && a.n == 3, "three rules");
	ok(add(&a, "registry.npmjs.org:443,api.github.com:443") == 0 &&
	    a.n == 4, "a second list merges, duplicates dropped");
	ok(allows(&a, "registry.npmjs.org:443") &&
	    allows(&a, "REGISTRY.npmjs.org:443"), "exact name, any case");
	ok(!allows(&a, "registry.npmjs.org:80"), "another port is refused");
	ok(!allows(&a, "www.registry.npmjs.org:443") &&
	    !allows(&a, "npmjs.org:443") && !allows(&a, "registry.npmjs.or:443"),
	    "no suffix or prefix slack");
	ok(allows(&a, "10.0.0.5:8080") && !allows(&a, "10.0.0.6:8080"),
	    "an IPv4 literal rule");
	ok(!allows(&a, "[::ffff:10.0.0.5]:8080"),
	    "a mapped IPv6 form is not the IPv4 rule");
	ok(allows(&a, "[FD00:0::1]:443"), "IPv6 compared in canonical form");
	ok(egress_allow_text(&a, text, sizeof text) > 0 && strcmp(text,
	    "registry.npmjs.org:443,10.0.0.5:8080,[fd00::1]:443,"
	    "api.github.com:443") == 0, "text form: %s", text);
	{
		struct egress_allow b;

		memset(&b, 0, sizeof b);
		ok(add(&b, text) == 0 && b.n == a.n,
		    "the text form parses back");
	}
	ok(egress_allow_text(&a, text, 10) == -1, "a short buffer is -1");
	ok(egress_allow_canonical("b.io:1,A.io:1,a.io:1,[::1]:2", 28, text,
	    sizeof text, err, sizeof err) == 21 && strcmp(text,
	    "[::1]:2,a.io:1,b.io:1") == 0, "canonical: lower case, no "
	    "duplicates, ascending: %s", text);
	ok(egress_allow_canonical("", 0, text, sizeof text, err, sizeof err) ==
	    0 && text[0] == '\0', "canonical of nothing is empty");
	ok(egress_allow_canonical("a.io", 4, text, sizeof text, err,
	    sizeof err) < 0, "canonical refuses what add refuses");
	memset(&a, 0, sizeof a);
	n = 0;
	for (int i = 0; i < EGRESS_ALLOW_MAX; i++)
		n += (size_t)snprintf(big + n, sizeof big - n, "%sh%d.io:1",
		    i ? "," : "", i);
	ok(add(&a, big) == 0 && a.n == EGRESS_ALLOW_MAX, "%d rules fit",
	    EGRESS_ALLOW_MAX);
	ok(add(&a, "one.more:1") != 0 && a.n == EGRESS_ALLOW_MAX,
	    "one more is refused");
	memset(big, 'a', sizeof big);
	memset(&a, 0, sizeof a);
	ok(egress_allow_add(&a, big, EGRESS_ALLOW_TEXT_MAX + 1, err,
	    sizeof err) != 0, "text over the cap is refused");
}

struct class_case {
	const char *addr;
	enum addr_class want;
};

static void
classes(void)
{
	static const struct class_case cases[] = {
		{ "1.1.1.1", ADDR_PUBLIC }, { "104.16.0.35", ADDR_PUBLIC },
		{ "203.0.113.7", ADDR_PUBLIC }, { "198.51.100.1", ADDR_PUBLIC },
		{ "0.0.0.0", ADDR_UNSPECIFIED }, { "0.1.2.3", ADDR_UNSPECIFIED },
		{ "127.0.0.1", ADDR_LOOPBACK }, { "127.255.1.2", ADDR_LOOPBACK },
		{ "10.1.2.3", ADDR_PRIVATE }, { "172.16.0.1", ADDR_PRIVATE },
		{ "172.31.255.255", ADDR_PRIVATE }, { "172.32.0.1", ADDR_PUBLIC },
		{ "172.15.255.255", ADDR_PUBLIC }, { "192.168.9.9", ADDR_PRIVATE },
		{ "100.64.0.1", ADDR_CGNAT }, { "100.127.255.255", ADDR_CGNAT },
		{ "100.128.0.0", ADDR_PUBLIC }, { "100.63.255.255", ADDR_PUBLIC },
		{ "100.100.100.200", ADDR_METADATA },
		{ "169.254.169.254", ADDR_METADATA },
		{ "169.254.169.253", ADDR_LINKLOCAL },
		{ "169.254.0.1", ADDR_LINKLOCAL },
		{ "224.0.0.1", ADDR_MULTICAST }, { "239.255.255.250",
		  ADDR_MULTICAST },
		{ "240.0.0.1", ADDR_RESERVED }, { "255.255.255.255",
		  ADDR_RESERVED },
		{ "192.0.0.170", ADDR_RESERVED }, { "198.18.0.1", ADDR_RESERVED },
		{ "198.19.255.255", ADDR_RESERVED }, { "198.20.0.0", ADDR_PUBLIC },
		{ "2606:4700::6810:23", ADDR_PUBLIC },
		{ "2001:db8::1", ADDR_PUBLIC },
		{ "::", ADDR_UNSPECIFIED }, { "::1", ADDR_LOOPBACK },
		{ "::2", ADDR_UNSPECIFIED },
		{ "fc00::1", ADDR_PRIVATE }, { "fdff:ffff::1", ADDR_PRIVATE },
		{ "fec0::1", ADDR_PRIVATE },
		{ "fd00:ec2::254", ADDR_METADATA },
		{ "fe80::1", ADDR_LINKLOCAL }, { "febf::1", ADDR_LINKLOCAL },
		{ "ff02::1", ADDR_MULTICAST },
		{ "::ffff:127.0.0.1", ADDR_LOOPBACK },
		{ "::ffff:10.0.0.1", ADDR_PRIVATE },
		{ "::ffff:169.254.169.254", ADDR_METADATA },
		{ "::ffff:100.64.1.1", ADDR_CGNAT },
		{ "::ffff:0.0.0.0", ADDR_UNSPECIFIED },
		{ "::ffff:224.0.0.1", ADDR_MULTICAST },
		{ "::ffff:1.1.1.1", ADDR_PUBLIC },
		{ "::127.0.0.1", ADDR_LOOPBACK },
		{ "::169.254.169.254", ADDR_METADATA },
		{ "64:ff9b::a9fe:a9fe", ADDR_METADATA },
		{ "64:ff9b::10.0.0.1", ADDR_PRIVATE },
		{ "64:ff9b::1.1.1.1", ADDR_PUBLIC },
		{ "64:ff9b:1::1", ADDR_RESERVED },
		{ "2002:a9fe:a9fe::1", ADDR_RESERVED },
		{ "2001:0:1::1", ADDR_RESERVED },
		{ "100::1", ADDR_RESERVED }, { "::ffff:0:1.1.1.1",
		  ADDR_RESERVED },
		{ "1::1", ADDR_RESERVED }, { "2a00:1450::1", ADDR_PUBLIC },
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct sockaddr_in sin = { .sin_family = AF_INET };
		struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
		enum addr_class c, raw;

		/* the sockaddr form and the raw bytes' must agree */
		if (inet_pton(AF_INET, cases[i].addr, &sin.sin_addr) == 1) {
			c = addrclass_sockaddr((struct sockaddr *)&sin,
			    sizeof sin);
			raw = addrclass_v4((const uint8_t *)&sin.sin_addr);
		} else if (inet_pton(AF_INET6, cases[i].addr,
		    &s6.sin6_addr) == 1) {
			c = addrclass_sockaddr((struct sockaddr *)&s6,
			    sizeof s6);
			raw = addrclass_v6((const uint8_t *)&s6.sin6_addr);
		} else {
			ok(0, "test address %s parses", cases[i].addr);
			continue;
		}
		ok(c == raw, "sockaddr agrees on %s", cases[i].addr);
		ok(c == cases[i].want, "%s is %s (got %s)", cases[i].addr,
		    addrclass_name(cases[i].want), addrclass_name(c));
	}
	{
		struct sockaddr_in sin = { .sin_family = AF_INET };
		struct sockaddr sa = { .sa_family = AF_UNIX };

		ok(addrclass_sockaddr((struct sockaddr *)&sin, 4) ==
		    ADDR_RESERVED, "a short sockaddr is RESERVED");
		ok(addrclass_sockaddr(&sa, sizeof sa) == ADDR_RESERVED,
		    "another family is RESERVED");
		ok(strcmp(addrclass_name(ADDR_N_), "reserved") == 0,
		    "an out-of-range class names itself reserved");
	}
}

static void
runner_lists(void)
{
	static const char *const bad[] = { "", ",", "launcher,",
		",launcher", "launcher,,a.com:443", "launchers", "Launcher",
		"*.a.com:443" };
	static struct egress_config ec;
	static struct egress_allow a;
	char err[256];

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ok(egress_config_parse(&ec, bad[i], err, sizeof err) != 0,
		    "--egress-allow \"%s\" refused", bad[i]);
	ok(egress_config_parse(&ec, NULL, err, sizeof err) == 0 &&
	    ec.launcher && ec.base.n == 0, "the default is the word launcher");
	ok(egress_config_parse(&ec, "none", err, sizeof err) == 0 &&
	    !ec.launcher && ec.base.n == 0, "none is the empty list");
	ok(egress_config_parse(&ec, "a.com:443,launcher,b.com:80", err,
	    sizeof err) == 0 && ec.launcher && ec.base.n == 2,
	    "the word among host:port pairs");
	ok(strcmp(egress_launcher_hosts("npx"), "registry.npmjs.org:443") ==
	    0 && strcmp(egress_launcher_hosts("uvx"), egress_launcher_hosts(
	    "uv")) == 0 && *egress_launcher_hosts("uv") &&
	    !*egress_launcher_hosts("node") &&
	    !*egress_launcher_hosts("python3") &&
	    !*egress_launcher_hosts("npxx"), "the launchers' hosts");
	ok(egress_lease_rules(&ec, "npx", "c.com:443", 9, &a, err,
	    sizeof err) == 0 && a.n == 4 && allows(&a, "registry.npmjs.org:443")
	    && allows(&a, "c.com:443") && allows(&a, "a.com:443"),
	    "npx: the base, the registry, the approval's");
	ok(egress_lease_rules(&ec, NULL, "", 0, &a, err, sizeof err) == 0 &&
	    a.n == 2 && !allows(&a, "registry.npmjs.org:443"),
	    "a locked tree (no launcher): the base alone");
	ok(egress_lease_rules(&ec, "uvx", "", 0, &a, err, sizeof err) == 0 &&
	    allows(&a, "pypi.org:443") &&
	    allows(&a, "files.pythonhosted.org:443") &&
	    !allows(&a, "registry.npmjs.org:443"), "uvx: PyPI, not npm");
	ok(egress_config_parse(&ec, "a.com:443", err, sizeof err) == 0 &&
	    egress_lease_rules(&ec, "npx", "", 0, &a, err, sizeof err) == 0 &&
	    a.n == 1 && !allows(&a, "registry.npmjs.org:443"),
	    "a list without the word: no launcher's hosts");
	ok(egress_lease_rules(&ec, "npx", "a.com:443,", 10, &a, err,
	    sizeof err) != 0, "a bad approval list is refused");
}

int
main(void)
{
	lists();
	classes();
	runner_lists();
	return tap_done();
}
