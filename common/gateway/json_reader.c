/* json_reader.c - strict, bounded JSON into a flat token array. */
#include "common/gateway/json_reader.h"

#include <string.h>

#include "common/base/utf8.h"

#define FAIL(j, at, why) ((j)->err_off = (at), (j)->err = (why), JSONR_BAD)

static int
hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Four hex digits at p[*off..end): the value, or -1. */
static long
hex4(const char *p, size_t end, size_t *off)
{
	long v = 0;

	if (end - *off < 4)
		return -1;
	for (int k = 0; k < 4; k++) {
		int h = hexval((unsigned char)p[*off + (size_t)k]);

		if (h < 0)
			return -1;
		v = v << 4 | h;
	}
	*off += 4;
	return v;
}

/* One character of a string's text at p[*off] (*off < end, and p[*off]
 * is not the closing quote): its UTF-8 bytes into out, *off moved past
 * it. Returns 1..4, or 0 when the text breaks RFC 8259 there. The one
 * rule both the parse and the decoding follow. */
static size_t
str_unit(const char *p, size_t end, size_t *off, uint8_t out[4])
{
	const uint8_t *u = (const uint8_t *)p;
	uint32_t cp;
	size_t n;
	long hi, lo;

	if (u[*off] < 0x20)
		return 0;
	if (u[*off] != '\\') {
		if (u[*off] < 0x80) {
			out[0] = u[(*off)++];
			return 1;
		}
		if ((n = utf8_seq(u + *off, end - *off, &cp)) == 0)
			return 0;
		memcpy(out, u + *off, n);
		*off += n;
		return n;
	}
	if (end - *off < 2)
		return 0;
	*off += 2;
	switch (p[*off - 1]) {
	case '"': out[0] = '"'; return 1;
	case '\\': out[0] = '\\'; return 1;
	case '/': out[0] = '/'; return 1;
	case 'b': out[0] = '\b'; return 1;
	case 'f': out[0] = '\f'; return 1;
	case 'n': out[0] = '\n'; return 1;
	case 'r': out[0] = '\r'; return 1;
	case 't': out[0] = '\t'; return 1;
	case 'u': break;
	default: return 0;
	}
	if ((hi = hex4(p, end, off)) < 0 || (hi >= 0xdc00 && hi <= 0xdfff))
		return 0;
	if (hi < 0xd800 || hi > 0xdbff)
		return utf8_put((uint32_t)hi, out);
	/* a high surrogate: its low half must follow at once */
	if (end - *off < 2 || p[*off] != '\\' || p[*off + 1] != 'u')
		return 0;
	*off += 2;
	if ((lo = hex4(p, end, off)) < 0xdc00 || lo > 0xdfff)
		return 0;
	return utf8_put(0x10000 + ((uint32_t)(hi - 0xd800) << 10) +
	    (uint32_t)(lo - 0xdc00), out);
}

static void
skip_ws(const struct jsonr *j, size_t *off)
{
	while (*off < j->len && (j->text[*off] == ' ' || j->text[*off] == '\t'
	    || j->text[*off] == '\n' || j->text[*off] == '\r'))
		(*off)++;
}

/* Does the escaped string a decode to the same bytes as b? */
static int
str_equal(const char *p, const struct jsonr_tok *a, const struct jsonr_tok *b)
{
	size_t oa = a->start, ob = b->start;
	size_t ea = a->start + a->len, eb = b->start + b->len;

	while (oa < ea && ob < eb) {
		uint8_t ua[4], ub[4];
		size_t na = str_unit(p, ea, &oa, ua), nb = str_unit(p, eb, &ob,
		    ub);

		if (na != nb || memcmp(ua, ub, na) != 0)
			return 0;
	}
	return oa == ea && ob == eb;
}

static enum jsonr_status
new_tok(struct jsonr *j, uint8_t type, size_t start, size_t *idx)
{
	if (j->n == j->cap) {
		j->err_off = start;
		j->err = "too many values";
		return JSONR_LIMIT;
	}
	*idx = j->n++;
	memset(&j->tok[*idx], 0, sizeof j->tok[*idx]);
	j->tok[*idx].type = type;
	j->tok[*idx].start = (uint32_t)start;
	return JSONR_OK;
}

