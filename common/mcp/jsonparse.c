/* jsonparse.c - a strict, bounded JSON parser over untrusted bytes. */
#include "common/mcp/jsonparse.h"

#include <stdlib.h>
#include <string.h>

#include "common/base/utf8.h"

struct parser {
	struct json_doc *doc;
	const struct json_limits *lim;
	size_t cap;		/* nodes available */
	uint32_t *scratch;	/* lim->members entries */
	size_t off;		/* invariant: off <= doc->src_len */
	enum json_status err;
};

const char *
json_status_name(enum json_status s)
{
	static const char *const names[] = {
		[JSON_OK] = "ok",
		[JSON_BAD_SYNTAX] = "bad_syntax",
		[JSON_BAD_UTF8] = "bad_utf8",
		[JSON_BAD_ESCAPE] = "bad_escape",
		[JSON_CONTROL_CHAR] = "control_char",
		[JSON_DUPLICATE_KEY] = "duplicate_key",
		[JSON_TOO_DEEP] = "too_deep",
		[JSON_STRING_TOO_LONG] = "string_too_long",
		[JSON_NUMBER_TOO_LONG] = "number_too_long",
		[JSON_TOO_MANY_MEMBERS] = "too_many_members",
		[JSON_TOO_MANY_NODES] = "too_many_nodes",
	};

	if ((unsigned)s >= JSON_STATUS_MAX_)
		return "unknown";
	return names[s];
}

static int
fail(struct parser *ps, enum json_status st)
{
	if (ps->err == JSON_OK) {
		ps->err = st;
		ps->doc->err_off = ps->off;
	}
	return -1;
}

static int
peek(const struct parser *ps)
{
	return ps->off < ps->doc->src_len ? ps->doc->src[ps->off] : -1;
}

