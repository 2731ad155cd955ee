/* fileio_test.c - whole-file reads into the caller's first buffer: a
 * file that fits stays there, one that does not moves to the heap with
 * the same bytes, the cap still refuses, and a kernel file (no size)
 * grows out of a first buffer too small for it. The kernel reader's
 * edges: cap bytes are read, cap + 1 refused, a text exactly filling the
 * first buffer stays there; also when it arrives in several reads. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/fileio.h"
#include "tap.h"

static char path[] = "/tmp/fileio-test.XXXXXX";

static void
put(size_t n)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	for (size_t i = 0; i < n; i++)
		if (write(fd, i % 7 ? "a" : "\n", 1) != 1)
			break;
	close(fd);
}

/* file_read_kernel_in of n bytes (put's pattern) arriving from a FIFO
 * in chunks of chunk bytes, each written only when the one before has
 * been read: the reader sees them in n / chunk reads at least. */
static int
read_fifo(size_t n, size_t chunk, size_t cap, char *first, size_t first_len,
    char **out, size_t *len)
{
	char fifo[] = "/tmp/fileio-test.XXXXXX";
	int fd = mkstemp(fifo), rc, err, status;
	pid_t pid;

	if (fd < 0)
		return -1;
	close(fd);
	unlink(fifo);
	if (mkfifo(fifo, 0600) != 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		char text[4096];
		int left;

		signal(SIGPIPE, SIG_IGN);
		if ((fd = open(fifo, O_WRONLY)) < 0 || n > sizeof text)
			_exit(1);
		for (size_t i = 0; i < n; i++)
			text[i] = i % 7 ? 'a' : '\n';
		for (size_t off = 0; off < n; off += chunk) {
			size_t k = n - off < chunk ? n - off : chunk;

			if (write(fd, text + off, k) != (ssize_t)k)
				_exit(1);
			/* until the reader took it, or closed (POLLERR) */
			while (ioctl(fd, FIONREAD, &left) == 0 && left > 0) {
				struct pollfd p = { .fd = fd };

				if (poll(&p, 1, 1) > 0)
					break;
			}
		}
		_exit(0);
	}
	rc = file_read_kernel_in(fifo, cap, first, first_len, out, len);
	err = errno;
	waitpid(pid, &status, 0);
	unlink(fifo);
	errno = err;
	return rc;
}

/* The NUL-separated argv /proc/self/cmdline holds, and its length. */
static size_t
cmdline_of(int argc, char **argv, char *buf, size_t cap)
{
	size_t n = 0;

	for (int i = 0; i < argc; i++) {
		size_t k = strlen(argv[i]) + 1;

		if (k > cap - n)
			return 0;
		memcpy(buf + n, argv[i], k);
		n += k;
	}
	return n;
}

/* The kernel reader at its edges, on a regular file of put's bytes:
 * cap - 1 and cap bytes are read whole, cap + 1 refused. */
static void
kernel_edges(size_t cap)
{
	char *kbuf;
	size_t klen;
	int rc;

	put(cap - 1);
	rc = file_read_kernel(path, cap, &kbuf, &klen);
	ok(rc == 0 && klen == cap - 1 && kbuf[klen] == '\0',
	    "file_read_kernel, cap %zu: cap - 1 bytes read", cap);
	if (rc == 0)
		free(kbuf);
	put(cap);
	rc = file_read_kernel(path, cap, &kbuf, &klen);
	ok(rc == 0 && klen == cap && kbuf[klen] == '\0' &&
	    kbuf[cap - 1] == ((cap - 1) % 7 ? 'a' : '\n'),
	    "... cap bytes read (only more than cap is refused)");
	if (rc == 0)
		free(kbuf);
	put(cap + 1);
	rc = file_read_kernel(path, cap, &kbuf, &klen);
	ok(rc == -1 && errno == EFBIG, "... cap + 1 bytes: EFBIG");
	if (rc == 0)
		free(kbuf);
}

