/* sbx_warm.h - the language side of a warm slot (sbx_exec.h): the Python
 * loader a slot's interpreter runs while it waits for a tool, the record
 * that hands it the tool's files on its stdin, and which executions a
 * slot may take.
 *
 * The loader (python3 -E -s -c LOADER, reviewed line by line in
 * docs/SANDBOX.md "Warm slots") uses only what the interpreter's start
 * already imported (os, sys): it reads the record from fd 0 with os.read
 * (nothing buffered: the rest of stdin is the tool's input, untouched),
 * writes each file into its working directory as a cold execution's jail
 * does (O_EXCL, O_NOFOLLOW, 0644), then runs files[0] as __main__: argv,
 * sys.path[0] its directory (the other files import), __file__
 * (absolute), __loader__, a fresh __main__ module, the source
 * compiled from its bytes (its coding cookie honoured), and on the way
 * out what CPython's own runner does: stdout and stderr flushed, a
 * traceback without the loader's frames through sys.excepthook, exit 1,
 * SystemExit's code, KeyboardInterrupt as SIGINT. What differs from a
 * cold start, and only for a tool that looks: one loader frame above its
 * module (sys._getframe().f_back, inspect.stack()), and the loader in
 * /proc/self/cmdline.
 *
 * Record: count:u16, then per file name_len:u16 data_len:u32 name data
 * (big-endian); files[0] runs. */
#ifndef AIRLOCK_SBX_WARM_H
#define AIRLOCK_SBX_WARM_H

#include <stddef.h>
#include <stdint.h>

#include "common/sandbox/sbx_job.h"

/* The loader's source, NUL-terminated (python3 -E -s -c). */
extern const char sbx_warm_python_loader[];

/* The record of job's files into a buffer of the caller's (*out, *len;
 * free it). 0, or -1 (out of memory, or a file past the record's
 * fields). */
int sbx_warm_record(const struct sbx_job *job, uint8_t **out, size_t *len);

/* 1 when an execution of job may take a slot prepared for slot: the same
 * language, a Python first file that can be source (no NUL byte), and
 * every setting that is in the jail from its start the same (memory and pids limits of its cgroup, the CPU rlimit, the disk).
 * The wall clock, the CPU limit (read from the cgroup by the loop) and
 * the output caps are the execution's own and may differ. */
int sbx_warm_fits(const struct sbx_job *slot, const struct sbx_job *job);

#endif
