/* jcs.h - the JSON Canonicalization Scheme (RFC 8785) over a parsed
 * document: the one spelling of a JSON value that airlock digests and
 * signs (a tool's definition, a server's surface) and writes when it
 * rewrites a message.
 *
 *   - no whitespace; object members sorted by their keys' UTF-16 code
 *     units; array order kept;
 *   - strings as ECMAScript's JSON.stringify writes them: \" \\ \b \f \n
 *     \r \t, other controls below 0x20 as \u00xx (lower-case hex), every
 *     other character as its UTF-8 bytes;
 *   - numbers as ECMAScript's Number::toString of the nearest double
 *     (shortest digits that read back to it; -0 as 0; exponent form from
 *     1e21 up and below 1e-6); a number that is not a finite double (1e400)
 *     has no canonical form: refused. */
#ifndef AIRLOCK_JCS_H
#define AIRLOCK_JCS_H

#include <stddef.h>
#include <stdint.h>

#include "common/mcp/jsonparse.h"

/* Where the canonical bytes go: put returns 0, or -1 to stop. */
struct jcs_sink {
	int (*put)(void *ctx, const void *p, size_t n);
	void *ctx;
};

/* A caller's buffer as a sink: put fails once cap would be passed. */
struct jcs_buf {
	uint8_t *p;
	size_t cap, len;
};
int jcs_buf_put(void *ctx, const void *p, size_t n);

/* The longest canonical number: "-1.7976931348623157e+308" is 24. */
#define JCS_NUMBER_MAX 32

/* The canonical text of the JSON number text p[0..n) into out (no NUL):
 * its length, or -1 when it is not a finite double or not a number. */
int jcs_number(const uint8_t *p, size_t n, char out[JCS_NUMBER_MAX]);

/* Write value v of doc (accepted by json_parse) canonically to out.
 * scratch holds at least doc->n entries. 0, or -1 when a number has no
 * canonical form or the sink stopped. */
int jcs_write(const struct json_doc *doc, const struct json_node *v,
    const struct jcs_sink *out, uint32_t *scratch);

/* Elements jcs_write_omitting leaves out: fn returns 1 to omit elem, an
 * element of array. */
struct jcs_omit {
	int (*fn)(void *ctx, const struct json_doc *doc,
	    const struct json_node *array, const struct json_node *elem);
	void *ctx;
};

/* jcs_write, leaving out the array elements omit->fn names (the
 * runner's filtered tools/list). */
int jcs_write_omitting(const struct json_doc *doc, const struct json_node *v,
    const struct jcs_sink *out, uint32_t *scratch,
    const struct jcs_omit *omit);

/* 1 when value a of da and value b of db have the same canonical form
 * (what comparing their jcs_write bytes would say, without writing
 * them); 0 when not, or when a number has no canonical form. sa and sb
 * hold at least da->n and db->n entries. */
int jcs_equal(const struct json_doc *da, const struct json_node *a,
    const struct json_doc *db, const struct json_node *b, uint32_t *sa,
    uint32_t *sb);

/* 1 when strings a of da and b of db decode to the same characters. */
int jcs_str_equal(const struct json_doc *da, const struct json_node *a,
    const struct json_doc *db, const struct json_node *b);

/* SHA-256 of v's canonical form into digest. 0 or -1 (as jcs_write). */
int jcs_sha256(const struct json_doc *doc, const struct json_node *v,
    uint32_t *scratch, uint8_t digest[32]);

#endif
