/* secret.c - read the shared secret from a file or the environment, scrub
 * the environment, derive the Noise PSK. */
#include "common/wire/secret.h"

#include <bearssl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/secmem.h"

extern char **environ;

__attribute__((format(printf, 4, 5))) static int
fail(struct secret *s, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	secure_wipe(s, sizeof *s);
	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Overwrite the value of every NAME=... entry, then drop them all: unsetenv
 * alone leaves the bytes where /proc/PID/environ and a core dump find them. */
static void
scrub_env(const char *name)
{
	size_t nlen = strlen(name);

	for (char **e = environ; e && *e; e++)
		if (strncmp(*e, name, nlen) == 0 && (*e)[nlen] == '=')
			secure_wipe(*e + nlen + 1, strlen(*e + nlen + 1));
	unsetenv(name);
}

/* Drop one trailing "\n" or "\r\n" (editors and `echo` add them). */
static void
strip_newline(struct secret *s)
{
	if (s->len && s->b[s->len - 1] == '\n') {
		s->len--;
		if (s->len && s->b[s->len - 1] == '\r')
			s->len--;
	}
}

enum secret_status
secret_parse(struct secret *s, const uint8_t *buf, size_t len, size_t *n)
{
	if (n)
		*n = len;
	if (len > sizeof s->b) {
		secure_wipe(s, sizeof *s);
		return SECRET_LONG;
	}
	memmove(s->b, buf, len);	/* buf may be s->b */
	s->len = len;
	strip_newline(s);
	secure_wipe(s->b + s->len, sizeof s->b - s->len);
	if (n)
		*n = s->len;
	if (s->len < SECRET_MIN_LEN) {
		enum secret_status st = s->len ? SECRET_SHORT : SECRET_EMPTY;

		secure_wipe(s, sizeof *s);
		return st;
	}
	return SECRET_OK;
}

/* Read all of fd into s, refusing more than SECRET_MAX_LEN bytes. Returns
 * 0, 1 when too big, or -1 with errno. */
static int
read_capped(int fd, struct secret *s)
{
	uint8_t extra[1];
	ssize_t r;

	s->len = 0;
	while (s->len < sizeof s->b) {
		r = read(fd, s->b + s->len, sizeof s->b - s->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		s->len += (size_t)r;
	}
	/* full: one more byte means over the cap */
	do
		r = read(fd, extra, 1);
	while (r < 0 && errno == EINTR);
	secure_wipe(extra, sizeof extra);
	if (r < 0)
		return -1;
	return r > 0;
}

/* Parse the s->len bytes loaded from what ("secret file PATH", or the
 * variable's name): 0, or -1 with a message naming what. too_big says
 * how it exceeds SECRET_MAX_LEN ("larger" for a file, "longer"). */
static int
parse_loaded(struct secret *s, const char *what, const char *too_big,
    char *err, size_t errlen)
{
	size_t n;

	switch (secret_parse(s, s->b, s->len, &n)) {
	case SECRET_OK:
		return 0;
	case SECRET_EMPTY:
		return fail(s, err, errlen, "%s is empty", what);
	case SECRET_SHORT:
		return fail(s, err, errlen, "%s is %zu bytes; at least %d are "
		    "required", what, n, SECRET_MIN_LEN);
	default:	/* the callers stop at the cap: not reached */
		return fail(s, err, errlen, "%s is %s than %d bytes", what,
		    too_big, SECRET_MAX_LEN);
	}
}

static int
load_file(struct secret *s, const char *path, char *err, size_t errlen)
{
	char what[PATH_MAX + 16];
	int fd, rc, saved;

	if (!*path)
		return fail(s, err, errlen, "the secret file name is empty");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return fail(s, err, errlen, "cannot open secret file %s: %s",
		    path, strerror(errno));
	rc = read_capped(fd, s);
	saved = errno;
	close(fd);
	if (rc < 0)
		return fail(s, err, errlen, "cannot read secret file %s: %s",
		    path, strerror(saved));
	snprintf(what, sizeof what, "secret file %s", path);
	if (rc > 0)
		return fail(s, err, errlen, "%s is larger than %d bytes", what,
		    SECRET_MAX_LEN);
	return parse_loaded(s, what, "larger", err, errlen);
}

int
secret_load(struct secret *s, const char *path, char *err, size_t errlen)
{
	const char *value = getenv(SECRET_ENV), *file = getenv(SECRET_FILE_ENV);
	size_t n = 0;

	if (err && errlen)
		err[0] = '\0';
	secure_wipe(s, sizeof *s);
	/* Copy the value out first: the environment is scrubbed before
	 * anything else can fail, so no path leaves it for a child. */
	if (value) {
		n = strnlen(value, SECRET_MAX_LEN + 1);
		if (n <= SECRET_MAX_LEN) {
			memcpy(s->b, value, n);
			s->len = n;
		}
	}
	scrub_env(SECRET_ENV);
	if (path || file)	/* the copy is not the source: drop it */
		secure_wipe(s, sizeof *s);
	if (path)
		return load_file(s, path, err, errlen);
	if (file && value)
		return fail(s, err, errlen, "both %s and %s are set; set only "
		    "one", SECRET_FILE_ENV, SECRET_ENV);
	if (file) {
		if (!*file)
			return fail(s, err, errlen, "%s is set but empty",
			    SECRET_FILE_ENV);
		return load_file(s, file, err, errlen);
	}
	if (!value)
		return fail(s, err, errlen, "no secret: give --secret-file "
		    "FILE or set %s or %s", SECRET_FILE_ENV, SECRET_ENV);
	if (n > SECRET_MAX_LEN)
		return fail(s, err, errlen, "%s is longer than %d bytes",
		    SECRET_ENV, SECRET_MAX_LEN);
	return parse_loaded(s, SECRET_ENV, "longer", err, errlen);
}

int
secret_derive_psk(const struct secret *s, uint8_t psk[SECRET_PSK_LEN])
{
	br_hkdf_context hc;

	if (!s || !psk || s->len < SECRET_MIN_LEN || s->len > SECRET_MAX_LEN)
		return -1;
	br_hkdf_init(&hc, &br_sha256_vtable, SECRET_PSK_SALT,
	    sizeof SECRET_PSK_SALT - 1);
	br_hkdf_inject(&hc, s->b, s->len);
	br_hkdf_flip(&hc);
	br_hkdf_produce(&hc, SECRET_PSK_INFO, sizeof SECRET_PSK_INFO - 1, psk,
	    SECRET_PSK_LEN);
	secure_wipe(&hc, sizeof hc);
	return 0;
}

void
secret_wipe(struct secret *s)
{
	if (s)
		secure_wipe(s, sizeof *s);
}

int
secret_load_psk(const char *path, uint8_t psk[SECRET_PSK_LEN], char *err,
    size_t errlen)
{
	static struct secret s;	/* 4 KiB: kept off the stack, wiped below */
	int rc;

	if (secret_load(&s, path, err, errlen) != 0) {
		/* as documented: the caller's buffer never keeps a key (an
		 * earlier one, say) next to a refusal */
		secure_wipe(psk, SECRET_PSK_LEN);
		return -1;
	}
	rc = secret_derive_psk(&s, psk);
	secret_wipe(&s);
	if (rc != 0) {
		secure_wipe(psk, SECRET_PSK_LEN);
		snprintf(err, errlen, "cannot derive the key from the secret");
	}
	return rc;
}

void
secret_key_id(const uint8_t psk[SECRET_PSK_LEN],
    char id[SECRET_KEY_ID_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	br_sha256_context h;
	uint8_t d[32];

	br_sha256_init(&h);
	br_sha256_update(&h, SECRET_KEY_ID_CONTEXT,
	    sizeof SECRET_KEY_ID_CONTEXT - 1);
	br_sha256_update(&h, psk, SECRET_PSK_LEN);
	br_sha256_out(&h, d);
	for (int i = 0; i < SECRET_KEY_ID_LEN / 2; i++) {
		id[2 * i] = hex[d[i] >> 4];
		id[2 * i + 1] = hex[d[i] & 15];
	}
	id[SECRET_KEY_ID_LEN] = '\0';
	secure_wipe(&h, sizeof h);
}

void
secret_ring_wipe(struct secret_ring *ring)
{
	secure_wipe(ring, sizeof *ring);
}

int
secret_ring_load(struct secret_ring *ring, const char *const *files,
    size_t nfiles, char *err, size_t errlen)
{
	size_t want = nfiles ? nfiles : 1;

	secret_ring_wipe(ring);
	if (nfiles > SECRET_RING_MAX) {
		snprintf(err, errlen, "at most %d secrets at once (--secret-file"
		    " given %zu times)", SECRET_RING_MAX, nfiles);
		return -1;
	}
	for (size_t i = 0; i < want; i++) {
		if (secret_load_psk(nfiles ? files[i] : NULL, ring->psk[i], err,
		    errlen) != 0) {
			secret_ring_wipe(ring);
			return -1;
		}
		for (size_t k = 0; k < i; k++)
			if (ct_equal(ring->psk[k], ring->psk[i],
			    SECRET_PSK_LEN)) {
				snprintf(err, errlen, "--secret-file %s holds the "
				    "same secret as %s", files[i], files[k]);
				secret_ring_wipe(ring);
				return -1;
			}
		secret_key_id(ring->psk[i], ring->id[i]);
		ring->n = i + 1;
	}
	return 0;
}
