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
 * (big-endian); files[0] runs. The warm Java stage's helper reads it with
 * the decoder below (sbx_jwarm.h); the Python loader takes it as the
 * service wrote it, from a checked request. */
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

/* The record's decoder: pure (no I/O, no allocation), resumable over any
 * split of the bytes, BAD sticky. It accepts what the service sends from a
 * checked request and nothing else: 1..SBX_FILES_MAX files, each name
 * sbx_name_valid (1..SBX_NAME_MAX bytes, no NUL), each file's data at
 * most SBX_FILE_MAX bytes, all of them at most SBX_FILES_TOTAL_MAX. Each
 * length is checked against its cap when its header is whole, before a
 * byte of what it counts is copied; a name is checked when it is whole. */
enum sbx_warm_rc {
	SBX_WARM_NEED = 0,	/* every byte taken; the record goes on */
	SBX_WARM_OK,		/* a whole record; later bytes are not its */
	SBX_WARM_BAD		/* a count, length or name refused; sticky */
};

/* invariants: have <= the length of the part being read; nfiles < count
 * while NEED; total <= SBX_FILES_TOTAL_MAX, the data of files[0..nfiles)
 * and of the file being read within data[0..total + dlen). Large (the
 * files' bytes are in it): a caller keeps one static. */
struct sbx_warm_rec {
	int state;		/* enum sbx_warm_rc */
	int part;		/* what is read next: count, head, name, data */
	size_t have;		/* bytes of that part taken */
	uint8_t hdr[6];		/* the count, or a file's two lengths */
	uint32_t count;		/* files: 1..SBX_FILES_MAX once read */
	uint32_t nlen, dlen;	/* the current file's, checked */
	uint32_t total;		/* data bytes of the files before it */
	/* the result: files[0..nfiles) are whole, their names and data in
	 * names[] and data[] (this struct's own: it must not be copied) */
	size_t nfiles;
	struct sbx_file_data files[SBX_FILES_MAX];
	char names[SBX_FILES_MAX][SBX_NAME_MAX + 1];
	uint8_t data[SBX_FILES_TOTAL_MAX];	/* last: init leaves it */
};

void sbx_warm_rec_init(struct sbx_warm_rec *r);

/* How many more bytes the record needs at least: a reader that reads just
 * these before each feed never takes a byte past the record (the rest of
 * the stream is the tool's input). More than 0 while NEED, 0 after. */
size_t sbx_warm_rec_want(const struct sbx_warm_rec *r);

/* Feed n bytes. *used (always set, <= n) is how many belong to the record:
 * NEED took them all; OK leaves p + *used .. p + n to the caller (files
 * and nfiles are the record's); BAD says how many were read up to the
 * verdict. After OK or BAD every call returns the same with *used 0. */
enum sbx_warm_rc sbx_warm_rec_feed(struct sbx_warm_rec *r, const uint8_t *p,
    size_t n, size_t *used);

/* 1 when an execution of job may take a slot prepared for slot: the same
 * language, a Python first file that can be source (no NUL byte), and
 * every setting that is in the jail from its start the same (memory and pids limits of its cgroup, the CPU rlimit, the disk).
 * The wall clock, the CPU limit (read from the cgroup by the loop) and
 * the output caps are the execution's own and may differ. */
int sbx_warm_fits(const struct sbx_job *slot, const struct sbx_job *job);

#endif
