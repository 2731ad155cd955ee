/* approval.c - approval token encoding, signing and verification. */
#include "common/policy/approval.h"

#include <stdio.h>
#include <string.h>

#include <bearssl_hash.h>

#include "common/egress/egress_allow.h"
#include "common/base/bounded_rw.h"
#include "common/mcp/toollist.h"

_Static_assert(APPROVAL_TOKEN_MAX <= PROTO_APPROVAL_MAX,
    "every token must fit the spawn request's approval field");

/* Signed with a context prefix, so a signature made by this key for any
 * other purpose can never pass as an approval. */
static const char sign_context[] = "airlock-approval";

static const char *const result_names[] = {
	[APPROVAL_OK] = "ok",
	[APPROVAL_BAD_FORMAT] = "bad_format",
	[APPROVAL_BAD_SIGNATURE] = "bad_signature",
	[APPROVAL_WRONG_KEY] = "wrong_key",
	[APPROVAL_EXPIRED] = "expired",
	[APPROVAL_NOT_YET_VALID] = "not_yet_valid",
	[APPROVAL_REVOKED] = "revoked",
	[APPROVAL_TENANT_MISMATCH] = "tenant_mismatch",
	[APPROVAL_REGISTRATION_MISMATCH] = "registration_mismatch",
	[APPROVAL_ARGV_MISMATCH] = "argv_mismatch",
	[APPROVAL_ENV_MISMATCH] = "env_mismatch",
};

const char *
approval_result_name(enum approval_result r)
{
	if ((unsigned)r < APPROVAL_RESULT_MAX_)
		return result_names[r];
	return "unknown";
}

static void
token_id(const uint8_t *payload, size_t n, uint8_t id[APPROVAL_ID_LEN])
{
	br_sha256_context h;
	uint8_t out[br_sha256_SIZE];

	br_sha256_init(&h);
	br_sha256_update(&h, payload, n);
	br_sha256_out(&h, out);
	memcpy(id, out, APPROVAL_ID_LEN);
}

static int
tenant_valid(const uint8_t *s, size_t n)
{
	return (n == 1 && s[0] == '*') || proto_id_valid(s, n);
}

static int
env_key_valid(const uint8_t *s, size_t n)
{
	return n > 0 && n <= PROTO_ENV_KEY_MAX && !memchr(s, '\0', n) &&
	    !memchr(s, '=', n);
}

/* Byte-wise order, a proper prefix first; the env list's one order. */
static int
str_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	if (c != 0)
		return c;
	return an < bn ? -1 : an > bn;
}

static int
take(struct rd *r, size_t max, struct approval_str *s)
{
	return rd_str16(r, &s->p, &s->n) || s->n > max ||
	    memchr(s->p, '\0', s->n) ? -1 : 0;
}

/* A version 2 egress list: not empty, and its one spelling (so a set
 * has one token, and the runner reads exactly what was reviewed). */
static int
egress_canonical(const struct approval_str *e)
{
	static char canon[EGRESS_ALLOW_TEXT_MAX + 1];
	char err[160];
	long n;

	if (e->n == 0)
		return 0;
	n = egress_allow_canonical((const char *)e->p, e->n, canon,
	    sizeof canon, err, sizeof err);
	return n == (long)e->n && memcmp(canon, e->p, e->n) == 0;
}

