/* locktree_test.c - what a tree's files say, read back: the seal (its one
 * spelling; any other refused) and the tokens file (removable only when
 * every line is a token id and every id is revoked). The install, the
 * walk and the sweep run on real trees in test/lock.test. */
#include <stdlib.h>
#include <string.h>

#include "common/lock/locktree.h"
#include "common/policy/revocation.h"
#include "tap.h"

#define H1 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define H2 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define SEAL "airlock-tree 1\ncontent " H1 "\nstat " H2 "\n"

/* Token ids: AAAA... is 16 zero bytes, q83v... is ab cd ef 12 ... */
#define ID0 "AAAAAAAAAAAAAAAAAAAAAA"
#define ID1 "q83vEjRWeJCrze8SNFZ4kA"

static const char *const bad_seals[] = {
	"airlock-tree 1\ncontent " H1 "\nstat " H2,		/* no LF */
	"airlock-tree 1\ncontent " H1 "\nstat " H2 "\n\n",	/* one more */
	"airlock-tree 2\ncontent " H1 "\nstat " H2 "\n",
	"airlock-tree 1\ncontent " H1 "\nstat  " H2 "\n",
	"airlock-tree 1\nContent " H1 "\nstat " H2 "\n",
	"airlock-tree 1\ncontent " "0123456789ABCDEF0123456789abcdef"
	    "0123456789abcdef0123456789abcdef\nstat " H2 "\n",
	"airlock-tree 1\ncontent " H1 "\nstat " H2 "\r",
	"",
};

static int
tokens(const char *text, const struct revocation_set *s)
{
	return locktree_tokens_revoked((const uint8_t *)text, strlen(text), s);
}

int
main(void)
{
	uint8_t cd[32], sd[32], cd2[32], sd2[32], ids[2][16];
	char text[LOCKTREE_SEAL_LEN + 1];
	struct revocation_set none, one, both;

	ok(locktree_seal_parse(SEAL, strlen(SEAL), cd, sd) == 0 &&
	    cd[0] == 0x01 && cd[31] == 0xef && sd[0] == 0xfe && sd[31] == 0x10,
	    "a seal is read");
	ok(locktree_seal_text(cd, sd, text) == LOCKTREE_SEAL_LEN &&
	    strcmp(text, SEAL) == 0, "and written again byte for byte");
	for (size_t i = 0; i < 32; i++) {
		cd[i] = (uint8_t)(i * 7);
		sd[i] = (uint8_t)(255 - i);
	}
	locktree_seal_text(cd, sd, text);
	ok(locktree_seal_parse(text, LOCKTREE_SEAL_LEN, cd2, sd2) == 0 &&
	    memcmp(cd, cd2, 32) == 0 && memcmp(sd, sd2, 32) == 0,
	    "any two digests written are read back");
	for (size_t i = 0; i < sizeof bad_seals / sizeof *bad_seals; i++)
		ok(locktree_seal_parse(bad_seals[i], strlen(bad_seals[i]), cd,
		    sd) == -1, "another spelling refused: case %zu", i);

	memset(ids, 0, sizeof ids);
	memcpy(ids[1], "\xab\xcd\xef\x12\x34\x56\x78\x90\xab\xcd\xef\x12\x34"
	    "\x56\x78\x90", 16);
	memset(&none, 0, sizeof none);
	none.usable = 1;
	one = none;
	one.ids = ids;
	one.n = 1;
	both = one;
	both.n = 2;
	ok(tokens(ID0 "\n" ID1 "\n", &both) == 1,
	    "every id revoked: removable");
	ok(tokens(ID0 "\n", &one) == 1 && tokens(ID0 "\n" ID0 "\n", &one) == 1,
	    "one id, also twice");
	ok(tokens(ID0 "\n" ID1 "\n", &one) == 0, "one id not revoked: kept");
	ok(tokens("", &both) == 0, "no id: kept (nothing proves it unused)");
	ok(tokens(ID0, &both) == 0 && tokens(ID0 "\n" ID1, &both) == 0,
	    "a line without its LF: kept");
	ok(tokens(ID0 "\n\n", &both) == 0 && tokens(ID0 "A\n", &both) == 0,
	    "a blank or longer line: kept");
	ok(tokens("AAAAAAAAAAAAAAAAAAAAAB\n", &both) == 0,
	    "an id spelled with bits left over: kept");
	ok(tokens("AAAAAAAAAAAAAAAAAAAA+A\n", &both) == 0,
	    "an id outside the url alphabet: kept");
	ok(tokens(ID0 "\n", &none) == 0, "an empty list revokes nothing");
	return tap_done();
}
