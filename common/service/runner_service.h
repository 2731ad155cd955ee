/* runner_service.h - the runner's lease service: handshakes in the pre-auth
 * process (common/service/preauth.h), then admission against the caps, one
 * handler process per authenticated connection (common/service/lease.h),
 * reload on SIGHUP and the drain on SIGTERM. applets/runner.c parses the
 * command line (and --config FILE) into a runner_config and calls in.
 *
 * SIGHUP reads again, for new leases and handshakes, what can change
 * without dropping a lease: the secrets, the reviewer key, the revocation
 * list, and with --config the file's reload and swap options
 * (runner_config.h). All or nothing: the new configuration is read and
 * checked whole (the guard's lists and script dirs, limits the cgroups
 * can hold, egress) before anything switches; on any failure the old one
 * stays and the log says why (FILE:LINE, or the option that needs a
 * restart). Live leases keep what they started with. */
#ifndef AIRLOCK_RUNNER_SERVICE_H
#define AIRLOCK_RUNNER_SERVICE_H

#include <limits.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "common/egress/egress_lease.h"
#include "common/jail/jail.h"
#include "common/policy/eckey.h"
#include "common/policy/guard.h"
#include "common/policy/revocation.h"
#include "common/service/lease.h"
#include "common/service/problems.h"
#include "common/service/runner_config.h"
#include "common/lock/locktree.h"
#include "common/service/supervisor.h"
#include "common/wire/secret.h"

struct runner_service {
	struct runner_config cfg;	/* in force */
	struct runner_config base;	/* the command line alone: a reload
					 * reads --config FILE onto a copy */
	char *start_buf;		/* the file as read at start: the
					 * fixed options' strings, kept */
	uint64_t grace_max_ms;		/* the longest kill grace a live
					 * lease may have (the drain's) */
	struct lease_config lease;
	struct guard_policy guard;
	struct eckey_pub review_key;
	struct revocation_set revoked;
	char revoked_floor[PATH_MAX];	/* STATE/revocations-KEYID.floor */
	size_t revoked_seen;		/* ids when the trees were swept */
	int sweep_again;		/* a tree was busy at the last sweep */
	pid_t prefetch_pid;		/* the --prefetch run; 0: none */
	int prefetch_again;		/* start it (again) when it is gone */
	int64_t list_look_at;		/* mono ms: the list's next look */
	struct locktree_cfg locks;	/* --lock-store */
	char trees[PATH_MAX], lock_install[PATH_MAX];
	struct jail jail;
	struct egress_config egress;
	struct sock_fprog egress_filter;	/* the proxies' allowlist
					 * (egress_proxy_filter), with egress */
	struct sock_fprog seccomp;
	struct secret_ring ring;	/* the secrets accepted */
	struct supervisor sv;
	const char *path;		/* PATH given to every child */
	char launcher_dir[PATH_MAX];	/* STATE/launchers (guardfs.h) */
	struct problems problems;	/* a preflight's, all of them */
	int draining;
};

/* r's configuration: the command line's options (cmdline, with its
 * config_path), then --config FILE's, then the rules between them
 * (runner_config_finish; check: a --check). 0, or an exit code with err
 * (EXIT_CONFIG for anything in the file, naming FILE:LINE). */
int runner_service_configure(struct runner_service *r,
    const struct runner_config *cmdline, int check, char *err,
    size_t errlen);

/* The jail's side of cfg that the host report needs too: the test hook
 * AIRLOCK_TEST_LANDLOCK_ABI, the launchers, the seccomp program. path is
 * the PATH every child gets. 0, or an exit code (enum exit_code) with err
 * set. */
int runner_service_jail_config(struct runner_service *r, const char *path,
    char *err, size_t errlen);

/* Everything the service checks and builds before it serves (r->cfg
 * finished, r->base the command line's, r->start_buf its file), in order:
 * signals, secrets, the guard and its files, the state directory, the
 * jail, egress, the listeners, the reviewer key and revocation list, the
 * pre-auth process. After runner_service_jail_config. 0, or an exit code
 * (EXIT_USAGE: a value no host accepts; EXIT_CONFIG: this host or a file;
 * EXIT_OSERR) with err set. A preflight (cfg.preflight) goes on past a
 * problem to every step that does not depend on it, logs each problem
 * as it is found (problems.h) and returns EXIT_CONFIG if there was any. */
int runner_service_setup(struct runner_service *r, char *err, size_t errlen);

/* --check's line on the network: whether each lease of jail mode mode
 * gets a network namespace of its own here (tried as a lease's handler
 * would), whether c uses it, and the fix when not. One line to out. */
void runner_service_print_network(const struct runner_config *c,
    enum jail_mode mode, FILE *out);

/* A preflight (cfg.preflight) is over: stop listening, release the jail. */
void runner_service_end_preflight(struct runner_service *r);

/* Log what starts, serve until a stop signal, drain (SIGHUP reloads).
 * 0 after the drain; -1 with errno when poll failed. */
int runner_service_serve(struct runner_service *r);

/* Release what setup made. */
void runner_service_fini(struct runner_service *r);

#endif
