/* fuzz_lockstore.c - the lock store's names and records (common/lock/
 * lockstore.c) under arbitrary bytes. The first byte picks the format
 * and whether the rest is a name to decode or a lockfile to store. A
 * name: accepted exactly when it is 64 lowercase hex digits, and then it
 * encodes back to itself. A lockfile: stored under its digest and loaded
 * back byte for byte by that digest; by another digest it is missing
 * (-1); the same file holding other bytes is refused as changed (-2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/lock/lockstore.h"
#include "fuzz.h"

static char dir[] = "/tmp/fuzz-lockstore.XXXXXX";

/* each case removes its file: the directory is empty at exit */
static void
remove_dir(void)
{
	(void)rmdir(dir);
}

static int
hex_name(const char *s, size_t n)
{
	if (n != LOCK_HEX_LEN)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return 0;
	return 1;
}

static void
name_case(const uint8_t *data, size_t size)
{
	char text[LOCK_HEX_LEN + 8], again[LOCK_HEX_LEN + 1];
	uint8_t d[LOCK_DIGEST_LEN];
	size_t n = size < sizeof text - 1 ? size : sizeof text - 1;

	memcpy(text, data, n);
	text[n] = '\0';
	n = strlen(text);
	if (lock_hex_decode(text, d) != 0) {
		FUZZ_ASSERT(!hex_name(text, n));
		return;
	}
	FUZZ_ASSERT(hex_name(text, n));
	lock_hex_encode(d, again);
	FUZZ_ASSERT(strcmp(again, text) == 0);
}

static void
record_case(enum lock_format f, const uint8_t *data, size_t size)
{
	char hex[LOCK_HEX_LEN + 1], path[sizeof dir + LOCK_HEX_LEN + 8],
	    err[512];
	uint8_t d[LOCK_DIGEST_LEN], *out = NULL;
	size_t len = 0;

	FUZZ_ASSERT(lock_save(dir, f, data, size, hex) == 0);
	FUZZ_ASSERT(lock_hex_decode(hex, d) == 0);
	FUZZ_ASSERT(lock_load(dir, f, d, &out, &len, err, sizeof err) == 0);
	FUZZ_ASSERT(len == size && (size == 0 || memcmp(out, data, size) == 0));
	free(out);
	out = NULL;
	d[0] ^= 1;
	FUZZ_ASSERT(lock_load(dir, f, d, &out, &len, err, sizeof err) == -1 &&
	    out == NULL && err[0]);
	d[0] ^= 1;
	/* the same name, other bytes: what a file changed after its
	 * approval looks like */
	snprintf(path, sizeof path, "%s/%s.%s", dir, hex,
	    f == LOCK_JSON ? "json" : "txt");
	FUZZ_ASSERT(truncate(path, (off_t)size + 1) == 0);
	FUZZ_ASSERT(lock_load(dir, f, d, &out, &len, err, sizeof err) == -2 &&
	    out == NULL);
	FUZZ_ASSERT(unlink(path) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int made;

	if (size < 1)
		return 0;
	if (!made) {
		FUZZ_ASSERT(mkdtemp(dir) != NULL);
		atexit(remove_dir);
		made = 1;
	}
	if (data[0] & 1)
		name_case(data + 1, size - 1);
	else
		record_case(data[0] & 2 ? LOCK_REQUIREMENTS : LOCK_JSON,
		    data + 1, size - 1);
	return 0;
}
