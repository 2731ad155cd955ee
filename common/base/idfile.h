/* idfile.h - /etc/passwd, /etc/group, /etc/subuid and /etc/subgid as far
 * as the uid range needs them: is any account's id, or any id delegated to
 * a user for their user namespaces, inside the range? The files are the
 * host's, but still parsed as untrusted bytes (bounded, no NUL needed). */
#ifndef AIRLOCK_IDFILE_H
#define AIRLOCK_IDFILE_H

#include <stddef.h>
#include <stdint.h>

/* The first line of buf[0..len) of the form "name:x:ID:..." whose ID (the
 * third field: canonical decimal, at most UINT32_MAX) lies in
 * [first, last]: returns 1 with *id and name (its first field, at most
 * namecap-1 bytes, NUL-terminated, cut where it does not fit). Lines that
 * are not of that form are skipped. 0 when no line matches. */
int idfile_find_in_range(const char *buf, size_t len, uint32_t first,
    uint32_t last, uint32_t *id, char *name, size_t namecap);

/* The first line of buf[0..len) of the form "owner:START:COUNT" (subuid,
 * subgid: canonical decimals, COUNT > 0) whose ids START..START+COUNT-1
 * share one with [first, last]: returns 1 with *start, *count and the
 * owner in name (as above). 0 when no line matches. */
int idfile_find_subid_overlap(const char *buf, size_t len, uint32_t first,
    uint32_t last, uint32_t *start, uint32_t *count, char *name,
    size_t namecap);

#endif