/* Parse a->payload[0..a->payload_len) in place. */
static int
parse(struct approval *a)
{
	struct rd r = rd_init(a->payload, a->payload_len);
	const uint8_t *kid;
	uint16_t count;
	uint8_t version, has_lock;

	if (rd_u8(&r, &version) || version < APPROVAL_VERSION ||
	    version > APPROVAL_VERSION_SURFACE ||
	    rd_bytes(&r, ECKEY_ID_LEN, &kid))
		return -1;
	memcpy(a->key_id, kid, ECKEY_ID_LEN);
	if (take(&r, PROTO_ID_MAX, &a->tenant) ||
	    !tenant_valid(a->tenant.p, a->tenant.n) ||
	    take(&r, PROTO_ID_MAX, &a->registration) ||
	    !proto_id_valid(a->registration.p, a->registration.n))
		return -1;
	if (rd_u16(&r, &count) || count == 0 || count > PROTO_ARGC_MAX)
		return -1;
	a->argc = count;
	for (size_t i = 0; i < a->argc; i++)
		if (take(&r, PROTO_ARG_MAX, &a->argv[i]))
			return -1;
	if (rd_u16(&r, &count) || count > PROTO_ENVC_MAX)
		return -1;
	a->envc = count;
	for (size_t i = 0; i < a->envc; i++) {
		struct approval_str *e = &a->env[i];

		if (take(&r, PROTO_ENV_KEY_MAX, e) ||
		    !env_key_valid(e->p, e->n))
			return -1;
		/* strictly ascending: one spelling per set, no duplicates */
		if (i > 0 && str_cmp(e[-1].p, e[-1].n, e->p, e->n) >= 0)
			return -1;
	}
	a->egress = (struct approval_str){ NULL, 0 };
	if (version == APPROVAL_VERSION_EGRESS && (take(&r,
	    EGRESS_ALLOW_TEXT_MAX, &a->egress) || !egress_canonical(&a->egress)))
		return -1;
	a->lock_flags = 0;
	a->tools = (struct approval_str){ NULL, 0 };
	has_lock = version == APPROVAL_VERSION_LOCK;
	/* versions 3 to 5: the egress field, empty for "no extra hosts";
	 * versions 4 and 5 then say whether a lock follows */
	if (version >= APPROVAL_VERSION_LOCK && (take(&r,
	    EGRESS_ALLOW_TEXT_MAX, &a->egress) || (a->egress.n &&
	    !egress_canonical(&a->egress))))
		return -1;
	if (version >= APPROVAL_VERSION_TOOLS && (rd_u8(&r, &has_lock) ||
	    has_lock > 1))
		return -1;
	a->has_lock = has_lock;
	if (a->has_lock) {
		const uint8_t *lock;

		if (rd_bytes(&r, APPROVAL_LOCK_LEN, &lock) ||
		    rd_u8(&r, &a->lock_flags) ||
		    (a->lock_flags & ~APPROVAL_LOCK_SCRIPTS))
			return -1;
		memcpy(a->lock, lock, APPROVAL_LOCK_LEN);
	}
	/* version 5: a list may be empty (every tool), then the surface */
	if (version >= APPROVAL_VERSION_TOOLS && (take(&r, TOOLLIST_TEXT_MAX,
	    &a->tools) || ((version == APPROVAL_VERSION_TOOLS ||
	    a->tools.n) && !toollist_is_canonical(a->tools.p, a->tools.n))))
		return -1;
	a->has_surface = version == APPROVAL_VERSION_SURFACE;
	if (a->has_surface) {
		const uint8_t *d;

		if (rd_bytes(&r, APPROVAL_SURFACE_LEN, &d))
			return -1;
		memcpy(a->surface, d, APPROVAL_SURFACE_LEN);
	}
	if (rd_u64(&r, &a->issued_at) || rd_u64(&r, &a->expires_at) ||
	    a->expires_at <= a->issued_at || !rd_done(&r))
		return -1;
	token_id(a->payload, a->payload_len, a->token_id);
	return 0;
}

int
approval_parse_payload(const uint8_t *p, size_t n, struct approval *a)
{
	if (n > sizeof a->payload)
		return -1;
	memcpy(a->payload, p, n);
	a->payload_len = n;
	return parse(a);
}

/* Split "PAYLOAD.SIG" and decode both parts; 0 or -1. */
static int
split(const char *token, size_t len, uint8_t *payload, size_t *plen,
    uint8_t sig[ECKEY_SIG_LEN])
{
	const char *dot;
	size_t head;
	long n;

	if (len > APPROVAL_TOKEN_MAX || !(dot = memchr(token, '.', len)))
		return -1;
	head = (size_t)(dot - token);
	n = b64url_decode(token, head, payload, APPROVAL_PAYLOAD_MAX);
	if (n <= 0)
		return -1;
	*plen = (size_t)n;
	/* The signature part is exactly 86 characters, so a second '.' or
	 * any trailing byte fails here. */
	if (len - head - 1 != B64URL_ENCODED_LEN(ECKEY_SIG_LEN) ||
	    b64url_decode(dot + 1, len - head - 1, sig, ECKEY_SIG_LEN) !=
	    ECKEY_SIG_LEN)
		return -1;
	return 0;
}

