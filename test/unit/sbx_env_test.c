/* sbx_env_test.c - what every sandbox execution shares, the parts that
 * need no root: the disk rule, the jail configuration the options name,
 * finding the JDK from javac on PATH, and the start-up refusals that come
 * before any jail is built (a bad denylist, a state directory that cannot
 * be made), each naming what to fix; and that the denylist text kept
 * for the Java stage is the text that was parsed, read once. */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* Serve the FIFO at path: checked to its first reader, then, once that
 * reader has closed it (inotify), unchecked to every later one, until
 * killed. */
static pid_t
serve_twice(const char *path, const char *checked, const char *unchecked)
{
	struct inotify_event ev;
	pid_t pid = fork();
	int in, fd;

	if (pid != 0)
		return pid;
	signal(SIGPIPE, SIG_IGN);
	if ((in = inotify_init1(IN_CLOEXEC)) < 0 ||
	    inotify_add_watch(in, path, IN_CLOSE_NOWRITE) < 0 ||
	    (fd = open(path, O_WRONLY)) < 0 ||
	    write(fd, checked, strlen(checked)) != (ssize_t)strlen(checked) ||
	    close(fd) != 0 || read(in, &ev, sizeof ev) != sizeof ev)
		_exit(1);
	while ((fd = open(path, O_WRONLY)) >= 0) {
		if (write(fd, unchecked, strlen(unchecked)) < 0)
			_exit(1);
		close(fd);
	}
	_exit(1);
}

/* A denylist that says one thing when parsed and another when read
 * again (a FIFO: each open is a new text): the text kept is the one
 * parsed. */
static void
test_denylist_once(const char *dir)
{
	static struct sbx_env e;
	static const char checked[] = "any a/b checked\n";
	struct sbx_jail_opts o = { .mode = JAIL_NONE, .uid_first = 7000,
		.uid_last = 7099, .python = "/usr/bin/python3" };
	struct sbx_limits max = { 1000, 1000, 64u << 20, 1u << 20, 16 };
	char deny[256], state[256], err[1024];
	enum sbx_env_status st;
	pid_t pid;

	snprintf(deny, sizeof deny, "%s/deny-fifo", dir);
	snprintf(state, sizeof state, "%s/state", dir);
	if (mkfifo(deny, 0600) != 0 || (pid = serve_twice(deny, checked,
	    "nonsense never checked\n")) < 0) {
		ok(0, "denylist FIFO fixture");
		return;
	}
	o.state_dir = state;
	o.denylist = deny;
	st = sbx_env_init(&e, &o, &max, 1u << 20, -1, 0, 1, NULL, err,
	    sizeof err);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	ok(st == SBX_ENV_OK, "a denylist FIFO is read at start ('%s')",
	    st == SBX_ENV_OK ? "" : err);
	ok(e.deny_text && e.deny_len == sizeof checked - 1 &&
	    memcmp(e.deny_text, checked, e.deny_len) == 0 &&
	    e.exec.deny_text == e.deny_text &&
	    e.exec.deny_len == e.deny_len,
	    "the text kept for the Java stage is the one parsed (%zu bytes "
	    "kept, %zu parsed)", e.deny_len, sizeof checked - 1);
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
	test_denylist_once(dir);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		ok(0, "cleanup");
	return tap_done();
}
