/* fuzz_wheelmeta.c - an installed wheel's RECORD and entry_points.txt
 * readers under arbitrary bytes. Invariants: an accepted RECORD has its
 * paths inside the text, each a relative path (../../bin/ only as a
 * script's prefix), no path twice, a hash exactly with a size; a refusal
 * names its line and holds nothing. Accepted console scripts are at most
 * 64, each name and identifier non-empty, no name twice. */
#include <string.h>

#include "common/lock/wheelmeta.h"
#include "fuzz.h"

/* f's path (past ../../bin/ for a script) has no empty, "." or ".."
 * part: it names nothing outside its package. */
static int
inside(const struct wheel_file *f)
{
	size_t skip = f->script ? sizeof WHEEL_BIN_PREFIX - 1 : 0, start;

	if (f->script && (f->path_len <= skip || memcmp(f->path,
	    WHEEL_BIN_PREFIX, skip) != 0))
		return 0;
	start = skip;
	for (size_t i = skip; i <= f->path_len; i++) {
		size_t n = i - start;

		if (i < f->path_len && f->path[i] != '/')
			continue;
		if (n == 0 || (n == 1 && f->path[start] == '.') || (n == 2 &&
		    f->path[start] == '.' && f->path[start + 1] == '.'))
			return 0;
		start = i + 1;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wheel_script s[WHEEL_SCRIPTS_MAX];
	struct wheel_record r;
	char err[256];
	size_t n;

	if (wheel_record_parse(data, size, &r, err, sizeof err) != 0) {
		FUZZ_ASSERT(strncmp(err, "line ", 5) == 0 && r.file == NULL);
	} else {
		FUZZ_ASSERT(r.nfile >= 1);
		for (size_t i = 0; i < r.nfile; i++) {
			const struct wheel_file *f = &r.file[i];

			FUZZ_ASSERT((const uint8_t *)f->path >= data &&
			    f->path_len <= size - (size_t)((const uint8_t *)
			    f->path - data) && f->path_len > 0);
			FUZZ_ASSERT(inside(f));
			for (size_t j = 0; j < i; j++)
				FUZZ_ASSERT(r.file[j].path_len != f->path_len ||
				    memcmp(r.file[j].path, f->path,
				    f->path_len) != 0);
		}
		wheel_record_free(&r);
	}
	if (wheel_console_scripts(data, size, s, &n, err, sizeof err) != 0) {
		FUZZ_ASSERT(strncmp(err, "line ", 5) == 0);
		return 0;
	}
	FUZZ_ASSERT(n <= WHEEL_SCRIPTS_MAX);
	for (size_t i = 0; i < n; i++) {
		FUZZ_ASSERT(s[i].name[0] && s[i].module[0] && s[i].attr[0]);
		for (size_t j = 0; j < i; j++)
			FUZZ_ASSERT(strcmp(s[i].name, s[j].name) != 0);
	}
	return 0;
}
