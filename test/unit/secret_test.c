/* secret_test.c - loading the shared secret from real files and the real
 * environment: every refusal and its message, newline stripping, the
 * 32-byte and 4096-byte edges, removal from the environment (re-executing
 * itself to look at /proc/self/environ) and the PSK known answer. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/secmem.h"
#include "common/wire/secret.h"
#include "tap.h"

extern char **environ;

static char dir[64];
static struct secret s;
static char err[512];

static const char *
write_file(const char *name, const void *data, size_t n)
{
	static char path[128];
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, n) != (ssize_t)n) {
		printf("# cannot write %s\n", path);
		exit(1);
	}
	close(fd);
	return path;
}

static void
clear_env(void)
{
	unsetenv(SECRET_ENV);
	unsetenv(SECRET_FILE_ENV);
}

/* Load from path (or the environment when NULL); returns the rc and
 * leaves the message in err. */
static int
load(const char *path)
{
	int rc = secret_load(&s, path, err, sizeof err);

	clear_env();
	return rc;
}

/* err == head path tail */
static int
msg_is(const char *head, const char *path, const char *tail)
{
	char want[512];

	snprintf(want, sizeof want, "%s%s%s", head, path, tail);
	return strcmp(err, want) == 0;
}

static void
test_refusals(void)
{
	static char big[SECRET_MAX_LEN + 1], env[SECRET_MAX_LEN + 2];
	const char *p;

	clear_env();
	ok(load(NULL) == -1 && strcmp(err, "no secret: give --secret-file "
	    "FILE or set AIRLOCK_SECRET_FILE or AIRLOCK_SECRET") == 0,
	    "no source at all: %s", err);

	p = write_file("empty", "", 0);
	ok(load(p) == -1 && msg_is("secret file ", p, " is empty"),
	    "empty file: %s", err);
	p = write_file("nl", "\n", 1);
	ok(load(p) == -1 && msg_is("secret file ", p, " is empty"),
	    "a file holding only a newline is empty");
	p = write_file("short", "0123456789abcdef0123456789abcde", 31);
	ok(load(p) == -1 && msg_is("secret file ", p, " is 31 bytes; "
	    "at least 32 are required"), "31-byte file: %s", err);
	ok(strstr(err, "0123") == NULL && ct_is_zero(&s, sizeof s),
	    "the refusal shows no secret byte and leaves nothing loaded");
	p = write_file("short-nl", "0123456789abcdef0123456789abcde\n", 32);
	ok(load(p) == -1 && msg_is("secret file ", p, " is 31 bytes; "
	    "at least 32 are required"), "31 bytes and a newline is short");
	memset(big, 'k', sizeof big);
	p = write_file("big", big, sizeof big);
	ok(load(p) == -1 && msg_is("secret file ", p,
	    " is larger than 4096 bytes"), "4097-byte file: %s", err);
	snprintf(big, sizeof big, "%s/missing", dir);
	ok(load(big) == -1 && msg_is("cannot open secret file ", big,
	    ": No such file or directory"), "missing file: %s", err);
	ok(load(dir) == -1 && msg_is("cannot read secret file ", dir,
	    ": Is a directory"), "a directory: %s", err);
	ok(load("") == -1 && strcmp(err, "the secret file name is empty") == 0,
	    "an empty file name");

	setenv(SECRET_FILE_ENV, "", 1);
	ok(load(NULL) == -1 && strcmp(err, "AIRLOCK_SECRET_FILE is set but "
	    "empty") == 0, "empty AIRLOCK_SECRET_FILE: %s", err);
	setenv(SECRET_ENV, "", 1);
	ok(load(NULL) == -1 && strcmp(err, "AIRLOCK_SECRET is empty") == 0,
	    "empty AIRLOCK_SECRET: %s", err);
	setenv(SECRET_ENV, "twelve bytes", 1);
	ok(secret_load(&s, NULL, err, sizeof err) == -1 && strcmp(err,
	    "AIRLOCK_SECRET is 12 bytes; at least 32 are required") == 0,
	    "12-byte AIRLOCK_SECRET: %s", err);
	ok(getenv(SECRET_ENV) == NULL && strstr(err, "twelve") == NULL,
	    "a refused AIRLOCK_SECRET is removed too, and not echoed");
	memset(env, 'k', SECRET_MAX_LEN + 1);
	setenv(SECRET_ENV, env, 1);
	ok(load(NULL) == -1 && strcmp(err, "AIRLOCK_SECRET is longer than "
	    "4096 bytes") == 0, "4097-byte AIRLOCK_SECRET: %s", err);
	env[SECRET_MAX_LEN] = '\0';
	setenv(SECRET_ENV, env, 1);
	ok(load(NULL) == 0 && s.len == SECRET_MAX_LEN,
	    "4096-byte AIRLOCK_SECRET is accepted");
	setenv(SECRET_ENV, "0123456789abcdef0123456789abcdef", 1);
	setenv(SECRET_FILE_ENV, p, 1);
	ok(secret_load(&s, NULL, err, sizeof err) == -1 && strcmp(err,
	    "both AIRLOCK_SECRET_FILE and AIRLOCK_SECRET are set; set only "
	    "one") == 0 && getenv(SECRET_ENV) == NULL,
	    "both variables set is ambiguous: %s", err);
	clear_env();
	ok(secret_load(&s, NULL, err, 8) == -1 && strlen(err) == 7,
	    "a short err buffer is cut and terminated");
}

