/* dirents.h - a directory's entries, read with getdents64 into a buffer
 * the caller owns (on its stack), for the walks of a jail's start and
 * end: musl's opendir maps a fresh 8 KiB for each directory and its
 * closedir unmaps it, a page fault and two more system calls per walk,
 * and on a VM a page fault costs about 15 us (a cold `sandbox run`
 * walks some 25 directories). Entries come as musl's readdir gives them,
 * "." and ".." included. */
#ifndef AIRLOCK_DIRENTS_H
#define AIRLOCK_DIRENTS_H

#include <dirent.h>
#include <stddef.h>

struct dirents {
	int fd;
	int own;			/* opened by dirents_open: closed here */
	size_t pos, len;
	_Alignas(struct dirent) char buf[2048];
};

/* Open path (relative to dirfd; AT_FDCWD for none) as a directory to
 * walk: 0, or -1 with errno. */
int dirents_open(struct dirents *d, int dirfd, const char *path);

/* Walk fd, a directory the caller opened and closes. */
void dirents_on(struct dirents *d, int fd);

/* The next entry, or NULL at the end (or when the kernel fails, errno
 * set: a walk that cannot go on ends, as readdir's does). */
struct dirent *dirents_next(struct dirents *d);

/* Back to the first entry: 0, or -1 with errno. */
int dirents_rewind(struct dirents *d);

/* Close what dirents_open opened. */
void dirents_close(struct dirents *d);

#endif
