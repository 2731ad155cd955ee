/* revfloor.c - read and write the runner's revocation floor file. */
#include "common/policy/revfloor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "common/base/base64.h"
#include "common/base/decnum.h"
#include "common/base/fileio.h"

#define FLOOR_HEADER "airlock-revocation-floor 1\n"
#define SERIAL_KEY "serial "
#define DIGEST_KEY "sha256 "

int
revfloor_parse(const uint8_t *p, size_t n, uint64_t *serial,
    uint8_t digest[REVFLOOR_DIGEST_LEN], const char **why)
{
	const size_t hlen = sizeof FLOOR_HEADER - 1, dlen = sizeof DIGEST_KEY -
	    1 + 2 * REVFLOOR_DIGEST_LEN + 1;
	const char *s = (const char *)p, *nl;
	char spelt[2 * REVFLOOR_DIGEST_LEN + 1];
	size_t at;

	*why = "malformed (expected \"airlock-revocation-floor 1\", "
	    "\"serial N\", \"sha256 HEX\")";
	if (n < hlen + sizeof SERIAL_KEY - 1 + dlen ||
	    memcmp(s, FLOOR_HEADER SERIAL_KEY, hlen + sizeof SERIAL_KEY - 1))
		return -1;
	s += hlen + sizeof SERIAL_KEY - 1;
	n -= hlen + sizeof SERIAL_KEY - 1;
	/* the serial's line, then exactly the digest's */
	if (!(nl = memchr(s, '\n', n)) ||
	    decnum_parse_max(s, (size_t)(nl - s), UINT64_MAX, serial) != 0 ||
	    n - (size_t)(nl + 1 - s) != dlen)
		return -1;
	s = nl + 1;
	if (memcmp(s, DIGEST_KEY, sizeof DIGEST_KEY - 1) != 0 ||
	    s[dlen - 1] != '\n')
		return -1;
	s += sizeof DIGEST_KEY - 1;
	/* one spelling per digest: lower case, as hex_encode writes */
	if (hex_decode(s, 2 * REVFLOOR_DIGEST_LEN, digest, REVFLOOR_DIGEST_LEN,
	    &at) != REVFLOOR_DIGEST_LEN ||
	    hex_encode(digest, REVFLOOR_DIGEST_LEN, spelt, sizeof spelt) < 0 ||
	    memcmp(spelt, s, 2 * REVFLOOR_DIGEST_LEN) != 0)
		return -1;
	return 0;
}

int
revfloor_read(const char *path, uint64_t *serial,
    uint8_t digest[REVFLOOR_DIGEST_LEN], const char **why)
{
	uint8_t *buf;
	size_t len;
	int rc;

	if (file_read(path, REVFLOOR_FILE_MAX, &buf, &len) != 0) {
		if (errno == ENOENT)
			return 0;
		*why = errno == EFBIG ? "too large" : strerror(errno);
		return -1;
	}
	rc = revfloor_parse(buf, len, serial, digest, why);
	free(buf);
	return rc == 0 ? 1 : -1;
}

/* The directory of path, opened to lock: writers of one state directory
 * (the service and its lease handlers) take turns. */
static int
lock_dir_of(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	int fd;

	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if ((size_t)snprintf(dir, sizeof dir, "%.*s",
	    (int)(slash - path) ? (int)(slash - path) : 1, path) >= sizeof dir)
		return -1;
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	if (flock(fd, LOCK_EX) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int
revfloor_write(const char *path, uint64_t serial,
    const uint8_t digest[REVFLOOR_DIGEST_LEN])
{
	char text[REVFLOOR_FILE_MAX];
	uint8_t old_digest[REVFLOOR_DIGEST_LEN];
	uint64_t old = 0;
	const char *why;
	int dfd, n, rc = -1;

	if ((dfd = lock_dir_of(path)) < 0)
		return -1;
	/* only forward: a process holding an older list never lowers it */
	switch (revfloor_read(path, &old, old_digest, &why)) {
	case -1:
		goto out;
	case 1:
		if (old >= serial) {
			rc = 0;
			goto out;
		}
	}
	n = snprintf(text, sizeof text, FLOOR_HEADER SERIAL_KEY "%llu\n"
	    DIGEST_KEY, (unsigned long long)serial);
	n += (int)hex_encode(digest, REVFLOOR_DIGEST_LEN, text + n,
	    sizeof text - (size_t)n);
	text[n++] = '\n';
	rc = file_replace(path, text, (size_t)n, 0600);
out:
	close(dfd);
	return rc;
}
