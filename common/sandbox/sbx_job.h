/* sbx_job.h - what one sandbox execution is asked to run: its files,
 * input, argv and limits (the type sbx_exec runs and a warm slot is
 * matched against, sbx_warm.h), apart from the execution itself so that
 * the warm side names it without the executor; and what a job's limits
 * set in the jail from its start. */
#ifndef AIRLOCK_SBX_JOB_H
#define AIRLOCK_SBX_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "common/sandbox/sbx_proto.h"

struct sbx_file_data {
	const char *name;	/* sbx_name_valid */
	const uint8_t *data;
	size_t len;
};

struct sbx_job {
	const char *id;			/* [A-Za-z0-9_-]{1,64}, unique */
	const char *tenant;
	unsigned lang;			/* enum sbx_lang */
	struct sbx_limits lim;		/* final: clamped, no zeros */
	uint64_t disk;			/* bytes: HOME, TMPDIR, /tmp, /dev/shm
					 * and the work dir together, on one
					 * tmpfs charged to the memory limit */
	const struct sbx_file_data *files;	/* files[0] runs */
	size_t nfiles;
	const uint8_t *input;
	size_t input_len;
	char *const *exec_argv;		/* SBX_LANG_EXEC: the command */
	char *const *args;		/* the tool's argv words after its
					 * name (sbx_args_check), or NULL */
	size_t nargs;
};

/* The RLIMIT_CPU backstop of a CPU limit: its seconds rounded up, plus
 * one (the cgroup's reading is what stops a tool first). */
uint64_t sbx_job_cpu_seconds(const struct sbx_limits *lim);

#endif
