/* fuzz_jsonparse.c - the strict JSON parser (common/mcp/jsonparse.c)
 * under arbitrary bytes: what an MCP server's stdout or a client's
 * request may hold. The first byte picks the limits (small ones reach
 * every refusal, large ones deep documents); the rest is the text.
 * Invariants: the same bytes give the same answer; a refusal's offset
 * is inside the input; an accepted document is a well-formed pre-order
 * tree (each node's subtree ends within its parent's, a container's
 * count is its children, an object's keys are strings, none equal to
 * another once decoded), every node's text lies inside the input and
 * within its limit, every string decodes to code points a JSON text may
 * hold (no surrogate, none past U+10FFFF) and json_get finds each key. */
#include <string.h>

#include "common/mcp/jsonparse.h"
#include "fuzz.h"

#define NODES 512

static struct json_node nodes[NODES], again[NODES];
static uint32_t scratch[NODES], keys[NODES];

/* Node i's subtree, checked; the index one past it. */
static size_t
check_tree(const struct json_doc *d, const struct json_limits *lim,
    size_t i, unsigned depth)
{
	const struct json_node *v = &d->nodes[i];
	size_t k = i + 1, children = 0;

	FUZZ_ASSERT(v->type <= JSON_OBJECT);
	FUZZ_ASSERT(v->off <= d->src_len && v->len <= d->src_len - v->off);
	FUZZ_ASSERT(v->end > i && v->end <= d->n);
	if (v->type == JSON_STRING) {
		size_t pos = 0, cps = 0;
		uint32_t cp;

		FUZZ_ASSERT(v->len <= lim->string);
		while (json_str_next(d, v, &pos, &cp)) {
			FUZZ_ASSERT(cp < 0x110000 && (cp < 0xd800 ||
			    cp > 0xdfff));
			FUZZ_ASSERT(++cps <= v->len);
		}
	}
	if (v->type == JSON_NUMBER)
		FUZZ_ASSERT(v->len >= 1 && v->len <= lim->number);
	if (v->type != JSON_ARRAY && v->type != JSON_OBJECT) {
		FUZZ_ASSERT(v->end == i + 1);
		return k;
	}
	FUZZ_ASSERT(depth <= lim->depth && v->count <= lim->members);
	while (k < v->end) {
		if (v->type == JSON_OBJECT) {
			FUZZ_ASSERT(d->nodes[k].type == JSON_STRING);
			k = check_tree(d, lim, k, depth + 1);
			FUZZ_ASSERT(k < v->end);
		}
		k = check_tree(d, lim, k, depth + 1);
		children++;
	}
	FUZZ_ASSERT(k == v->end && children == v->count);
	if (v->type == JSON_OBJECT && v->count > 1) {
		json_sort_keys(d, v, keys);
		for (size_t m = 1; m < v->count; m++)
			FUZZ_ASSERT(json_str_cmp(d, &d->nodes[keys[m - 1]],
			    &d->nodes[keys[m]]) < 0);
	}
	return k;
}

/* Each key of each object is found by json_get under its decoded
 * bytes (when it decodes without a NUL and fits). */
static void
check_get(const struct json_doc *d)
{
	char key[64];

	for (size_t i = 0; i < d->n; i++) {
		const struct json_node *v = &d->nodes[i];
		size_t k = i + 1;

		if (v->type != JSON_OBJECT)
			continue;
		for (uint32_t m = 0; m < v->count; m++) {
			long n = json_str_copy(d, &d->nodes[k], key,
			    sizeof key);

			if (n >= 0) {
				FUZZ_ASSERT(json_str_eq(d, &d->nodes[k], key,
				    (size_t)n));
				FUZZ_ASSERT(json_get(d, v, key, (size_t)n) ==
				    &d->nodes[k + 1]);
			}
			k = d->nodes[k + 1].end;
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct json_limits pick[4] = {
		{ 3, 8, 6, 3, 24 }, { 8, 64, 32, 16, 128 },
		{ 64, 4096, 64, 256, NODES }, { 1, 1, 1, 1, 2 },
	};
	const struct json_limits *lim;
	struct json_doc d, d2;
	enum json_status st;

	if (size < 1)
		return 0;
	lim = &pick[data[0] & 3];
	data++;
	size--;
	st = json_parse(&d, data, size, lim, nodes, NODES, scratch);
	FUZZ_ASSERT(st < JSON_STATUS_MAX_);
	FUZZ_ASSERT(strcmp(json_status_name(st), "unknown") != 0);
	FUZZ_ASSERT(json_parse(&d2, data, size, lim, again, NODES,
	    scratch) == st);
	if (st != JSON_OK) {
		FUZZ_ASSERT(d.err_off <= size);
		FUZZ_ASSERT(d2.err_off == d.err_off);
		return 0;
	}
	FUZZ_ASSERT(d.n >= 1 && d.n <= lim->nodes && d.n == d2.n);
	FUZZ_ASSERT(memcmp(nodes, again, d.n * sizeof *nodes) == 0);
	FUZZ_ASSERT(check_tree(&d, lim, 0, 1) == d.n);
	check_get(&d);
	return 0;
}
