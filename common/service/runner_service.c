/* runner_service.c - the runner's lease service (runner_service.h). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/cli.h"
#include "common/base/clock.h"
#include "common/base/fsutil.h"
#include "common/base/log.h"
#include "common/base/random_id.h"
#include "common/base/signal_fd.h"
#include "common/base/xwrap.h"
#include "common/egress/egress_proxy.h"
#include "common/jail/cgroup.h"
#include "common/jail/diskquota.h"
#include "common/jail/jail_options.h"
#include "common/jail/seccomp_policy.h"
#include "common/lock/lockprefetch.h"
#include "common/policy/guardfs.h"
#include "common/service/ctlmsg.h"
#include "common/service/metrics.h"
#include "common/service/runner_service.h"
#include "common/service/service.h"
#include "common/wire/proto.h"
#include "common/wire/version.h"

/* Format err and return code: setup's way of failing. */
static int
fail(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}

struct handler {
	struct supervisor_handler sv;
	int refusing;			/* forked only to send a refusal */
	int prefetching;		/* no lease: the --prefetch run */
	char tenant[PROTO_ID_MAX + 1];	/* "" until admitted */
};

static int
setup_signals(struct runner_service *r, char *err, size_t errlen)
{
	static const int sigs[] = { SIGCHLD, SIGTERM, SIGINT, SIGHUP };
	int fd;

	signal(SIGPIPE, SIG_IGN);
	fd = signal_fd_open(sigs, sizeof sigs / sizeof sigs[0]);
	if (fd < 0)
		return fail(err, errlen, EXIT_OSERR, "signalfd: %s",
		    strerror(errno));
	supervisor_init(&r->sv, fd, sizeof(struct handler));
	return 0;
}

static struct handler *
handler_at(const struct runner_service *r, size_t i)
{
	return supervisor_handler(&r->sv, i);
}

static size_t
count_serving(const struct runner_service *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->sv.nh; i++)
		n += !handler_at(r, i)->refusing &&
		    !handler_at(r, i)->prefetching;
	return n;
}

/* In the forked handler (the supervisor's fds already closed): its own
 * signals (service_handler_signals), then the lease. Never returns. */
