/* revocation.c - load, reload and search the revoked token ids. */
#include "common/policy/revocation.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bearssl_hash.h>

#include "common/base/b64url.h"
#include "common/base/decnum.h"
#include "common/base/fileio.h"
#include "common/wire/proto.h"
#include "common/base/bounded_rw.h"
#include "common/policy/revfloor.h"

#define ID_TEXT_LEN 22		/* B64URL_ENCODED_LEN(16) */
#define SIG_TEXT_LEN 86		/* B64URL_ENCODED_LEN(64) */

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

#define SIG_LINE_LEN (4 + ID_TEXT_LEN + 1 + SIG_TEXT_LEN + 1)

/* "serial N\n": N from 1, in its one decimal spelling */
static int
parse_serial(struct rd *r, uint64_t *serial, const char **why)
{
	const uint8_t *s;
	size_t n;

	*why = "bad serial line (\"serial N\", N a decimal from 1)";
	if (take_until(r, ' ', &s, &n) || n != 6 || memcmp(s, "serial", 6) ||
	    take_until(r, '\n', &s, &n) || decnum_parse_max((const char *)s, n,
	    REVOCATION_SERIAL_MAX, serial) != 0 || *serial == 0)
		return -1;
	return 0;
}

size_t
revocation_entries_off(uint64_t serial)
{
	char line[32];

	return sizeof REVOCATION_HEADER - 1 + (serial ? (size_t)snprintf(line,
	    sizeof line, "serial %llu\n", (unsigned long long)serial) : 0);
}

/* "sig KEY-ID SIGNATURE\n", each in its one base64url spelling */
static int
parse_sig(struct rd *r, struct revocation_sig *sig, const char **why)
{
	const uint8_t *s;
	size_t n;

	if (take_until(r, ' ', &s, &n) || n != 3 || memcmp(s, "sig", 3) != 0 ||
	    take_until(r, ' ', &s, &n) || n != ID_TEXT_LEN ||
	    b64url_decode((const char *)s, n, sig->key_id, ECKEY_ID_LEN) !=
	    ECKEY_ID_LEN) {
		*why = "bad signature key id";
		return -1;
	}
	if (take_until(r, '\n', &s, &n) || n != SIG_TEXT_LEN ||
	    b64url_decode((const char *)s, n, sig->sig, ECKEY_SIG_LEN) !=
	    ECKEY_SIG_LEN) {
		*why = "bad signature";
		return -1;
	}
	if (rd_left(r) != 0) {
		*why = "text after the signature line";
		return -1;
	}
	sig->present = 1;
	return 0;
}

int
revocation_parse(const uint8_t *p, size_t n,
    uint8_t (**ids)[REVOCATION_ID_LEN], size_t *count,
    struct revocation_sig *sig, uint64_t *serial, size_t *line,
    const char **why)
{
	const size_t hlen = sizeof REVOCATION_HEADER - 1;
	uint8_t (*out)[REVOCATION_ID_LEN];
	size_t cap, k = 0;
	struct rd r;
	int signable;

	*line = 1;
	*serial = 0;
	memset(sig, 0, sizeof *sig);
	/* the three headers have one length */
	if (n >= hlen && (memcmp(p, REVOCATION_HEADER_V3, hlen) == 0 ||
	    memcmp(p, REVOCATION_HEADER, hlen) == 0))
		signable = 1;
	else if (n >= hlen && memcmp(p, REVOCATION_HEADER_V1, hlen) == 0)
		signable = 0;
	else {
		*why = "missing header \"airlock-revocations 3\"";
		return -1;
	}
	r = rd_init(p + hlen, n - hlen);
	if (memcmp(p, REVOCATION_HEADER_V3, hlen) == 0) {
		++*line;
		if (parse_serial(&r, serial, why) != 0)
			return -1;
	}
	/* Every entry takes at least ID_TEXT_LEN + 5 bytes: a cap known
	 * before allocating. */
	cap = rd_left(&r) / (ID_TEXT_LEN + 5) + 1;
	if (!(out = calloc(cap, sizeof *out))) {
		*why = "out of memory";
		return -1;
	}
	while (rd_left(&r) > 0) {
		size_t at = r.off;

		++*line;
		if (signable && rd_left(&r) >= 4 &&
		    memcmp(r.p + at, "sig ", 4) == 0) {
			if (parse_sig(&r, sig, why) != 0)
				goto fail;
			sig->signed_len = hlen + at;
			break;
		}
		if (k == cap) {
			*why = "too many entries";
			goto fail;
		}
		if (parse_entry(&r, out[k], why) != 0)
			goto fail;
		k++;
	}
	if (*serial && !sig->present) {
		*why = "a list with a serial is signed (its sig line is missing)";
		goto fail;
	}
	qsort(out, k, sizeof *out, id_cmp);
	*ids = out;
	*count = k;
	return 0;
fail:
	free(out);
	return -1;
}