static int
loaded(const char *want, size_t n)
{
	return s.len == n && memcmp(s.b, want, n) == 0;
}

static void
test_accepted(void)
{
	static char big[SECRET_MAX_LEN];
	static const char k32[] = "0123456789abcdef0123456789abcdef";
	const char *p;

	p = write_file("k32", k32, 32);
	ok(load(p) == 0 && loaded(k32, 32), "a 32-byte file is accepted");
	p = write_file("k32nl", "0123456789abcdef0123456789abcdef\n", 33);
	ok(load(p) == 0 && loaded(k32, 32), "one trailing \\n is stripped");
	p = write_file("k32crlf", "0123456789abcdef0123456789abcdef\r\n", 34);
	ok(load(p) == 0 && loaded(k32, 32), "one trailing \\r\\n is stripped");
	p = write_file("k32nlnl", "0123456789abcdef0123456789abcdef\n\n", 34);
	ok(load(p) == 0 && loaded("0123456789abcdef0123456789abcdef\n", 33),
	    "only one newline is stripped");
	p = write_file("k32cr", "0123456789abcdef0123456789abcdef\r", 33);
	ok(load(p) == 0 && loaded("0123456789abcdef0123456789abcdef\r", 33),
	    "a lone \\r is kept");
	memset(big, 'k', sizeof big);
	p = write_file("k4096", big, sizeof big);
	ok(load(p) == 0 && loaded(big, sizeof big),
	    "a 4096-byte file is accepted");

	p = write_file("k32", k32, 32);
	setenv(SECRET_FILE_ENV, p, 1);
	ok(load(NULL) == 0 && loaded(k32, 32), "AIRLOCK_SECRET_FILE is read");
	setenv(SECRET_ENV, "0123456789abcdef0123456789abcdef\n", 1);
	ok(secret_load(&s, NULL, err, sizeof err) == 0 && loaded(k32, 32) &&
	    getenv(SECRET_ENV) == NULL,
	    "AIRLOCK_SECRET is read, stripped and removed");
	p = write_file("other", "a file secret that is not the env one", 37);
	setenv(SECRET_ENV, k32, 1);
	ok(secret_load(&s, p, err, sizeof err) == 0 &&
	    loaded("a file secret that is not the env one", 37) &&
	    ct_is_zero(s.b + 37, sizeof s.b - 37) && getenv(SECRET_ENV) == NULL,
	    "--secret-file wins over AIRLOCK_SECRET, which is still removed");
	secret_wipe(&s);
	ok(ct_is_zero(&s, sizeof s), "secret_wipe zeroes");
	clear_env();
}

