/* json_reader.h - a minimal, strict, bounded JSON reader (RFC 8259) for
 * the gateway's request bodies: hostile bytes in, a flat array of tokens
 * out, in the caller's storage (no allocation). Refused: anything RFC
 * 8259 refuses (a raw control in a string, a bad escape, a lone or
 * misordered surrogate, bytes that are not UTF-8, a leading zero, a
 * trailing comma, a byte after the value), and beyond it a nesting past
 * JSONR_DEPTH_MAX, a key longer than JSONR_KEY_MAX, more tokens than
 * the caller has room for, and an
 * object with two keys that decode alike ({"a":1,"\u0061":2}: which one
 * a reader takes is where smuggling lives). */
#ifndef AIRLOCK_JSON_READER_H
#define AIRLOCK_JSON_READER_H

#include <stddef.h>
#include <stdint.h>

#define JSONR_DEPTH_MAX 16
#define JSONR_KEY_MAX 256		/* an object key's text, escaped: keeps
					 * the duplicate check's pairwise
					 * comparisons cheap */
#define JSONR_TEXT_MAX (64u << 20)	/* offsets fit 32 bits with room */

enum jsonr_type {
	JSONR_NULL, JSONR_FALSE, JSONR_TRUE, JSONR_NUMBER, JSONR_STRING,
	JSONR_ARRAY, JSONR_OBJECT
};

/* One value. An object's children are its keys (strings) each followed
 * by its value; an array's its elements. */
struct jsonr_tok {
	uint8_t type;		/* enum jsonr_type */
	uint32_t start, len;	/* the text: a string's between its quotes,
				 * still escaped; a number's digits; a
				 * container's from bracket to bracket */
	uint32_t size;		/* object: members; array: elements */
	uint32_t next;		/* the index just past this value and all
				 * of its children */
};

struct jsonr {
	const char *text;	/* the caller's; must outlive the tokens */
	size_t len;
	struct jsonr_tok *tok;	/* the caller's: tok[0] is the root */
	size_t cap, n;
	size_t err_off;		/* where a refusal was decided */
	const char *err;	/* why, static text */
};

enum jsonr_status {
	JSONR_OK,
	JSONR_BAD,		/* not JSON, or not strictly: err, err_off */
	JSONR_LIMIT		/* deeper than JSONR_DEPTH_MAX, a key over
				 * JSONR_KEY_MAX, more tokens than cap, or
				 * text over JSONR_TEXT_MAX */
};

/* Parse text[0..len) (one value, whitespace around it) into tok[0..cap).
 * Returns OK with j->n tokens, or BAD/LIMIT with j->err. */
enum jsonr_status jsonr_parse(struct jsonr *j, const char *text, size_t len,
    struct jsonr_tok *tok, size_t cap);

/* The value of member key (a C string, compared with the decoded key) of
 * the object at index obj; -1 when absent or obj is no object. */
long jsonr_member(const struct jsonr *j, size_t obj, const char *key);

/* The index of the i-th child of an array (i < size), -1 otherwise. */
long jsonr_element(const struct jsonr *j, size_t arr, size_t i);

/* The string at index i decoded (UTF-8, every escape resolved) into
 * out[0..cap); *n its length. A string never decodes longer than its
 * escaped text (tok.len bytes). -1 when i is no string or cap is too
 * small. No NUL is added. */
int jsonr_string(const struct jsonr *j, size_t i, char *out, size_t cap,
    size_t *n);

/* The number at index i as an integer within [min, max]: plain digits
 * with an optional '-' (no fraction, no exponent). 0, or -1. */
int jsonr_int(const struct jsonr *j, size_t i, int64_t min, int64_t max,
    int64_t *v);

#endif
