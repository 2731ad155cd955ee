/* fsutil.h - file-system helpers for lease state directories. */
#ifndef AIRLOCK_FSUTIL_H
#define AIRLOCK_FSUTIL_H

/* Remove path and everything below it without following symlinks (a lease
 * may plant links to anything); directories are made writable (0700) on
 * the way, as a lease may have locked its own. 0, or -1 with errno of the
 * first failure (removal goes on past failures). A missing path is
 * success. */
int fs_remove_tree(const char *path);

/* mkdir with mode, or accept an existing directory owned by us. */
int fs_mkdir_private(const char *path, unsigned mode);

#endif
