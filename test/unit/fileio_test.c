/* fileio_test.c - whole-file reads into the caller's first buffer: a
 * file that fits stays there, one that does not moves to the heap with
 * the same bytes, the cap still refuses, and a kernel file (no size)
 * grows out of a first buffer too small for it. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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

int
main(void)
{
	uint8_t first[64], *buf = NULL, *whole = NULL;
	char kfirst[16], *kbuf = NULL, *kwhole = NULL;
	size_t len = 0, wlen = 0, klen = 0, kwlen = 0;
	int fd = mkstemp(path);

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
	unlink(path);
	return tap_done();
}
