/* errbuf.h - the caller's error buffer: library code says what failed in
 * err[errlen] and returns -1, and the caller decides what to do with it. */
#ifndef AIRLOCK_ERRBUF_H
#define AIRLOCK_ERRBUF_H

#include <stddef.h>

/* Format the message into err (truncated to errlen; nothing if errlen is
 * 0) and return -1, so that a failure is one statement: return
 * errbuf_set(err, errlen, "...", ...). */
int errbuf_set(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
