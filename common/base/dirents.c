/* dirents.c - getdents64 into the caller's buffer (dirents.h). */
#include "common/base/dirents.h"

#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>

int
dirents_open(struct dirents *d, int dirfd, const char *path)
{
	int fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	dirents_on(d, fd);
	d->own = 1;
	return 0;
}

void
dirents_on(struct dirents *d, int fd)
{
	d->fd = fd;
	d->own = 0;
	d->pos = d->len = 0;
}

struct dirent *
dirents_next(struct dirents *d)
{
	struct dirent *e;

	if (d->pos >= d->len) {
		long n = syscall(SYS_getdents64, d->fd, d->buf, sizeof d->buf);

		if (n <= 0)
			return NULL;	/* the end, or errno */
		d->len = (size_t)n;
		d->pos = 0;
	}
	/* the kernel writes whole records, each aligned for the next */
	e = (struct dirent *)(void *)(d->buf + d->pos);
	d->pos += e->d_reclen;
	return e;
}

int
dirents_rewind(struct dirents *d)
{
	d->pos = d->len = 0;
	return lseek(d->fd, 0, SEEK_SET) < 0 ? -1 : 0;
}

void
dirents_close(struct dirents *d)
{
	if (d->own && d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}
