/* approval_test.c - approval tokens: a pinned known-answer token, every
 * failure code from the runner's verify call, strict format checks, the
 * revocation list (parse, reload, fail closed) and why the token id
 * hashes the payload (a re-encoded signature cannot dodge revocation). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/policy/approval.h"
#include "common/base/b64url.h"
#include "common/policy/eckey.h"
#include "common/policy/revocation.h"
#include "common/policy/revfloor.h"
#include "tap.h"
#include "test/helpers/test_key.h"

/* approval_sign(test_key_sec1, req below, 1700000000, 1702592000): signing
 * is deterministic (RFC 6979), so any change to the format shows here. */
static const char golden[] =
    "ATyNfe__vqNI-ud7_kdY_D4ABGFjbWUABmdpdGh1YgADAANucHgAAi15ABNAc2NvcGUv"
    "c2VydmVyQDEuMi4zAAIAB0FQSV9LRVkAAUIAAAAAZVPxAAAAAABle34A.aOa9fA0p9pu"
    "9nnNeOJG3pzd_q13sUue7AseLjOsd3MGpe7jSSd8NR3z42KNqAxlVTJsnyUjSN-DZQxm"
    "yrHgjxw";

#define T0 1700000000ull
#define T1 1702592000ull

static char *argv_ok[] = { "npx", "-y", "@scope/server@1.2.3", NULL };
static char *env_ok[] = { "API_KEY", "B" };

static struct approval_request
request(void)
{
	return (struct approval_request){ "acme", "github", argv_ok, 3,
		env_ok, 2 };
}

static struct eckey_priv key, other;
static char token[APPROVAL_TOKEN_MAX + 1];
static size_t token_len;

static enum approval_result
check(const char *tok, size_t len, const struct approval_request *req,
    uint64_t now, uint64_t skew, const struct revocation_set *rev)
{
	return approval_verify(&key.pub, tok, len, req, now, skew, rev);
}

static void
test_golden(void)
{
	struct approval_request req = request();
	uint8_t payload[APPROVAL_PAYLOAD_MAX];
	const char *dot;
	long n;

	n = approval_sign(&key, &req, T0, T1, token, sizeof token);
	ok(n > 0 && (size_t)n == strlen(token), "sign a request");
	token_len = (size_t)n;
	if (!ok(strcmp(token, golden) == 0, "the token is the pinned one"))
		printf("# got %s\n", token);
	dot = strchr(token, '.');
	n = dot ? b64url_decode(token, (size_t)(dot - token), payload,
	    sizeof payload) : -1;
	ok(n == 1 + 16 + 6 + 8 + 2 + 5 + 4 + 21 + 2 + 9 + 3 + 16 &&
	    payload[0] == 1 && memcmp(payload + 1, key.pub.id, 16) == 0 &&
	    payload[17] == 0 && payload[18] == 4 &&
	    memcmp(payload + 19, "acme", 4) == 0,
	    "payload: version 1, key id, then str16 tenant");
	ok(n > 0 && memcmp(payload + n - 16,
	    "\0\0\0\0\x65\x53\xf1\x00\0\0\0\0\x65\x7b\x7e\x00", 16) == 0,
	    "payload ends with issued_at and expires_at, u64 big-endian");
	ok(dot && strlen(dot + 1) == 86,
	    "signature part is 64 bytes, raw r||s");
}

