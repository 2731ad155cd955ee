/* fuzz_lockread.c - a command's lock read back (common/lock/lockread.c,
 * lockread_parse: what lockread_load does with the bytes a lock store
 * gave) under arbitrary bytes. The input is a command and a lock: its
 * first byte the number of words (1..8), that many NUL-ended words, then
 * the lock's text. Invariants: the command's shape alone picks the kind
 * (lock_kind_of), and its format is JSON for npm, requirements for
 * Python; a command of no kind is refused whatever the text; the text is
 * accepted exactly when its kind's own reader takes it as the lock of
 * that command (npm_lock_parse; py_lock_parse and py_lock_top), and then
 * the bytes are held as given and the lock is the command's own
 * package: npm's entry of NAME at VERSION, Python's distribution of NAME
 * at VERSION; a refusal says why and holds nothing. */
#include <stdlib.h>
#include <string.h>

#include "common/lock/lockread.h"
#include "fuzz.h"

#define WORDS_MAX 8

/* The kind's own reader on the same bytes: 1 when it takes them. */
static int
taken_alone(enum lock_kind k, const char *const *argv, size_t argc,
    const uint8_t *text, size_t len)
{
	char err[256];
	int ok = 0;

	if (k == LOCK_KIND_NPM) {
		struct npm_spec s;
		struct npm_lock l;

		if (npm_spec_parse(argv, argc, &s) == 0 &&
		    npm_lock_parse(text, len, &s, &l, err, sizeof err) == 0) {
			ok = 1;
			npm_lock_free(&l);
		}
	} else if (k == LOCK_KIND_PY) {
		struct py_spec s;
		struct py_lock l;

		if (py_spec_parse(argv, argc, &s) == 0 &&
		    py_lock_parse(text, len, &l, err, sizeof err) == 0) {
			ok = py_lock_top(&l, &s, err, sizeof err) != NULL;
			py_lock_free(&l);
		}
	}
	return ok;
}

static void
check_own(const struct lockread *r)
{
	if (r->kind == LOCK_KIND_NPM) {
		const struct npm_pkg *p = &r->npm.pkg[r->npm.top];
		size_t n = strlen(r->npm_spec.name);

		FUZZ_ASSERT(r->npm.top < r->npm.npkg);
		FUZZ_ASSERT(p->name_len == n && memcmp(p->name,
		    r->npm_spec.name, n) == 0);
		FUZZ_ASSERT(p->version_len == strlen(r->npm_spec.version) &&
		    memcmp(p->version, r->npm_spec.version,
		    p->version_len) == 0);
		/* every pointer of the lock is into the held text */
		FUZZ_ASSERT((const uint8_t *)p->path >= r->text &&
		    (const uint8_t *)p->path + p->path_len <= r->text + r->len);
	} else {
		FUZZ_ASSERT(r->kind == LOCK_KIND_PY && r->py_top != NULL);
		FUZZ_ASSERT(r->py_top >= r->py.dist &&
		    r->py_top < r->py.dist + r->py.ndist);
		FUZZ_ASSERT(strcmp(r->py_top->name, r->py_spec.name) == 0 &&
		    strcmp(r->py_top->version, r->py_spec.version) == 0);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char words[WORDS_MAX * 300];
	const char *argv[WORDS_MAX];
	struct lockread r;
	enum lock_kind kind;
	enum lockread_result rc;
	size_t argc, at = 1, used = 0;
	uint8_t *text;
	char err[512];
	int alone;

	if (size < 1)
		return 0;
	argc = (size_t)(data[0] % WORDS_MAX) + 1;
	for (size_t i = 0; i < argc; i++) {
		const uint8_t *end = at < size ? memchr(data + at, '\0',
		    size - at) : NULL;
		size_t n = end ? (size_t)(end - (data + at)) : 0;

		if (!end || n >= sizeof words - used)
			return 0;
		memcpy(words + used, data + at, n + 1);
		argv[i] = words + used;
		used += n + 1;
		at += n + 1;
	}
	kind = lock_kind_of(argv, argc);
	FUZZ_ASSERT(lock_kind_format(kind) == (kind == LOCK_KIND_PY ?
	    LOCK_REQUIREMENTS : LOCK_JSON));
	alone = taken_alone(kind, argv, argc, data + at, size - at);
	/* exactly the text's bytes, so that ASan sees any read past them */
	if (!(text = malloc(size - at ? size - at : 1)))
		return 0;
	memcpy(text, data + at, size - at);
	rc = lockread_parse(text, size - at, argv, argc, &r, err, sizeof err);
	if (rc != LOCKREAD_OK) {
		FUZZ_ASSERT(rc == LOCKREAD_BAD && err[0] && !alone);
		FUZZ_ASSERT(r.text == NULL && r.kind == LOCK_KIND_NONE &&
		    r.npm.pkg == NULL && r.py.dist == NULL);
		return 0;
	}
	FUZZ_ASSERT(alone && kind != LOCK_KIND_NONE && r.kind == kind);
	FUZZ_ASSERT(r.text == text && r.len == size - at);
	FUZZ_ASSERT(memcmp(r.text, data + at, r.len) == 0);
	check_own(&r);
	lockread_free(&r);
	FUZZ_ASSERT(r.text == NULL && r.kind == LOCK_KIND_NONE);
	return 0;
}
