/* procscan.h - the live processes of this pid namespace and who owns
 * them, read from /proc/PID/status (for the uid range's checks: which uids
 * have processes, and the pid and name of each one, for the log). */
#ifndef AIRLOCK_PROCSCAN_H
#define AIRLOCK_PROCSCAN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct proc_owner {
	pid_t pid;
	uint32_t uid[4];	/* real, effective, saved, filesystem */
	char comm[64];		/* Name: as the kernel wrote it (escaped) */
};

/* Parse one status text buf[0..len) (pure; no NUL needed): 0 with *o
 * filled (but pid), 1 for a zombie or dead task, -1 when Name:, State: or
 * a Uid: line of four canonical numbers is missing. */
int procscan_status_parse(const char *buf, size_t len, struct proc_owner *o);

/* Call fn for every live process but except (-1: none); stop at the first
 * non-zero return and return it. 0 when every process was seen, -1 when
 * /proc cannot be read. Processes that vanish meanwhile are skipped. */
int procscan(pid_t except, int (*fn)(void *ctx, const struct proc_owner *o),
    void *ctx);

/* 1 when one of o's four uids is in [first, last], with *uid that one. */
int proc_owner_in_range(const struct proc_owner *o, uint32_t first,
    uint32_t last, uint32_t *uid);

#endif
