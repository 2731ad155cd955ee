/* jsonparse.h - a strict, bounded JSON parser (RFC 8259) for bytes a
 * hostile peer wrote: an MCP server's stdout, a client's requests.
 *
 * It builds no strings and allocates nothing: the caller gives a node
 * array, and each node points into the source. Refused, each with its own
 * reason: anything outside the grammar, invalid UTF-8 (overlong forms,
 * UTF-8 surrogates, past U+10FFFF), a raw control in a string, a lone or
 * mismatched surrogate escape, a duplicate key in one object (compared
 * decoded: "a" and "\u0061" are the same key), and input past a limit
 * (depth, a string's or a number's length, members of one container,
 * nodes in all). Every limit is checked before the work it bounds; the
 * time is O(n log n) in the input's length. */
#ifndef AIRLOCK_JSONPARSE_H
#define AIRLOCK_JSONPARSE_H

#include <stddef.h>
#include <stdint.h>

enum json_type {
	JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING,
	JSON_ARRAY, JSON_OBJECT
};

/* One value, in pre-order: a container's children follow it, an object's
 * as key, value, key, value. For a string, off/len is its content between
 * the quotes (escapes as written); for a number its text; for a container
 * its whole text, brackets included. end is the index one past its
 * subtree: the next sibling's index, if there is one. */
struct json_node {
	uint8_t type;		/* enum json_type */
	uint32_t off, len;
	uint32_t count;		/* elements, or members (pairs) */
	uint32_t end;
};

struct json_limits {
	unsigned depth;		/* nested containers, the outermost is 1 */
	size_t string;		/* bytes of one string's text as written */
	size_t number;		/* bytes of one number's text */
	size_t members;		/* elements or members of one container */
	size_t nodes;		/* values in all, keys included */
};

enum json_status {
	JSON_OK = 0,
	JSON_BAD_SYNTAX,
	JSON_BAD_UTF8,
	JSON_BAD_ESCAPE,	/* unknown escape, lone or bad surrogate */
	JSON_CONTROL_CHAR,	/* a raw byte below 0x20 in a string */
	JSON_DUPLICATE_KEY,
	JSON_TOO_DEEP,
	JSON_STRING_TOO_LONG,
	JSON_NUMBER_TOO_LONG,
	JSON_TOO_MANY_MEMBERS,
	JSON_TOO_MANY_NODES,
	JSON_STATUS_MAX_
};

/* Stable snake_case name ("duplicate_key"); "unknown" out of range. */
const char *json_status_name(enum json_status s);

/* The parse of one text. The caller owns nodes[0..cap) and scratch (at
 * least lim->members entries, for sorting keys); both must outlive the
 * use of the result, as must src. */
struct json_doc {
	const uint8_t *src;
	size_t src_len;
	struct json_node *nodes;
	size_t n;		/* nodes used; the root is nodes[0] */
	size_t err_off;		/* where a refusal was found */
};

/* Parse src[0..len) as exactly one JSON value with optional whitespace
 * around it. cap must be at least lim->nodes and scratch hold at least
 * lim->members entries. JSON_OK, or why not (with doc->err_off). */
enum json_status json_parse(struct json_doc *doc, const uint8_t *src,
    size_t len, const struct json_limits *lim, struct json_node *nodes,
    size_t cap, uint32_t *scratch);

/* The next code point of string node s from *pos (a byte offset into its
 * text, start at 0): 1 with *cp set, 0 at its end. Only for a string
 * json_parse accepted (a pair of surrogate escapes is one code point). */
int json_str_next(const struct json_doc *doc, const struct json_node *s,
    size_t *pos, uint32_t *cp);

/* Compare two accepted strings by their UTF-16 code units (RFC 8785's
 * order for keys): <0, 0 or >0. */
int json_str_cmp(const struct json_doc *doc, const struct json_node *a,
    const struct json_node *b);

/* json_str_cmp of a of document da and b of document db. */
int json_str_cmp2(const struct json_doc *da, const struct json_node *a,
    const struct json_doc *db, const struct json_node *b);

/* The node indices of object obj's keys into keys[0..obj->count), in
 * json_str_cmp order. */
void json_sort_keys(const struct json_doc *doc, const struct json_node *obj,
    uint32_t *keys);

/* 1 when accepted string s decodes to exactly the n bytes of lit. */
int json_str_eq(const struct json_doc *doc, const struct json_node *s,
    const char *lit, size_t n);

/* Decode accepted string s as UTF-8 into out (cap bytes, NUL added).
 * Returns its length, or -1 when it does not fit or holds a NUL. */
long json_str_copy(const struct json_doc *doc, const struct json_node *s,
    char *out, size_t cap);

/* The value of key (n bytes) in object node obj, or NULL. */
const struct json_node *json_get(const struct json_doc *doc,
    const struct json_node *obj, const char *key, size_t n);

/* The index of a node in doc->nodes. */
static inline size_t
json_index(const struct json_doc *doc, const struct json_node *v)
{
	return (size_t)(v - doc->nodes);
}

#endif
