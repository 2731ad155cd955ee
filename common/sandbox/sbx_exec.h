/* sbx_exec.h - one sandbox execution: a fresh jail (common/jail), the
 * language's command in it, and one event loop that enforces the limits
 * and accounts for what the tool did.
 *
 * The loop waits on: the child's pidfd (exit), a timerfd at the wall-clock
 * deadline (absolute, CLOCK_MONOTONIC: millisecond precision, no drift
 * from the loop's own work), a periodic timerfd that reads the cgroup's
 * counters (CPU time, OOM kills, forks refused by pids.max) and the
 * disk's free blocks and inodes (a full disk ends it), the stdout
 * and stderr pipes (byte caps: the excess is never read into memory; the
 * tool is stopped the moment a stream passes its cap), stdin (the input,
 * written as the tool takes it), an optional receiver fd (the service's
 * connection: backpressure and disconnects), and a signalfd. Every stop
 * kills the whole jail (its cgroup, its uid's processes, its pid
 * namespace), not just the main pid; the reason is the first limit hit.
 *
 * Java runs in two stages inside the same jail: `airlock sandbox
 * _java-stage` (common/sbx_java) compiles, checks every class file and
 * only then execs java; it writes a stage record at the start of stdout
 * (before any tool code can run, so the tool cannot forge it). The wall
 * clock and CPU limits cover both stages: compiling is the tenant's time
 * too, and cpu_ms reports it. */
#ifndef AIRLOCK_SBX_EXEC_H
#define AIRLOCK_SBX_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "common/jail/jail.h"
#include "common/sandbox/sbx_job.h"
#include "common/sandbox/sbx_proto.h"

/* Where the tool's output goes. emit gets every byte within the caps, in
 * order, never more than room() said, and must not wait: the limits'
 * clocks run in the same loop. It returns -1 when the receiver is gone
 * (the execution is then stopped). While room() says 0 the loop stops
 * reading the tool, which then blocks on its pipe (backpressure) while
 * the clocks keep running. fd, when >= 0, is polled with events();
 * ready() handles what came (-1: receiver gone). */
struct sbx_output {
	void *ctx;
	int (*emit)(void *ctx, int stream, const uint8_t *p, size_t n);
	size_t (*room)(void *ctx);
	int fd;
	short (*events)(void *ctx);
	int (*ready)(void *ctx, short revents);
};

struct sbx_exec_env {
	const struct jail *jail;	/* mode ns with new_net, for real use */
	const char *python;		/* absolute path of python3 */
	const char *java_home;		/* JAVA_HOME: bin/java, bin/javac */
	const char *self_exe;		/* this binary, as the jail sees it */
	const char *deny_text;		/* custom Java denylist, or NULL */
	size_t deny_len;
	int sigfd;			/* signals that stop the execution, or -1 */
	int use_cgroup_limits;		/* per-execution cgroup limits */
	int java_unconfined;		/* test hook (A/B of the Java stage's
					 * run-time layers): never in
					 * production */
};

/* Run job; fills res (always, also on failure: reason jail_failed with
 * the step in detail). Returns 0 when the tool ran or was refused for a
 * reason res names (a signal on sigfd: reason shutdown); -1 when the
 * execution was abandoned (the receiver gone): res then says what was
 * known. The caller
 * is a subreaper whose only children are this execution's: every one of
 * them is killed and reaped before sbx_exec returns (no zombie holds the
 * execution's uid). */
int sbx_exec(const struct sbx_exec_env *env, const struct sbx_job *job,
    const struct sbx_output *out, struct sbx_result *res);

/* Warm slots (sbx_server's --warm): an execution prepared before its
 * request, used once. sbx_exec_warm_prepare does everything sbx_exec
 * does up to the started command, for slot (lang Python, no files, no
 * input; slot->id names the execution and must outlive the slot): a fresh
 * lease (uid, directories, cgroup with slot's limits), the jail entered,
 * the interpreter started on the loader (sbx_warm.h), waiting on its
 * stdin. One slot per process; 0, or -1 with a message (nothing left).
 * sbx_exec_warm_run takes it for job, which must fit it (sbx_warm_fits)
 * and carry its id: the files and input go to the loader, the clocks start
 * then, and CPU is counted from then (the slot's start is the service's
 * cost, charged to no tenant); a Java call's peak memory too where it can
 * be restarted (v1), else the result flags it an upper bound unless the
 * slot's peak grew during the call (SBX_F_PEAK_UPPER_BOUND); then as
 * sbx_exec, the jail destroyed the same way. A job that does not fit gets reason jail_failed; the caller
 * asks first. sbx_exec_warm_discard kills and removes an unused slot
 * (sbx_exec does too). sbx_exec_warm_slot: the prepared slot's job, or
 * NULL; sbx_exec_warm_pidfd: its command's pidfd (readable when it died
 * while waiting), or -1. */
int sbx_exec_warm_prepare(const struct sbx_exec_env *env,
    const struct sbx_job *slot, char *err, size_t errlen);
const struct sbx_job *sbx_exec_warm_slot(void);
/* The prepared slot's memory: its cgroup's peak so far (bytes), 0 without
 * a memory cgroup or a slot. */
uint64_t sbx_exec_warm_memory(void);
int sbx_exec_warm_pidfd(void);
int sbx_exec_warm_run(const struct sbx_job *job,
    const struct sbx_output *out, struct sbx_result *res);
void sbx_exec_warm_discard(void);

/* Java heap (-Xmx) for a memory limit: half of it, at least 16 MiB, at
 * most the limit minus 64 MiB when that is larger than half. */
uint64_t sbx_java_heap(uint64_t memory);

#endif