int
revocation_verify(const uint8_t *p, const struct revocation_sig *sig,
    const struct eckey_pub *key, const char **why)
{
	uint8_t h[ECKEY_HASH_LEN];

	if (!sig->present) {
		*why = "the list is not signed (sign it: airlock review "
		    "sign-revocations)";
		return -1;
	}
	if (memcmp(sig->key_id, key->id, ECKEY_ID_LEN) != 0) {
		*why = "the list is signed by another key than the reviewer's";
		return -1;
	}
	eckey_context_hash(REVOCATION_SIG_CONTEXT, p, sig->signed_len, h);
	if (!eckey_verify(key, h, sig->sig)) {
		*why = "the list's signature does not verify: it was changed "
		    "after it was signed";
		return -1;
	}
	return 0;
}

/* The first id of the sorted old[0..n) that the sorted new[0..m) lacks,
 * or NULL: both sorted, one walk. */
static const uint8_t *
first_dropped(const uint8_t (*old)[REVOCATION_ID_LEN], size_t n,
    const uint8_t (*new)[REVOCATION_ID_LEN], size_t m)
{
	size_t j = 0;

	for (size_t i = 0; i < n; i++) {
		while (j < m && memcmp(new[j], old[i], REVOCATION_ID_LEN) < 0)
			j++;
		if (j == m || memcmp(new[j], old[i], REVOCATION_ID_LEN) != 0)
			return old[i];
	}
	return NULL;
}

