/* audit.c - append to and verify the hash-chained, signed audit log. */
#include "common/policy/audit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bearssl_hash.h>

#include "common/base/b64url.h"
#include "common/policy/store.h"

#define HEX_LEN (2 * AUDIT_HASH_LEN)
#define TAIL_LEN (4 + HEX_LEN + 1)	/* " 64:" HEX "\n" */
#define KID_TEXT 22
#define SIG_B64 86

/* Signed with a context prefix, so that no signature this key makes for
 * an approval token can pass as an audit entry's, nor the reverse. */
static const char sign_context[] = "airlock-audit";

static const char *const signed_actions[] = {
	"approve", "reject", "revoke", "renew", NULL
};

int
audit_action_needs_signature(const char *action, size_t n)
{
	for (size_t i = 0; signed_actions[i]; i++)
		if (strlen(signed_actions[i]) == n &&
		    memcmp(signed_actions[i], action, n) == 0)
			return 1;
	return 0;
}

static size_t
digits(size_t v)
{
	size_t d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

/* The SIG item: empty, or KEYID "." SIGNATURE in canonical base64url. */
static int
sig_decode(const struct record_line_item *it, struct audit_view *v,
    uint8_t sig[ECKEY_SIG_LEN])
{
	v->is_signed = it->n != 0;
	if (!v->is_signed)
		return 0;
	if (it->n != AUDIT_SIG_TEXT || it->p[KID_TEXT] != '.' ||
	    b64url_decode((const char *)it->p, KID_TEXT, v->key_id,
	    ECKEY_ID_LEN) != ECKEY_ID_LEN ||
	    b64url_decode((const char *)it->p + KID_TEXT + 1, SIG_B64, sig,
	    ECKEY_SIG_LEN) != ECKEY_SIG_LEN)
		return -1;
	return 0;
}

static void
hex_encode(const uint8_t *p, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
}

static int
hex_decode(const struct record_line_item *it, uint8_t out[AUDIT_HASH_LEN])
{
	if (it->n != HEX_LEN)
		return -1;
	for (size_t i = 0; i < HEX_LEN; i++) {
		uint8_t c = it->p[i], v;

		if (c >= '0' && c <= '9')
			v = (uint8_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = (uint8_t)(c - 'a' + 10);
		else
			return -1;	/* lowercase only: one spelling */
		out[i / 2] = (uint8_t)(i % 2 ? out[i / 2] << 4 | v : v);
	}
	return 0;
}

static void
sha256(const void *p, size_t n, uint8_t out[AUDIT_HASH_LEN])
{
	br_sha256_context h;

	br_sha256_init(&h);
	br_sha256_update(&h, p, n);
	br_sha256_out(&h, out);
}

static int
printable(const struct record_line_item *it, size_t min, size_t max, int spaces)
{
	if (it->n < min || it->n > max)
		return 0;
	for (size_t i = 0; i < it->n; i++)
		if (it->p[i] < (spaces ? 0x20 : 0x21) || it->p[i] > 0x7e)
			return 0;
	return 1;
}

/* Parse one line (len bytes, ending in '\n'): fields, its own hash, and
 * with pub its signature. v->hash gets the HASH field, prev the PREV
 * field. */
static int
parse_entry(const uint8_t *line, size_t len, const struct eckey_pub *pub,
    struct audit_view *v, uint8_t prev[AUDIT_HASH_LEN], const char **why)
{
	struct rd r = rd_init(line, len);
	struct record_line_line l;
	uint8_t calc[AUDIT_HASH_LEN], sig[ECKEY_SIG_LEN];
	size_t body;

	*why = "malformed entry";
	if (record_line_next(&r, AUDIT_LINE_MAX, &l) != 0 || !rd_done(&r) ||
	    !record_line_is(&l, "audit", 10) || len < TAIL_LEN ||
	    memcmp(line + len - TAIL_LEN, " 64:", 4) != 0)
		return -1;
	if (record_line_u64(&l.item[0], &v->seq) || record_line_u64(&l.item[1], &v->time) ||
	    hex_decode(&l.item[2], prev) || hex_decode(&l.item[9], v->hash) ||
	    sig_decode(&l.item[8], v, sig))
		return -1;
	v->actor = l.item[3];
	v->action = l.item[4];
	v->record = l.item[5];
	v->status = l.item[6];
	v->detail = l.item[7];
	if (!store_actor_valid((const char *)v->actor.p, v->actor.n) ||
	    !printable(&v->action, 1, 16, 0) ||
	    !store_id_valid((const char *)v->record.p, v->record.n) ||
	    !printable(&v->status, 1, 16, 0) ||
	    !printable(&v->detail, 0, AUDIT_DETAIL_MAX, 1))
		return -1;
	sha256(line, len - TAIL_LEN, calc);
	if (memcmp(calc, v->hash, AUDIT_HASH_LEN) != 0) {
		*why = "entry hash mismatch: this entry was edited";
		return -1;
	}
	if (!pub)
		return 0;
	if (!v->is_signed) {
		if (!audit_action_needs_signature((const char *)v->action.p,
		    v->action.n))
			return 0;
		*why = "unsigned entry of an action only a reviewer key holder "
		    "makes: it was forged or its signature removed";
		return -1;
	}
	if (memcmp(v->key_id, pub->id, ECKEY_ID_LEN) != 0) {
		*why = "signed by another key than --pub names";
		return -1;
	}
	/* the signed body: the line up to the space before SIG */
	body = (size_t)(l.item[8].p - line) - 2 - digits(l.item[8].n);
	eckey_context_hash(sign_context, line, body, calc);
	if (!eckey_verify(pub, calc, sig)) {
		*why = "bad signature: this entry or one before it was edited, "
		    "removed, inserted or reordered, or the signature is "
		    "another entry's";
		return -1;
	}
	return 0;
}

int
audit_verify(const uint8_t *p, size_t n, const struct eckey_pub *pub,
    struct audit_summary *sum, size_t *line, const char **why,
    void (*each)(void *ctx, const struct audit_view *v), void *ctx)
{
	uint8_t prev[AUDIT_HASH_LEN];
	struct audit_view v;
	size_t off = 0, k = 0;

	memset(sum, 0, sizeof *sum);
	while (off < n) {
		const uint8_t *nl = memchr(p + off, '\n', n - off);
		size_t len;

		*line = ++k;
		if (!nl) {
			*why = "last entry is cut short (no newline)";
			return -1;
		}
		len = (size_t)(nl - (p + off)) + 1;
		if (parse_entry(p + off, len, pub, &v, prev, why) != 0)
			return -1;
		if (v.seq != k) {
			*why = v.seq > k ? "sequence number skips: an entry "
			    "before this one was removed" : "sequence number "
			    "repeats or goes back: an entry was inserted";
			return -1;
		}
		if (memcmp(prev, sum->head, AUDIT_HASH_LEN) != 0) {
			*why = "does not chain to the entry before it: that "
			    "entry was edited, or entries were removed or "
			    "inserted";
			return -1;
		}
		memcpy(sum->head, v.hash, AUDIT_HASH_LEN);
		if (v.is_signed)
			sum->last_signed = k;
		if (each)
			each(ctx, &v);
		off += len;
	}
	sum->count = k;
	return 0;
}

/* Copy s into out as printable ASCII, at most max bytes. */
static size_t
sanitise(const char *s, char *out, size_t max)
{
	size_t i;

	for (i = 0; s[i] && i < max; i++)
		out[i] = (unsigned char)s[i] < 0x20 ||
		    (unsigned char)s[i] > 0x7e ? '?' : s[i];
	return i;
}

/* The last entry's seq and hash; an empty log gives 0 and zeros. */
static int
last_entry(int fd, uint64_t *seq, uint8_t hash[AUDIT_HASH_LEN],
    const char **why)
{
	uint8_t buf[AUDIT_LINE_MAX], prev[AUDIT_HASH_LEN];
	struct audit_view v;
	struct stat st;
	size_t want, start;
	ssize_t got;

	*seq = 0;
	memset(hash, 0, AUDIT_HASH_LEN);
	if (fstat(fd, &st) != 0) {
		*why = strerror(errno);
		return -1;
	}
	if (st.st_size == 0)
		return 0;
	want = (uintmax_t)st.st_size < sizeof buf ? (size_t)st.st_size :
	    sizeof buf;
	got = pread(fd, buf, want, st.st_size - (off_t)want);
	if (got < 0 || (size_t)got != want) {
		*why = "cannot read the last entry";
		return -1;
	}
	if (buf[want - 1] != '\n') {
		*why = "last entry is cut short (no newline)";
		return -1;
	}
	for (start = want - 1; start > 0 && buf[start - 1] != '\n'; start--)
		;
	if (start == 0 && want < (size_t)st.st_size) {
		*why = "last entry is too long";
		return -1;
	}
	if (parse_entry(buf + start, want - start, NULL, &v, prev, why) != 0)
		return -1;
	memcpy(hash, v.hash, AUDIT_HASH_LEN);
	*seq = v.seq;
	return 0;
}

/* SIG for the body line[0..n): KEYID "." SIGNATURE, or -1. */
static int
sign_body(const struct eckey_priv *key, const char *line, size_t n,
    char out[AUDIT_SIG_TEXT + 1])
{
	uint8_t hash[ECKEY_HASH_LEN], sig[ECKEY_SIG_LEN];

	eckey_context_hash(sign_context, line, n, hash);
	if (eckey_sign(key, hash, sig) != 0 ||
	    b64url_encode(key->pub.id, ECKEY_ID_LEN, out, KID_TEXT + 1) !=
	    KID_TEXT)
		return -1;
	out[KID_TEXT] = '.';
	return b64url_encode(sig, sizeof sig, out + KID_TEXT + 1,
	    SIG_B64 + 1) == SIG_B64 ? 0 : -1;
}

int
audit_append(const char *path, const struct audit_entry *e,
    const struct eckey_priv *key, char *err, size_t errcap)
{
	char line[AUDIT_LINE_MAX], detail[AUDIT_DETAIL_MAX], hex[HEX_LEN];
	char sig[AUDIT_SIG_TEXT + 1];
	uint8_t prev[AUDIT_HASH_LEN], hash[AUDIT_HASH_LEN];
	struct wr w = wr_init(line, sizeof line);
	const char *why = NULL;
	struct audit_view v;
	uint64_t seq;
	ssize_t done;
	int fd;

	if (!key && audit_action_needs_signature(e->action,
	    strlen(e->action))) {
		snprintf(err, errcap, "a %s entry must be signed", e->action);
		return -1;
	}
	if ((fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC | O_NOFOLLOW)) < 0) {
		snprintf(err, errcap, "cannot open %s: %s", path,
		    strerror(errno));
		return -1;
	}
	if (last_entry(fd, &seq, prev, &why) != 0) {
		snprintf(err, errcap, "%s: %s; refusing to append (run "
		    "'airlock review audit --verify')", path, why);
		close(fd);
		return -1;
	}
	record_line_key(&w, "audit");
	record_line_num(&w, seq + 1);
	record_line_num(&w, e->time);
	hex_encode(prev, sizeof prev, hex);
	record_line_put(&w, hex, sizeof hex);
	record_line_str(&w, e->actor);
	record_line_str(&w, e->action);
	record_line_str(&w, e->record);
	record_line_str(&w, e->status);
	record_line_put(&w, detail, sanitise(e->detail, detail, sizeof detail));
	if (key && (w.bad || sign_body(key, line, w.off, sig) != 0)) {
		snprintf(err, errcap, "cannot sign the audit entry");
		close(fd);
		return -1;
	}
	record_line_put(&w, sig, key ? AUDIT_SIG_TEXT : 0);
	sha256(line, w.off, hash);
	hex_encode(hash, sizeof hash, hex);
	record_line_put(&w, hex, sizeof hex);
	record_line_eol(&w);
	/* Never write an entry the verifier would refuse. */
	if (w.bad || parse_entry((const uint8_t *)line, w.off,
	    key ? &key->pub : NULL, &v, hash, &why) != 0) {
		snprintf(err, errcap, "audit entry too long or invalid");
		close(fd);
		return -1;
	}
	/* One write: an entry lands whole or not at all short of a power
	 * cut, and then the next append refuses the torn line. */
	done = write(fd, line, w.off);
	if (done < 0 || (size_t)done != w.off || fsync(fd) != 0) {
		snprintf(err, errcap, "cannot append to %s: %s", path,
		    done < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}
