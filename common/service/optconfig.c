/* optconfig.c - the command line and --config FILE of a service
 * (optconfig.h). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/cli.h"
#include "common/base/errbuf.h"
#include "common/base/fileio.h"
#include "common/base/fsutil.h"
#include "common/base/optfile.h"
#include "common/service/optconfig.h"

/* May option o (called name; repeat: it may be given more than once) be
 * given at line (0: the command line, where the last wins)? Refused: a
 * file's option also on the command line, given twice in the file, one
 * past OPTCONFIG_GIVEN_MAX. 0, or -1 with err. */
static int
optconfig_may_give(const struct optconfig_given *g, size_t o,
    const char *name, int repeat, unsigned line, char *err, size_t errlen)
{
	for (size_t i = 0; line && i < g->n; i++) {
		if (g->at[i].opt != o)
			continue;
		if (g->at[i].line == 0)
			return errbuf_set(err, errlen, "--%s is on the command line "
			    "too: give it in one place", name);
		if (!repeat)
			return errbuf_set(err, errlen, "--%s given twice (first at "
			    "line %u)", name, g->at[i].line);
	}
	if (g->n == OPTCONFIG_GIVEN_MAX)
		return errbuf_set(err, errlen, "more than %d options given",
		    OPTCONFIG_GIVEN_MAX);
	return 0;
}

/* Record option o given at line with value (after optconfig_may_give). */
static void
optconfig_record(struct optconfig_given *g, size_t o, unsigned line,
    const char *value)
{
	if (g->n == OPTCONFIG_GIVEN_MAX)
		return;		/* optconfig_may_give refused it */
	g->at[g->n].opt = (unsigned short)o;
	g->at[g->n].line = line;
	g->at[g->n++].value = value;
}

/* The k-th value given for option o in g (NULL for a flag), *found 0
 * when there is none. */
static const char *
nth_value(const struct optconfig_given *g, size_t o, size_t k, int *found)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->at[i].opt == o && k-- == 0) {
			*found = 1;
			return g->at[i].value;
		}
	*found = 0;
	return NULL;
}

/* Option o was given at all in g. */
static int
optconfig_has(const struct optconfig_given *g, size_t o)
{
	int found;

	nth_value(g, o, 0, &found);
	return found;
}

/* Option o was given the same values, in the same order, in a and b. */
static int
optconfig_same(const struct optconfig_given *a,
    const struct optconfig_given *b, size_t o)
{
	for (size_t k = 0;; k++) {
		int fa, fb;
		const char *va = nth_value(a, o, k, &fa);
		const char *vb = nth_value(b, o, k, &fb);

		if (fa != fb)
			return 0;
		if (!fa)
			return 1;
		if ((va == NULL) != (vb == NULL) || (va && strcmp(va, vb)))
			return 0;
	}
}

int
optconfig_duration(const char *name, const char *v, uint64_t *ms, char *err,
    size_t errlen)
{
	if (cli_duration_ms(v, ms) || *ms > 86400000)
		return errbuf_set(err, errlen, "--%s: '%s' is not a duration up to "
		    "1d (e.g. 500ms, 5s, 2m)", name, v);
	return 0;
}

/* Only root or the service may change the file or a directory above
 * it. 0, or -1 with err. */
static int
file_private(const char *path, const char *who, char *real, char *err,
    size_t errlen)
{
	char bad[PATH_MAX];
	struct stat st;

	if (!realpath(path, real))
		return errbuf_set(err, errlen, "--config %s: %s", path,
		    strerror(errno));
	if (fs_file_private(real, (unsigned)geteuid(), bad, sizeof bad,
	    &st) == 0)
		return 0;
	if (errno != EPERM)
		return errbuf_set(err, errlen, "--config %s: %s", path,
		    strerror(errno));
	if (strcmp(bad, real) == 0)
		return errbuf_set(err, errlen, "--config %s: a user other than root "
		    "and %s can change it (owner %u, mode %04o): chown it to "
		    "root and chmod go-w", path, who, (unsigned)st.st_uid,
		    (unsigned)(st.st_mode & 07777));
	return errbuf_set(err, errlen, "--config %s: the directory %s can be "
	    "changed by a user other than root and %s (owner %u, mode %04o)",
	    path, bad, who, (unsigned)st.st_uid,
	    (unsigned)(st.st_mode & 07777));
}

