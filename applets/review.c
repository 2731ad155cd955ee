/* review.c - the staff review gate: a queue of STDIO registrations, an
 * audit trail, and signed approval tokens the runner verifies itself.
 * docs/REVIEW.md describes the workflow and every file format. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "applets/applet.h"
#include "common/policy/approval.h"
#include "common/jail/jail_options.h"
#include "common/policy/audit.h"
#include "common/policy/audit_verify.h"
#include "common/base/cli.h"
#include "common/policy/eckey.h"
#include "common/egress/egress_allow.h"
#include "common/mcp/toollist.h"
#include "common/policy/envpolicy.h"
#include "common/base/fileio.h"
#include "common/base/json.h"
#include "common/lock/lockjail.h"
#include "common/lock/lockread.h"
#include "common/lock/locktree.h"
#include "common/mcp/capture.h"
#include "common/mcp/surface.h"
#include "common/policy/guard.h"
#include "common/base/log.h"
#include "common/policy/review_change.h"
#include "common/policy/reviewfmt.h"
#include "common/base/secmem.h"
#include "common/policy/store.h"
#include "common/policy/surfacefmt.h"
#include "common/base/xwrap.h"

#define DEFAULT_EXPIRY_S (30 * 86400)
#define EXIT_CODES "Exit codes: 0 ok, 64 usage, 65 bad or corrupt data, " \
	"71 system error,\n74 I/O error, 77 refused, 78 configuration.\n"

/* ---- options ---------------------------------------------------------- */

struct opts {
	const char *store, *tenant, *registration, *source, *key, *pub, *out;
	const char *expires, *note, *reason, *as, *status, *at, *skew;
	const char *revoked, *head, *egress, *tools;
	const char *resolve_uids, *resolve_state, *resolve_jail;
	const char *capture_timeout;
	const char *lock_file;	/* --lock FILE (a Python lock) */
	const char *env[PROTO_ENVC_MAX];
	size_t envc;
	struct guard_policy guard;	/* --script-dir --allow-index ... */
	int json, verify, yes, lock, allow_scripts, capture;
	char **pos;		/* positional arguments */
	size_t npos;
	char **cmd;		/* after "--", when has_cmd */
	size_t ncmd;
	int has_cmd;
};

static _Noreturn void
usage_die(const char *usage)
{
	fprintf(stderr, "usage: %s", usage);
	exit(EXIT_USAGE);
}

/* --script-dir, --allow-index, --allow-module: the runner's own flags,
 * so review accepts exactly what a runner started with them runs. */
static void
guard_opt(struct guard_policy *p, const char *name, const char *val)
{
	enum guard_list list = strcmp(name, "script-dir") == 0 ?
	    GUARD_SCRIPT_DIR : strcmp(name, "allow-index") == 0 ?
	    GUARD_INDEX : GUARD_MODULE;
	const char *why;

	if (guard_policy_add(p, list, val, &why) != 0)
		die(EXIT_USAGE, "--%s '%.200s': %s", name, val, why);
}

/* The subcommand's options (getopt_long: "--name VALUE", "--name=VALUE",
 * a unique prefix), positionals anywhere before "--", and after "--" the
 * command. allowed names the options this subcommand takes, each with a
 * space on both sides (" store tenant "). */
static void
opts_parse(int argc, char **argv, const char *allowed, const char *usage,
    struct opts *o)
{
	memset(o, 0, sizeof *o);
	const struct {
		const char *name;
		const char **value;	/* NULL for a flag; both: a flag with
					 * an optional value */
		int *flag;
	} known[] = {
		{ "store", &o->store, NULL }, { "tenant", &o->tenant, NULL },
		{ "registration", &o->registration, NULL },
		{ "source", &o->source, NULL }, { "key", &o->key, NULL },
		{ "pub", &o->pub, NULL }, { "out", &o->out, NULL },
		{ "expires", &o->expires, NULL }, { "note", &o->note, NULL },
		{ "reason", &o->reason, NULL }, { "as", &o->as, NULL },
		{ "status", &o->status, NULL }, { "at", &o->at, NULL },
		{ "skew", &o->skew, NULL }, { "revoked", &o->revoked, NULL },
		{ "head", &o->head, NULL }, { "egress", &o->egress, NULL },
		{ "resolve-uid-range", &o->resolve_uids, NULL },
		{ "resolve-state-dir", &o->resolve_state, NULL },
		{ "resolve-jail", &o->resolve_jail, NULL },
		{ "lock", &o->lock_file, &o->lock },
		{ "capture", NULL, &o->capture },
		{ "capture-timeout", &o->capture_timeout, NULL },
		{ "allow-scripts", NULL, &o->allow_scripts },
		{ "tools", &o->tools, NULL },
		{ "env-key", NULL, NULL }, { "script-dir", NULL, NULL },
		{ "allow-index", NULL, NULL }, { "allow-module", NULL, NULL },
		{ "json", NULL, &o->json },
		{ "verify", NULL, &o->verify }, { "yes", NULL, &o->yes },
	};
	/* getopt_long's table: the allowed ones (val: 256 + index in
	 * known), --help, and the terminator */
	struct option lo[sizeof known / sizeof *known + 2];
	size_t nlo = 0;
	char name[32];

