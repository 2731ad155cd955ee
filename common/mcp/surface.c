/* surface.c - a server's MCP surface: the pinned document, its checks,
 * and its building at capture (surface.h). */
#include "common/mcp/surface.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lock/lockstore.h"

const char *const surface_kind_names[SK_N_] = {
	"tool", "prompt", "resource template"
};
const char *const surface_kind_keys[SK_N_] = {
	"tools", "prompts", "resourceTemplates"
};

static const struct json_limits doc_limits = {
	64, SURFACE_TEXT_MAX, 64, SURFACE_MEMBERS_MAX, SURFACE_NODES_MAX
};

void
surface_name(const struct json_doc *d, const struct json_node *name,
    char *out, size_t cap)
{
	size_t pos = 0, at = 0;
	uint32_t cp;

	while (name && name->type == JSON_STRING && at + 4 < cap &&
	    json_str_next(d, name, &pos, &cp))
		out[at++] = cp >= 0x20 && cp < 0x7f && cp != '\'' ?
		    (char)cp : '?';
	if (name && name->type == JSON_STRING && at + 4 >= cap)
		at += (size_t)snprintf(out + at, cap - at, "...");
	out[at] = '\0';
}

void
surface_free(struct surface *s)
{
	free(s->text);
	free(s->nodes);
	free(s->scratch);
	memset(s, 0, sizeof *s);
}

static int
refuse(char *err, size_t cap, const char *what)
{
	snprintf(err, cap, "not a surface document: %s", what);
	return -1;
}

/* The item of kind k named like name (of doc d), or NULL. */
static const struct json_node *
pinned(const struct surface *s, enum surface_kind k, const struct json_doc *d,
    const struct json_node *name)
{
	const struct json_node *a = s->items[k];
	size_t i = json_index(&s->doc, a) + 1;

	for (uint32_t m = 0; m < a->count; m++) {
		const struct json_node *e = &s->doc.nodes[i];
		const struct json_node *n = json_get(&s->doc, e, "name", 4);

		if (jcs_str_equal(&s->doc, n, d, name))
			return e;
		i = e->end;
	}
	return NULL;
}

/* Each item an object with a string name, no name twice. */
static int
items_valid(struct surface *s, enum surface_kind k, char *err, size_t cap)
{
	const struct json_node *a = s->items[k];
	size_t i = json_index(&s->doc, a) + 1;

	if (a->count > SURFACE_ITEMS_MAX)
		return refuse(err, cap, "too many items");
	for (uint32_t m = 0; m < a->count; m++) {
		const struct json_node *e = &s->doc.nodes[i];
		const struct json_node *n = json_get(&s->doc, e, "name", 4);
		char text[80];

		if (e->type != JSON_OBJECT || !n || n->type != JSON_STRING)
			return refuse(err, cap, "an item without a string "
			    "name");
		if (pinned(s, k, &s->doc, n) != e) {
			surface_name(&s->doc, n, text, sizeof text);
			snprintf(err, cap, "two %ss named '%s': an item is "
			    "found by its name", surface_kind_names[k], text);
			return -1;
		}
		i = e->end;
	}
	return 0;
}

/* The document's members: exactly the known keys, each of its type. */
static int
shape(struct surface *s, char *err, size_t cap)
{
	const struct json_node *root = &s->doc.nodes[0];
	size_t known = 0;

	if (root->type != JSON_OBJECT)
		return refuse(err, cap, "not an object");
	s->protocol = json_get(&s->doc, root, "protocolVersion", 15);
	s->server_info = json_get(&s->doc, root, "serverInfo", 10);
	s->instructions = json_get(&s->doc, root, "instructions", 12);
	s->capabilities = json_get(&s->doc, root, "capabilities", 12);
	if (!s->protocol || s->protocol->type != JSON_STRING ||
	    !s->server_info || s->server_info->type != JSON_OBJECT ||
	    (s->instructions && s->instructions->type != JSON_STRING) ||
	    (s->capabilities && s->capabilities->type != JSON_OBJECT))
		return refuse(err, cap, "protocolVersion, serverInfo, "
		    "capabilities or instructions");
	known = 2 + (s->instructions != NULL) + (s->capabilities != NULL);
	for (int k = 0; k < SK_N_; k++) {
		const char *key = surface_kind_keys[k];

		s->items[k] = json_get(&s->doc, root, key, strlen(key));
		if (!s->items[k] || s->items[k]->type != JSON_ARRAY)
			return refuse(err, cap, "a list is missing");
		if (items_valid(s, (enum surface_kind)k, err, cap) != 0)
			return -1;
		known++;
	}
	if (root->count != known)
		return refuse(err, cap, "a member it does not define");
	return 0;
}

