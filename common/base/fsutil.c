/* fsutil.c - lease state directories: remove a tree through fds, never
 * following links; check that no other user can change a path's parents. */
#include "common/base/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/dirents.h"

/* Empty the directory dirfd (owned by the caller, closed here). A
 * directory a lease made unwritable is made writable first (this works for
 * its owner, so jail code calls it with its fs uid set to the lease's). */
static int
empty_dir(int dirfd, int depth)
{
	struct dirents d;
	struct dirent *e;
	int first_err = 0;

	dirents_on(&d, dirfd);
	while ((e = dirents_next(&d))) {
		int sub;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd, e->d_name, 0) == 0)
			continue;
		if (errno != EISDIR && errno != EPERM) {
			first_err = first_err ? first_err : errno;
			continue;
		}
		/* a directory: descend without following a link */
		(void)fchmodat(dirfd, e->d_name, 0700, 0);
		sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || depth > 256) {
			first_err = first_err ? first_err : sub < 0 ? errno : ELOOP;
			if (sub >= 0)
				close(sub);
			continue;
		}
		if (empty_dir(sub, depth + 1) != 0 ||
		    unlinkat(dirfd, e->d_name, AT_REMOVEDIR) != 0)
			first_err = first_err ? first_err : errno;
	}
	close(dirfd);
	if (first_err) {
		errno = first_err;
		return -1;
	}
	return 0;
}

int
fs_remove_tree(const char *path)
{
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : (unlink(path) == 0 ? 0 : -1);
	(void)fchmod(fd, 0700);
	if (empty_dir(fd, 0) != 0)
		return -1;
	return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
}

int
fs_mkdir_private(const char *path, unsigned mode)
{
	struct stat st;

	if (mkdir(path, (mode_t)mode) == 0)
		return 0;
	if (errno != EEXIST || lstat(path, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
		errno = EEXIST;
		return -1;
	}
	return 0;
}

int
fs_parents_private(const char *path, unsigned uid, char *bad,
    size_t badlen, struct stat *st)
{
	size_t n = strlen(path);

	if (path[0] != '/' || n >= badlen) {
		errno = EINVAL;
		return -1;
	}
	memcpy(bad, path, n + 1);
	while (n > 1) {
		while (n > 1 && bad[n - 1] != '/')	/* drop the last name */
			n--;
		if (n > 1)
			n--;			/* and its '/', but keep "/" */
		bad[n] = '\0';
		if (stat(bad, st) != 0)
			return -1;
		if ((st->st_uid != 0 && st->st_uid != uid) ||
		    (st->st_mode & 022)) {
			errno = EPERM;
			return -1;
		}
	}
	return 0;
}

int
fs_file_private(const char *path, unsigned uid, char *bad, size_t badlen,
    struct stat *st)
{
	char real[PATH_MAX];
	size_t n;

	if (!realpath(path, real) || stat(real, st) != 0)
		return -1;
	if ((st->st_uid != 0 && st->st_uid != uid) || (st->st_mode & 022)) {
		if ((n = strlen(real)) >= badlen) {
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(bad, real, n + 1);
		errno = EPERM;
		return -1;
	}
	return fs_parents_private(real, uid, bad, badlen, st);
}
