/* fuzz_optfile.c - the option file (--config, common/base/optfile.c)
 * under arbitrary bytes; applied to a service's options it is
 * fuzz_optconfig's, fuzz_runner_config's and fuzz_sbx_config's.
 * Invariants: every name is [a-z][a-z0-9-]* of at most OPTFILE_NAME_MAX
 * bytes, every value one word of visible ASCII; lines only grow; no byte
 * past the input is read (ASan); the entries written back as
 * "name value\n" parse to the same entries; an error names a line that
 * exists and is sticky. */
#include <stdio.h>
#include <string.h>

#include "common/base/optfile.h"
#include "fuzz.h"

#define MAXE 4096

static char buf[OPTFILE_MAX + 1], again[OPTFILE_MAX * 2 + 2];
static struct optfile_entry ents[MAXE];

static void
check_entry(const struct optfile_entry *e)
{
	size_t n = strlen(e->name);

	FUZZ_ASSERT(n >= 1 && n <= OPTFILE_NAME_MAX);
	FUZZ_ASSERT(e->name[0] >= 'a' && e->name[0] <= 'z');
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT((e->name[i] >= 'a' && e->name[i] <= 'z') ||
		    (e->name[i] >= '0' && e->name[i] <= '9') ||
		    e->name[i] == '-');
	if (!e->value)
		return;
	FUZZ_ASSERT(e->value[0] != '\0');
	for (const char *v = e->value; *v; v++)
		FUZZ_ASSERT(*v > 0x20 && *v < 0x7f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct optfile f;
	struct optfile_entry e;
	char err[512];
	size_t n = 0, nl = 0, len = 0;
	unsigned last = 0;
	int rc;

	if (size > OPTFILE_MAX)
		return 0;
	for (size_t i = 0; i < size; i++)
		nl += data[i] == '\n';
	memcpy(buf, data, size);
	optfile_init(&f, buf, size);
	while ((rc = optfile_next(&f, &e, err, sizeof err)) > 0) {
		check_entry(&e);
		FUZZ_ASSERT(e.line > last && e.line <= nl + 1);
		last = e.line;
		if (n < MAXE)
			ents[n++] = e;
	}
	if (rc < 0) {
		FUZZ_ASSERT(f.line >= 1 && f.line <= nl + 1 && err[0]);
		FUZZ_ASSERT(optfile_next(&f, &e, err, sizeof err) == -1);
	} else if (n < MAXE) {
		/* written back, the entries parse the same */
		for (size_t i = 0; i < n; i++)
			len += (size_t)snprintf(again + len, sizeof again - len,
			    "%s%s%s\n", ents[i].name, ents[i].value ? " " : "",
			    ents[i].value ? ents[i].value : "");
		FUZZ_ASSERT(len < sizeof again - 1);
		optfile_init(&f, again, len);
		for (size_t i = 0; i < n; i++) {
			FUZZ_ASSERT(optfile_next(&f, &e, err, sizeof err) == 1);
			FUZZ_ASSERT(strcmp(e.name, ents[i].name) == 0);
			FUZZ_ASSERT((e.value == NULL) == (ents[i].value == NULL));
			FUZZ_ASSERT(!e.value || strcmp(e.value,
			    ents[i].value) == 0);
		}
		FUZZ_ASSERT(optfile_next(&f, &e, err, sizeof err) == 0);
	}
	return 0;
}