	for (size_t k = 0; k < sizeof known / sizeof *known; k++) {
		snprintf(name, sizeof name, " %s ", known[k].name);
		if (strstr(allowed, name))
			lo[nlo++] = (struct option){ known[k].name,
				!known[k].flag ? required_argument :
				known[k].value ? optional_argument :
				no_argument, NULL, 256 + (int)k };
	}
	lo[nlo++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[nlo] = (struct option){ NULL, 0, NULL, 0 };
	guard_policy_default(&o->guard);
	o->pos = xcalloc((size_t)argc + 1, sizeof *o->pos);
	opterr = 0;
	for (;;) {
		/* "+": stop at a positional, take it, go on; stop at "--" */
		int at = optind, c = getopt_long(argc, argv, "+:h", lo, NULL);
		size_t k;

		if (c == -1) {
			if (optind >= argc)
				break;
			if (optind == at + 1 && strcmp(argv[at], "--") == 0) {
				o->has_cmd = 1;
				o->cmd = argv + optind;
				o->ncmd = (size_t)(argc - optind);
				break;
			}
			o->pos[o->npos++] = argv[optind++];
			continue;
		}
		if (c == 'h') {
			printf("usage: %s\n%s", usage, EXIT_CODES);
			exit(EXIT_OK);
		}
		if (c == ':')
			die(EXIT_USAGE, "option --%s needs a value",
			    known[optopt - 256].name);
		if (c == '?') {
			if (optopt > 0 && optopt < 256)
				log_msg(LOG_ERROR, "unknown option -%c", optopt);
			else
				log_msg(LOG_ERROR, "unknown option %s",
				    argv[optind - 1]);
			usage_die(usage);
		}
		k = (size_t)(c - 256);
		if (known[k].flag && known[k].value) {
			/* "--opt VALUE" too: a next word that is no option */
			*known[k].flag = 1;
			if (!optarg && optind < argc && argv[optind][0] != '-')
				optarg = argv[optind++];
			*known[k].value = optarg;
		} else if (known[k].flag)
			*known[k].flag = 1;
		else if (known[k].value)
			*known[k].value = optarg;
		else if (strcmp(known[k].name, "env-key") != 0)
			guard_opt(&o->guard, known[k].name, optarg);
		else if (o->envc == PROTO_ENVC_MAX)
			die(EXIT_USAGE, "more than %d --env-key",
			    PROTO_ENVC_MAX);
		else
			o->env[o->envc++] = optarg;
	}
}

static const char *
need(const char *v, const char *name, const char *usage)
{
	if (!v) {
		log_msg(LOG_ERROR, "missing --%s", name);
		usage_die(usage);
	}
	return v;
}

static uint64_t
now_s(void)
{
	time_t t = time(NULL);

	if (t < 0)
		die(EXIT_OSERR, "the clock is before 1970");
	return (uint64_t)t;
}

/* Who is acting: --as, else the login name, else the uid. */
static const char *
actor(const struct opts *o)
{
	static char uid[32];
	const char *name = o->as;

	if (!name)
		name = getlogin();
	if (!name || !name[0])
		name = getenv("LOGNAME");
	if (!name || !name[0]) {
		snprintf(uid, sizeof uid, "uid:%u", (unsigned)getuid());
		name = uid;
	}
	if (!store_actor_valid(name, strlen(name)))
		die(EXIT_USAGE, "reviewer name must be 1-%d printable "
		    "characters without spaces (use --as NAME)",
		    STORE_ACTOR_MAX);
	return name;
}

static const char *
text_arg(const char *v, const char *what)
{
	if (v && strlen(v) > STORE_NOTE_MAX)
		die(EXIT_USAGE, "%s longer than %d bytes", what,
		    STORE_NOTE_MAX);
	return v ? v : "";
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ---- the guard: the runner's own checks (common/policy/guard.h, envpolicy.h),
 * so the queue never holds what a runner would refuse anyway ----------- */

/* Refuse, with the guard's own reason, an argv or env key set that the
 * runner would refuse; with pinned, also any package not pinned to an
 * exact version, and local scripts (not packages: nothing to pin). */
static void
guard_or_die(const struct guard_policy *policy, const char *const *argv,
    size_t argc, const char *const *env, size_t envc, int pinned)
{
	struct env_entry map[PROTO_ENVC_MAX];
	struct guard_result gr;
	struct env_result er;
	enum guard_verdict v;

	v = pinned ? guard_check_pinned(policy, argv, argc, &gr) :
	    guard_check(policy, argv, argc, &gr);
	if (v != GUARD_OK)
		die(EXIT_NOPERM, "refused: %s: %s", guard_verdict_name(v),
		    gr.reason);
	for (size_t i = 0; i < envc; i++)
		map[i] = (struct env_entry){ env[i], strlen(env[i]), "", 0 };
	if (envpolicy_check(map, envc, &er) != ENV_OK)
		die(EXIT_NOPERM, "refused: env: %s", er.reason);
}

/* ---- store helpers ---------------------------------------------------- */

static void
store_or_die(struct store *s, const char *dir, int create)
{
	if (store_open(s, dir, create) != 0)
		die(EXIT_CONFIG, "%s", s->err);
}

/* What a failed change costs: its exit code, and its message. */
static void
change_or_die(enum review_fail f, const char *err)
{
	static const int code[] = {
		[REVIEW_NO_STORE] = EXIT_CONFIG, [REVIEW_NO_LOCK] = EXIT_OSERR,
		[REVIEW_CORRUPT] = EXIT_DATAERR, [REVIEW_IO] = EXIT_IOERR,
		[REVIEW_REFUSED] = EXIT_NOPERM, [REVIEW_NO_TOKEN] = EXIT_SOFTWARE,
	};

	if (f != REVIEW_OK)
		die(code[f], "%s", err);
}

/* Open, lock and read record id for a change. */
static void
change_begin(struct store *s, const char *dir, const char *id,
    struct store_rec *rec)
{
	char err[PATH_MAX + 256];

	change_or_die(review_begin(s, dir, id, rec, err, sizeof err), err);
}

/* ---- keygen ----------------------------------------------------------- */

static const char keygen_usage[] = "airlock review keygen --out DIR\n"
    "Make an ECDSA P-256 reviewer key pair: DIR/review.key (SEC1 PEM, "
    "0600)\nand DIR/review.pub (SubjectPublicKeyInfo PEM, for runners). "
    "Refuses to\noverwrite either. Prints the key id.\n";

static int
cmd_keygen(int argc, char **argv)
{
	char kid[ECKEY_ID_TEXT];
	uint8_t id[ECKEY_ID_LEN];
	struct opts o;
	const char *why;

	opts_parse(argc, argv, " out ", keygen_usage, &o);
	need(o.out, "out", keygen_usage);
	if (o.npos || o.has_cmd)
		usage_die(keygen_usage);
	if (mkdir(o.out, 0700) != 0 && errno != EEXIST)
		die_errno(EXIT_IOERR, "cannot create %s", o.out);
	switch (eckey_write_pair(o.out, id, &why)) {
	case 0:
		break;
	case -2:
		die(EXIT_NOPERM, "%s: %s", o.out, why);
	default:
		die(EXIT_IOERR, "%s: %s", o.out, why);
	}
	eckey_id_text(id, kid);
	printf("%s\n", kid);
	return EXIT_OK;
}

/* ---- the lock of a command (docs/REVIEW.md "Locked npm trees",
 * "Locked PyPI trees") ------------------------------------------------ */

#define RESOLVE_TIMEOUT_MS (10 * 60 * 1000)

/* The lock a record's command takes, or die naming the shapes. */
static enum lock_kind
kind_or_die(const char *const *argv, size_t argc)
{
	enum lock_kind k = lock_kind_of(argv, argc);

	if (k == LOCK_KIND_NONE)
		die(EXIT_USAGE, "--lock: only `npx -y NAME@VERSION [ARGS]`, "
		    "`uvx NAME@VERSION [ARGS]` and `uvx --from NAME==VERSION "
		    "COMMAND [ARGS]` (exact versions) can be locked");
	return k;
}

/* The review's one-shot jail (--resolve-jail, --resolve-uid-range,
 * --resolve-state-dir): npm's resolution and the surface capture. */
static void
review_jail(const struct opts *o, uint64_t timeout_ms,
    struct lock_jail_opts *jo)
{
	*jo = (struct lock_jail_opts){ JAIL_UID, 310000, 310063,
		"/var/lib/airlock-review-resolve", timeout_ms };
	if (o->resolve_jail && (jail_mode_parse(o->resolve_jail, &jo->mode) !=
	    0 || jo->mode == JAIL_NONE))
		die(EXIT_USAGE, "--resolve-jail must be uid or ns");
	if (o->resolve_uids && cli_uid_range(o->resolve_uids, &jo->uid_first,
	    &jo->uid_last) != 0)
		die(EXIT_USAGE, "--resolve-uid-range: '%s' is not FIRST-LAST",
		    o->resolve_uids);
	if (o->resolve_state)
		jo->state_dir = o->resolve_state;
}

/* Keep text as a lock in STORE/locks under its digest (hex). */
static void
keep_lock(const struct opts *o, enum lock_format f, const uint8_t *text,
    size_t len, char hex[LOCK_HEX_LEN + 1])
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof dir, "%s/locks", o->store);
	if ((mkdir(dir, 0755) != 0 && errno != EEXIST) ||
	    lock_save(dir, f, text, len, hex) != 0)
		die_errno(EXIT_IOERR, "cannot keep the lock in %s", dir);
}

/* Resolve spec's whole tree into a lockfile with npm's own resolver, in
 * a jail of its own (no secret, install scripts off), check it, and
 * keep it in STORE/locks under its digest (hex). */
static void
resolve_lock(const struct opts *o, const struct npm_spec *spec,
    char hex[LOCK_HEX_LEN + 1])
{
	static char *const argv[] = { "npm", "install", "--package-lock-only",
		"--ignore-scripts", "--no-audit", "--no-fund",
		"--registry=" NPM_REGISTRY, NULL };
	struct lock_jail_opts jo;
	char manifest[NPM_NAME_MAX + NPM_VERSION_MAX + 128], err[1024];
	struct jail_file f = { "package.json", manifest, 0, 0644 };
	struct npm_lock lock;
	uint8_t *text;
	size_t len;
	long n;

	review_jail(o, RESOLVE_TIMEOUT_MS, &jo);
	if ((n = npm_manifest(spec, manifest, sizeof manifest)) < 0)
		die(EXIT_USAGE, "--lock: the package name is too long");
	f.len = (size_t)n;
	if (lock_jail_run(&jo, argv, &f, 1, "package-lock.json", LJ_TEXT_MAX,
	    &text, &len, err, sizeof err) != 0)
		die(EXIT_UNAVAILABLE, "--lock: resolving %s@%s: %s", spec->name,
		    spec->version, err);
	if (npm_lock_parse(text, len, spec, &lock, err, sizeof err) != 0)
		die(EXIT_NOPERM, "refused: lock: %s", err);
	npm_lock_free(&lock);
	keep_lock(o, LOCK_JSON, text, len, hex);
	free(text);
}

/* A Python lock given as a file (--lock FILE: hash-pinned requirements,
 * as `uv pip compile --generate-hashes` writes them), read as hostile
 * and checked as the lock of the command, kept in STORE/locks. */
static void
given_lock(const struct opts *o, const char *const *argv, size_t argc,
    char hex[LOCK_HEX_LEN + 1])
{
	struct py_spec spec;
	struct py_lock lock;
	uint8_t *text;
	size_t len;
	char err[512];

	if (py_spec_parse(argv, argc, &spec) != 0)
		die(EXIT_SOFTWARE, "--lock: not a uvx command");
	/* one byte over the cap: the reader says the file is too large */
	if (file_read(o->lock_file, PYLOCK_TEXT_MAX + 1, &text, &len) != 0)
		die_errno(EXIT_IOERR, "--lock %s", o->lock_file);
	if (py_lock_parse(text, len, &lock, err, sizeof err) != 0)
		die(EXIT_NOPERM, "refused: lock %s: %s", o->lock_file, err);
	if (!py_lock_top(&lock, &spec, err, sizeof err))
		die(EXIT_NOPERM, "refused: lock %s: %s", o->lock_file, err);
	py_lock_free(&lock);
	keep_lock(o, LOCK_REQUIREMENTS, text, len, hex);
	free(text);
}

/* Record rec's lock, read back from STORE/locks and checked against its
 * digest and its command; 0, or -1 with a message in err. */
static int
record_lock(const char *store, const struct store_rec *rec,
    struct lockread *lock, char *err, size_t errcap)
{
	uint8_t digest[LOCK_DIGEST_LEN];
	char dir[PATH_MAX];

