/* record_line.c - the length-prefixed line format: strict reader, simple writer. */
#include "common/policy/record_line.h"

#include <stdio.h>
#include <string.h>

static int
is_key_char(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

/* Decimal digits up to ':' with no leading zero and no overflow past
 * max; the ':' is consumed. */
static int
read_len(struct rd *r, size_t max, size_t *len)
{
	size_t v = 0, digits = 0;
	uint8_t c;

	for (;;) {
		if (rd_u8(r, &c))
			return -1;
		if (c == ':')
			break;
		if (c < '0' || c > '9' || (digits == 1 && v == 0))
			return -1;
		if (v > max / 10 || v * 10 + (size_t)(c - '0') > max)
			return -1;
		v = v * 10 + (size_t)(c - '0');
		digits++;
	}
	if (digits == 0)
		return -1;
	*len = v;
	return 0;
}

static int
parse_line(struct rd *r, size_t item_max, struct record_line_line *l)
{
	const uint8_t *b;
	uint8_t c;

	l->key = r->p + r->off;
	l->key_len = 0;
	l->n = 0;
	for (;;) {
		if (rd_u8(r, &c))
			return -1;
		if (!is_key_char(c))
			break;
		if (++l->key_len > RECORD_LINE_KEY_MAX)
			return -1;
	}
	if (l->key_len == 0)
		return -1;
	while (c == ' ') {
		size_t n;

		if (l->n == RECORD_LINE_ITEMS_MAX || read_len(r, item_max, &n) ||
		    rd_bytes(r, n, &b) || memchr(b, '\0', n))
			return -1;
		l->item[l->n++] = (struct record_line_item){ b, n };
		if (rd_u8(r, &c))
			return -1;
	}
	return c == '\n' ? 0 : -1;
}

int
record_line_next(struct rd *r, size_t item_max, struct record_line_line *l)
{
	size_t save = r->off;

	if (rd_left(r) == 0)
		return 1;
	l->start = save;
	if (parse_line(r, item_max, l) != 0) {
		r->off = save;
		return -1;
	}
	return 0;
}

int
record_line_is(const struct record_line_line *l, const char *key, size_t n)
{
	size_t k = strlen(key);

	return l->n == n && l->key_len == k && memcmp(l->key, key, k) == 0;
}

int
record_line_u64(const struct record_line_item *it, uint64_t *v)
{
	uint64_t x = 0;

	if (it->n == 0 || it->n > 20 || (it->n > 1 && it->p[0] == '0'))
		return -1;
	for (size_t i = 0; i < it->n; i++) {
		unsigned d = (unsigned)it->p[i] - '0';

		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

int
record_line_eq(const struct record_line_item *it, const char *s)
{
	size_t n = strlen(s);

	return it->n == n && memcmp(it->p, s, n) == 0;
}

void
record_line_key(struct wr *w, const char *key)
{
	wr_bytes(w, key, strlen(key));
}

void
record_line_put(struct wr *w, const void *p, size_t n)
{
	char len[24];
	int k = snprintf(len, sizeof len, " %zu:", n);

	wr_bytes(w, len, (size_t)k);
	wr_bytes(w, p, n);
}

void
record_line_str(struct wr *w, const char *s)
{
	record_line_put(w, s, strlen(s));
}

void
record_line_num(struct wr *w, uint64_t v)
{
	char num[24];
	int k = snprintf(num, sizeof num, "%llu", (unsigned long long)v);

	record_line_put(w, num, (size_t)k);
}

void
record_line_eol(struct wr *w)
{
	wr_u8(w, '\n');
}
