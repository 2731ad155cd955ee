/* audit_test.c - the hash-chained, signed audit log. The chain alone: an
 * edited, re-hashed, removed, inserted or torn entry is found and its line
 * named; an append after damage is refused. With the reviewer's public
 * key, the attacks of someone who can write the file but has no key, each
 * with the whole chain recomputed (rechain below) so that only the
 * signatures can catch it: an edited entry, a removed one, two reordered,
 * a signature taken from another log, a signature stripped, another key;
 * and what they cannot catch: a cut-off end (the summary's count and
 * head show it against a kept copy) and an edited entry after the last
 * signature (the summary says how many entries no signature covers). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bearssl_hash.h>

#include "common/policy/audit.h"
#include "common/base/fileio.h"
#include "tap.h"

static char path[] = "/tmp/audit_test.XXXXXX";
static char log3[8192];
static size_t log3_len;
static struct eckey_priv key, other;

static int
append_as(const char *action, const char *detail,
    const struct eckey_priv *k)
{
	struct audit_entry e = { 1700000000, "alice", action, "r000001",
		"PENDING", detail };
	char err[256];

	return audit_append(path, &e, k, err, sizeof err);
}

static int
append(const char *detail)
{
	return append_as("submit", detail, NULL);
}

static int
verify_pub(const char *p, size_t n, const struct eckey_pub *pub,
    struct audit_summary *sum, size_t *line, const char **why)
{
	return audit_verify((const uint8_t *)p, n, pub, sum, line, why, NULL,
	    NULL);
}

static int
verify(const char *p, size_t n, size_t *count, size_t *line)
{
	struct audit_summary sum;
	const char *why;
	int rc = verify_pub(p, n, NULL, &sum, line, &why);

	*count = sum.count;
	return rc;
}

static void
put(const char *text, size_t n)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, text, n) != (ssize_t)n)
		abort();
	close(fd);
}

static size_t
get(char *buf, size_t cap)
{
	uint8_t *p;
	size_t n;

	if (file_read(path, cap, &p, &n) != 0)
		abort();
	memcpy(buf, p, n);
	free(p);
	return n;
}

/* Start of line k (1-based) in log3. */
static size_t
line_at(size_t k)
{
	size_t off = 0;

	while (--k) {
		const char *nl = memchr(log3 + off, '\n', log3_len - off);

		off = (size_t)(nl - log3) + 1;
	}
	return off;
}

static void
count_entry(void *ctx, const struct audit_view *v)
{
	(void)v;
	++*(size_t *)ctx;
}

/* ---- a log as lines, and the forger's tools -------------------------- */

#define LINES 8
struct lines {
	char l[LINES][1024];
	size_t n;
};

static void
split(const char *p, size_t len, struct lines *ls)
{
	size_t off = 0;

	ls->n = 0;
	while (off < len) {
		const char *nl = memchr(p + off, '\n', len - off);
		size_t k = (size_t)(nl - (p + off)) + 1;

		memcpy(ls->l[ls->n], p + off, k);
		ls->l[ls->n++][k] = '\0';
		off += k;
	}
}

