/* fuzz_jail.c - the operator's jail options as text: --egress-ports
 * (jail_ports_parse) and the mode, unit and Landlock names. The input is
 * copied and NUL-terminated (the parsers take C strings from argv; an
 * embedded NUL just ends the string). The first byte picks the port cap.
 * Invariants: an accepted port list has 1..cap ports, each 1..65535, and
 * its canonical spelling ("p1,p2,...") parses back to the same list; a
 * parsed mode, unit or Landlock setting's name parses back to it and is
 * the input itself (one spelling per value). */
#include <stdio.h>
#include <string.h>

#include "common/jail/jail.h"
#include "common/jail/jail_options.h"
#include "fuzz.h"

#define PORTS_MAX 64

static char text[4097], again[PORTS_MAX * 6 + 1];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint16_t ports[PORTS_MAX], ports2[PORTS_MAX];
	enum jail_mode m;
	enum jail_unit u;
	enum jail_landlock l;
	size_t cap;
	long n;

	if (size < 1 || size > sizeof text)
		return 0;
	cap = data[0] % (PORTS_MAX + 1);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';

	n = jail_ports_parse(text, ports, cap);
	FUZZ_ASSERT(n == -1 || (n >= 1 && (size_t)n <= cap));
	if (n > 0) {
		size_t off = 0;

		for (long i = 0; i < n; i++) {
			FUZZ_ASSERT(ports[i] >= 1);	/* <= 65535 by type */
			off += (size_t)snprintf(again + off, sizeof again - off,
			    "%s%u", i ? "," : "", (unsigned)ports[i]);
		}
		FUZZ_ASSERT(jail_ports_parse(again, ports2, cap) == n &&
		    memcmp(ports, ports2, (size_t)n * sizeof *ports) == 0);
		/* one spelling: what was accepted is the canonical text */
		FUZZ_ASSERT(strcmp(again, text) == 0);
		for (long i = 0; i < n; i++)
			for (long k = 0; k < i; k++)
				FUZZ_ASSERT(ports[i] != ports[k]);
	}

	if (jail_mode_parse(text, &m) == 0) {
		enum jail_mode m2;

		FUZZ_ASSERT(m == JAIL_NONE || m == JAIL_UID || m == JAIL_NS);
		FUZZ_ASSERT(strcmp(jail_mode_name(m), text) == 0);
		FUZZ_ASSERT(jail_mode_parse(jail_mode_name(m), &m2) == 0 &&
		    m2 == m);
	}
	if (jail_unit_parse(text, &u) == 0) {
		enum jail_unit u2;

		FUZZ_ASSERT(strcmp(jail_unit_name(u), text) == 0);
		FUZZ_ASSERT(jail_unit_parse(jail_unit_name(u), &u2) == 0 &&
		    u2 == u);
	}
	if (jail_landlock_parse(text, &l) == 0) {
		enum jail_landlock l2;

		FUZZ_ASSERT(strcmp(jail_landlock_name(l), text) == 0);
		FUZZ_ASSERT(jail_landlock_parse(jail_landlock_name(l), &l2) ==
		    0 && l2 == l);
	}
	return 0;
}
