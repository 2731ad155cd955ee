/* sbx_env_test.c - what every sandbox execution shares, the parts that
 * need no root: the disk rule, the jail configuration the options name,
 * finding the JDK from javac on PATH, and the start-up refusals that come
 * before any jail is built (a bad denylist, a state directory that cannot
 * be made), each naming what to fix. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sandbox/sbx_env.h"
#include "tap.h"

static void
test_disk(void)
{
	ok(sbx_env_disk(0, 256u << 20, 512u << 20) == 128u << 20,
	    "no --disk: half the memory limit");
	ok(sbx_env_disk(64u << 20, 256u << 20, 512u << 20) == 64u << 20,
	    "--disk as given");
	ok(sbx_env_disk(0, 4ull << 30, 512u << 20) == 512u << 20 &&
	    sbx_env_disk(1u << 30, 256u << 20, 512u << 20) == 512u << 20,
	    "the disk never passes --max-disk");
	ok(sbx_env_disk(0, 1u << 20, 512u << 20) == 1u << 20,
	    "the disk is at least 1 MiB");
}

static void
test_jail_config(void)
{
	struct sbx_jail_opts o = { .mode = JAIL_UID, .uid_first = 7000,
		.uid_last = 7099, .state_dir = "/s", .cgroup = "/cg",
		.landlock = JAIL_LANDLOCK_REQUIRE };
	struct jail_config cfg;

	memset(&cfg, 0, sizeof cfg);
	sbx_env_jail_config(&o, &cfg);
	ok(cfg.mode == JAIL_UID && cfg.uid_first == 7000 &&
	    cfg.uid_last == 7099 && strcmp(cfg.state_dir, "/s") == 0 &&
	    strcmp(cfg.cgroup_dir, "/cg") == 0 &&
	    cfg.landlock == JAIL_LANDLOCK_REQUIRE,
	    "the jail configuration is the options'");
	ok(cfg.new_net == 1, "every execution gets an empty network namespace");
	ok(cfg.unit == JAIL_UNIT_LEASE, "a fresh uid per execution");
}

static void
test_java_home(const char *dir)
{
	char jdk[256], bin[256], javac[256], link[256], real[PATH_MAX];
	const char *home, *path = getenv("PATH");
	char saved[4096];

	snprintf(saved, sizeof saved, "%s", path ? path : "/usr/bin:/bin");
	snprintf(jdk, sizeof jdk, "%s/jdk", dir);
	snprintf(bin, sizeof bin, "%s/jdk/bin", dir);
	snprintf(javac, sizeof javac, "%s/jdk/bin/javac", dir);
	snprintf(link, sizeof link, "%s/javac", dir);
	if (mkdir(jdk, 0700) != 0 || mkdir(bin, 0700) != 0 ||
	    fclose(fopen(javac, "w")) != 0 || chmod(javac, 0700) != 0 ||
	    symlink(javac, link) != 0 || !realpath(jdk, real)) {
		ok(0, "java home fixture");
		return;
	}
	setenv("PATH", "/nonexistent:", 1);
	ok(sbx_env_java_home() == NULL, "no javac on PATH: no JDK");
	setenv("PATH", dir, 1);
	home = sbx_env_java_home();
	ok(home && strcmp(home, real) == 0,
	    "javac on PATH, through a link: its JDK ('%s')", home ? home :
	    "none");
	chmod(javac, 0600);
	ok(sbx_env_java_home() == NULL, "a javac that is not executable is "
	    "none");
	setenv("PATH", saved, 1);
}

static void
test_refusals(const char *dir)
{
	static struct sbx_env e;
	struct sbx_jail_opts o = { .mode = JAIL_NONE, .uid_first = 7000,
		.uid_last = 7099, .python = "/usr/bin/python3" };
	struct sbx_limits max = { 1000, 1000, 64u << 20, 1u << 20, 16 };
	char deny[256], file[256], state[256], err[1024];
	FILE *f;

	snprintf(deny, sizeof deny, "%s/deny", dir);
	snprintf(file, sizeof file, "%s/file", dir);
	snprintf(state, sizeof state, "%s/file/state", dir);
	if (!(f = fopen(deny, "w")) || fputs("nonsense line\n", f) < 0 ||
	    fclose(f) != 0 || fclose(fopen(file, "w")) != 0) {
		ok(0, "refusal fixtures");
		return;
	}
	o.state_dir = dir;
	o.denylist = deny;
	ok(sbx_env_init(&e, &o, &max, 1u << 20, -1, 0, 1, NULL, err,
	    sizeof err) == SBX_ENV_BAD_SETUP &&
	    strncmp(err, "--java-denylist: ", 17) == 0,
	    "a denylist that does not parse is refused at start: '%s'", err);
	o.denylist = NULL;
	o.state_dir = state;
	ok(sbx_env_init(&e, &o, &max, 1u << 20, -1, 0, 1, NULL, err,
	    sizeof err) == SBX_ENV_BAD_SETUP &&
	    strstr(err, "state directory") && strstr(err, state),
	    "a state directory that cannot be made is named: '%s'", err);
	free(e.deny_text);
}

int
main(void)
{
	char dir[] = "/tmp/airlock-sbx-env-XXXXXX";
	char cmd[64];

	test_disk();
	test_jail_config();
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return tap_done();
	}
	test_java_home(dir);
	test_refusals(dir);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		ok(0, "cleanup");
	return tap_done();
}
