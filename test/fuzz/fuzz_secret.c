/* fuzz_secret.c - the shared secret under arbitrary bytes. The first byte
 * picks the way in, the rest is the secret: 0 secret_parse on the bytes
 * (and in place in s->b), 1 secret_load_psk on a file holding them (a
 * memfd read through /proc/self/fd, so the read cap is exercised), 2
 * secret_load on AIRLOCK_SECRET set to them (up to the first NUL).
 * Invariants: the verdict and the kept bytes agree with an independent
 * model (over 4096 bytes as read is refused, one "\n" or "\r\n" goes, then
 * 32..4096 bytes are kept); the message is exactly the documented one, so
 * it names the length but never a byte; a refusal leaves s and the PSK
 * wiped; the PSK is the one of the model's bytes; AIRLOCK_SECRET is wiped
 * in place and removed, accepted or not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/base/secmem.h"
#include "common/wire/secret.h"
#include "fuzz.h"

#define PREFIX SECRET_ENV "="

static struct secret s;
static char err[512], want_err[512];

static enum secret_status
model(const uint8_t *b, size_t len, size_t *n)
{
	*n = len;
	if (len > SECRET_MAX_LEN)
		return SECRET_LONG;
	if (*n && b[*n - 1] == '\n') {
		(*n)--;
		if (*n && b[*n - 1] == '\r')
			(*n)--;
	}
	return *n == 0 ? SECRET_EMPTY : *n < SECRET_MIN_LEN ? SECRET_SHORT :
	    SECRET_OK;
}

/* s holds exactly b[0..n) (st OK), or is wiped. */
static void
check_kept(enum secret_status st, const uint8_t *b, size_t n)
{
	if (st != SECRET_OK) {
		FUZZ_ASSERT(ct_is_zero(&s, sizeof s));
		return;
	}
	FUZZ_ASSERT(s.len == n && memcmp(s.b, b, n) == 0);
	FUZZ_ASSERT(ct_is_zero(s.b + n, sizeof s.b - n));
}

/* The PSK of b[0..n), by the plain route. */
static void
model_psk(const uint8_t *b, size_t n, uint8_t psk[SECRET_PSK_LEN])
{
	static struct secret m;

	memcpy(m.b, b, n);
	m.len = n;
	FUZZ_ASSERT(secret_derive_psk(&m, psk) == 0);
	secret_wipe(&m);
}

static void
via_parse(const uint8_t *b, size_t len)
{
	size_t wn, n = 0;
	enum secret_status want = model(b, len, &wn), st;
	uint8_t psk[SECRET_PSK_LEN];

	memset(&s, 0xa5, sizeof s);
	st = secret_parse(&s, b, len, &n);
	FUZZ_ASSERT(st == want && n == wn);
	check_kept(st, b, wn);
	FUZZ_ASSERT((secret_derive_psk(&s, psk) == 0) == (st == SECRET_OK));
	if (len > sizeof s.b)
		return;
	/* in place, as secret_load calls it */
	memset(&s, 0xa5, sizeof s);
	memcpy(s.b, b, len);
	st = secret_parse(&s, s.b, len, &n);
	FUZZ_ASSERT(st == want && n == wn);
	check_kept(st, b, wn);
}

/* The refusal secret_load must give for want (not SECRET_OK) of n bytes
 * from what: "secret file PATH" or the variable's name. */
static void
expect_refusal(enum secret_status want, const char *what,
    const char *too_big, size_t n)
{
	if (want == SECRET_EMPTY)
		snprintf(want_err, sizeof want_err, "%s is empty", what);
	else if (want == SECRET_SHORT)
		snprintf(want_err, sizeof want_err, "%s is %zu bytes; at least "
		    "%d are required", what, n, SECRET_MIN_LEN);
	else
		snprintf(want_err, sizeof want_err, "%s is %s than %d bytes",
		    what, too_big, SECRET_MAX_LEN);
}

static void
via_file(const uint8_t *b, size_t len)
{
	static int fd = -1;
	char path[64], what[80];
	uint8_t psk[SECRET_PSK_LEN], want_psk[SECRET_PSK_LEN];
	size_t n;
	enum secret_status want = model(b, len, &n);
	int rc;

	if (fd < 0)
		fd = memfd_create("fuzz_secret", MFD_CLOEXEC);
	FUZZ_ASSERT(fd >= 0 && ftruncate(fd, 0) == 0);
	FUZZ_ASSERT(len == 0 || pwrite(fd, b, len, 0) == (ssize_t)len);
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	memset(psk, 0xa5, sizeof psk);
	rc = secret_load_psk(path, psk, err, sizeof err);
	switch (want) {
	case SECRET_OK:
		model_psk(b, n, want_psk);
		FUZZ_ASSERT(rc == 0 && memcmp(psk, want_psk, sizeof psk) == 0);
		FUZZ_ASSERT(err[0] == '\0');
		return;
	default:
		snprintf(what, sizeof what, "secret file %s", path);
		expect_refusal(want, what, "larger", n);
	}
	FUZZ_ASSERT(rc == -1 && strcmp(err, want_err) == 0);
	FUZZ_ASSERT(ct_is_zero(psk, sizeof psk));
}

static void
via_env(const uint8_t *b, size_t len)
{
	static char env[sizeof PREFIX + SECRET_MAX_LEN + 2];
	const uint8_t *nul = memchr(b, '\0', len);
	size_t vlen = nul ? (size_t)(nul - b) : len, n;
	char *value = env + sizeof PREFIX - 1;
	enum secret_status want;
	int rc;

	if (vlen > SECRET_MAX_LEN + 2)
		vlen = SECRET_MAX_LEN + 2;
	memcpy(env, PREFIX, sizeof PREFIX - 1);
	memcpy(value, b, vlen);
	value[vlen] = '\0';
	FUZZ_ASSERT(putenv(env) == 0);
	want = model((const uint8_t *)value, vlen, &n);
	memset(&s, 0xa5, sizeof s);
	rc = secret_load(&s, NULL, err, sizeof err);
	FUZZ_ASSERT(getenv(SECRET_ENV) == NULL);
	FUZZ_ASSERT(ct_is_zero(value, vlen));	/* wiped where it was */
	switch (want) {
	case SECRET_OK:
		FUZZ_ASSERT(rc == 0 && err[0] == '\0');
		check_kept(want, b, n);
		return;
	default:
		expect_refusal(want, SECRET_ENV, "longer", n);
	}
	FUZZ_ASSERT(rc == -1 && strcmp(err, want_err) == 0);
	FUZZ_ASSERT(ct_is_zero(&s, sizeof s));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	unsetenv(SECRET_FILE_ENV);
	switch (data[0] % 3) {
	case 0:
		via_parse(data + 1, size - 1);
		break;
	case 1:
		via_file(data + 1, size - 1);
		break;
	default:
		via_env(data + 1, size - 1);
		break;
	}
	return 0;
}