	if (lock_hex_decode(rec->lock, digest) != 0) {
		snprintf(err, errcap, "a bad lock digest");
		return -1;
	}
	snprintf(dir, sizeof dir, "%s/locks", store);
	return lockread_load(dir, digest, rec->argv, rec->argc, lock, err,
	    errcap) == LOCKREAD_OK ? 0 : -1;
}

/* What a reviewer should see of an npm lock: size, install scripts
 * (each package named), the bin that will run; every byte escaped. */
static void
npm_summary(FILE *f, const struct npm_lock *lock, int scripts)
{
	fprintf(f, "%-14s%zu packages, every one pinned by a sha512 "
	    "integrity hash\n", "", lock->npkg);
	fprintf(f, "%-14s", "lock bin");
	rfmt_esc(f, lock->bin_name, strlen(lock->bin_name));
	fprintf(f, " -> ");
	rfmt_esc(f, lock->bin, lock->bin_len);
	fprintf(f, "\n%-14s%zu%s\n", "lock scripts", lock->install_scripts,
	    lock->install_scripts ? (scripts ? " (allowed)" :
	    " (not allowed: they will not run)") : "");
	for (size_t i = 0; i < lock->npkg; i++) {
		const struct npm_pkg *p = &lock->pkg[i];

		if (!p->install_script)
			continue;
		fprintf(f, "%-14s", "  script in");
		rfmt_esc(f, p->path, p->path_len);
		fputc('@', f);
		rfmt_esc(f, p->version, p->version_len);
		fputc('\n', f);
	}
	if (lock->optional)
		fprintf(f, "%-14s%zu (may be absent on a runner's platform)\n",
		    "lock optional", lock->optional);
}

/* What a reviewer should see of a Python lock: the console script that
 * will run, of which distribution, and every distribution pinned (names
 * and versions passed the reader's rules: printable, no escape needed). */
static void
py_summary(FILE *f, const struct lockread *lock)
{
	fprintf(f, "%-14s%zu distribution%s, every one pinned by sha256 "
	    "hashes (wheels only)\n", "", lock->py.ndist,
	    lock->py.ndist == 1 ? "" : "s");
	fprintf(f, "%-14s%s, a console script of %s==%s\n", "lock runs",
	    lock->py_spec.command, lock->py_top->name,
	    lock->py_top->version);
	for (size_t i = 0; i < lock->py.ndist; i++)
		fprintf(f, "%-14s%s==%s (%zu hash%s)\n", "lock dist",
		    lock->py.dist[i].name, lock->py.dist[i].version,
		    lock->py.dist[i].nhash, lock->py.dist[i].nhash == 1 ?
		    "" : "es");
}

static void
lock_summary(FILE *f, const char *store, const struct store_rec *rec)
{
	struct lockread lock;
	char err[512];

	fprintf(f, "%-14s%s\n", "lock", rec->lock);
	if (record_lock(store, rec, &lock, err, sizeof err) != 0) {
		fprintf(f, "%-14sUNUSABLE: ", "");
		rfmt_esc(f, err, strlen(err));
		fputc('\n', f);
		return;
	}
	if (lock.kind == LOCK_KIND_NPM)
		npm_summary(f, &lock.npm, rec->lock_scripts);
	else
		py_summary(f, &lock);
	lockread_free(&lock);
}

/* npm_summary as JSON members: the package count, the bin, the packages
 * with install scripts and the optional ones. */
static void
npm_summary_json(FILE *f, const struct npm_lock *lock, int scripts)
{
	fprintf(f, "\"packages\":%zu,\"bin\":{\"name\":", lock->npkg);
	json_write_cstr(f, lock->bin_name);
	fputs(",\"path\":", f);
	json_write_quoted(f, lock->bin, lock->bin_len);
	fprintf(f, "},\"install_scripts\":%zu,\"scripts_allowed\":%s",
	    lock->install_scripts, scripts ? "true" : "false");
	for (int opt = 0; opt < 2; opt++) {
		size_t k = 0;

		fputs(opt ? ",\"optional\":[" : ",\"with_scripts\":[", f);
		for (size_t i = 0; i < lock->npkg; i++) {
			const struct npm_pkg *p = &lock->pkg[i];

			if (!(opt ? p->optional : p->install_script))
				continue;
			fputs(k++ ? ",{\"path\":" : "{\"path\":", f);
			json_write_quoted(f, p->path, p->path_len);
			fputs(",\"version\":", f);
			json_write_quoted(f, p->version, p->version_len);
			fputc('}', f);
		}
		fputc(']', f);
	}
}

/* py_summary as JSON members: the kind, the command, its distribution,
 * every distribution with its count of hashes. */
static void
py_summary_json(FILE *f, const struct lockread *lock)
{
	fputs("\"kind\":\"python\",\"command\":", f);
	json_write_cstr(f, lock->py_spec.command);
	fputs(",\"package\":{\"name\":", f);
	json_write_cstr(f, lock->py_top->name);
	fputs(",\"version\":", f);
	json_write_cstr(f, lock->py_top->version);
	fprintf(f, "},\"distributions\":%zu,\"dists\":[", lock->py.ndist);
	for (size_t i = 0; i < lock->py.ndist; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		json_write_cstr(f, lock->py.dist[i].name);
		fputs(",\"version\":", f);
		json_write_cstr(f, lock->py.dist[i].version);
		fprintf(f, ",\"hashes\":%zu}", lock->py.dist[i].nhash);
	}
	fputc(']', f);
}

/* lock_summary as a JSON member ("lock_summary": {...}) for show --json,
 * or why the lock is unusable. */
static void
lock_summary_json(FILE *f, const char *store, const struct store_rec *rec)
{
	struct lockread lock;
	char err[512];

	fputs(",\"lock_summary\":{", f);
	if (record_lock(store, rec, &lock, err, sizeof err) != 0) {
		fputs("\"unusable\":", f);
		json_write_cstr(f, err);
		fputc('}', f);
		return;
	}
	if (lock.kind == LOCK_KIND_NPM)
		npm_summary_json(f, &lock.npm, rec->lock_scripts);
	else
		py_summary_json(f, &lock);
	fputc('}', f);
	lockread_free(&lock);
}

/* ---- the surface (docs/REVIEW.md "Surface pins") --------------------- */

/* A locked command (lockhex, in STORE/locks) as a runner's lease runs
 * it: the lock's tree installed and sealed by the runner's own code
 * (locktree.h: npm ci in a uid jail of the review's range and state
 * directory, into STATE/trees, kept for the next capture of the lock),
 * its seal and content checked, its bin started with node: argv_out
 * (pointers into buf and o->cmd); *trees is what the capture's jail must
 * read. Scripts off: a submit does not know whether approve will allow
 * them. */
static void
locked_command(const struct opts *o, const struct lock_jail_opts *jo,
    const char *lockhex, char **argv_out, char *buf, size_t bufcap,
    char trees[PATH_MAX])
{
	struct locktree_cfg c;
	char locks[PATH_MAX], err[1024];
	uint8_t digest[LOCK_DIGEST_LEN];
	enum locktree_result r;
	size_t argc;
	int installed;

	if ((size_t)snprintf(locks, sizeof locks, "%s/locks", o->store) >=
	    sizeof locks || (size_t)snprintf(trees, PATH_MAX, "%s/trees",
	    jo->state_dir) >= PATH_MAX || lock_hex_decode(lockhex, digest) !=
	    0)
		die(EXIT_USAGE, "--capture: the store or state path is too "
		    "long");
	c = (struct locktree_cfg){ locks, trees, *jo, NULL };	/* PyPI */
	c.install.mode = JAIL_UID;	/* npm ci's jail, as at a runner */
	c.install.timeout_ms = RESOLVE_TIMEOUT_MS;
	r = locktree_ready(&c, digest, NULL, 0, NULL, o->cmd, o->ncmd, 1,
	    &installed, argv_out, &argc, buf, bufcap, err, sizeof err);
	if (r != LOCKTREE_OK)
		die(r == LOCKTREE_INSTALL_FAILED || r == LOCKTREE_SYSTEM ?
		    EXIT_UNAVAILABLE : EXIT_NOPERM, "--capture: the locked "
		    "tree: %s: %s", locktree_result_name(r), err);
	fprintf(stderr, "capture: from the locked tree %s/%s (%s)\n", trees,
	    lockhex, installed ? "installed now" : "installed before, its "
	    "seal and content checked");
}

/* The server of argv run once in the review's jail, no secret, as an MCP
 * client would (a locked one from its tree, as leases run it): its
 * surface kept as STORE/surfaces/HEX.json. */
