/* version_test.c - protocol versions: prologues, the versions hint's one
 * spelling (every way off it refused), the list text and the test hook's
 * list grammar. */
#include <stdlib.h>
#include <string.h>

#include "common/wire/noise.h"
#include "common/wire/version.h"
#include "tap.h"

int
main(void)
{
	static const char *const bad[] = {
		"airlock/versions:", "airlock/versions:0", "airlock/versions:01",
		"airlock/versions:32", "airlock/versions:2,1",
		"airlock/versions:1,1", "airlock/versions:1,", "airlock/versions:,1",
		"airlock/versions: 1", "airlock/versions:1 ", "airlock/versions:+1",
		"airlock/versions:1;2", "Airlock/versions:1", "airlock/version:1",
		"airlock/versions:1000", "",
	};
	char buf[VERSION_PROLOGUE_MAX], text[VERSION_HINT_MAX];
	uint8_t hint[VERSION_HINT_MAX];
	uint32_t mask;
	size_t n;

	n = version_prologue(1, NULL, buf, sizeof buf);
	ok(n == NOISE_PROLOGUE_LEN && memcmp(buf, NOISE_PROLOGUE, n) == 0,
	    "version 1's prologue is the one the Noise vectors use");
	n = version_prologue(VERSION_CURRENT, NULL, buf, sizeof buf);
	ok(VERSION_CURRENT == 2 && n == NOISE_PROLOGUE_LEN &&
	    memcmp(buf, "airlock/2 Noise_NNpsk0_25519_ChaChaPoly_SHA256", n) ==
	    0, "this build speaks version 2: its prologue differs only in V");
	ok(VERSION_ACCEPTED == ((1u << 1) | (1u << 2)),
	    "a runner of this build accepts its version and the one before");
	ok(version_prologue(0, NULL, buf, sizeof buf) == 0 &&
	    version_prologue(32, NULL, buf, sizeof buf) == 0 &&
	    version_prologue(1, NULL, buf, 10) == 0, "no prologue out of range");
	n = version_prologue(2, "python", buf, sizeof buf);
	ok(n == 53 && memcmp(buf, "airlock/2 python Noise_NNpsk0_25519_"
	    "ChaChaPoly_SHA256", n) == 0, "a word follows the version");
	ok(version_prologue(2, "java", buf, sizeof buf) == 51 &&
	    version_prologue(2, "abcdefghijklmnop", buf, sizeof buf) == 63,
	    "words of 4 and of VERSION_WORD_MAX letters");
	ok(version_prologue(2, "", buf, sizeof buf) == 0 &&
	    version_prologue(2, "abcdefghijklmnopq", buf, sizeof buf) == 0 &&
	    version_prologue(2, "py thon", buf, sizeof buf) == 0 &&
	    version_prologue(2, "Python", buf, sizeof buf) == 0 &&
	    version_prologue(2, "2", buf, sizeof buf) == 0 &&
	    version_prologue(2, "java Noise", buf, sizeof buf) == 0,
	    "no empty, long, spaced, upper-case or digit word");
	ok(version_prologue(31, "abcdefghijklmnop", buf, sizeof buf) == 64,
	    "the longest prologue fits VERSION_PROLOGUE_MAX");
	n = version_hint_encode((1u << 1) | (1u << 2) | (1u << 31), hint,
	    sizeof hint);
	ok(n == 23 && memcmp(hint, "airlock/versions:1,2,31", n) == 0,
	    "the hint lists the versions ascending");
	ok(version_hint_parse(hint, n, &mask) == 0 &&
	    mask == ((1u << 1) | (1u << 2) | (1u << 31)), "and parses back");
	ok(version_hint_encode(0, hint, sizeof hint) == 0 &&
	    version_hint_encode(1, hint, sizeof hint) == 0,
	    "no hint for an empty set (version 0 does not exist)");
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ok(version_hint_parse((const uint8_t *)bad[i], strlen(bad[i]),
		    &mask) == -1, "hint '%s' refused", bad[i]);
	ok(version_hint_parse((const uint8_t *)"airlock/versions:1\0", 19,
	    &mask) == -1, "an embedded NUL is refused");
	version_list_text((1u << 1) | (1u << 3), text, sizeof text);
	ok(strcmp(text, "1,3") == 0, "list text");
	mask = 77;
	ok(version_list_parse("", &mask) == 0 && mask == 77 &&
	    version_list_parse("2,5", &mask) == 0 &&
	    mask == ((1u << 2) | (1u << 5)) &&
	    version_list_parse("5,2", &mask) == -1, "the hook's list");
	unsetenv(VERSION_TEST_HOOK);
	ok(version_test_hook(&mask) == 0, "the hook unset");
	setenv(VERSION_TEST_HOOK, "1,x", 1);
	ok(version_test_hook(&mask) == -1, "a malformed hook");
	return tap_done();
}
