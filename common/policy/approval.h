/* approval.h - approval tokens: a reviewer's ECDSA P-256 signature over
 * exactly what may run (docs/REVIEW.md has the format byte by byte).
 *
 *	token   = base64url(payload) "." base64url(signature)
 *	payload = u8 version (1) | key id (16) | str16 tenant |
 *	          str16 registration | u16 argc | argc x str16 arg |
 *	          u16 envc | envc x str16 env key (strictly ascending) |
 *	          [version 2: str16 egress] |
 *	          [version 3: str16 egress (may be empty) | lock (32) |
 *	           u8 lock flags] |
 *	          [version 4: str16 egress (may be empty) | u8 has lock (0, 1)
 *	           | [lock (32) | u8 lock flags] | str16 tools] |
 *	          [version 5: as version 4, tools may be empty (every tool)
 *	           | surface (32)] |
 *	          u64 issued_at | u64 expires_at	(big-endian, unix s)
 *	egress  = the registration's own egress hosts, the canonical text of
 *	          an allow list (egress_allow_canonical), 1..4096 bytes.
 *	          Version 1 (no egress field) means "no extra hosts"; a token
 *	          with hosts is version 2 and only then.
 *	lock    = SHA-256 of the npm lockfile the approval is for (the exact
 *	          dependency tree, docs/REVIEW.md "Locked npm trees"); a
 *	          token with a lock is version 3 and only then. Flags: bit 0
 *	          (APPROVAL_LOCK_SCRIPTS) lets install scripts run; any other
 *	          bit set is bad_format.
 *	tools   = the tools the registration may expose, the canonical text
 *	          of a tool list (common/mcp/toollist.h), 1..4096 bytes; a
 *	          token with a list is version 4 and only then (the runner
 *	          enforces it, docs/PROTOCOL.md "Tool allowlists").
 *	surface = SHA-256 of the server's surface document as captured
 *	          (common/mcp/surface.h), which the runner compares every
 *	          initialize and list answer against; a token with a surface
 *	          is version 5 and only then (docs/PROTOCOL.md "Surface
 *	          pins").
 *	signature = raw r || s (64 bytes) over
 *	            SHA-256("airlock-approval" NUL || payload)
 *
 * The token id is SHA-256(payload)[0..16): it names the approval in the
 * revocation list. It hashes the payload, not the token, because an ECDSA
 * signature can be re-encoded (s -> n - s) without the key: a token id
 * over the signature could be changed to dodge revocation.
 *
 * A runner calls approval_verify on every spawn. The token is untrusted;
 * no field of it is used before its signature is verified, except the
 * version byte and key id that only pick which error to report. */
#ifndef AIRLOCK_APPROVAL_H
#define AIRLOCK_APPROVAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/base/b64url.h"
#include "common/policy/eckey.h"
#include "common/wire/proto.h"
#include "common/policy/revocation.h"

#define APPROVAL_VERSION 1
#define APPROVAL_VERSION_EGRESS 2	/* with the egress field */
#define APPROVAL_VERSION_LOCK 3		/* egress and the lock digest */
#define APPROVAL_VERSION_TOOLS 4	/* egress, maybe a lock, tools */
#define APPROVAL_VERSION_SURFACE 5	/* version 4's, and a surface pin */
#define APPROVAL_SURFACE_LEN 32		/* SHA-256 */
#define APPROVAL_LOCK_LEN 32		/* SHA-256 */
#define APPROVAL_LOCK_SCRIPTS 0x01	/* install scripts may run */
#define APPROVAL_ID_LEN REVOCATION_ID_LEN
#define APPROVAL_ID_TEXT 23		/* base64url of the id, plus NUL */
#define APPROVAL_WILDCARD_TENANT "*"	/* catalog entries: any tenant */
#define APPROVAL_PAYLOAD_MAX 6000
/* The longest token text; it fits the protocol's approval field. */
#define APPROVAL_TOKEN_MAX (B64URL_ENCODED_LEN(APPROVAL_PAYLOAD_MAX) + 1 + \
	B64URL_ENCODED_LEN(ECKEY_SIG_LEN))

enum approval_result {
	APPROVAL_OK = 0,
	APPROVAL_BAD_FORMAT,		/* not a token, or not one we parse */
	APPROVAL_BAD_SIGNATURE,		/* our key id, signature invalid */
	APPROVAL_WRONG_KEY,		/* made for another reviewer key */
	APPROVAL_EXPIRED,
	APPROVAL_NOT_YET_VALID,
	APPROVAL_REVOKED,		/* listed, or the list is unusable */
	APPROVAL_TENANT_MISMATCH,
	APPROVAL_REGISTRATION_MISMATCH,
	APPROVAL_ARGV_MISMATCH,
	APPROVAL_ENV_MISMATCH,
	APPROVAL_RESULT_MAX_
};

/* Stable snake_case name ("argv_mismatch"); "unknown" out of range. */
const char *approval_result_name(enum approval_result r);

/* What a spawn asks to run, as the runner has it. env_keys are the names
 * of the caller's env entries, in any order; argv[0..argc) and every
 * string are NUL-terminated. */
struct approval_request {
	const char *tenant;
	const char *registration;
	char *const *argv;
	size_t argc;
	char *const *env_keys;
	size_t envc;
};

struct approval_str {
	const uint8_t *p;	/* into approval.payload; no NUL inside */
	size_t n;
};

