/* applets_test.c - the applet table is sorted and has no duplicates. */
#include <string.h>

#include "tap.h"

static const char *const names[] = {
#define APPLET(name, summary) #name,
#include "../../applets/applets.h"
#undef APPLET
	NULL
};

int
main(void)
{
	size_t n = 0;

	while (names[n])
		n++;
	for (size_t i = 0; i < n; i++)
		ok(strspn(names[i], "abcdefghijklmnopqrstuvwxyz") ==
		    strlen(names[i]) && names[i][0], "'%s' is a lower-case name",
		    names[i]);
	for (size_t i = 1; i < n; i++)
		ok(strcmp(names[i - 1], names[i]) < 0,
		    "'%s' sorts strictly before '%s'", names[i - 1], names[i]);
	return tap_done();
}
