/* signal_fd.h - the signals a service's event loop waits on, as one fd. */
#ifndef AIRLOCK_SIGNAL_FD_H
#define AIRLOCK_SIGNAL_FD_H

#include <stddef.h>

/* Block sigs[0..n) and return a CLOEXEC, non-blocking signalfd for them,
 * or -1 with errno set. */
int signal_fd_open(const int *sigs, size_t n);

#endif
