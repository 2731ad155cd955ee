/* guardfs_test.c - the guard's disk checks on real files: script dirs,
 * scripts at their canonical path, and the launchers-only directory. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/fsutil.h"
#include "common/policy/guardfs.h"
#include "tap.h"

static char top[PATH_MAX / 2];

/* top/rel in one of four rotating buffers: copy it to keep it */
static const char *
at(const char *rel)
{
	static char p[4][PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	if ((size_t)snprintf(p[k], sizeof p[k], "%s/%.64s", top, rel) >=
	    sizeof p[k])
		abort();
	return p[k];
}

static void
touch(const char *path, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (!f || fclose(f) != 0 || chmod(path, mode) != 0)
		abort();
}

static void
test_script_dirs(void)
{
	char err[512] = "";

	mkdir(at("sc"), 0755);
	mkdir(at("open"), 0777);
	chmod(at("open"), 0777);
	mkdir(at("group"), 0775);
	chmod(at("group"), 0775);
	touch(at("file"), 0644);
	if (symlink(at("sc"), at("link")) != 0)
		abort();
	ok(guardfs_script_dir_ok(at("sc"), err, sizeof err) == 0,
	    "a 0755 directory of ours is a script dir");
	ok(guardfs_script_dir_ok(at("open"), err, sizeof err) == -1 &&
	    strstr(err, "writable by no one else"), "world-writable refused");
	ok(guardfs_script_dir_ok(at("group"), err, sizeof err) == -1,
	    "group-writable refused");
	mkdir(at("sticky"), 01777);
	chmod(at("sticky"), 01777);
	mkdir(at("sticky/sc"), 0755);
	ok(guardfs_script_dir_ok(at("sticky/sc"), err, sizeof err) == -1 &&
	    strstr(err, "above it can be changed by others"),
	    "a dir of ours below a sticky world-writable one refused");
	ok(guardfs_script_dir_ok(at("link"), err, sizeof err) == -1 &&
	    strstr(err, "canonical path"), "a symlink refused: %s", err);
	ok(guardfs_script_dir_ok(at("file"), err, sizeof err) == -1,
	    "a file refused");
	ok(guardfs_script_dir_ok(at("none"), err, sizeof err) == -1,
	    "a missing dir refused");
}

static void
test_scripts(void)
{
	struct guard_result res;
	const char *argv[4];
	char err[512] = "", pre[PATH_MAX + 16];

	touch(at("sc/x.js"), 0644);
	mkdir(at("sc/dir"), 0755);
	if (symlink("/etc/hostname", at("sc/out.js")) != 0 ||
	    symlink(at("sc/x.js"), at("sc/in.js")) != 0)
		abort();
	snprintf(pre, sizeof pre, "--require=%s", at("sc/x.js"));
	memset(&res, 0, sizeof res);
	argv[0] = "node";
	argv[1] = pre;
	argv[2] = at("sc/x.js");
	res.nscripts = 2;
	res.scripts[0].index = 1;
	res.scripts[0].offset = 10;
	res.scripts[1].index = 2;
	res.scripts[1].offset = 0;
	ok(guardfs_check_scripts(&res, argv, err, sizeof err) == 0,
	    "regular files at their canonical paths pass (with an offset)");
	argv[2] = at("sc/out.js");
	ok(guardfs_check_scripts(&res, argv, err, sizeof err) == -1 &&
	    strstr(err, "not a regular file"), "a symlink out is refused");
	argv[2] = at("sc/in.js");
	ok(guardfs_check_scripts(&res, argv, err, sizeof err) == -1,
	    "a symlink within the dir is refused too");
	argv[2] = at("sc/dir");
	ok(guardfs_check_scripts(&res, argv, err, sizeof err) == -1,
	    "a directory is refused");
	argv[2] = at("sc/missing.js");
	ok(guardfs_check_scripts(&res, argv, err, sizeof err) == -1,
	    "a missing file is refused");
	res.nscripts = 0;
	ok(guardfs_check_scripts(&res, argv, err, sizeof err) == 0,
	    "no scripts, nothing to check");
}

static void
test_launcher_dir(void)
{
	char err[512] = "", path[PATH_MAX * 2], target[PATH_MAX];
	char dir[PATH_MAX];
	struct stat st;
	ssize_t n;

	snprintf(dir, sizeof dir, "%s", at("launchers"));
	mkdir(at("bin1"), 0755);
	mkdir(at("bin2"), 0755);
	touch(at("bin1/node"), 0755);
	touch(at("bin2/node"), 0755);
	touch(at("bin2/npx"), 0755);
	touch(at("bin2/uv"), 0644);	/* not executable: not a launcher */
	touch(at("bin2/sed"), 0755);
	touch(at("bin2/sh"), 0755);
	mkdir(dir, 0755);
	touch(at("launchers/sed"), 0755);	/* a leftover to be removed */
	snprintf(path, sizeof path, "relative:%s:%s", at("bin1"),
	    at("bin2"));
	ok(guardfs_launcher_dir(dir, path, 0, err, sizeof err) == 0,
	    "the launcher dir is made: %s", err);
	n = readlink(at("launchers/node"), target, sizeof target - 1);
	ok(n > 0 && (target[n] = '\0', strcmp(target, at("bin1/node")) == 0),
	    "node links to the first node on PATH");
	ok(lstat(at("launchers/npx"), &st) == 0 && S_ISLNK(st.st_mode) &&
	    lstat(at("launchers/sh"), &st) == 0,
	    "npx and sh are linked");
	ok(lstat(at("launchers/sed"), &st) != 0 &&
	    lstat(at("launchers/uv"), &st) != 0 &&
	    lstat(at("launchers/python3"), &st) != 0,
	    "no sed (leftover removed), no non-executable uv, no missing "
	    "python3");
	ok(stat(dir, &st) == 0 && (st.st_mode & 07777) == 0555,
	    "the dir is 0555");
	ok(guardfs_launcher_dir(dir, path, 0, err, sizeof err) == 0,
	    "it is made again over a read-only one");
	ok(guardfs_launcher_dir("/proc/nonexistent/x", path, 0, err,
	    sizeof err) == -1 && err[0] != '\0', "an impossible dir fails");
}

int
main(void)
{
	/* a script dir's parents must be root's or ours: below TESTROOT
	 * (test/check.sh), not a sticky /tmp */
	const char *root = getenv("TESTROOT") ? getenv("TESTROOT") : "/tmp";
	char tmpl[PATH_MAX], real[PATH_MAX];

	if ((size_t)snprintf(tmpl, sizeof tmpl, "%s/guardfs-test.XXXXXX",
	    root) >= sizeof tmpl || !mkdtemp(tmpl) || !realpath(tmpl, real) ||
	    strlen(real) >= sizeof top || chmod(real, 0755) != 0)
		abort();
	memcpy(top, real, strlen(real) + 1);
	umask(022);
	test_script_dirs();
	test_scripts();
	test_launcher_dir();
	fs_remove_tree(top);
	return tap_done();
}