enum approval_result
approval_open(const struct eckey_pub *key, const char *token, size_t len,
    struct approval *out)
{
	uint8_t sig[ECKEY_SIG_LEN], hash[ECKEY_HASH_LEN];
	const uint8_t *payload = out->payload;

	if (split(token, len, out->payload, &out->payload_len, sig) != 0 ||
	    out->payload_len < 1 + ECKEY_ID_LEN ||
	    payload[0] < APPROVAL_VERSION ||
	    payload[0] > APPROVAL_VERSION_SURFACE)
		return APPROVAL_BAD_FORMAT;
	eckey_context_hash(sign_context, payload, out->payload_len, hash);
	if (!eckey_verify(key, hash, sig)) {
		/* Unverified bytes only choose the error message here. */
		if (memcmp(payload + 1, key->id, ECKEY_ID_LEN) != 0)
			return APPROVAL_WRONG_KEY;
		return APPROVAL_BAD_SIGNATURE;
	}
	if (parse(out) != 0)
		return APPROVAL_BAD_FORMAT;
	/* Signed by key but naming another: our own tool never does that. */
	if (memcmp(out->key_id, key->id, ECKEY_ID_LEN) != 0)
		return APPROVAL_WRONG_KEY;
	return APPROVAL_OK;
}

static int
str_is(const struct approval_str *s, const char *c)
{
	size_t n = strlen(c);

	return s->n == n && memcmp(s->p, c, n) == 0;
}

static int
token_has_key(const struct approval *a, const char *key)
{
	for (size_t j = 0; j < a->envc; j++)
		if (str_is(&a->env[j], key))
			return 1;
	return 0;
}

static int
request_has_key(const struct approval_request *req,
    const struct approval_str *key)
{
	for (size_t i = 0; i < req->envc; i++)
		if (str_is(key, req->env_keys[i]))
			return 1;
	return 0;
}

/* The request's env keys equal the token's set: same count, and each
 * side's every key is found on the other. The token's keys are unique
 * (checked when parsed), so a duplicate in the request cannot pass. */
static int
env_equal(const struct approval *a, const struct approval_request *req)
{
	if (req->envc != a->envc)
		return 0;
	for (size_t i = 0; i < req->envc; i++)
		if (!token_has_key(a, req->env_keys[i]))
			return 0;
	for (size_t j = 0; j < a->envc; j++)
		if (!request_has_key(req, &a->env[j]))
			return 0;
	return 1;
}

/* Append a key to out at *o, '?' for bytes outside [A-Za-z0-9_]; cut
 * with "..." (and *o pinned at the end) when it does not fit. */
static void
diff_put(char *out, size_t cap, size_t *o, const uint8_t *p, size_t n)
{
	if (*o + 1 + n + 4 > cap) {
		if (*o + 4 <= cap && (*o < 3 || memcmp(out + *o - 3, "...", 3)))
			*o += (size_t)snprintf(out + *o, cap - *o, "...");
		return;
	}
	out[(*o)++] = ' ';
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];

		out[(*o)++] = (c == '_' || (c >= '0' && c <= '9') ||
		    (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) ?
		    (char)c : '?';
	}
	out[*o] = '\0';
}

void
approval_env_diff(const struct approval *a,
    const struct approval_request *req, char *out, size_t cap)
{
	size_t o;

	if (cap < 32) {
		if (cap)
			out[0] = '\0';
		return;
	}
	o = (size_t)snprintf(out, cap, "missing");
	for (size_t j = 0; j < a->envc; j++) {
		size_t i;

		for (i = 0; i < req->envc && !str_is(&a->env[j],
		    req->env_keys[i]); i++)
			;
		if (i == req->envc)
			diff_put(out, cap, &o, a->env[j].p, a->env[j].n);
	}
	if (o + 8 <= cap)
		o += (size_t)snprintf(out + o, cap - o, "; extra");
	for (size_t i = 0; i < req->envc; i++) {
		size_t j;

		for (j = 0; j < a->envc && !str_is(&a->env[j],
		    req->env_keys[i]); j++)
			;
		/* a key the request repeats is extra the second time */
		for (size_t k = 0; j < a->envc && k < i; k++)
			if (strcmp(req->env_keys[k], req->env_keys[i]) == 0)
				j = a->envc;
		if (j == a->envc)
			diff_put(out, cap, &o, (const uint8_t *)
			    req->env_keys[i], strlen(req->env_keys[i]));
	}
}

