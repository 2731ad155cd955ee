/* runner_service.h - the runner's lease service: handshakes in the pre-auth
 * process (common/service/preauth.h), then admission against the caps, one
 * handler process per authenticated connection (common/service/lease.h),
 * reload on SIGHUP and the drain on SIGTERM. applets/runner.c parses the
 * command line into a runner_service_config and calls in. */
#ifndef AIRLOCK_RUNNER_SERVICE_H
#define AIRLOCK_RUNNER_SERVICE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "common/egress/egress_lease.h"
#include "common/jail/jail.h"
#include "common/policy/eckey.h"
#include "common/policy/guard.h"
#include "common/policy/revocation.h"
#include "common/service/lease.h"
#include "common/service/supervisor.h"
#include "common/wire/secret.h"

/* What the operator chose (the runner's flags); the strings are the
 * caller's and must outlive the service. */
struct runner_service_config {
	const char *listen[SUPERVISOR_LISTEN_MAX];
	size_t nlisten;
	const char *secret_files[SECRET_RING_MAX + 1];
	size_t nsecret;
	const char *jail;		/* the mode's name, as given */
	char *allow;			/* --allow, or NULL: the default */
	uint64_t max_leases, max_per_tenant, max_per_peer, preauth_uid;
	uint64_t handshake_ms, grace_ms, ping_ms, liveness_ms;
	const char *state_dir;
	const char *review_pubkey;	/* NULL: approvals not enforced */
	const char *revocations;
	struct jail_config jail_cfg;
	const char *ro_paths[JAIL_PATHS_MAX];
	struct {
		enum guard_list list;
		const char *value;
	} guard_items[3 * GUARD_LIST_MAX];	/* --script-dir ... */
	size_t nguard_items;
	uint16_t ports[JAIL_PORTS_MAX];
	int preflight;			/* --check of a configuration */
	const char *egress_allow;	/* --egress-allow, or NULL */
	uint64_t drain_ms;		/* --drain-timeout */
};

struct runner_service {
	struct runner_service_config cfg;
	struct lease_config lease;
	struct guard_policy guard;
	struct eckey_pub review_key;
	struct revocation_set revoked;
	struct jail jail;
	struct egress_config egress;
	struct sock_fprog seccomp;
	struct secret_ring ring;	/* the secrets accepted */
	struct supervisor sv;
	const char *path;		/* PATH given to every child */
	char launcher_dir[PATH_MAX];	/* STATE/launchers (guardfs.h) */
	int draining;
};

/* The jail's side of cfg that the host report needs too: the test hook
 * AIRLOCK_TEST_LANDLOCK_ABI, the launchers, the seccomp program. path is
 * the PATH every child gets. 0, or an exit code (enum exit_code) with err
 * set. */
int runner_service_jail_config(struct runner_service *r, const char *path,
    char *err, size_t errlen);

/* Everything the service checks and builds before it serves, in order:
 * signals, secrets, the guard and its files, the state directory, the
 * jail, egress, the listeners, the reviewer key and revocation list, the
 * pre-auth process. After runner_service_jail_config. 0, or an exit code
 * (EXIT_USAGE: a value no host accepts; EXIT_CONFIG: this host or a file;
 * EXIT_OSERR) with err set. */
int runner_service_setup(struct runner_service *r, char *err, size_t errlen);

/* A preflight (cfg.preflight) is over: stop listening, release the jail. */
void runner_service_end_preflight(struct runner_service *r);

/* Log what starts, serve until a stop signal, drain (SIGHUP reloads).
 * 0 after the drain; -1 with errno when poll failed. */
int runner_service_serve(struct runner_service *r);

/* Release what setup made. */
void runner_service_fini(struct runner_service *r);

#endif
