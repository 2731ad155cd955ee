/* fuzz_surface.c - the surface document (common/mcp/surface) under
 * arbitrary bytes: no crash or overrun; what loads is canonical (the
 * same bytes come back from its parse) and every item of it compares
 * equal with itself, as does initialize's part (the document's own
 * root, read as an initialize result). */
#include <string.h>

#include "common/mcp/mcptap.h"
#include "common/mcp/surface.h"
#include "fuzz.h"

static uint32_t scratch[MCP_NODES_MAX];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct surface s;
	char why[256];

	if (surface_load(&s, data, size, why, sizeof why) != 0) {
		FUZZ_ASSERT(why[0] != '\0');
		surface_free(&s);
		return 0;
	}
	FUZZ_ASSERT(s.len == size && memcmp(s.text, data, size) == 0);
	for (int k = 0; k < SK_N_; k++) {
		const struct json_node *a = s.items[k];
		size_t i = json_index(&s.doc, a) + 1;

		for (uint32_t m = 0; m < a->count; m++) {
			const struct json_node *e = &s.doc.nodes[i];

			FUZZ_ASSERT(surface_check_item(&s, (enum surface_kind)k,
			    &s.doc, e, scratch, why, sizeof why) == 0);
			i = e->end;
		}
	}
	FUZZ_ASSERT(surface_check_init(&s, &s.doc, &s.doc.nodes[0], NULL, 0,
	    scratch, why, sizeof why) == 0);
	surface_free(&s);
	return 0;
}