/* A decoded payload; the strings point into its own copy. */
struct approval {
	uint8_t key_id[ECKEY_ID_LEN];
	uint8_t token_id[APPROVAL_ID_LEN];
	struct approval_str tenant, registration;
	size_t argc, envc;
	struct approval_str argv[PROTO_ARGC_MAX];
	struct approval_str env[PROTO_ENVC_MAX];
	struct approval_str egress;	/* n == 0: no extra hosts */
	int has_lock;			/* version 3 */
	uint8_t lock[APPROVAL_LOCK_LEN];
	uint8_t lock_flags;
	struct approval_str tools;	/* n == 0: every tool (no list) */
	int has_surface;		/* version 5 */
	uint8_t surface[APPROVAL_SURFACE_LEN];
	uint64_t issued_at, expires_at;
	size_t payload_len;
	uint8_t payload[APPROVAL_PAYLOAD_MAX];
};

/* Check the token text (untrusted, len bytes, no NUL needed) against key:
 * format, key id, signature. On APPROVAL_OK *out holds the signed fields;
 * on anything else *out is meaningless. */
enum approval_result approval_open(const struct eckey_pub *key,
    const char *token, size_t len, struct approval *out);

/* Check an opened approval against a request at time now (unix seconds)
 * with skew seconds of clock tolerance either way. revoked may be NULL
 * (no list configured); an unusable list refuses everything. Checks run
 * in this order: revoked, not_yet_valid, expired, tenant, registration,
 * argv, env. A token for tenant "*" matches every tenant. */
enum approval_result approval_check(const struct approval *a,
    const struct approval_request *req, uint64_t now, uint64_t skew,
    const struct revocation_set *revoked);

/* Only the checks that need no request: revoked, not_yet_valid, expired
 * (what `airlock review verify` without a request reports). */
enum approval_result approval_check_time(const struct approval *a,
    uint64_t now, uint64_t skew, const struct revocation_set *revoked);

/* After APPROVAL_ENV_MISMATCH: name the differing keys (names only, never
 * values) as "missing A B; extra C" into out (cap bytes, NUL-terminated,
 * cut with "..." when long): missing keys the token binds that the request
 * lacks, extra the reverse. Bytes outside [A-Za-z0-9_] are written '?'. */
void approval_env_diff(const struct approval *a,
    const struct approval_request *req, char *out, size_t cap);

/* approval_open then approval_check: what a runner calls per spawn. Uses
 * about 15 KiB of stack for the decoded token (struct approval). */
enum approval_result approval_verify(const struct eckey_pub *key,
    const char *token, size_t len, const struct approval_request *req,
    uint64_t now, uint64_t skew, const struct revocation_set *revoked);

/* Sign req (env_keys strictly ascending, every id valid) valid from
 * issued_at to expires_at; the token text goes to out (cap bytes, NUL
 * added). Returns its length, or -1 if a field breaks a cap (the payload
 * then would not fit APPROVAL_PAYLOAD_MAX) or signing failed. */
long approval_sign(const struct eckey_priv *key,
    const struct approval_request *req, uint64_t issued_at,
    uint64_t expires_at, char *out, size_t cap);

/* approval_sign with the registration's egress hosts: egress_len bytes of
 * canonical allow-list text (egress_allow_canonical); 0 gives the same
 * version 1 token as approval_sign. */
long approval_sign_egress(const struct eckey_priv *key,
    const struct approval_request *req, const char *egress,
    size_t egress_len, uint64_t issued_at, uint64_t expires_at, char *out,
    size_t cap);

/* approval_sign_egress with the digest of the lockfile the approval is
 * for (lock, APPROVAL_LOCK_LEN bytes; NULL: no lock, the version 1 or 2
 * token) and its flags (APPROVAL_LOCK_SCRIPTS or 0): a version 3 token. */
long approval_sign_lock(const struct eckey_priv *key,
    const struct approval_request *req, const char *egress,
    size_t egress_len, const uint8_t *lock, unsigned lock_flags,
    uint64_t issued_at, uint64_t expires_at, char *out, size_t cap);

/* What a token binds beyond the request: egress hosts, a lock (NULL:
 * none) and the tool list (common/mcp/toollist.h); lengths 0 for none. */
struct approval_extra {
	const char *egress;
	size_t egress_len;
	const uint8_t *lock;
	unsigned lock_flags;
	const char *tools;
	size_t tools_len;
	const uint8_t *surface;		/* APPROVAL_SURFACE_LEN, or NULL */
};

/* approval_sign_lock with the tool list and surface of x too: version 5
 * with a surface, version 4 with tools, else the version 1, 2 or 3 token
 * of the rest. */
long approval_sign_extra(const struct eckey_priv *key,
    const struct approval_request *req, const struct approval_extra *x,
    uint64_t issued_at, uint64_t expires_at, char *out, size_t cap);

/* Length of the payload req (and egress, or x) would produce, or -1 if
 * it breaks a cap. */
long approval_payload_len_extra(const struct approval_request *req,
    const struct approval_extra *x);
long approval_payload_len(const struct approval_request *req);
long approval_payload_len_egress(const struct approval_request *req,
    const char *egress, size_t egress_len);

/* Parse a payload without any signature check: for approval_open and the
 * fuzz target only. 0 or -1. */
int approval_parse_payload(const uint8_t *p, size_t n, struct approval *out);

/* Decode token text without any signature check, for display and for
 * comparing a stored token with its record before it is re-signed (the
 * caller then verifies it with approval_open). 0 or -1. */
int approval_peek(const char *token, size_t len, struct approval *out);

/* The token id of token text (payload part hashed, nothing verified):
 * for the review store, which names what it revokes. 0 or -1. */
int approval_token_id(const char *token, size_t len,
    uint8_t id[APPROVAL_ID_LEN]);

#endif
