/* lpf.h - "length-prefixed fields": the text line format of the review
 * store's record and audit files. A line is
 *	KEY ( ' ' LEN ':' BYTES )* '\n'
 * KEY is [a-z0-9-]{1,32}; LEN is decimal without leading zeros; BYTES are
 * exactly LEN bytes of anything but NUL. Values never need escaping, and a
 * reader never guesses where one ends. */
#ifndef AIRLOCK_LPF_H
#define AIRLOCK_LPF_H

#include <stddef.h>
#include <stdint.h>

#include "common/base/rd.h"

#define LPF_KEY_MAX 32
#define LPF_ITEMS_MAX 10

struct lpf_item {
	const uint8_t *p;	/* points into the parsed input */
	size_t n;
};

struct lpf_line {
	const uint8_t *key;
	size_t key_len;
	size_t n;		/* items used */
	struct lpf_item item[LPF_ITEMS_MAX];
	size_t start;		/* offset of the line in the input */
};

/* Parse the next line of r; every item must be at most item_max bytes.
 * Returns 0 with *l filled, 1 at the end of input, -1 if malformed
 * (r is then left where the bad line starts). */
int lpf_next(struct rd *r, size_t item_max, struct lpf_line *l);

/* 1 when the line's key is key and it has exactly n items. */
int lpf_is(const struct lpf_line *l, const char *key, size_t n);

/* A strict decimal item (no sign, no leading zero) into *v; -1 if not. */
int lpf_u64(const struct lpf_item *it, uint64_t *v);

/* 1 when the item equals the C string s. */
int lpf_eq(const struct lpf_item *it, const char *s);

/* Writers, over the sticky-error writer of rd.h. */
void lpf_key(struct wr *w, const char *key);
void lpf_put(struct wr *w, const void *p, size_t n);
void lpf_str(struct wr *w, const char *s);
void lpf_num(struct wr *w, uint64_t v);
void lpf_eol(struct wr *w);

#endif
