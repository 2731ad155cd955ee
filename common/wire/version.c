/* version.c - protocol versions: prologues and the versions hint. */
#include "common/wire/version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1..VERSION_WORD_MAX lower-case letters: no space or other byte that
 * could make two (version, word) pairs spell one prologue. */
static int
is_word(const char *w)
{
	size_t n = 0;

	for (; w[n]; n++)
		if (n == VERSION_WORD_MAX || w[n] < 'a' || w[n] > 'z')
			return 0;
	return n > 0;
}

size_t
version_prologue(unsigned v, const char *word, char *buf, size_t cap)
{
	int n;

	if (v < 1 || v > VERSION_MAX || (word && !is_word(word)))
		return 0;
	n = snprintf(buf, cap, "airlock/%u%s%s Noise_NNpsk0_25519_ChaChaPoly_"
	    "SHA256", v, word ? " " : "", word ? word : "");
	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

void
version_list_text(uint32_t mask, char *buf, size_t cap)
{
	size_t len = 0;

	if (cap == 0)
		return;
	buf[0] = '\0';
	for (unsigned v = 1; v <= VERSION_MAX; v++) {
		int n;

		if (!(mask & (1u << v)))
			continue;
		n = snprintf(buf + len, cap - len, "%s%u", len ? "," : "", v);
		if (n < 0 || (size_t)n >= cap - len)
			return;
		len += (size_t)n;
	}
}

size_t
version_hint_encode(uint32_t mask, uint8_t *buf, size_t cap)
{
	char list[VERSION_HINT_MAX];
	int n;

	mask &= ~1u;	/* version 0 does not exist */
	if (!mask)
		return 0;
	version_list_text(mask, list, sizeof list);
	n = snprintf((char *)buf, cap, "%s%s", VERSION_HINT_PREFIX, list);
	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

/* Versions "V(,V)*" of s[0..n) into *mask: ascending, 1..VERSION_MAX,
 * canonical decimal. 0 or -1. */
static int
parse_list(const char *s, size_t n, uint32_t *mask)
{
	unsigned last = 0;
	size_t i = 0;
	uint32_t m = 0;

	if (n == 0)
		return -1;
	while (i < n) {
		unsigned v = 0;
		size_t start = i;

		while (i < n && s[i] >= '0' && s[i] <= '9' && i - start < 3)
			v = v * 10 + (unsigned)(s[i++] - '0');
		if (i == start || (i - start > 1 && s[start] == '0') ||
		    v < 1 || v > VERSION_MAX || v <= last)
			return -1;
		m |= 1u << v;
		last = v;
		if (i < n && (s[i++] != ',' || i == n))
			return -1;
	}
	*mask = m;
	return 0;
}

int
version_hint_parse(const uint8_t *p, size_t n, uint32_t *mask)
{
	size_t k = sizeof VERSION_HINT_PREFIX - 1;

	if (n <= k || n > VERSION_HINT_MAX ||
	    memcmp(p, VERSION_HINT_PREFIX, k) != 0)
		return -1;
	return parse_list((const char *)p + k, n - k, mask);
}

int
version_list_parse(const char *s, uint32_t *mask)
{
	if (!s || !*s)
		return 0;
	return parse_list(s, strnlen(s, VERSION_HINT_MAX + 1), mask);
}

int
version_test_hook(uint32_t *mask)
{
	const char *v = getenv(VERSION_TEST_HOOK);

	if (!v || !*v)
		return 0;
	return version_list_parse(v, mask) == 0 ? 1 : -1;
}

int
version_word_hook(const char **word)
{
	const char *v = getenv(VERSION_WORD_HOOK);

	if (!v || !*v)
		return 0;
	if (strcmp(v, "none") == 0) {
		*word = NULL;
		return 1;
	}
	if (!is_word(v))
		return -1;
	*word = v;
	return 1;
}
