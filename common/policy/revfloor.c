/* revfloor.c - read and write the runner's revocation floor file. */
#include "common/policy/revfloor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "common/base/fileio.h"

#define FLOOR_HEADER "airlock-revocation-floor 1\n"

/* A decimal without a leading zero (0 itself aside), at most 19 digits,
 * ending at a newline: its value, and *p moved past the newline. */
static int
take_decimal(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t *s = *p;
	size_t n = 0;

	*v = 0;
	while (s + n < end && s[n] >= '0' && s[n] <= '9' && n < 20)
		*v = *v * 10 + (uint64_t)(s[n++] - '0');
	if (n == 0 || n > 19 || (n > 1 && s[0] == '0') || s + n >= end ||
	    s[n] != '\n')
		return -1;
	*p = s + n + 1;
	return 0;
}

static int
hex_value(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;	/* upper case too: one spelling per digest */
}

int
revfloor_parse(const uint8_t *p, size_t n, uint64_t *serial,
    uint8_t digest[REVFLOOR_DIGEST_LEN], const char **why)
{
	const size_t hlen = sizeof FLOOR_HEADER - 1;
	const uint8_t *end = p + n;

	*why = "malformed (expected \"" "airlock-revocation-floor 1\", "
	    "\"serial N\", \"sha256 HEX\")";
	if (n < hlen || memcmp(p, FLOOR_HEADER, hlen) != 0)
		return -1;
	p += hlen;
	if ((size_t)(end - p) < 7 || memcmp(p, "serial ", 7) != 0)
		return -1;
	p += 7;
	if (take_decimal(&p, end, serial) != 0)
		return -1;
	if ((size_t)(end - p) != 7 + 2 * REVFLOOR_DIGEST_LEN + 1 ||
	    memcmp(p, "sha256 ", 7) != 0 || end[-1] != '\n')
		return -1;
	p += 7;
	for (size_t i = 0; i < REVFLOOR_DIGEST_LEN; i++) {
		int hi = hex_value(p[2 * i]), lo = hex_value(p[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		digest[i] = (uint8_t)(hi << 4 | lo);
	}
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
	n = snprintf(text, sizeof text, FLOOR_HEADER "serial %llu\nsha256 ",
	    (unsigned long long)serial);
	for (size_t i = 0; i < REVFLOOR_DIGEST_LEN; i++)
		n += snprintf(text + n, sizeof text - (size_t)n, "%02x",
		    digest[i]);
	text[n++] = '\n';
	rc = file_replace(path, text, (size_t)n, 0600);
out:
	close(dfd);
	return rc;
}
