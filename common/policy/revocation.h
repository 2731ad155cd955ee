/* revocation.h - the revocation list a runner checks approval tokens
 * against: the file STORE/revoked, written by `airlock review revoke` and
 * `renew`, signed by the reviewer's key.
 *
 *	airlock-revocations 2\n
 *	TOKEN-ID SECONDS RECORD-ID\n	(one per revoked token)
 *	sig KEY-ID SIGNATURE\n		(last: over every byte before it)
 *
 * TOKEN-ID is the 22-character base64url token id (approval.h), SECONDS
 * the revocation time, RECORD-ID the review record; KEY-ID the reviewer
 * key's id (22 characters), SIGNATURE its ECDSA P-256 signature (86
 * base64url characters) of eckey_context_hash(REVOCATION_SIG_CONTEXT, the
 * bytes before the sig line). A new store's list has no sig line yet, and
 * a list of format 1 (header "airlock-revocations 1", before lists were
 * signed) never has one: review signs either at its next keyed change
 * (after checking it against the audit log), and a runner refuses an
 * unsigned list. Parsed strictly. */
#ifndef AIRLOCK_REVOCATION_H
#define AIRLOCK_REVOCATION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "common/policy/eckey.h"

#define REVOCATION_ID_LEN 16
#define REVOCATION_FILE_MAX (4u << 20)
#define REVOCATION_HEADER "airlock-revocations 2\n"
#define REVOCATION_HEADER_V1 "airlock-revocations 1\n"
#define REVOCATION_SIG_CONTEXT "airlock revocation list"

/* What a list's sig line says; present is 0 when it has none. */
struct revocation_sig {
	int present;
	size_t signed_len;	/* the bytes it covers: all before the line */
	uint8_t key_id[ECKEY_ID_LEN];
	uint8_t sig[ECKEY_SIG_LEN];
};

struct revocation_set {
	const char *path;	/* kept by reference */
	const struct eckey_pub *key;	/* the signer required; by reference */
	uint8_t (*ids)[REVOCATION_ID_LEN];	/* sorted; owned */
	size_t n;
	int usable;		/* 0 until loaded, and after a failed reload */
	/* identity of the file as last loaded: a change in any reloads */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	char err[96];		/* the last reload error, for *why */
};

/* An empty, unusable set for path; nothing is read yet. With key, a
 * list loads only when key signed it, and a reload must keep every id the
 * set held (a list only grows: a shorter one was edited or rolled back).
 * Without key (the review store's own reads) the signature is not
 * required. */
void revocation_init(struct revocation_set *s, const char *path,
    const struct eckey_pub *key);

/* Re-read the file if it changed (inode, size or mtime) since the last
 * load, or was never loaded; cheap (one stat) when nothing changed, so a
 * runner calls it before every check. Returns 0 when the set is current,
 * or -1 with *why (the file is missing, unreadable or malformed). After a
 * failure the set is unusable, and approval_check then refuses every token
 * as revoked: a list that cannot be read must not let anything through. */
int revocation_reload(struct revocation_set *s, const char **why);

/* 1 when id is in the set. */
int revocation_contains(const struct revocation_set *s,
    const uint8_t id[REVOCATION_ID_LEN]);

void revocation_free(struct revocation_set *s);

/* Parse file contents (untrusted) into a new sorted array the caller
 * frees, and the sig line into *sig. Returns 0, or -1 with *why and *line
 * (1-based). */
int revocation_parse(const uint8_t *p, size_t n,
    uint8_t (**ids)[REVOCATION_ID_LEN], size_t *count,
    struct revocation_sig *sig, size_t *line, const char **why);

/* 0 when sig (parsed from p) is key's signature of its bytes, else -1
 * with *why saying which check failed. */
int revocation_verify(const uint8_t *p, const struct revocation_sig *sig,
    const struct eckey_pub *key, const char **why);

/* Sign the list at path with k, adding id first when it is not NULL,
 * atomically (fileio.h); the caller holds the store lock and has checked
 * the list against the audit log. A list that does not parse, or whose
 * signature does not verify with k, is not signed: it was changed outside
 * review. 0, or -1 with *why. */
int revocation_sign(const char *path, const uint8_t id[REVOCATION_ID_LEN],
    uint64_t when, const char *record, const struct eckey_priv *k,
    const char **why);

#endif
