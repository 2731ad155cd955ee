/* fuzz_netaddr.c - the address parser (operator and environment input:
 * --listen, --connect, AIRLOCK_RUNNER) under arbitrary text. */
#include <string.h>

#include "common/wire/netaddr.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[1024], err[512];
	struct netaddr a;

	if (size >= sizeof text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (netaddr_parse(&a, text, err, sizeof err) == 0) {
		FUZZ_ASSERT(strlen(a.host) < sizeof a.host);
		FUZZ_ASSERT(a.is_unix || (a.host[0] && a.port[0]));
	} else {
		FUZZ_ASSERT(err[0] != '\0');
	}
	return 0;
}