enum approval_result
approval_check_time(const struct approval *a, uint64_t now, uint64_t skew,
    const struct revocation_set *revoked)
{
	if (revoked && (!revoked->usable ||
	    revocation_contains(revoked, a->token_id)))
		return APPROVAL_REVOKED;
	if (a->issued_at > now && a->issued_at - now > skew)
		return APPROVAL_NOT_YET_VALID;
	if (now > a->expires_at && now - a->expires_at > skew)
		return APPROVAL_EXPIRED;
	return APPROVAL_OK;
}

enum approval_result
approval_check(const struct approval *a, const struct approval_request *req,
    uint64_t now, uint64_t skew, const struct revocation_set *revoked)
{
	enum approval_result r = approval_check_time(a, now, skew, revoked);

	if (r != APPROVAL_OK)
		return r;
	if (!str_is(&a->tenant, APPROVAL_WILDCARD_TENANT) &&
	    !str_is(&a->tenant, req->tenant))
		return APPROVAL_TENANT_MISMATCH;
	if (!str_is(&a->registration, req->registration))
		return APPROVAL_REGISTRATION_MISMATCH;
	if (req->argc != a->argc)
		return APPROVAL_ARGV_MISMATCH;
	for (size_t i = 0; i < a->argc; i++)
		if (!str_is(&a->argv[i], req->argv[i]))
			return APPROVAL_ARGV_MISMATCH;
	if (!env_equal(a, req))
		return APPROVAL_ENV_MISMATCH;
	return APPROVAL_OK;
}

enum approval_result
approval_verify(const struct eckey_pub *key, const char *token, size_t len,
    const struct approval_request *req, uint64_t now, uint64_t skew,
    const struct revocation_set *revoked)
{
	struct approval a;
	enum approval_result r = approval_open(key, token, len, &a);

	if (r != APPROVAL_OK)
		return r;
	return approval_check(&a, req, now, skew, revoked);
}

/* Encode req into w; the caller checks w->bad. */
static void
encode(struct wr *w, const uint8_t key_id[ECKEY_ID_LEN],
    const struct approval_request *req, const struct approval_extra *x,
    uint64_t issued_at, uint64_t expires_at)
{
	int v4 = x->tools_len || x->surface;

	wr_u8(w, x->surface ? APPROVAL_VERSION_SURFACE : x->tools_len ?
	    APPROVAL_VERSION_TOOLS : x->lock ?
	    APPROVAL_VERSION_LOCK : x->egress_len ? APPROVAL_VERSION_EGRESS :
	    APPROVAL_VERSION);
	wr_bytes(w, key_id, ECKEY_ID_LEN);
	wr_str16(w, req->tenant, strlen(req->tenant));
	wr_str16(w, req->registration, strlen(req->registration));
	wr_u16(w, (uint16_t)req->argc);
	for (size_t i = 0; i < req->argc; i++)
		wr_str16(w, req->argv[i], strlen(req->argv[i]));
	wr_u16(w, (uint16_t)req->envc);
	for (size_t i = 0; i < req->envc; i++)
		wr_str16(w, req->env_keys[i], strlen(req->env_keys[i]));
	if (x->egress_len || x->lock || v4)
		wr_str16(w, x->egress, x->egress_len);
	if (v4)
		wr_u8(w, x->lock != NULL);
	if (x->lock) {
		wr_bytes(w, x->lock, APPROVAL_LOCK_LEN);
		wr_u8(w, (uint8_t)x->lock_flags);
	}
	if (v4)
		wr_str16(w, x->tools, x->tools_len);
	if (x->surface)
		wr_bytes(w, x->surface, APPROVAL_SURFACE_LEN);
	wr_u64(w, issued_at);
	wr_u64(w, expires_at);
}

/* Encode and parse back: the signer never emits what a verifier would
 * refuse (caps, ids, order of env keys). */
