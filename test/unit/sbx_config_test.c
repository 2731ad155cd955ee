/* sbx_config_test.c - sandbox serve's options from the command line and
 * --config text: values, one place per option, FILE:LINE, the rules
 * between options, and which ones a reload may change. */
#include <stdlib.h>
#include <string.h>

#include "common/sandbox/sbx_config.h"
#include "tap.h"

static char err[640];

static int
cmd(struct sbx_config *c, const char *name, const char *value)
{
	int o = optconfig_find(&sbx_optconfig, name);

	return o < 0 ? -1 : sbx_config_set(c, (size_t)o, value, 0, err,
	    sizeof err);
}

/* Apply text as the file "s.conf" (buf leaked: the values point in). */
static int
file(struct sbx_config *c, const char *text)
{
	size_t len = strlen(text);
	char *buf = malloc(len + 1);

	memcpy(buf, text, len + 1);
	return sbx_config_apply_text(c, "s.conf", buf, len, err, sizeof err);
}

static void
base(struct sbx_config *c)
{
	sbx_config_defaults(c);
	cmd(c, "listen", "unix:/x");
	cmd(c, "uid-range", "400000-400099");
}

int
main(void)
{
	static struct sbx_config a, b;

	base(&a);
	ok(file(&a, "max-timeout 2s\ntenant-concurrency 3\n"
	    "max-cpu-time 1s\ntimeout 9s\n") == 0 &&
	    sbx_config_finish(&a, err, sizeof err) == 0, "a good file");
	ok(a.sc.max.timeout_ms == 2000 && a.sc.budget.tenant_concurrent == 3,
	    "its values are set");
	ok(a.sc.def.timeout_ms == 2000 && a.sc.def.cpu_ms == 1000,
	    "defaults over a maximum are lowered to it");
	ok(a.sc.preauth_uid == 400000 && a.jo.uid_first == 400001,
	    "the range's first uid runs the pre-auth process");
	base(&b);
	ok(file(&b, "# c\n\nlisten unix:/y\n") == -1 && strcmp(err,
	    "s.conf:3: --listen is on the command line too: give it in one "
	    "place") == 0, "an option in both places, named with FILE:LINE");
	base(&b);
	ok(file(&b, "tenant-queue 1\ntenant-queue 2\n") == -1 &&
	    strcmp(err, "s.conf:2: --tenant-queue given twice (first at line "
	    "1)") == 0, "a scalar given twice");
	base(&b);
	ok(file(&b, "tenant-cpu 1s\n") == -1 && strstr(err,
	    "--tenant-cpu is now --tenant-cpu-time") != NULL,
	    "an old name is refused, never read");
	base(&b);
	ok(file(&b, "tenant-queue 0\nmax-queue 0\nsecret-file /a\n"
	    "secret-file /b\n") == 0 && b.sc.budget.tenant_queue == 0 &&
	    b.sc.nsecret == 2, "0 queues, a repeatable option repeated");
	base(&b);
	ok(file(&b, "exec-interpreter sh\n") == -1 && strcmp(err,
	    "s.conf:1: --exec-interpreter: an absolute path") == 0,
	    "a relative interpreter");
	base(&b);
	ok(file(&b, "disk 600M\n") == 0 &&
	    sbx_config_finish(&b, err, sizeof err) == -1 &&
	    strstr(err, "over --max-disk") != NULL, "--disk over --max-disk");
	base(&b);
	ok(file(&b, "warm python=2,java=3\n") == 0 &&
	    sbx_config_finish(&b, err, sizeof err) == 0 &&
	    b.sc.warm_python == 2 && b.sc.warm_java == 3,
	    "--warm python=2,java=3: slots of both languages");
	base(&b);
	ok(file(&b, "warm python=1,exec=1\n") == -1 && strstr(err,
	    "'exec' is not a language with warm slots (python, java)") != NULL,
	    "--warm of a language without slots");
	base(&b);
	ok(file(&b, "warm python=3,java=2\nmax-concurrency 4\n") == 0 &&
	    sbx_config_finish(&b, err, sizeof err) == -1 &&
	    strstr(err, "5 slots are over --max-concurrency 4") != NULL,
	    "the slots of both languages count against --max-concurrency");
	base(&b);
	ok(file(&b, "memory 16M\nmax-memory 16M\n") == 0 &&
	    b.sc.def.memory == SBX_MEMORY_MIN &&
	    b.sc.max.memory == SBX_MEMORY_MIN, "--memory and --max-memory "
	    "of the minimum, 16M");
	base(&b);
	ok(cmd(&b, "memory", "1") == -1 && strcmp(err, "--memory: '1' is "
	    "under 16M, the smallest memory limit a tool runs under") == 0 &&
	    cmd(&b, "max-memory", "16383K") == -1 && strstr(err,
	    "--max-memory: '16383K' is under 16M") != NULL,
	    "a memory limit under the minimum is refused, named");

	/* what a reload may change */
	base(&b);
	file(&b, "max-timeout 5s\ntenant-concurrency 1\nsecret-file /c\n");
	ok(sbx_config_fixed_change(&a, &b) == NULL,
	    "limits, budgets and secrets reload");
	base(&b);
	file(&b, "java-denylist /d\n");
	ok(sbx_config_fixed_change(&a, &b) &&
	    strcmp(sbx_config_fixed_change(&a, &b), "java-denylist") == 0,
	    "an added restart-only option is named");
	base(&b);
	cmd(&b, "uid-range", "400000-400098");
	ok(sbx_config_fixed_change(&a, &b) &&
	    strcmp(sbx_config_fixed_change(&a, &b), "uid-range") == 0,
	    "a changed one is named");
	for (size_t i = 0; i < sbx_noptions; i++)
		if (sbx_options[i].reload == OPTCONFIG_RELOAD &&
		    (strcmp(sbx_options[i].name, "listen") == 0 ||
		    strcmp(sbx_options[i].name, "jail") == 0 ||
		    strcmp(sbx_options[i].name, "metrics") == 0))
			ok(0, "--%s must need a restart", sbx_options[i].name);
	return tap_done();
}