static void
capture_surface(const struct opts *o, char *const *argv,
    const char *lockhex, char hex[LOCK_HEX_LEN + 1])
{
	static const char *const launchers[] = { "npm", "node", "npx",
		"uv", "uvx", "python3" };
	static char *run[PROTO_ARGC_MAX + 1];
	static char bin[PATH_MAX];
	const char *ro[GUARD_LIST_MAX + 1];
	struct lock_jail_opts jo;
	struct capture_result cr;
	struct surface sf;
	char err[2048], dir[PATH_MAX], trees[PATH_MAX];
	uint64_t ms = 120000;
	size_t nro = o->guard.nscript_dirs;

	if (o->capture_timeout && (cli_duration_ms(o->capture_timeout, &ms) !=
	    0 || ms < 1000))
		die(EXIT_USAGE, "bad --capture-timeout %s (like 120s or 5m)",
		    o->capture_timeout);
	memcpy(ro, o->guard.script_dirs, nro * sizeof *ro);
	review_jail(o, ms, &jo);
	if (lockhex[0]) {
		locked_command(o, &jo, lockhex, run, bin, sizeof bin, trees);
		argv = run;
		ro[nro++] = trees;
	}
	struct lock_jail_view view = { launchers, sizeof launchers /
		sizeof *launchers, ro, nro };

	/* a server that exits early: EPIPE, an error that names it */
	signal(SIGPIPE, SIG_IGN);
	if (capture_jailed(&jo, &view, argv, &cr, err, sizeof err) != 0)
		die(EXIT_UNAVAILABLE, "--capture: %s", err);
	if (surface_load(&sf, cr.surface, cr.len, err, sizeof err) != 0)
		die(EXIT_NOPERM, "refused: capture: %s", err);
	snprintf(dir, sizeof dir, "%s/surfaces", o->store);
	if ((mkdir(dir, 0755) != 0 && errno != EEXIST) ||
	    lock_save(dir, LOCK_JSON, cr.surface, cr.len, hex) != 0)
		die_errno(EXIT_IOERR, "cannot keep the surface in %s", dir);
	fprintf(stderr, "captured: %zu tools, %zu prompts, %zu resource "
	    "templates (pinned); %zu resources listed (not pinned)\n",
	    (size_t)sf.items[SK_TOOL]->count,
	    (size_t)sf.items[SK_PROMPT]->count,
	    (size_t)sf.items[SK_TEMPLATE]->count, cr.resources);
	surface_free(&sf);
	free(cr.surface);
}

/* Record rec's surface, read back and checked against its digest; 0,
 * or -1 with why in err. */
static int
record_surface(const char *store, const struct store_rec *rec,
    struct surface *sf, char *err, size_t errcap)
{
	uint8_t digest[LOCK_DIGEST_LEN];
	char dir[PATH_MAX];

	memset(sf, 0, sizeof *sf);
	if (lock_hex_decode(rec->surface, digest) != 0) {
		snprintf(err, errcap, "a bad surface digest");
		return -1;
	}
	snprintf(dir, sizeof dir, "%s/surfaces", store);
	return surface_read(sf, dir, digest, err, errcap);
}

/* What `show` prints of the surface: every item whole, escaped; an
 * unusable file as UNUSABLE and why. */
static void
surface_text(FILE *f, const char *store, const struct store_rec *rec)
{
	struct surface sf;
	char err[512];

	if (record_surface(store, rec, &sf, err, sizeof err) != 0) {
		fprintf(f, "%-14sUNUSABLE: ", "");
		rfmt_esc(f, err, strlen(err));
		fputc('\n', f);
	} else {
		surface_print(f, &sf);
	}
	surface_free(&sf);
}

/* The surface as a JSON member for show --json ("surface_document":
 * {...}), or why it is unusable ("surface_unusable": why). */
static void
surface_json(FILE *f, const char *store, const struct store_rec *rec)
{
	struct surface sf;
	char err[512];

	if (record_surface(store, rec, &sf, err, sizeof err) != 0) {
		fputs(",\"surface_unusable\":", f);
		json_write_cstr(f, err);
	} else {
		fputs(",\"surface_document\":", f);
		surface_print_json(f, &sf);
	}
	surface_free(&sf);
}

/* ---- submit ----------------------------------------------------------- */

static const char submit_usage[] = "airlock review submit --store DIR "
    "[--tenant T] --registration R\n"
    "    --source catalog|custom|registry [--env-key NAME]... [--as NAME]\n"
    "    [--egress HOST:PORT,...] [--lock [--resolve-jail uid|ns]\n"
    "    [--resolve-uid-range FIRST-LAST] [--resolve-state-dir DIR]]\n"
    "    [--lock FILE]\n"
    "    [--capture [--capture-timeout D]]\n"
    "    [--script-dir DIR]... [--allow-index URL]... [--allow-module M]...\n"
    "    -- COMMAND [ARGS...]\n"
    "Queue a registration for review; prints its record id. The command "
    "must\npass the runner's launcher guard (give it the runner's "
    "--script-dir,\n--allow-index and --allow-module). catalog entries are "
    "for every tenant\n(tenant \"*\", no --tenant) and need no review "
    "(NOT_REQUIRED); others\nare PENDING. --egress names the hosts the "
    "server may reach besides the\nrunner's own --egress-allow list "
    "(exact host:port pairs); the token binds them. --lock (for\n"
    "`npx -y NAME@VERSION`) resolves the whole dependency tree with npm, "
    "jailed\n(uids 310000-310063, state /var/lib/airlock-review-resolve by "
    "default), into\na lockfile kept in STORE/locks; the token then binds "
    "its digest. --lock FILE\n(for `uvx NAME@VERSION` or `uvx --from "
    "NAME==VERSION COMMAND`) keeps FILE,\nhash-pinned requirements (`uv pip "
    "compile --generate-hashes`: NAME==VERSION\n--hash=sha256:HEX lines "
    "only), as the lock instead.\n--capture runs the server once in the "
    "same kind of jail (no secret;\n--capture-timeout, default 120s; with "
    "--lock, from its locked tree,\ninstalled into the state directory's "
    "trees/ as a runner installs it) as an\nMCP client and keeps its "
    "surface (tools, prompts, resource templates,\ncapabilities, "
    "instructions) in STORE/surfaces; the token then pins it\n"
    "(docs/REVIEW.md, "
    "\"Surface pins\").\n";