static long
encode_checked(const uint8_t key_id[ECKEY_ID_LEN],
    const struct approval_request *req, const struct approval_extra *x,
    uint64_t issued_at, uint64_t expires_at, struct approval *a)
{
	uint8_t buf[APPROVAL_PAYLOAD_MAX];
	struct wr w = wr_init(buf, sizeof buf);

	if (req->argc > PROTO_ARGC_MAX || req->envc > PROTO_ENVC_MAX ||
	    x->egress_len > EGRESS_ALLOW_TEXT_MAX ||
	    x->tools_len > TOOLLIST_TEXT_MAX)
		return -1;
	if (x->lock_flags > 0xff)
		return -1;
	encode(&w, key_id, req, x, issued_at, expires_at);
	if (w.bad || approval_parse_payload(buf, w.off, a) != 0)
		return -1;
	return (long)w.off;
}

long
approval_payload_len_egress(const struct approval_request *req,
    const char *egress, size_t egress_len)
{
	static const uint8_t zero_id[ECKEY_ID_LEN];
	struct approval a;

	return encode_checked(zero_id, req, &(struct approval_extra){ egress,
	    egress_len, NULL, 0, NULL, 0, NULL }, 0, 1, &a);
}

long
approval_payload_len_extra(const struct approval_request *req,
    const struct approval_extra *x)
{
	static const uint8_t zero_id[ECKEY_ID_LEN];
	struct approval a;

	return encode_checked(zero_id, req, x, 0, 1, &a);
}

long
approval_payload_len(const struct approval_request *req)
{
	return approval_payload_len_egress(req, NULL, 0);
}

long
approval_sign(const struct eckey_priv *key,
    const struct approval_request *req, uint64_t issued_at,
    uint64_t expires_at, char *out, size_t cap)
{
	return approval_sign_egress(key, req, NULL, 0, issued_at, expires_at,
	    out, cap);
}

long
approval_sign_egress(const struct eckey_priv *key,
    const struct approval_request *req, const char *egress,
    size_t egress_len, uint64_t issued_at, uint64_t expires_at, char *out,
    size_t cap)
{
	return approval_sign_lock(key, req, egress, egress_len, NULL, 0,
	    issued_at, expires_at, out, cap);
}

long
approval_sign_lock(const struct eckey_priv *key,
    const struct approval_request *req, const char *egress,
    size_t egress_len, const uint8_t *lock, unsigned lock_flags,
    uint64_t issued_at, uint64_t expires_at, char *out, size_t cap)
{
	return approval_sign_extra(key, req, &(struct approval_extra){
	    egress, egress_len, lock, lock_flags, NULL, 0, NULL }, issued_at,
	    expires_at, out, cap);
}

long
approval_sign_extra(const struct eckey_priv *key,
    const struct approval_request *req, const struct approval_extra *x,
    uint64_t issued_at, uint64_t expires_at, char *out, size_t cap)
{
	struct approval a;
	uint8_t hash[ECKEY_HASH_LEN], sig[ECKEY_SIG_LEN];
	long n = encode_checked(key->pub.id, req, x, issued_at, expires_at,
	    &a);
	long head, tail;

	if (n < 0)
		return -1;
	eckey_context_hash(sign_context, a.payload, a.payload_len, hash);
	if (eckey_sign(key, hash, sig) != 0)
		return -1;
	head = b64url_encode(a.payload, a.payload_len, out, cap);
	if (head < 0 || (size_t)head + 2 > cap)
		return -1;
	out[head] = '.';
	tail = b64url_encode(sig, sizeof sig, out + head + 1,
	    cap - (size_t)head - 1);
	if (tail < 0)
		return -1;
	return head + 1 + tail;
}

int
approval_token_id(const char *token, size_t len, uint8_t id[APPROVAL_ID_LEN])
{
	uint8_t payload[APPROVAL_PAYLOAD_MAX], sig[ECKEY_SIG_LEN];
	size_t n;

	if (split(token, len, payload, &n, sig) != 0)
		return -1;
	token_id(payload, n, id);
	return 0;
}

int
approval_peek(const char *token, size_t len, struct approval *out)
{
	uint8_t sig[ECKEY_SIG_LEN];

	if (split(token, len, out->payload, &out->payload_len, sig) != 0)
		return -1;
	return parse(out);
}
