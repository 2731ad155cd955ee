/* dirents_test.c - a directory walked with getdents64 into the caller's
 * buffer: every entry once across several buffers' worth (long names),
 * "." and ".." among them, a rewind giving them all again, a walk on a
 * descriptor the caller keeps, and refusals for a missing path and a
 * file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/dirents.h"
#include "tap.h"

#define FILES 300

static char dir[64];

/* How many of the made files, and of "." and "..", the walk gave (each
 * name once: a repeat counts as -1000). */
static int
walk(struct dirents *d, int *dots)
{
	static unsigned char seen[FILES];
	struct dirent *e;
	int n = 0;

	memset(seen, 0, sizeof seen);
	*dots = 0;
	while ((e = dirents_next(d))) {
		int i;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
			(*dots)++;
			continue;
		}
		i = atoi(e->d_name + 100);
		if (i < 0 || i >= FILES || seen[i]++)
			return -1000;
		n++;
	}
	return n;
}

int
main(void)
{
	struct dirents d;
	char name[160], path[256];
	int dots, fd;

	snprintf(dir, sizeof dir, "/tmp/dirents_test.%d", (int)getpid());
	if (mkdir(dir, 0700) != 0) {
		perror(dir);
		return 1;
	}
	for (int i = 0; i < FILES; i++) {
		/* 100 fixed bytes, then the number: records of ~128 bytes,
		 * far more than one 2 KiB buffer */
		memset(name, 'x', 100);
		snprintf(name + 100, sizeof name - 100, "%d", i);
		snprintf(path, sizeof path, "%s/%s", dir, name);
		close(open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
	}
	ok(dirents_open(&d, AT_FDCWD, dir) == 0, "open a directory");
	ok(walk(&d, &dots) == FILES && dots == 2,
	    "every entry once, across many buffers, with . and ..");
	ok(dirents_next(&d) == NULL, "the end stays the end");
	ok(dirents_rewind(&d) == 0 && walk(&d, &dots) == FILES,
	    "a rewind gives them all again");
	dirents_close(&d);
	ok(d.fd == -1, "closed");

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dirents_on(&d, fd);
	ok(walk(&d, &dots) == FILES, "a walk on the caller's descriptor");
	dirents_close(&d);
	ok(fcntl(fd, F_GETFD) >= 0, "which the walk leaves open");
	close(fd);

	errno = 0;
	ok(dirents_open(&d, AT_FDCWD, "/nonexistent-dirents") == -1 &&
	    errno == ENOENT, "a missing path: ENOENT");
	snprintf(path, sizeof path, "%s/%s", dir, name);
	errno = 0;
	ok(dirents_open(&d, AT_FDCWD, path) == -1 && errno == ENOTDIR,
	    "a file: ENOTDIR");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ok(dirents_open(&d, fd, name) == -1 && errno == ENOTDIR,
	    "relative to a directory descriptor");
	close(fd);

	for (int i = 0; i < FILES; i++) {
		memset(name, 'x', 100);
		snprintf(name + 100, sizeof name - 100, "%d", i);
		snprintf(path, sizeof path, "%s/%s", dir, name);
		unlink(path);
	}
	rmdir(dir);
	return tap_done();
}
