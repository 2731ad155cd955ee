/* json.h - the one JSON string escaper: every string airlock writes as
 * JSON text goes through it. The rule (docs/HACKING.md, "JSON text"):
 *   - '"' and '\' as \" and \\; newline, CR and tab as \n, \r, \t;
 *   - the other C0 controls, DEL, the C1 controls (U+0080-U+009F), the
 *     line and paragraph separators (U+2028, U+2029), every bidi
 *     control (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and
 *     every invisible character of utf8_must_escape (zero widths, tags,
 *     variation selectors...) as \uXXXX (past U+FFFF: its surrogate
 *     pair), so no control or hidden text survives decoding unseen;
 *   - any other valid UTF-8 sequence as itself (a tool's "é" stays "é");
 *   - each byte that is not part of a valid UTF-8 sequence (a stray
 *     continuation, an overlong form, a surrogate, past U+10FFFF, a
 *     sequence cut short) as \ufffd.
 * The output is always valid UTF-8 and never holds a raw control byte. */
#ifndef AIRLOCK_JSON_H
#define AIRLOCK_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The most bytes one input character becomes ("\udb40\udc41"). */
#define JSON_STEP_MAX 12

/* Escape the character at p[*off] (requires *off < n) into out and move
 * *off past the bytes it used. Returns the bytes written to out, 1 to
 * JSON_STEP_MAX. The one core both writers below use. */
size_t json_step(const uint8_t *p, size_t n, size_t *off,
    char out[JSON_STEP_MAX]);

/* p[0..n) escaped to f, without quotes. */
void json_write(FILE *f, const void *p, size_t n);
/* p[0..n) escaped to f between double quotes. */
void json_write_quoted(FILE *f, const void *p, size_t n);
/* The C string s (NULL: empty) escaped to f between double quotes. */
void json_write_cstr(FILE *f, const char *s);

/* Append p[0..n) escaped, without quotes, to buf[*len..cap): whole
 * escapes only, never past cap, no NUL added; *len (<= cap) grows by what
 * was written. Returns the input bytes taken: n, or fewer when the next
 * escape did not fit (the caller cuts the text or fails). */
size_t json_append(char *buf, size_t cap, size_t *len, const void *p,
    size_t n);

#endif
