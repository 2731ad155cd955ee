/* fuzz_pylock.c - the hash-pinned requirements reader under arbitrary
 * bytes. Invariants: an accepted file has 1..1024 distributions, each
 * with a name in PEP 503's normal form, a version and at least one hash,
 * their hashes inside the table; names are unique; the rendering parses
 * again to the same distributions and hashes (one spelling, no drift);
 * a refusal names its line. The same bytes cut at each NUL are an argv
 * for the command shape's reader: an accepted one is uvx's, its name
 * normal, its version and command set, its arguments inside argv. */
#include <stdlib.h>
#include <string.h>

#include "common/lock/pylock.h"
#include "fuzz.h"

static char out[PYLOCK_HASHES_MAX * 80 + PYLOCK_DISTS_MAX * 200];

static void
spec(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *argv[8];
	size_t argc = 0, at = 0;
	struct py_spec s;

	if (!copy)
		return;
	memcpy(copy, data, size);
	copy[size] = '\0';
	while (argc < 8 && at <= size) {
		argv[argc++] = copy + at;
		at += strlen(copy + at) + 1;
	}
	if (py_spec_parse((const char *const *)argv, argc, &s) == 0) {
		char norm[PYLOCK_NAME_MAX + 1];

		FUZZ_ASSERT(strcmp(argv[0], "uvx") == 0);
		FUZZ_ASSERT((s.args == 2 || s.args == 4) && s.args <= argc);
		FUZZ_ASSERT(s.version[0] && s.command[0]);
		FUZZ_ASSERT(py_name_normalise(s.name, strlen(s.name), norm,
		    sizeof norm) >= 0 && strcmp(norm, s.name) == 0);
	}
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct py_lock l, again;
	char err[256];
	long n;

	spec(data, size);
	if (py_lock_parse(data, size, &l, err, sizeof err) != 0) {
		FUZZ_ASSERT(strncmp(err, "line ", 5) == 0 && l.dist == NULL);
		return 0;
	}
	FUZZ_ASSERT(l.ndist >= 1 && l.ndist <= PYLOCK_DISTS_MAX &&
	    l.nhash <= PYLOCK_HASHES_MAX);
	for (size_t i = 0; i < l.ndist; i++) {
		const struct py_dist *d = &l.dist[i];
		char norm[PYLOCK_NAME_MAX + 1];

		FUZZ_ASSERT(d->nhash >= 1 && d->hash_first <= l.nhash &&
		    d->nhash <= l.nhash - d->hash_first);
		FUZZ_ASSERT(d->version[0] != '\0');
		FUZZ_ASSERT(py_name_normalise(d->name, strlen(d->name), norm,
		    sizeof norm) >= 0 && strcmp(norm, d->name) == 0);
		FUZZ_ASSERT(py_lock_find(&l, d->name, strlen(d->name)) == d);
	}
	n = py_lock_render(&l, out, sizeof out);
	FUZZ_ASSERT(n > 0);
	FUZZ_ASSERT(py_lock_parse((const uint8_t *)out, (size_t)n, &again,
	    err, sizeof err) == 0);
	FUZZ_ASSERT(again.ndist == l.ndist && again.nhash == l.nhash &&
	    memcmp(again.dist, l.dist, l.ndist * sizeof *l.dist) == 0 &&
	    memcmp(again.hash, l.hash, l.nhash * sizeof *l.hash) == 0);
	py_lock_free(&again);
	py_lock_free(&l);
	return 0;
}