static void
test_codes(void)
{
	struct approval_request req = request();
	char *argv_byte[] = { "npx", "-y", "@scope/server@1.2.4", NULL };
	char *argv_more[] = { "npx", "-y", "@scope/server@1.2.3", "x", NULL };
	char *env_more[] = { "API_KEY", "B", "C" };
	char *env_swap[] = { "B", "API_KEY" };
	char *env_dup[] = { "API_KEY", "API_KEY" };
	char *env_other[] = { "API_KEY", "C" };
	char *env_case[] = { "api_key", "B" };
	char *argv_empty[] = { "npx", "-y", "@scope/server@1.2.3", "", NULL };
	char bad[APPROVAL_TOKEN_MAX + 2];
	const uint64_t now = T0 + 100;

	ok(check(token, token_len, &req, now, 0, NULL) == APPROVAL_OK, "ok");
	req.tenant = "acme2";
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_TENANT_MISMATCH, "another tenant: tenant_mismatch");
	req = request();
	req.registration = "gitlab";
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_REGISTRATION_MISMATCH, "another registration: "
	    "registration_mismatch");
	req = request();
	req.argv = argv_byte;
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_ARGV_MISMATCH, "argv one byte off: argv_mismatch");
	req.argv = argv_more;
	req.argc = 4;
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_ARGV_MISMATCH, "one argument more: argv_mismatch");
	req = request();
	req.argc = 2;
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_ARGV_MISMATCH, "one argument less: argv_mismatch");
	req = request();
	req.env_keys = env_more;
	req.envc = 3;
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_ENV_MISMATCH, "an added env key: env_mismatch");
	req.envc = 1;
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_ENV_MISMATCH, "a missing env key: env_mismatch");
	req.env_keys = env_dup;
	req.envc = 2;
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_ENV_MISMATCH, "a duplicated key for a missing one: "
	    "env_mismatch");
	req.env_keys = env_other;
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_ENV_MISMATCH, "a swapped key: env_mismatch");
	req.env_keys = env_swap;
	ok(check(token, token_len, &req, now, 0, NULL) == APPROVAL_OK,
	    "env keys in another order: ok");
	req.env_keys = env_case;
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_ENV_MISMATCH, "a key in another case: env_mismatch");
	req = request();
	req.tenant = "ACME";
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_TENANT_MISMATCH, "the tenant in another case: "
	    "tenant_mismatch");
	req = request();
	req.registration = "github ";
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_REGISTRATION_MISMATCH, "the registration with a byte "
	    "more: registration_mismatch");
	req = request();
	req.argv = argv_empty;
	req.argc = 4;
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_ARGV_MISMATCH, "an empty argument appended: "
	    "argv_mismatch");
	req = request();
	req.tenant = APPROVAL_WILDCARD_TENANT;
	ok(check(token, token_len, &req, now, 0, NULL) ==
	    APPROVAL_TENANT_MISMATCH, "a request naming tenant '*' does not "
	    "match a tenant's token");
	req = request();
	req = request();
	ok(check(token, token_len, &req, T1, 0, NULL) == APPROVAL_OK,
	    "valid through the expiry second");
	ok(check(token, token_len, &req, T1 + 1, 0, NULL) == APPROVAL_EXPIRED,
	    "a second later: expired");
	ok(check(token, token_len, &req, T1 + 60, 60, NULL) == APPROVAL_OK,
	    "within the skew allowance: ok");
	ok(check(token, token_len, &req, UINT64_MAX, UINT64_MAX - 1, NULL) ==
	    APPROVAL_OK && check(token, token_len, &req, UINT64_MAX, 60, NULL)
	    == APPROVAL_EXPIRED, "extreme times do not wrap");
	ok(check(token, token_len, &req, T0 - 61, 60, NULL) ==
	    APPROVAL_NOT_YET_VALID, "before issue beyond skew: not_yet_valid");
	ok(check(token, token_len, &req, T0 - 60, 60, NULL) == APPROVAL_OK,
	    "before issue within skew: ok");
	ok(approval_verify(&other.pub, token, token_len, &req, now, 0, NULL)
	    == APPROVAL_WRONG_KEY, "checked with another key: wrong_key");

	memcpy(bad, token, token_len);
	bad[token_len - 10] = bad[token_len - 10] == 'A' ? 'B' : 'A';
	ok(check(bad, token_len, &req, now, 0, NULL) ==
	    APPROVAL_BAD_SIGNATURE, "a changed signature: bad_signature");
	memcpy(bad, token, token_len);
	bad[40] = bad[40] == 'A' ? 'B' : 'A';
	ok(check(bad, token_len, &req, now, 0, NULL) ==
	    APPROVAL_BAD_SIGNATURE, "a changed payload: bad_signature");
	ok(check(token, token_len - 1, &req, now, 0, NULL) ==
	    APPROVAL_BAD_FORMAT, "truncated by one: bad_format");
	ok(check(token, 30, &req, now, 0, NULL) == APPROVAL_BAD_FORMAT,
	    "truncated to 30: bad_format");
	memcpy(bad, token, token_len);
	bad[token_len] = 'A';
	ok(check(bad, token_len + 1, &req, now, 0, NULL) ==
	    APPROVAL_BAD_FORMAT, "a byte appended: bad_format");
	ok(check("", 0, &req, now, 0, NULL) == APPROVAL_BAD_FORMAT &&
	    check(".", 1, &req, now, 0, NULL) == APPROVAL_BAD_FORMAT &&
	    check("a.b.c", 5, &req, now, 0, NULL) == APPROVAL_BAD_FORMAT,
	    "empty and garbage: bad_format");
	memcpy(bad, token, token_len);
	bad[5] = '\0';
	ok(check(bad, token_len, &req, now, 0, NULL) == APPROVAL_BAD_FORMAT,
	    "an embedded NUL: bad_format");
}

