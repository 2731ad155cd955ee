/* lockjson.c - the strict JSON reader of lockjson.h. Recursive descent,
 * bounded by LJ_DEPTH_MAX; every read checks the remaining length. */
#include "common/lock/lockjson.h"

#include <stdlib.h>
#include <string.h>

#include "common/base/utf8.h"

struct lj_parser {
	struct lj_doc *d;
	size_t off;
	const char *why;
};

static int
fail(struct lj_parser *p, const char *why)
{
	if (!p->why)
		p->why = why;
	return -1;
}

static void
skip_ws(struct lj_parser *p)
{
	while (p->off < p->d->len) {
		uint8_t c = p->d->text[p->off];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->off++;
	}
}

static int
hexdigit(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/* A string at p->off (the opening quote): escapes well formed, no raw
 * control byte, valid UTF-8. */
static int
string(struct lj_parser *p, struct lj_tok *t)
{
	const uint8_t *s = p->d->text;
	size_t n = p->d->len, i = p->off + 1;

	t->type = LJ_STRING;
	t->escaped = 0;
	while (i < n && s[i] != '"') {
		uint32_t cp;
		size_t k;

		if (s[i] < 0x20)
			return fail(p, "a control byte in a string");
		if (s[i] == '\\') {
			t->escaped = 1;
			if (n - i < 2)
				break;
			if (s[i + 1] == 'u') {
				if (n - i < 6 || !hexdigit(s[i + 2]) ||
				    !hexdigit(s[i + 3]) ||
				    !hexdigit(s[i + 4]) || !hexdigit(s[i + 5]))
					return fail(p, "a bad \\u escape");
				i += 6;
				continue;
			}
			if (!memchr("\"\\/bfnrt", s[i + 1], 8))
				return fail(p, "a bad escape");
			i += 2;
			continue;
		}
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if ((k = utf8_seq(s + i, n - i, &cp)) == 0)
			return fail(p, "a string that is not UTF-8");
		i += k;
	}
	if (i >= n)
		return fail(p, "a string without its end");
	t->start = (uint32_t)(p->off + 1);
	t->len = (uint32_t)(i - p->off - 1);
	p->off = i + 1;
	return 0;
}

static size_t
digits(const uint8_t *s, size_t n, size_t i)
{
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int
number(struct lj_parser *p, struct lj_tok *t)
{
	const uint8_t *s = p->d->text;
	size_t n = p->d->len, i = p->off, j;

	if (i < n && s[i] == '-')
		i++;
	if (i < n && s[i] == '0')
		i++;
	else if ((j = digits(s, n, i)) > i)
		i = j;
	else
		return fail(p, "a bad number");
	if (i < n && s[i] == '.') {
		if ((j = digits(s, n, i + 1)) == i + 1)
			return fail(p, "a bad number");
		i = j;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if ((j = digits(s, n, i)) == i)
			return fail(p, "a bad number");
		i = j;
	}
	t->type = LJ_NUMBER;
	t->start = (uint32_t)p->off;
	t->len = (uint32_t)(i - p->off);
	p->off = i;
	return 0;
}

static int
literal(struct lj_parser *p, struct lj_tok *t, const char *word,
    enum lj_type type)
{
	size_t n = strlen(word);

	if (p->d->len - p->off < n || memcmp(p->d->text + p->off, word, n))
		return fail(p, "an unknown value");
	t->type = (uint8_t)type;
	t->start = (uint32_t)p->off;
	t->len = (uint32_t)n;
	p->off += n;
	return 0;
}

static int value(struct lj_parser *p, unsigned depth);

static struct lj_tok *
new_tok(struct lj_parser *p, size_t *index)
{
	struct lj_doc *d = p->d;

	if (d->n == d->cap) {
		fail(p, "too many values");
		return NULL;
	}
	*index = d->n;
	memset(&d->tok[d->n], 0, sizeof d->tok[0]);
	return &d->tok[d->n++];
}

static int
key_cmp(const void *a, const void *b, void *text)
{
	const struct lj_tok *x = *(struct lj_tok *const *)a;
	const struct lj_tok *y = *(struct lj_tok *const *)b;
	const uint8_t *t = text;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(t + x->start, t + y->start, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* No key twice in object o: its keys sorted, neighbours compared. */
static int
keys_unique(struct lj_parser *p, size_t o)
{
	struct lj_doc *d = p->d;
	struct lj_tok **k;
	size_t n = d->tok[o].count, i = o + 1;
	int bad = 0;

	if (n < 2)
		return 0;
	if (!(k = malloc(n * sizeof *k)))
		return fail(p, "out of memory");
	for (size_t m = 0; m < n; m++) {
		k[m] = &d->tok[i];
		i = d->tok[i + 1].next;
	}
	qsort_r(k, n, sizeof *k, key_cmp, (void *)d->text);
	for (size_t m = 1; m < n && !bad; m++)
		bad = key_cmp(&k[m - 1], &k[m], (void *)d->text) == 0;
	free(k);
	return bad ? fail(p, "an object holds a key twice") : 0;
}

static int
object(struct lj_parser *p, size_t self, unsigned depth)
{
	struct lj_doc *d = p->d;

	p->off++;
	skip_ws(p);
	if (p->off < d->len && d->text[p->off] == '}') {
		p->off++;
		return 0;
	}
	for (;;) {
		struct lj_tok *k;
		size_t ki;

		skip_ws(p);
		if (p->off >= d->len || d->text[p->off] != '"')
			return fail(p, "an object key that is not a string");
		if (!(k = new_tok(p, &ki)) || string(p, k) != 0)
			return -1;
		if (k->escaped)
			return fail(p, "an object key with an escape");
		k->next = (uint32_t)d->n;
		skip_ws(p);
		if (p->off >= d->len || d->text[p->off] != ':')
			return fail(p, "no ':' after an object key");
		p->off++;
		if (value(p, depth + 1) != 0)
			return -1;
		d->tok[self].count++;
		skip_ws(p);
		if (p->off < d->len && d->text[p->off] == ',') {
			p->off++;
			continue;
		}
		if (p->off < d->len && d->text[p->off] == '}') {
			p->off++;
			return keys_unique(p, self);
		}
		return fail(p, "no ',' or '}' after an object member");
	}
}

static int
array(struct lj_parser *p, size_t self, unsigned depth)
{
	struct lj_doc *d = p->d;

	p->off++;
	skip_ws(p);
	if (p->off < d->len && d->text[p->off] == ']') {
		p->off++;
		return 0;
	}
	for (;;) {
		if (value(p, depth + 1) != 0)
			return -1;
		d->tok[self].count++;
		skip_ws(p);
		if (p->off < d->len && d->text[p->off] == ',') {
			p->off++;
			continue;
		}
		if (p->off < d->len && d->text[p->off] == ']') {
			p->off++;
			return 0;
		}
		return fail(p, "no ',' or ']' after an array item");
	}
}

static int
value(struct lj_parser *p, unsigned depth)
{
	struct lj_doc *d = p->d;
	struct lj_tok *t;
	size_t i;
	int r;

	if (depth > LJ_DEPTH_MAX)
		return fail(p, "nested too deep");
	skip_ws(p);
	if (p->off >= d->len)
		return fail(p, "a value is missing");
	if (!(t = new_tok(p, &i)))
		return -1;
	t->start = (uint32_t)p->off;
	switch (d->text[p->off]) {
	case '{':
		t->type = LJ_OBJECT;
		r = object(p, i, depth);
		break;
	case '[':
		t->type = LJ_ARRAY;
		r = array(p, i, depth);
		break;
	case '"':
		r = string(p, t);
		break;
	case 't':
		r = literal(p, t, "true", LJ_TRUE);
		break;
	case 'f':
		r = literal(p, t, "false", LJ_FALSE);
		break;
	case 'n':
		r = literal(p, t, "null", LJ_NULL);
		break;
	default:
		r = number(p, t);
		break;
	}
	if (r != 0)
		return -1;
	t = &d->tok[i];
	if (t->type == LJ_OBJECT || t->type == LJ_ARRAY)
		t->len = (uint32_t)(p->off - t->start);
	t->next = (uint32_t)d->n;
	return 0;
}

int
lj_parse(struct lj_doc *doc, const uint8_t *text, size_t len,
    struct lj_tok *tok, size_t cap, const char **why, size_t *at)
{
	struct lj_parser p = { doc, 0, NULL };

	*doc = (struct lj_doc){ text, len, tok, cap < LJ_TOKENS_MAX ? cap :
		LJ_TOKENS_MAX, 0 };
	*at = 0;
	if (len > LJ_TEXT_MAX) {
		*why = "longer than a lockfile may be";
		return -1;
	}
	if (value(&p, 0) == 0) {
		skip_ws(&p);
		if (p.off != len)
			fail(&p, "bytes after the value");
	}
	if (p.why) {
		*why = p.why;
		*at = p.off;
		return -1;
	}
	return 0;
}

size_t
lj_get(const struct lj_doc *doc, size_t obj, const char *key, size_t len)
{
	size_t i;

	if (obj >= doc->n || doc->tok[obj].type != LJ_OBJECT)
		return 0;
	i = obj + 1;
	for (uint32_t m = 0; m < doc->tok[obj].count; m++) {
		const struct lj_tok *k = &doc->tok[i];

		if (k->len == len && memcmp(doc->text + k->start, key, len) ==
		    0)
			return i + 1;
		i = doc->tok[i + 1].next;
	}
	return 0;
}

int
lj_plain(const struct lj_doc *doc, size_t i, const char **p, size_t *n)
{
	const struct lj_tok *t;

	if (i == 0 || i >= doc->n || doc->tok[i].type != LJ_STRING ||
	    doc->tok[i].escaped)
		return -1;
	t = &doc->tok[i];
	for (uint32_t k = 0; k < t->len; k++)
		if (doc->text[t->start + k] < 0x20 ||
		    doc->text[t->start + k] > 0x7e)
			return -1;
	*p = (const char *)doc->text + t->start;
	*n = t->len;
	return 0;
}

int
lj_is(const struct lj_doc *doc, size_t i, const char *s, size_t n)
{
	const char *p;
	size_t len;

	return lj_plain(doc, i, &p, &len) == 0 && len == n &&
	    memcmp(p, s, n) == 0;
}