/* The bytes are their own canonical form: one document, one digest. */
static int
canonical(struct surface *s, char *err, size_t cap)
{
	uint8_t *out = malloc(s->len);
	struct jcs_buf b = { out, s->len, 0 };
	struct jcs_sink sink = { jcs_buf_put, &b };
	int ok;

	if (!out)
		return refuse(err, cap, "out of memory");
	ok = jcs_write(&s->doc, &s->doc.nodes[0], &sink, s->scratch) == 0 &&
	    b.len == s->len && memcmp(out, s->text, s->len) == 0;
	free(out);
	return ok ? 0 : refuse(err, cap, "not in canonical form (RFC 8785)");
}

int
surface_load(struct surface *s, const uint8_t *p, size_t n, char *err,
    size_t errcap)
{
	enum json_status st;
	struct json_limits lim;

	memset(s, 0, sizeof *s);
	if (n == 0 || n > SURFACE_TEXT_MAX)
		return refuse(err, errcap, "empty or too long");
	/* a value takes a byte of text at least */
	s->cap = n < SURFACE_NODES_MAX ? n + 1 : SURFACE_NODES_MAX;
	s->text = malloc(n);
	s->nodes = calloc(s->cap, sizeof *s->nodes);
	s->scratch = calloc(2 * s->cap, sizeof *s->scratch);
	if (!s->text || !s->nodes || !s->scratch)
		return refuse(err, errcap, "out of memory");
	memcpy(s->text, p, n);
	s->len = n;
	lim = doc_limits;
	if (lim.members > s->cap)
		lim.members = s->cap;
	st = json_parse(&s->doc, s->text, n, &lim, s->nodes, s->cap,
	    s->scratch);
	if (st != JSON_OK) {
		snprintf(err, errcap, "not a surface document: %s at byte %zu",
		    json_status_name(st), s->doc.err_off);
		return -1;
	}
	if (shape(s, err, errcap) != 0)
		return -1;
	return canonical(s, err, errcap);
}

int
surface_read(struct surface *s, const char *dir, const uint8_t digest[32],
    char *err, size_t errcap)
{
	uint8_t *text;
	size_t len;
	int rc;

	memset(s, 0, sizeof *s);
	if ((rc = lock_load(dir, LOCK_JSON, digest, &text, &len, err,
	    errcap)) != 0) {
		if (rc == -2)
			snprintf(err, errcap, "the surface file's bytes are "
			    "not its digest's (changed after approval)");
		return -1;
	}
	rc = surface_load(s, text, len, err, errcap);
	free(text);
	return rc;
}

/* The first member by which objects a (of doc da) and b (the pin's)
 * differ, named into why: SD_SAME when none. */
static enum surface_diff
first_difference(struct surface *s, const struct json_doc *da,
    const struct json_node *a, const struct json_node *b, uint32_t *sa,
    const char *what, char *why, size_t cap)
{
	uint32_t *sb = s->scratch;
	uint32_t ia = 0, ib = 0;
	char key[64];

	if (a->type != JSON_OBJECT) {
		snprintf(why, cap, "%s is no longer an object", what);
		return SD_MALFORMED;
	}
	json_sort_keys(da, a, sa);
	json_sort_keys(&s->doc, b, sb);
	while (ia < a->count || ib < b->count) {
		const struct json_node *ka = ia < a->count ?
		    &da->nodes[sa[ia]] : NULL;
		const struct json_node *kb = ib < b->count ?
		    &s->doc.nodes[sb[ib]] : NULL;
		int c;

		c = !ka || !kb ? (ka ? -1 : 1) :
		    json_str_cmp2(da, ka, &s->doc, kb);
		if (c == 0 && jcs_equal(da, ka + 1, &s->doc, kb + 1,
		    sa + a->count, sb + b->count)) {
			ia++;
			ib++;
			continue;
		}
		surface_name(c <= 0 ? da : &s->doc, c <= 0 ? ka : kb, key,
		    sizeof key);
		snprintf(why, cap, "%s: %s %s", what, key, c == 0 ?
		    "changed" : c < 0 ? "added" : "removed");
		return SD_CHANGED;
	}
	return SD_SAME;
}

