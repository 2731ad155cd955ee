/* fuzz_guard_policy.c - the guard's operator lists (common/policy/
 * guard_policy.c) under arbitrary bytes: the runner's --allow, and
 * --script-dir, --allow-index, --allow-module values. The first byte
 * picks the call (--allow, or a list to add to), the rest is the text.
 * Invariants: a refusal leaves the policy as it was and gives a reason;
 * an accepted --allow holds exactly the launchers named (each a word of
 * the text, each known); an accepted script dir is absolute, without
 * "//", "/./", "/../" or a trailing "/", and outside the system
 * directories; an accepted index or module is printable ASCII without
 * spaces; no list grows past its size. */
#include <string.h>

#include "common/policy/guard_policy.h"
#include "fuzz.h"

static struct guard_policy pol;	/* lists grow across inputs, to full */
static char text[GUARD_ITEM_MAX + 64];
static char kept[GUARD_LIST_MAX * 3][GUARD_ITEM_MAX + 64];
static size_t nkept;

/* The launcher bits the words of s name, or -1 for an unknown word. */
static long
named_bits(const char *s)
{
	unsigned bits = 0;

	while (*s) {
		char word[32];
		size_t n;
		unsigned b;

		s += strspn(s, ", \t");
		n = strcspn(s, ", \t");
		if (n == 0)
			break;
		if (n >= sizeof word)
			return -1;
		memcpy(word, s, n);
		word[n] = '\0';
		if (!(b = guard_policy_launcher(word)))
			return -1;
		bits |= b;
		s += n;
	}
	return bits;
}

static int
printable_word(const char *s)
{
	for (; *s; s++)
		if (*s <= ' ' || *s > '~')
			return 0;
	return 1;
}

/* s is dir or below it */
static int
within(const char *s, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(s, dir, n) == 0 && (s[n] == '\0' || s[n] == '/');
}

static int
canonical_abs(const char *s)
{
	size_t n = strlen(s);

	return s[0] == '/' && n > 1 && s[n - 1] != '/' && !strstr(s, "//") &&
	    !strstr(s, "/./") && !strstr(s, "/../") &&
	    strcmp(s + n - 2, "/.") != 0 &&
	    (n < 3 || strcmp(s + n - 3, "/..") != 0) &&
	    !within(s, "/usr") && !within(s, "/etc") && !within(s, "/proc");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct guard_policy before;
	const char *why = NULL;
	unsigned op;
	size_t n;

	if (size < 1)
		return 0;
	if (!pol.launchers || nkept == sizeof kept / sizeof *kept) {
		guard_policy_default(&pol);
		nkept = 0;
	}
	op = data[0] & 3;
	n = size - 1 < sizeof text - 1 ? size - 1 : sizeof text - 1;
	memcpy(text, data + 1, n);
	text[n] = '\0';
	before = pol;
	if (op == 3) {
		long want = named_bits(text);

		if (guard_policy_parse(&pol, text) != 0) {
			FUZZ_ASSERT(memcmp(&before, &pol, sizeof pol) == 0);
			FUZZ_ASSERT(want <= 0);
		} else
			FUZZ_ASSERT(want > 0 && pol.launchers == (unsigned)want);
		return 0;
	}
	/* the policy keeps the caller's string: one of ours that lasts */
	memcpy(kept[nkept], text, n + 1);
	if (guard_policy_add(&pol, (enum guard_list)op, kept[nkept],
	    &why) != 0) {
		FUZZ_ASSERT(why && *why);
		FUZZ_ASSERT(memcmp(&before, &pol, sizeof pol) == 0);
		return 0;
	}
	nkept++;
	FUZZ_ASSERT(strlen(text) <= GUARD_ITEM_MAX);
	FUZZ_ASSERT(op == GUARD_SCRIPT_DIR ? canonical_abs(text) :
	    printable_word(text));
	FUZZ_ASSERT(pol.nscript_dirs <= GUARD_LIST_MAX &&
	    pol.nindexes <= GUARD_LIST_MAX && pol.nmodules <= GUARD_LIST_MAX);
	return 0;
}
