/* version.h - which versions of the lease protocol a peer speaks, and the
 * one unauthenticated word a runner says about them.
 *
 * A version is its Noise prologue ("airlock/V Noise_NNpsk0_25519_
 * ChaChaPoly_SHA256"): a relay speaks one; a runner accepts a set and
 * reads msg1 with each of its prologues in turn. When no (version, secret)
 * pair authenticates a whole msg1, the runner answers one record before it
 * closes, the versions hint:
 *
 *     "airlock/versions:" V ("," V)*     V: 1..31, decimal, ascending
 *
 * so the relay can tell a wrong secret (its version is in the list) from a
 * version mismatch (it is not) and name both versions. The hint says
 * nothing a peer could not learn from the runner's source; it carries no
 * secret-dependent byte. */
#ifndef AIRLOCK_VERSION_H
#define AIRLOCK_VERSION_H

#include <stddef.h>
#include <stdint.h>

#define VERSION_CURRENT 2		/* what this build speaks */
#define VERSION_ACCEPTED (1u << 1 | 1u << 2)	/* what a runner of this build
					 * takes: its own and the one before */
#define VERSION_MAX 31
#define VERSION_HINT_PREFIX "airlock/versions:"
#define VERSION_HINT_MAX 96
#define VERSION_PROLOGUE_MAX 80

/* A prologue may carry one word after the version ("airlock/2 python
 * Noise_NNpsk0_25519_ChaChaPoly_SHA256"): a sandbox client names its
 * tool's language, and the service's pre-auth process learns it from
 * which prologue authenticated msg1, reading no byte of the client's. A
 * service accepts the plain prologue too, and at most VERSION_WORDS_MAX
 * words; a word is 1..VERSION_WORD_MAX lower-case letters. */
#define VERSION_WORDS_MAX 4
#define VERSION_WORD_MAX 16

/* The prologue of version v (1..VERSION_MAX), with word (NULL: none),
 * into buf: its length (no NUL counted), or 0 when v is out of range,
 * word is not a word or cap too small. */
size_t version_prologue(unsigned v, const char *word, char *buf, size_t cap);

/* The hint for the versions of mask (bit v set: version v) into buf: its
 * length, or 0 when mask is empty or cap too small. */
size_t version_hint_encode(uint32_t mask, uint8_t *buf, size_t cap);

/* Parse a hint from untrusted bytes: 0 and *mask, or -1 for anything but
 * the exact grammar above (no spaces, no leading zeros, no repeats). */
int version_hint_parse(const uint8_t *p, size_t n, uint32_t *mask);

/* "1", "1,2" ...: the versions of mask as text into buf (for messages). */
void version_list_text(uint32_t mask, char *buf, size_t cap);

/* "1,2": a version list, as the hint's (ascending, no repeats). NULL or
 * "" leaves *mask; 0, or -1 for anything malformed. */
int version_list_parse(const char *s, uint32_t *mask);

/* The test hook AIRLOCK_TEST_PROTOCOL_VERSIONS=LIST (a runner accepts
 * LIST, a relay speaks its lowest): 1 and *mask when set, 0 when unset,
 * -1 when malformed. It only ever narrows or shifts what a peer speaks,
 * for the version tests; callers announce it loudly. */
#define VERSION_TEST_HOOK "AIRLOCK_TEST_PROTOCOL_VERSIONS"
int version_test_hook(uint32_t *mask);

/* The test hook AIRLOCK_TEST_PROLOGUE_WORD=WORD|none: a sandbox client
 * says WORD (or none) whatever its tool's language, and a service given
 * "none" accepts no word, as an older build: 1 and *word (NULL for none)
 * when set, 0 when unset, -1 when it is neither "none" nor a word. It
 * only changes which warm slot a call reaches, never what runs; callers
 * announce it loudly. */
#define VERSION_WORD_HOOK "AIRLOCK_TEST_PROLOGUE_WORD"
int version_word_hook(const char **word);

#endif
