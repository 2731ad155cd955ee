/* fuzz_mcptap.c - the runner's MCP tap under arbitrary traffic both ways:
 * chunks alternate between the client's and the server's side (each
 * chunk's first byte: its side and length), so requests, responses,
 * partial lines and garbage interleave as a hostile pair would write
 * them. No crash, the table of calls in flight never passes its size, and
 * the lease's end leaves none. */
#include "common/base/log.h"
#include "common/mcp/mcptap.h"
#include "fuzz.h"

static struct mcp_tap tap;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int quiet;

	if (!quiet) {
		log_set_level(LOG_ERROR);	/* the records themselves */
		quiet = 1;
	}
	mcp_tap_init(&tap, &(struct mcp_who){ "l", "t", "r", "" });
	while (size > 0) {
		size_t n = (size_t)(data[0] >> 1) + 1;
		int server = data[0] & 1;

		data++;
		size--;
		if (n > size)
			n = size;
		if (server)
			mcp_tap_from_server(&tap, data, n);
		else
			mcp_tap_from_client(&tap, data, n);
		FUZZ_ASSERT(tap.inflight <= MCP_PENDING_MAX);
		data += n;
		size -= n;
	}
	mcp_tap_end(&tap);
	FUZZ_ASSERT(tap.inflight == 0);
	return 0;
}
