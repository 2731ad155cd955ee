/* optconfig.h - what the services' configurations share between the
 * command line and --config FILE (a file of the same long options, one per
 * line: common/base/optfile.h): the record of what was given where, the
 * rule that an option is given in one place, the file's privacy, and the
 * comparison a reload makes of a restart-only option, over one option
 * table type. Each service keeps its own table, values and set_value
 * (runner_config, sbx_config). Library code: every failure is returned
 * with its message. */
#ifndef AIRLOCK_OPTCONFIG_H
#define AIRLOCK_OPTCONFIG_H

#include <stddef.h>
#include <stdint.h>

#define OPTCONFIG_GIVEN_MAX 512	/* options given in all */

/* What a reload (SIGHUP) may do to an option. */
enum optconfig_reload {
	OPTCONFIG_FIXED,	/* a changed value refuses the whole reload */
	OPTCONFIG_RELOAD,	/* what starts after the reload gets it */
	OPTCONFIG_SWAP		/* its value may change, not whether given */
};

/* One entry of a service's option table. */
struct optconfig_option {
	const char *name;		/* the long option, without "--" */
	int has_value;
	int repeat;			/* may be given more than once */
	enum optconfig_reload reload;
};

/* A service's options: its table, where --help lists them, who names it
 * in a refusal of its file ("the runner"), and set_value putting a
 * checked value of option o into the service's configuration cfg (0, or
 * -1 with a message naming the option). */
struct optconfig_service {
	const struct optconfig_option *options;
	size_t noptions;
	const char *help;
	const char *who;
	int (*set_value)(void *cfg, size_t o, const char *value, char *err,
	    size_t errlen);
};

/* Every option as given, in order (line 0: the command line). */
struct optconfig_given {
	struct {
		unsigned short opt;	/* index into the service's table */
		unsigned line;
		const char *value;	/* NULL for a flag */
	} at[OPTCONFIG_GIVEN_MAX];
	size_t n;
};

/* A duration option's value: up to a day (500ms, 5s, 2m). 0, or -1 with
 * a message naming the option. */
int optconfig_duration(const char *name, const char *value, uint64_t *ms,
    char *err, size_t errlen);

/* The index in s's table of the option called name (no dashes), or -1. */
int optconfig_find(const struct optconfig_service *s, const char *name);

/* Set option o of s to value (NULL for a flag) in cfg through
 * s->set_value, as given at line (0: the command line, where the last
 * wins), and record it in g. Refused: a value missing or not taken, a
 * file's option also on the command line or given twice in the file
 * (unless repeat), one past OPTCONFIG_GIVEN_MAX. 0, or -1 with err. */
int optconfig_set(const struct optconfig_service *s, struct optconfig_given *g,
    void *cfg, size_t o, const char *value, unsigned line, char *err,
    size_t errlen);

/* Apply the option file text buf[0..len) (optfile_init's buffer) to cfg
 * through optconfig_set, naming path in every message ("PATH:LINE: why").
 * 0, or -1 with err. */
int optconfig_apply(const struct optconfig_service *s,
    struct optconfig_given *g, void *cfg, const char *path, char *buf,
    size_t len, char *err, size_t errlen);

/* Read the option file path (at most OPTFILE_MAX bytes) into *file_buf
 * (malloc'd, the caller's to free), set *config_path to path and apply it
 * as optconfig_apply does. The file and every directory above it must be
 * changeable by root and this process's user only (fsutil.h's rule):
 * whoever can edit it chooses what runs. 0, or -1 with err naming s->who. */
int optconfig_load(const struct optconfig_service *s,
    struct optconfig_given *g, void *cfg, const char *path, char **file_buf,
    const char **config_path, char *err, size_t errlen);

/* The first option of s a reload from old to new may not make (a fixed
 * one whose values differ as written, a swap one given in one and not the
 * other), or NULL when none. */
const char *optconfig_fixed_change(const struct optconfig_service *s,
    const struct optconfig_given *old, const struct optconfig_given *new);

#endif
