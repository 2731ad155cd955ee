/* sbx_warm_test.c - a warm slot's record of the files (byte by byte), its
 * decoder (the round trip, reading exactly the record, each refusal) and
 * which executions a slot may take. */
#include <stdio.h>
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

static struct sbx_warm_rec rec;	/* 4 MiB: not on the stack */

/* The record of files[0..n) (the encoder checks neither names nor caps:
 * it makes the bad records too); *len its length. Free it. */
static uint8_t *
encode(const struct sbx_file_data *files, size_t n, size_t *len)
{
	struct sbx_job job = { .files = files, .nfiles = n };
	uint8_t *out = NULL;

	if (sbx_warm_record(&job, &out, len) != 0)
		abort();
	return out;
}

/* p[0..n) decoded in one piece; *used as the decoder says. */
static enum sbx_warm_rc
decode(const uint8_t *p, size_t n, size_t *used)
{
	sbx_warm_rec_init(&rec);
	return sbx_warm_rec_feed(&rec, p, n, used);
}

/* rec holds exactly files[0..n). */
static int
same_files(const struct sbx_file_data *files, size_t n)
{
	if (rec.nfiles != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(rec.files[i].name, files[i].name) != 0 ||
		    rec.files[i].len != files[i].len ||
		    (files[i].len && memcmp(rec.files[i].data, files[i].data,
		    files[i].len) != 0))
			return 0;
	return 1;
}

static void
test_round_trip(void)
{
	const struct sbx_file_data files[] = {
		{ "Main.java", (const uint8_t *)"class Main {}", 13 },
		{ "empty.txt", (const uint8_t *)"", 0 },
		{ "b-1_x.java", (const uint8_t *)"x\0y", 3 },
	};
	uint8_t *enc, *again, *more;
	size_t len, len2, used, off, total;
	enum sbx_warm_rc rc;
	int exact = 1, need = 1;

	enc = encode(files, 3, &len);
	ok(decode(enc, len, &used) == SBX_WARM_OK && used == len &&
	    same_files(files, 3), "a record decodes to its files, in one "
	    "piece");
	again = encode(rec.files, rec.nfiles, &len2);
	ok(len2 == len && memcmp(again, enc, len) == 0,
	    "the decoded files encode to the same bytes");
	free(again);
	ok(sbx_warm_rec_feed(&rec, enc, len, &used) == SBX_WARM_OK &&
	    used == 0, "OK is sticky: a later feed takes nothing");

	sbx_warm_rec_init(&rec);
	for (off = 0, rc = SBX_WARM_NEED; off < len && rc == SBX_WARM_NEED;
	    off++) {
		rc = sbx_warm_rec_feed(&rec, enc + off, 1, &used);
		need &= rc == SBX_WARM_OK || used == 1;
	}
	ok(need && rc == SBX_WARM_OK && off == len && same_files(files, 3),
	    "byte by byte: the same files, OK at the last byte");

	/* the record and then the tool's input: a reader of want() bytes
	 * stops at the record's end */
	more = malloc(len + 5);
	memcpy(more, enc, len);
	memcpy(more + len, "input", 5);
	sbx_warm_rec_init(&rec);
	for (total = 0, rc = SBX_WARM_NEED; rc == SBX_WARM_NEED;) {
		size_t want = sbx_warm_rec_want(&rec);

		if (want == 0 || want > len + 5 - total) {
			exact = 0;
			break;
		}
		rc = sbx_warm_rec_feed(&rec, more + total, want, &used);
		exact &= used == want;
		total += used;
	}
	ok(exact && rc == SBX_WARM_OK && total == len &&
	    sbx_warm_rec_want(&rec) == 0 && same_files(files, 3),
	    "reading want() bytes at a time ends exactly at the record's end");
	ok(decode(more, len + 5, &used) == SBX_WARM_OK && used == len,
	    "in one piece with the input after it: the input is left");
	free(more);

	for (off = 0, need = 1; off < len; off++) {
		need &= decode(enc, off, &used) == SBX_WARM_NEED &&
		    used == off && sbx_warm_rec_want(&rec) > 0;
	}
	ok(need, "truncated anywhere (%zu prefixes): NEED, never a verdict",
	    len);
	free(enc);
}

/* One refusal: the record of files[0..n) is BAD, read up to at: the
 * verdict falls where the refused field ends, never past it. */
