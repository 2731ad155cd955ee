/* fuzz_runner_config.c - the runner's --config FILE (common/service/
 * runner_config.c) under arbitrary bytes, at start and at a reload. The
 * first byte picks options given on the command line (bit 6: a --check),
 * the rest is the file at start, and after a 0xff byte (which no file
 * may hold) the file a reload reads. Each file is applied onto the
 * command line's options and finished (runner_config_finish), as
 * runner_service does.
 * Invariants: a refusal of the file names "f:LINE: "; every option
 * recorded is the runner's, at a line of the file; every value taken is
 * within what its message promises (counts, durations, CPUs, uids,
 * ports, sizes, words); a finished configuration keeps the rules between
 * options: a jail mode, a listener, the pre-auth uid in neither the
 * leases' range nor the lock installer's, the two ranges apart, no limit
 * or network option in mode none (and its limits zero), the options that
 * need another (--surface-store, --revocations, --lock-store and its
 * companions) with it, liveness past ping. A configuration never differs
 * from itself (runner_config_fixed_change); when the reload's differs in
 * no fixed option, the one in force with the reload's options taken
 * (runner_config_take_reloadable) is the reload's in every field: no
 * reloadable option is left behind, no fixed one changed. */
#include <string.h>

#include "common/base/cli.h"
#include "common/base/xwrap.h"
#include "common/service/runner_config.h"
#include "config_input.h"
#include "fuzz.h"

/* What the command line may give (bit i of the first byte). */
static const struct config_opt cmdline[] = {
	{ "listen", "127.0.0.1:7000" }, { "jail", "uid" },
	{ "uid-range", "200000-200999" }, { "secret-file", "/etc/s" },
	{ "review-pubkey", "/etc/k.pub" }, { "memory", "1G" },
};
#define CHECK_BIT 6

static int
strs_eq(const char *const *a, const char *const *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!config_str_eq(a[i], b[i]))
			return 0;
	return 1;
}

/* Every field of two configurations alike, strings by their bytes (the
 * file buffer itself aside). */
static int
same_config(const struct runner_config *a, const struct runner_config *b)
{
	const struct jail_config *ja = &a->jail_cfg, *jb = &b->jail_cfg;

	if (a->nlisten != b->nlisten || !strs_eq(a->listen, b->listen,
	    a->nlisten) || a->nsecret != b->nsecret ||
	    !strs_eq(a->secret_files, b->secret_files, a->nsecret) ||
	    !config_str_eq(a->jail, b->jail) ||
	    !config_str_eq(a->allow, b->allow) ||
	    a->max_leases != b->max_leases ||
	    a->max_per_tenant != b->max_per_tenant ||
	    a->max_per_peer != b->max_per_peer ||
	    a->preauth_uid != b->preauth_uid ||
	    a->handshake_ms != b->handshake_ms || a->grace_ms != b->grace_ms ||
	    a->ping_ms != b->ping_ms || a->liveness_ms != b->liveness_ms ||
	    !config_str_eq(a->state_dir, b->state_dir) ||
	    !config_str_eq(a->review_pubkey, b->review_pubkey) ||
	    !config_str_eq(a->revocations, b->revocations) ||
	    !config_str_eq(a->floor_dir, b->floor_dir) ||
	    !config_str_eq(a->lock_store, b->lock_store) ||
	    !config_str_eq(a->surface_store, b->surface_store) ||
	    a->lock_uid_first != b->lock_uid_first ||
	    a->lock_uid_last != b->lock_uid_last ||
	    a->require_lock != b->require_lock ||
	    !config_str_eq(a->prefetch, b->prefetch) ||
	    a->prefetch_jobs != b->prefetch_jobs ||
	    !config_str_eq(a->py_index, b->py_index) ||
	    !config_str_eq(a->log_format, b->log_format) ||
	    a->preflight != b->preflight ||
	    !config_str_eq(a->metrics, b->metrics) ||
	    !config_str_eq(a->egress_allow, b->egress_allow) ||
	    a->shared_network != b->shared_network ||
	    a->drain_ms != b->drain_ms || a->max_lease_ms != b->max_lease_ms ||
	    a->limits_given != b->limits_given ||
	    !config_str_eq(a->config_path, b->config_path))
		return 0;
	if (ja->mode != jb->mode || ja->unit != jb->unit ||
	    ja->uid_first != jb->uid_first || ja->uid_last != jb->uid_last ||
	    !config_str_eq(ja->cgroup_dir, jb->cgroup_dir) ||
	    memcmp(&ja->limits, &jb->limits, sizeof ja->limits) != 0 ||
	    ja->landlock != jb->landlock || ja->allow_bind != jb->allow_bind ||
	    ja->negress != jb->negress || memcmp(a->ports, b->ports,
	    ja->negress * sizeof *a->ports) != 0 || ja->nro != jb->nro ||
	    !strs_eq(a->ro_paths, b->ro_paths, ja->nro) ||
	    ja->check_only != jb->check_only)
		return 0;
	if (a->nguard_items != b->nguard_items)
		return 0;
	for (size_t i = 0; i < a->nguard_items; i++)
		if (a->guard_items[i].list != b->guard_items[i].list ||
		    !config_str_eq(a->guard_items[i].value,
		    b->guard_items[i].value))
			return 0;
	if (a->given.n != b->given.n)
		return 0;
	for (size_t i = 0; i < a->given.n; i++)
		if (a->given.at[i].opt != b->given.at[i].opt ||
		    a->given.at[i].line != b->given.at[i].line ||
		    !config_str_eq(a->given.at[i].value, b->given.at[i].value))
			return 0;
	return 1;
}

