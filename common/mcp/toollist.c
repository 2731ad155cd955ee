/* toollist.c - an approval's tool allowlist: canonical text, lookup. */
#include "common/mcp/toollist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
name_byte(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
	    c == '/';
}

/* Byte-wise order, a proper prefix first. */
static int
name_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	if (c != 0)
		return c;
	return an < bn ? -1 : an > bn;
}

struct span {
	const uint8_t *p;
	size_t n;
};

static int
span_order(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return name_cmp(x->p, x->n, y->p, y->n);
}

long
toollist_canonical(const char *in, size_t n, char *out, size_t cap,
    char *err, size_t errcap)
{
	/* a name and its comma take 2 bytes at least */
	static struct span names[TOOLLIST_TEXT_MAX / 2 + 1];
	const uint8_t *p = (const uint8_t *)in;
	size_t count = 0, len = 0, start = 0;

	if (n > TOOLLIST_TEXT_MAX) {
		snprintf(err, errcap, "the list is longer than %d bytes",
		    TOOLLIST_TEXT_MAX);
		return -1;
	}
	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] != ',') {
			if (!name_byte(p[i])) {
				snprintf(err, errcap, "a tool name may hold "
				    "only A-Z a-z 0-9 _ - . / (byte %zu)", i);
				return -1;
			}
			continue;
		}
		if (i == start || i - start > TOOLLIST_NAME_MAX) {
			snprintf(err, errcap, "a tool name must be 1 to %d "
			    "bytes (at byte %zu)", TOOLLIST_NAME_MAX, start);
			return -1;
		}
		names[count++] = (struct span){ p + start, i - start };
		start = i + 1;
	}
	qsort(names, count, sizeof *names, span_order);
	for (size_t i = 0; i < count; i++) {
		if (i > 0 && span_order(&names[i - 1], &names[i]) == 0)
			continue;
		if (names[i].n + 2 > cap - len) {
			snprintf(err, errcap, "the list does not fit");
			return -1;
		}
		if (len > 0)
			out[len++] = ',';
		memcpy(out + len, names[i].p, names[i].n);
		len += names[i].n;
	}
	out[len] = '\0';
	return (long)len;
}

int
toollist_is_canonical(const uint8_t *list, size_t n)
{
	static char canon[TOOLLIST_TEXT_MAX + 1];
	char err[96];
	long k = toollist_canonical((const char *)list, n, canon,
	    sizeof canon, err, sizeof err);

	return n > 0 && k == (long)n && memcmp(canon, list, n) == 0;
}

int
toollist_has(const uint8_t *list, size_t n, const uint8_t *name,
    size_t len)
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && list[i] != ',')
			continue;
		if (i - start == len && memcmp(list + start, name, len) == 0)
			return 1;
		start = i + 1;
	}
	return 0;
}