static enum jsonr_status
parse_string(struct jsonr *j, size_t *off)
{
	size_t idx, start = *off + 1;
	enum jsonr_status st = new_tok(j, JSONR_STRING, start, &idx);

	if (st != JSONR_OK)
		return st;
	for (*off = start; *off < j->len && j->text[*off] != '"'; ) {
		uint8_t u[4];
		size_t at = *off;

		if (str_unit(j->text, j->len, off, u) == 0)
			return FAIL(j, at, "a bad character or escape in a "
			    "string");
	}
	if (*off >= j->len)
		return FAIL(j, start - 1, "a string without its end");
	j->tok[idx].len = (uint32_t)(*off - start);
	j->tok[idx].next = (uint32_t)j->n;
	(*off)++;
	return JSONR_OK;
}

static int
digit(const struct jsonr *j, size_t off)
{
	return off < j->len && j->text[off] >= '0' && j->text[off] <= '9';
}

static enum jsonr_status
parse_number(struct jsonr *j, size_t *off)
{
	size_t idx, start = *off;
	enum jsonr_status st = new_tok(j, JSONR_NUMBER, start, &idx);

	if (st != JSONR_OK)
		return st;
	if (*off < j->len && j->text[*off] == '-')
		(*off)++;
	if (!digit(j, *off))
		return FAIL(j, *off, "a number without digits");
	if (j->text[*off] == '0' && digit(j, *off + 1))
		return FAIL(j, *off, "a number with a leading zero");
	while (digit(j, *off))
		(*off)++;
	if (*off < j->len && j->text[*off] == '.') {
		if (!digit(j, ++*off))
			return FAIL(j, *off, "a fraction without digits");
		while (digit(j, *off))
			(*off)++;
	}
	if (*off < j->len && (j->text[*off] == 'e' || j->text[*off] == 'E')) {
		(*off)++;
		if (*off < j->len && (j->text[*off] == '+' ||
		    j->text[*off] == '-'))
			(*off)++;
		if (!digit(j, *off))
			return FAIL(j, *off, "an exponent without digits");
		while (digit(j, *off))
			(*off)++;
	}
	j->tok[idx].len = (uint32_t)(*off - start);
	j->tok[idx].next = (uint32_t)j->n;
	return JSONR_OK;
}

static enum jsonr_status parse_value(struct jsonr *j, size_t *off,
    unsigned depth);

/* An array or object from its bracket: children, then duplicate keys. */
static enum jsonr_status
parse_container(struct jsonr *j, size_t *off, unsigned depth)
{
	int is_obj = j->text[*off] == '{';
	char close = is_obj ? '}' : ']';
	size_t idx, start = *off;
	enum jsonr_status st = new_tok(j, is_obj ? JSONR_OBJECT : JSONR_ARRAY,
	    start, &idx);

	if (st != JSONR_OK)
		return st;
	if (depth >= JSONR_DEPTH_MAX) {
		j->err_off = start;
		j->err = "nested too deeply";
		return JSONR_LIMIT;
	}
	(*off)++;
	skip_ws(j, off);
	if (*off < j->len && j->text[*off] == close)
		goto done;
	for (;;) {
		if (is_obj) {
			size_t key;

			skip_ws(j, off);
			if (*off >= j->len || j->text[*off] != '"')
				return FAIL(j, *off, "an object key must be a "
				    "string");
			key = j->n;
			if ((st = parse_string(j, off)) != JSONR_OK)
				return st;
			if (j->tok[key].len > JSONR_KEY_MAX) {
				j->err_off = j->tok[key].start;
				j->err = "an object key too long";
				return JSONR_LIMIT;
			}
			/* every earlier key of this object, decoded */
			for (size_t k = idx + 1; k < key; k = j->tok[k + 1].next)
				if (str_equal(j->text, &j->tok[k], &j->tok[key]))
					return FAIL(j, j->tok[key].start,
					    "a key given twice");
			skip_ws(j, off);
			if (*off >= j->len || j->text[*off] != ':')
				return FAIL(j, *off, "':' expected");
			(*off)++;
		}
		if ((st = parse_value(j, off, depth + 1)) != JSONR_OK)
			return st;
		j->tok[idx].size++;
		skip_ws(j, off);
		if (*off < j->len && j->text[*off] == ',') {
			(*off)++;
			continue;
		}
		if (*off < j->len && j->text[*off] == close)
			break;
		return FAIL(j, *off, is_obj ? "',' or '}' expected" :
		    "',' or ']' expected");
	}
done:
	(*off)++;
	j->tok[idx].len = (uint32_t)(*off - start);
	j->tok[idx].next = (uint32_t)j->n;
	return JSONR_OK;
}

