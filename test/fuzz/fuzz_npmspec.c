/* fuzz_npmspec.c - the guard's npm spec grammar over arbitrary bytes (a
 * NUL ends the spec). Invariants of an accepted spec: it holds none of the
 * bytes by which npm-package-arg turns a spec into a file, URL, git
 * repository or alias (':' '#' '%', white space, non-ASCII, a '/' but a
 * scope's), it ends in no tarball suffix, the name is [@scope/]name of at
 * most 214 bytes and the version follows its '@'; an exact version is
 * three numbers and a prerelease. A refusal says why in printable text. */
#include <string.h>

#include "common/policy/guard_npmspec.h"
#include "fuzz.h"

static char spec[4097];

static int
ends_ci(const char *s, size_t n, const char *end)
{
	size_t m = strlen(end);

	if (n < m)
		return 0;
	for (size_t i = 0; i < m; i++) {
		char c = s[n - m + i];

		if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != end[i])
			return 0;
	}
	return 1;
}

static void
check_accepted(const char *s, size_t len, size_t name, const char *ver)
{
	const char *slash = strchr(s, '/');

	for (size_t i = 0; i < len; i++)
		FUZZ_ASSERT(s[i] > 0x20 && s[i] < 0x7f && !strchr(":#%", s[i]));
	FUZZ_ASSERT(s[0] != '.' && s[0] != '/' && s[0] != '~');
	FUZZ_ASSERT(!ends_ci(s, len, ".tgz") && !ends_ci(s, len, ".tar") &&
	    !ends_ci(s, name, ".tgz") && !ends_ci(s, name, ".tar"));
	FUZZ_ASSERT(name > 0 && name <= 214 && name <= len);
	if (slash)	/* the scope's, and no other */
		FUZZ_ASSERT(s[0] == '@' && slash < s + name &&
		    !strchr(slash + 1, '/'));
	FUZZ_ASSERT(!memchr(s + 1, '@', name - 1));
	if (!ver) {
		FUZZ_ASSERT(name == len);
		return;
	}
	FUZZ_ASSERT(s[name] == '@' && ver == s + name + 1 && *ver != '\0');
	FUZZ_ASSERT(!strchr(ver, '@'));
	if (npmspec_exact(ver))
		FUZZ_ASSERT(ver[0] >= '0' && ver[0] <= '9' &&
		    strspn(ver, "0123456789.") >= 5);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len, name = 0;
	const char *ver = NULL, *why;

	if (size >= sizeof spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	len = strlen(spec);
	why = npmspec_refusal(spec, &name, &ver);
	if (why) {
		FUZZ_ASSERT(*why != '\0');
		for (; *why; why++)
			FUZZ_ASSERT(*why >= 0x20 && *why < 0x7f);
		return 0;
	}
	check_accepted(spec, len, name, ver);
	/* no hidden state: the same spec gives the same answer */
	FUZZ_ASSERT(npmspec_refusal(spec, &name, &ver) == NULL);
	return 0;
}
