/* lockstore.c - lockfiles named by their digest (lockstore.h). */
#include "common/lock/lockstore.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bearssl_hash.h>

#include "common/base/fileio.h"
#include "common/base/secmem.h"
#include "common/lock/pylock.h"

void
lock_hex_encode(const uint8_t d[LOCK_DIGEST_LEN], char hex[LOCK_HEX_LEN + 1])
{
	static const char x[] = "0123456789abcdef";

	for (size_t i = 0; i < LOCK_DIGEST_LEN; i++) {
		hex[2 * i] = x[d[i] >> 4];
		hex[2 * i + 1] = x[d[i] & 15];
	}
	hex[LOCK_HEX_LEN] = '\0';
}

static int
nibble(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : -1;
}

int
lock_hex_decode(const char *hex, uint8_t digest[LOCK_DIGEST_LEN])
{
	for (size_t i = 0; i < LOCK_DIGEST_LEN; i++) {
		int hi = nibble(hex[2 * i]), lo = hi < 0 ? -1 :
		    nibble(hex[2 * i + 1]);

		if (lo < 0)
			return -1;
		digest[i] = (uint8_t)(hi << 4 | lo);
	}
	return hex[LOCK_HEX_LEN] == '\0' ? 0 : -1;
}

void
lock_digest(const void *p, size_t n, uint8_t digest[LOCK_DIGEST_LEN],
    char hex[LOCK_HEX_LEN + 1])
{
	br_sha256_context h;
	uint8_t d[br_sha256_SIZE];

	br_sha256_init(&h);
	br_sha256_update(&h, p, n);
	br_sha256_out(&h, d);
	if (digest)
		memcpy(digest, d, LOCK_DIGEST_LEN);
	if (hex)
		lock_hex_encode(d, hex);
}

int
lock_file_digest(int dfd, const char *name, uint8_t digest[LOCK_DIGEST_LEN])
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	br_sha256_context h;
	char buf[65536];
	ssize_t n;

	if (fd < 0)
		return -1;
	br_sha256_init(&h);
	while ((n = read(fd, buf, sizeof buf)) > 0)
		br_sha256_update(&h, buf, (size_t)n);
	close(fd);
	if (n < 0)
		return -1;
	br_sha256_out(&h, digest);
	return 0;
}

static const struct {
	const char *suffix;
	size_t max;
} formats[] = {
	[LOCK_JSON] = { ".json", LJ_TEXT_MAX },
	[LOCK_REQUIREMENTS] = { ".txt", PYLOCK_TEXT_MAX },
};

static int
lock_path(const char *dir, enum lock_format f, const char *hex, char *out,
    size_t cap)
{
	if ((size_t)snprintf(out, cap, "%s/%s%s", dir, hex,
	    formats[f].suffix) >= cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int
lock_save(const char *dir, enum lock_format f, const void *p, size_t n,
    char hex[LOCK_HEX_LEN + 1])
{
	char path[PATH_MAX];

	lock_digest(p, n, NULL, hex);
	if (lock_path(dir, f, hex, path, sizeof path) != 0)
		return -1;
	return file_replace(path, p, n, 0644);
}

int
lock_load(const char *dir, enum lock_format f,
    const uint8_t digest[LOCK_DIGEST_LEN], uint8_t **out, size_t *len,
    char *err, size_t errcap)
{
	uint8_t got[LOCK_DIGEST_LEN];
	char hex[LOCK_HEX_LEN + 1], path[PATH_MAX];

	lock_hex_encode(digest, hex);
	if (lock_path(dir, f, hex, path, sizeof path) != 0 ||
	    file_read(path, formats[f].max, out, len) != 0) {
		snprintf(err, errcap, "lock %s: %s", path, strerror(errno));
		return -1;
	}
	lock_digest(*out, *len, got, NULL);
	if (!ct_equal(got, digest, LOCK_DIGEST_LEN)) {
		snprintf(err, errcap, "lock %s: its bytes are not the approved "
		    "lock (another SHA-256)", path);
		free(*out);
		*out = NULL;
		return -2;
	}
	return 0;
}
