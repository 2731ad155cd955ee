/* sbx_config.h - the options of `sandbox serve`: one table for the
 * command line and for --config FILE (the same long options, one a line:
 * common/base/optfile.h, with common/service/optconfig.h's rules), their
 * values checked, the rules between them, and which a reload (SIGHUP) may
 * change:
 *   fixed   only at start: a changed value refuses the whole reload
 *   reload  executions admitted after the reload get the new value
 * run, check and call parse their limit and jail options here too.
 * Library code: every failure is returned with its message. */
#ifndef AIRLOCK_SBX_CONFIG_H
#define AIRLOCK_SBX_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "common/sandbox/sbx_budget.h"
#include "common/sandbox/sbx_env.h"
#include "common/sandbox/sbx_proto.h"
#include "common/service/optconfig.h"
#include "common/service/supervisor.h"
#include "common/wire/secret.h"

/* Every option of serve, in --help's order. */
extern const struct optconfig_option sbx_options[];
extern const size_t sbx_noptions;

/* The table, its help and its set_value, for optconfig.h's functions
 * (optconfig_find: an option's index by name). */
extern const struct optconfig_service sbx_optconfig;

/* What the service runs by (sbx_server), as the options set it. */
struct sbx_server_config {
	const char *const *secret_files;	/* re-read on SIGHUP */
	size_t nsecret;
	struct sbx_limits max;		/* a request's limits are clamped */
	struct sbx_limits def;		/* what a request's 0 asks for */
	uint64_t disk;			/* --disk; 0: half the memory limit */
	uint64_t max_disk;		/* caps disk and its default */
	struct sbx_budget_config budget;
	uint64_t queue_timeout_ms;	/* longest wait in a queue */
	uint64_t drain_ms;		/* SIGTERM: executions may finish
					 * this long, then end (shutdown) */
	uint64_t handshake_ms;		/* the handshake, then the upload */
	uint32_t max_per_peer;		/* pending handshakes of one source */
	uint32_t preauth_uid;		/* service_start_preauth's uid */
	const char *exec_interpreter;	/* absolute; NULL: exec is refused */
	uint32_t warm_python;		/* --warm python=N: warm slots kept */
	uint32_t warm_java;		/* --warm java=N */
};

/* What the operator chose. The strings are borrowed from argv or from
 * file_buf, and must outlive the struct. */
struct sbx_config {
	struct sbx_server_config sc;
	const char *listen[SUPERVISOR_LISTEN_MAX];
	size_t nlisten;
	const char *secret_files[SECRET_RING_MAX + 1];
	struct sbx_jail_opts jo;
	const char *metrics;		/* --metrics ADDR, or NULL */
	const char *log_format;		/* NULL: the default */
	struct optconfig_given given;	/* every option as given */
	const char *config_path;	/* --config FILE, or NULL */
	char *file_buf;			/* its bytes (malloc'd), or NULL */
};

/* The defaults of every option. */
void sbx_config_defaults(struct sbx_config *c);

/* Set option opt to value (NULL for a flag) as given on the command line
 * (line 0; given again: the last wins, or adds for a repeatable one) or
 * at line of the file (given again there, or also on the command line:
 * refused). 0, or -1 with a message naming the option. */
int sbx_config_set(struct sbx_config *c, size_t opt, const char *value,
    unsigned line, char *err, size_t errlen);

/* Apply an option file's text buf[0..len) (buf holds len + 1 bytes and
 * is written to; the values point into it), naming it path in messages
 * ("PATH:LINE: why"). 0, or -1 with err. */
int sbx_config_apply_text(struct sbx_config *c, const char *path, char *buf,
    size_t len, char *err, size_t errlen);

/* Read the file path into c->file_buf (c owns it) and apply it: the file
 * and every directory above it changeable by root and this process's
 * user only. Messages name "PATH:LINE". 0, or -1 with err. */
int sbx_config_load(struct sbx_config *c, const char *path, char *err,
    size_t errlen);

/* The rules between options, once all are set (defaults above a maximum
 * are lowered to it; the pre-auth uid is taken from the range when not
 * given). 0, or -1 with err. */
int sbx_config_finish(struct sbx_config *c, char *err, size_t errlen);

/* The first fixed option whose values differ between old and new as
 * written, or NULL when none. */
const char *sbx_config_fixed_change(const struct sbx_config *old,
    const struct sbx_config *new);

/* A limit option (timeout, cpu-time, memory, pids, output; cpu: the old
 * name, refused) or a jail option (jail ... java-denylist) called name
 * into l or o: 1 taken, 0 not one of them, -1 with err. */
int sbx_limit_set(struct sbx_limits *l, const char *name, const char *v,
    char *err, size_t errlen);
int sbx_jail_opt_set(struct sbx_jail_opts *o, const char *name,
    const char *v, char *err, size_t errlen);

/* The defaults of the jail options and of a request's limits. */
void sbx_jail_opts_default(struct sbx_jail_opts *o);
void sbx_limits_default(struct sbx_limits *l);

#endif
