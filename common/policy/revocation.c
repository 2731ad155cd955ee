/* revocation.c - load, reload and search the revoked token ids. */
#include "common/policy/revocation.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/b64url.h"
#include "common/base/fileio.h"
#include "common/wire/proto.h"
#include "common/base/bounded_rw.h"

#define ID_TEXT_LEN 22		/* B64URL_ENCODED_LEN(16) */

static int
id_cmp(const void *a, const void *b)
{
	return memcmp(a, b, REVOCATION_ID_LEN);
}

/* Bytes up to the next sep, which is consumed. */
static int
take_until(struct rd *r, uint8_t sep, const uint8_t **s, size_t *n)
{
	const uint8_t *start = r->p + r->off;
	const uint8_t *end = memchr(start, sep, rd_left(r));

	if (!end)
		return -1;
	*s = start;
	*n = (size_t)(end - start);
	r->off += *n + 1;
	return 0;
}

static int
all_digits(const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int
parse_entry(struct rd *r, uint8_t id[REVOCATION_ID_LEN], const char **why)
{
	const uint8_t *s;
	size_t n;

	if (take_until(r, ' ', &s, &n) || n != ID_TEXT_LEN ||
	    b64url_decode((const char *)s, n, id, REVOCATION_ID_LEN) !=
	    REVOCATION_ID_LEN) {
		*why = "bad token id";
		return -1;
	}
	if (take_until(r, ' ', &s, &n) || n == 0 || n > 20 ||
	    (n > 1 && s[0] == '0') || !all_digits(s, n)) {
		*why = "bad time";
		return -1;
	}
	if (take_until(r, '\n', &s, &n) || !proto_id_valid(s, n)) {
		*why = "bad record id";
		return -1;
	}
	return 0;
}

int
revocation_parse(const uint8_t *p, size_t n,
    uint8_t (**ids)[REVOCATION_ID_LEN], size_t *count, size_t *line,
    const char **why)
{
	const size_t hlen = sizeof REVOCATION_HEADER - 1;
	uint8_t (*out)[REVOCATION_ID_LEN];
	struct rd r;
	size_t cap, k = 0;

	*line = 1;
	if (n < hlen || memcmp(p, REVOCATION_HEADER, hlen) != 0) {
		*why = "missing header \"airlock-revocations 1\"";
		return -1;
	}
	/* Every entry takes at least ID_TEXT_LEN + 5 bytes: a cap known
	 * before allocating. */
	cap = (n - hlen) / (ID_TEXT_LEN + 5) + 1;
	if (!(out = calloc(cap, sizeof *out))) {
		*why = "out of memory";
		return -1;
	}
	r = rd_init(p + hlen, n - hlen);
	while (rd_left(&r) > 0) {
		++*line;
		if (k == cap || parse_entry(&r, out[k], why) != 0) {
			if (k == cap)
				*why = "too many entries";
			free(out);
			return -1;
		}
		k++;
	}
	qsort(out, k, sizeof *out, id_cmp);
	*ids = out;
	*count = k;
	return 0;
}

void
revocation_init(struct revocation_set *s, const char *path)
{
	memset(s, 0, sizeof *s);
	s->path = path;
}

void
revocation_free(struct revocation_set *s)
{
	free(s->ids);
	s->ids = NULL;
	s->n = 0;
	s->usable = 0;
}

int
revocation_reload(struct revocation_set *s, const char **why)
{
	uint8_t (*ids)[REVOCATION_ID_LEN];
	struct stat st;
	uint8_t *buf;
	size_t len, count, line;

	if (stat(s->path, &st) != 0) {
		*why = "cannot stat the revocation list";
		goto fail;
	}
	if (s->usable && st.st_dev == s->dev && st.st_ino == s->ino &&
	    st.st_size == s->size && st.st_mtim.tv_sec == s->mtime.tv_sec &&
	    st.st_mtim.tv_nsec == s->mtime.tv_nsec)
		return 0;
	if (file_read(s->path, REVOCATION_FILE_MAX, &buf, &len) != 0) {
		*why = errno == EFBIG ? "revocation list too large" :
		    "cannot read the revocation list";
		goto fail;
	}
	if (revocation_parse(buf, len, &ids, &count, &line, why) != 0) {
		free(buf);
		snprintf(s->err, sizeof s->err, "revocation list line %zu: %s",
		    line, *why);
		*why = s->err;
		goto fail;
	}
	free(buf);
	revocation_free(s);
	s->ids = ids;
	s->n = count;
	/* The identity seen before reading: a change during the read makes
	 * the next call read again. */
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->size = st.st_size;
	s->mtime = st.st_mtim;
	s->usable = 1;
	return 0;
fail:
	revocation_free(s);
	return -1;
}

int
revocation_contains(const struct revocation_set *s,
    const uint8_t id[REVOCATION_ID_LEN])
{
	return s->n > 0 && bsearch(id, s->ids, s->n, sizeof *s->ids, id_cmp);
}

int
revocation_append(const char *path, const uint8_t id[REVOCATION_ID_LEN],
    uint64_t when, const char *record, const char **why)
{
	char text[ID_TEXT_LEN + 1], line[ID_TEXT_LEN + 24 + PROTO_ID_MAX + 2];
	uint8_t (*ids)[REVOCATION_ID_LEN], *buf, *grown;
	size_t len, count, bad;
	int n, rc;

	if (b64url_encode(id, REVOCATION_ID_LEN, text, sizeof text) < 0 ||
	    !proto_id_valid((const uint8_t *)record, strlen(record))) {
		*why = "bad record id";
		return -1;
	}
	n = snprintf(line, sizeof line, "%s %llu %s\n", text,
	    (unsigned long long)when, record);
	if (file_read(path, REVOCATION_FILE_MAX - sizeof line, &buf, &len)) {
		*why = errno == EFBIG ? "revocation list full" :
		    "cannot read the revocation list";
		return -1;
	}
	if (revocation_parse(buf, len, &ids, &count, &bad, why) != 0) {
		free(buf);
		return -1;
	}
	free(ids);
	if (!(grown = realloc(buf, len + (size_t)n))) {
		free(buf);
		*why = "out of memory";
		return -1;
	}
	memcpy(grown + len, line, (size_t)n);
	rc = file_replace(path, grown, len + (size_t)n, 0644);
	free(grown);
	if (rc != 0)
		*why = "cannot write the revocation list";
	return rc;
}