/* What each value taken promises, finished or not. */
static void
check_values(const struct runner_config *c)
{
	const struct jail_config *j = &c->jail_cfg;
	const struct jail_limits *l = &j->limits;

	FUZZ_ASSERT(c->max_leases >= 1 && c->max_leases <= 100000);
	FUZZ_ASSERT(c->max_per_tenant >= 1 && c->max_per_tenant <= 100000);
	FUZZ_ASSERT(c->max_per_peer >= 1 && c->max_per_peer <= 100000);
	FUZZ_ASSERT(c->preauth_uid <= 0xfffffffdUL);
	FUZZ_ASSERT(c->handshake_ms >= 1 && c->handshake_ms <= 86400000);
	FUZZ_ASSERT(c->grace_ms >= 1 && c->grace_ms <= 86400000);
	FUZZ_ASSERT(c->ping_ms >= 1 && c->ping_ms <= 86400000);
	FUZZ_ASSERT(c->liveness_ms >= 1 && c->liveness_ms <= 86400000);
	FUZZ_ASSERT(c->drain_ms >= 1 && c->drain_ms <= 86400000);
	FUZZ_ASSERT(c->max_lease_ms >= 1 && c->max_lease_ms <= 2592000000ull);
	FUZZ_ASSERT(c->prefetch_jobs >= 1 && c->prefetch_jobs <= 16);
	FUZZ_ASSERT(l->cpu_millicpus <= 1024000 && (l->cpu_millicpus == 0 ||
	    l->cpu_millicpus >= 10));
	FUZZ_ASSERT(l->pids <= 1000000 && l->nproc <= 1000000 &&
	    l->nofile <= 1000000);
	FUZZ_ASSERT(!c->log_format || strcmp(c->log_format, "human") == 0 ||
	    strcmp(c->log_format, "json") == 0);
	FUZZ_ASSERT(j->uid_first <= j->uid_last + 1 &&
	    j->uid_last <= CLI_UID_MAX);
	FUZZ_ASSERT(c->lock_uid_first <= c->lock_uid_last &&
	    c->lock_uid_last <= CLI_UID_MAX);
	FUZZ_ASSERT(j->negress <= JAIL_PORTS_MAX && j->nro <= JAIL_PATHS_MAX);
	for (size_t i = 0; i < j->negress; i++)
		FUZZ_ASSERT(c->ports[i] != 0);
	FUZZ_ASSERT(c->nlisten <= SUPERVISOR_LISTEN_MAX &&
	    c->nsecret <= SECRET_RING_MAX);
}

