/* fuzz_sbx_config.c - `sandbox serve --config FILE` (common/sandbox/
 * sbx_config.c) under arbitrary bytes, at start and at a reload. The
 * first byte picks options given on the command line, the rest is the
 * file at start, and after a 0xff byte (which no file may hold) the file
 * a reload reads. Each file is applied onto the command line's options
 * and finished (sbx_config_finish), as serve and its reload do.
 * Invariants: a refusal of the file names "f:LINE: "; every option
 * recorded is serve's, at a line of the file; every value taken is
 * within what its message promises (durations up to a day, sizes up to
 * 64G, memory limits at least SBX_MEMORY_MIN, disks at least 1M, counts
 * in their ranges, warm slots 1..64 a language, an absolute
 * interpreter); a finished configuration keeps the rules between
 * options: a listener, every default at most its maximum, the disk
 * under --max-disk, the pre-auth uid no execution's, warm slots within
 * --max-concurrency and only with a jail. A configuration never differs
 * from itself (sbx_config_fixed_change); when the reload's differs in no
 * fixed option, every field a fixed option sets is the same in both. */
#include <string.h>

#include "common/base/cli.h"
#include "common/sandbox/sbx_config.h"
#include "config_input.h"
#include "fuzz.h"

#define DAY_MS 86400000ull
#define SIZE_MAX_ (64ull << 30)

/* What the command line may give (bit i of the first byte). */
static const struct config_opt cmdline[] = {
	{ "listen", "127.0.0.1:7001" }, { "jail", "none" },
	{ "uid-range", "300000-300999" }, { "secret-file", "/etc/s" },
	{ "max-concurrency", "8" }, { "warm", "python=2" },
	{ "memory", "64M" }, { "max-memory", "512M" },
};

static void
check_limits(const struct sbx_limits *l)
{
	FUZZ_ASSERT(l->timeout_ms >= 1 && l->timeout_ms <= DAY_MS);
	FUZZ_ASSERT(l->cpu_ms >= 1 && l->cpu_ms <= DAY_MS);
	FUZZ_ASSERT(l->memory >= SBX_MEMORY_MIN && l->memory <= SIZE_MAX_);
	FUZZ_ASSERT(l->output >= 1 && l->output <= SIZE_MAX_);
	FUZZ_ASSERT(l->pids >= 1 && l->pids <= 65536);
}

/* What each value taken promises, finished or not. */
static void
check_values(const struct sbx_config *c)
{
	const struct sbx_server_config *s = &c->sc;
	const struct sbx_budget_config *b = &s->budget;

	check_limits(&s->def);
	check_limits(&s->max);
	FUZZ_ASSERT(s->max_disk >= (1u << 20) && s->max_disk <= SIZE_MAX_);
	FUZZ_ASSERT(c->jo.disk == 0 || (c->jo.disk >= (1u << 20) &&
	    c->jo.disk <= SIZE_MAX_));
	FUZZ_ASSERT(b->tenant_concurrent >= 1 &&
	    b->tenant_concurrent <= 10000 && b->tenant_queue <= 10000);
	FUZZ_ASSERT(b->total_concurrent >= 1 && b->total_concurrent <= 10000 &&
	    b->total_queue <= 100000);
	FUZZ_ASSERT(b->tenant_cpu_ms <= DAY_MS && b->window_ms >= 1 &&
	    b->window_ms <= DAY_MS);
	FUZZ_ASSERT(s->queue_timeout_ms >= 1 && s->queue_timeout_ms <= DAY_MS);
	FUZZ_ASSERT(s->handshake_ms >= 1 && s->handshake_ms <= DAY_MS);
	FUZZ_ASSERT(s->drain_ms >= 1 && s->drain_ms <= DAY_MS);
	FUZZ_ASSERT(s->max_per_peer >= 1 && s->max_per_peer <= 100000);
	FUZZ_ASSERT(s->preauth_uid <= 0xfffffffdUL);
	FUZZ_ASSERT(!s->exec_interpreter || s->exec_interpreter[0] == '/');
	FUZZ_ASSERT(s->warm_python <= 64 && s->warm_java <= 64);
	FUZZ_ASSERT(!c->log_format || strcmp(c->log_format, "human") == 0 ||
	    strcmp(c->log_format, "json") == 0);
	FUZZ_ASSERT(c->jo.uid_first >= 1 && c->jo.uid_first <= c->jo.uid_last &&
	    c->jo.uid_last <= CLI_UID_MAX);
	FUZZ_ASSERT(c->nlisten <= SUPERVISOR_LISTEN_MAX &&
	    s->nsecret <= SECRET_RING_MAX);
}

