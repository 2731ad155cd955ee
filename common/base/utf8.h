/* utf8.h - UTF-8 decoding, strictly, and encoding; and the characters a
 * terminal or a viewer acts on, or does not show: what both escapers (the JSON one,
 * json.h, and the human one, log.h's log_escape_step) decide on, so the
 * two can never disagree about what is a control (docs/HACKING.md,
 * "JSON text" and "Logging"). */
#ifndef AIRLOCK_UTF8_H
#define AIRLOCK_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length (1..4) of the valid UTF-8 sequence at p[0..n) (n >= 1),
 * with its code point in *cp; or 0: a bad lead or continuation byte, an
 * overlong form, a surrogate, a code point past U+10FFFF, or a sequence
 * cut short by n. Reads at most 4 bytes of p, never past n. */
size_t utf8_seq(const uint8_t *p, size_t n, uint32_t *cp);

/* 1 for a character a terminal or viewer acts on, or draws as nothing:
 * the C0 controls, DEL, the C1 controls (U+0080-U+009F), the line and
 * paragraph separators (U+2028, U+2029), the bidi controls (U+061C,
 * U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), and the invisible
 * characters text for a model is smuggled in (utf8.c lists them: zero
 * widths, joiners, variation selectors, tags, fillers); else 0. */
int utf8_must_escape(uint32_t cp);

/* Encode cp (at most U+10FFFF, not a surrogate) into out; its length. */
size_t utf8_put(uint32_t cp, uint8_t out[4]);

#endif
