/* runner_config.h - the runner's configuration: its options, one table
 * for the command line and for --config FILE (a file of the same long
 * options, one per line: common/base/optfile.h), their values checked,
 * the rules between them, and which ones a reload (SIGHUP) may change:
 *   fixed   only at start: a changed value refuses the whole reload
 *   reload  new leases and handshakes get the new value
 *   swap    the value may change, not whether it is given (turning
 *           approvals or egress enforcement on or off needs a restart)
 * An option is given in one place: on the command line or in the file.
 * Library code: every failure is returned with its message. */
#ifndef AIRLOCK_RUNNER_CONFIG_H
#define AIRLOCK_RUNNER_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "common/jail/jail.h"
#include "common/policy/guard.h"
#include "common/service/optconfig.h"
#include "common/service/supervisor.h"
#include "common/wire/secret.h"

/* Every option of the service, in --help's order. */
extern const struct optconfig_option runner_options[];
extern const size_t runner_noptions;

/* The table, its help and its set_value, for optconfig.h's functions
 * (optconfig_find: an option's index by name). */
extern const struct optconfig_service runner_optconfig;

/* What the operator chose. The strings are borrowed from argv or from
 * file_buf, and must outlive the struct. */
struct runner_config {
	const char *listen[SUPERVISOR_LISTEN_MAX];
	size_t nlisten;
	const char *secret_files[SECRET_RING_MAX];
	size_t nsecret;
	const char *jail;		/* the mode's name, as given */
	const char *allow;		/* --allow, or NULL: the default */
	uint64_t max_leases, max_per_tenant, max_per_peer, preauth_uid;
	uint64_t handshake_ms, grace_ms, ping_ms, liveness_ms;
	const char *state_dir;
	const char *review_pubkey;	/* NULL: approvals not enforced */
	const char *revocations;
	const char *floor_dir;		/* --floor-dir, or NULL: state_dir */
	const char *lock_store;		/* --lock-store DIR, or NULL */
	const char *surface_store;	/* --surface-store DIR, or NULL */
	uint32_t lock_uid_first, lock_uid_last;	/* --lock-uid-range */
	int require_lock;		/* --require-lock */
	const char *prefetch;		/* --prefetch FILE, or NULL */
	unsigned prefetch_jobs;		/* --prefetch-jobs */
	const char *py_index;		/* --py-index URL, or NULL */
	const char *log_format;		/* NULL: the default */
	struct jail_config jail_cfg;
	const char *ro_paths[JAIL_PATHS_MAX];
	struct {
		enum guard_list list;
		const char *value;
	} guard_items[3 * GUARD_LIST_MAX];	/* --script-dir ... */
	size_t nguard_items;
	uint16_t ports[JAIL_PORTS_MAX];
	int preflight;			/* --check of a configuration */
	const char *metrics;		/* --metrics ADDR, or NULL */
	const char *egress_allow;	/* --egress-allow, or NULL: the
					 * default, the launcher's hosts */
	int shared_network;		/* --shared-network: leases share
					 * the runner's network namespace */
	uint64_t drain_ms;		/* --drain-timeout */
	uint64_t max_lease_ms;		/* --max-lease-duration */
	int limits_given;		/* a cgroup limit flag was used */
	struct optconfig_given given;	/* every option as given */
	const char *config_path;	/* --config FILE, or NULL */
	char *file_buf;			/* its bytes (malloc'd), or NULL */
};

/* The defaults of every option. */
void runner_config_defaults(struct runner_config *c);

/* Set option opt to value (NULL for a flag) as given on the command line
 * (line 0; given again: the last wins) or at line of the file (given
 * again there, or also on the command line: refused). 0, or -1 with a
 * message naming the option. */
int runner_config_set(struct runner_config *c, size_t opt, const char *value,
    unsigned line, char *err, size_t errlen);

/* Apply an option file's text buf[0..len) (buf holds len + 1 bytes and
 * is written to; the values point into it), naming it path in messages
 * ("PATH:LINE: why"). 0, or -1 with err. */
int runner_config_apply_text(struct runner_config *c, const char *path,
    char *buf, size_t len, char *err, size_t errlen);

/* Read the file path (at most OPTFILE_MAX bytes) into c->file_buf (c
 * owns it) and apply it. The file and every directory above it must be
 * changeable by root and this process's user only (fsutil.h's rule).
 * 0, or -1 with err. */
int runner_config_load(struct runner_config *c, const char *path, char *err,
    size_t errlen);

/* The rules between options, once all are set; check: a --check of this
 * configuration (preflight). 0, or an exit code (enum exit_code) with
 * err. */
int runner_config_finish(struct runner_config *c, int check, char *err,
    size_t errlen);

/* The first option a reload from old to new may not make (a fixed one
 * whose values differ as written, or a swap one given in one and not the
 * other), or NULL when none. */
const char *runner_config_fixed_change(const struct runner_config *old,
    const struct runner_config *new);

/* Copy what a reload changes from src into dst: every reload and swap
 * option, the record of what was given and the file buffer (dst's old one
 * is the caller's to free). */
void runner_config_take_reloadable(struct runner_config *dst,
    const struct runner_config *src);

#endif