static void
test_psk(void)
{
	/* HKDF-SHA256 by RFC 5869 in python3's hmac module:
	 *   prk = hmac.new(b"airlock/1 psk salt", secret, "sha256").digest()
	 *   hmac.new(prk, info + b"\x01", "sha256").hexdigest()
	 * info = b"airlock/1 Noise_NNpsk0_25519_ChaChaPoly_SHA256 psk" */
	static const uint8_t want[32] = { 0xc4, 0x38, 0xf3, 0xa7, 0xd9, 0xe2,
		0x7a, 0xe3, 0xad, 0x54, 0x68, 0x59, 0x45, 0xcc, 0x90, 0xc7,
		0x71, 0xd5, 0x01, 0xef, 0xd2, 0x33, 0x3d, 0x40, 0xc7, 0x01,
		0x18, 0x81, 0xbb, 0xe5, 0x74, 0x36 };
	static const char sec[] =
	    "correct horse battery staple, airlock test secret";
	uint8_t psk[32], psk2[32];
	const char *p;

	ok(strcmp(SECRET_PSK_SALT, "airlock/1 psk salt") == 0 &&
	    strcmp(SECRET_PSK_INFO, "airlock/1 Noise_NNpsk0_25519_"
	    "ChaChaPoly_SHA256 psk") == 0, "salt and info name version 1");
	setenv(SECRET_ENV, sec, 1);
	ok(load(NULL) == 0 && secret_derive_psk(&s, psk) == 0 &&
	    memcmp(psk, want, 32) == 0, "PSK known answer (python3 hmac)");
	p = write_file("psk", "correct horse battery staple, airlock test "
	    "secret\r\n", sizeof sec + 1);
	ok(load(p) == 0 && secret_derive_psk(&s, psk2) == 0 &&
	    memcmp(psk, psk2, 32) == 0,
	    "the same secret from a file with \\r\\n gives the same PSK");
	s.b[0] ^= 1;
	ok(secret_derive_psk(&s, psk2) == 0 && memcmp(psk, psk2, 32) != 0,
	    "one bit of secret changes the PSK");
	secret_wipe(&s);
	ok(secret_derive_psk(&s, psk2) == -1, "no PSK from a wiped secret");
}

/* secret_parse, the check under both sources, on its own. */
static void
test_parse(void)
{
	static uint8_t big[SECRET_MAX_LEN + 2];
	static const char k32[] = "0123456789abcdef0123456789abcdef";
	uint8_t nul[40];
	size_t n;

	memset(big, 'k', sizeof big);
	memset(&s, 0xa5, sizeof s);
	ok(secret_parse(&s, big, SECRET_MAX_LEN + 1, &n) == SECRET_LONG &&
	    n == SECRET_MAX_LEN + 1 && ct_is_zero(&s, sizeof s),
	    "4097 bytes: too long, s wiped");
	big[SECRET_MAX_LEN] = '\n';
	ok(secret_parse(&s, big, SECRET_MAX_LEN + 1, &n) == SECRET_LONG,
	    "4096 bytes and a newline: too long (the cap is on the bytes as "
	    "read, as for a file)");
	ok(secret_parse(&s, big, SECRET_MAX_LEN, &n) == SECRET_OK &&
	    s.len == SECRET_MAX_LEN && n == SECRET_MAX_LEN, "4096 bytes: kept");
	memset(&s, 0xa5, sizeof s);
	ok(secret_parse(&s, (const uint8_t *)"0123456789abcdef0123456789abcdef"
	    "\r\n", 34, &n) == SECRET_OK && loaded(k32, 32) && n == 32 &&
	    ct_is_zero(s.b + 32, sizeof s.b - 32), "\\r\\n stripped, and no "
	    "byte of it (or of an earlier secret) left after the secret");
	ok(secret_parse(&s, (const uint8_t *)"\r\n", 2, &n) == SECRET_EMPTY &&
	    n == 0 && ct_is_zero(&s, sizeof s), "only \\r\\n: empty");
	ok(secret_parse(&s, (const uint8_t *)"\n\n", 2, &n) == SECRET_SHORT &&
	    n == 1, "two newlines: one is kept, 1 byte is short");
	ok(secret_parse(&s, (const uint8_t *)k32, 31, &n) == SECRET_SHORT &&
	    n == 31 && ct_is_zero(&s, sizeof s), "31 bytes: short, s wiped");
	memset(nul, 0, sizeof nul);
	ok(secret_parse(&s, nul, sizeof nul, &n) == SECRET_OK && s.len == 40,
	    "NUL bytes are secret bytes like any other");
	memcpy(s.b, k32, 32);
	s.b[32] = '\n';
	ok(secret_parse(&s, s.b, 33, NULL) == SECRET_OK && loaded(k32, 32),
	    "in place (buf is s->b), n may be NULL");
	secret_wipe(&s);
}

