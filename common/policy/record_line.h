/* record_line.h - "length-prefixed fields": the text line format of the review
 * store's record and audit files. A line is
 *	KEY ( ' ' LEN ':' BYTES )* '\n'
 * KEY is [a-z0-9-]{1,32}; LEN is decimal without leading zeros; BYTES are
 * exactly LEN bytes of anything but NUL. Values never need escaping, and a
 * reader never guesses where one ends. */
#ifndef AIRLOCK_RECORD_LINE_H
#define AIRLOCK_RECORD_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "common/base/bounded_rw.h"

#define RECORD_LINE_KEY_MAX 32
#define RECORD_LINE_ITEMS_MAX 10

struct record_line_item {
	const uint8_t *p;	/* points into the parsed input */
	size_t n;
};

struct record_line_line {
	const uint8_t *key;
	size_t key_len;
	size_t n;		/* items used */
	struct record_line_item item[RECORD_LINE_ITEMS_MAX];
	size_t start;		/* offset of the line in the input */
};

/* Parse the next line of r; every item must be at most item_max bytes.
 * Returns 0 with *l filled, 1 at the end of input, -1 if malformed
 * (r is then left where the bad line starts). */
int record_line_next(struct rd *r, size_t item_max, struct record_line_line *l);

/* 1 when the line's key is key and it has exactly n items. */
int record_line_is(const struct record_line_line *l, const char *key, size_t n);

/* A strict decimal item (no sign, no leading zero) into *v; -1 if not. */
int record_line_u64(const struct record_line_item *it, uint64_t *v);

/* 1 when the item equals the C string s. */
int record_line_eq(const struct record_line_item *it, const char *s);

/* Writers, over the sticky-error writer of bounded_rw.h. */
void record_line_key(struct wr *w, const char *key);
void record_line_put(struct wr *w, const void *p, size_t n);
void record_line_str(struct wr *w, const char *s);
void record_line_num(struct wr *w, uint64_t v);
void record_line_eol(struct wr *w);

#endif
