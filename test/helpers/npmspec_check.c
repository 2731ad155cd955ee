/* npmspec_check.c - the guard's npm spec grammar as a filter, for
 * npmspec.test to hold against npm's own parser: one spec a line on
 * stdin (at most 4096 bytes; the line feed ends it), one line out each:
 * "ok NAME VERSION" (VERSION "-" when there is none) or "no". */
#include <stdio.h>
#include <string.h>

#include "common/policy/guard_npmspec.h"

int
main(void)
{
	static char line[4098];

	while (fgets(line, sizeof line, stdin)) {
		size_t n = strcspn(line, "\n"), name;
		const char *ver;

		if (line[n] != '\n') {
			fprintf(stderr, "npmspec_check: line too long\n");
			return 1;
		}
		line[n] = '\0';
		if (npmspec_refusal(line, &name, &ver))
			printf("no\n");
		else
			printf("ok %.*s %s\n", (int)name, line, ver ? ver : "-");
	}
	return ferror(stdin) ? 1 : 0;
}
