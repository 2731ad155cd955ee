/* fuzz_guard.c - the launcher guard over arbitrary argv. Input: one byte
 * choosing the policy (bits 0-5 the launchers, 0 for the default; bit 6
 * the operator lists: script dir /srv, index https://pypi.org/simple,
 * module m), then words separated by '\n' (a NUL inside a word just ends
 * that C string). Both checks and the normalised text run; their results
 * must be in range, consistent with each other, repeatable and printable,
 * and an accepted script must be a canonical path below /srv. */
#include <string.h>

#include "common/policy/guard.h"
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

/* A script the guard accepted: inside argv, canonical, below /srv. */
static void
check_scripts(const struct guard_result *r, size_t argc, int lists)
{
	FUZZ_ASSERT(r->nscripts <= GUARD_SCRIPTS_MAX);
	FUZZ_ASSERT(lists || r->nscripts == 0);
	for (size_t k = 0; k < r->nscripts; k++) {
		const char *p;

		FUZZ_ASSERT(r->scripts[k].index < argc);
		FUZZ_ASSERT(r->scripts[k].offset <
		    strlen(words[r->scripts[k].index]));
		p = words[r->scripts[k].index] + r->scripts[k].offset;
		FUZZ_ASSERT(strncmp(p, "/srv/", 5) == 0 && p[5] != '\0');
		FUZZ_ASSERT(!strstr(p, "//") && !strstr(p, "/./") &&
		    !strstr(p, "/../") && p[strlen(p) - 1] != '/');
		FUZZ_ASSERT(strcmp(p + strlen(p) - 2, "/.") != 0 &&
		    strcmp(p + strlen(p) - 3, "/..") != 0);
	}
}

/* The normalised text: the same verdict, printable, one line. */
static void
check_normalised(const struct guard_policy *pp, size_t argc,
    enum guard_verdict v)
{
	static char out[1 << 18];
	struct guard_result r;
	enum guard_verdict n;

	n = guard_normalised(pp, words, argc, out, sizeof out, &r);
	FUZZ_ASSERT(n == v);
	if (n != GUARD_OK) {
		FUZZ_ASSERT(out[0] == '\0');
		return;
	}
	FUZZ_ASSERT(out[0] != '\0');
	for (const char *s = out; *s; s++)
		FUZZ_ASSERT(*s >= 0x20 && *s < 0x7f);
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
	/* index options uvx reads as its own when they come first */
	static const char *const uv_index[] = { "--index", "--index-url",
		"-i", "--extra-index-url", "--default-index", "--find-links",
		"-f", NULL };
	struct guard_policy pol;
	const char *why;
	int lists = (data[0] & 0x40) != 0;
	const struct guard_policy *pp = NULL;
	struct guard_result r1, r2, r3;
	enum guard_verdict v, w;
	size_t argc = 0, i;

	if (size < 1 || size > sizeof buf)
		return 0;
	if (data[0] & 0x7f) {
		guard_policy_default(&pol);
		if (data[0] & 0x3f)
			pol.launchers = data[0] & 0x3f;
		if (lists)
			FUZZ_ASSERT(guard_policy_add(&pol, GUARD_SCRIPT_DIR,
			    "/srv", &why) == 0 && guard_policy_add(&pol,
			    GUARD_INDEX, "https://pypi.org/simple", &why) ==
			    0 && guard_policy_add(&pol, GUARD_MODULE, "m",
			    &why) == 0);
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
		if (!lists && strcmp(words[0], "uvx") == 0)
			FUZZ_ASSERT(!is_any(words[1], uv_index) &&
			    strncmp(words[1], "--index", 7) != 0);
		if (!lists && strcmp(words[0], "npx") == 0)
			FUZZ_ASSERT(strncmp(words[1], "--registry", 10) != 0);
	}
	check_scripts(&r1, argc, lists);
	check_normalised(pp, argc, v);

	w = guard_check_pinned(pp, words, argc, &r2);
	check_result(&r2, w, argc);
	if (v != GUARD_OK)
		FUZZ_ASSERT(w == v && r2.index == r1.index &&
		    strcmp(r1.reason, r2.reason) == 0);
	else
		FUZZ_ASSERT(w == GUARD_OK || w == GUARD_UNPINNED ||
		    w == GUARD_NOT_PACKAGE);
	/* without the operator's scripts and modules only packages pin */
	if (w == GUARD_OK && !lists)
		FUZZ_ASSERT(is_any(words[0], pinnable));

	/* no hidden state: the same input gives the same answer */
	FUZZ_ASSERT(guard_check(pp, words, argc, &r3) == v &&
	    r3.index == r1.index && strcmp(r3.reason, r1.reason) == 0);
	return 0;
}