static int
cmd_submit(int argc, char **argv)
{
	struct approval_request req;
	struct store_rec rec = { 0 };
	struct store s;
	struct opts o;
	char id[STORE_ID_MAX];
	const char *who;
	int src;

	static char egress[EGRESS_ALLOW_TEXT_MAX + 1];
	char why[256], err[PATH_MAX + 256], lockhex[LOCK_HEX_LEN + 1] = "";
	char surfhex[LOCK_HEX_LEN + 1] = "";
	struct review_event ev;
	struct npm_spec spec;
	enum lock_kind kind = LOCK_KIND_NONE;

	opts_parse(argc, argv, " store tenant registration source env-key as "
	    "script-dir allow-index allow-module egress lock resolve-uid-range "
	    "resolve-state-dir resolve-jail capture capture-timeout ",
	    submit_usage, &o);
	need(o.store, "store", submit_usage);
	need(o.registration, "registration", submit_usage);
	need(o.source, "source", submit_usage);
	if (!o.has_cmd || o.ncmd == 0 || o.npos)
		usage_die(submit_usage);
	who = actor(&o);
	if ((src = store_source_parse(o.source)) < 0)
		die(EXIT_USAGE, "--source must be catalog, custom or registry");
	if (src == STORE_CATALOG) {
		if (o.tenant && strcmp(o.tenant, APPROVAL_WILDCARD_TENANT))
			die(EXIT_USAGE, "catalog entries are for every tenant:"
			    " leave out --tenant");
		o.tenant = APPROVAL_WILDCARD_TENANT;
	} else if (!need(o.tenant, "tenant", submit_usage) ||
	    !proto_id_valid((const uint8_t *)o.tenant, strlen(o.tenant))) {
		die(EXIT_USAGE, "tenant id must be 1-%d of [A-Za-z0-9._-]",
		    PROTO_ID_MAX);
	}
	if (!proto_id_valid((const uint8_t *)o.registration,
	    strlen(o.registration)))
		die(EXIT_USAGE, "registration id must be 1-%d of "
		    "[A-Za-z0-9._-]", PROTO_ID_MAX);
	if (o.ncmd > PROTO_ARGC_MAX)
		die(EXIT_USAGE, "more than %d arguments", PROTO_ARGC_MAX);
	/* sorted, as the token carries them; envpolicy checks each */
	qsort(o.env, o.envc, sizeof *o.env, str_cmp);
	for (size_t i = 1; i < o.envc; i++)
		if (strcmp(o.env[i - 1], o.env[i]) == 0)
			die(EXIT_USAGE, "--env-key %.128s given twice",
			    o.env[i]);
	/* one spelling, as the token will carry it */
	if (o.egress && egress_allow_canonical(o.egress, strlen(o.egress),
	    egress, sizeof egress, why, sizeof why) < 0)
		die(EXIT_USAGE, "--egress: %s", why);
	req = (struct approval_request){ o.tenant, o.registration, o.cmd,
		o.ncmd, (char *const *)o.env, o.envc };
	if (approval_payload_len_egress(&req, egress, strlen(egress)) < 0)
		die(EXIT_USAGE, "the command is too long to fit an approval "
		    "token (%d bytes at most, all fields together)",
		    APPROVAL_PAYLOAD_MAX);
	guard_or_die(&o.guard, (const char *const *)o.cmd, o.ncmd, o.env,
	    o.envc, 0);
	if (o.lock) {
		kind = kind_or_die((const char *const *)o.cmd, o.ncmd);
		if (kind == LOCK_KIND_NPM && o.lock_file)
			die(EXIT_USAGE, "--lock %.200s: an npm lock is "
			    "resolved by npm at submit: give --lock alone",
			    o.lock_file);
		if (kind == LOCK_KIND_PY && !o.lock_file)
			die(EXIT_USAGE, "--lock: a uvx command's lock is a "
			    "file: --lock FILE, its hash-pinned requirements "
			    "(uv pip compile --generate-hashes)");
	}
	if (kind != LOCK_KIND_NPM && !o.capture && (o.resolve_uids ||
	    o.resolve_state || o.resolve_jail))
		die(EXIT_USAGE, "--resolve-* options go with an npm --lock or "
		    "--capture");
	if (!o.capture && o.capture_timeout)
		die(EXIT_USAGE, "--capture-timeout goes with --capture");
	if (o.capture) {
		/* room for the version 5 fields (and a lock's) */
		static const uint8_t zero[APPROVAL_SURFACE_LEN];

		if (approval_payload_len_extra(&req, &(struct approval_extra){
		    egress, strlen(egress), o.lock ? zero : NULL, 0, NULL, 0,
		    zero }) < 0)
			die(EXIT_USAGE, "the command is too long to fit an "
			    "approval token with its surface pin");
	}
	/* room for the version 3 fields: str16 egress, lock, flags */
	if (o.lock && approval_payload_len_egress(&req, egress,
	    strlen(egress)) + (egress[0] ? 0 : 2) + APPROVAL_LOCK_LEN + 1 >
	    APPROVAL_PAYLOAD_MAX)
		die(EXIT_USAGE, "the command is too long to fit an approval "
		    "token with its lock");

	store_or_die(&s, o.store, 1);
	if (kind == LOCK_KIND_NPM) {
		/* minutes of npm: not under the store's lock */
		(void)npm_spec_parse((const char *const *)o.cmd, o.ncmd, &spec);
		resolve_lock(&o, &spec, lockhex);
	} else if (kind == LOCK_KIND_PY) {
		given_lock(&o, (const char *const *)o.cmd, o.ncmd, lockhex);
	}
	if (o.capture)
		capture_surface(&o, o.cmd, lockhex, surfhex);
	if (store_lock(&s) != 0)
		die(EXIT_OSERR, "%s", s.err);
	if (store_next_id(&s, id) != 0)
		die(EXIT_DATAERR, "%s", s.err);
	rec.id = id;
	rec.tenant = o.tenant;
	rec.registration = o.registration;
	rec.source = (enum store_source)src;
	rec.argc = o.ncmd;
	for (size_t i = 0; i < o.ncmd; i++)
		rec.argv[i] = o.cmd[i];
	rec.envc = o.envc;
	memcpy(rec.env, o.env, o.envc * sizeof *o.env);
	rec.egress = egress;
	rec.lock = lockhex;
	rec.surface = surfhex;
	rec.token = "";
	ev = (struct review_event){ now_s(), who, "submit", src ==
	    STORE_CATALOG ? STORE_NOT_REQUIRED : STORE_PENDING, "", "" };
	change_or_die(review_audit(&s, &rec, &ev, NULL, err, sizeof err), err);
	change_or_die(review_write(&s, &rec, err, sizeof err), err);
	printf("%s\n", id);
	return EXIT_OK;
}

/* ---- list, show ------------------------------------------------------- */

static const char list_usage[] = "airlock review list --store DIR "
    "[--status S] [--tenant T] [--json]\n"
    "    [--script-dir DIR]... [--allow-index URL]... [--allow-module M]...\n"
    "List records, oldest first, with each token's expiry and the command "
    "as the\nrunner will execute it (give the runner's own guard options); "
    "S is\nNOT_REQUIRED, PENDING, APPROVED, REJECTED or REVOKED.\n";

static int
cmd_list(int argc, char **argv)
{
	struct store s;
	struct opts o;
	char **ids;
	size_t n, shown = 0;
	int status = -1;

	opts_parse(argc, argv, " store status tenant json script-dir "
	    "allow-index allow-module ", list_usage, &o);
	need(o.store, "store", list_usage);
	if (o.npos || o.has_cmd)
		usage_die(list_usage);
	if (o.status && (status = store_status_parse(o.status)) < 0)
		die(EXIT_USAGE, "unknown status %s", o.status);
	store_or_die(&s, o.store, 0);
	if (store_list(&s, &ids, &n) != 0)
		die(EXIT_DATAERR, "%s", s.err);
	if (o.json)
		printf("[");
	else
		rfmt_list_header(stdout);
	for (size_t i = 0; i < n; i++) {
		struct store_rec rec;

		if (store_read(&s, ids[i], &rec) != 0)
			die(EXIT_DATAERR, "%s", s.err);
		if ((status < 0 || (int)rec.status == status) &&
		    (!o.tenant || strcmp(o.tenant, rec.tenant) == 0)) {
			if (o.json) {
				printf(shown ? ",\n" : "\n");
				rfmt_record_json(stdout, &rec);
			} else {
				rfmt_list_line(stdout, &rec, &o.guard);
			}
			shown++;
		}
		store_rec_free(&rec);
	}
	if (o.json)
		printf("%s]\n", shown ? "\n" : "");
	store_list_free(ids, n);
	return EXIT_OK;
}

static const char show_usage[] = "airlock review show --store DIR ID "
    "[--json]\n"
    "    [--script-dir DIR]... [--allow-index URL]... [--allow-module M]...\n"
    "Show one record: the command as the runner will execute it (give the\n"
    "runner's own guard options), exact argv, env key names (never "
    "values),\ntenant, source, status, the token issued and its expiry, "
    "and its history.\n";

static int
cmd_show(int argc, char **argv)
{
	struct store_rec rec;
	struct store s;
	struct opts o;

	opts_parse(argc, argv, " store json script-dir allow-index "
	    "allow-module ", show_usage, &o);
	need(o.store, "store", show_usage);
	if (o.npos != 1 || o.has_cmd)
		usage_die(show_usage);
	store_or_die(&s, o.store, 0);
	if (store_read(&s, o.pos[0], &rec) != 0)
		die(EXIT_DATAERR, "%s", s.err);
	if (o.json) {
		rfmt_record_json_members(stdout, &rec);
		if (rec.lock[0])
			lock_summary_json(stdout, o.store, &rec);
		if (rec.surface[0])
			surface_json(stdout, o.store, &rec);
		puts("}");
	} else {
		rfmt_record(stdout, &rec, &o.guard);
		if (rec.lock[0])
			lock_summary(stdout, o.store, &rec);
		if (rec.surface[0])
			surface_text(stdout, o.store, &rec);
	}
	store_rec_free(&rec);
	return EXIT_OK;
}

/* ---- approve, renew, reject, revoke ----------------------------------- */

static uint64_t
expiry_seconds(const char *v)
{
	uint64_t ms;

	if (!v)
		return DEFAULT_EXPIRY_S;
	if (cli_duration_ms(v, &ms) != 0 || ms < 1000)
		die(EXIT_USAGE, "bad --expires %s (like 3600s, 12h or 30d)", v);
	return ms / 1000;
}

/* The reviewer key, loaded only for the change that needs it; the caller
 * wipes it once the token and the audit entry are signed. */
static void
key_or_die(const char *path, struct eckey_priv *key)
{
	const char *why;

	if (eckey_priv_load(path, key, &why) != 0)
		die(EXIT_CONFIG, "%s: %s", path, why);
}

/* What the reviewer signs, shown before signing: the command exactly as
 * the runner will exec it (shell-quoted, every byte visible), tenant,
 * registration, env key names and the expiry. On a terminal, and unless
 * --yes, the reviewer must then type the record id. */
