/* jail_nsinit.h - ns mode's two processes that never exec: the proxy
 * outside the namespaces, which the service watches and which ends as the
 * server ended, and pid 1 inside, which reaps and forwards signals. */
#ifndef AIRLOCK_JAIL_NSINIT_H
#define AIRLOCK_JAIL_NSINIT_H

#include <sys/types.h>

/* Find this process's argv area (/proc/self/stat), so the proxy and init
 * can overwrite the service's command line. Before any fork. 0, or -1. */
int jail_nsinit_find_args(void);

/* pid 1: reap everything, forward signals to every process, write the
 * server's wait status on report when it ends, and end. */
_Noreturn void jail_nsinit_run_init(pid_t server, int report);

/* Outside: forward signals to init, read the server's status from
 * status_fd, and end as the server did (its signal or exit code). */
_Noreturn void jail_nsinit_run_proxy(pid_t init, int status_fd);

#endif
