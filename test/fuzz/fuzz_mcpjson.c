/* fuzz_mcpjson.c - the strict JSON parser (common/mcp/jsonparse) and its
 * canonical form (jcs) under arbitrary bytes: no crash or overrun at
 * small limits; what is accepted canonicalises (unless a number is not
 * a finite double), the canonical bytes parse again and are their own
 * canonical form (idempotent), and every string of the document decodes
 * without passing its bytes. The ndjson framer cuts the same bytes into
 * lines, whatever the chunking. */
#include <string.h>

#include "common/mcp/jcs.h"
#include "common/mcp/ndjson.h"
#include "fuzz.h"

#define IN_MAX 65536
#define NODES 4096

static struct json_node nodes[NODES], nodes2[NODES];
static uint32_t scratch[NODES];
static uint8_t canon[4 * IN_MAX], again[4 * IN_MAX], linebuf[256];

static void
frame(const uint8_t *p, size_t n, size_t step)
{
	struct ndjson f;
	size_t off = 0, total = 0;

	ndjson_init(&f, linebuf, sizeof linebuf);
	while (off < n) {
		size_t chunk = n - off < step ? n - off : step, at = 0;

		while (at < chunk) {
			const uint8_t *line;
			size_t len = 0, used = 0;
			enum ndjson_next nx = ndjson_take(&f, p + off + at,
			    chunk - at, &used, &line, &len);

			FUZZ_ASSERT(used <= chunk - at);
			FUZZ_ASSERT(used > 0 || chunk - at == 0);
			at += used;
			if (nx == NDJSON_LINE) {
				FUZZ_ASSERT(len <= sizeof linebuf);
				FUZZ_ASSERT(memchr(line, '\n', len) == NULL);
				total += len + 1;
			}
			FUZZ_ASSERT(ndjson_pending(&f) <= sizeof linebuf);
		}
		off += chunk;
	}
	FUZZ_ASSERT(total <= n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* first byte: the limits' scale */
	struct json_limits lim;
	struct json_doc d, d2;
	struct jcs_buf b = { canon, sizeof canon, 0 };
	struct jcs_buf b2 = { again, sizeof again, 0 };
	struct jcs_sink s = { jcs_buf_put, &b }, s2 = { jcs_buf_put, &b2 };

	if (size < 1 || size - 1 > IN_MAX)
		return 0;
	lim = (struct json_limits){ 1u + (data[0] & 31), 1u + 4u * data[0],
		1u + (data[0] & 63), 1u + (data[0] & 127), NODES };
	data++;
	size--;
	frame(data, size, 1 + (size & 15));
	if (json_parse(&d, data, size, &lim, nodes, NODES, scratch) !=
	    JSON_OK) {
		FUZZ_ASSERT(d.err_off <= size);
		return 0;
	}
	FUZZ_ASSERT(d.n >= 1 && d.n <= NODES && d.nodes[0].end == d.n);
	for (size_t i = 0; i < d.n; i++) {
		size_t pos = 0, got = 0;
		uint32_t cp;

		FUZZ_ASSERT(d.nodes[i].off + (size_t)d.nodes[i].len <= size);
		FUZZ_ASSERT(d.nodes[i].end > i && d.nodes[i].end <= d.n);
		if (d.nodes[i].type != JSON_STRING)
			continue;
		while (json_str_next(&d, &d.nodes[i], &pos, &cp)) {
			FUZZ_ASSERT(cp <= 0x10ffff &&
			    (cp < 0xd800 || cp > 0xdfff));
			got++;
		}
		FUZZ_ASSERT(pos == d.nodes[i].len && got <= pos);
	}
	if (jcs_write(&d, &d.nodes[0], &s, scratch) != 0)
		return 0;	/* a number past a double, only */
	lim = (struct json_limits){ 64, 4 * IN_MAX, 64, NODES, NODES };
	FUZZ_ASSERT(json_parse(&d2, canon, b.len, &lim, nodes2, NODES,
	    scratch) == JSON_OK);
	FUZZ_ASSERT(jcs_write(&d2, &d2.nodes[0], &s2, scratch) == 0);
	FUZZ_ASSERT(b2.len == b.len && memcmp(canon, again, b.len) == 0);
	FUZZ_ASSERT(d2.n == d.n);
	return 0;
}