static void
confirm_or_die(const struct guard_policy *policy, const struct store_rec *rec,
    const char *action, uint64_t expires, int yes)
{
	char when[RFMT_TIME_LEN], line[64];

	rfmt_time(expires, when);
	fprintf(stderr, "%s %s:\n  tenant        %s\n  registration  %s\n"
	    "  command       ", action, rec->id, rec->tenant,
	    rec->registration);
	rfmt_command(stderr, policy, rec->argv, rec->argc);
	fputc('\n', stderr);
	for (size_t i = 0; i < rec->envc; i++) {
		fprintf(stderr, "  env key       ");
		rfmt_esc(stderr, rec->env[i], strlen(rec->env[i]));
		fputc('\n', stderr);
	}
	if (rec->egress[0]) {
		fprintf(stderr, "  egress        ");
		rfmt_esc(stderr, rec->egress, strlen(rec->egress));
		fputc('\n', stderr);
	}
	if (rec->lock[0])
		fprintf(stderr, "  lock          %s (install scripts %s)\n",
		    rec->lock, rec->lock_scripts ? "allowed" : "off");
	if (rec->tools && rec->tools[0]) {
		fprintf(stderr, "  tools         ");
		rfmt_esc(stderr, rec->tools, strlen(rec->tools));
		fputc('\n', stderr);
	}
	if (rec->surface && rec->surface[0])
		fprintf(stderr, "  surface       %s (pinned: `show` prints "
		    "it)\n", rec->surface);
	fprintf(stderr, "  expires       %s\n", when);
	if (yes || !isatty(STDIN_FILENO))
		return;
	fprintf(stderr, "type %s to %s it: ", rec->id, action);
	if (!fgets(line, sizeof line, stdin) ||
	    strcspn(line, "\n") != strlen(rec->id) ||
	    strncmp(line, rec->id, strlen(rec->id)) != 0)
		die(EXIT_NOPERM, "not confirmed: nothing signed");
}

/* The end of every signed change (review_commit): audited, signed with
 * key (then wiped), the token revoke (when given) listed, written. */
static void
change_commit(struct store *s, struct store_rec *rec, const char *who,
    const char *action, enum store_status to, const char *note,
    const char *detail, struct eckey_priv *key,
    const uint8_t revoke[APPROVAL_ID_LEN])
{
	struct review_event ev = { now_s(), who, action, to, note, detail };
	char err[PATH_MAX + 256];

	change_or_die(review_commit(s, rec, &ev, key, revoke, err,
	    sizeof err), err);
}

/* review_sign: a fresh token for rec into token, its id and detail. */
static void
sign_record(struct store *s, const struct eckey_priv *key,
    struct store_rec *rec, uint64_t now, uint64_t life, char *token,
    size_t cap, uint8_t id[APPROVAL_ID_LEN], char *detail, size_t dcap)
{
	char err[PATH_MAX + 256];

	change_or_die(review_sign(s, key, rec, now, life, token, cap, id,
	    detail, dcap, err, sizeof err), err);
}

static const char approve_usage[] = "airlock review approve --store DIR ID "
    "--key PRIVATE.pem [--expires 30d]\n    [--note TEXT] [--as NAME] "
    "[--yes] [--script-dir DIR]... [--allow-index URL]...\n"
    "    [--allow-module M]... [--allow-scripts] [--tools NAME,...]\n"
    "Approve a PENDING record and print its approval token, valid for "
    "--expires\n(s, m, h or d; default 30d). A NOT_REQUIRED catalog record "
    "gets a token\nfor every tenant and stays NOT_REQUIRED. Unpinned "
    "packages are refused:\nnpx needs name@exact-version, uvx and uv need "
    "==exact-version. What is\nsigned is shown on stderr first (the command "
    "shell-quoted, every byte\nvisible); on a terminal you confirm by typing "
    "the record id (--yes skips). A record with a lock (submit --lock) "
    "gets a\ntoken binding the lock's digest; its install scripts stay off "
    "unless\n--allow-scripts (npm locks only: a uvx lock installs wheels, "
    "no script).\n--tools names the only tools the server may "
    "expose: the runner\nremoves the others from tools/list and refuses "
    "calls to them (docs/REVIEW.md).\nA record with a surface (submit "
    "--capture) gets a token pinning it: a runner\nwith --surface-store "
    "ends a lease whose server answers differ from it.\n";

/* A record's lock, before it is signed: still the bytes of its digest,
 * still the lock of its command; npm's install scripts only when
 * allowed (a Python lock installs wheels: no script to allow). */
static void
lock_or_die(const char *store, struct store_rec *rec, int allow_scripts)
{
	struct lockread lock;
	char err[512];

	if (!rec->lock[0]) {
		if (allow_scripts)
			die(EXIT_USAGE, "--allow-scripts: record %s has no lock",
			    rec->id);
		return;
	}
	if (record_lock(store, rec, &lock, err, sizeof err) != 0)
		die(EXIT_DATAERR, "record %s: %s", rec->id, err);
	if (lock.kind == LOCK_KIND_PY && allow_scripts)
		die(EXIT_USAGE, "--allow-scripts: record %s's lock installs "
		    "wheels only (no build or install script runs)", rec->id);
	rec->lock_scripts = allow_scripts && lock.kind == LOCK_KIND_NPM &&
	    lock.npm.install_scripts > 0;
	lockread_free(&lock);
}

/* A record's surface, before it is signed: still the bytes of its
 * digest, still a surface document. */
static void
surface_or_die(const char *store, const struct store_rec *rec)
{
	struct surface sf;
	char err[512];

	if (rec->surface[0] && record_surface(store, rec, &sf, err,
	    sizeof err) != 0)
		die(EXIT_DATAERR, "record %s: surface: %s", rec->id, err);
	if (rec->surface[0])
		surface_free(&sf);
}

static int
cmd_approve(int argc, char **argv)
{
	static char token[APPROVAL_TOKEN_MAX + 1];
	char detail[256];
	struct store_rec rec;
	struct eckey_priv key;
	struct store s;
	struct opts o;
	uint8_t id[APPROVAL_ID_LEN];
	const char *who, *note;
	uint64_t life, now;
	int catalog;

	static char tools[TOOLLIST_TEXT_MAX + 1];
	char why[128];

	opts_parse(argc, argv, " store key expires note as yes script-dir "
	    "allow-index allow-module allow-scripts tools ", approve_usage,
	    &o);
	need(o.store, "store", approve_usage);
	need(o.key, "key", approve_usage);
	if (o.npos != 1 || o.has_cmd)
		usage_die(approve_usage);
	if (o.tools && toollist_canonical(o.tools, strlen(o.tools), tools,
	    sizeof tools, why, sizeof why) < 0)
		die(EXIT_USAGE, "--tools: %s", why);
	life = expiry_seconds(o.expires);
	who = actor(&o);
	note = text_arg(o.note, "--note");
	change_begin(&s, o.store, o.pos[0], &rec);
	catalog = rec.status == STORE_NOT_REQUIRED && !rec.token[0];
	if (rec.status != STORE_PENDING && !catalog)
		die(EXIT_NOPERM, "record %s is %s%s: only PENDING records (and "
		    "catalog records without a token) can be approved", rec.id,
		    store_status_name(rec.status), rec.token[0] ?
		    " with a token" : "");
	/* Policy may have changed since submit: check again, pins too. */
	guard_or_die(&o.guard, rec.argv, rec.argc, rec.env, rec.envc, 1);
	lock_or_die(o.store, &rec, o.allow_scripts);
	surface_or_die(o.store, &rec);
	key_or_die(o.key, &key);
	now = now_s();
	rec.tools = tools;	/* "" without --tools: every tool */
	confirm_or_die(&o.guard, &rec, "approve", now + life, o.yes);
	sign_record(&s, &key, &rec, now, life, token, sizeof token, id, detail,
	    sizeof detail);
	change_commit(&s, &rec, who, "approve", catalog ? STORE_NOT_REQUIRED :
	    STORE_APPROVED, note, detail, &key, NULL);
	printf("%s\n", token);
	return EXIT_OK;
}

static const char renew_usage[] = "airlock review renew --store DIR ID "
    "--key PRIVATE.pem --expires 30d\n    [--note TEXT] [--as NAME] [--yes] "
    "[--script-dir DIR]... [--allow-index URL]...\n    [--allow-module M]...\n"
    "Re-sign an approval with a new expiry, without a new review: only for "
    "an\nAPPROVED record (or a catalog record's token) whose token this key "
    "signed\nand whose command, tenant, registration and env keys are still "
    "exactly\nwhat that token binds. The old token joins the revocation "
    "list (one live\ntoken per record: give core the new one). Prints the "
    "new token.\n";

/* The record's token, signed by key, unrevoked, still binding exactly
 * what the record says; dies otherwise. old gets the token's id. */
static void
unchanged_or_die(struct store *s, const struct store_rec *rec,
    const struct eckey_priv *key, uint8_t old[APPROVAL_ID_LEN])
{
	char err[PATH_MAX + 256];

	change_or_die(review_unchanged(s, rec, key, old, err, sizeof err),
	    err);
}

