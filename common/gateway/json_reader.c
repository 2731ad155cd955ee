/* json_reader.c - the gateway's bounds and lookups over common/mcp/
 * jsonparse (json_reader.h). */
#include "common/gateway/json_reader.h"

#include <string.h>

#include "common/base/utf8.h"

/* The first object key whose text is over JSONR_KEY_MAX, or NULL. */
static const struct json_node *
long_key(const struct json_doc *d)
{
	for (size_t i = 0; i < d->n; i++) {
		size_t k = i + 1;

		if (d->nodes[i].type != JSON_OBJECT)
			continue;
		for (uint32_t m = 0; m < d->nodes[i].count; m++) {
			if (d->nodes[k].len > JSONR_KEY_MAX)
				return &d->nodes[k];
			k = d->nodes[k + 1].end;
		}
	}
	return NULL;
}

enum jsonr_status
jsonr_parse(struct jsonr *j, const char *text, size_t len,
    struct json_node *tok, size_t cap)
{
	const struct json_limits lim = { JSONR_DEPTH_MAX, JSONR_TEXT_MAX,
		JSONR_NUMBER_MAX, cap, cap };
	const struct json_node *key;
	enum json_status st;

	memset(&j->d, 0, sizeof j->d);
	j->tok = tok;
	j->n = 0;
	j->err = NULL;
	j->err_off = 0;
	if (len > JSONR_TEXT_MAX || cap == 0 || cap > JSONR_VALUES_MAX) {
		j->err = len > JSONR_TEXT_MAX ? "text over the size limit" :
		    "no room for values";
		return JSONR_LIMIT;
	}
	st = json_parse(&j->d, (const uint8_t *)text, len, &lim, tok, cap,
	    j->scratch);
	if (st != JSON_OK) {
		j->err = json_status_name(st);
		j->err_off = j->d.err_off;
		return st == JSON_TOO_DEEP || st == JSON_STRING_TOO_LONG ||
		    st == JSON_NUMBER_TOO_LONG || st == JSON_TOO_MANY_MEMBERS ||
		    st == JSON_TOO_MANY_NODES ? JSONR_LIMIT : JSONR_BAD;
	}
	if ((key = long_key(&j->d)) != NULL) {
		j->err = "a key over 256 bytes";
		j->err_off = key->off;
		return JSONR_LIMIT;
	}
	j->n = j->d.n;
	return JSONR_OK;
}

long
jsonr_member(const struct jsonr *j, size_t obj, const char *key)
{
	const struct json_node *v;

	if (obj >= j->n || j->tok[obj].type != JSON_OBJECT ||
	    !(v = json_get(&j->d, &j->tok[obj], key, strlen(key))))
		return -1;
	return (long)json_index(&j->d, v);
}

long
jsonr_element(const struct jsonr *j, size_t arr, size_t i)
{
	size_t k;

	if (arr >= j->n || j->tok[arr].type != JSON_ARRAY ||
	    i >= j->tok[arr].count)
		return -1;
	for (k = arr + 1; i > 0; i--)
		k = j->tok[k].end;
	return (long)k;
}

int
jsonr_string(const struct jsonr *j, size_t i, char *out, size_t cap,
    size_t *n)
{
	size_t pos = 0;
	uint32_t cp;

	if (i >= j->n || j->tok[i].type != JSON_STRING)
		return -1;
	*n = 0;
	while (json_str_next(&j->d, &j->tok[i], &pos, &cp)) {
		uint8_t u[4];
		size_t k = utf8_put(cp, u);

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
	const struct json_node *t;
	const uint8_t *p;
	size_t k = 0;
	int neg = 0;
	uint64_t u = 0;

	if (i >= j->n || j->tok[i].type != JSON_NUMBER)
		return -1;
	t = &j->tok[i];
	p = j->d.src + t->off;
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
