/* revocation.h - the revocation list a runner checks approval tokens
 * against: the file STORE/revoked, written by `airlock review revoke` and
 * `renew`, signed by the reviewer's key.
 *
 *	airlock-revocations 3\n
 *	serial N\n			(grows by one at every signing)
 *	TOKEN-ID SECONDS RECORD-ID\n	(one per revoked token)
 *	sig KEY-ID SIGNATURE\n		(last: over every byte before it)
 *
 * TOKEN-ID is the 22-character base64url token id (approval.h), SECONDS
 * the revocation time, RECORD-ID the review record; N a decimal from 1
 * (no leading zero, at most 19 digits); KEY-ID the reviewer key's id (22
 * characters), SIGNATURE its ECDSA P-256 signature (86 base64url
 * characters) of eckey_context_hash(REVOCATION_SIG_CONTEXT, the bytes
 * before the sig line). A new store's list is format 2's header alone
 * (no serial, no sig line yet); a signed list of format 2 (before the
 * serial) counts as serial 0, and a list of format 1 (before lists were
 * signed) never has a sig line: review signs either as format 3 at its
 * next keyed change (after checking it against the audit log), and a
 * runner refuses an unsigned list. Parsed strictly. */
#ifndef AIRLOCK_REVOCATION_H
#define AIRLOCK_REVOCATION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "common/policy/eckey.h"

#define REVOCATION_ID_LEN 16
#define REVOCATION_FILE_MAX (4u << 20)
#define REVOCATION_HEADER "airlock-revocations 2\n"	/* a new store's */
#define REVOCATION_HEADER_V1 "airlock-revocations 1\n"
#define REVOCATION_HEADER_V3 "airlock-revocations 3\n"	/* signed, serial */
#define REVOCATION_SERIAL_MAX 9999999999999999999ull	/* 19 digits */
#define REVOCATION_SIG_CONTEXT "airlock revocation list"

/* What a list's sig line says; present is 0 when it has none. */
struct revocation_sig {
	int present;
	size_t signed_len;	/* the bytes it covers: all before the line */
	uint8_t key_id[ECKEY_ID_LEN];
	uint8_t sig[ECKEY_SIG_LEN];
};

/* A file's identity as stat(2) gives it. */
struct revocation_file_id {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

struct revocation_set {
	const char *path;	/* kept by reference */
	const struct eckey_pub *key;	/* the signer required; by reference */
	const char *floor_path;	/* where the serial is remembered, or NULL */
	uint8_t (*ids)[REVOCATION_ID_LEN];	/* sorted; owned */
	size_t n;
	int usable;		/* 0 until a list loads; a good one stays */
	/* the newest list accepted (here, or before a restart: the floor
	 * file): a list with a smaller serial, or this serial and other
	 * bytes, was rolled back or forged */
	uint64_t serial;
	uint8_t digest[32];	/* SHA-256 of its bytes; zero if none yet */
	/* the file as last loaded: a change in any field reloads */
	struct revocation_file_id loaded;
	/* the last file refused: not re-read until it changes */
	int refused;
	struct revocation_file_id bad;
	char err[256];		/* the last reload error, for *why */
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
 * or -1 with *why: the file is missing, unreadable, malformed, unsigned,
 * signed by another key, lacks an id the set held, or is older than the
 * newest list accepted (a smaller serial, or the same serial with other
 * bytes). A refused file leaves the last good list in force (usable
 * stays 1, and the file is not re-read until it changes again); with
 * none loaded yet the set stays unusable and approval_check refuses
 * every token as revoked. A newer list accepted is remembered in the
 * floor file (revocation_floor_load), when there is one: 0 even when
 * that write fails, with *why saying so (the newer list is in force). */
int revocation_reload(struct revocation_set *s, const char **why);

/* Remember the newest list accepted in path (revfloor.h: the runner's
 * state directory), across restarts: sets s->floor_path and, when the
 * file exists, s->serial and s->digest from it, before the first
 * reload. 0, or -1 with *why (unreadable or malformed: the runner
 * refuses to start rather than forget). */
int revocation_floor_load(struct revocation_set *s, const char *path,
    const char **why);

/* 1 when id is in the set. */
int revocation_contains(const struct revocation_set *s,
    const uint8_t id[REVOCATION_ID_LEN]);

void revocation_free(struct revocation_set *s);

/* Parse file contents (untrusted) into a new sorted array the caller
 * frees, the sig line into *sig and the serial into *serial (0 in
 * formats 1 and 2). Returns 0, or -1 with *why and *line (1-based). */
int revocation_parse(const uint8_t *p, size_t n,
    uint8_t (**ids)[REVOCATION_ID_LEN], size_t *count,
    struct revocation_sig *sig, uint64_t *serial, size_t *line,
    const char **why);

/* Where a parsed list's entries begin: after the header, and after the
 * serial line when serial is not 0. */
size_t revocation_entries_off(uint64_t serial);

/* 0 when sig (parsed from p) is key's signature of its bytes, else -1
 * with *why saying which check failed. */
int revocation_verify(const uint8_t *p, const struct revocation_sig *sig,
    const struct eckey_pub *key, const char **why);

/* Sign the list at path with k as format 3, its serial one more than the
 * list's (1 for formats 1 and 2), adding id first when it is not NULL,
 * atomically (fileio.h); the caller holds the store lock and has checked
 * the list against the audit log. A list that does not parse, or whose
 * signature does not verify with k, is not signed: it was changed outside
 * review. 0, or -1 with *why. */
int revocation_sign(const char *path, const uint8_t id[REVOCATION_ID_LEN],
    uint64_t when, const char *record, const struct eckey_priv *k,
    const char **why);

#endif
