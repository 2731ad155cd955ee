/* guardfs.c - the guard's checks that need the disk (guardfs.h). */
#include "common/policy/guardfs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/base/fsutil.h"

int
guardfs_script_dir_ok(const char *dir, char *err, size_t errlen)
{
	char real[PATH_MAX], bad[PATH_MAX];
	struct stat st;

	if (!realpath(dir, real) || stat(real, &st) != 0) {
		snprintf(err, errlen, "--script-dir %s: %s", dir,
		    strerror(errno));
		return -1;
	}
	if (strcmp(real, dir) != 0) {
		snprintf(err, errlen, "--script-dir %s: give its canonical "
		    "path %s (no symlink on the way)", dir, real);
		return -1;
	}
	if (!S_ISDIR(st.st_mode) || (st.st_mode & 022) ||
	    (st.st_uid != 0 && st.st_uid != geteuid())) {
		snprintf(err, errlen, "--script-dir %s: must be a directory "
		    "owned by root or the runner and writable by no one else",
		    dir);
		return -1;
	}
	/* whoever can rename a parent can put another directory, with other
	 * scripts, at this same canonical path; whoever can add a name to one
	 * (a sticky /tmp too) gives node a node_modules or package.json that
	 * its module resolution finds from every script below */
	if (fs_parents_private(real, (unsigned)geteuid(), bad, sizeof bad,
	    &st) != 0) {
		snprintf(err, errlen, "--script-dir %s: %s%s", dir,
		    errno == EPERM ? bad : strerror(errno), errno == EPERM ?
		    " above it can be changed by others (owned by another "
		    "user, or writable by group or others, sticky or not)" :
		    "");
		return -1;
	}
	return 0;
}

int
guardfs_check_scripts(const struct guard_result *res,
    const char *const *argv, char *err, size_t errlen)
{
	char real[PATH_MAX], q[GUARD_QUOTE_MAX * 4 + 4];
	struct stat st;

	for (size_t k = 0; k < res->nscripts; k++) {
		const char *p = argv[res->scripts[k].index] +
		    res->scripts[k].offset;

		if (!realpath(p, real) || strcmp(real, p) != 0 ||
		    stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "script: not a regular file at "
			    "its canonical path (a symlink, or missing): '%s'",
			    guard_quote(q, sizeof q, p, GUARD_QUOTE_MAX));
			return -1;
		}
	}
	return 0;
}

/* The first dir/name on path that is an executable file, into out. */
static int
find_on_path(const char *path, const char *name, size_t n, char *out,
    size_t outlen)
{
	for (const char *p = path; p && *p; ) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		struct stat st;

		if (len && *p == '/' && (size_t)snprintf(out, outlen,
		    "%.*s/%.*s", (int)len, p, (int)n, name) < outlen &&
		    stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(out, X_OK) == 0)
			return 0;
		p = end ? end + 1 : p + len;
	}
	return -1;
}

static int fill_launcher_dir(const char *dir, const char *path, char *err,
    size_t errlen);

int
guardfs_launcher_dir(const char *dir, const char *path, int check_only,
    char *err, size_t errlen)
{
	char fresh[PATH_MAX];

	if ((size_t)snprintf(fresh, sizeof fresh, "%s.new-%ld", dir,
	    (long)getpid()) >= sizeof fresh) {
		snprintf(err, errlen, "launcher directory %s: path too long",
		    dir);
		return -1;
	}
	if (fill_launcher_dir(fresh, path, err, errlen) != 0) {
		(void)fs_remove_tree(fresh);
		return -1;
	}
	if (check_only)
		return fs_remove_tree(fresh) == 0 ? 0 : -1;
	/* musl 1.2.3 has no renameat2() wrapper */
	if (syscall(SYS_renameat2, AT_FDCWD, fresh, AT_FDCWD, dir,
	    RENAME_EXCHANGE) != 0 &&
	    (errno != ENOENT || rename(fresh, dir) != 0)) {
		snprintf(err, errlen, "launcher directory %s: %s", dir,
		    strerror(errno));
		(void)fs_remove_tree(fresh);
		return -1;
	}
	(void)fs_remove_tree(fresh);	/* the old one, if any */
	return 0;
}

/* The launcher directory's contents, in the new directory dir. */
static int
fill_launcher_dir(const char *dir, const char *path, char *err,
    size_t errlen)
{
	/* npm runs every command through "sh -c", found on PATH; the guard
	 * refuses sh as a command word */
	static const char names[] = GUARD_DEFAULT_LAUNCHERS " sh";
	char target[PATH_MAX], link[PATH_MAX];
	size_t n;

	if (fs_remove_tree(dir) != 0 || mkdir(dir, 0755) != 0) {
		snprintf(err, errlen, "launcher directory %s: %s", dir,
		    strerror(errno));
		return -1;
	}
	for (const char *s = names; *s; s += n + (s[n] == ' ')) {
		n = strcspn(s, " ");
		if (find_on_path(path, s, n, target, sizeof target) != 0)
			continue;	/* not installed: nothing to run */
		if ((size_t)snprintf(link, sizeof link, "%s/%.*s", dir, (int)n,
		    s) >= sizeof link || symlink(target, link) != 0) {
			snprintf(err, errlen, "launcher directory: symlink "
			    "%s: %s", link, strerror(errno));
			return -1;
		}
	}
	if (chmod(dir, 0555) != 0) {
		snprintf(err, errlen, "launcher directory %s: chmod: %s", dir,
		    strerror(errno));
		return -1;
	}
	return 0;
}
