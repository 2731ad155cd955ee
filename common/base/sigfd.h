/* sigfd.h - the signals a service's event loop waits on, as one fd; and
 * the short random ids its log lines carry. */
#ifndef AIRLOCK_SIGFD_H
#define AIRLOCK_SIGFD_H

#include <stddef.h>

/* Block sigs[0..n) and return a CLOEXEC, non-blocking signalfd for them,
 * or -1 with errno set. */
int sigfd_open(const int *sigs, size_t n);

/* 16 lower-case hex characters from getrandom and a NUL; -1 on failure. */
int random_id(char out[17]);

#endif
