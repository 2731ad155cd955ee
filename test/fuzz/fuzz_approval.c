/* fuzz_approval.c - approval tokens (common/approval) under arbitrary
 * bytes. The first byte picks the path: the full open (approval_open:
 * format, key id, signature) as a runner sees wire data, or the payload
 * parser the signature normally guards (approval_parse_payload), with the
 * invariants that an accepted payload is canonical (re-encoding gives its
 * exact length, its egress list included) and matches its own request. The open path also runs the
 * unverified decode (approval_peek) on the same bytes. */
#include <string.h>

#include "common/policy/approval.h"
#include "common/policy/eckey.h"
#include "fuzz.h"

static const char pub_pem[] =
    "-----BEGIN PUBLIC KEY-----\n"
    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEiuG0R+AsxjXm61b6xtmvnHlTKhcZ\n"
    "XDMsfvlyzPuRxE1NCqJ2vEqcloWAfRQ2oqM64ajTInGKyBFyyTMJyS08AA==\n"
    "-----END PUBLIC KEY-----\n";

static struct approval a;
static char strings[APPROVAL_PAYLOAD_MAX + PROTO_ARGC_MAX + PROTO_ENVC_MAX
    + 8];

/* NUL-terminated copies of the parsed strings, for a request. */
static char *
cstr(const struct approval_str *s, size_t *used)
{
	char *out = strings + *used;

	memcpy(out, s->p, s->n);
	out[s->n] = '\0';
	*used += s->n + 1;
	return out;
}

static void
check_payload(const uint8_t *data, size_t size)
{
	static char *argv[PROTO_ARGC_MAX + 1], *env[PROTO_ENVC_MAX];
	struct approval_request req;
	size_t used = 0;

	if (approval_parse_payload(data, size, &a) != 0)
		return;
	FUZZ_ASSERT(a.argc >= 1 && a.argc <= PROTO_ARGC_MAX &&
	    a.envc <= PROTO_ENVC_MAX && a.expires_at > a.issued_at);
	req.tenant = cstr(&a.tenant, &used);
	req.registration = cstr(&a.registration, &used);
	for (size_t i = 0; i < a.argc; i++)
		argv[i] = cstr(&a.argv[i], &used);
	for (size_t i = 0; i < a.envc; i++)
		env[i] = cstr(&a.env[i], &used);
	req.argv = argv;
	req.argc = a.argc;
	req.env_keys = env;
	req.envc = a.envc;
	FUZZ_ASSERT(a.egress.n == 0 || a.payload[0] >= APPROVAL_VERSION_EGRESS);
	FUZZ_ASSERT(a.has_lock == (a.payload[0] == APPROVAL_VERSION_LOCK));
	/* a lock adds its fields, and the egress length when it is empty */
	FUZZ_ASSERT(approval_payload_len_egress(&req, (const char *)a.egress.p,
	    a.egress.n) + (a.has_lock ? (a.egress.n ? 0 : 2) +
	    APPROVAL_LOCK_LEN + 1 : 0) == (long)size);
	FUZZ_ASSERT(approval_check(&a, &req, a.issued_at, 0, NULL) ==
	    APPROVAL_OK);
	if (a.expires_at < UINT64_MAX)
		FUZZ_ASSERT(approval_check(&a, &req, a.expires_at + 1, 0,
		    NULL) == APPROVAL_EXPIRED);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct eckey_pub key;
	static int ready;
	const char *why;
	enum approval_result r;

	if (!ready) {
		FUZZ_ASSERT(eckey_pub_parse(pub_pem, sizeof pub_pem - 1, &key,
		    &why) == 0);
		ready = 1;
	}
	if (size < 1)
		return 0;
	if (data[0] & 1) {
		check_payload(data + 1, size - 1);
		return 0;
	}
	r = approval_open(&key, (const char *)data + 1, size - 1, &a);
	FUZZ_ASSERT(r == APPROVAL_BAD_FORMAT || r == APPROVAL_BAD_SIGNATURE ||
	    r == APPROVAL_WRONG_KEY || r == APPROVAL_OK);
	/* the unverified decode (display, renew's comparison) accepts at
	 * least what a verified open does, and reads the same fields */
	if (r == APPROVAL_OK) {
		static struct approval peeked;

		FUZZ_ASSERT(approval_peek((const char *)data + 1, size - 1,
		    &peeked) == 0 && peeked.payload_len == a.payload_len &&
		    memcmp(peeked.payload, a.payload, a.payload_len) == 0 &&
		    peeked.expires_at == a.expires_at);
	} else {
		(void)approval_peek((const char *)data + 1, size - 1, &a);
	}
	return 0;
}