static _Noreturn void
handler_run(struct runner_service *r, int conn, struct noise_transport *t,
    unsigned version, int ctl, const char *peer, const char *id,
    uint16_t refuse)
{
	struct lease_config lc = r->lease;

	/* Not dumpable before its first byte: another root process of the
	 * container without CAP_SYS_PTRACE (a taken-over one) cannot read
	 * its memory (the lease's transport keys, the relay's frames), in
	 * every jail mode, not only after a setfsuid happens to reset it. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		_exit(EXIT_OSERR);
	if ((lc.sigfd = service_handler_signals()) < 0)
		_exit(EXIT_OSERR);
	lc.control_fd = ctl;
	lc.refuse_code = refuse;
	lc.refuse_message = refuse == LERR_CAPACITY ?
	    "the runner is at its lease limit" : "";
	_exit(lease_serve(&lc, conn, t, version, peer, id));
}

static void lock_sweep(struct runner_service *r, int always);
static void prefetch_start(struct runner_service *r);

/* An authenticated connection from the pre-auth process. Past
 * max_leases it still gets a handler, one that only refuses (see
 * SUPERVISOR_REFUSAL_SLOTS); each lives at most the SPAWN deadline, then
 * the linger of service_refuse. */
static void
take_conn(void *ctx, int conn, struct noise_transport *t, unsigned key,
    unsigned version, unsigned word)
{
	struct runner_service *r = ctx;
	char peer[96], id[17];
	const char *why;
	uint16_t refuse = 0;
	struct handler *h;
	int ctl;
	pid_t pid;

	(void)word;	/* the runner's pre-auth takes no prologue word: 0 */
	if (service_take(&r->sv, r->cfg.max_leases + (r->prefetch_pid > 0),
	    conn, peer, sizeof peer) != 0)
		return;
	if (count_serving(r) >= r->cfg.max_leases)
		refuse = LERR_CAPACITY;
	if (random_id(id) != 0) {
		log_event(LOG_ERROR, "connection dropped: getrandom failed",
		    (struct log_field[]){ LF_STR("peer", peer),
		    LF_STR("error", strerror(errno)) }, 2);
		close(conn);
		return;
	}
	log_event(LOG_INFO, "lease accepted", (struct log_field[]){
	    LF_STR("lease", id), LF_STR("peer", peer),
	    LF_STR("key", service_key_id(&r->ring, key)),
	    LF_NUM("version", version) }, 4);
	/* the list read here is the floor every lease's own re-read must
	 * still hold (revocation.h): a list rolled back between two leases
	 * is refused, not taken as the first one seen */
	if (r->cfg.revocations)
		(void)revocation_reload(&r->revoked, &why);
	lock_sweep(r, 0);
	pid = supervisor_fork(&r->sv, conn, &ctl);
	if (pid == 0)
		handler_run(r, conn, t, version, ctl, peer, id, refuse);
	if (pid < 0)
		return;
	h = handler_at(r, r->sv.nh - 1);
	h->refusing = refuse != 0;
}

/* A handler asks to admit its tenant (ADMIT): answer with VERDICT 0 or
 * the refusal code. Or it says (DONE) that its lease is over but for the
 * final frame: from then on it counts as a refusal handler (bounded by
 * the refusal slots), not against --max-leases or its tenant's cap. */
static void
admit(void *ctx, void *handler)
{
	struct runner_service *r = ctx;
	struct handler *h = handler;
	struct ctlmsg m;
	unsigned answer = 0;
	size_t same = 0;
	int fd;
	enum ctlmsg_status st = ctlmsg_recv(h->sv.ctl, &m, &fd, MSG_DONTWAIT);

	if (st == CTLMSG_IO || st == CTLMSG_CLOSED)
		return;	/* handler gone; SIGCHLD will clean up */
	if (st == CTLMSG_OK && m.type == CTLMSG_DONE) {
		h->refusing = 1;
		h->tenant[0] = '\0';
		return;
	}
	if (st != CTLMSG_OK || m.type != CTLMSG_ADMIT || h->tenant[0]) {
		answer = LERR_PROTOCOL;
	} else {
		for (size_t i = 0; i < r->sv.nh; i++)
			same += strcmp(handler_at(r, i)->tenant,
			    m.u.admit.tenant) == 0;
		if (same >= r->cfg.max_per_tenant)
			answer = LERR_TENANT_CAPACITY;
		else if (r->draining)
			answer = LERR_SHUTDOWN;
		else
			memcpy(h->tenant, m.u.admit.tenant,
			    sizeof h->tenant);
	}
	if (answer)
		h->refusing = 1;	/* it only sends the refusal now */
	service_verdict(h->sv.ctl, answer);
}

/* A handler holds nothing of the supervisor's: gone, it just leaves;
 * the prefetch run, once gone, may be started again (tick). */
static void
handler_gone(void *ctx, void *handler)
{
	struct runner_service *r = ctx;
	struct handler *h = handler;

	if (h->prefetching)
		r->prefetch_pid = 0;
}

static void
reap_handlers(struct runner_service *r)
{
	service_reap(&r->sv, handler_gone, r);
}

/* The gauges /readyz and /metrics read. */
static void
publish(const struct runner_service *r)
{
	metric_set(M_LEASES_ACTIVE, 0, count_serving(r));
}

static void
reap_all(void *ctx)
{
	reap_handlers(ctx);
	publish(ctx);
}

/* Drain: readiness drops and the listeners close at once (the pre-auth
 * process ends: handshakes in flight are dropped); live leases run on
 * until they end or --drain-timeout passes, then every handler ends its
 * lease (SIGTERM, grace, SIGKILL) as a second SIGTERM or a SIGINT does at
 * once. Handlers that outlive the grace by far are killed. Requests still
 * waiting for admission are refused (shutdown). */
static void
drain(struct runner_service *r, int now)
{
	r->draining = 1;
	r->prefetch_again = 0;
	if (r->prefetch_pid > 0)	/* its workers and installs go with it */
		(void)kill(r->prefetch_pid, SIGTERM);
	log_event(LOG_INFO, "runner draining", (struct log_field[]){
	    LF_NUM("leases", count_serving(r)),
	    LF_NUM("drain_timeout_ms", now ? 0 : r->cfg.drain_ms) }, 2);
	service_drain(&r->sv, now ? 0 : (uint32_t)r->cfg.drain_ms,
	    (uint32_t)r->grace_max_ms + 3000, admit, reap_all, r);
	log_msg(LOG_INFO, "runner stopped");
}

/* The protocol versions accepted: the build's, or the test hook's.
 * 0, or -1 when the hook is set to nonsense. */
static int
test_versions(uint32_t *mask)
{
	char list[VERSION_HINT_MAX];

	*mask = VERSION_ACCEPTED;
	switch (version_test_hook(mask)) {
	case 0:
		return 0;
	case 1:
		version_list_text(*mask, list, sizeof list);
		log_msg(LOG_WARN, "test hook %s: accepting protocol versions %s "
		    "(unset it in production)", VERSION_TEST_HOOK, list);
		return 0;
	default:
		return -1;
	}
}

/* Where the floors are kept: --floor-dir, or the state directory. */
static const char *
floor_dir(const struct runner_config *c)
{
	return c->floor_dir ? c->floor_dir : c->state_dir;
}

/* --floor-dir made, or taken when it is ours and only we may write it:
 * whoever can write it can remove a floor and roll the list back. The
 * state directory (the default) is checked where it is made. 0, or
 * EXIT_CONFIG with err. */
static int
floor_dir_ready(const struct runner_config *c, char *err, size_t errlen)
{
	struct stat st;

	if (!c->floor_dir)
		return 0;
	if (fs_mkdir_private(c->floor_dir, 0700) != 0 ||
	    stat(c->floor_dir, &st) != 0)
		return fail(err, errlen, EXIT_CONFIG, "--floor-dir %s: %s (a "
		    "directory of the runner's own)", c->floor_dir,
		    strerror(errno));
	if (st.st_mode & 022)
		return fail(err, errlen, EXIT_CONFIG, "--floor-dir %s: "
		    "writable by group or others (mode %04o): whoever can "
		    "write it can remove the floor and put an older list "
		    "back; chmod go-w", c->floor_dir,
		    (unsigned)(st.st_mode & 07777));
	return 0;
}

/* Load the list of s (initialised with its key) the first time: with
 * the floor remembered for that key in dir (floor, PATH_MAX), so that
 * no list older than one accepted before a restart loads; a preflight
 * reads the floor but writes none. 0, or -1 with *why. */
static int
revocation_open(struct revocation_set *s, const char *dir, char *floor,
    int preflight, const char **why)
{
	char kid[ECKEY_ID_TEXT];

	eckey_id_text(s->key->id, kid);
	if ((size_t)snprintf(floor, PATH_MAX, "%s/revocations-%s.floor",
	    dir, kid) >= PATH_MAX) {
		*why = "floor directory path too long";
		return -1;
	}
	if (revocation_floor_load(s, floor, why) != 0) {
		snprintf(s->err, sizeof s->err, "%s: %s (it remembers the "
		    "newest list accepted; remove it only to accept an older "
		    "list on purpose)", floor, *why);
		*why = s->err;
		return -1;
	}
	if (preflight)
		s->floor_path = NULL;
	if (revocation_reload(s, why) != 0)
		return -1;
	if (*why)	/* accepted, but not remembered: refuse to forget */
		return -1;
	return 0;
}

/* Approval enforcement: the key and the revocation list must both load
 * now; a runner told to enforce never starts without them. 0, or the
 * exit code that stops start-up, with err (a preflight notes the
 * problem; the list, signed with the key, is read only with the key). */
static int
load_review(struct runner_service *r, char *err, size_t errlen)
{
	const char *why;
	int rc;

	if (!r->cfg.review_pubkey) {
		log_msg(LOG_WARN, "approvals are NOT enforced (no "
		    "--review-pubkey): any request that passes the guard runs");
		return 0;
	}
	if (eckey_pub_load(r->cfg.review_pubkey, &r->review_key, &why) != 0) {
		/* the list's signature is checked with the key: not without */
		return problems_note(&r->problems, fail(err, errlen,
		    EXIT_CONFIG, "--review-pubkey %s: %s", r->cfg.review_pubkey,
		    why), err);
	}
	if (r->cfg.revocations) {
		if ((rc = floor_dir_ready(&r->cfg, err, errlen)) != 0)
			return problems_note(&r->problems, rc, err);
		revocation_init(&r->revoked, r->cfg.revocations,
		    &r->review_key);
		if (revocation_open(&r->revoked, floor_dir(&r->cfg),
		    r->revoked_floor, r->cfg.preflight, &why) != 0)
			return problems_note(&r->problems, fail(err, errlen,
			    EXIT_CONFIG, "--revocations %s: %s",
			    r->cfg.revocations, why), err);
	}
	log_msg(LOG_INFO, "approvals enforced with reviewer key %s",
	    r->cfg.review_pubkey);
	return 0;
}

static const char *const launcher_names[] = {
	"npx", "node", "uvx", "uv", "python", "python3"
};

int
runner_service_configure(struct runner_service *r,
    const struct runner_config *cmdline, int check, char *err,
    size_t errlen)
{
	r->base = *cmdline;
	r->cfg = *cmdline;
	if (cmdline->config_path && runner_config_load(&r->cfg,
	    cmdline->config_path, err, errlen) != 0)
		return EXIT_CONFIG;
	r->start_buf = r->cfg.file_buf;
	return runner_config_finish(&r->cfg, check, err, errlen);
}

int
runner_service_jail_config(struct runner_service *r, const char *path,
    char *err, size_t errlen)
{
	struct jail_config *j = &r->cfg.jail_cfg;
	const char *cap = getenv("AIRLOCK_TEST_LANDLOCK_ABI");

	r->path = path;
	j->state_dir = r->cfg.state_dir;
	j->cgroup_lean = 1;	/* a v1 hierarchy only for the limits */
	j->path = path;
	j->launchers = launcher_names;
	j->nlaunchers = sizeof launcher_names / sizeof *launcher_names;
	/* test hook: behave as if the kernel offered at most this ABI; it
	 * only ever weakens the jail, so it is refused unless numeric and
	 * announced loudly */
	if (cap && *cap) {
		uint64_t abi;

		if (cli_count(cap, 1, 1000, &abi) != 0)
			return fail(err, errlen, EXIT_CONFIG,
			    "AIRLOCK_TEST_LANDLOCK_ABI must be a number from 1 "
			    "(a test hook; unset it in production)");
		j->landlock_abi_cap = (unsigned)abi;
		log_msg(LOG_WARN, "test hook AIRLOCK_TEST_LANDLOCK_ABI=%u: "
		    "acting as if the kernel offered at most Landlock ABI %u",
		    j->landlock_abi_cap, j->landlock_abi_cap);
	}
	if (j->mode != JAIL_NONE || r->cfg.preflight) {
		/* --allow-bind lets leases listen and bind (Landlock and
		 * seccomp alike) */
		seccomp_policy_program(&r->seccomp, j->allow_bind ?
		    SECCOMP_PROG_JAIL_BIND : SECCOMP_PROG_JAIL);
		if (j->allow_bind && r->cfg.shared_network)
			log_msg(LOG_WARN, "--allow-bind: leases may listen and "
			    "bind, so other tenants' leases and the network "
			    "can reach them (docs/SECURITY.md, \"Between "
			    "tenants\")");
		else if (j->allow_bind)
			log_msg(LOG_INFO, "--allow-bind: leases may listen and "
			    "bind, each in its own network namespace: only "
			    "the lease itself reaches what it listens on");
		if (r->cfg.shared_network)
			log_msg(LOG_WARN, "--shared-network: leases share this "
			    "runner's network namespace: one lease's "
			    "unconnected UDP socket receives another's "
			    "datagrams, /proc/net lists every lease's sockets "
			    "(docs/SECURITY.md, \"Between tenants\")");
		j->seccomp = &r->seccomp;
	}
	return 0;
}

/* Read-only in every jail mode (the ns root view, Landlock). */
static int
add_ro_path(struct runner_service *r, const char *dir, char *err,
    size_t errlen)
{
	struct jail_config *j = &r->cfg.jail_cfg;

	if (j->nro == JAIL_PATHS_MAX)
		return fail(err, errlen, EXIT_USAGE, "at most %d --ro-path and "
		    "--script-dir in all", JAIL_PATHS_MAX);
	r->cfg.ro_paths[j->nro++] = dir;
	return 0;
}

/* The guard's policy from c: the launchers, the operator's lists, each
 * script dir checked on disk. 0, or an exit code with err; a preflight's
 * p notes every bad item. */
static int
guard_build(const struct runner_config *c, struct guard_policy *g,
    struct problems *p, char *err, size_t errlen)
{
	static const char *const flags[] = { [GUARD_SCRIPT_DIR] =
	    "--script-dir", [GUARD_INDEX] = "--allow-index", [GUARD_MODULE] =
	    "--allow-module" };
	const char *why;
	int rc;

	guard_policy_default(g);
	if (c->allow && guard_policy_parse(g, c->allow) != 0 &&
	    (rc = problems_note(p, fail(err, errlen, EXIT_USAGE, "--allow: "
	    "'%s' is not a list of launchers the guard understands (%s)",
	    c->allow, GUARD_DEFAULT_LAUNCHERS), err)) != 0)
		return rc;
	for (size_t i = 0; i < c->nguard_items; i++) {
		const char *v = c->guard_items[i].value;

		if (guard_policy_add(g, c->guard_items[i].list, v, &why) != 0) {
			if ((rc = problems_note(p, fail(err, errlen, EXIT_USAGE,
			    "%s '%s': %s", flags[c->guard_items[i].list], v,
			    why), err)) != 0)
				return rc;
		} else if (c->guard_items[i].list == GUARD_SCRIPT_DIR &&
		    guardfs_script_dir_ok(v, err, errlen) != 0 &&
		    (rc = problems_note(p, EXIT_CONFIG, err)) != 0) {
			return rc;
		}
	}
	return 0;
}

/* --lock-store: the installed trees (STATE/trees) readable by leases,
 * the installer's jail (its own uids, STATE/lock-install). */
static int
lock_setup(struct runner_service *r, char *err, size_t errlen)
{
	struct runner_config *c = &r->cfg;

	if (!c->lock_store)
		return 0;
	if ((size_t)snprintf(r->trees, sizeof r->trees, "%s/trees",
	    c->state_dir) >= sizeof r->trees || (size_t)snprintf(
	    r->lock_install, sizeof r->lock_install, "%s/lock-install",
	    c->state_dir) >= sizeof r->lock_install)
		return fail(err, errlen, EXIT_CONFIG,
		    "state directory path too long");
	if (mkdir(r->trees, 0755) != 0 && errno != EEXIST)
		return fail(err, errlen, EXIT_CONFIG, "%s: %s", r->trees,
		    strerror(errno));
	r->locks = (struct locktree_cfg){ c->lock_store, r->trees, {
		JAIL_UID, c->lock_uid_first, c->lock_uid_last,
		r->lock_install, 10 * 60 * 1000 }, c->py_index };
	return add_ro_path(r, r->trees, err, errlen);
}

/* After the revocation list changed (always: a reload): the trees only
 * revoked approvals used are removed (locktree_sweep); one another
 * process held is tried again at the next look. */
static void
lock_sweep(struct runner_service *r, int always)
{
	size_t n, busy;

	if (!r->cfg.lock_store || !r->cfg.revocations || !r->revoked.usable ||
	    (!always && !r->sweep_again && r->revoked.n == r->revoked_seen))
		return;
	r->revoked_seen = r->revoked.n;
	n = locktree_sweep(&r->locks, &r->revoked, &busy);
	r->sweep_again = busy > 0;
	if (n > 0 || busy > 0)
		log_event(LOG_INFO, "lock trees removed", (struct log_field[]){
		    LF_NUM("trees", n), LF_NUM("busy", busy) }, 2);
}

#define LIST_LOOK_MS 5000	/* how often the revocation list is looked at
				 * between connections (one stat) */

/* The revocation list looked at (re-read when its file changed) and the
 * trees swept, at most every LIST_LOOK_MS: a revoked approval's tree goes
 * without waiting for a connection or a SIGHUP. The ms until the next
 * look, or -1 when there is nothing to look at. */
static int
lock_look(struct runner_service *r)
{
	int64_t now = mono_ms();
	const char *why;

	if (!r->cfg.lock_store || !r->cfg.revocations)
		return -1;
	if (now >= r->list_look_at) {
		(void)revocation_reload(&r->revoked, &why);
		lock_sweep(r, 0);
		r->list_look_at = now + LIST_LOOK_MS;
	}
	return (int)(r->list_look_at - now);
}

/* In the prefetch process (a handler without a connection): the
 * approvals of --prefetch FILE made ready (lockprefetch.h). It ends with
 * the supervisor (its parent-death signal) and its workers with it.
 * Never returns. */
static _Noreturn void
prefetch_run(struct runner_service *r)
{
	struct lockprefetch_cfg pc = { &r->locks, &r->review_key,
		r->cfg.revocations ? &r->revoked : NULL, r->cfg.prefetch,
		r->cfg.prefetch_jobs };
	struct lockprefetch_counts n;
	int64_t t0 = mono_ms();
	char err[PATH_MAX + 64];
	sigset_t none;

	secret_ring_wipe(&r->ring);	/* it speaks to no relay */
	sigemptyset(&none);
	signal(SIGPIPE, SIG_IGN);
	if (sigprocmask(SIG_SETMASK, &none, NULL) != 0)
		_exit(EXIT_OSERR);
	if (lockprefetch_run(&pc, &n, err, sizeof err) != 0) {
		log_event(LOG_ERROR, "lock prefetch refused",
		    (struct log_field[]){ LF_STR("reason", err) }, 1);
		_exit(EXIT_CONFIG);
	}
	log_event(LOG_INFO, "lock prefetch done", (struct log_field[]){
	    LF_STR("file", pc.file), LF_NUM("ready", n.ready),
	    LF_NUM("installed", n.installed), LF_NUM("failed", n.failed),
	    LF_NUM("skipped", n.skipped), LF_NUM("ms", mono_ms() - t0) }, 6);
	_exit(n.failed ? EXIT_SOFTWARE : 0);
}

/* Start the prefetch run (at start, and after each reload: one at a
 * time, the next once the last is gone). Leases are served meanwhile; one
 * whose tree is being installed waits for it (its flock), never installs
 * it twice. */
static void
prefetch_start(struct runner_service *r)
{
	int ctl;
	pid_t pid;

	r->prefetch_again = 0;
	if (!r->cfg.prefetch || !r->cfg.lock_store || r->draining)
		return;
	if (r->prefetch_pid > 0) {
		r->prefetch_again = 1;
		return;
	}
	log_event(LOG_INFO, "lock prefetch started", (struct log_field[]){
	    LF_STR("file", r->cfg.prefetch),
	    LF_NUM("jobs", r->cfg.prefetch_jobs) }, 2);
	pid = supervisor_fork(&r->sv, -1, &ctl);
	if (pid == 0)
		prefetch_run(r);
	if (pid < 0)
		return;
	handler_at(r, r->sv.nh - 1)->prefetching = 1;
	r->prefetch_pid = pid;
}

/* The guard's script dirs joining the jail's read-only list, and the
 * launchers-only PATH directory (guardfs.h) in the state directory. */
static int
guard_setup(struct runner_service *r, char *err, size_t errlen)
{
	struct runner_config *c = &r->cfg;
	int rc;

	for (size_t i = 0; i < c->nguard_items; i++)
		if (c->guard_items[i].list == GUARD_SCRIPT_DIR &&
		    (rc = add_ro_path(r, c->guard_items[i].value, err,
		    errlen)) != 0)
			return rc;
	if ((size_t)snprintf(r->launcher_dir, sizeof r->launcher_dir,
	    "%s/launchers", c->state_dir) >= sizeof r->launcher_dir)
		return fail(err, errlen, EXIT_CONFIG,
		    "state directory path too long");
	if (guardfs_launcher_dir(r->launcher_dir, r->path, c->preflight, err,
	    errlen) != 0)
		return EXIT_CONFIG;
	if (!c->preflight)	/* a preflight built it aside and removed it */
		return add_ro_path(r, r->launcher_dir, err, errlen);
	return 0;
}

/* In uid mode a lease's HOME and working directory are host paths below
 * the state directory, and npm and uv read project files from every
 * directory above them (package.json and .npmrc, node_modules/.bin on the
 * PATH of what npx runs, uv.toml, pyproject.toml): whoever can add a name
 * to one of those directories, even a sticky /tmp, runs code in every
 * lease. ns mode gives a lease its own root, and none claims nothing. */
static int
check_state_parents(const struct runner_service *r, char *err,
    size_t errlen)
{
	char real[PATH_MAX], bad[PATH_MAX];
	struct stat st;

	if (r->cfg.jail_cfg.mode != JAIL_UID)
		return 0;
	if (!realpath(r->cfg.state_dir, real))
		return fail(err, errlen, EXIT_CONFIG, "state directory %s: %s",
		    r->cfg.state_dir, strerror(errno));
	if (fs_parents_private(real, (unsigned)geteuid(), bad, sizeof bad,
	    &st) == 0)
		return 0;
	if (errno != EPERM)
		return fail(err, errlen, EXIT_CONFIG, "state directory %s: %s",
		    real, strerror(errno));
	return fail(err, errlen, EXIT_CONFIG, "--state-dir %s: %s can be "
	    "changed by a user other than root and the runner (owner %u, "
	    "mode %04o): npm and uv obey project files (.npmrc, "
	    "node_modules/.bin, uv.toml) in every directory above a lease's "
	    "home; give a --state-dir whose every parent only root can "
	    "write (as the default /var/lib/airlock-runner)", real, bad,
	    (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
}

/* Each lease in a network namespace of its own (egress_lease.h): uid and
 * ns mode, unless the operator opts out. */
static int
own_network(const struct runner_config *c)
{
	return c->jail_cfg.mode != JAIL_NONE && !c->shared_network;
}

/* uid mode's leases have their own pid, IPC and mount namespaces and
 * /proc with the same privilege that gives them their own network
 * (CAP_SYS_ADMIN): a runner that gives the one but cannot give the
 * other (a mount refused, as by Docker's and podman's default AppArmor
 * profiles) would let leases see each other's pids and /proc/PID while
 * the operator believes them apart. Refused; --shared-network is the
 * opt-out for both. 0, or EXIT_CONFIG with err. */
static int
check_own_pids(const struct runner_config *c, const struct jail *j,
    char *err, size_t errlen)
{
	if (j->cfg.mode != JAIL_UID || !own_network(c) || j->proc_private)
		return 0;
	return fail(err, errlen, EXIT_CONFIG, "--jail uid: each lease's own "
	    "pid, IPC and mount namespaces and /proc cannot be made here (%s), "
	    "so leases would see each other's pids and /proc/PID: run the "
	    "runner under airlock's AppArmor profile, which allows exactly "
	    "its mounts (deploy/apparmor/airlock-runner, loaded with "
	    "apparmor_parser -r; Docker, podman: --security-opt "
	    "apparmor=airlock-runner), or unconfined (apparmor=unconfined; "
	    "docs/DEPLOY.md, \"AppArmor\"), or run with --shared-network "
	    "(leases then share this runner's network and pid namespaces: "
	    "docs/SECURITY.md)", j->host.proc_why);
}

void
runner_service_print_network(const struct runner_config *c,
    enum jail_mode mode, FILE *out)
{
	char why[256];
	int ok = egress_netns_trial(mode, why, sizeof why) == 0;

	if (mode == JAIL_NONE)
		fprintf(out, "network namespace per lease: not in use (--jail "
		    "none isolates nothing)\n");
	else if (c->shared_network)
		fprintf(out, "network namespace per lease: not in use "
		    "(--shared-network: leases share this runner's, UDP "
		    "reaches between them); %s\n", ok ? "available here: "
		    "drop --shared-network" : "not available here either");
	else if (ok)
		fprintf(out, "network namespace per lease: yes, in use "
		    "(loopback and the egress proxy only)\n");
	else
		fprintf(out, "network namespace per lease: NO: %s; or run "
		    "with --shared-network (docs/DEPLOY.md)\n", why);
}

/* What a reload builds aside before anything switches. */
struct reload_set {
	struct runner_config cfg;
	struct secret_ring ring;
	struct guard_policy guard;
	struct eckey_pub key;
	struct revocation_set revoked;	/* a new --revocations path's */
	char revoked_floor[PATH_MAX];	/* and its key's floor */
	int new_revoked;
	struct egress_config egress;
};

/* In uid mode a lease runs on the host's file system as a uid of its
 * own: only Landlock's file rules keep it from files others may read. A
 * secret readable by others (a Kubernetes secret volume's default 0644, a
 * podman secret's 0444) would be every lease's without them, and with it
 * a lease could spawn leases or speak as the runner to every relay. */
static int
check_secret_modes(const struct runner_config *c, const struct jail *j,
    char *err, size_t errlen)
{
	struct stat st;

	if (c->jail_cfg.mode != JAIL_UID ||
	    (j->landlock_features & LANDLOCK_FEAT_FS))
		return 0;
	for (size_t i = 0; i < c->nsecret; i++)
		if (stat(c->secret_files[i], &st) == 0 && (st.st_mode & 004))
			return fail(err, errlen, EXIT_CONFIG, "--secret-file %s "
			    "is readable by others (mode %04o) and Landlock's "
			    "file rules are not in force here, so every lease "
			    "could read it: chmod o-r (Kubernetes: defaultMode "
			    "0400)", c->secret_files[i],
			    (unsigned)(st.st_mode & 07777));
	return 0;
}

/* The files that decide what may run besides --config (runner_config.c
 * checks that one): the reviewer's key and the revocation list. Only root
 * and the runner may change them: whoever could would sign approvals of
 * their own, or un-revoke a token. A missing file is left to its loader
 * to name. 0, or the code that stops start-up (a preflight notes each). */
static int
trust_files(const struct runner_config *c, struct problems *p, char *err,
    size_t errlen)
{
	const char *const files[][2] = {
		{ "--review-pubkey", c->review_pubkey },
		{ "--revocations", c->revocations },
	};
	char bad[PATH_MAX];
	struct stat st;
	int rc;

	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		if (!files[i][1] || fs_file_private(files[i][1],
		    (unsigned)geteuid(), bad, sizeof bad, &st) == 0 ||
		    errno == ENOENT)
			continue;
		if (errno != EPERM)
			rc = fail(err, errlen, EXIT_CONFIG, "%s %s: %s",
			    files[i][0], files[i][1], strerror(errno));
		else
			rc = fail(err, errlen, EXIT_CONFIG, "%s %s: %s can be "
			    "changed by a user other than root and the runner "
			    "(owner %u, mode %04o): whoever can write it "
			    "decides what runs; keep it where only root can "
			    "write", files[i][0], files[i][1], bad,
			    (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		if ((rc = problems_note(p, rc, err)) != 0)
			return rc;
	}
	return 0;
}

/* The configuration a reload would switch to: --config FILE read again
 * onto the command line's options and checked, every fixed option
 * unchanged; without --config, the one in force. 0, or -1 with err. */
static int
reload_config(struct runner_service *r, struct runner_config *c, char *err,
    size_t errlen)
{
	const char *changed;

	if (!r->base.config_path) {
		*c = r->cfg;
		return 0;
	}
	*c = r->base;
	if (runner_config_load(c, r->base.config_path, err, errlen) != 0 ||
	    runner_config_finish(c, 0, err, errlen) != 0)
		return -1;
	if ((changed = runner_config_fixed_change(&r->cfg, c)) != NULL) {
		snprintf(err, errlen, "%s: --%s changed, and it needs a "
		    "restart (only options for new leases reload: see "
		    "docs/OPERATIONS.md)", r->base.config_path, changed);
		return -1;
	}
	return 0;
}

/* Build and check everything of n->cfg aside. 0, or -1 with err. */
static int
reload_build(struct runner_service *r, struct reload_set *n, char *err,
    size_t errlen)
{
	const struct runner_config *c = &n->cfg;
	const char *why;
	char msg[512];

	if (trust_files(c, &(struct problems){ 0 }, err, errlen) != 0 ||
	    check_secret_modes(c, &r->jail, err, errlen) != 0 ||
	    secret_ring_load(&n->ring, c->secret_files, c->nsecret, err,
	    errlen) != 0)
		return -1;
	if (guard_build(c, &n->guard, &(struct problems){ 0 }, err, errlen)
	    != 0)
		return -1;
	if (cgroup_limits_usable(&r->jail.cg, &(struct cgroup_limits){
	    c->jail_cfg.limits.memory, c->jail_cfg.limits.pids,
	    c->jail_cfg.limits.cpu_millicpus }, msg, sizeof msg) != 0) {
		snprintf(err, errlen, "--memory, --pids, --cpu: %s (the "
		    "cgroups are set up at start: restart for this one)", msg);
		return -1;
	}
	if (own_network(c) && egress_config_init(&n->egress, c->egress_allow,
	    &r->jail, err, errlen) != 0)
		return -1;
	if (r->jail.cfg.mode != JAIL_NONE && disk_reserve_fits(c->state_dir,
	    c->jail_cfg.limits.disk_reserve, err, errlen) != 0)
		return -1;
	if (c->review_pubkey &&
	    eckey_pub_load(c->review_pubkey, &n->key, &why) != 0) {
		snprintf(err, errlen, "--review-pubkey %s: %s",
		    c->review_pubkey, why);
		return -1;
	}
	/* the list in force re-reads itself when its file changes, and a
	 * failure leaves it refusing everything: its check comes last; a
	 * new path or reviewer key starts a new list, checked with it */
	if (c->revocations && (!r->cfg.revocations ||
	    strcmp(c->revocations, r->cfg.revocations) != 0 ||
	    memcmp(&n->key, &r->review_key, sizeof n->key) != 0)) {
		revocation_init(&n->revoked, c->revocations, &n->key);
		n->new_revoked = 1;
		if (revocation_open(&n->revoked, floor_dir(&r->cfg),
		    n->revoked_floor, 0, &why) != 0) {
			snprintf(err, errlen, "--revocations %s: %s",
			    c->revocations, why);
			return -1;
		}
	} else if (c->revocations &&
	    revocation_reload(&r->revoked, &why) != 0) {
		snprintf(err, errlen, "--revocations %s: %s", c->revocations,
		    why);
		return -1;
	}
	return 0;
}

/* Switch to n whole: new leases and handshakes get it, live leases
 * (their own processes) keep theirs. */
static void
reload_switch(struct runner_service *r, struct reload_set *n)
{
	char *old_buf = r->cfg.file_buf;

	r->ring = n->ring;
	r->guard = n->guard;
	if (n->cfg.review_pubkey)
		r->review_key = n->key;
	if (n->new_revoked) {
		revocation_free(&r->revoked);
		r->revoked = n->revoked;
		r->revoked.key = &r->review_key;
		memcpy(r->revoked_floor, n->revoked_floor,
		    sizeof r->revoked_floor);
		r->revoked.floor_path = r->revoked_floor;
		n->new_revoked = 0;
	}
	if (own_network(&n->cfg))
		r->egress = n->egress;
	/* the jail is read-only to the handlers: each has its own copy */
	r->jail.cfg.limits = n->cfg.jail_cfg.limits;
	runner_config_take_reloadable(&r->cfg, &n->cfg);
	if (old_buf != r->start_buf && old_buf != r->cfg.file_buf)
		free(old_buf);
	r->lease.handshake_ms = (uint32_t)r->cfg.handshake_ms;
	r->lease.kill_grace_ms = (uint32_t)r->cfg.grace_ms;
	r->lease.ping_ms = (uint32_t)r->cfg.ping_ms;
	r->lease.liveness_ms = (uint32_t)r->cfg.liveness_ms;
	r->lease.max_lease_ms = r->cfg.max_lease_ms;
	if (r->cfg.grace_ms > r->grace_max_ms)
		r->grace_max_ms = r->cfg.grace_ms;
	r->sv.preauth.handshake_ms = (uint32_t)r->cfg.handshake_ms;
	r->sv.preauth.max_per_source = (uint32_t)r->cfg.max_per_peer;
	metric_set(M_CAPACITY, 0, r->cfg.max_leases);
	supervisor_replace_preauth(&r->sv);
}

/* SIGHUP (runner_service.h): all or nothing, and the log says which. */
static void
reload(void *ctx)
{
	struct runner_service *r = ctx;
	static struct reload_set n;
	char err[640], ids[SECRET_RING_MAX * (SECRET_KEY_ID_LEN + 1)] = "";

	memset(&n, 0, sizeof n);
	if (reload_config(r, &n.cfg, err, sizeof err) != 0 ||
	    reload_build(r, &n, err, sizeof err) != 0) {
		secret_ring_wipe(&n.ring);
		if (n.new_revoked)
			revocation_free(&n.revoked);
		if (n.cfg.file_buf != r->cfg.file_buf)
			free(n.cfg.file_buf);
		log_event(LOG_ERROR, "reload refused: the configuration in "
		    "force stays", (struct log_field[]){
		    LF_STR("reason", err) }, 1);
		return;
	}
	reload_switch(r, &n);
	secret_ring_wipe(&n.ring);
	lock_sweep(r, 1);
	r->prefetch_again = 1;	/* failures are tried again; tick starts it */
	for (size_t i = 0; i < r->ring.n; i++) {
		strcat(ids, i ? "," : "");
		strcat(ids, r->ring.id[i]);
	}
	log_event(LOG_INFO, "reloaded", (struct log_field[]){
	    LF_STR("keys", ids),
	    LF_STR("config", r->base.config_path ? r->base.config_path : "-"),
	    LF_NUM("max_leases", r->cfg.max_leases),
	    LF_NUM("memory", r->jail.cfg.limits.memory),
	    LF_NUM("pids", r->jail.cfg.limits.pids) }, 5);
}

/* After each pass of the loop: the poll's timeout. */
static int
tick(void *ctx)
{
	struct runner_service *r = ctx;

	reap_all(r);
	if (r->prefetch_again && !r->prefetch_pid)
		prefetch_start(r);
	return lock_look(r);
}

static int
serve(struct runner_service *r)
{
	static const struct service_loop loop = { admit, take_conn, reload,
		tick };
	int sig = service_serve(&r->sv, &loop, r);

	if (sig < 0)
		return -1;
	drain(r, sig == SIGINT);
	return 0;
}

/* A step's result rc (0: it passed, else its code with err): the code
 * that stops start-up, or 0 to go on (a preflight logged it). */
static int
step(struct runner_service *r, int rc, const char *err)
{
	return rc ? problems_note(&r->problems, rc, err) : 0;
}

int
runner_service_setup(struct runner_service *r, char *err, size_t errlen)
{
	uint32_t versions;
	int rc, ring_ok, state_ok, jail_ok, versions_ok;

	r->problems = (struct problems){ .preflight = r->cfg.preflight };
	if ((rc = step(r, setup_signals(r, err, errlen), err)) != 0)
		return rc;
	ring_ok = secret_ring_load(&r->ring, r->cfg.secret_files,
	    r->cfg.nsecret, err, errlen) == 0;
	if ((rc = step(r, ring_ok ? 0 : EXIT_CONFIG, err)) != 0)
		return rc;
	/* the guard's launcher directory and the jail live in it */
	state_ok = fs_mkdir_private(r->cfg.state_dir, 0700) == 0;
	if ((rc = step(r, state_ok ? 0 : fail(err, errlen, EXIT_CONFIG,
	    "state directory %s: %s", r->cfg.state_dir, strerror(errno)),
	    err)) != 0)
		return rc;
	if (state_ok && (rc = step(r, check_state_parents(r, err, errlen),
	    err)) != 0)
		return rc;
	if ((rc = trust_files(&r->cfg, &r->problems, err, errlen)) != 0 ||
	    (rc = guard_build(&r->cfg, &r->guard, &r->problems, err,
	    errlen)) != 0)
		return rc;
	if (state_ok && ((rc = step(r, guard_setup(r, err, errlen), err)) != 0
	    || (rc = step(r, lock_setup(r, err, errlen), err)) != 0))
		return rc;
	jail_ok = state_ok &&
	    jail_init(&r->jail, &r->cfg.jail_cfg, err, errlen) == 0;
	if (state_ok && (rc = step(r, jail_ok ? 0 : EXIT_CONFIG, err)) != 0)
		return rc;
	if (jail_ok && r->jail.cfg.mode != JAIL_NONE && (rc = step(r,
	    disk_reserve_fits(r->cfg.state_dir, r->jail.cfg.limits.disk_reserve,
	    err, errlen) ? EXIT_CONFIG : 0, err)) != 0)
		return rc;
	if (jail_ok && (rc = step(r, check_secret_modes(&r->cfg, &r->jail,
	    err, errlen), err)) != 0)
		return rc;
	if (jail_ok && own_network(&r->cfg) && (rc = step(r,
	    egress_config_init(&r->egress, r->cfg.egress_allow, &r->jail, err,
	    errlen) ? EXIT_CONFIG : 0, err)) != 0)
		return rc;
	/* once, here: the proxies never run libseccomp (a reload cannot
	 * change --shared-network, so this holds for good) */
	if (jail_ok && own_network(&r->cfg) && (rc = step(r,
	    egress_proxy_filter(&r->egress_filter, err, errlen) ?
	    EXIT_SOFTWARE : 0, err)) != 0)
		return rc;
	if (jail_ok && (rc = step(r, check_own_pids(&r->cfg, &r->jail, err,
	    errlen), err)) != 0)
		return rc;
	for (size_t i = 0; i < r->cfg.nlisten; i++) {
		char why[400];

		rc = 0;
		switch (supervisor_listen(&r->sv, r->cfg.listen[i], why,
		    sizeof why)) {
		case SUPERVISOR_LISTENING:
			break;
		case SUPERVISOR_BAD_ADDRESS:
			rc = fail(err, errlen, EXIT_USAGE, "--listen: %s", why);
			break;
		case SUPERVISOR_CANNOT_LISTEN:
			rc = fail(err, errlen, EXIT_CONFIG, "%s", why);
			break;
		}
		if ((rc = step(r, rc, err)) != 0)
			return rc;
	}
	if ((rc = load_review(r, err, errlen)) != 0)
		return rc;
	versions_ok = test_versions(&versions) == 0;
	if ((rc = step(r, versions_ok ? 0 : fail(err, errlen, EXIT_CONFIG,
	    "%s must be versions like 1,2 (a test hook; unset it in "
	    "production)", VERSION_TEST_HOOK), err)) != 0)
		return rc;
	if (!ring_ok || !versions_ok)	/* noted: a preflight's end */
		return problems_status(&r->problems);
	/* handshakes run in the pre-auth process, as its own uid */
	if ((rc = step(r, service_start_preauth(&r->sv, &r->ring, versions,
	    NULL, (uint32_t)r->cfg.handshake_ms, (uint32_t)r->cfg.max_per_peer,
	    (uint32_t)r->cfg.preauth_uid, r->cfg.jail_cfg.check_only,
	    &r->cfg.jail_cfg, err, errlen) ? EXIT_CONFIG : 0, err)) != 0)
		return rc;
	if (r->problems.n)
		return problems_status(&r->problems);
	r->grace_max_ms = r->cfg.grace_ms;
	r->lease = (struct lease_config){
		.ring = &r->ring,
		.handshake_ms = (uint32_t)r->cfg.handshake_ms,
		.kill_grace_ms = (uint32_t)r->cfg.grace_ms,
		.ping_ms = (uint32_t)r->cfg.ping_ms,
		.liveness_ms = (uint32_t)r->cfg.liveness_ms,
		.max_lease_ms = r->cfg.max_lease_ms,
		.jail_name = r->cfg.jail,
		.jail = &r->jail,
		.guard = &r->guard,
		.path = r->path,
		.launcher_path = r->launcher_dir,
		.lang = "C.UTF-8",
		.state_dir = r->cfg.state_dir,
		.review_key = r->cfg.review_pubkey ? &r->review_key : NULL,
		.revoked = r->cfg.revocations ? &r->revoked : NULL,
		.locks = r->cfg.lock_store ? &r->locks : NULL,
		.require_lock = r->cfg.require_lock,
		.surface_store = r->cfg.surface_store,
		.egress = own_network(&r->cfg) ? &r->egress : NULL,
		.egress_filter = &r->egress_filter,
	};
	return 0;
}

void
runner_service_end_preflight(struct runner_service *r)
{
	supervisor_stop_listening(&r->sv);
	jail_fini(&r->jail);
}

/* Say once, loudly, what the jail does not do here. */
static void
log_jail(const struct runner_service *r)
{
	const struct jail *j = &r->jail;
	char names[256];

	if (j->cfg.mode == JAIL_NONE) {
		log_msg(LOG_WARN, "jail mode none: leases are NOT isolated "
		    "from each other or from this runner (development only)");
		return;
	}
	log_event(LOG_INFO, "jail ready", (struct log_field[]){
	    LF_STR("jail", jail_mode_name(j->cfg.mode)),
	    LF_STR("unit", jail_unit_name(j->cfg.unit)),
	    LF_NUM("uid_first", j->cfg.uid_first),
	    LF_NUM("uid_last", j->cfg.uid_last),
	    LF_NUM("landlock_abi", j->landlock_abi),
	    LF_STR("cgroup", j->cg.kind == CGROUP_V2 ? "v2" :
	        j->cg.kind == CGROUP_V1 ? "v1" : "none"),
	    LF_NUM("memory", j->cfg.limits.memory),
	    LF_NUM("pids", j->cfg.limits.pids),
	    LF_NUM("home_size", j->cfg.limits.home_size),
	    LF_NUM("cache_size", j->cfg.limits.cache_size),
	    LF_NUM("disk_reserve", j->cfg.limits.disk_reserve),
	    LF_NUM("oom_score_adj", j->host.oom_score_adj),
	    LF_NUM("lease_oom_score_adj", JAIL_OOM_SCORE_ADJ) }, 13);
	if (j->host.oom_score_adj >= JAIL_OOM_SCORE_ADJ)
		log_msg(LOG_WARN, "this runner's oom_score_adj is %d, not below "
		    "its leases' %d: under memory pressure the OOM killer may "
		    "pick the runner before a lease (a Kubernetes BestEffort "
		    "pod: give the container resource requests)",
		    j->host.oom_score_adj, JAIL_OOM_SCORE_ADJ);
	if (j->cfg.landlock == JAIL_LANDLOCK_OFF)
		log_msg(LOG_WARN, "Landlock is off (--landlock off): leases may "
		    "read any world-readable file, bind ports and signal "
		    "processes of their own uid");
	else if (j->landlock_lacking)
		log_msg(LOG_WARN, "Landlock %s: not applied: %s",
		    j->landlock_abi ? "ABI too old" : "unavailable",
		    landlock_feature_names(j->landlock_lacking, names,
		    sizeof names));
	if (!j->proc_private)
		log_msg(LOG_WARN, "uid mode: leases can read other leases' "
		    "/proc/PID/cmdline and status (%s); --jail ns hides them",
		    j->host.proc_why);
	if (!j->host.cap_setpcap)
		log_msg(LOG_INFO, "no CAP_SETPCAP: leases keep the bounding "
		    "set this runner was given; no_new_privs makes it inert");
	if (j->cfg.unit == JAIL_UNIT_REGISTRATION && j->cfg.mode == JAIL_UID &&
	    !(j->landlock_features & LANDLOCK_FEAT_SCOPE_SIGNAL))
		log_msg(LOG_WARN, "--uid-unit registration in uid mode without "
		    "Landlock scoping: concurrent leases of one registration "
		    "share a uid and can signal each other");
}

int
runner_service_serve(struct runner_service *r)
{
	for (size_t i = 0; i < r->cfg.nlisten; i++)
		log_event(LOG_INFO, "runner listening", (struct log_field[]){
		    LF_STR("address", r->cfg.listen[i]),
		    LF_STR("jail", r->cfg.jail),
		    LF_NUM("max_leases", r->cfg.max_leases) }, 3);
	for (size_t i = 0; i < r->ring.n; i++)
		log_event(LOG_INFO, "secret accepted", (struct log_field[]){
		    LF_STR("key", r->ring.id[i]) }, 1);
	log_jail(r);
	prefetch_start(r);
	return serve(r);
}

void
runner_service_fini(struct runner_service *r)
{
	supervisor_fini(&r->sv);
	jail_fini(&r->jail);
	seccomp_policy_free(&r->egress_filter);
}