static void
check_finished(const struct sbx_config *c)
{
	const struct sbx_server_config *s = &c->sc;

	FUZZ_ASSERT(c->nlisten >= 1);
	FUZZ_ASSERT(s->def.timeout_ms <= s->max.timeout_ms &&
	    s->def.cpu_ms <= s->max.cpu_ms && s->def.memory <= s->max.memory &&
	    s->def.output <= s->max.output && s->def.pids <= s->max.pids);
	FUZZ_ASSERT(s->disk == c->jo.disk && s->disk <= s->max_disk);
	FUZZ_ASSERT(s->secret_files == c->secret_files);
	FUZZ_ASSERT(s->warm_python + s->warm_java <=
	    s->budget.total_concurrent);
	if (c->jo.mode == JAIL_NONE) {
		FUZZ_ASSERT(s->warm_python + s->warm_java == 0);
		return;
	}
	/* the range's first uid may have gone to the pre-auth process */
	FUZZ_ASSERT(c->jo.uid_first <= c->jo.uid_last);
	FUZZ_ASSERT(s->preauth_uid >= 1 && (s->preauth_uid < c->jo.uid_first ||
	    s->preauth_uid > c->jo.uid_last));
}

/* What a fixed option sets: the same in a and b. */
static int
same_fixed(const struct sbx_config *a, const struct sbx_config *b)
{
	if (a->nlisten != b->nlisten)
		return 0;
	for (size_t i = 0; i < a->nlisten; i++)
		if (!config_str_eq(a->listen[i], b->listen[i]))
			return 0;
	return a->sc.preauth_uid == b->sc.preauth_uid &&
	    config_str_eq(a->sc.exec_interpreter, b->sc.exec_interpreter) &&
	    a->sc.warm_python == b->sc.warm_python &&
	    a->sc.warm_java == b->sc.warm_java && a->jo.mode == b->jo.mode &&
	    a->jo.uid_first == b->jo.uid_first &&
	    a->jo.uid_last == b->jo.uid_last &&
	    config_str_eq(a->jo.state_dir, b->jo.state_dir) &&
	    config_str_eq(a->jo.cgroup, b->jo.cgroup) &&
	    a->jo.landlock == b->jo.landlock &&
	    config_str_eq(a->jo.python, b->jo.python) &&
	    config_str_eq(a->jo.java_home, b->jo.java_home) &&
	    config_str_eq(a->jo.denylist, b->jo.denylist) &&
	    config_str_eq(a->log_format, b->log_format) &&
	    config_str_eq(a->metrics, b->metrics);
}

/* A file onto the command line, then finished: 0, or -1 (refused). */
static int
configure(struct sbx_config *c, unsigned pick, const uint8_t *data,
    size_t size, char *buf)
{
	char err[1024];
	int rc;

	sbx_config_defaults(c);
	config_command_line(&sbx_optconfig, &c->given, c, cmdline,
	    sizeof cmdline / sizeof *cmdline, pick);
	memcpy(buf, data, size);
	rc = sbx_config_apply_text(c, "f", buf, size, err, sizeof err);
	config_applied(&sbx_optconfig, &c->given, data, size, rc, err);
	if (rc != 0)
		return -1;	/* a value refused may be half set: dropped */
	check_values(c);
	if (sbx_config_finish(c, err, sizeof err) != 0) {
		FUZZ_ASSERT(err[0] != '\0');
		return -1;
	}
	check_values(c);
	check_finished(c);
	FUZZ_ASSERT(sbx_config_fixed_change(c, c) == NULL);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf_a[OPTFILE_MAX + 1], buf_b[OPTFILE_MAX + 1];
	static struct sbx_config a, b;
	struct config_input in;

	if (config_input_split(data, size, &in) != 0 ||
	    configure(&a, in.pick, in.file[0], in.len[0], buf_a) != 0 ||
	    !in.reload ||
	    configure(&b, in.pick, in.file[1], in.len[1], buf_b) != 0 ||
	    sbx_config_fixed_change(&a, &b) != NULL)
		return 0;
	FUZZ_ASSERT(sbx_config_fixed_change(&b, &a) == NULL);
	FUZZ_ASSERT(same_fixed(&a, &b));
	return 0;
}
