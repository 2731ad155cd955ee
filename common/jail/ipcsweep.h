/* ipcsweep.h - remove the IPC objects a uid owns or created: System V
 * shared memory, message queues and semaphore sets, and POSIX message
 * queues. They outlive every process of the uid, so a uid handed to
 * another lease or registration would hand them over with it (in uid mode
 * leases share the host's IPC namespace; ns mode gives each its own). */
#ifndef AIRLOCK_IPCSWEEP_H
#define AIRLOCK_IPCSWEEP_H

#include <stddef.h>
#include <stdint.h>

enum ipc_table { IPC_TABLE_SHM, IPC_TABLE_MSG, IPC_TABLE_SEM };

#define IPCSWEEP_IDS_MAX 4096	/* objects of one uid per table and pass */

/* Parse a /proc/sysvipc/{shm,msg,sem} text buf[0..len) (pure, any bytes,
 * no NUL needed): the ids of the objects whose owner uid or creator uid
 * is uid go to ids (at most cap; *n counts them all, so *n > cap says
 * some were left out). The header line is skipped; a line that does not
 * parse makes it -1 (the caller cannot tell what it left), else 0. */
int ipcsweep_parse(const char *buf, size_t len, enum ipc_table t,
    uint32_t uid, int *ids, size_t cap, size_t *n);

/* Remove every such object of uid, System V and POSIX (the mqueue mount
 * at /dev/mqueue, when there is one). Call it as the uid: IPC_RMID and
 * mq_unlink are its right as owner or creator, no capability needed. 0
 * when none is left, -1 otherwise (a table unreadable, a removal refused).
 * A kernel without System V IPC has no tables and nothing to remove. */
int ipcsweep_remove(uint32_t uid);

/* 1 when uid owns or created an IPC object ipcsweep_remove would remove,
 * 0 when none, -1 when a table is unreadable: read as anyone, so a
 * caller forks the uid's sweep only when there is something to remove. */
int ipcsweep_any(uint32_t uid);

#endif
