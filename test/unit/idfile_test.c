/* idfile_test.c - account ids inside a range in passwd/group text: the
 * third field only, canonical numbers only (no sign, space, leading zero
 * or wrap past 32 bits), lines without enough fields skipped, names cut
 * to the buffer, and a final line without '\n'; subordinate id ranges
 * that overlap the range at any id. */
#include <string.h>

#include "common/base/idfile.h"
#include "tap.h"

struct id_case {
	const char *text;
	uint32_t first, last;
	int found;
	uint32_t id;
	const char *name;
};

struct sub_case {
	const char *text;
	uint32_t first, last;
	int found;
	uint32_t start, count;
};

/* subuid/subgid: "owner:START:COUNT", any overlap, edges exact, no wrap */
static void
subids(void)
{
	static const struct sub_case cases[] = {
		{ "alice:100000:65536\n", 100000, 100999, 1, 100000, 65536 },
		{ "alice:100000:65536\n", 165535, 170000, 1, 100000, 65536 },
		{ "alice:100000:65536\n", 165536, 170000, 0, 0, 0 },
		{ "alice:100000:65536\n", 1, 99999, 0, 0, 0 },
		{ "alice:100000:1\n", 99000, 100000, 1, 100000, 1 },
		{ "alice:100000:0\n", 100000, 100000, 0, 0, 0 },
		{ "a:1:1\nb:500:10\n", 505, 505, 1, 500, 10 },
		{ "1000:200:10", 205, 300, 1, 200, 10 },	/* uid owner */
		{ "a:4294967295:4294967295\n", 4294967295u, 4294967295u, 1,
		  4294967295u, 4294967295u },	/* no wrap past 32 bits */
		{ "a:4294967295:2\n", 0, 10, 0, 0, 0 },
		{ "a:0100:10\n", 100, 200, 0, 0, 0 },	/* leading zero */
		{ "a:100:+10\n", 100, 200, 0, 0, 0 },
		{ "a:100\n", 100, 200, 0, 0, 0 },
		{ "a:x:100:10\n", 100, 200, 0, 0, 0 },	/* passwd-like */
		{ "", 1, 10, 0, 0, 0 },
	};
	char name[8];
	uint32_t start, count;

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct sub_case *c = &cases[i];
		int got;

		start = count = 7777;
		got = idfile_find_subid_overlap(c->text, strlen(c->text),
		    c->first, c->last, &start, &count, name, sizeof name);
		ok(got == c->found && (!got || (start == c->start &&
		    count == c->count)), "subid case %zu: range %u-%u", i,
		    c->first, c->last);
	}
}

int
main(void)
{
	static const struct id_case cases[] = {
		{ "root:x:0:0::/root:/bin/sh\n", 1, 10, 0, 0, "" },
		{ "root:x:0:0::/root:/bin/sh\ndaemon:x:1:1::/:/bin/false\n",
		  1, 10, 1, 1, "daemon" },
		{ "a:x:99:1\nb:x:100:1\n", 100, 200, 1, 100, "b" },
		{ "a:x:201:1\n", 100, 200, 0, 0, "" },
		{ "a:x:150", 100, 200, 1, 150, "a" },	/* no newline */
		{ "a:x:0150:1\n", 100, 200, 0, 0, "" },	/* leading zero */
		{ "a:x:+150:1\n", 100, 200, 0, 0, "" },
		{ "a:x: 150:1\n", 100, 200, 0, 0, "" },
		{ "a:x:4294967446:1\n", 100, 200, 0, 0, "" }, /* wraps to 150 */
		{ "a:150:x:1\n", 100, 200, 0, 0, "" },	/* second field */
		{ "a:x\n150\n", 100, 200, 0, 0, "" },
		{ "::150:\n", 100, 200, 1, 150, "" },	/* empty name */
		{ "users:x:100:alice,bob\n", 100, 100, 1, 100, "users" },
		{ "", 1, 10, 0, 0, "" },
		{ "\n\n\n", 1, 10, 0, 0, "" },
	};
	char name[8];
	uint32_t id;

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct id_case *c = &cases[i];
		int got;

		id = 7777;
		name[0] = '\0';
		got = idfile_find_in_range(c->text, strlen(c->text), c->first,
		    c->last, &id, name, sizeof name);
		ok(got == c->found && (!got || (id == c->id &&
		    strcmp(name, c->name) == 0)), "case %zu: range %u-%u",
		    i, c->first, c->last);
	}
	ok(idfile_find_in_range("a-very-long-name:x:5:5\n", 23, 1, 9, &id,
	    name, sizeof name) == 1 && strcmp(name, "a-very-") == 0,
	    "a long name is cut to the buffer, NUL-terminated");
	ok(idfile_find_in_range("a:x:5:5\n", 3, 1, 9, &id, name,
	    sizeof name) == 0, "only len bytes are read");
	subids();
	return tap_done();
}
