/* lockjson.h - a minimal, strict JSON reader for lockfiles (hostile
 * input): the whole text is checked against RFC 8259 and laid out as a
 * flat array of tokens, each value followed by its subtree, so a caller
 * walks it with indexes and never recurses over the input itself.
 *
 * Stricter than JSON where a lockfile never needs the freedom and where
 * two readers could disagree: an object key must be a string without
 * escapes, and no object may hold a key twice (npm takes the last of
 * two, a first-match reader the first); nesting is at most LJ_DEPTH_MAX
 * deep; the text at most LJ_TEXT_MAX bytes; no byte-order mark. String
 * values may hold escapes (they are checked, never decoded): a caller
 * takes a value only through lj_plain, which refuses any escape or byte
 * outside printable ASCII, so what it compares is what npm reads.
 * Pure: no I/O; the token array is the caller's. */
#ifndef AIRLOCK_LOCKJSON_H
#define AIRLOCK_LOCKJSON_H

#include <stddef.h>
#include <stdint.h>

#define LJ_TEXT_MAX (8u << 20)		/* bytes of one lockfile */
#define LJ_TOKENS_MAX (1u << 20)	/* tokens of one lockfile */
#define LJ_DEPTH_MAX 32

enum lj_type { LJ_OBJECT = 1, LJ_ARRAY, LJ_STRING, LJ_NUMBER, LJ_TRUE,
	LJ_FALSE, LJ_NULL };

/* One value. A string's span excludes its quotes; an object's members
 * follow it as key, value, key, value ...; an array's items follow it. */
struct lj_tok {
	uint8_t type;		/* enum lj_type */
	uint8_t escaped;	/* a string holding a backslash escape */
	uint32_t start, len;	/* span in the text */
	uint32_t count;		/* members (object) or items (array) */
	uint32_t next;		/* index of the token after the subtree */
};

struct lj_doc {
	const uint8_t *text;
	size_t len;
	struct lj_tok *tok;	/* the caller's, cap entries */
	size_t cap, n;
};

/* Parse text[0..len) into doc->tok (cap entries). 0, or -1 with a static
 * reason in *why and the byte offset in *at. */
int lj_parse(struct lj_doc *doc, const uint8_t *text, size_t len,
    struct lj_tok *tok, size_t cap, const char **why, size_t *at);

/* The member named key (len bytes) of object token obj: the index of its
 * value, or 0 when absent or obj is not an object (index 0 is the root,
 * never a member). */
size_t lj_get(const struct lj_doc *doc, size_t obj, const char *key,
    size_t len);

/* A string token's bytes when plain: no escape and only printable ASCII
 * (0x20..0x7e). 0, or -1 when the token is not such a string. */
int lj_plain(const struct lj_doc *doc, size_t i, const char **p,
    size_t *n);

/* 1 when token i is the plain string s (n bytes). */
int lj_is(const struct lj_doc *doc, size_t i, const char *s, size_t n);

#endif
