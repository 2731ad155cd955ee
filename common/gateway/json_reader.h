/* json_reader.h - the gateway's request bodies read by common/mcp/
 * jsonparse (the project's one strict JSON parser: RFC 8259, valid UTF-8,
 * no raw control or lone surrogate, duplicate keys compared decoded, so
 * {"a":1,"\u0061":2} is refused: which one a reader takes is where
 * smuggling lives), with the gateway's own bounds on top: a nesting past
 * JSONR_DEPTH_MAX, a key longer than JSONR_KEY_MAX, more values than the
 * caller has room for (at most JSONR_VALUES_MAX), a text over
 * JSONR_TEXT_MAX. The values are jsonparse's nodes, in the caller's
 * storage (no allocation); the lookups below are the gateway's. */
#ifndef AIRLOCK_JSON_READER_H
#define AIRLOCK_JSON_READER_H

#include <stddef.h>
#include <stdint.h>

#include "common/mcp/jsonparse.h"

#define JSONR_DEPTH_MAX 16
#define JSONR_KEY_MAX 256		/* an object key's text, escaped */
#define JSONR_TEXT_MAX (64u << 20)	/* offsets fit 32 bits with room */
#define JSONR_NUMBER_MAX 1024		/* a number's text */
#define JSONR_VALUES_MAX 4096		/* the most a caller may give room
					 * for (the key sort's scratch) */

struct jsonr {
	struct json_doc d;	/* the parse; d.nodes is the caller's */
	const struct json_node *tok;	/* d.nodes: tok[0] is the root */
	size_t n;		/* values parsed */
	size_t err_off;		/* where a refusal was decided */
	const char *err;	/* why, static text */
	uint32_t scratch[JSONR_VALUES_MAX];
};

enum jsonr_status {
	JSONR_OK,
	JSONR_BAD,		/* not JSON, or not strictly: err, err_off */
	JSONR_LIMIT		/* deeper than JSONR_DEPTH_MAX, a key over
				 * JSONR_KEY_MAX, more values than cap, or
				 * text over JSONR_TEXT_MAX */
};

/* Parse text[0..len) (one value, whitespace around it) into
 * tok[0..cap), cap at most JSONR_VALUES_MAX. Returns OK with j->n
 * values, or BAD/LIMIT with j->err. */
enum jsonr_status jsonr_parse(struct jsonr *j, const char *text, size_t len,
    struct json_node *tok, size_t cap);

/* The value of member key (a C string, compared with the decoded key) of
 * the object at index obj; -1 when absent or obj is no object. */
long jsonr_member(const struct jsonr *j, size_t obj, const char *key);

/* The index of the i-th child of an array (i < count), -1 otherwise. */
long jsonr_element(const struct jsonr *j, size_t arr, size_t i);

/* The string at index i decoded (UTF-8, every escape resolved, a
 * \u0000 as a NUL byte) into out[0..cap); *n its length. A string never
 * decodes longer than its escaped text (len bytes). -1 when i is no
 * string or cap is too small. No NUL is added. */
int jsonr_string(const struct jsonr *j, size_t i, char *out, size_t cap,
    size_t *n);

/* The number at index i as an integer within [min, max]: plain digits
 * with an optional '-' (no fraction, no exponent). 0, or -1. */
int jsonr_int(const struct jsonr *j, size_t i, int64_t min, int64_t max,
    int64_t *v);

#endif
