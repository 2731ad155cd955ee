/* jail_test.c - the jail's pure parts, without root: the operator's
 * option values, the namespace and Landlock sets a configuration asks for,
 * lease ids and the registration unit's key. */
#include <sched.h>
#include <string.h>

#include "common/jail/jail.h"
#include "common/jail/jail_options.h"
#include "common/jail/jail_probe.h"
#include "common/jail/landlock.h"
#include "tap.h"

static void
test_names(void)
{
	static const char *const modes[] = { "none", "uid", "ns" };
	static const char *const units[] = { "lease", "registration" };
	static const char *const lls[] = { "auto", "require", "off" };
	static const char *const bad[] = { "", "NS", " ns", "ns ", "nsx",
		"n", "Lease", "requires", "of", "none\n" };
	enum jail_mode m;
	enum jail_unit u;
	enum jail_landlock l;
	int ok_all = 1;

	for (size_t i = 0; i < 3; i++)
		ok_all &= jail_mode_parse(modes[i], &m) == 0 &&
		    strcmp(jail_mode_name(m), modes[i]) == 0;
	for (size_t i = 0; i < 2; i++)
		ok_all &= jail_unit_parse(units[i], &u) == 0 &&
		    strcmp(jail_unit_name(u), units[i]) == 0;
	for (size_t i = 0; i < 3; i++)
		ok_all &= jail_landlock_parse(lls[i], &l) == 0 &&
		    strcmp(jail_landlock_name(l), lls[i]) == 0;
	ok(ok_all, "every mode, unit and Landlock name parses back to itself");
	ok_all = 1;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		m = JAIL_NS;
		ok_all &= jail_mode_parse(bad[i], &m) == -1 && m == JAIL_NS &&
		    jail_unit_parse(bad[i], &u) == -1 &&
		    jail_landlock_parse(bad[i], &l) == -1;
	}
	ok(ok_all, "near misses (case, space, prefix, suffix) are refused, "
	    "the value untouched");
}

