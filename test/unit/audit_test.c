/* audit_test.c - the hash-chained audit log: appends chain, and an
 * edited, re-hashed, removed, inserted or torn entry is found and its
 * line named; an append after damage is refused. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/audit.h"
#include "common/fileio.h"
#include "tap.h"

static char path[] = "/tmp/audit_test.XXXXXX";
static char log3[8192];
static size_t log3_len;

static int
append(const char *detail)
{
	struct audit_entry e = { 1700000000, "alice", "submit", "r000001",
		"PENDING", detail };
	char err[256];

	return audit_append(path, &e, err, sizeof err);
}

static int
verify(const char *p, size_t n, size_t *count, size_t *line)
{
	uint8_t head[AUDIT_HASH_LEN];
	const char *why;

	return audit_verify((const uint8_t *)p, n, count, head, line, &why,
	    NULL, NULL);
}

static void
put(const char *text, size_t n)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, text, n) != (ssize_t)n)
		abort();
	close(fd);
}

/* Start of line k (1-based) in log3. */
static size_t
line_at(size_t k)
{
	size_t off = 0;

	while (--k) {
		const char *nl = memchr(log3 + off, '\n', log3_len - off);

		off = (size_t)(nl - log3) + 1;
	}
	return off;
}

static void
count_entry(void *ctx, const struct audit_view *v)
{
	(void)v;
	++*(size_t *)ctx;
}

int
main(void)
{
	char buf[8192];
	uint8_t head[AUDIT_HASH_LEN], *p;
	size_t count = 0, line = 0, seen = 0, n, a, b;
	const char *why;
	int fd = mkstemp(path);

	close(fd);
	ok(verify("", 0, &count, &line) == 0 && count == 0,
	    "an empty log verifies");
	ok(append("first") == 0 && append("second\nline\x01") == 0 &&
	    append("third") == 0, "three appends");
	file_read(path, sizeof log3 - 1, &p, &log3_len);
	memcpy(log3, p, log3_len);
	free(p);
	ok(audit_verify((uint8_t *)log3, log3_len, &count, head, &line, &why,
	    count_entry, &seen) == 0 && count == 3 && seen == 3,
	    "they verify as a chain of 3");
	ok(strstr(log3, "second?line?") != NULL, "control bytes in a detail "
	    "become '?', so an entry is one line");

	memcpy(buf, log3, log3_len);
	buf[line_at(2) + 20] ^= 1;
	ok(verify(buf, log3_len, &count, &line) == -1 && line == 2,
	    "an edited entry: found on its own line (2)");

	/* Edit entry 2 and fix its own hash: the chain breaks at line 3. */
	memcpy(buf, log3, log3_len);
	a = line_at(2);
	b = line_at(3);
	{
		struct audit_entry e = { 1700000000, "alice", "submit",
			"r000001", "PENDING", "second?line!" };
		char err[256], one[1024];
		int fd2;

		/* rebuild line 2 by appending to a log holding only line 1 */
		put(log3, a);
		audit_append(path, &e, err, sizeof err);
		fd2 = open(path, O_RDONLY);
		n = (size_t)read(fd2, one, sizeof one);
		close(fd2);
		memcpy(buf, one, n);
		memcpy(buf + n, log3 + b, log3_len - b);
		n += log3_len - b;
	}
	ok(verify(buf, n, &count, &line) == -1 && line == 3,
	    "an edited entry with its hash redone: the next line (3) "
	    "does not chain");

	memcpy(buf, log3, a);
	memcpy(buf + a, log3 + b, log3_len - b);
	ok(verify(buf, log3_len - (b - a), &count, &line) == -1 && line == 2,
	    "a removed entry: found at the line that took its place (2)");

	memcpy(buf, log3, b);
	memcpy(buf + b, log3 + a, b - a);
	memcpy(buf + b + (b - a), log3 + b, log3_len - b);
	ok(verify(buf, log3_len + (b - a), &count, &line) == -1 && line == 3,
	    "an inserted (replayed) entry: found (line 3)");

	ok(verify(log3, log3_len - 1, &count, &line) == -1 && line == 3,
	    "a torn last entry: found (line 3)");

	put(log3, log3_len - 1);
	ok(append("fourth") == -1, "no append after a torn entry");
	memcpy(buf, log3, log3_len);
	buf[log3_len - 3] = buf[log3_len - 3] == '0' ? '1' : '0';
	put(buf, log3_len);
	ok(append("fourth") == -1, "no append after an edited last entry");
	put(log3, log3_len);
	ok(append("fourth") == 0, "an intact log takes the append");
	unlink(path);
	return tap_done();
}
