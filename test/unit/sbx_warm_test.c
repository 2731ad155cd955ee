/* sbx_warm_test.c - a warm slot's record of the files (byte by byte) and
 * which executions a slot may take. */
#include <stdlib.h>
#include <string.h>

#include "common/sandbox/sbx_warm.h"
#include "tap.h"

static void
test_record(void)
{
	static const uint8_t want[] = {
		0, 2,				/* two files */
		0, 7, 0, 0, 0, 3, 't', 'o', 'o', 'l', '.', 'p', 'y',
		'a', '=', '1',
		0, 4, 0, 0, 0, 0, 'h', '.', 'p', 'y',	/* empty */
	};
	const struct sbx_file_data files[] = {
		{ "tool.py", (const uint8_t *)"a=1", 3 },
		{ "h.py", (const uint8_t *)"", 0 },
	};
	struct sbx_job job = { .files = files, .nfiles = 2 };
	uint8_t *rec = NULL;
	size_t len = 0;

	ok(sbx_warm_record(&job, &rec, &len) == 0 && len == sizeof want &&
	    memcmp(rec, want, len) == 0, "the record: count, then name and "
	    "data lengths, name, data per file (%zu bytes)", len);
	free(rec);
	job.nfiles = 0;
	ok(sbx_warm_record(&job, &rec, &len) == -1, "no file: no record");
}

static void
test_fits(void)
{
	const struct sbx_job slot = { .lang = SBX_LANG_PYTHON, .lim = { 5000,
		2000, 256u << 20, 1 << 20, 64 }, .disk = 128u << 20 };
	static const struct {
		const char *what;
		struct sbx_job job;
		int fits;
	} cases[] = {
		{ "the same settings", { .lang = SBX_LANG_PYTHON, .lim = { 5000,
		    2000, 256u << 20, 1 << 20, 64 }, .disk = 128u << 20 }, 1 },
		{ "another wall clock and output cap (the loop's own)",
		    { .lang = SBX_LANG_PYTHON, .lim = { 900, 2000, 256u << 20,
		    4096, 64 }, .disk = 128u << 20 }, 1 },
		{ "a CPU limit of the same rlimit seconds", { .lang =
		    SBX_LANG_PYTHON, .lim = { 5000, 1500, 256u << 20, 1 << 20,
		    64 }, .disk = 128u << 20 }, 1 },
		{ "a CPU limit of other rlimit seconds", { .lang =
		    SBX_LANG_PYTHON, .lim = { 5000, 2500, 256u << 20, 1 << 20,
		    64 }, .disk = 128u << 20 }, 0 },
		{ "another memory limit", { .lang = SBX_LANG_PYTHON, .lim = {
		    5000, 2000, 128u << 20, 1 << 20, 64 }, .disk = 128u << 20 },
		    0 },
		{ "another pids limit", { .lang = SBX_LANG_PYTHON, .lim = { 5000,
		    2000, 256u << 20, 1 << 20, 63 }, .disk = 128u << 20 }, 0 },
		{ "another disk", { .lang = SBX_LANG_PYTHON, .lim = { 5000, 2000,
		    256u << 20, 1 << 20, 64 }, .disk = 64u << 20 }, 0 },
		{ "another language", { .lang = SBX_LANG_JAVA, .lim = { 5000,
		    2000, 256u << 20, 1 << 20, 64 }, .disk = 128u << 20 }, 0 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		ok(sbx_warm_fits(&slot, &cases[i].job) == cases[i].fits,
		    "%s: %s", cases[i].what, cases[i].fits ? "fits" :
		    "does not fit");
}

int
main(void)
{
	test_record();
	test_fits();
	return tap_done();
}
