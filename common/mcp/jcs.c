/* jcs.c - RFC 8785 canonical JSON over a parsed document. */
#include "common/mcp/jcs.h"

#include <bearssl_hash.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/utf8.h"

int
jcs_buf_put(void *ctx, const void *p, size_t n)
{
	struct jcs_buf *b = ctx;

	if (n > b->cap - b->len)
		return -1;
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

/* The shortest decimal digits that read back to v (> 0, finite), as
 * ECMAScript picks them: digits[0..*k) and the decimal exponent n with
 * v = 0.d1d2... x 10^n. The correctly rounded p-digit form is the
 * nearest p-digit decimal, so the first p that reads back is the answer
 * (musl's printf and strtod are exact). */
static void
shortest(double v, char digits[20], int *k, int *n)
{
	char buf[40];

	for (int p = 1; p <= 17; p++) {
		int e;
		char *end;

		snprintf(buf, sizeof buf, "%.*e", p - 1, v);
		/* 17 digits always read back; fewer may: the first that
		 * does ends in no 0 (one digit less would have read back) */
		if (strtod(buf, NULL) != v && p < 17)
			continue;
		/* buf: d[.ddd]e[+-]xx */
		*k = 0;
		for (const char *c = buf; *c != 'e'; c++)
			if (*c != '.')
				digits[(*k)++] = *c;
		e = (int)strtol(strchr(buf, 'e') + 1, &end, 10);
		*n = e + 1;
		return;
	}
}

/* An integer of 1 to 15 digits (every id a client counts with): exactly
 * a double, whose shortest form is its own text, as the grammar allows
 * no leading zero; "-0" is 0. */
static int
small_integer(const uint8_t *p, size_t n, char out[JCS_NUMBER_MAX])
{
	size_t neg = n > 0 && p[0] == '-';

	if (n - neg < 1 || n - neg > 15)
		return -1;
	for (size_t i = neg; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return -1;
	if (n == 2 && neg && p[1] == '0') {
		out[0] = '0';
		return 1;
	}
	memcpy(out, p, n);
	return (int)n;
}

int
jcs_number(const uint8_t *p, size_t n, char out[JCS_NUMBER_MAX])
{
	char text[JCS_NUMBER_MAX * 4], digits[20], *end;
	double v;
	int k, e, len = 0;

	if ((len = small_integer(p, n, out)) > 0)
		return len;
	len = 0;
	/* json_parse checked the grammar; its number limit is the caller's,
	 * so the text is copied only when it fits */
	if (n == 0 || n >= sizeof text)
		return -1;
	memcpy(text, p, n);
	text[n] = '\0';
	v = strtod(text, &end);
	if (end != text + n || !isfinite(v))
		return -1;
	if (v == 0) {
		out[0] = '0';
		return 1;
	}
	if (v < 0) {
		out[len++] = '-';
		v = -v;
	}
	shortest(v, digits, &k, &e);
	if (k <= e && e <= 21) {
		memcpy(out + len, digits, (size_t)k);
		len += k;
		for (int i = k; i < e; i++)
			out[len++] = '0';
	} else if (0 < e && e <= 21) {
		memcpy(out + len, digits, (size_t)e);
		len += e;
		out[len++] = '.';
		memcpy(out + len, digits + e, (size_t)(k - e));
		len += k - e;
	} else if (-6 < e && e <= 0) {
		out[len++] = '0';
		out[len++] = '.';
		for (int i = 0; i < -e; i++)
			out[len++] = '0';
		memcpy(out + len, digits, (size_t)k);
		len += k;
	} else {
		out[len++] = digits[0];
		if (k > 1) {
			out[len++] = '.';
			memcpy(out + len, digits + 1, (size_t)(k - 1));
			len += k - 1;
		}
		len += snprintf(out + len, (size_t)(JCS_NUMBER_MAX - len),
		    "e%c%d", e - 1 >= 0 ? '+' : '-', abs(e - 1));
	}
	return len;
}

static int
put(const struct jcs_sink *out, const void *p, size_t n)
{
	return out->put(out->ctx, p, n);
}

static int
write_string(const struct json_doc *doc, const struct json_node *s,
    const struct jcs_sink *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t pos = 0;
	uint32_t cp;

	/* no escape in the text: its bytes are its canonical form (the
	 * parser let no raw control, quote or invalid UTF-8 through) */
	if (!memchr(doc->src + s->off, '\\', s->len))
		return put(out, "\"", 1) || put(out, doc->src + s->off,
		    s->len) || put(out, "\"", 1) ? -1 : 0;
	if (put(out, "\"", 1) != 0)
		return -1;
	while (json_str_next(doc, s, &pos, &cp)) {
		char b[6];
		size_t k = 0;

		switch (cp) {
		case '"': b[0] = '\\'; b[1] = '"'; k = 2; break;
		case '\\': b[0] = '\\'; b[1] = '\\'; k = 2; break;
		case '\b': b[0] = '\\'; b[1] = 'b'; k = 2; break;
		case '\f': b[0] = '\\'; b[1] = 'f'; k = 2; break;
		case '\n': b[0] = '\\'; b[1] = 'n'; k = 2; break;
		case '\r': b[0] = '\\'; b[1] = 'r'; k = 2; break;
		case '\t': b[0] = '\\'; b[1] = 't'; k = 2; break;
		default:
			if (cp < 0x20) {
				memcpy(b, "\\u00", 4);
				b[4] = hex[cp >> 4];
				b[5] = hex[cp & 15];
				k = 6;
			} else {
				k = utf8_put(cp, (uint8_t *)b);
			}
		}
		if (put(out, b, k) != 0)
			return -1;
	}
	return put(out, "\"", 1);
}

/* scratch is a stack: an object's sorted keys stay in use while its
 * values (and their objects) are written above them; the members along
 * one path never number more than the document's nodes. */
static int
write_value(const struct json_doc *doc, const struct json_node *v,
    const struct jcs_sink *out, uint32_t *scratch,
    const struct jcs_omit *omit)
{
	int first = 1;

	size_t i = json_index(doc, v) + 1;
	char num[JCS_NUMBER_MAX];
	int n;

	switch (v->type) {
	case JSON_NULL:
		return put(out, "null", 4);
	case JSON_FALSE:
		return put(out, "false", 5);
	case JSON_TRUE:
		return put(out, "true", 4);
	case JSON_NUMBER:
		n = jcs_number(doc->src + v->off, v->len, num);
		return n < 0 ? -1 : put(out, num, (size_t)n);
	case JSON_STRING:
		return write_string(doc, v, out);
	case JSON_ARRAY:
		if (put(out, "[", 1) != 0)
			return -1;
		for (uint32_t m = 0; m < v->count; m++) {
			const struct json_node *e = &doc->nodes[i];

			i = e->end;
			if (omit && omit->fn(omit->ctx, doc, v, e))
				continue;
			if ((!first && put(out, ",", 1) != 0) ||
			    write_value(doc, e, out, scratch, omit))
				return -1;
			first = 0;
		}
		return put(out, "]", 1);
	default:
		break;
	}
	json_sort_keys(doc, v, scratch);
	if (put(out, "{", 1) != 0)
		return -1;
	for (uint32_t m = 0; m < v->count; m++) {
		const struct json_node *k = &doc->nodes[scratch[m]];

		if ((m > 0 && put(out, ",", 1) != 0) ||
		    write_string(doc, k, out) != 0 || put(out, ":", 1) != 0 ||
		    write_value(doc, k + 1, out, scratch + v->count,
		    omit) != 0)
			return -1;
	}
	return put(out, "}", 1);
}

int
jcs_write(const struct json_doc *doc, const struct json_node *v,
    const struct jcs_sink *out, uint32_t *scratch)
{
	return write_value(doc, v, out, scratch, NULL);
}

int
jcs_write_omitting(const struct json_doc *doc, const struct json_node *v,
    const struct jcs_sink *out, uint32_t *scratch,
    const struct jcs_omit *omit)
{
	return write_value(doc, v, out, scratch, omit);
}

int
jcs_str_equal(const struct json_doc *da, const struct json_node *a,
    const struct json_doc *db, const struct json_node *b)
{
	size_t pa = 0, pb = 0;
	uint32_t ca, cb;

	for (;;) {
		int ma = json_str_next(da, a, &pa, &ca);
		int mb = json_str_next(db, b, &pb, &cb);

		if (!ma || !mb)
			return ma == mb;
		if (ca != cb)
			return 0;
	}
}

/* As write_value, scratch is a stack per document: an object's sorted
 * keys stay in place while its values are compared above them. */
int
jcs_equal(const struct json_doc *da, const struct json_node *a,
    const struct json_doc *db, const struct json_node *b, uint32_t *sa,
    uint32_t *sb)
{
	char na[JCS_NUMBER_MAX], nb[JCS_NUMBER_MAX];
	size_t ia = json_index(da, a) + 1, ib = json_index(db, b) + 1;
	int la, lb;

	if (a->type != b->type || a->count != b->count)
		return 0;
	switch (a->type) {
	case JSON_NUMBER:
		la = jcs_number(da->src + a->off, a->len, na);
		lb = jcs_number(db->src + b->off, b->len, nb);
		return la >= 0 && la == lb && memcmp(na, nb, (size_t)la) == 0;
	case JSON_STRING:
		return jcs_str_equal(da, a, db, b);
	case JSON_ARRAY:
		for (uint32_t m = 0; m < a->count; m++) {
			const struct json_node *ea = &da->nodes[ia];
			const struct json_node *eb = &db->nodes[ib];

			if (!jcs_equal(da, ea, db, eb, sa, sb))
				return 0;
			ia = ea->end;
			ib = eb->end;
		}
		return 1;
	case JSON_OBJECT:
		json_sort_keys(da, a, sa);
		json_sort_keys(db, b, sb);
		for (uint32_t m = 0; m < a->count; m++) {
			const struct json_node *ka = &da->nodes[sa[m]];
			const struct json_node *kb = &db->nodes[sb[m]];

			if (!jcs_str_equal(da, ka, db, kb) ||
			    !jcs_equal(da, ka + 1, db, kb + 1, sa + a->count,
			    sb + b->count))
				return 0;
		}
		return 1;
	default:
		return 1;	/* null, false, true: the type says it */
	}
}

/* The canonical writer's many small pieces, hashed in blocks. */
struct hash_sink {
	br_sha256_context h;
	size_t len;
	uint8_t buf[512];
};

static int
hash_put(void *ctx, const void *p, size_t n)
{
	struct hash_sink *s = ctx;

	if (n > sizeof s->buf - s->len) {
		br_sha256_update(&s->h, s->buf, s->len);
		s->len = 0;
	}
	if (n > sizeof s->buf) {
		br_sha256_update(&s->h, p, n);
		return 0;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	return 0;
}

int
jcs_sha256(const struct json_doc *doc, const struct json_node *v,
    uint32_t *scratch, uint8_t digest[32])
{
	struct hash_sink h;
	struct jcs_sink s = { hash_put, &h };

	br_sha256_init(&h.h);
	h.len = 0;
	if (jcs_write(doc, v, &s, scratch) != 0)
		return -1;
	br_sha256_update(&h.h, h.buf, h.len);
	br_sha256_out(&h.h, digest);
	return 0;
}