static void
refused(const struct sbx_file_data *files, size_t n, size_t at,
    const char *what)
{
	size_t len, used, u2;
	uint8_t *enc = encode(files, n, &len);
	enum sbx_warm_rc rc = decode(enc, len, &used);

	ok(rc == SBX_WARM_BAD && used == at && sbx_warm_rec_want(&rec) == 0 &&
	    sbx_warm_rec_feed(&rec, enc, len, &u2) == SBX_WARM_BAD && u2 == 0,
	    "%s: refused after %zu bytes (got %d after %zu), and BAD is "
	    "sticky", what, at, (int)rc, used);
	free(enc);
}

/* The record of files[0..n) decodes OK to them. */
static void
accepted(const struct sbx_file_data *files, size_t n, const char *what)
{
	size_t len, used;
	uint8_t *enc = encode(files, n, &len);

	ok(decode(enc, len, &used) == SBX_WARM_OK && used == len &&
	    same_files(files, n), "%s: accepted", what);
	free(enc);
}

static void
test_refusals(void)
{
	static const uint8_t zero[] = { 0, 0, 0, 1, 0, 0, 0, 0, 'a' };
	static uint8_t big[SBX_FILE_MAX + 1];
	static char names[SBX_FILES_MAX + 1][8];
	static const struct { const char *name, *what; } bad_names[] = {
		{ ".hidden", "'.' first" }, { "..", "'..'" },
		{ "-c", "'-' first (an interpreter's option)" },
		{ "a/b", "a '/'" }, { "a\\b", "a backslash" },
		{ "a b", "a space" }, { "tab\t", "a tab" },
		{ "caf\xc3\xa9", "a byte over 0x7f" },
	};
	struct sbx_file_data f[SBX_FILES_MAX + 1];
	char name128[SBX_NAME_MAX + 2], what[80];
	size_t used;

	ok(decode(zero, sizeof zero, &used) == SBX_WARM_BAD && used == 2,
	    "zero files: refused at the count");
	for (size_t i = 0; i <= SBX_FILES_MAX; i++) {
		snprintf(names[i], sizeof names[i], "f%zu", i);
		f[i] = (struct sbx_file_data){ names[i], big, 1 };
	}
	accepted(f, SBX_FILES_MAX, "SBX_FILES_MAX files");
	refused(f, SBX_FILES_MAX + 1, 2, "one file over SBX_FILES_MAX");

	f[0] = (struct sbx_file_data){ "a.py", big, SBX_FILE_MAX };
	accepted(f, 1, "a file of SBX_FILE_MAX bytes");
	f[0].len = SBX_FILE_MAX + 1;
	refused(f, 1, 2 + 6, "a file of SBX_FILE_MAX + 1 bytes: at its "
	    "lengths, before its name or data");
	for (size_t i = 0; i < 5; i++)
		f[i] = (struct sbx_file_data){ names[i], big, SBX_FILE_MAX };
	accepted(f, 4, "four files of SBX_FILE_MAX bytes: "
	    "SBX_FILES_TOTAL_MAX in all");
	f[4].len = 1;
	refused(f, 5, 2 + 4 * (6 + 2 + SBX_FILE_MAX) + 6, "a byte over "
	    "SBX_FILES_TOTAL_MAX in all: at the last file's lengths");
	f[4].len = 0;
	accepted(f, 5, "an empty fifth file within SBX_FILES_TOTAL_MAX");

	f[0] = (struct sbx_file_data){ "", big, 0 };
	refused(f, 1, 2 + 6, "an empty name");
	memset(name128, 'n', sizeof name128);
	name128[SBX_NAME_MAX] = '\0';
	f[0] = (struct sbx_file_data){ name128, big, 3 };
	accepted(f, 1, "a name of SBX_NAME_MAX bytes");
	name128[SBX_NAME_MAX] = 'n';
	name128[SBX_NAME_MAX + 1] = '\0';
	refused(f, 1, 2 + 6, "a name of SBX_NAME_MAX + 1 bytes: at its "
	    "length, before a byte of it is copied");
	for (size_t i = 0; i < sizeof bad_names / sizeof *bad_names; i++) {
		f[0] = (struct sbx_file_data){ "ok.java", big, 2 };
		f[1] = (struct sbx_file_data){ bad_names[i].name, big, 2 };
		snprintf(what, sizeof what, "a second file's name with %s",
		    bad_names[i].what);
		refused(f, 2, 2 + 6 + 7 + 2 + 6 + strlen(bad_names[i].name),
		    what);
	}
	{
		/* a NUL in a name: only a hand-made record has one */
		static const uint8_t nul[] = { 0, 1, 0, 3, 0, 0, 0, 0,
			'a', 0, 'b' };

		ok(decode(nul, sizeof nul, &used) == SBX_WARM_BAD &&
		    used == sizeof nul, "a NUL in a name: refused");
	}
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
	test_round_trip();
	test_refusals();
	test_fits();
	return tap_done();
}
