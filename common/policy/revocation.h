/* revocation.h - the revocation list a runner checks approval tokens
 * against: the file STORE/revoked, written by `airlock review revoke`.
 *
 *	airlock-revocations 1\n
 *	TOKEN-ID SECONDS RECORD-ID\n	(one per revoked token)
 *
 * TOKEN-ID is the 22-character base64url token id (approval.h), SECONDS
 * the revocation time, RECORD-ID the review record; parsed strictly. */
#ifndef AIRLOCK_REVOCATION_H
#define AIRLOCK_REVOCATION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#define REVOCATION_ID_LEN 16
#define REVOCATION_FILE_MAX (4u << 20)
#define REVOCATION_HEADER "airlock-revocations 1\n"

struct revocation_set {
	const char *path;	/* kept by reference */
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

/* An empty, unusable set for path; nothing is read yet. */
void revocation_init(struct revocation_set *s, const char *path);

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
 * frees. Returns 0, or -1 with *why and *line (1-based). */
int revocation_parse(const uint8_t *p, size_t n,
    uint8_t (**ids)[REVOCATION_ID_LEN], size_t *count, size_t *line,
    const char **why);

/* Add one revocation to the list at path, atomically (fileio.h); the
 * caller holds the store lock. A list that does not parse is not added
 * to: a runner would refuse it anyway. 0, or -1 with *why. */
int revocation_append(const char *path, const uint8_t id[REVOCATION_ID_LEN],
    uint64_t when, const char *record, const char **why);

#endif