static enum jsonr_status
parse_literal(struct jsonr *j, size_t *off, const char *word, uint8_t type)
{
	size_t n = strlen(word), idx;
	enum jsonr_status st;

	if (j->len - *off < n || memcmp(j->text + *off, word, n) != 0)
		return FAIL(j, *off, "not a JSON value");
	if ((st = new_tok(j, type, *off, &idx)) != JSONR_OK)
		return st;
	*off += n;
	j->tok[idx].len = (uint32_t)n;
	j->tok[idx].next = (uint32_t)j->n;
	return JSONR_OK;
}

static enum jsonr_status
parse_value(struct jsonr *j, size_t *off, unsigned depth)
{
	skip_ws(j, off);
	if (*off >= j->len)
		return FAIL(j, *off, "a value expected");
	switch (j->text[*off]) {
	case '{':
	case '[':
		return parse_container(j, off, depth);
	case '"':
		return parse_string(j, off);
	case 't':
		return parse_literal(j, off, "true", JSONR_TRUE);
	case 'f':
		return parse_literal(j, off, "false", JSONR_FALSE);
	case 'n':
		return parse_literal(j, off, "null", JSONR_NULL);
	default:
		return parse_number(j, off);
	}
}

enum jsonr_status
jsonr_parse(struct jsonr *j, const char *text, size_t len,
    struct jsonr_tok *tok, size_t cap)
{
	enum jsonr_status st;
	size_t off = 0;

	memset(j, 0, sizeof *j);
	j->text = text;
	j->len = len;
	j->tok = tok;
	j->cap = cap;
	if (len > JSONR_TEXT_MAX) {
		j->err = "the text is too long";
		return JSONR_LIMIT;
	}
	if ((st = parse_value(j, &off, 0)) != JSONR_OK)
		return st;
	skip_ws(j, &off);
	if (off != len)
		return FAIL(j, off, "bytes after the value");
	return JSONR_OK;
}

long
jsonr_member(const struct jsonr *j, size_t obj, const char *key)
{
	size_t klen = strlen(key);

	if (obj >= j->n || j->tok[obj].type != JSONR_OBJECT)
		return -1;
	for (size_t k = obj + 1; k < j->tok[obj].next; k = j->tok[k + 1].next) {
		const struct jsonr_tok *t = &j->tok[k];
		size_t off = t->start, end = t->start + t->len, at = 0;
		int same = 1;

		while (same && off < end) {
			uint8_t u[4];
			size_t n = str_unit(j->text, end, &off, u);

			same = n > 0 && n <= klen - at &&
			    memcmp(key + at, u, n) == 0;
			at += n;
		}
		if (same && at == klen)
			return (long)(k + 1);
	}
	return -1;
}

long
jsonr_element(const struct jsonr *j, size_t arr, size_t i)
{
	size_t k;

	if (arr >= j->n || j->tok[arr].type != JSONR_ARRAY ||
	    i >= j->tok[arr].size)
		return -1;
	for (k = arr + 1; i > 0; i--)
		k = j->tok[k].next;
	return (long)k;
}

int
jsonr_string(const struct jsonr *j, size_t i, char *out, size_t cap,
    size_t *n)
{
	const struct jsonr_tok *t;
	size_t off, end;

	if (i >= j->n || j->tok[i].type != JSONR_STRING)
		return -1;
	t = &j->tok[i];
	*n = 0;
	for (off = t->start, end = t->start + t->len; off < end; ) {
		uint8_t u[4];
		size_t k = str_unit(j->text, end, &off, u);

		if (k == 0 || k > cap - *n)
			return -1;
		memcpy(out + *n, u, k);
		*n += k;
	}
	return 0;
}

int
jsonr_int(const struct jsonr *j, size_t i, int64_t min, int64_t max,
    int64_t *v)
{
	const struct jsonr_tok *t;
	const char *p;
	size_t k = 0;
	int neg = 0;
	uint64_t u = 0;

	if (i >= j->n || j->tok[i].type != JSONR_NUMBER)
		return -1;
	t = &j->tok[i];
	p = j->text + t->start;
	if (p[0] == '-') {
		neg = 1;
		k = 1;
	}
	for (; k < t->len; k++) {
		if (p[k] < '0' || p[k] > '9' || u > (UINT64_MAX / 10) - 1)
			return -1;	/* a fraction, an exponent, too long */
		u = u * 10 + (uint64_t)(p[k] - '0');
	}
	if (u > (uint64_t)INT64_MAX)
		return -1;
	*v = neg ? -(int64_t)u : (int64_t)u;
	if (*v < min || *v > max)
		return -1;
	return 0;
}
