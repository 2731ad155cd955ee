/* lockjson.h - a lockfile's JSON (hostile input), read by the project's
 * one strict parser (common/mcp/jsonparse: RFC 8259, valid UTF-8, no lone
 * surrogate, no key twice in one object, bounded) with the rules a
 * lockfile adds where two readers could disagree: no object key may hold
 * an escape (npm and a byte-comparing reader would then see different
 * keys); nesting at most LJ_DEPTH_MAX deep; the text at most LJ_TEXT_MAX
 * bytes; no byte-order mark (jsonparse refuses one). String values may
 * hold escapes (checked, never decoded): a caller takes a value only
 * through lj_plain, which refuses any escape or byte outside printable
 * ASCII, so what it compares is what npm reads. Pure: no I/O; the node
 * arrays are the caller's. */
#ifndef AIRLOCK_LOCKJSON_H
#define AIRLOCK_LOCKJSON_H

#include <stddef.h>
#include <stdint.h>

#include "common/mcp/jsonparse.h"

#define LJ_TEXT_MAX (8u << 20)		/* bytes of one lockfile */
#define LJ_TOKENS_MAX (1u << 20)	/* values of one lockfile */
#define LJ_DEPTH_MAX 32

/* A parsed text: j.nodes[i] is value i (jsonparse's pre-order: an
 * object's members follow it as key, value ...; j.src the text). */
struct lj_doc {
	struct json_doc j;
};

/* Parse text[0..len) into nodes[0..cap), with scratch[0..cap) for
 * jsonparse's key sort (both the caller's, outliving the use of doc).
 * 0, or -1 with a static reason in *why and the byte offset in *at. */
int lj_parse(struct lj_doc *doc, const uint8_t *text, size_t len,
    struct json_node *nodes, uint32_t *scratch, size_t cap,
    const char **why, size_t *at);

/* Value i of a parsed doc (i < doc->j.n). */
static inline const struct json_node *
lj_node(const struct lj_doc *doc, size_t i)
{
	return &doc->j.nodes[i];
}

/* The member named key (len bytes) of object obj: the index of its
 * value, or 0 when absent or obj is not an object (index 0 is the root,
 * never a member). */
size_t lj_get(const struct lj_doc *doc, size_t obj, const char *key,
    size_t len);

/* A string value's bytes when plain: no escape and only printable ASCII
 * (0x20..0x7e). 0, or -1 when value i is not such a string. */
int lj_plain(const struct lj_doc *doc, size_t i, const char **p,
    size_t *n);

/* 1 when value i is the plain string s (n bytes). */
int lj_is(const struct lj_doc *doc, size_t i, const char *s, size_t n);

#endif