enum surface_diff
surface_check_item(struct surface *s, enum surface_kind k,
    const struct json_doc *d, const struct json_node *item,
    uint32_t *scratch, char *why, size_t cap)
{
	const struct json_node *name = item->type == JSON_OBJECT ?
	    json_get(d, item, "name", 4) : NULL;
	const struct json_node *pin;
	char text[80], what[128];

	if (!name || name->type != JSON_STRING) {
		snprintf(why, cap, "a %s without a string name",
		    surface_kind_names[k]);
		return SD_MALFORMED;
	}
	surface_name(d, name, text, sizeof text);
	snprintf(what, sizeof what, "%s '%s'", surface_kind_names[k], text);
	if ((pin = pinned(s, k, d, name)) == NULL) {
		snprintf(why, cap, "%s is not in the pin (added)", what);
		return SD_UNPINNED;
	}
	return first_difference(s, d, item, pin, scratch, what, why, cap);
}

/* One pinned member of initialize's result (pin NULL: absent). */
static enum surface_diff
init_member(struct surface *s, const struct json_doc *d,
    const struct json_node *result, const char *key,
    const struct json_node *pin, uint32_t *scratch, char *why, size_t cap)
{
	const struct json_node *v = json_get(d, result, key, strlen(key));

	if (!v && !pin)
		return SD_SAME;
	if (v && pin && jcs_equal(d, v, &s->doc, pin, scratch, s->scratch))
		return SD_SAME;
	snprintf(why, cap, "initialize: %s %s", key, !pin ? "added" : !v ?
	    "removed" : "changed");
	return SD_CHANGED;
}

/* v's canonical text into out (SURFACE_VERSION_MAX bytes) when v is a
 * string: its length, or 0. */
static size_t
version_text(const struct json_doc *d, const struct json_node *v,
    uint32_t *scratch, uint8_t *out)
{
	struct jcs_buf b = { out, SURFACE_VERSION_MAX, 0 };
	struct jcs_sink sink = { jcs_buf_put, &b };

	if (!v || v->type != JSON_STRING || jcs_write(d, v, &sink,
	    scratch) != 0)
		return 0;
	return b.len;
}

size_t
surface_asked_version(const struct json_doc *d,
    const struct json_node *params, uint32_t *scratch,
    uint8_t out[SURFACE_VERSION_MAX])
{
	if (!params || params->type != JSON_OBJECT)
		return 0;
	return version_text(d, json_get(d, params, "protocolVersion", 15),
	    scratch, out);
}

/* The answer's protocolVersion: the pin's, or the client's own. */
static enum surface_diff
init_version(struct surface *s, const struct json_doc *d,
    const struct json_node *result, const uint8_t *asked, size_t asked_len,
    uint32_t *scratch, char *why, size_t cap)
{
	const struct json_node *v = json_get(d, result, "protocolVersion", 15);
	uint8_t text[SURFACE_VERSION_MAX];
	size_t n;

	if (!v || v->type != JSON_STRING) {
		snprintf(why, cap, "initialize: protocolVersion is not a "
		    "string");
		return SD_MALFORMED;
	}
	if (jcs_equal(d, v, &s->doc, s->protocol, scratch, s->scratch))
		return SD_SAME;
	n = version_text(d, v, scratch, text);
	if (asked_len > 0 && n == asked_len && memcmp(text, asked, n) == 0)
		return SD_SAME;
	snprintf(why, cap, "initialize: protocolVersion changed (neither the "
	    "pin's nor the one the client asked for)");
	return SD_CHANGED;
}

enum surface_diff
surface_check_init(struct surface *s, const struct json_doc *d,
    const struct json_node *result, const uint8_t *asked, size_t asked_len,
    uint32_t *scratch, char *why, size_t cap)
{
	enum surface_diff how;

	if (result->type != JSON_OBJECT) {
		snprintf(why, cap, "initialize: the result is not an object");
		return SD_MALFORMED;
	}
	if ((how = init_version(s, d, result, asked, asked_len, scratch, why,
	    cap)) != SD_SAME)
		return how;
	if (init_member(s, d, result, "serverInfo", s->server_info, scratch,
	    why, cap) || init_member(s, d, result, "capabilities",
	    s->capabilities, scratch, why, cap) || init_member(s, d, result,
	    "instructions", s->instructions, scratch, why, cap))
		return SD_CHANGED;
	return SD_SAME;
}

/* ---- building ------------------------------------------------------- */

int
surface_builder_init(struct surface_builder *b)
{
	struct jcs_buf *all[SK_N_ + 4] = { &b->part[0], &b->part[1],
		&b->part[2], &b->protocol, &b->server_info, &b->instructions,
		&b->capabilities };

	memset(b, 0, sizeof *b);
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		all[i]->cap = SURFACE_TEXT_MAX;
		if ((all[i]->p = malloc(SURFACE_TEXT_MAX)) == NULL)
			return -1;
	}
	return 0;
}

