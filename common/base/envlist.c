/* envlist.c - parse the relay's forwarding list (see envlist.h). */
#include "common/base/envlist.h"

#include <stdio.h>
#include <string.h>

static int
name_char(unsigned char c, int first)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (!first && c >= '0' && c <= '9');
}

int
envlist_has(const struct envlist *l, const char *key, size_t len)
{
	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->key[i]) == len && memcmp(l->key[i], key, len) == 0)
			return 1;
	return 0;
}

int
envlist_add(struct envlist *l, const char *key, size_t len, char *err,
    size_t errlen)
{
	if (len == 0) {
		snprintf(err, errlen, "an empty key name");
		return -1;
	}
	if (len > ENV_KEY_MAX) {
		snprintf(err, errlen, "a key name of %zu bytes (at most %d)",
		    len, ENV_KEY_MAX);
		return -1;
	}
	for (size_t i = 0; i < len; i++)
		if (!name_char((unsigned char)key[i], i == 0)) {
			snprintf(err, errlen, "a key name with byte 0x%02x at "
			    "offset %zu (names are [A-Za-z_][A-Za-z0-9_]*, "
			    "separated by single commas)",
			    (unsigned char)key[i], i);
			return -1;
		}
	if (len >= 8 && memcmp(key, "AIRLOCK_", 8) == 0) {
		snprintf(err, errlen, "%.*s: airlock's control variables are "
		    "never forwarded", (int)len, key);
		return -1;
	}
	if (envlist_has(l, key, len)) {
		snprintf(err, errlen, "%.*s is named twice", (int)len, key);
		return -1;
	}
	if (l->n == ENVLIST_MAX) {
		snprintf(err, errlen, "more than %d keys", ENVLIST_MAX);
		return -1;
	}
	memcpy(l->key[l->n], key, len);
	l->key[l->n][len] = '\0';
	l->n++;
	return 0;
}

int
envlist_parse(struct envlist *l, const char *s, size_t len, char *err,
    size_t errlen)
{
	size_t start = 0;

	if (len == 0)
		return 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != ',')
			continue;
		if (envlist_add(l, s + start, i - start, err, errlen) != 0)
			return -1;
		start = i + 1;
	}
	return 0;
}
