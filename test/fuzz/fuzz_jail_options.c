/* fuzz_jail_options.c - the jail options' spellings (common/jail/
 * jail_options.c) under arbitrary bytes: --egress-ports and the mode,
 * unit and Landlock names. Invariants: a port list is accepted exactly
 * when it is ports 1..65535 in plain digits (no sign, space or leading
 * zero), one comma between, none twice, no more than the room, and then
 * it prints back to the same text; a name is accepted only when it is
 * one the name function gives back for the value it parsed to. */
#include <stdio.h>
#include <string.h>

#include "common/jail/jail_options.h"
#include "fuzz.h"

#define ROOM 8

/* The list's count by the grammar, from the other side; -1 refused. */
static long
grammar(const char *s)
{
	unsigned seen[ROOM];
	long n = 0;

	for (;;) {
		unsigned v = 0;
		size_t d = 0;

		if (*s < '1' || *s > '9' || n == ROOM)
			return -1;
		while (s[d] >= '0' && s[d] <= '9')
			d++;
		if (d > 5)
			return -1;
		for (size_t i = 0; i < d; i++)
			v = v * 10 + (unsigned)(s[i] - '0');
		s += d;
		if (v > 65535 || (*s && *s != ','))
			return -1;
		for (long i = 0; i < n; i++)
			if (seen[i] == v)
				return -1;
		seen[n++] = v;
		if (!*s)
			return n;
		if (!*++s)
			return -1;	/* a trailing comma */
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[64], again[ROOM * 6 + 1];
	uint16_t ports[ROOM];
	size_t n = size < sizeof text - 1 ? size : sizeof text - 1, at = 0;
	long got, want;
	enum jail_mode m;
	enum jail_unit u;
	enum jail_landlock l;

	memcpy(text, data, n);
	text[n] = '\0';
	got = jail_ports_parse(text, ports, ROOM);
	want = grammar(text);
	FUZZ_ASSERT(got == want);
	for (long i = 0; i < got; i++)
		at += (size_t)snprintf(again + at, sizeof again - at, "%s%u",
		    i ? "," : "", ports[i]);
	FUZZ_ASSERT(got < 0 || strcmp(again, text) == 0);
	if (jail_mode_parse(text, &m) == 0)
		FUZZ_ASSERT(strcmp(jail_mode_name(m), text) == 0);
	if (jail_unit_parse(text, &u) == 0)
		FUZZ_ASSERT(strcmp(jail_unit_name(u), text) == 0);
	if (jail_landlock_parse(text, &l) == 0)
		FUZZ_ASSERT(strcmp(jail_landlock_name(l), text) == 0);
	return 0;
}
