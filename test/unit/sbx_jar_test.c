/* sbx_jar_test.c - the sealed class jar: CRC-32 against its check value,
 * the zip layout byte by byte (local headers, central directory, end
 * record, no manifest), and the seals: no write, truncate, grow or new
 * seal through the fd, and no write through a reopened /proc/self/fd/N
 * (what a tool in the JVM could try). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sandbox/sbx_jar.h"
#include "tap.h"

static uint32_t
le(const uint8_t *p, int n)
{
	uint32_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void
test_crc(void)
{
	ok(sbx_jar_crc32(0, (const uint8_t *)"123456789", 9) == 0xcbf43926u,
	    "CRC-32 of \"123456789\" is the check value cbf43926");
	ok(sbx_jar_crc32(sbx_jar_crc32(0, (const uint8_t *)"1234", 4),
	    (const uint8_t *)"56789", 5) == 0xcbf43926u,
	    "CRC-32 continues across pieces");
	ok(sbx_jar_crc32(0, NULL, 0) == 0, "CRC-32 of nothing is 0");
}

static void
test_layout_and_seals(void)
{
	static const uint8_t a[] = { 0xca, 0xfe, 0xba, 0xbe, 1 };
	static const uint8_t b[] = { 0xca, 0xfe, 0xba, 0xbe, 2, 3 };
	struct sbx_jar j;
	uint8_t buf[512], *cd, *end;
	struct stat st;
	char proc[64];
	ssize_t n;
	int fd, rfd, e;

	ok(sbx_jar_open(&j) == 0, "a jar opens");
	ok(sbx_jar_add(&j, "A.class", a, sizeof a) == 0 &&
	    sbx_jar_add(&j, "p/B$1.class", b, sizeof b) == 0,
	    "two entries, one in a package");
	errno = 0;
	ok(sbx_jar_add(&j, "/abs.class", a, sizeof a) == -1 && errno == EINVAL,
	    "an absolute name is refused");
	errno = 0;
	ok(sbx_jar_add(&j, "", a, sizeof a) == -1 && errno == EINVAL,
	    "an empty name is refused");
	fd = sbx_jar_seal(&j);
	ok(fd >= 0 && j.fd == -1 && j.cd == NULL, "sealed: the fd is the "
	    "caller's, the jar released");
	ok(fcntl(fd, F_GETFD) == 0, "the fd survives exec (java inherits it)");
	n = pread(fd, buf, sizeof buf, 0);
	/* 30 + 7 + 5, 30 + 11 + 6, central 46 + 7 + 46 + 11, end 22 */
	ok(n == 42 + 47 + 110 + 22, "the jar is exactly its headers and data");
	ok(le(buf, 4) == 0x04034b50 && le(buf + 6, 2) == 0x0800 &&
	    le(buf + 8, 2) == 0 && le(buf + 14, 4) == sbx_jar_crc32(0, a,
	    sizeof a) && le(buf + 18, 4) == 5 && le(buf + 22, 4) == 5 &&
	    le(buf + 26, 2) == 7 && le(buf + 28, 2) == 0 &&
	    memcmp(buf + 30, "A.class", 7) == 0 &&
	    memcmp(buf + 37, a, sizeof a) == 0,
	    "local header: UTF-8 names, stored, CRC, sizes, name, bytes");
	ok(le(buf + 42, 4) == 0x04034b50 && memcmp(buf + 72, "p/B$1.class",
	    11) == 0 && memcmp(buf + 83, b, sizeof b) == 0,
	    "the second entry follows the first");
	cd = buf + 89;
	ok(le(cd, 4) == 0x02014b50 && le(cd + 42, 4) == 0 &&
	    le(cd + 46 + 7, 4) == 0x02014b50 && le(cd + 53 + 42, 4) == 42 &&
	    memcmp(cd + 53 + 46, "p/B$1.class", 11) == 0,
	    "central directory: each entry with its local header's offset");
	end = buf + n - 22;
	ok(le(end, 4) == 0x06054b50 && le(end + 8, 2) == 2 &&
	    le(end + 10, 2) == 2 && le(end + 12, 4) == 110 &&
	    le(end + 16, 4) == 89 && le(end + 20, 2) == 0,
	    "end record: 2 entries, the directory's size and offset");
	ok(memmem(buf, (size_t)n, "META-INF", 8) == NULL, "no manifest");

	errno = 0;
	ok(pwrite(fd, "x", 1, 0) == -1 && errno == EPERM,
	    "sealed: no write in place");
	errno = 0;
	ok(write(fd, "x", 1) == -1 && errno == EPERM, "sealed: no append");
	ok(ftruncate(fd, 1) == -1 && ftruncate(fd, 4096) == -1,
	    "sealed: no shrinking, no growing");
	ok(fcntl(fd, F_ADD_SEALS, 0) == -1 && errno == EPERM,
	    "sealed: the seals cannot change");
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	rfd = open(proc, O_WRONLY | O_TRUNC);
	e = errno;
	ok(rfd < 0 && e == EPERM, "reopened through /proc with O_TRUNC: "
	    "refused");
	rfd = open(proc, O_WRONLY);
	errno = 0;
	ok(rfd < 0 || (write(rfd, "x", 1) == -1 && errno == EPERM),
	    "reopened through /proc for writing: no write");
	if (rfd >= 0)
		close(rfd);
	ok(fstat(fd, &st) == 0 && st.st_size == n, "the size never moved");
	close(fd);
}

int
main(void)
{
	test_crc();
	test_layout_and_seals();
	return tap_done();
}
