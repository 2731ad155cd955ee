/* fuzz_egress_allow.c - allow-list text (common/egress/egress_allow.c)
 * under arbitrary bytes, and the address classifier (addrclass.c) on
 * them. Invariants: a refused list leaves the list as it was; an
 * accepted one holds at most EGRESS_ALLOW_MAX rules, each matching
 * itself, and its text form parses back to the same rules; the
 * classifier answers a known class for any 4 or 16 bytes, and an IPv4
 * address and its ::ffff: form get the same class. The runner's
 * --egress-allow text and a lease's list made of it are
 * fuzz_egress_lease's. */
#include <string.h>

#include "common/egress/addrclass.h"
#include "common/egress/egress_allow.h"
#include "fuzz.h"

static struct egress_allow a, b;	/* about 17 KiB each */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[EGRESS_ALLOW_MAX * (CONNECT_HOST_MAX + 10)];
	char err[256];
	uint8_t v6[16] = { [10] = 0xff, [11] = 0xff };

	if (size >= 16) {
		FUZZ_ASSERT(addrclass_v6(data) < ADDR_N_);
		FUZZ_ASSERT(addrclass_v4(data) < ADDR_N_);
		memcpy(v6 + 12, data, 4);
		FUZZ_ASSERT(addrclass_v6(v6) == addrclass_v4(data));
	}
	memset(&a, 0, sizeof a);
	FUZZ_ASSERT(egress_allow_add(&a, "keep.me:1", 9, err, sizeof err) == 0);
	if (egress_allow_add(&a, (const char *)data, size, err, sizeof err)) {
		FUZZ_ASSERT(a.n == 1);
		return 0;
	}
	FUZZ_ASSERT(a.n >= 1 && a.n <= EGRESS_ALLOW_MAX);
	for (size_t i = 0; i < a.n; i++)
		FUZZ_ASSERT(egress_allow_match(&a, &a.rule[i]));
	FUZZ_ASSERT(egress_allow_text(&a, text, sizeof text) >= 0);
	memset(&b, 0, sizeof b);
	FUZZ_ASSERT(egress_allow_add(&b, text, strlen(text), err,
	    sizeof err) == 0);
	FUZZ_ASSERT(b.n == a.n);
	for (size_t i = 0; i < a.n; i++)
		FUZZ_ASSERT(egress_allow_match(&b, &a.rule[i]));
	return 0;
}