/* Read the option file path (at most OPTFILE_MAX bytes) into *buf
 * (malloc'd, len + 1 bytes: optfile_init's). The file and every directory
 * above it must be changeable by root and this process's user only
 * (fsutil.h's rule): whoever can edit it chooses what runs. who names the
 * service in the refusal ("the runner"). 0, or -1 with err. */
static int
optconfig_read(const char *path, const char *who, char **buf, size_t *len,
    char *err, size_t errlen)
{
	char real[PATH_MAX];
	uint8_t *p;

	if (file_private(path, who, real, err, errlen) != 0)
		return -1;
	if (file_read(real, OPTFILE_MAX, &p, len) != 0)
		return errbuf_set(err, errlen, "--config %s: %s", path,
		    errno == EFBIG ? "larger than 64 KiB" : errno == EINVAL ?
		    "not a regular file" : strerror(errno));
	*buf = (char *)p;
	return 0;
}

int
optconfig_find(const struct optconfig_service *s, const char *name)
{
	for (size_t i = 0; i < s->noptions; i++)
		if (strcmp(s->options[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
optconfig_set(const struct optconfig_service *s, struct optconfig_given *g,
    void *cfg, size_t o, const char *v, unsigned line, char *err,
    size_t errlen)
{
	const struct optconfig_option *opt;

	if (o >= s->noptions)
		return errbuf_set(err, errlen, "option %zu unknown", o);
	opt = &s->options[o];
	if (opt->has_value != (v != NULL))
		return errbuf_set(err, errlen, opt->has_value ? "--%s needs a value" :
		    "--%s takes no value", opt->name);
	if (optconfig_may_give(g, o, opt->name, opt->repeat, line, err,
	    errlen) != 0 || s->set_value(cfg, o, v, err, errlen) != 0)
		return -1;
	optconfig_record(g, o, line, v);
	return 0;
}

int
optconfig_apply(const struct optconfig_service *s, struct optconfig_given *g,
    void *cfg, const char *path, char *buf, size_t len, char *err,
    size_t errlen)
{
	struct optfile f;
	struct optfile_entry e;
	char why[512];
	int rc, o;

	optfile_init(&f, buf, len);
	while ((rc = optfile_next(&f, &e, why, sizeof why)) > 0) {
		if ((o = optconfig_find(s, e.name)) < 0)
			return errbuf_set(err, errlen, "%s:%u: unknown option '%s' "
			    "(the file takes the service's options of %s, "
			    "without dashes)", path, e.line, e.name, s->help);
		if (optconfig_set(s, g, cfg, (size_t)o, e.value, e.line, why,
		    sizeof why) != 0)
			return errbuf_set(err, errlen, "%s:%u: %s", path, e.line, why);
	}
	if (rc < 0)
		return errbuf_set(err, errlen, "%s:%u: %s", path, f.line, why);
	return 0;
}

int
optconfig_load(const struct optconfig_service *s, struct optconfig_given *g,
    void *cfg, const char *path, char **file_buf, const char **config_path,
    char *err, size_t errlen)
{
	size_t len;

	if (optconfig_read(path, s->who, file_buf, &len, err, errlen) != 0)
		return -1;
	*config_path = path;
	return optconfig_apply(s, g, cfg, path, *file_buf, len, err, errlen);
}

const char *
optconfig_fixed_change(const struct optconfig_service *s,
    const struct optconfig_given *old, const struct optconfig_given *new)
{
	for (size_t o = 0; o < s->noptions; o++) {
		switch (s->options[o].reload) {
		case OPTCONFIG_FIXED:
			if (!optconfig_same(old, new, o))
				return s->options[o].name;
			break;
		case OPTCONFIG_SWAP:
			if (optconfig_has(old, o) != optconfig_has(new, o))
				return s->options[o].name;
			break;
		case OPTCONFIG_RELOAD:
			break;
		}
	}
	return NULL;
}
