/* fuzz_mcptap.c - the runner's MCP tap under arbitrary traffic both ways,
 * observing and enforcing (the first byte's low bit; the tool list is
 * "echo,x"), with or without a surface pin (its second bit: a pin of
 * tools echo and x, a prompt p, a template t and capabilities): chunks alternate
 * between the client's and the server's side (each chunk's first byte:
 * its side and length), so requests, responses,
 * partial lines and garbage interleave as a hostile pair would write
 * them. No crash; the table of calls in flight never passes its size;
 * enforcing, the outboxes stay within their caps and every line they
 * pass on is whole; the lease's end leaves no call in flight. */
#include <string.h>

#include "common/base/log.h"
#include "common/mcp/mcptap.h"
#include "common/mcp/surface.h"
#include "fuzz.h"

static struct mcp_tap tap;
static const char pin_text[] = "{\"capabilities\":{\"tools\":{}},"
    "\"instructions\":\"i\",\"prompts\":"
    "[{\"name\":\"p\"}],\"protocolVersion\":\"2025-11-25\","
    "\"resourceTemplates\":[{\"name\":\"t\",\"uriTemplate\":\"f:///{p}\"}],"
    "\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"},\"tools\":"
    "[{\"description\":\"E.\",\"name\":\"echo\"},{\"name\":\"x\"}]}";
static struct surface pin;

/* Take everything an outbox holds: it ends at a newline. */
static void
empty(struct mcp_outbox *box)
{
	const uint8_t *p;
	size_t n, total = 0, last = 0;

	FUZZ_ASSERT(box->len <= box->cap && box->off <= box->len);
	while ((n = mcp_outbox_take(box, 4096, &p)) > 0) {
		total += n;
		last = p[n - 1];
	}
	FUZZ_ASSERT(total == 0 || last == '\n');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char tools[] = "echo,x";
	static int quiet;
	int enforce;

	if (!quiet) {
		log_set_level(LOG_ERROR);	/* the records themselves */
		quiet = 1;
	}
	if (size < 1)
		return 0;
	if (!pin.text) {
		char why[128];

		FUZZ_ASSERT(surface_load(&pin, (const uint8_t *)pin_text,
		    sizeof pin_text - 1, why, sizeof why) == 0);
	}
	enforce = data[0] & 3;
	data++;
	size--;
	mcp_tap_init(&tap, &(struct mcp_who){ "l", "t", "r", "" });
	if (enforce & 1)
		mcp_tap_enforce(&tap, (const uint8_t *)tools,
		    sizeof tools - 1);
	if (enforce & 2)
		mcp_tap_pin(&tap, &pin);
	while (size > 0) {
		size_t n = (size_t)(data[0] >> 1) + 1;
		int server = data[0] & 1, rc = 0;

		data++;
		size--;
		if (n > size)
			n = size;
		if (enforce && server)
			rc = mcp_tap_server_bytes(&tap, data, n);
		else if (enforce)
			rc = mcp_tap_client_bytes(&tap, data, n);
		else if (server)
			mcp_tap_from_server(&tap, data, n);
		else
			mcp_tap_from_client(&tap, data, n);
		FUZZ_ASSERT(tap.inflight <= MCP_PENDING_MAX);
		if (rc != 0) {
			FUZZ_ASSERT(tap.why[0] != '\0');
			break;
		}
		if (enforce) {
			empty(&tap.to_server);
			empty(&tap.to_client);
		}
		data += n;
		size -= n;
	}
	mcp_tap_end(&tap);
	FUZZ_ASSERT(tap.inflight == 0);
	return 0;
}
