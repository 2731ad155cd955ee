/* optconfig.h - what the services' configurations share between the
 * command line and --config FILE (a file of the same long options, one per
 * line: common/base/optfile.h): the record of what was given where, the
 * rule that an option is given in one place, the file's privacy, and the
 * comparison a reload makes of a restart-only option. Each service keeps
 * its own option table and values (runner_config, sbx_config). Library
 * code: every failure is returned with its message. */
#ifndef AIRLOCK_OPTCONFIG_H
#define AIRLOCK_OPTCONFIG_H

#include <stddef.h>
#include <stdint.h>

#define OPTCONFIG_GIVEN_MAX 512	/* options given in all */

/* Every option as given, in order (line 0: the command line). */
struct optconfig_given {
	struct {
		unsigned short opt;	/* index into the service's table */
		unsigned line;
		const char *value;	/* NULL for a flag */
	} at[OPTCONFIG_GIVEN_MAX];
	size_t n;
};

/* May option o (called name; repeat: it may be given more than once) be
 * given at line (0: the command line, where the last wins)? Refused: a
 * file's option also on the command line, given twice in the file, one
 * past OPTCONFIG_GIVEN_MAX. 0, or -1 with err. */
int optconfig_may_give(const struct optconfig_given *g, size_t o,
    const char *name, int repeat, unsigned line, char *err, size_t errlen);

/* Record option o given at line with value (after optconfig_may_give). */
void optconfig_record(struct optconfig_given *g, size_t o, unsigned line,
    const char *value);

/* Option o was given at all in g. */
int optconfig_has(const struct optconfig_given *g, size_t o);

/* Option o was given the same values, in the same order, in a and b. */
int optconfig_same(const struct optconfig_given *a,
    const struct optconfig_given *b, size_t o);

/* A duration option's value: up to a day (500ms, 5s, 2m). 0, or -1 with
 * a message naming the option. */
int optconfig_duration(const char *name, const char *value, uint64_t *ms,
    char *err, size_t errlen);

/* Read the option file path (at most OPTFILE_MAX bytes) into *buf
 * (malloc'd, len + 1 bytes: optfile_init's). The file and every directory
 * above it must be changeable by root and this process's user only
 * (fsutil.h's rule): whoever can edit it chooses what runs. who names the
 * service in the refusal ("the runner"). 0, or -1 with err. */
int optconfig_read(const char *path, const char *who, char **buf,
    size_t *len, char *err, size_t errlen);

/* Apply the option file text buf[0..len) (optfile_init's buffer) through
 * find (a name's index, or -1) and set (0, or -1 with err), naming path
 * in every message ("PATH:LINE: why"); help names where the options are
 * listed. 0, or -1 with err. */
int optconfig_apply(const char *path, char *buf, size_t len,
    const char *help, int (*find)(const char *name),
    int (*set)(void *ctx, size_t o, const char *value, unsigned line,
    char *err, size_t errlen), void *ctx, char *err, size_t errlen);

#endif