static void
hex(const uint8_t *h, char *out)
{
	for (size_t i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", h[i]);
}

/* What a forger without the key does after any change: number the
 * entries 1.. again, point each PREV at the entry before, and redo each
 * HASH. Entries have single-digit SEQ here. Joins into out. */
static size_t
rechain(struct lines *ls, char *out)
{
	char prev[65], text[65];
	size_t len = 0;

	memset(prev, '0', 64);
	prev[64] = '\0';
	for (size_t i = 0; i < ls->n; i++) {
		char *l = ls->l[i], *p = strstr(l, " 64:");
		size_t n = strlen(l);
		br_sha256_context h;
		uint8_t d[32];

		l[8] = (char)('1' + i);		/* "audit 1:N" */
		memcpy(p + 4, prev, 64);
		br_sha256_init(&h);
		br_sha256_update(&h, l, n - 69);	/* " 64:" HASH "\n" */
		br_sha256_out(&h, d);
		hex(d, text);
		memcpy(l + n - 65, text, 64);
		memcpy(prev, text, 64);
		memcpy(out + len, l, n);
		len += n;
	}
	return len;
}

/* The forged entries of ls, rechained into buf: the chain alone passes,
 * and the key's check fails at line want. */
static int
only_key_catches(struct lines *ls, char *buf, size_t want)
{
	struct audit_summary sum;
	const char *why;
	size_t n = rechain(ls, buf), cnt, line;

	return verify(buf, n, &cnt, &line) == 0 &&
	    verify_pub(buf, n, &key.pub, &sum, &line, &why) == -1 &&
	    line == want;
}

/* The SIG item of a line: the 109 characters before " 64:HASH\n". */
static char *
sig_of(char *l)
{
	return l + strlen(l) - 69 - AUDIT_SIG_TEXT;
}

/* Build the five-entry signed log: submit, approve, submit, reject,
 * revoke (details tell the logs apart). */
static size_t
signed_log(const char *tag, char *out, size_t cap)
{
	char d[64];

	put("", 0);
	snprintf(d, sizeof d, "%s one", tag);
	if (append_as("submit", d, NULL) ||
	    append_as("approve", "token=AAAA", &key) ||
	    append_as("submit", "second", NULL) ||
	    append_as("reject", "typosquat", &key) ||
	    append_as("revoke", "token=AAAA", &key))
		abort();
	return get(out, cap);
}

/* The SIG item's grammar, each way off it, rechained: "malformed entry"
 * with or without the key, never a crash or a pass with it. */
static void
test_sig_grammar(const char *a, size_t na)
{
	static const struct {
		size_t at;		/* offset into SIG */
		char to;
		const char *what;
	} one[] = {
		{ 22, 'x', "no '.' after the key id" },
		{ 0, '=', "padding in the key id" },
		{ 5, '+', "a '+' (base64, not base64url)" },
		{ 108, 'B', "a last character with bits set past the end "
		    "(not canonical)" },
		{ 30, '.', "a second '.'" },
	};
	char buf[8192];
	struct audit_summary sum;
	struct lines ls;
	const char *why;
	size_t n, line, cnt;

	for (size_t i = 0; i < sizeof one / sizeof *one; i++) {
		split(a, na, &ls);
		sig_of(ls.l[1])[one[i].at] = one[i].to;
		n = rechain(&ls, buf);
		ok(verify(buf, n, &cnt, &line) == -1 && line == 2 &&
		    verify_pub(buf, n, &key.pub, &sum, &line, &why) == -1 &&
		    line == 2 && strcmp(why, "malformed entry") == 0,
		    "SIG with %s: malformed, key or not", one[i].what);
	}
	/* a bit of the signature flipped, still canonical: only the key
	 * tells */
	split(a, na, &ls);
	sig_of(ls.l[1])[40] = sig_of(ls.l[1])[40] == 'A' ? 'B' : 'A';
	n = rechain(&ls, buf);
	ok(verify(buf, n, &cnt, &line) == 0 &&
	    verify_pub(buf, n, &key.pub, &sum, &line, &why) == -1 &&
	    line == 2 && strstr(why, "bad signature"), "a flipped signature "
	    "byte: a well-formed entry the chain accepts, the key refuses");
}

static void
test_signed(void)
{
	char a[8192], b[8192], buf[8192];
	struct audit_summary sum;
	struct lines ls, lb;
	size_t na, nb, n, line, cnt;
	const char *why;

	na = signed_log("A", a, sizeof a);
	nb = signed_log("B", b, sizeof b);
	ok(verify_pub(a, na, &key.pub, &sum, &line, &why) == 0 &&
	    sum.count == 5 && sum.last_signed == 5, "a signed log verifies "
	    "with the reviewer's public key: 5 entries, the last signed");
	ok(verify_pub(a, na, &other.pub, &sum, &line, &why) == -1 &&
	    line == 2 && strstr(why, "another key"), "with another public "
	    "key: line 2, %s", why);

	/* the forger's own rechain changes nothing in an intact log */
	split(a, na, &ls);
	n = rechain(&ls, buf);
	ok(n == na && memcmp(buf, a, na) == 0, "rechain reproduces an "
	    "intact log byte for byte (the forgeries below are exact)");

	split(a, na, &ls);
	memcpy(strstr(ls.l[1], "token=AAAA"), "token=BBBB", 10);
	n = rechain(&ls, buf);
	ok(verify(buf, n, &cnt, &line) == 0, "A/B: an edited approve entry "
	    "with the chain recomputed passes the chain alone");
	ok(verify_pub(buf, n, &key.pub, &sum, &line, &why) == -1 &&
	    line == 2 && strstr(why, "bad signature"), "...and is caught by "
	    "its signature: line 2");

	split(a, na, &ls);
	memcpy(strstr(ls.l[0], "A one"), "X one", 5);
	n = rechain(&ls, buf);
	ok(verify_pub(buf, n, &key.pub, &sum, &line, &why) == -1 &&
	    line == 2, "an edited unsigned submit, chain recomputed: the next "
	    "signed entry (line 2) covers it");

	split(a, na, &ls);
	memmove(ls.l[2], ls.l[3], sizeof ls.l[0] * 2);
	ls.n = 4;
	ok(only_key_catches(&ls, buf, 3), "a deleted entry (3), renumbered "
	    "and rechained: caught at line 3");

	split(a, na, &ls);
	memcpy(buf, ls.l[3], sizeof ls.l[0]);
	memcpy(ls.l[3], ls.l[4], sizeof ls.l[0]);
	memcpy(ls.l[4], buf, sizeof ls.l[0]);
	ok(only_key_catches(&ls, buf, 4), "two entries reordered (4, 5), "
	    "renumbered and rechained: caught at line 4");

	split(a, na, &ls);
	split(b, nb, &lb);
	memcpy(sig_of(ls.l[4]), sig_of(lb.l[4]), AUDIT_SIG_TEXT);
	n = rechain(&ls, buf);
	ok(memcmp(sig_of(lb.l[4]), sig_of(ls.l[4]), AUDIT_SIG_TEXT) == 0 &&
	    verify_pub(buf, n, &key.pub, &sum, &line, &why) == -1 &&
	    line == 5, "a valid signature of the same key from another log "
	    "(same entry, same position), rechained: caught at line 5");
	split(a, na, &ls);
	memcpy(sig_of(ls.l[3]), sig_of(ls.l[1]), AUDIT_SIG_TEXT);
	n = rechain(&ls, buf);
	ok(verify_pub(buf, n, &key.pub, &sum, &line, &why) == -1 &&
	    line == 4, "another entry's signature of the same log: caught");

	/* the signature taken away: the item becomes "0:" */
	split(a, na, &ls);
	{
		char *s = sig_of(ls.l[3]);

		memcpy(s - 4, "0:", 2);
		memmove(s - 2, s + AUDIT_SIG_TEXT, strlen(s + AUDIT_SIG_TEXT)
		    + 1);
	}
	n = rechain(&ls, buf);
	ok(verify(buf, n, &cnt, &line) == 0 &&
	    verify_pub(buf, n, &key.pub, &sum, &line, &why) == -1 &&
	    line == 4 && strstr(why, "unsigned"), "a reject entry with its "
	    "signature stripped, rechained: caught (%s)", why);

	/* truncation: a shorter log is a valid log; the count and head
	 * against a kept copy are what catch it */
	split(a, na, &ls);
	ls.n = 4;
	n = rechain(&ls, buf);
	{
		struct audit_summary full;

		verify_pub(a, na, &key.pub, &full, &line, &why);
		ok(verify_pub(buf, n, &key.pub, &sum, &line, &why) == 0 &&
		    sum.count == 4 && full.count == 5 &&
		    memcmp(sum.head, full.head, AUDIT_HASH_LEN) != 0,
		    "a log cut short verifies on its own; its count (4) and "
		    "head differ from the kept ones (5)");
	}

	/* after the last signature: covered by nothing yet */
	put(a, na);
	append("tail");
	n = get(buf, sizeof buf);
	split(buf, n, &ls);
	memcpy(strstr(ls.l[5], "tail"), "liat", 4);
	n = rechain(&ls, buf);
	ok(verify_pub(buf, n, &key.pub, &sum, &line, &why) == 0 &&
	    sum.count == 6 && sum.last_signed == 5, "an edited entry after "
	    "the last signature is not caught, but the summary says 1 entry "
	    "is unsigned at the end");

	put(a, na);
	ok(append_as("approve", "x", NULL) == -1, "an approve entry is never "
	    "written unsigned");
	ok(append_as("renew", "x", &key) == 0 && append_as("submit", "y",
	    NULL) == 0 && (n = get(buf, sizeof buf)) > 0 &&
	    verify_pub(buf, n, &key.pub, &sum, &line, &why) == 0 &&
	    sum.last_signed == 6, "appends go on after a signed log");
	test_sig_grammar(a, na);
}

int
main(void)
{
	char buf[8192];
	uint8_t *p;
	size_t count = 0, line = 0, seen = 0, n, a, b;
	struct audit_summary sum;
	const char *why;
	int fd = mkstemp(path);

	close(fd);
	if (eckey_generate(&key, &why) != 0 ||
	    eckey_generate(&other, &why) != 0)
		abort();
	ok(verify("", 0, &count, &line) == 0 && count == 0,
	    "an empty log verifies");
	ok(append("first") == 0 && append("second\nline\x01") == 0 &&
	    append("third") == 0, "three appends");
	file_read(path, sizeof log3 - 1, &p, &log3_len);
	memcpy(log3, p, log3_len);
	free(p);
	ok(audit_verify((uint8_t *)log3, log3_len, NULL, &sum, &line, &why,
	    count_entry, &seen) == 0 && sum.count == 3 && seen == 3 &&
	    sum.last_signed == 0, "they verify as a chain of 3, none signed");
	ok(strstr(log3, "second?line?") != NULL, "control bytes in a detail "
	    "become '?', so an entry is one line");

	memcpy(buf, log3, log3_len);
	buf[line_at(2) + 20] ^= 1;
	ok(verify(buf, log3_len, &count, &line) == -1 && line == 2,
	    "an edited entry: found on its own line (2)");

	/* Edit entry 2 and fix its own hash: the chain breaks at line 3. */
	memcpy(buf, log3, log3_len);
	a = line_at(2);
	b = line_at(3);
	{
		char one[1024];

		/* rebuild line 2 by appending to a log holding only line 1 */
		put(log3, a);
		append("second?line!");
		n = get(one, sizeof one);
		memcpy(buf, one, n);
		memcpy(buf + n, log3 + b, log3_len - b);
		n += log3_len - b;
	}
	ok(verify(buf, n, &count, &line) == -1 && line == 3,
	    "an edited entry with its hash redone: the next line (3) "
	    "does not chain");

	memcpy(buf, log3, a);
	memcpy(buf + a, log3 + b, log3_len - b);
	ok(verify(buf, log3_len - (b - a), &count, &line) == -1 && line == 2,
	    "a removed entry: found at the line that took its place (2)");

	memcpy(buf, log3, b);
	memcpy(buf + b, log3 + a, b - a);
	memcpy(buf + b + (b - a), log3 + b, log3_len - b);
	ok(verify(buf, log3_len + (b - a), &count, &line) == -1 && line == 3,
	    "an inserted (replayed) entry: found (line 3)");

	ok(verify(log3, log3_len - 1, &count, &line) == -1 && line == 3,
	    "a torn last entry: found (line 3)");

	put(log3, log3_len - 1);
	ok(append("fourth") == -1, "no append after a torn entry");
	memcpy(buf, log3, log3_len);
	buf[log3_len - 3] = buf[log3_len - 3] == '0' ? '1' : '0';
	put(buf, log3_len);
	ok(append("fourth") == -1, "no append after an edited last entry");
	put(log3, log3_len);
	ok(append("fourth") == 0, "an intact log takes the append");

	test_signed();
	eckey_wipe(&key);
	eckey_wipe(&other);
	unlink(path);
	return tap_done();
}