static int
cmd_renew(int argc, char **argv)
{
	static char token[APPROVAL_TOKEN_MAX + 1];
	char detail[256], oid[ECKEY_ID_TEXT];
	uint8_t id[APPROVAL_ID_LEN], old[APPROVAL_ID_LEN];
	struct store_rec rec;
	struct eckey_priv key;
	struct store s;
	struct opts o;
	const char *who, *note;
	uint64_t life, now;
	size_t dl;

	opts_parse(argc, argv, " store key expires note as yes script-dir "
	    "allow-index allow-module ", renew_usage, &o);
	need(o.store, "store", renew_usage);
	need(o.key, "key", renew_usage);
	life = expiry_seconds(need(o.expires, "expires", renew_usage));
	if (o.npos != 1 || o.has_cmd)
		usage_die(renew_usage);
	who = actor(&o);
	note = text_arg(o.note, "--note");
	change_begin(&s, o.store, o.pos[0], &rec);
	if (!rec.token[0] || (rec.status != STORE_APPROVED &&
	    rec.status != STORE_NOT_REQUIRED))
		die(EXIT_NOPERM, "record %s is %s%s: only an approved record "
		    "(or a catalog record with a token) can be renewed",
		    rec.id, store_status_name(rec.status), rec.token[0] ? "" :
		    " without a token");
	guard_or_die(&o.guard, rec.argv, rec.argc, rec.env, rec.envc, 1);
	key_or_die(o.key, &key);
	unchanged_or_die(&s, &rec, &key, old);
	now = now_s();
	confirm_or_die(&o.guard, &rec, "renew", now + life, o.yes);
	sign_record(&s, &key, &rec, now, life, token, sizeof token, id, detail,
	    sizeof detail);
	eckey_id_text(old, oid);
	dl = strlen(detail);
	snprintf(detail + dl, sizeof detail - dl, " supersedes=%s", oid);
	change_commit(&s, &rec, who, "renew", rec.status, note, detail, &key,
	    old);
	printf("%s\n", token);
	return EXIT_OK;
}

static const char reject_usage[] = "airlock review reject --store DIR ID "
    "--key PRIVATE.pem --reason TEXT\n    [--as NAME]\nReject a PENDING "
    "record (the audit entry is signed with the key).\n";

/* The start of reject and revoke: their options (--reason required),
 * the record ID read under the store's lock; the reason, *who. */
static const char *
reasoned_begin(int argc, char **argv, const char *usage, struct opts *o,
    struct store *s, struct store_rec *rec, const char **who)
{
	const char *reason;

	opts_parse(argc, argv, " store key reason as ", usage, o);
	need(o->store, "store", usage);
	need(o->key, "key", usage);
	reason = text_arg(need(o->reason, "reason", usage), "--reason");
	if (o->npos != 1 || o->has_cmd || !reason[0])
		usage_die(usage);
	*who = actor(o);
	change_begin(s, o->store, o->pos[0], rec);
	return reason;
}

static int
cmd_reject(int argc, char **argv)
{
	struct eckey_priv key;
	struct store_rec rec;
	struct store s;
	struct opts o;
	const char *who, *reason;

	reason = reasoned_begin(argc, argv, reject_usage, &o, &s, &rec, &who);
	if (rec.status != STORE_PENDING)
		die(EXIT_NOPERM, "record %s is %s: only PENDING records can be "
		    "rejected (revoke an approval instead)", rec.id,
		    store_status_name(rec.status));
	key_or_die(o.key, &key);
	change_commit(&s, &rec, who, "reject", STORE_REJECTED, reason, reason,
	    &key, NULL);
	return EXIT_OK;
}

static const char revoke_usage[] = "airlock review revoke --store DIR ID "
    "--key PRIVATE.pem --reason TEXT\n    [--as NAME]\nRevoke the approval "
    "of a record: its token id joins STORE/revoked, the\nrevocation list "
    "runners check (the audit entry is signed with the key).\n";

static int
cmd_revoke(int argc, char **argv)
{
	char detail[64], tid[ECKEY_ID_TEXT];
	uint8_t id[APPROVAL_ID_LEN];
	struct eckey_priv key;
	struct store_rec rec;
	struct store s;
	struct opts o;
	const char *who, *reason;

	reason = reasoned_begin(argc, argv, revoke_usage, &o, &s, &rec, &who);
	if (rec.status != STORE_APPROVED && !(rec.status == STORE_NOT_REQUIRED
	    && rec.token[0]))
		die(EXIT_NOPERM, "record %s is %s without a token: nothing to "
		    "revoke", rec.id, store_status_name(rec.status));
	if (approval_token_id(rec.token, strlen(rec.token), id) != 0)
		die(EXIT_DATAERR, "record %s holds a malformed token", rec.id);
	eckey_id_text(id, tid);
	snprintf(detail, sizeof detail, "token=%s", tid);
	key_or_die(o.key, &key);
	change_commit(&s, &rec, who, "revoke", STORE_REVOKED, reason, detail,
	    &key, id);
	return EXIT_OK;
}

/* ---- verify ----------------------------------------------------------- */

static const char verify_usage[] = "airlock review verify --pub PUBLIC.pem "
    "TOKEN|- [--at UNIX] [--skew S]\n"
    "    [--revoked FILE] [--tenant T --registration R [--env-key NAME]... "
    "-- ARGV...]\n"
    "Check a token offline and print what it binds. With -- ARGV it makes "
    "the\nrunner's whole check: tenant, registration, exact argv and the "
    "exact set of\nenv key names. --at checks as of another time (unix "
    "seconds), --skew\nallows that much clock difference. Exit 0 valid, 77 "
    "refused, 65 not a token.\n";

static int
cmd_verify(int argc, char **argv)
{
	static char buf[APPROVAL_TOKEN_MAX + 2];
	static struct approval a;
	struct revocation_set rev;
	struct approval_request req;
	struct eckey_pub pub;
	enum approval_result r;
	struct opts o;
	const char *tok, *why;
	uint64_t now, skew = 0;
	size_t len;

	opts_parse(argc, argv, " pub at skew revoked tenant registration "
	    "env-key ", verify_usage, &o);
	need(o.pub, "pub", verify_usage);
	if (o.npos != 1)
		usage_die(verify_usage);
	if (!o.has_cmd && (o.tenant || o.registration || o.envc))
		die(EXIT_USAGE, "--tenant, --registration and --env-key need "
		    "-- ARGV: the check is all or nothing");
	if (o.has_cmd && (!need(o.tenant, "tenant", verify_usage) ||
	    !need(o.registration, "registration", verify_usage) || !o.ncmd))
		usage_die(verify_usage);
	now = now_s();
	if (o.at && cli_count(o.at, 0, UINT64_MAX, &now) != 0)
		die(EXIT_USAGE, "bad --at %s (unix seconds)", o.at);
	if (o.skew && cli_count(o.skew, 0, 86400, &skew) != 0)
		die(EXIT_USAGE, "bad --skew %s (0 to 86400 seconds)", o.skew);
	if (eckey_pub_load(o.pub, &pub, &why) != 0)
		die(EXIT_CONFIG, "%s: %s", o.pub, why);
	if (o.revoked) {
		revocation_init(&rev, o.revoked, &pub);
		if (revocation_reload(&rev, &why) != 0)
			die(EXIT_CONFIG, "%s: %s", o.revoked, why);
	}
	tok = o.pos[0];
	len = strlen(tok);
	if (strcmp(tok, "-") == 0) {
		len = fread(buf, 1, sizeof buf - 1, stdin);
		if (len > 0 && buf[len - 1] == '\n')
			len--;
		tok = buf;
	}
	r = approval_open(&pub, tok, len, &a);
	if (r == APPROVAL_OK) {
		rfmt_approval(stdout, &a);
		if (o.has_cmd) {
			req = (struct approval_request){ o.tenant,
				o.registration, o.cmd, o.ncmd,
				(char *const *)o.env, o.envc };
			r = approval_check(&a, &req, now, skew,
			    o.revoked ? &rev : NULL);
		} else {
			/* the token's own bindings: time and list only */
			r = approval_check_time(&a, now, skew,
			    o.revoked ? &rev : NULL);
			printf("%-14s%s\n", "request", "not checked (give "
			    "--tenant, --registration, -- ARGV)");
		}
	}
	printf("%-14s%s\n", "result", approval_result_name(r));
	if (o.revoked)
		revocation_free(&rev);
	return r == APPROVAL_OK ? EXIT_OK : r == APPROVAL_BAD_FORMAT ?
	    EXIT_DATAERR : EXIT_NOPERM;
}

/* ---- audit ------------------------------------------------------------ */

static const char audit_usage[] = "airlock review audit --store DIR "
    "[--verify] [--pub PUBLIC.pem]\n    [--head N:HASH]\n"
    "Print the audit log, checking it on the way; with --verify only check "
    "it.\nWith --pub every signature is checked too (approve, reject, revoke "
    "and\nrenew entries must be signed), which catches an edited, removed, "
    "inserted\nor reordered entry even with the whole chain recomputed. "
    "--verify also\nchecks the log against the records and the revocation "
    "list (a change\nthey hold that the log lacks: entries cut off the end), "
    "and prints the\nentry count and head hash: keep them elsewhere and give "
    "them back as\n--head N:HASH to catch any later cut or rewrite. Exit 65 "
    "when anything\nis wrong, naming the line or record.\n";

static void
print_entry(void *ctx, const struct audit_view *v)
{
	rfmt_audit_entry(ctx, v);
}

/* --head N:HASH, kept from an earlier --verify: entry N must still be
 * there with that hash. */
