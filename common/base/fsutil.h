/* fsutil.h - file-system helpers for lease state directories. */
#ifndef AIRLOCK_FSUTIL_H
#define AIRLOCK_FSUTIL_H

#include <stddef.h>
#include <sys/stat.h>

/* Remove path and everything below it without following symlinks (a lease
 * may plant links to anything); directories are made writable (0700) on
 * the way, as a lease may have locked its own. 0, or -1 with errno of the
 * first failure (removal goes on past failures). A missing path is
 * success. */
int fs_remove_tree(const char *path);

/* mkdir with mode, or accept an existing directory owned by us. */
int fs_mkdir_private(const char *path, unsigned mode);

/* 0 when no directory above path (absolute, canonical: a realpath) can be
 * changed by a user other than root or uid: each is owned by root or uid
 * and writable by neither group nor others (a sticky /tmp is refused too:
 * anyone can add names to it, and launchers look for files by name in
 * every parent). Else -1: errno EPERM with the first such directory in
 * bad and its owner and mode in *st, or the errno of a failed stat. */
int fs_parents_private(const char *path, unsigned uid, char *bad,
    size_t badlen, struct stat *st);

/* fs_parents_private for a file and its realpath: the file too is owned
 * by root or uid and writable by neither group nor others. The same
 * returns; ENOENT when it is missing. */
int fs_file_private(const char *path, unsigned uid, char *bad,
    size_t badlen, struct stat *st);

#endif
