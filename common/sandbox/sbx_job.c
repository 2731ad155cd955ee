/* sbx_job.c - what a job's limits set in the jail from its start. */
#include "common/sandbox/sbx_job.h"

uint64_t
sbx_job_cpu_seconds(const struct sbx_limits *lim)
{
	return (lim->cpu_ms + 999) / 1000 + 1;
}