static void
test_sign_refusals(void)
{
	struct approval_request req = request();
	char *unsorted[] = { "B", "API_KEY" };
	static char big[PROTO_ARG_MAX + 1];
	char *argv_big[] = { big, big, NULL };
	char tok[APPROVAL_TOKEN_MAX + 1];

	req.env_keys = unsorted;
	ok(approval_sign(&key, &req, T0, T1, tok, sizeof tok) == -1,
	    "sign refuses env keys out of order");
	req = request();
	req.tenant = "a/b";
	ok(approval_sign(&key, &req, T0, T1, tok, sizeof tok) == -1,
	    "sign refuses a bad tenant id");
	req = request();
	ok(approval_sign(&key, &req, T1, T0, tok, sizeof tok) == -1,
	    "sign refuses an expiry before issue");
	memset(big, 'x', PROTO_ARG_MAX);
	req.argv = argv_big;
	req.argc = 2;
	ok(approval_payload_len(&req) == -1 && approval_sign(&key, &req, T0,
	    T1, tok, sizeof tok) == -1, "a payload over %d bytes is refused",
	    APPROVAL_PAYLOAD_MAX);
	req = request();
	req.tenant = APPROVAL_WILDCARD_TENANT;
	ok(approval_sign(&key, &req, T0, T1, tok, sizeof tok) > 0, "sign for "
	    "tenant *");
	req.tenant = "anyone";
	ok(approval_verify(&key.pub, tok, strlen(tok), &req, T0, 0, NULL) ==
	    APPROVAL_OK, "a tenant * token matches any tenant");
	ok(approval_verify(&key.pub, token, token_len, &req, T0, 0, NULL) ==
	    APPROVAL_TENANT_MISMATCH, "a tenant token matches no other");
}

/* n - s for the P-256 order n: the other valid s of every signature. */
static void
negate_s(uint8_t sig[ECKEY_SIG_LEN])
{
	static const uint8_t n[32] = {
		0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xbc, 0xe6, 0xfa, 0xad,
		0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63,
		0x25, 0x51 };
	unsigned borrow = 0;

	for (int i = 31; i >= 0; i--) {
		unsigned d = (unsigned)n[i] - sig[32 + i] - borrow;

		sig[32 + i] = (uint8_t)d;
		borrow = (d >> 8) & 1;
	}
}

/* A mismatch names the keys, never a value, whichever side differs. */
static void
test_env_diff(void)
{
	static struct approval a;
	struct approval_request req = request();
	char *env_more[] = { "API_KEY", "B", "C" };
	char *env_other[] = { "API_KEY", "X-\x1b[2J" };
	char *env_dup[] = { "API_KEY", "API_KEY" };
	char out[128], tiny[40];

	ok(approval_open(&key.pub, token, token_len, &a) == APPROVAL_OK,
	    "open the token");
	req.env_keys = env_more;
	req.envc = 3;
	approval_env_diff(&a, &req, out, sizeof out);
	ok(strcmp(out, "missing; extra C") == 0, "an added key: %s", out);
	req.envc = 1;
	approval_env_diff(&a, &req, out, sizeof out);
	ok(strcmp(out, "missing B; extra") == 0, "a missing key: %s", out);
	req.envc = 0;
	approval_env_diff(&a, &req, out, sizeof out);
	ok(strcmp(out, "missing API_KEY B; extra") == 0, "none sent: %s", out);
	req.env_keys = env_other;
	req.envc = 2;
	approval_env_diff(&a, &req, out, sizeof out);
	ok(strcmp(out, "missing B; extra X???2J") == 0,
	    "a key with other bytes is written with '?': %s", out);
	req.env_keys = env_dup;
	approval_env_diff(&a, &req, out, sizeof out);
	ok(strcmp(out, "missing B; extra API_KEY") == 0,
	    "a repeated key is extra the second time: %s", out);
	req.env_keys = env_more;
	req.envc = 3;
	approval_env_diff(&a, &req, tiny, 32);
	ok(strlen(tiny) < 32, "a small buffer is never overrun: %s", tiny);
}

/* path's bytes into a file at copy */
static int
copy_file(const char *path, const char *copy)
{
	char buf[8192];
	ssize_t n;
	int in = open(path, O_RDONLY), out = open(copy, O_WRONLY | O_CREAT |
	    O_TRUNC, 0600), r = in >= 0 && out >= 0 ? 0 : -1;

	while (r == 0 && (n = read(in, buf, sizeof buf)) > 0)
		r = write(out, buf, (size_t)n) == n ? 0 : -1;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) != 0)
		r = -1;
	return r;
}

static int
write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	size_t n = strlen(text);
	int r = fd >= 0 && write(fd, text, n) == (ssize_t)n ? 0 : -1;

	if (fd >= 0 && close(fd) != 0)
		r = -1;
	return r;
}

