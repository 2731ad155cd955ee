/* jail_options.c - the jail options' spellings (jail_options.h). */
#include "common/jail/jail_options.h"

#include <string.h>

/* s's index in names, or -1 when it is none of them. */
static int
name_index(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

/* jail_KIND_name and jail_KIND_parse for an option's enum, from one
 * table of its spellings indexed by value; a value out of range reads
 * as 0, the default. */
#define OPTION_NAMES(kind, type, ...)					\
	static const char *const kind##_names[] = { __VA_ARGS__ };	\
	enum { kind##_count = sizeof kind##_names / sizeof *kind##_names }; \
									\
	const char *							\
	jail_##kind##_name(type v)					\
	{								\
		return kind##_names[(unsigned)v < kind##_count ? v : 0]; \
	}								\
									\
	int								\
	jail_##kind##_parse(const char *s, type *v)			\
	{								\
		int i = name_index(s, kind##_names, kind##_count);	\
									\
		if (i < 0)						\
			return -1;					\
		*v = (type)i;						\
		return 0;						\
	}

OPTION_NAMES(mode, enum jail_mode,
    [JAIL_NONE] = "none", [JAIL_UID] = "uid", [JAIL_NS] = "ns")
OPTION_NAMES(unit, enum jail_unit,
    [JAIL_UNIT_REGISTRATION] = "registration", [JAIL_UNIT_LEASE] = "lease")
OPTION_NAMES(landlock, enum jail_landlock,
    [JAIL_LANDLOCK_AUTO] = "auto", [JAIL_LANDLOCK_REQUIRE] = "require",
    [JAIL_LANDLOCK_OFF] = "off")

long
jail_ports_parse(const char *s, uint16_t *ports, size_t cap)
{
	size_t n = 0;

	/* one spelling only: digits without a leading zero, one comma
	 * between ports, no repeat (strtoul would also take " 80", "+80") */
	for (;;) {
		unsigned long v = 0;
		int digits = 0;

		if (*s < '1' || *s > '9' || n == cap)
			return -1;
		while (*s >= '0' && *s <= '9' && digits++ < 5)
			v = v * 10 + (unsigned long)(*s++ - '0');
		if (v > 65535 || (*s && *s != ','))
			return -1;
		for (size_t i = 0; i < n; i++)
			if (ports[i] == v)
				return -1;
		ports[n++] = (uint16_t)v;
		if (!*s)
			return (long)n;
		s++;
	}
}
