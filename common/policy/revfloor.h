/* revfloor.h - the file in which a runner remembers the newest
 * revocation list it accepted, so that a restart does not let an older
 * signed copy back in (revocation.h):
 *
 *	airlock-revocation-floor 1\n
 *	serial N\n		(the list's serial, from 1)
 *	sha256 HEX\n		(64 lower-case hex digits: the list's bytes)
 *
 * Written atomically (fileio.h) by the runner alone; parsed strictly all
 * the same (a state volume is a file system others may reach). */
#ifndef AIRLOCK_REVFLOOR_H
#define AIRLOCK_REVFLOOR_H

#include <stddef.h>
#include <stdint.h>

#define REVFLOOR_DIGEST_LEN 32
#define REVFLOOR_FILE_MAX 128	/* 27 + 28 + 72 bytes at most */

/* Parse a floor file's bytes: 0, or -1 with *why. */
int revfloor_parse(const uint8_t *p, size_t n, uint64_t *serial,
    uint8_t digest[REVFLOOR_DIGEST_LEN], const char **why);

/* Read path: 1 with *serial and digest set, 0 when it does not exist,
 * -1 with *why (unreadable, too large or malformed). */
int revfloor_read(const char *path, uint64_t *serial,
    uint8_t digest[REVFLOOR_DIGEST_LEN], const char **why);

/* Replace path atomically with serial and digest (mode 0600): 0, or -1. */
int revfloor_write(const char *path, uint64_t serial,
    const uint8_t digest[REVFLOOR_DIGEST_LEN]);

#endif