static void
test_revocation(void)
{
	char path[] = "/tmp/approval_test.XXXXXX", twin[APPROVAL_TOKEN_MAX + 1];
	char empty[sizeof path + 8], one[sizeof path + 8];
	char forged[sizeof path + 8], floor[sizeof path + 8];
	uint8_t fdigest[REVFLOOR_DIGEST_LEN];
	struct approval_request req = request();
	struct revocation_set rev, fresh;
	struct revocation_sig rsig;
	uint64_t serial;
	struct approval a;
	uint8_t sig[ECKEY_SIG_LEN], (*ids)[REVOCATION_ID_LEN], id[16];
	const char *why = "", *dot = strchr(token, '.');
	size_t head = (size_t)(dot - token), count, line;
	int fd = mkstemp(path);

	snprintf(empty, sizeof empty, "%s.empty", path);
	snprintf(one, sizeof one, "%s.one", path);
	snprintf(forged, sizeof forged, "%s.forged", path);
	snprintf(floor, sizeof floor, "%s.floor", path);
	ok(fd >= 0 && close(fd) == 0 && write_text(path, REVOCATION_HEADER) ==
	    0, "a new store's list: its header, unsigned");
	revocation_init(&rev, path, &key.pub);
	ok(revocation_floor_load(&rev, floor, &why) == 0 && rev.serial == 0,
	    "no floor file yet: serial 0");
	ok(check(token, token_len, &req, T0, 0, &rev) == APPROVAL_REVOKED,
	    "a list never loaded refuses everything");
	ok(revocation_reload(&rev, &why) == -1 && strstr(why, "not signed"),
	    "an unsigned list does not load: %s", why);
	ok(revocation_sign(path, NULL, 0, NULL, &key, &why) == 0 &&
	    revocation_reload(&rev, &why) == 0 && rev.n == 0,
	    "signed, it loads, empty");
	ok(check(token, token_len, &req, T0, 0, &rev) == APPROVAL_OK,
	    "not listed: ok");
	copy_file(path, empty);
	approval_open(&key.pub, token, token_len, &a);
	ok(revocation_sign(path, a.token_id, T0, "r000001", &key, &why) == 0,
	    "add the token id, signed");
	ok(revocation_reload(&rev, &why) == 0 && rev.n == 1,
	    "reload sees the change");
	ok(check(token, token_len, &req, T0, 0, &rev) == APPROVAL_REVOKED,
	    "listed: revoked");
	ok(revocation_sign(path, a.token_id, T0 + 1, "r000001", &key, &why) ==
	    0 && revocation_reload(&rev, &why) == 0 && rev.n == 1,
	    "an id listed already is not listed twice");
	copy_file(path, one);

	/* The same payload with s replaced by n - s still verifies; its id
	 * must be the same, or revocation could be dodged. */
	memcpy(twin, token, token_len + 1);
	b64url_decode(dot + 1, 86, sig, sizeof sig);
	negate_s(sig);
	b64url_encode(sig, sizeof sig, twin + head + 1, 87);
	ok(strcmp(twin, token) != 0 && approval_verify(&key.pub, twin,
	    token_len, &req, T0, 0, NULL) == APPROVAL_OK,
	    "a re-encoded signature (n - s) verifies");
	ok(check(twin, token_len, &req, T0, 0, &rev) == APPROVAL_REVOKED,
	    "and is revoked all the same: the id hashes the payload");
	ok(approval_token_id(twin, token_len, id) == 0 &&
	    memcmp(id, a.token_id, 16) == 0, "approval_token_id agrees");

	/* The attacks on the file: edit it, roll it back, sign it with
	 * another key, forge or replay a serial. Each is refused, and the
	 * last good list stays in force (the token stays revoked; the set
	 * stays usable: other tokens are served). */
	ok(write_text(path, REVOCATION_HEADER) == 0 &&
	    revocation_reload(&rev, &why) == -1 && strstr(why, "not signed") &&
	    rev.usable && rev.n == 1 && rev.serial == 3 &&
	    check(token, token_len, &req, T0, 0, &rev) == APPROVAL_REVOKED,
	    "cut to its header: refused, the last good list (serial 3) "
	    "stays in force");
	ok(revocation_reload(&rev, &why) == -1 && strstr(why, "not signed"),
	    "refused again, unread until it changes");
	ok(copy_file(empty, path) == 0 && revocation_reload(&rev, &why) ==
	    -1 && strstr(why, "no longer holds revoked token") && rev.usable &&
	    rev.n == 1, "rolled back to an older signed copy: refused: %s",
	    why);
	revocation_init(&fresh, path, &key.pub);
	ok(revocation_reload(&fresh, &why) == 0 && fresh.n == 0,
	    "(a set that never saw the newer list and has no floor takes the "
	    "older one)");
	revocation_free(&fresh);
	revocation_init(&fresh, path, &key.pub);
	ok(revocation_floor_load(&fresh, floor, &why) == 0 &&
	    fresh.serial == 3 && revocation_reload(&fresh, &why) == -1 &&
	    strstr(why, "serial 1 is older than serial 3") && !fresh.usable &&
	    check(token, token_len, &req, T0, 0, &fresh) == APPROVAL_REVOKED,
	    "a set started from the floor file refuses the older copy (a "
	    "restart): %s", why);
	revocation_free(&fresh);
	/* serial 3 forged: the same ids, another time: other bytes */
	ok(copy_file(empty, forged) == 0 && revocation_sign(forged, a.token_id,
	    T0 + 5, "r000001", &key, &why) == 0 && revocation_sign(forged,
	    NULL, 0, NULL, &key, &why) == 0 && copy_file(forged, path) == 0 &&
	    revocation_reload(&rev, &why) == -1 &&
	    strstr(why, "serial 3 again, with other bytes"),
	    "the same serial with other bytes: refused: %s", why);
	revocation_init(&fresh, path, &key.pub);
	ok(revocation_floor_load(&fresh, floor, &why) == 0 &&
	    revocation_reload(&fresh, &why) == -1 &&
	    strstr(why, "serial 3 again"), "... after a restart too");
	revocation_free(&fresh);
	ok(copy_file(one, path) == 0 && revocation_reload(&rev, &why) == 0 &&
	    rev.n == 1, "the signed list back: it loads");
	ok(revocation_sign(path, NULL, 0, NULL, &key, &why) == 0 &&
	    revocation_reload(&rev, &why) == 0 && why == NULL &&
	    rev.serial == 4 && revfloor_read(floor, &serial, fdigest, &why) ==
	    1 && serial == 4 && memcmp(fdigest, rev.digest, 32) == 0,
	    "signed again: serial 4, accepted and remembered in the floor");
	copy_file(path, one);
	ok(revocation_sign(path, NULL, 0, NULL, &other, &why) == -1 &&
	    strstr(why, "another key"), "another key does not re-sign the "
	    "reviewer's list: %s", why);
	ok(write_text(empty, REVOCATION_HEADER) == 0 &&
	    revocation_sign(empty, NULL, 0, NULL, &other, &why) == 0 &&
	    copy_file(empty, path) == 0 && revocation_reload(&rev, &why) == -1 &&
	    strstr(why, "another key") && rev.usable && rev.n == 1,
	    "a list signed by another key: refused: %s", why);
	ok(copy_file(one, path) == 0 && revocation_reload(&rev, &why) == 0,
	    "restored");
	fd = open(path, O_WRONLY | O_APPEND);
	ok(fd >= 0 && write(fd, "junk\n", 5) == 5 && close(fd) == 0 &&
	    revocation_reload(&rev, &why) == -1 && strstr(why, "line 4"),
	    "text after the signature fails to reload, naming the line: %s",
	    why);
	ok(check(token, token_len, &req, T0, 0, &rev) == APPROVAL_REVOKED &&
	    rev.usable, "and the last good list stays in force");
	ok(revocation_sign(path, id, T0, "r000002", &key, &why) == -1,
	    "nothing is signed over a malformed list");
	ok(copy_file(one, path) == 0 && (fd = open(path, O_RDWR)) >= 0 &&
	    pwrite(fd, "B", 1, revocation_entries_off(4)) == 1 &&
	    close(fd) == 0 && revocation_reload(&rev, &why) == -1 &&
	    strstr(why, "does not verify"), "one entry byte changed: "
	    "refused: %s", why);
	ok(copy_file(one, path) == 0 && (fd = open(path, O_RDWR)) >= 0 &&
	    pwrite(fd, "9", 1, revocation_entries_off(4) - 2) == 1 &&
	    close(fd) == 0 && revocation_reload(&rev, &why) == -1 &&
	    strstr(why, "does not verify"), "its serial raised by an edit: "
	    "refused: %s", why);
	ok(write_text(floor, "airlock-revocation-floor 1\nserial 4\n") == 0 &&
	    revocation_floor_load(&fresh, floor, &why) == -1,
	    "a malformed floor file does not load: %s", why);
	unlink(floor);
	unlink(forged);
	unlink(path);
	unlink(empty);
	unlink(one);
	ok(revocation_reload(&rev, &why) == -1, "a missing list fails");
	revocation_free(&rev);

	static const char *const bad[] = {
		"", "airlock-revocations 3\n",
		REVOCATION_HEADER "AAAAAAAAAAAAAAAAAAAAAA 1 r/1\n",
		REVOCATION_HEADER "AAAAAAAAAAAAAAAAAAAAAA 1 r000001",
		REVOCATION_HEADER "AAAAAAAAAAAAAAAAAAAAA 1 r000001\n",
		REVOCATION_HEADER "AAAAAAAAAAAAAAAAAAAAAA 01 r000001\n",
		REVOCATION_HEADER "AAAAAAAAAAAAAAAAAAAAAA  r000001\n",
		REVOCATION_HEADER "AAAAAAAAAAAAAAAAAAAAA= 1 r000001\n",
		REVOCATION_HEADER "sig AAAAAAAAAAAAAAAAAAAAAA AAAA\n",
		REVOCATION_HEADER "sig AAAAAAAAAAAAAAAAAAAAA AAAA\n",
		REVOCATION_HEADER_V1 "sig AAAAAAAAAAAAAAAAAAAAAA "
		    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ok(revocation_parse((const uint8_t *)bad[i], strlen(bad[i]),
		    &ids, &count, &rsig, &serial, &line, &why) == -1,
		    "bad list %zu refused", i);
	static const char good[] = REVOCATION_HEADER
	    "AAAAAAAAAAAAAAAAAAAAAA 1 r000001\n";
	ids = NULL;
	ok(revocation_parse((const uint8_t *)good, sizeof good - 1, &ids,
	    &count, &rsig, &serial, &line, &why) == 0 && count == 1 &&
	    !rsig.present && serial == 0, "a good unsigned list parses");
	free(ids);
	static const char v1[] = REVOCATION_HEADER_V1
	    "AAAAAAAAAAAAAAAAAAAAAA 1 r000001\n";
	ids = NULL;
	ok(revocation_parse((const uint8_t *)v1, sizeof v1 - 1, &ids,
	    &count, &rsig, &serial, &line, &why) == 0 && count == 1 &&
	    !rsig.present, "a format 1 list parses (review signs it at its "
	    "next change)");
	free(ids);
}

static void
test_names(void)
{
	static const char *const names[] = { "ok", "bad_format",
		"bad_signature", "wrong_key", "expired", "not_yet_valid",
		"revoked", "tenant_mismatch", "registration_mismatch",
		"argv_mismatch", "env_mismatch" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(approval_result_name((enum approval_result)i),
		    names[i]) != 0)
			break;
	ok(i == APPROVAL_RESULT_MAX_ && i == sizeof names / sizeof *names,
	    "failure codes keep their stable names");
	ok(strcmp(approval_result_name(APPROVAL_RESULT_MAX_), "unknown") == 0,
	    "an out-of-range code is unknown");
}

/* Version 2: the registration's own egress hosts, in their one spelling;
 * without hosts the token stays the version 1 token, byte for byte. */
static void
test_egress(void)
{
	static const char hosts[] = "api.github.com:443,registry.npmjs.org:443";
	static const char *const not_canonical[] = {
		"registry.npmjs.org:443,api.github.com:443",	/* order */
		"API.github.com:443", "a.io:1,a.io:1", "a.io", "*.a.io:443",
		"a.io:443,", };
	static char t2[APPROVAL_TOKEN_MAX + 1], t1[APPROVAL_TOKEN_MAX + 1];
	static struct approval a;
	struct approval_request req = request();
	uint8_t payload[APPROVAL_PAYLOAD_MAX + 2];
	long n, n1;

	n1 = approval_sign_egress(&key, &req, NULL, 0, T0, T1, t1, sizeof t1);
	ok(n1 > 0 && (size_t)n1 == strlen(golden) && memcmp(t1, golden,
	    (size_t)n1) == 0, "no egress hosts: the version 1 golden token");
	n = approval_sign_egress(&key, &req, hosts, strlen(hosts), T0, T1, t2,
	    sizeof t2);
	ok(n > 0 && approval_open(&key.pub, t2, (size_t)n, &a) ==
	    APPROVAL_OK && a.payload[0] == 2 && a.egress.n == strlen(hosts) &&
	    memcmp(a.egress.p, hosts, a.egress.n) == 0,
	    "hosts: a version 2 token that carries them");
	ok(approval_check(&a, &req, T0, 60, NULL) == APPROVAL_OK,
	    "it binds the same request");
	ok(approval_open(&key.pub, golden, strlen(golden), &a) ==
	    APPROVAL_OK && a.egress.n == 0, "version 1: no extra hosts");
	for (size_t i = 0; i < sizeof not_canonical / sizeof *not_canonical;
	    i++)
		ok(approval_sign_egress(&key, &req, not_canonical[i],
		    strlen(not_canonical[i]), T0, T1, t2, sizeof t2) < 0,
		    "not signed: \"%s\" is not the one spelling",
		    not_canonical[i]);
	/* a version 2 payload with an empty list is not a token */
	ok(approval_open(&key.pub, golden, strlen(golden), &a) ==
	    APPROVAL_OK, "golden opens");
	n = (long)a.payload_len;
	memcpy(payload, a.payload, (size_t)n);
	payload[0] = 2;
	memmove(payload + n - 16 + 2, payload + n - 16, 16);
	payload[n - 16] = payload[n - 15] = 0;
	ok(approval_parse_payload(payload, (size_t)n + 2, &a) != 0,
	    "version 2 with an empty egress list is refused");
	payload[0] = 1;
	ok(approval_parse_payload(payload, (size_t)n + 2, &a) != 0,
	    "version 1 with an egress field is refused (exact end)");
	payload[0] = 3;
	ok(approval_parse_payload(payload, (size_t)n, &a) != 0,
	    "version 3 without its lock fields is refused");
	payload[0] = 4;
	ok(approval_parse_payload(payload, (size_t)n, &a) != 0,
	    "version 4 without its fields is refused");
	payload[0] = 5;
	ok(approval_parse_payload(payload, (size_t)n, &a) != 0,
	    "version 5 is refused");
	/* hosts changed without the key: the signature fails */
	n = approval_sign_egress(&key, &req, "a.io:443", 8, T0, T1, t2,
	    sizeof t2);
	ok(n > 0 && approval_peek(t2, (size_t)n, &a) == 0, "a.io token");
	{
		size_t head = (size_t)(strchr(t2, '.') - t2);
		char forged[APPROVAL_TOKEN_MAX + 1];
		long h;

		memcpy((char *)a.egress.p, "b", 1);	/* b.io:443 */
		h = b64url_encode(a.payload, a.payload_len, forged,
		    sizeof forged);
		ok(h > 0 && (size_t)h + strlen(t2 + head) < sizeof forged,
		    "forged payload encoded");
		memcpy(forged + h, t2 + head, strlen(t2 + head) + 1);
		ok(approval_open(&key.pub, forged, strlen(forged), &a) ==
		    APPROVAL_BAD_SIGNATURE, "another host without the key: "
		    "bad_signature");
	}
}

/* Version 3: the digest of the lockfile the approval is for, and its
 * flags; a lock with or without egress hosts; the digest signed. */
static void
test_lock(void)
{
	static char t[APPROVAL_TOKEN_MAX + 1];
	static struct approval a;
	struct approval_request req = request();
	uint8_t lock[APPROVAL_LOCK_LEN], payload[APPROVAL_PAYLOAD_MAX];
	size_t n;
	long len;

	for (size_t i = 0; i < sizeof lock; i++)
		lock[i] = (uint8_t)(0xa0 + i);
	len = approval_sign_lock(&key, &req, NULL, 0, lock, 0, T0, T1, t,
	    sizeof t);
	ok(len > 0 && approval_open(&key.pub, t, (size_t)len, &a) ==
	    APPROVAL_OK && a.payload[0] == 3 && a.has_lock && a.egress.n == 0
	    && memcmp(a.lock, lock, sizeof lock) == 0 && a.lock_flags == 0,
	    "a lock: a version 3 token that carries its digest");
	ok(approval_check(&a, &req, T0, 60, NULL) == APPROVAL_OK,
	    "it binds the same request");
	len = approval_sign_lock(&key, &req, "a.io:443", 8, lock,
	    APPROVAL_LOCK_SCRIPTS, T0, T1, t, sizeof t);
	ok(len > 0 && approval_open(&key.pub, t, (size_t)len, &a) ==
	    APPROVAL_OK && a.egress.n == 8 && a.lock_flags ==
	    APPROVAL_LOCK_SCRIPTS, "a lock, hosts and install scripts");
	ok(approval_sign_lock(&key, &req, NULL, 0, lock, 2, T0, T1, t,
	    sizeof t) < 0, "an unknown flag is not signed");
	ok(approval_sign_lock(&key, &req, "A.io:443", 8, lock, 0, T0, T1, t,
	    sizeof t) < 0, "nor a list not in its one spelling");
	len = approval_sign_lock(&key, &req, NULL, 0, lock, 0, T0, T1, t,
	    sizeof t);
	ok(len > 0 && approval_peek(t, (size_t)len, &a) == 0, "peeked");
	n = a.payload_len;
	memcpy(payload, a.payload, n);
	payload[n - 17] = 0x80;		/* the flags byte */
	ok(approval_parse_payload(payload, n, &a) != 0,
	    "a payload with an unknown flag is refused");
	ok(approval_parse_payload(payload, n - 1, &a) != 0,
	    "a payload cut inside its lock fields is refused");
	{
		size_t head = (size_t)(strchr(t, '.') - t);
		char forged[APPROVAL_TOKEN_MAX + 1];
		long h;

		approval_peek(t, (size_t)len, &a);
		a.payload[n - 18] ^= 1;		/* the digest's last byte */
		h = b64url_encode(a.payload, a.payload_len, forged,
		    sizeof forged);
		memcpy(forged + h, t + head, strlen(t + head) + 1);
		ok(approval_open(&key.pub, forged, strlen(forged), &a) ==
		    APPROVAL_BAD_SIGNATURE, "another lock without the key: "
		    "bad_signature");
	}
}

/* Version 4: a tool list (with or without egress hosts and a lock),
 * canonical only; without one the token is the version 1, 2 or 3 token,
 * unchanged. */
static void
test_tools(void)
{
	static const char *const not_canonical[] = { "b,a", "a,a", "a,",
		",a", "a b", "a\"b" };
	static char t[APPROVAL_TOKEN_MAX + 1], t1[APPROVAL_TOKEN_MAX + 1];
	static struct approval a;
	struct approval_request req = request();
	uint8_t lock[APPROVAL_LOCK_LEN];
	long n;

	memset(lock, 0xa5, sizeof lock);
	n = approval_sign_extra(&key, &req, &(struct approval_extra){ NULL,
	    0, NULL, 0, NULL, 0, NULL }, T0, T1, t1, sizeof t1);
	ok(n > 0 && (size_t)n == strlen(golden) &&
	    memcmp(t1, golden, (size_t)n) == 0,
	    "no tools, no hosts: the version 1 golden token");
	n = approval_sign_extra(&key, &req, &(struct approval_extra){ NULL,
	    0, NULL, 0, "echo,get-sum", 12, NULL }, T0, T1, t, sizeof t);
	ok(n > 0 && approval_open(&key.pub, t, (size_t)n, &a) ==
	    APPROVAL_OK && a.payload[0] == 4 && a.egress.n == 0 &&
	    !a.has_lock && a.tools.n == 12 &&
	    memcmp(a.tools.p, "echo,get-sum", 12) == 0,
	    "tools: a version 4 token, empty egress field, no lock");
	ok(approval_check(&a, &req, T0, 60, NULL) == APPROVAL_OK,
	    "it binds the same request");
	n = approval_sign_extra(&key, &req, &(struct approval_extra){
	    "a.io:443", 8, lock, APPROVAL_LOCK_SCRIPTS, "x", 1, NULL }, T0, T1,
	    t,
	    sizeof t);
	ok(n > 0 && approval_open(&key.pub, t, (size_t)n, &a) ==
	    APPROVAL_OK && a.payload[0] == 4 && a.egress.n == 8 &&
	    a.has_lock && memcmp(a.lock, lock, sizeof lock) == 0 &&
	    a.lock_flags == APPROVAL_LOCK_SCRIPTS && a.tools.n == 1,
	    "tools, hosts and a lock together");
	n = approval_sign_extra(&key, &req, &(struct approval_extra){ NULL,
	    0, lock, 0, NULL, 0, NULL }, T0, T1, t, sizeof t);
	ok(n > 0 && approval_open(&key.pub, t, (size_t)n, &a) ==
	    APPROVAL_OK && a.payload[0] == 3 && a.tools.n == 0 &&
	    !a.has_surface,
	    "a lock without tools: still the version 3 token");
	n = approval_sign_extra(&key, &req, &(struct approval_extra){ NULL,
	    0, NULL, 0, NULL, 0, lock }, T0, T1, t, sizeof t);
	ok(n > 0 && approval_open(&key.pub, t, (size_t)n, &a) ==
	    APPROVAL_OK && a.payload[0] == 5 && a.tools.n == 0 &&
	    !a.has_lock && a.has_surface &&
	    memcmp(a.surface, lock, sizeof lock) == 0 &&
	    approval_check(&a, &req, T0, 60, NULL) == APPROVAL_OK,
	    "a surface: version 5, every tool, the digest bound");
	n = approval_sign_extra(&key, &req, &(struct approval_extra){
	    "a.io:443", 8, lock, 0, "echo", 4, lock }, T0, T1, t, sizeof t);
	ok(n > 0 && approval_open(&key.pub, t, (size_t)n, &a) ==
	    APPROVAL_OK && a.payload[0] == 5 && a.tools.n == 4 &&
	    a.has_lock && a.egress.n == 8 && a.has_surface,
	    "a surface with tools, hosts and a lock");
	{
		/* version 4 with an empty list stays bad_format; version 5
		 * cut before its digest too */
		uint8_t p[APPROVAL_PAYLOAD_MAX];
		struct approval b;
		size_t len = a.payload_len;

		memcpy(p, a.payload, len);
		ok(approval_parse_payload(p, len - 16 - 1, &b) != 0,
		    "version 5 without its whole digest: refused");
	}
	for (size_t i = 0; i < sizeof not_canonical / sizeof *not_canonical;
	    i++)
		ok(approval_sign_extra(&key, &req, &(struct approval_extra){
		    NULL, 0, NULL, 0, not_canonical[i],
		    strlen(not_canonical[i]), NULL }, T0,
		    T1, t, sizeof t) < 0,
		    "not signed: \"%s\" is not a canonical list",
		    not_canonical[i]);
	ok(approval_open(&key.pub, golden, strlen(golden), &a) ==
	    APPROVAL_OK && a.tools.n == 0, "version 1: no list, every tool");
}

int
main(void)
{
	const char *why;

	if (eckey_priv_parse(test_key_sec1, strlen(test_key_sec1), &key,
	    &why) != 0 || eckey_generate(&other, &why) != 0) {
		printf("Bail out! key setup: %s\n", why);
		return 1;
	}
	test_golden();
	test_codes();
	test_env_diff();
	test_sign_refusals();
	test_revocation();
	test_names();
	test_egress();
	test_lock();
	test_tools();
	return tap_done();
}