int
main(int argc, char **argv)
{
	uint8_t first[64], *buf = NULL, *whole = NULL;
	char kfirst[16], *kbuf = NULL, *kwhole = NULL;
	size_t len = 0, wlen = 0, klen = 0, kwlen = 0;
	int fd = mkstemp(path), rc;

	if (fd < 0)
		return 1;
	close(fd);
	put(63);
	ok(file_read_in(path, 1024, first, sizeof first, &buf, &len) == 0 &&
	    buf == first && len == 63 && first[63] == '\0',
	    "63 bytes and the NUL fit a 64-byte first buffer: read there");
	put(64);
	ok(file_read_in(path, 1024, first, sizeof first, &buf, &len) == 0 &&
	    buf != first && len == 64 && buf[64] == '\0',
	    "64 bytes do not (the NUL): a heap buffer");
	ok(file_read(path, 1024, &whole, &wlen) == 0 && wlen == len &&
	    memcmp(whole, buf, len) == 0, "... with the bytes file_read reads");
	free(buf);
	free(whole);
	buf = (uint8_t *)"untouched";
	ok(file_read_in(path, 10, first, sizeof first, &buf, &len) == -1 &&
	    errno == EFBIG && strcmp((char *)buf, "untouched") == 0,
	    "past the cap: EFBIG, even where the first buffer would hold it");

	ok(file_read_kernel_in("/proc/self/mountinfo", 1u << 20, kfirst,
	    sizeof kfirst, &kbuf, &klen) == 0 && kbuf != kfirst,
	    "mountinfo outgrows a 16-byte first buffer: a heap buffer");
	ok(file_read_kernel("/proc/self/mountinfo", 1u << 20, &kwhole,
	    &kwlen) == 0 && kwlen == klen && memcmp(kwhole, kbuf, klen) == 0 &&
	    kbuf[klen] == '\0',
	    "... holding what file_read_kernel reads (%zu bytes)", klen);
	free(kbuf);
	free(kwhole);
	ok(file_read_kernel_in("/proc/self/stat", 4096, kfirst, sizeof kfirst,
	    &kbuf, &klen) == 0 && kbuf != kfirst && klen > 16,
	    "a kernel file just past it grows too");
	free(kbuf);
	{
		static char big[1u << 16];

		ok(file_read_kernel_in("/proc/self/stat", 4096, big,
		    sizeof big, &kbuf, &klen) == 0 && kbuf == big &&
		    kbuf[klen] == '\0', "one that fits stays in the first");
	}
	ok(file_read_kernel_in("/proc/self/mountinfo", 8, kfirst,
	    sizeof kfirst, &kbuf, &klen) == -1 && errno == EFBIG,
	    "a kernel file past the cap: EFBIG");

	/* a kernel file (stat says 0) of known length: our argv */
	{
		char want[4096], cfirst[4096];
		size_t n = cmdline_of(argc, argv, want, sizeof want);

		rc = file_read_kernel("/proc/self/cmdline", n, &kbuf, &klen);
		ok(n > 0 && rc == 0 && klen == n &&
		    memcmp(kbuf, want, n) == 0,
		    "/proc/self/cmdline of exactly cap bytes: read");
		if (rc == 0)
			free(kbuf);
		rc = file_read_kernel("/proc/self/cmdline", n - 1, &kbuf,
		    &klen);
		ok(rc == -1 && errno == EFBIG,
		    "... with a cap one byte short: EFBIG");
		if (rc == 0)
			free(kbuf);
		rc = file_read_kernel_in("/proc/self/cmdline", 4096, cfirst,
		    n + 1, &kbuf, &klen);
		ok(rc == 0 && kbuf == cfirst && klen == n &&
		    memcmp(kbuf, want, n) == 0 && kbuf[n] == '\0',
		    "... exactly filling the first buffer: read there");
		if (rc == 0 && kbuf != cfirst)
			free(kbuf);
	}

	/* regular files: a first block of the cap, and one grown past
	 * 16 KiB to it */
	kernel_edges(100);
	kernel_edges(20000);

	put(sizeof kfirst - 1);
	rc = file_read_kernel_in(path, 1024, kfirst, sizeof kfirst, &kbuf,
	    &klen);
	ok(rc == 0 && kbuf == kfirst && klen == sizeof kfirst - 1 &&
	    kfirst[klen] == '\0',
	    "15 bytes and the NUL fill a 16-byte first buffer: read there");
	if (rc == 0 && kbuf != kfirst)
		free(kbuf);
	rc = file_read_kernel_in(path, sizeof kfirst - 1, kfirst,
	    sizeof kfirst, &kbuf, &klen);
	ok(rc == 0 && kbuf == kfirst && klen == sizeof kfirst - 1,
	    "... with the cap equal to that text too");
	if (rc == 0 && kbuf != kfirst)
		free(kbuf);
	put(sizeof kfirst);
	rc = file_read_kernel_in(path, 1024, kfirst, sizeof kfirst, &kbuf,
	    &klen);
	ok(rc == 0 && kbuf != kfirst && klen == sizeof kfirst &&
	    kbuf[klen] == '\0', "16 bytes do not: a heap buffer");
	if (rc == 0 && kbuf != kfirst)
		free(kbuf);

	/* the same edges when the text comes in several reads */
	rc = read_fifo(100, 30, 100, NULL, 0, &kbuf, &klen);
	ok(rc == 0 && klen == 100 && kbuf[99] == (99 % 7 ? 'a' : '\n'),
	    "100 bytes from a FIFO in 4 reads, cap 100: read");
	if (rc == 0)
		free(kbuf);
	rc = read_fifo(101, 30, 100, NULL, 0, &kbuf, &klen);
	ok(rc == -1 && errno == EFBIG, "... 101 bytes: EFBIG");
	if (rc == 0)
		free(kbuf);
	rc = read_fifo(sizeof kfirst - 1, 4, 1024, kfirst, sizeof kfirst,
	    &kbuf, &klen);
	ok(rc == 0 && kbuf == kfirst && klen == sizeof kfirst - 1 &&
	    kfirst[klen] == '\0',
	    "15 bytes in 4 reads fill the 16-byte first buffer: read there");
	if (rc == 0 && kbuf != kfirst)
		free(kbuf);
	rc = read_fifo(100, 7, 1024, kfirst, sizeof kfirst, &kbuf, &klen);
	ok(rc == 0 && kbuf != kfirst && klen == 100 &&
	    kbuf[99] == (99 % 7 ? 'a' : '\n') && kbuf[100] == '\0',
	    "100 bytes in 15 reads grow out of it");
	if (rc == 0 && kbuf != kfirst)
		free(kbuf);
	unlink(path);
	return tap_done();
}