static int
check_head(const struct audit_entries *e, const char *head)
{
	const char *colon = strchr(head, ':');
	char num[24];
	uint64_t n;

	if (!colon || (size_t)(colon - head) >= sizeof num ||
	    strlen(colon + 1) != 2 * AUDIT_HASH_LEN)
		die(EXIT_USAGE, "bad --head %s (N:HASH as --verify prints)",
		    head);
	memcpy(num, head, (size_t)(colon - head));
	num[colon - head] = '\0';
	if (cli_count(num, 1, UINT64_MAX, &n) != 0)
		die(EXIT_USAGE, "bad --head count %s", num);
	return audit_check_head(e, n, colon + 1);
}

/* The store's revocation list against the log both ways (every id
 * listed has its entry, every entry's token is listed) and, with pub,
 * its signature: required once the log holds a signed entry (every keyed
 * change signs the list; a store with only submits has none yet).
 * Returns the number of problems. */
static size_t
check_revoked(struct store *s, const struct audit_entries *e,
    const struct eckey_pub *pub, int keyed)
{
	uint8_t (*ids)[REVOCATION_ID_LEN], *buf;
	size_t n, len, line, bad;
	struct revocation_sig sig;
	char path[PATH_MAX];
	const char *why;
	uint64_t serial;

	if (store_path(s, "revoked", path, sizeof path) != 0)
		die(EXIT_IOERR, "%s", s->err);
	if (file_read(path, REVOCATION_FILE_MAX, &buf, &len) != 0)
		die_errno(EXIT_IOERR, "cannot read %s", path);
	if (revocation_parse(buf, len, &ids, &n, &sig, &serial, &line,
	    &why) != 0)
		die(EXIT_DATAERR, "%s: line %zu: %s", path, line, why);
	if (sig.present && serial == 0)
		log_msg(LOG_WARN, "%s: signed without a serial (format 2): "
		    "runners take it as serial 0; the next keyed change, or "
		    "review sign-revocations, gives it one", path);
	bad = audit_check_revoked(e, (const uint8_t (*)[REVOCATION_ID_LEN])ids,
	    n, path) + audit_check_listed(e,
	    (const uint8_t (*)[REVOCATION_ID_LEN])ids, n, path);
	if (pub && (keyed || sig.present) &&
	    revocation_verify(buf, &sig, pub, &why) != 0) {
		log_msg(LOG_ERROR, "%s: %s", path, why);
		bad++;
	}
	free(buf);
	free(ids);
	return bad;
}

/* With pub: every record holding a token says exactly what its signed
 * token binds (a record edited after approval, its tenant say, would be
 * listed and shown as the new one). Returns the number of problems. */
static size_t
check_tokens(struct store *s, const struct eckey_pub *pub)
{
	static struct approval a;
	char err[PATH_MAX + 256];
	size_t n, bad = 0;
	char **ids;

	if (store_list(s, &ids, &n) != 0)
		die(EXIT_DATAERR, "%s", s->err);
	for (size_t i = 0; i < n; i++) {
		struct store_rec rec;

		if (store_read(s, ids[i], &rec) != 0)
			die(EXIT_DATAERR, "%s", s->err);
		if (rec.token[0] && review_token_binds(pub, &rec, &a, err,
		    sizeof err) != REVIEW_OK) {
			log_msg(LOG_ERROR, "%s", err);
			bad++;
		}
		store_rec_free(&rec);
	}
	store_list_free(ids, n);
	return bad;
}

static int
cmd_audit(int argc, char **argv)
{
	char path[PATH_MAX], hex[2 * AUDIT_HASH_LEN + 1];
	struct audit_entries all = { 0 };
	size_t len, line, bad = 0, recbad;
	struct audit_summary sum;
	struct eckey_pub pub;
	const char *why;
	struct store s;
	struct opts o;
	uint8_t *buf;
	int r;

	opts_parse(argc, argv, " store verify pub head ", audit_usage, &o);
	need(o.store, "store", audit_usage);
	if (o.npos || o.has_cmd || (o.head && !o.verify))
		usage_die(audit_usage);
	if (o.pub && eckey_pub_load(o.pub, &pub, &why) != 0)
		die(EXIT_CONFIG, "%s: %s", o.pub, why);
	store_or_die(&s, o.store, 0);
	if (store_path(&s, "audit.log", path, sizeof path) != 0)
		die(EXIT_USAGE, "%s", s.err);
	if (file_read(path, AUDIT_FILE_MAX, &buf, &len) != 0)
		die_errno(EXIT_IOERR, "cannot read %s", path);
	r = audit_verify(buf, len, o.pub ? &pub : NULL, &sum, &line, &why,
	    o.verify ? audit_entries_add : print_entry, o.verify ?
	    (void *)&all : stdout);
	if (all.oom)
		die(EXIT_OSERR, "out of memory");
	if (r != 0) {
		fflush(stdout);
		die(EXIT_DATAERR, "%s: line %zu: %s", path, line, why);
	}
	if (!o.verify) {
		free(buf);
		return EXIT_OK;
	}
	if (o.head && check_head(&all, o.head) != 0)
		bad++;
	if (audit_check_records(&s, &all, &recbad) != 0)
		die(EXIT_DATAERR, "%s", s.err);
	bad += recbad;
	bad += check_revoked(&s, &all, o.pub ? &pub : NULL,
	    sum.last_signed > 0);
	if (o.pub)
		bad += check_tokens(&s, &pub);
	audit_entries_free(&all);
	free(buf);
	if (bad)
		die(EXIT_DATAERR, "%s: %zu problem(s) found", path, bad);
	audit_hash_text(sum.head, hex);
	printf("ok: %zu entries, head %zu:%s\n", sum.count, sum.count, hex);
	if (!o.pub)
		printf("signatures not checked (give --pub)\n");
	else if (sum.last_signed < sum.count)
		printf("signatures ok; the last %zu entr%s (submits) %s not "
		    "covered by a signature yet\n", sum.count -
		    sum.last_signed, sum.count - sum.last_signed == 1 ? "y" :
		    "ies", sum.count - sum.last_signed == 1 ? "is" : "are");
	else
		printf("signatures ok: every entry is covered\n");
	return EXIT_OK;
}

/* ---- sign-revocations ------------------------------------------------- */

static const char signrev_usage[] = "airlock review sign-revocations "
    "--store DIR --key PRIVATE.pem\nSign the store's revocation list "
    "(STORE/revoked) as it stands, once it is\nchecked to hold every "
    "token the audit log revokes. Runners refuse an\nunsigned list; "
    "every keyed change (approve, renew, reject, revoke) signs it\ntoo, "
    "so this is for a new store before its first approval and for a list\n"
    "written before lists were signed (format 1).\n";

static int
cmd_sign_revocations(int argc, char **argv)
{
	char err[PATH_MAX + 256];
	struct eckey_priv key;
	struct store s;
	struct opts o;

	opts_parse(argc, argv, " store key ", signrev_usage, &o);
	need(o.store, "store", signrev_usage);
	need(o.key, "key", signrev_usage);
	if (o.npos || o.has_cmd)
		usage_die(signrev_usage);
	store_or_die(&s, o.store, 0);
	if (store_lock(&s) != 0)
		die(EXIT_IOERR, "%s", s.err);
	key_or_die(o.key, &key);
	change_or_die(review_list_sign(&s, &key, err, sizeof err), err);
	store_close(&s);
	printf("signed: %s/revoked\n", o.store);
	return EXIT_OK;
}

/* ---- dispatch --------------------------------------------------------- */

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "keygen", cmd_keygen, "make a reviewer key pair" },
	{ "submit", cmd_submit, "queue a registration for review" },
	{ "list", cmd_list, "list records" },
	{ "show", cmd_show, "show one record and its history" },
	{ "approve", cmd_approve, "approve and print an approval token" },
	{ "renew", cmd_renew, "re-sign an unchanged approval, new expiry" },
	{ "reject", cmd_reject, "reject a pending record" },
	{ "revoke", cmd_revoke, "revoke an approval" },
	{ "verify", cmd_verify, "check a token offline" },
	{ "audit", cmd_audit, "print or verify the audit log" },
	{ "sign-revocations", cmd_sign_revocations,
	  "sign the revocation list runners check" },
};

static void
help(FILE *f)
{
	fprintf(f, "usage: airlock review COMMAND [OPTIONS]\n\n"
	    "The staff review gate for STDIO registrations: a queue, an audit "
	    "trail,\nand approval tokens (ECDSA P-256) that runners verify "
	    "themselves.\nThe acting reviewer is --as NAME, else the login "
	    "name. See docs/REVIEW.md.\n\nCommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		fprintf(f, "  %-16s %s\n", commands[i].name,
		    commands[i].summary);
	fprintf(f, "\n'airlock review COMMAND --help' describes each.\n%s",
	    EXIT_CODES);
}

int
review_main(int argc, char **argv)
{
	if (argc < 2) {
		help(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		help(stdout);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	log_msg(LOG_ERROR, "unknown command '%s'", argv[1]);
	help(stderr);
	return EXIT_USAGE;
}
