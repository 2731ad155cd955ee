/* jail_options.h - the jail options' spellings: the mode, unit and
 * Landlock names, and the --egress-port list, parsed strictly. */
#ifndef AIRLOCK_JAIL_OPTIONS_H
#define AIRLOCK_JAIL_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "common/jail/jail_types.h"

/* "none" "uid" "ns", "registration" "lease", "auto" "require" "off";
 * parse returns -1 for anything else. */
const char *jail_mode_name(enum jail_mode m);
int jail_mode_parse(const char *s, enum jail_mode *m);
const char *jail_unit_name(enum jail_unit u);
int jail_unit_parse(const char *s, enum jail_unit *u);
const char *jail_landlock_name(enum jail_landlock l);
int jail_landlock_parse(const char *s, enum jail_landlock *l);
/* "443,80" into ports (cap entries): each port 1..65535 in plain digits
 * (no sign, space or leading zero), one comma between, none twice;
 * count, or -1. */
long jail_ports_parse(const char *s, uint16_t *ports, size_t cap);

#endif
