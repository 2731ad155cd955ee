/* pending_test.c - the pending-handshake table: sources (IPv4, IPv4-mapped,
 * IPv6 /64, unix uid), the per-source cap, fair eviction when full, and
 * random early drop only for sources at their share. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "common/service/pending.h"
#include "tap.h"

/* The source of a peer at address a: IPv4 when it is spelled so, else
 * IPv6 (an IPv4-mapped one included). */
static struct pending_source
ip(const char *a)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct pending_source s;

	if (inet_pton(AF_INET, a, &sin.sin_addr) == 1) {
		pending_source_of(&s, (struct sockaddr *)&sin, sizeof sin,
		    (uid_t)-1);
		return s;
	}
	inet_pton(AF_INET6, a, &sin6.sin6_addr);
	pending_source_of(&s, (struct sockaddr *)&sin6, sizeof sin6, (uid_t)-1);
	return s;
}

static struct pending_source
unix_uid(uid_t uid)
{
	struct sockaddr sa = { .sa_family = AF_UNIX };
	struct pending_source s;

	pending_source_of(&s, &sa, sizeof sa, uid);
	return s;
}

static int
same(struct pending_source a, struct pending_source b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static struct pending p;

int
main(void)
{
	struct pending_source a, b, c, heavy;
	char text[64];
	int early = 0, admitted = 0;

	ok(same(ip("10.0.0.1"), ip("10.0.0.1")) &&
	    !same(ip("10.0.0.1"), ip("10.0.0.2")),
	    "IPv4: each address is a source");
	ok(same(ip("10.0.0.1"), ip("::ffff:10.0.0.1")),
	    "an IPv4-mapped IPv6 address is its IPv4 source");
	ok(same(ip("2001:db8:1:2::1"), ip("2001:db8:1:2:ffff::9")) &&
	    !same(ip("2001:db8:1:2::1"), ip("2001:db8:1:3::1")),
	    "IPv6: one /64 is one source");
	ok(same(unix_uid(1000), unix_uid(1000)) &&
	    !same(unix_uid(1000), unix_uid(1001)),
	    "unix: one peer uid is one source");
	{
		struct sockaddr_in l1 = { .sin_family = AF_INET }, l2 = l1;
		struct pending_source s1, s2;

		inet_pton(AF_INET, "127.0.0.2", &l1.sin_addr);
		inet_pton(AF_INET, "127.0.0.9", &l2.sin_addr);
		pending_source_of(&s1, (struct sockaddr *)&l1, sizeof l1, 1000);
		pending_source_of(&s2, (struct sockaddr *)&l2, sizeof l2, 1000);
		ok(same(s1, s2) && same(s1, unix_uid(1000)),
		    "a local TCP peer is its uid, whichever of 127/8");
		pending_source_text(&s1, text, sizeof text);
		ok(strcmp(text, "local uid 1000") == 0,
		    "... logged as \"local uid 1000\"");
	}
	ok(!same(unix_uid(0x0a000001), ip("10.0.0.1")),
	    "a uid never equals an IPv4 address with the same bits");
	pending_source_text(&(struct pending_source){ 0 }, text, sizeof text);
	a = ip("2001:db8:1:2::1");
	pending_source_text(&a, text, sizeof text);
	ok(strcmp(text, "2001:db8:1:2::/64") == 0, "a /64 is logged as one");

	pending_init(&p, 8, 3);
	a = ip("10.0.0.1");
	b = ip("10.0.0.2");
	c = ip("10.0.0.3");
	for (int i = 0; i < 3; i++) {
		ok(pending_decide(&p, &a, 0, &heavy) == PENDING_ADMIT,
		    "a's handshake %d is admitted", i + 1);
		pending_add(&p, &a);
	}
	ok(pending_decide(&p, &a, 0, &heavy) == PENDING_REFUSE_SOURCE,
	    "a's fourth is refused: per_source 3");
	ok(pending_decide(&p, &b, 0, &heavy) == PENDING_ADMIT,
	    "another source is not");
	pending_remove(&p, &a);
	ok(pending_count(&p, &a) == 2 &&
	    pending_decide(&p, &a, 0, &heavy) == PENDING_ADMIT,
	    "a handshake that ended frees its place");

	/* fill to 8: a 3, b 3, c 2 */
	pending_add(&p, &a);
	for (int i = 0; i < 3; i++)
		pending_add(&p, &b);
	pending_add(&p, &c);
	pending_add(&p, &c);
	ok(p.total == 8, "the table is full");
	ok(pending_decide(&p, &c, 0, &heavy) == PENDING_ADMIT_EVICT &&
	    (same(heavy, a) || same(heavy, b)),
	    "full: a source one short of the heaviest evicts from it");
	ok(pending_decide(&p, &(struct pending_source){ PENDING_IPV4,
	    { 9, 9, 9, 9 } }, 0, &heavy) == PENDING_ADMIT_EVICT &&
	    (same(heavy, a) || same(heavy, b)),
	    "full: a new source evicts one of a heaviest source");

	/* full of sources holding as many each: the next of one is
	 * dropped, a new source's taken */
	pending_init(&p, 4, 4);
	for (int i = 0; i < 2; i++) {
		pending_add(&p, &a);
		pending_add(&p, &b);
	}
	ok(pending_decide(&p, &a, 0, &heavy) == PENDING_DROP_FULL,
	    "full: a source holding as many as the heaviest evicts no one");
	pending_init(&p, 3, 4);
	pending_add(&p, &a);
	pending_add(&p, &b);
	pending_add(&p, &c);
	heavy = unix_uid(7);
	ok(pending_decide(&p, &heavy, 0, &heavy) == PENDING_ADMIT_EVICT,
	    "full of one idle handshake per source: a new source gets in");

	/* random early drop: past half, a source at its share only */
	pending_init(&p, 8, 8);
	for (int i = 0; i < 5; i++)
		pending_add(&p, &a);
	pending_add(&p, &b);	/* two sources: a share is 4 */
	for (uint32_t r = 0; r < 400; r++)
		early += pending_decide(&p, &a, r, &heavy) ==
		    PENDING_DROP_EARLY;
	ok(early > 0 && early < 400,
	    "6 of 8: a source over its share is dropped sometimes (%d/400)",
	    early);
	for (uint32_t r = 0; r < 400; r++)
		admitted += pending_decide(&p, &b, r, &heavy) == PENDING_ADMIT;
	ok(admitted == 400, "... a source below its share never is");
	pending_init(&p, 8, 8);
	for (int i = 0; i < 3; i++)
		pending_add(&p, &a);
	early = 0;
	for (uint32_t r = 0; r < 400; r++)
		early += pending_decide(&p, &a, r, &heavy) ==
		    PENDING_DROP_EARLY;
	ok(early == 0, "below half nothing is dropped early");
	for (int i = 0; i < 3; i++)
		pending_remove(&p, &a);
	ok(p.total == 0 && p.nsources == 0, "the table empties");
	pending_remove(&p, &a);
	ok(p.total == 0, "removing what is not there changes nothing");
	return tap_done();
}
