/* config_input.h - the input of the configuration targets (fuzz_optconfig,
 * fuzz_runner_config, fuzz_sbx_config): its first byte picks options given
 * on the command line; the rest is an option file, and after a 0xff byte
 * (which no option file may hold) a second one, the file a reload reads. */
#ifndef AIRLOCK_CONFIG_INPUT_H
#define AIRLOCK_CONFIG_INPUT_H

#include <string.h>

#include "common/base/optfile.h"
#include "common/service/optconfig.h"
#include "fuzz.h"

/* An option a target may give on the command line. */
struct config_opt {
	const char *name, *value;
};

struct config_input {
	unsigned pick;			/* the first byte */
	const uint8_t *file[2];		/* at start, at the reload */
	size_t len[2];
	int reload;			/* the second file was given */
};

/* data[0..size) split as above: 0, or -1 when it is empty or a file is
 * longer than an option file may be. */
static inline int
config_input_split(const uint8_t *data, size_t size, struct config_input *in)
{
	const uint8_t *sep;

	if (size < 1)
		return -1;
	in->pick = data[0];
	data++;
	size--;
	sep = memchr(data, 0xff, size);
	in->reload = sep != NULL;
	in->file[0] = data;
	in->len[0] = sep ? (size_t)(sep - data) : size;
	in->file[1] = sep ? sep + 1 : data + size;
	in->len[1] = sep ? size - in->len[0] - 1 : 0;
	return in->len[0] > OPTFILE_MAX || in->len[1] > OPTFILE_MAX ? -1 : 0;
}

/* The options of cmd[0..n) that pick's bits name, set on the command line
 * (line 0) of service s's configuration cfg, recorded in g. */
static inline void
config_command_line(const struct optconfig_service *s,
    struct optconfig_given *g, void *cfg, const struct config_opt *cmd,
    size_t n, unsigned pick)
{
	char err[512];

	for (size_t i = 0; i < n; i++) {
		int o = optconfig_find(s, cmd[i].name);

		if (pick >> i & 1)
			FUZZ_ASSERT(o >= 0 && optconfig_set(s, g, cfg, (size_t)o,
			    cmd[i].value, 0, err, sizeof err) == 0);
	}
}

/* What a file "f" of data[0..size) applied to service s left: a refusal
 * (rc != 0) names "f:LINE: "; else every option recorded in g is the
 * table's, given on the command line (line 0) or at a line the file has. */
static inline void
config_applied(const struct optconfig_service *s,
    const struct optconfig_given *g, const uint8_t *data, size_t size,
    int rc, const char *err)
{
	size_t lines = 1;

	if (rc != 0) {
		FUZZ_ASSERT(strncmp(err, "f:", 2) == 0 && strstr(err, ": "));
		return;
	}
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	for (size_t i = 0; i < g->n; i++)
		FUZZ_ASSERT(g->at[i].opt < s->noptions &&
		    g->at[i].line <= lines);
}

/* The same string: both NULL, or the same bytes. */
static inline int
config_str_eq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

#endif