static void
test_ports(void)
{
	static const struct {
		const char *s;
		size_t cap;
		long n;
		uint16_t first, last;
	} cases[] = {
		{ "443", 4, 1, 443, 443 },
		{ "443,80", 4, 2, 443, 80 },
		{ "1,65535", 4, 2, 1, 65535 },
		{ "1,2,3,4", 4, 4, 1, 4 },
		{ "1,2,3,4,5", 4, -1, 0, 0 },	/* over cap */
		{ "", 4, -1, 0, 0 },
		{ "0", 4, -1, 0, 0 },
		{ "080", 4, -1, 0, 0 },
		{ "65536", 4, -1, 0, 0 },
		{ "100000", 4, -1, 0, 0 },
		{ "443,", 4, -1, 0, 0 },
		{ ",443", 4, -1, 0, 0 },
		{ "443,,80", 4, -1, 0, 0 },
		{ "443,443", 4, -1, 0, 0 },
		{ " 443", 4, -1, 0, 0 },
		{ "+443", 4, -1, 0, 0 },
		{ "443 ", 4, -1, 0, 0 },
		{ "4a", 4, -1, 0, 0 },
		{ "443", 0, -1, 0, 0 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint16_t p[8] = { 0 };
		long n = jail_ports_parse(cases[i].s, p, cases[i].cap);

		ok(n == cases[i].n && (n < 0 || (p[0] == cases[i].first &&
		    p[n - 1] == cases[i].last)), "ports '%s' (cap %zu): %ld",
		    cases[i].s, cases[i].cap, n);
	}
}

static void
test_flags(void)
{
	struct jail_config c;
	int base = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |
	    CLONE_NEWUTS | CLONE_NEWCGROUP;
	unsigned always = LANDLOCK_FEAT_FS | LANDLOCK_FEAT_TRUNCATE |
	    LANDLOCK_FEAT_SCOPE_SIGNAL | LANDLOCK_FEAT_SCOPE_ABSTRACT;
	uint16_t port = 443;

	memset(&c, 0, sizeof c);
	ok(jail_ns_flags(&c) == base, "ns mode: user, mount, pid, IPC, UTS "
	    "and cgroup namespaces, the host network");
	ok(jail_uid_private_flags(&c) == 0, "uid mode: no private namespace "
	    "without new_net or a disk");
	ok(jail_landlock_wanted(&c) == (always | LANDLOCK_FEAT_BIND),
	    "Landlock: paths, truncate, scopes and no TCP bind by default");
	c.new_net = 1;
	ok(jail_ns_flags(&c) == (base | CLONE_NEWNET) &&
	    jail_uid_private_flags(&c) == CLONE_NEWNET,
	    "new_net adds a network namespace in both modes");
	c.new_net = 0;
	c.limits.disk = 1 << 20;
	ok(jail_uid_private_flags(&c) == CLONE_NEWNS &&
	    jail_ns_flags(&c) == base, "a disk gives uid mode a mount "
	    "namespace");
	c.allow_bind = 1;
	ok(jail_landlock_wanted(&c) == always, "allow_bind drops the bind "
	    "denial");
	c.egress_ports = &port;
	c.negress = 1;
	ok(jail_landlock_wanted(&c) == (always | LANDLOCK_FEAT_CONNECT),
	    "egress ports ask for the TCP connect allowlist");
}

static void
test_ids(void)
{
	char max[JAIL_ID_MAX + 2];

	memset(max, 'a', sizeof max);
	max[JAIL_ID_MAX] = '\0';
	ok(jail_id_valid("abc-DEF_09") && jail_id_valid("x") &&
	    jail_id_valid(max), "ids: letters, digits, '-', '_', 1 to %d",
	    JAIL_ID_MAX);
	max[JAIL_ID_MAX] = 'a';
	max[JAIL_ID_MAX + 1] = '\0';
	ok(!jail_id_valid(max) && !jail_id_valid("") &&
	    !jail_id_valid("a/b") && !jail_id_valid("..") &&
	    !jail_id_valid("a.b") && !jail_id_valid("a b") &&
	    !jail_id_valid("a+b") && !jail_id_valid("\xc3\xa9"),
	    "ids: too long, empty, '/', '.', space, '+', non-ASCII refused");
}

static void
test_reg_key(void)
{
	struct jail_request rq;
	char key[64];

	memset(&rq, 0, sizeof rq);
	rq.tenant = "t1";
	rq.registration = "r.1";
	ok(jail_reg_key(&rq, key, sizeof key) == 0 &&
	    strcmp(key, "t1+r.1") == 0, "key: tenant+registration (%s)", key);
	rq.approval = "AbC-_9";
	ok(jail_reg_key(&rq, key, sizeof key) == 0 &&
	    strcmp(key, "t1+r.1+AbC-_9") == 0 &&
	    jail_key_family_len(key) == strlen("t1+r.1+"),
	    "key with an approval: its own, sharing the family prefix");
	ok(jail_key_family_len("plain") == 0, "no '+': no family");
	ok(jail_reg_key(&rq, key, strlen("t1+r.1+AbC-_9")) == -1 &&
	    jail_reg_key(&rq, key, strlen("t1+r.1+AbC-_9") + 1) == 0,
	    "a key that does not fit is refused, exactly at the edge");
	rq.approval = NULL;
	rq.tenant = ".hidden";
	ok(jail_reg_key(&rq, key, sizeof key) == -1, "a key starting with "
	    "'.' is refused");
	rq.tenant = "t";
	rq.registration = "a/../../b";
	ok(jail_reg_key(&rq, key, sizeof key) == -1, "a key holding '/' is "
	    "refused");
}

int
main(void)
{
	test_names();
	test_ports();
	test_flags();
	test_ids();
	test_reg_key();
	return tap_done();
}
