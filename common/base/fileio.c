/* fileio.c - capped whole-file reads; atomic replace and exclusive create.
 * Files are opened with openat(AT_FDCWD, ...): musl's open() follows an
 * O_CLOEXEC open with an fcntl(F_SETFD), one more syscall per file. */
#include "common/base/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
file_read(const char *path, size_t cap, uint8_t **buf, size_t *len)
{
	return file_read_in(path, cap, NULL, 0, buf, len);
}

int
file_read_in(const char *path, size_t cap, uint8_t *first, size_t first_len,
    uint8_t **buf, size_t *len)
{
	struct stat st;
	uint8_t *p;
	size_t n = 0, size;
	int fd, err;

	/* Symlinks are followed: Kubernetes mounts secrets and ConfigMaps
	 * as links. */
	if ((fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) != 0)
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		goto fail;
	}
	/* The cap is checked before anything is allocated. */
	if ((uintmax_t)st.st_size > cap) {
		errno = EFBIG;
		goto fail;
	}
	size = (size_t)st.st_size;
	/* the caller's buffer when it holds the file and its NUL: a fresh
	 * heap block costs a fresh process a mapping and its unmapping */
	if (size < first_len)
		p = first;
	else if (!(p = malloc(size + 1)))
		goto fail;
	/* What fstat saw is what is read: bytes appended meanwhile wait for
	 * the next read (an append-only log is then a complete prefix). */
	while (n < size) {
		ssize_t r = read(fd, p + n, size - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			if (p != first)
				free(p);
			errno = err;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

int
file_write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len > 0) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Split path into its directory (".", when it has no slash). */
static int
dir_of(const char *path, char *dir, size_t cap)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash)
		return snprintf(dir, cap, ".") < 0 ? -1 : 0;
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dir, path, n);
	dir[n] = '\0';
	return 0;
}

int
file_sync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd, rc, err;

	if (dir_of(path, dir, sizeof dir) != 0)
		return -1;
	if ((fd = openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0)
		return -1;
	rc = fsync(fd);
	err = errno;
	close(fd);
	errno = err;
	return rc;
}

/* Test-only (docs/REVIEW.md): with AIRLOCK_TEST_PAUSE_BEFORE_RENAME set
 * to the file name base, stop between the durable temp file and the
 * rename, so a test can kill the process there and prove the old file
 * survives intact. */
static void
test_pause(const char *base)
{
	static const char msg[] = "airlock: test pause before rename\n";
	const char *at = getenv("AIRLOCK_TEST_PAUSE_BEFORE_RENAME");

	if (!at || strcmp(at, base) != 0)
		return;
	if (write(2, msg, sizeof msg - 1) < 0)
		return;
	pause();
}

int
file_replace(const char *path, const void *data, size_t len, mode_t mode)
{
	char dir[PATH_MAX], tmp[PATH_MAX];
	const char *base = strrchr(path, '/');
	int fd, err;

	base = base ? base + 1 : path;
	if (dir_of(path, dir, sizeof dir) != 0)
		return -1;
	if ((size_t)snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, base) >=
	    sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = openat(AT_FDCWD, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
	    O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	if (fchmod(fd, mode) != 0 || file_write_all(fd, data, len) != 0 ||
	    fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	test_pause(base);
	if (rename(tmp, path) != 0) {
		fd = -1;
		goto fail;
	}
	return file_sync_dir(path);
fail:
	err = errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = err;
	return -1;
}

int
file_create(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd, err;

	fd = openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	/* fchmod: the umask may only have narrowed mode, but be exact. */
	if (fchmod(fd, mode) != 0 || file_write_all(fd, data, len) != 0 ||
	    fsync(fd) != 0) {
		err = errno ? errno : EIO;
		close(fd);
		goto fail;
	}
	if (close(fd) != 0) {
		err = errno;
		goto fail;
	}
	return file_sync_dir(path);
fail:
	unlink(path);
	errno = err;
	return -1;
}

ssize_t
file_read_small(const char *path, char *buf, size_t len)
{
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	ssize_t n, got = 0;

	if (fd < 0)
		return -1;
	while ((size_t)got < len - 1 &&
	    (n = read(fd, buf + got, len - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got;
}

int
file_write_str(const char *path, const char *s)
{
	int fd = openat(AT_FDCWD, path, O_WRONLY | O_CLOEXEC);
	size_t n = strlen(s);
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, s, n);
	if (w != (ssize_t)n) {
		int e = w < 0 ? errno : EIO;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

int
file_read_kernel(const char *path, size_t cap, char **out, size_t *len)
{
	return file_read_kernel_in(path, cap, NULL, 0, out, len);
}

int
file_read_kernel_in(const char *path, size_t cap, char *first,
    size_t first_len, char **out, size_t *len)
{
	/* the room before the NUL: first's, or a 16 KiB block's */
	size_t size = first_len > 1 ? first_len - 1 : 16384, n = 0;
	char *buf, *more;
	int fd, err;
	ssize_t r;

	if (size > cap)
		size = cap;
	buf = first_len > 1 ? first : malloc(size + 1);
	fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !buf)
		goto fail;
	/* Each read may fill the NUL's byte too: a text that only fills
	 * the room ends there, one byte past it says more is to come. */
	while ((r = read(fd, buf + n, size + 1 - n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		n += (size_t)r;
		if (n <= size)
			continue;
		if (size == cap) {
			errno = EFBIG;
			goto fail;
		}
		/* n == size + 1 <= cap: the new room holds it */
		size = size > cap / 2 ? cap : size * 2;
		if (buf == first) {
			/* the text outgrew the caller's buffer: on to the
			 * heap */
			if (!(more = malloc(size + 1)))
				goto fail;
			memcpy(more, first, n);
		} else if (!(more = realloc(buf, size + 1)))
			goto fail;
		buf = more;
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
fail:
	err = errno;
	if (fd >= 0)
		close(fd);
	if (buf != first)
		free(buf);
	errno = err;
	return -1;
}
