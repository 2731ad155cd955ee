/* decnum.h - canonical decimal numbers, as "%u" writes them: one spelling
 * per number, so the files and /proc tables that hold ids (the uid
 * table's records, passwd and group, /proc/sysvipc) are read strictly. */
#ifndef AIRLOCK_DECNUM_H
#define AIRLOCK_DECNUM_H

#include <stddef.h>
#include <stdint.h>

/* The number that is buf's first line (the bytes before the first '\n',
 * or all len of them): digits only, no sign, space or leading zero, at
 * most UINT32_MAX. 0 and *v, or -1 (*v untouched). */
int decnum_parse(const char *buf, size_t len, uint32_t *v);

/* The same, for numbers up to max (a format's own bound: a serial). */
int decnum_parse_max(const char *buf, size_t len, uint64_t max,
    uint64_t *v);

#endif
