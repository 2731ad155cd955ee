/* fuzz_guard.c - the launcher guard over arbitrary argv. Input: one byte
 * choosing the policy, then words separated by '\n' (a NUL inside a word
 * just ends that C string). Both checks run; their results must be in
 * range, consistent with each other, repeatable, and printable. */
#include <string.h>

#include "common/guard.h"
#include "fuzz.h"

#define WORDS_MAX (GUARD_ARGC_MAX + 8)

static char buf[1 << 17];
static const char *words[WORDS_MAX];

static void
check_result(const struct guard_result *r, enum guard_verdict v,
    size_t argc)
{
	size_t n = strnlen(r->reason, GUARD_REASON_MAX);

	FUZZ_ASSERT(r->verdict == v);
	FUZZ_ASSERT((unsigned)v < GUARD_VERDICT_COUNT);
	FUZZ_ASSERT(argc == 0 ? r->index == 0 : r->index < argc);
	FUZZ_ASSERT(n > 0 && n < GUARD_REASON_MAX);
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT(r->reason[i] >= 0x20 && r->reason[i] < 0x7f);
}

static int
is_any(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* first arguments that can never pass, per launcher */
	static const char *const node_never[] = { "-e", "-p", "-pe",
		"--eval", "--print", "-i", "--interactive", "-", "--",
		"--inspect", "--inspect-brk", "inspect", NULL };
	static const char *const python_never[] = { "-c", "-i", "-", "-Ic",
		"-m", "--", NULL };
	static const char *const npx_never[] = { "-c", "--call", "-", NULL };
	static const char *const pinnable[] = { "npx", "uvx", "uv", NULL };
	struct guard_policy pol;
	const struct guard_policy *pp = NULL;
	struct guard_result r1, r2, r3;
	enum guard_verdict v, w;
	size_t argc = 0, i;

	if (size < 1 || size > sizeof buf)
		return 0;
	if (data[0] & 0x3f) {
		pol.launchers = data[0] & 0x3f;
		pp = &pol;
	}
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	if (size > 1) {
		words[argc++] = buf;
		for (i = 0; i < size - 1 && argc < WORDS_MAX; i++)
			if (buf[i] == '\n') {
				buf[i] = '\0';
				words[argc++] = buf + i + 1;
			}
	}

	v = guard_check(pp, words, argc, &r1);
	check_result(&r1, v, argc);
	FUZZ_ASSERT(v != GUARD_UNPINNED && v != GUARD_NOT_PACKAGE);
	if (v == GUARD_OK) {
		/* every launcher needs something to run, and no argv whose
		 * first argument is inline code or stdin can pass */
		FUZZ_ASSERT(argc >= 2 && argc <= GUARD_ARGC_MAX);
		FUZZ_ASSERT(words[0][0] != '\0' && !strchr(words[0], '/'));
		if (strcmp(words[0], "node") == 0)
			FUZZ_ASSERT(!is_any(words[1], node_never) ||
			    (strcmp(words[1], "--") == 0 && argc > 2));
		if (strncmp(words[0], "python", 6) == 0)
			FUZZ_ASSERT(!is_any(words[1], python_never) ||
			    (strcmp(words[1], "-m") == 0 && argc > 2) ||
			    (strcmp(words[1], "--") == 0 && argc > 2));
		if (strcmp(words[0], "npx") == 0)
			FUZZ_ASSERT(!is_any(words[1], npx_never));
	}

	w = guard_check_pinned(pp, words, argc, &r2);
	check_result(&r2, w, argc);
	if (v != GUARD_OK)
		FUZZ_ASSERT(w == v && r2.index == r1.index &&
		    strcmp(r1.reason, r2.reason) == 0);
	else
		FUZZ_ASSERT(w == GUARD_OK || w == GUARD_UNPINNED ||
		    w == GUARD_NOT_PACKAGE);
	if (w == GUARD_OK)
		FUZZ_ASSERT(is_any(words[0], pinnable));

	/* no hidden state: the same input gives the same answer */
	FUZZ_ASSERT(guard_check(pp, words, argc, &r3) == v &&
	    r3.index == r1.index && strcmp(r3.reason, r1.reason) == 0);
	return 0;
}