void
revocation_init(struct revocation_set *s, const char *path,
    const struct eckey_pub *key)
{
	memset(s, 0, sizeof *s);
	s->path = path;
	s->key = key;
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
revocation_floor_load(struct revocation_set *s, const char *path,
    const char **why)
{
	s->floor_path = path;
	return revfloor_read(path, &s->serial, s->digest, why) < 0 ? -1 : 0;
}

static struct revocation_file_id
file_id_of(const struct stat *st)
{
	return (struct revocation_file_id){ st->st_dev, st->st_ino,
	    st->st_size, st->st_mtim };
}

static int
same_file(const struct stat *st, const struct revocation_file_id *id)
{
	struct revocation_file_id now = file_id_of(st);

	return now.dev == id->dev && now.ino == id->ino &&
	    now.size == id->size && now.mtime.tv_sec == id->mtime.tv_sec &&
	    now.mtime.tv_nsec == id->mtime.tv_nsec;
}

/* Is the list (serial, digest) older than the newest accepted? A serial
 * names one list: the same serial with other bytes is a forgery or a
 * copy from a store rolled back and signed again. Format 2 lists (serial
 * 0) have only the grows-only check. */
static const char *
older_than_accepted(const struct revocation_set *s, uint64_t serial,
    const uint8_t digest[32], char *msg, size_t cap)
{
	if (serial < s->serial)
		snprintf(msg, cap, "serial %llu is older than serial %llu, "
		    "accepted before%s%s%s: rolled back", (unsigned long long)
		    serial, (unsigned long long)s->serial,
		    s->floor_path ? " (remembered in " : "",
		    s->floor_path ? s->floor_path : "",
		    s->floor_path ? ")" : "");
	else if (serial == s->serial && serial > 0 &&
	    memcmp(digest, s->digest, 32) != 0)
		snprintf(msg, cap, "serial %llu again, with other bytes than "
		    "the list of that serial accepted before",
		    (unsigned long long)serial);
	else
		return NULL;
	return msg;
}

int
revocation_reload(struct revocation_set *s, const char **why)
{
	uint8_t (*ids)[REVOCATION_ID_LEN], digest[32];
	char text[ID_TEXT_LEN + 1];
	struct revocation_sig sig;
	const uint8_t *dropped;
	size_t len, count, line;
	br_sha256_context h;
	uint64_t serial;
	struct stat st;
	uint8_t *buf;

	if (stat(s->path, &st) != 0) {
		*why = "cannot stat the revocation list";
		goto fail;
	}
	if (s->usable && same_file(&st, &s->loaded))
		return 0;
	if (s->refused && same_file(&st, &s->bad)) {
		*why = s->err;	/* refused already: not read again */
		return -1;
	}
	if (file_read(s->path, REVOCATION_FILE_MAX, &buf, &len) != 0) {
		*why = errno == EFBIG ? "revocation list too large" :
		    "cannot read the revocation list";
		goto fail;
	}
	if (revocation_parse(buf, len, &ids, &count, &sig, &serial, &line,
	    why) != 0) {
		free(buf);
		snprintf(s->err, sizeof s->err, "revocation list line %zu: %s",
		    line, *why);
		*why = s->err;
		goto refuse;
	}
	if (s->key && revocation_verify(buf, &sig, s->key, why) != 0) {
		free(buf);
		free(ids);
		goto refuse;
	}
	br_sha256_init(&h);
	br_sha256_update(&h, buf, len);
	br_sha256_out(&h, digest);
	free(buf);
	/* A list only grows: one that lost an id it held was edited or
	 * rolled back to an older signed copy. */
	if (s->key && (dropped = first_dropped(
	    (const uint8_t (*)[REVOCATION_ID_LEN])s->ids, s->n,
	    (const uint8_t (*)[REVOCATION_ID_LEN])ids, count))) {
		b64url_encode(dropped, REVOCATION_ID_LEN, text, sizeof text);
		snprintf(s->err, sizeof s->err, "the list no longer holds "
		    "revoked token %s: edited or rolled back", text);
		*why = s->err;
		free(ids);
		goto refuse;
	}
	if (s->key && (*why = older_than_accepted(s, serial, digest, s->err,
	    sizeof s->err))) {
		free(ids);
		goto refuse;
	}
	free(s->ids);
	s->ids = ids;
	s->n = count;
	/* The identity seen before reading: a change during the read makes
	 * the next call read again. */
	s->loaded = file_id_of(&st);
	s->usable = 1;
	s->refused = 0;
	if (serial > s->serial && s->floor_path &&
	    revfloor_write(s->floor_path, serial, digest) != 0) {
		snprintf(s->err, sizeof s->err, "serial %llu accepted, but "
		    "not remembered in %s: %s", (unsigned long long)serial,
		    s->floor_path, strerror(errno));
		*why = s->err;
	}
	else
		*why = NULL;
	s->serial = serial;
	memcpy(s->digest, digest, sizeof digest);
	return 0;
refuse:
	/* not read again until it changes; its reason kept for then */
	if (*why != s->err) {
		snprintf(s->err, sizeof s->err, "%s", *why);
		*why = s->err;
	}
	s->refused = 1;
	s->bad = file_id_of(&st);
fail:
	/* A good list loaded before stays in force (a bad file must not
	 * lift revocations, nor stop every lease); with none, the set stays
	 * unusable and every token is refused. The ids stay either way:
	 * the floor the next list must still hold. */
	return -1;
}

int
revocation_contains(const struct revocation_set *s,
    const uint8_t id[REVOCATION_ID_LEN])
{
	return s->n > 0 && bsearch(id, s->ids, s->n, sizeof *s->ids, id_cmp);
}

int
revocation_sign(const char *path, const uint8_t id[REVOCATION_ID_LEN],
    uint64_t when, const char *record, const struct eckey_priv *k,
    const char **why)
{
	char text[ID_TEXT_LEN + 1], kid[ECKEY_ID_TEXT], sigtext[SIG_TEXT_LEN + 1];
	uint8_t (*ids)[REVOCATION_ID_LEN], *buf, *out, h[ECKEY_HASH_LEN];
	uint8_t sigbytes[ECKEY_SIG_LEN];
	struct revocation_sig sig;
	size_t len, count, bad, body, end, o;
	uint64_t serial;
	int add = id != NULL, rc = -1, n = 0;
	char line[ID_TEXT_LEN + 24 + PROTO_ID_MAX + 2], head[64];

	if (add && (b64url_encode(id, REVOCATION_ID_LEN, text, sizeof text) < 0 ||
	    !proto_id_valid((const uint8_t *)record, strlen(record)))) {
		*why = "bad record id";
		return -1;
	}
	if (file_read(path, REVOCATION_FILE_MAX - sizeof line - SIG_LINE_LEN -
	    sizeof head, &buf, &len)) {
		*why = errno == EFBIG ? "revocation list full" :
		    "cannot read the revocation list";
		return -1;
	}
	if (revocation_parse(buf, len, &ids, &count, &sig, &serial, &bad,
	    why) != 0)
		goto out_buf;
	if (sig.present && revocation_verify(buf, &sig, &k->pub, why) != 0)
		goto out_ids;
	if (serial >= REVOCATION_SERIAL_MAX) {
		*why = "the list's serial cannot grow further";
		goto out_ids;
	}
	if (add && bsearch(id, ids, count, sizeof *ids, id_cmp))
		add = 0;	/* listed already */
	if (add)
		n = snprintf(line, sizeof line, "%s %llu %s\n", text,
		    (unsigned long long)when, record);
	/* every signing is a new serial: a runner that saw this one
	 * refuses any list signed before it */
	o = (size_t)snprintf(head, sizeof head, "%sserial %llu\n",
	    REVOCATION_HEADER_V3, (unsigned long long)serial + 1);
	body = revocation_entries_off(serial);
	end = sig.present ? sig.signed_len : len;
	if (!(out = malloc(o + end - body + (size_t)n + SIG_LINE_LEN + 1))) {
		*why = "out of memory";
		goto out_ids;
	}
	memcpy(out, head, o);
	memcpy(out + o, buf + body, end - body);
	o += end - body;
	memcpy(out + o, line, (size_t)n);
	o += (size_t)n;
	eckey_context_hash(REVOCATION_SIG_CONTEXT, out, o, h);
	eckey_id_text(k->pub.id, kid);
	if (eckey_sign(k, h, sigbytes) != 0 ||
	    b64url_encode(sigbytes, sizeof sigbytes, sigtext, sizeof sigtext) !=
	    SIG_TEXT_LEN) {
		*why = "cannot sign the revocation list";
		goto out_out;
	}
	o += (size_t)snprintf((char *)out + o, SIG_LINE_LEN + 1, "sig %s %s\n",
	    kid, sigtext);
	if ((rc = file_replace(path, out, o, 0644)) != 0)
		*why = "cannot write the revocation list";
out_out:
	free(out);
out_ids:
	free(ids);
out_buf:
	free(buf);
	return rc;
}
