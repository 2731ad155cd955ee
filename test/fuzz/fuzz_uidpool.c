/* fuzz_uidpool.c - the uid table's files (<state>/uids/<uid>, the cursor
 * <state>/uids/next, <state>/registrations/<key>) under arbitrary bytes.
 * Invariants: the line ends at the first '\n'; a name points inside the
 * input; the kind is decided by the line's first word alone; a number is
 * accepted exactly when the line is its canonical "%u" spelling; and what
 * uidpool_entry_format writes parses back to the same kind, name and
 * number (or was refused). */
#include <stdio.h>
#include <string.h>

#include "common/base/decnum.h"
#include "common/jail/uidpool.h"
#include "fuzz.h"

/* The line's number by an independent route: 64-bit, digits only, no
 * leading zero. 0 and *v, or -1. */
static int
model_number(const uint8_t *s, size_t n, uint32_t *v)
{
	uint64_t x = 0;

	if (n == 0 || n > 10 || (n > 1 && s[0] == '0'))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static void
check_entry(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct uidpool_entry e;
	size_t n;

	uidpool_entry_parse(buf, size, &e);
	n = e.line_len;
	FUZZ_ASSERT(n <= size && !memchr(buf, '\n', n));
	FUZZ_ASSERT(n == size || buf[n] == '\n');
	switch (e.kind) {
	case UIDPOOL_ENTRY_FREE:
		FUZZ_ASSERT(n == 4 && memcmp(buf, "free", 4) == 0);
		FUZZ_ASSERT(!e.name && e.name_len == 0);
		break;
	case UIDPOOL_ENTRY_REG:
		FUZZ_ASSERT(n >= 4 && memcmp(buf, "reg ", 4) == 0);
		FUZZ_ASSERT(e.name == buf + 4 && e.name_len == n - 4);
		break;
	case UIDPOOL_ENTRY_LEASE:
		FUZZ_ASSERT(n >= 6 && memcmp(buf, "lease ", 6) == 0);
		FUZZ_ASSERT(e.name == buf + 6 && e.name_len == n - 6);
		break;
	case UIDPOOL_ENTRY_STALE:
		FUZZ_ASSERT(!(n == 4 && memcmp(buf, "free", 4) == 0));
		FUZZ_ASSERT(!(n >= 4 && memcmp(buf, "reg ", 4) == 0));
		FUZZ_ASSERT(!(n >= 6 && memcmp(buf, "lease ", 6) == 0));
		FUZZ_ASSERT(!e.name && e.name_len == 0);
		break;
	default:
		FUZZ_ASSERT(0);
	}
}

static void
check_number(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	const uint8_t *nl = memchr(data, '\n', size);
	size_t n = nl ? (size_t)(nl - data) : size;
	uint32_t v = 0xdeadbeef, want;
	char text[16], line[UIDPOOL_ENTRY_SIZE];
	struct uidpool_entry e;

	if (decnum_parse(buf, size, &v) != 0) {
		FUZZ_ASSERT(v == 0xdeadbeef);	/* untouched on refusal */
		FUZZ_ASSERT(model_number(data, n, &want) != 0);
		return;
	}
	FUZZ_ASSERT(model_number(data, n, &want) == 0 && v == want);
	snprintf(text, sizeof text, "%u", v);
	FUZZ_ASSERT(strlen(text) == n && memcmp(text, buf, n) == 0);
	/* the cursor as unlock_cursor writes it, read back */
	FUZZ_ASSERT(uidpool_entry_format(line, text, NULL) == 0);
	FUZZ_ASSERT(decnum_parse(line, sizeof line, &want) == 0 &&
	    want == v);
	uidpool_entry_parse(line, sizeof line, &e);
	FUZZ_ASSERT(e.kind == UIDPOOL_ENTRY_STALE);
}

/* A name from the input (up to its first NUL, as a C string) formatted as
 * a lease and a registration entry, then parsed back. */
static void
check_format(const uint8_t *data, size_t size)
{
	static const char *const kinds[] = { "lease", "reg" };
	static const enum uidpool_entry_kind want[] = { UIDPOOL_ENTRY_LEASE,
		UIDPOOL_ENTRY_REG };
	char name[UIDPOOL_ENTRY_SIZE + 8], line[UIDPOOL_ENTRY_SIZE];
	const uint8_t *nul = memchr(data, '\0', size);
	size_t n = nul ? (size_t)(nul - data) : size;
	struct uidpool_entry e;

	if (n >= sizeof name)
		n = sizeof name - 1;
	memcpy(name, data, n);
	name[n] = '\0';
	for (size_t k = 0; k < 2; k++) {
		size_t klen = strlen(kinds[k]);
		int fits = klen + n + 2 < UIDPOOL_ENTRY_SIZE &&
		    !memchr(name, '\n', n);

		if (uidpool_entry_format(line, kinds[k], name) != 0) {
			FUZZ_ASSERT(!fits);
			continue;
		}
		FUZZ_ASSERT(fits);
		for (size_t i = klen + 1 + n + 1; i < sizeof line; i++)
			FUZZ_ASSERT(line[i] == ' ');
		uidpool_entry_parse(line, sizeof line, &e);
		FUZZ_ASSERT(e.kind == want[k] && e.name_len == n &&
		    memcmp(e.name, name, n) == 0);
	}
	FUZZ_ASSERT(uidpool_entry_format(line, "free", NULL) == 0);
	uidpool_entry_parse(line, sizeof line, &e);
	FUZZ_ASSERT(e.kind == UIDPOOL_ENTRY_FREE);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_entry(data, size);
	check_number(data, size);
	check_format(data, size);
	return 0;
}
