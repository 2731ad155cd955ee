/* idfile_test.c - account ids inside a range in passwd/group text: the
 * third field only, canonical numbers only (no sign, space, leading zero
 * or wrap past 32 bits), lines without enough fields skipped, names cut
 * to the buffer, and a final line without '\n'. */
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
	return tap_done();
}
