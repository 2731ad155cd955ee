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

int
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

void
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

int
optconfig_has(const struct optconfig_given *g, size_t o)
{
	int found;

	nth_value(g, o, 0, &found);
	return found;
}

int
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

int
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
optconfig_apply(const char *path, char *buf, size_t len, const char *help,
    int (*find)(const char *name),
    int (*set)(void *ctx, size_t o, const char *value, unsigned line,
    char *err, size_t errlen), void *ctx, char *err, size_t errlen)
{
	struct optfile f;
	struct optfile_entry e;
	char why[512];
	int rc, o;

	optfile_init(&f, buf, len);
	while ((rc = optfile_next(&f, &e, why, sizeof why)) > 0) {
		if ((o = find(e.name)) < 0)
			return errbuf_set(err, errlen, "%s:%u: unknown option '%s' "
			    "(the file takes the service's options of %s, "
			    "without dashes)", path, e.line, e.name, help);
		if (set(ctx, (size_t)o, e.value, e.line, why, sizeof why) != 0)
			return errbuf_set(err, errlen, "%s:%u: %s", path, e.line, why);
	}
	if (rc < 0)
		return errbuf_set(err, errlen, "%s:%u: %s", path, f.line, why);
	return 0;
}