static void
skip_ws(struct parser *ps)
{
	int c;

	while ((c = peek(ps)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		ps->off++;
}

/* A node for a value starting at off. */
static struct json_node *
new_node(struct parser *ps, enum json_type t, size_t off)
{
	struct json_node *v;

	if (ps->doc->n >= ps->cap || ps->doc->n >= ps->lim->nodes) {
		fail(ps, JSON_TOO_MANY_NODES);
		return NULL;
	}
	v = &ps->doc->nodes[ps->doc->n++];
	*v = (struct json_node){ (uint8_t)t, (uint32_t)off, 0, 0, 0 };
	return v;
}

static int
literal(struct parser *ps, const char *word, size_t n, enum json_type t)
{
	struct json_node *v;

	if (n > ps->doc->src_len - ps->off ||
	    memcmp(ps->doc->src + ps->off, word, n) != 0)
		return fail(ps, JSON_BAD_SYNTAX);
	if ((v = new_node(ps, t, ps->off)) == NULL)
		return -1;
	ps->off += n;
	v->len = (uint32_t)n;
	v->end = (uint32_t)ps->doc->n;
	return 0;
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* Digits: one at least. */
static int
digits(struct parser *ps)
{
	if (!is_digit(peek(ps)))
		return fail(ps, JSON_BAD_SYNTAX);
	while (is_digit(peek(ps)))
		ps->off++;
	return 0;
}

static int
number(struct parser *ps)
{
	size_t start = ps->off;
	struct json_node *v;

	if (peek(ps) == '-')
		ps->off++;
	if (peek(ps) == '0')
		ps->off++;
	else if (digits(ps) != 0)
		return -1;
	if (peek(ps) == '.') {
		ps->off++;
		if (digits(ps) != 0)
			return -1;
	}
	if (peek(ps) == 'e' || peek(ps) == 'E') {
		ps->off++;
		if (peek(ps) == '+' || peek(ps) == '-')
			ps->off++;
		if (digits(ps) != 0)
			return -1;
	}
	if (ps->off - start > ps->lim->number) {
		ps->off = start;
		return fail(ps, JSON_NUMBER_TOO_LONG);
	}
	if ((v = new_node(ps, JSON_NUMBER, start)) == NULL)
		return -1;
	v->len = (uint32_t)(ps->off - start);
	v->end = (uint32_t)ps->doc->n;
	return 0;
}

static int
hex4(const uint8_t *p, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++) {
		uint8_t c = p[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v << 4 | (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* A \u escape at p[0..n) (p[0] == '\\', p[1] == 'u'): the code point, a
 * surrogate pair taken whole; the bytes used, or 0 when bad. */
static size_t
unicode_escape(const uint8_t *p, size_t n, uint32_t *cp)
{
	uint32_t hi, lo;

	if (n < 6 || hex4(p + 2, &hi) != 0)
		return 0;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return 0;		/* a low surrogate first */
	if (hi < 0xd800 || hi > 0xdbff) {
		*cp = hi;
		return 6;
	}
	if (n < 12 || p[6] != '\\' || p[7] != 'u' || hex4(p + 8, &lo) != 0 ||
	    lo < 0xdc00 || lo > 0xdfff)
		return 0;		/* a high surrogate alone */
	*cp = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
	return 12;
}

/* One character of a string's text at p[0..n) (n >= 1, not at the
 * closing quote): its code point and length, or 0 with *st set. */
static size_t
string_char(const uint8_t *p, size_t n, uint32_t *cp, enum json_status *st)
{
	size_t k;

	if (p[0] < 0x20) {
		*st = JSON_CONTROL_CHAR;
		return 0;
	}
	if (p[0] != '\\') {
		if ((k = utf8_seq(p, n, cp)) == 0)
			*st = JSON_BAD_UTF8;
		return k;
	}
	*st = JSON_BAD_ESCAPE;
	if (n < 2)
		return 0;
	switch (p[1]) {
	case '"': *cp = '"'; return 2;
	case '\\': *cp = '\\'; return 2;
	case '/': *cp = '/'; return 2;
	case 'b': *cp = '\b'; return 2;
	case 'f': *cp = '\f'; return 2;
	case 'n': *cp = '\n'; return 2;
	case 'r': *cp = '\r'; return 2;
	case 't': *cp = '\t'; return 2;
	case 'u': return unicode_escape(p, n, cp);
	default: return 0;
	}
}

static int
string(struct parser *ps)
{
	const uint8_t *src = ps->doc->src;
	size_t end = ps->doc->src_len, start;
	struct json_node *v;

	ps->off++;			/* the opening quote */
	start = ps->off;
	while (ps->off < end && src[ps->off] != '"') {
		enum json_status st = JSON_OK;
		uint32_t cp;
		size_t k;

		if (src[ps->off] >= 0x20 && src[ps->off] < 0x80 &&
		    src[ps->off] != '\\')
			k = 1;	/* plain ASCII, most of MCP's text: inline */
		else if ((k = string_char(src + ps->off, end - ps->off, &cp,
		    &st)) == 0)
			return fail(ps, st);
		if (ps->off + k - start > ps->lim->string)
			return fail(ps, JSON_STRING_TOO_LONG);
		ps->off += k;
	}
	if (ps->off >= end)
		return fail(ps, JSON_BAD_SYNTAX);
	if ((v = new_node(ps, JSON_STRING, start)) == NULL)
		return -1;
	v->len = (uint32_t)(ps->off - start);
	ps->off++;			/* the closing quote */
	v->end = (uint32_t)ps->doc->n;
	return 0;
}

int
json_str_next(const struct json_doc *doc, const struct json_node *s,
    size_t *pos, uint32_t *cp)
{
	enum json_status st;
	size_t k;

	if (*pos >= s->len)
		return 0;
	k = string_char(doc->src + s->off + *pos, s->len - *pos, cp, &st);
	if (k == 0)			/* not an accepted string: stop */
		return 0;
	*pos += k;
	return 1;
}

/* The UTF-16 code unit sequence of cp: 1 or 2 units into u. */
static int
utf16_units(uint32_t cp, uint16_t u[2])
{
	if (cp < 0x10000) {
		u[0] = (uint16_t)cp;
		return 1;
	}
	cp -= 0x10000;
	u[0] = (uint16_t)(0xd800 + (cp >> 10));
	u[1] = (uint16_t)(0xdc00 + (cp & 0x3ff));
	return 2;
}

int
json_str_cmp(const struct json_doc *doc, const struct json_node *a,
    const struct json_node *b)
{
	return json_str_cmp2(doc, a, doc, b);
}

int
json_str_cmp2(const struct json_doc *da, const struct json_node *a,
    const struct json_doc *db, const struct json_node *b)
{
	size_t pa = 0, pb = 0;
	uint16_t ua[2], ub[2];
	int na = 0, nb = 0, ia = 0, ib = 0;

	for (;;) {
		uint32_t cp;

		if (ia == na) {
			na = json_str_next(da, a, &pa, &cp) ?
			    utf16_units(cp, ua) : 0;
			ia = 0;
		}
		if (ib == nb) {
			nb = json_str_next(db, b, &pb, &cp) ?
			    utf16_units(cp, ub) : 0;
			ib = 0;
		}
		if (na == 0 || nb == 0)
			return (na != 0) - (nb != 0);
		if (ua[ia] != ub[ib])
			return ua[ia] < ub[ib] ? -1 : 1;
		ia++;
		ib++;
	}
}

int
json_str_eq(const struct json_doc *doc, const struct json_node *s,
    const char *lit, size_t n)
{
	size_t pos = 0, at = 0;
	uint32_t cp;

	/* no escape: the text is the string (the parse checked it) */
	if (!memchr(doc->src + s->off, '\\', s->len))
		return s->len == n && memcmp(doc->src + s->off, lit, n) == 0;
	while (json_str_next(doc, s, &pos, &cp)) {
		uint8_t b[4];
		size_t k = utf8_put(cp, b);

		if (k > n - at || memcmp(lit + at, b, k) != 0)
			return 0;
		at += k;
	}
	return at == n;
}

long
json_str_copy(const struct json_doc *doc, const struct json_node *s,
    char *out, size_t cap)
{
	size_t pos = 0, at = 0;
	uint32_t cp;

	if (cap == 0)
		return -1;
	while (json_str_next(doc, s, &pos, &cp)) {
		uint8_t b[4];
		size_t k = utf8_put(cp, b);

		if (cp == 0 || k >= cap - at)
			return -1;
		memcpy(out + at, b, k);
		at += k;
	}
	out[at] = '\0';
	return (long)at;
}

const struct json_node *
json_get(const struct json_doc *doc, const struct json_node *obj,
    const char *key, size_t n)
{
	size_t i;

	if (obj->type != JSON_OBJECT)
		return NULL;
	i = json_index(doc, obj) + 1;
	for (uint32_t m = 0; m < obj->count; m++) {
		const struct json_node *k = &doc->nodes[i];
		const struct json_node *v = &doc->nodes[i + 1];

		if (json_str_eq(doc, k, key, n))
			return v;
		i = v->end;
	}
	return NULL;
}

/* qsort has no context argument in C11; one sort at a time (the
 * parser and the canonical writer are single-threaded) */
static const struct json_doc *sort_doc;

static int
key_order(const void *a, const void *b)
{
	return json_str_cmp(sort_doc, &sort_doc->nodes[*(const uint32_t *)a],
	    &sort_doc->nodes[*(const uint32_t *)b]);
}

void
json_sort_keys(const struct json_doc *doc, const struct json_node *obj,
    uint32_t *keys)
{
	size_t i = json_index(doc, obj) + 1;

	for (uint32_t m = 0; m < obj->count; m++) {
		keys[m] = (uint32_t)i;
		i = doc->nodes[i + 1].end;
	}
	sort_doc = doc;
	qsort(keys, obj->count, sizeof *keys, key_order);
}

/* Any two keys of obj equal? Sorted (n log n), then neighbours. */
static int
has_duplicate(struct parser *ps, const struct json_node *obj)
{
	/* a few keys: each pair, no sort (most objects of a message) */
	if (obj->count <= 8) {
		uint32_t k[8];
		size_t i = json_index(ps->doc, obj) + 1;

		for (uint32_t m = 0; m < obj->count; m++) {
			k[m] = (uint32_t)i;
			for (uint32_t j = 0; j < m; j++)
				if (json_str_cmp(ps->doc, &ps->doc->nodes[k[j]],
				    &ps->doc->nodes[i]) == 0)
					return 1;
			i = ps->doc->nodes[i + 1].end;
		}
		return 0;
	}
	json_sort_keys(ps->doc, obj, ps->scratch);
	for (uint32_t m = 1; m < obj->count; m++)
		if (key_order(&ps->scratch[m - 1], &ps->scratch[m]) == 0)
			return 1;
	return 0;
}

static int value(struct parser *ps, unsigned depth);

/* An array or an object: its members, separated, up to the closing
 * bracket. */
static int
container(struct parser *ps, unsigned depth, enum json_type t)
{
	size_t idx, start = ps->off;
	int close = t == JSON_OBJECT ? '}' : ']';
	uint32_t count = 0;

	if (depth >= ps->lim->depth)
		return fail(ps, JSON_TOO_DEEP);
	if (new_node(ps, t, start) == NULL)
		return -1;
	idx = ps->doc->n - 1;
	ps->off++;
	skip_ws(ps);
	if (peek(ps) != close) {
		for (;;) {
			if (count >= ps->lim->members)
				return fail(ps, JSON_TOO_MANY_MEMBERS);
			skip_ws(ps);
			if (t == JSON_OBJECT) {
				if (peek(ps) != '"')
					return fail(ps, JSON_BAD_SYNTAX);
				if (string(ps) != 0)
					return -1;
				skip_ws(ps);
				if (peek(ps) != ':')
					return fail(ps, JSON_BAD_SYNTAX);
				ps->off++;
			}
			if (value(ps, depth + 1) != 0)
				return -1;
			count++;
			skip_ws(ps);
			if (peek(ps) != ',')
				break;
			ps->off++;
		}
		if (peek(ps) != close)
			return fail(ps, JSON_BAD_SYNTAX);
	}
	ps->off++;
	ps->doc->nodes[idx].count = count;
	ps->doc->nodes[idx].len = (uint32_t)(ps->off - start);
	ps->doc->nodes[idx].end = (uint32_t)ps->doc->n;
	if (t == JSON_OBJECT && count > 1 &&
	    has_duplicate(ps, &ps->doc->nodes[idx])) {
		ps->off = start;
		return fail(ps, JSON_DUPLICATE_KEY);
	}
	return 0;
}

static int
value(struct parser *ps, unsigned depth)
{
	skip_ws(ps);
	switch (peek(ps)) {
	case '{':
		return container(ps, depth, JSON_OBJECT);
	case '[':
		return container(ps, depth, JSON_ARRAY);
	case '"':
		return string(ps);
	case 't':
		return literal(ps, "true", 4, JSON_TRUE);
	case 'f':
		return literal(ps, "false", 5, JSON_FALSE);
	case 'n':
		return literal(ps, "null", 4, JSON_NULL);
	default:
		if (peek(ps) == '-' || is_digit(peek(ps)))
			return number(ps);
		return fail(ps, JSON_BAD_SYNTAX);
	}
}

enum json_status
json_parse(struct json_doc *doc, const uint8_t *src, size_t len,
    const struct json_limits *lim, struct json_node *nodes, size_t cap,
    uint32_t *scratch)
{
	struct parser ps = { doc, lim, cap, scratch, 0, JSON_OK };

	*doc = (struct json_doc){ src, len, nodes, 0, 0 };
	/* offsets are kept in 32 bits */
	if (len > UINT32_MAX - 1) {
		doc->err_off = 0;
		return JSON_STRING_TOO_LONG;
	}
	if (value(&ps, 0) != 0)
		return ps.err;
	skip_ws(&ps);
	if (ps.off != len) {
		fail(&ps, JSON_BAD_SYNTAX);
		return ps.err;
	}
	return JSON_OK;
}