/* secret_load_psk wipes the caller's PSK buffer on a refusal, as its
 * comment says; it used to leave whatever was there (found by
 * fuzz_secret). */
static void
test_psk_refused(void)
{
	uint8_t psk[SECRET_PSK_LEN];
	const char *p = write_file("psk-short", "too short\n", 10);

	clear_env();
	memset(psk, 0xa5, sizeof psk);
	ok(secret_load_psk(p, psk, err, sizeof err) == -1 &&
	    msg_is("secret file ", p, " is 9 bytes; at least 32 are "
	    "required") && ct_is_zero(psk, sizeof psk), "a refused secret leaves the PSK buffer "
	    "wiped: %s", err);
	memset(psk, 0xa5, sizeof psk);
	ok(secret_load_psk(NULL, psk, err, sizeof err) == -1 &&
	    ct_is_zero(psk, sizeof psk), "so does no secret at all");
}

/* Every file the tests wrote, then dir. */
static void
remove_files(void)
{
	static const char *const names[] = { "empty", "nl", "short",
		"short-nl", "big", "k32", "k32nl", "k32crlf", "k32nlnl",
		"k32cr", "k4096", "other", "psk", "psk-short" };
	char path[128];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* Child mode: started by execve with AIRLOCK_SECRET in its initial
 * environment, so the bytes sit where /proc/self/environ reads them. */
static int
environ_child(void)
{
	static char env[65536];
	const char *needle = "s3cr3t-in-the-initial-environment-0123456789";
	int fd;
	ssize_t n;

	for (int pass = 0; pass < 2; pass++) {
		int seen = 0;

		fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return 10;
		n = read(fd, env, sizeof env);
		close(fd);
		for (ssize_t i = 0; n > 0 && i + (ssize_t)strlen(needle) <= n;
		    i++)
			seen |= memcmp(env + i, needle, strlen(needle)) == 0;
		if (pass == 0 && !seen)
			return 11;	/* the test would prove nothing */
		if (pass == 1 && seen)
			return 12;
		if (pass == 0 && (secret_load(&s, NULL, err, sizeof err) != 0 ||
		    !loaded(needle, strlen(needle))))
			return 13;
	}
	for (char **e = environ; *e; e++)
		if (strncmp(*e, SECRET_ENV "=", sizeof SECRET_ENV) == 0)
			return 14;
	return getenv(SECRET_ENV) ? 15 : 0;
}

static void
test_environ_scrubbed(void)
{
	char *argv[] = { "secret_test", "environ-child", NULL };
	char *envp[] = { "LANG=C",
		"AIRLOCK_SECRET=s3cr3t-in-the-initial-environment-0123456789",
		"AIRLOCK_SECRET=s3cr3t-in-the-initial-environment-0123456789",
		NULL };
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		execve("/proc/self/exe", argv, envp);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "AIRLOCK_SECRET (twice) seen in /proc/self/environ before, gone "
	    "after, and from environ (child exit %d)",
	    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int
main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "environ-child") == 0)
		return environ_child();
	snprintf(dir, sizeof dir, "%s", "/tmp/secret_test.XXXXXX");
	if (!mkdtemp(dir)) {
		printf("# mkdtemp failed\n");
		return 1;
	}
	test_refusals();
	test_accepted();
	test_psk();
	test_parse();
	test_psk_refused();
	test_environ_scrubbed();
	remove_files();
	return tap_done();
}
