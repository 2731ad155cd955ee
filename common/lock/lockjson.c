/* lockjson.c - a lockfile's JSON on common/mcp/jsonparse, and its own
 * rules (lockjson.h). */
#include "common/lock/lockjson.h"

#include <string.h>

/* The first object key holding an escape, or NULL. */
static const struct json_node *
escaped_key(const struct json_doc *d)
{
	for (size_t i = 0; i < d->n; i++) {
		size_t k = i + 1;

		if (d->nodes[i].type != JSON_OBJECT)
			continue;
		for (uint32_t m = 0; m < d->nodes[i].count; m++) {
			const struct json_node *key = &d->nodes[k];

			if (memchr(d->src + key->off, '\\', key->len))
				return key;
			k = d->nodes[k + 1].end;
		}
	}
	return NULL;
}

int
lj_parse(struct lj_doc *doc, const uint8_t *text, size_t len,
    struct json_node *nodes, uint32_t *scratch, size_t cap,
    const char **why, size_t *at)
{
	const struct json_limits lim = { LJ_DEPTH_MAX, LJ_TEXT_MAX, 64, cap,
		cap };
	const struct json_node *key;
	enum json_status st;

	if (len > LJ_TEXT_MAX) {
		*why = "larger than a lockfile may be";
		*at = 0;
		return -1;
	}
	if ((st = json_parse(&doc->j, text, len, &lim, nodes, cap,
	    scratch)) != JSON_OK) {
		*why = json_status_name(st);
		*at = doc->j.err_off;
		return -1;
	}
	if ((key = escaped_key(&doc->j)) != NULL) {
		*why = "an object key with an escape";
		*at = key->off;
		return -1;
	}
	return 0;
}

size_t
lj_get(const struct lj_doc *doc, size_t obj, const char *key, size_t len)
{
	const struct json_node *v;

	if (obj >= doc->j.n || doc->j.nodes[obj].type != JSON_OBJECT ||
	    !(v = json_get(&doc->j, &doc->j.nodes[obj], key, len)))
		return 0;
	return json_index(&doc->j, v);
}

int
lj_plain(const struct lj_doc *doc, size_t i, const char **p, size_t *n)
{
	const struct json_node *t;
	const uint8_t *s;

	if (i == 0 || i >= doc->j.n || doc->j.nodes[i].type != JSON_STRING)
		return -1;
	t = &doc->j.nodes[i];
	s = doc->j.src + t->off;
	for (uint32_t k = 0; k < t->len; k++)
		if (s[k] < 0x20 || s[k] > 0x7e || s[k] == '\\')
			return -1;
	*p = (const char *)s;
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