void
surface_builder_free(struct surface_builder *b)
{
	for (int k = 0; k < SK_N_; k++)
		free(b->part[k].p);
	free(b->protocol.p);
	free(b->server_info.p);
	free(b->instructions.p);
	free(b->capabilities.p);
	memset(b, 0, sizeof *b);
}

/* v's canonical form appended to buf; 0 or -1. */
static int
add(struct jcs_buf *buf, const struct json_doc *d, const struct json_node *v,
    uint32_t *scratch)
{
	struct jcs_sink sink = { jcs_buf_put, buf };

	return jcs_write(d, v, &sink, scratch);
}

int
surface_add_init(struct surface_builder *b, const struct json_doc *d,
    const struct json_node *result, uint32_t *scratch, char *why,
    size_t cap)
{
	const struct json_node *pv = json_get(d, result, "protocolVersion", 15);
	const struct json_node *si = json_get(d, result, "serverInfo", 10);
	const struct json_node *in = json_get(d, result, "instructions", 12);
	const struct json_node *ca = json_get(d, result, "capabilities", 12);

	if (!pv || pv->type != JSON_STRING || !si || si->type != JSON_OBJECT ||
	    (in && in->type != JSON_STRING) ||
	    (ca && ca->type != JSON_OBJECT)) {
		snprintf(why, cap, "initialize: the result lacks a string "
		    "protocolVersion or a serverInfo object, or its "
		    "instructions are not a string or its capabilities not "
		    "an object");
		return -1;
	}
	b->protocol.len = b->server_info.len = b->instructions.len = 0;
	b->capabilities.len = 0;
	b->has_instructions = in != NULL;
	b->has_capabilities = ca != NULL;
	if (add(&b->protocol, d, pv, scratch) || add(&b->server_info, d, si,
	    scratch) || (in && add(&b->instructions, d, in, scratch)) ||
	    (ca && add(&b->capabilities, d, ca, scratch))) {
		snprintf(why, cap, "initialize: the result has no canonical "
		    "form that fits");
		return -1;
	}
	return 0;
}

int
surface_add_item(struct surface_builder *b, enum surface_kind k,
    const struct json_doc *d, const struct json_node *item,
    uint32_t *scratch, char *why, size_t cap)
{
	if (b->count[k] == SURFACE_ITEMS_MAX) {
		snprintf(why, cap, "more than %d %ss", SURFACE_ITEMS_MAX,
		    surface_kind_names[k]);
		return -1;
	}
	if ((b->count[k] && jcs_buf_put(&b->part[k], ",", 1) != 0) ||
	    add(&b->part[k], d, item, scratch) != 0) {
		snprintf(why, cap, "the %ss have no canonical form that fits "
		    "%u bytes", surface_kind_names[k], SURFACE_TEXT_MAX);
		return -1;
	}
	b->count[k]++;
	return 0;
}

uint8_t *
surface_finish(struct surface_builder *b, size_t *len, char *why,
    size_t cap)
{
	/* the keys in RFC 8785 order */
	const struct { const char *key; const struct jcs_buf *v; int list; }
	    parts[] = {
		{ "capabilities", b->has_capabilities ? &b->capabilities :
		    NULL, 0 },
		{ "instructions", b->has_instructions ? &b->instructions :
		    NULL, 0 },
		{ "prompts", &b->part[SK_PROMPT], 1 },
		{ "protocolVersion", &b->protocol, 0 },
		{ "resourceTemplates", &b->part[SK_TEMPLATE], 1 },
		{ "serverInfo", &b->server_info, 0 },
		{ "tools", &b->part[SK_TOOL], 1 },
	};
	struct jcs_buf out = { malloc(SURFACE_TEXT_MAX), SURFACE_TEXT_MAX, 0 };
	int bad = out.p == NULL;

	for (size_t i = 0; i < sizeof parts / sizeof *parts && !bad; i++) {
		if (!parts[i].v)
			continue;
		bad = jcs_buf_put(&out, out.len ? ",\"" : "{\"", 2) ||
		    jcs_buf_put(&out, parts[i].key, strlen(parts[i].key)) ||
		    jcs_buf_put(&out, parts[i].list ? "\":[" : "\":", 2 +
		    (size_t)parts[i].list) ||
		    jcs_buf_put(&out, parts[i].v->p, parts[i].v->len) ||
		    (parts[i].list && jcs_buf_put(&out, "]", 1));
	}
	if (bad || jcs_buf_put(&out, "}", 1) != 0) {
		free(out.p);
		snprintf(why, cap, "the surface is larger than %u bytes",
		    SURFACE_TEXT_MAX);
		return NULL;
	}
	*len = out.len;
	return out.p;
}