/* The rules between options of a finished configuration (not --check's
 * report alone). */
static void
check_finished(const struct runner_config *c)
{
	const struct jail_config *j = &c->jail_cfg;
	const struct jail_limits *l = &j->limits;

	FUZZ_ASSERT(c->nlisten >= 1 && c->jail != NULL);
	if (j->mode == JAIL_NONE) {
		FUZZ_ASSERT(!c->limits_given && !j->cgroup_dir && !j->negress &&
		    !j->allow_bind && j->landlock != JAIL_LANDLOCK_REQUIRE &&
		    !c->egress_allow && !c->shared_network && !c->lock_store);
		FUZZ_ASSERT(l->memory == 0 && l->pids == 0 && l->nproc == 0 &&
		    l->nofile == 0 && l->fsize == 0 && l->tmpfs == 0 &&
		    l->cpu_millicpus == 0);
	} else {
		/* the pre-auth process's uid is no lease's */
		FUZZ_ASSERT(j->uid_first >= 1 && j->uid_first <= j->uid_last);
		FUZZ_ASSERT(c->preauth_uid >= 1 &&
		    (c->preauth_uid < j->uid_first ||
		    c->preauth_uid > j->uid_last));
		FUZZ_ASSERT(c->shared_network || !j->negress);
	}
	if (c->lock_store) {
		/* the installer's uids: none a lease's, none the pre-auth
		 * process's */
		FUZZ_ASSERT(c->review_pubkey && c->lock_uid_first >= 1);
		FUZZ_ASSERT(c->lock_uid_last < j->uid_first ||
		    c->lock_uid_first > j->uid_last);
		FUZZ_ASSERT(c->preauth_uid < c->lock_uid_first ||
		    c->preauth_uid > c->lock_uid_last);
	} else {
		FUZZ_ASSERT(!c->lock_uid_first && !c->require_lock &&
		    !c->prefetch && !c->py_index);
	}
	FUZZ_ASSERT(!c->surface_store || c->review_pubkey);
	FUZZ_ASSERT(!c->revocations || c->review_pubkey);
	FUZZ_ASSERT(!(c->shared_network && c->egress_allow));
	FUZZ_ASSERT(c->liveness_ms > c->ping_ms);
	FUZZ_ASSERT(j->ro_paths == c->ro_paths);
}

/* A file onto the command line, then finished: 0, or -1 (refused). */
static int
configure(struct runner_config *c, unsigned pick, const uint8_t *data,
    size_t size, char *buf)
{
	char err[1024];
	int rc;

	runner_config_defaults(c);
	config_command_line(&runner_optconfig, &c->given, c, cmdline,
	    sizeof cmdline / sizeof *cmdline, pick);
	memcpy(buf, data, size);
	rc = runner_config_apply_text(c, "f", buf, size, err, sizeof err);
	config_applied(&runner_optconfig, &c->given, data, size, rc, err);
	if (rc != 0)
		return -1;	/* a value refused may be half set: dropped */
	check_values(c);
	rc = runner_config_finish(c, pick >> CHECK_BIT & 1, err, sizeof err);
	if (rc != 0) {
		FUZZ_ASSERT(rc == EXIT_USAGE && err[0]);
		return -1;
	}
	if (!c->preflight || c->nlisten || c->nsecret)
		check_finished(c);
	FUZZ_ASSERT(runner_config_fixed_change(c, c) == NULL);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf_a[OPTFILE_MAX + 1], buf_b[OPTFILE_MAX + 1];
	static struct runner_config a, b, dst;
	struct config_input in;

	if (config_input_split(data, size, &in) != 0 ||
	    configure(&a, in.pick, in.file[0], in.len[0], buf_a) != 0 ||
	    !in.reload ||
	    configure(&b, in.pick, in.file[1], in.len[1], buf_b) != 0 ||
	    runner_config_fixed_change(&a, &b) != NULL)
		return 0;
	FUZZ_ASSERT(runner_config_fixed_change(&b, &a) == NULL);
	dst = a;
	runner_config_take_reloadable(&dst, &b);
	FUZZ_ASSERT(same_config(&dst, &b));
	return 0;
}
