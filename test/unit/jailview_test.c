/* jailview_test.c - the jail's read-only list on a small tree of its own:
 * a launcher found on PATH through a symlink, a script and its
 * interpreter, private and shared install prefixes, extra paths, pruning,
 * refusals. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/jail/jailview.h"
#include "tap.h"

static char T[256];

/* Is a followed by b in list? */
static int
has(char *const *list, size_t n, const char *a, const char *b)
{
	char want[PATH_MAX];

	snprintf(want, sizeof want, "%s%s", a, b);
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], want) == 0)
			return 1;
	return 0;
}

static void
put(const char *rel, const char *text, mode_t mode)
{
	char p[PATH_MAX + 300];
	int fd;

	snprintf(p, sizeof p, "%s/%s", T, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0 || write(fd, text, strlen(text)) < 0 || close(fd) != 0)
		perror(p);
}

static void
dir(const char *rel)
{
	char p[PATH_MAX + 300];

	snprintf(p, sizeof p, "%s/%s", T, rel);
	if (mkdir(p, 0755) != 0 && errno != EEXIST)
		perror(p);
}

static void
link_at(const char *rel, const char *target)
{
	char p[PATH_MAX + 300];

	snprintf(p, sizeof p, "%s/%s", T, rel);
	if (symlink(target, p) != 0)
		perror(p);
}

int
main(void)
{
	static struct jail_view v;
	char tmpl[] = "/tmp/jailview-test.XXXXXX", path[PATH_MAX + 64],
	    interp[PATH_MAX], script[PATH_MAX + 16], extra[PATH_MAX], err[256];
	const char *launchers[2], *extras[1];
	struct jail_view_spec s;

	if (!mkdtemp(tmpl) || !realpath(tmpl, path) || strlen(path) >= sizeof T)
		return 1;
	memcpy(T, path, strlen(path) + 1);
	/* T/opt/tool/bin/tool: a script run by T/opt/interp/bin/interp;
	 * T/bin/tool -> ../opt/tool/bin/tool, T/bin on PATH */
	dir("opt");
	dir("opt/tool");
	dir("opt/tool/bin");
	dir("opt/tool/lib");
	dir("opt/interp");
	dir("opt/interp/bin");
	dir("bin");
	snprintf(interp, sizeof interp, "%s/opt/interp/bin/interp", T);
	snprintf(script, sizeof script, "#!%s -x\n", interp);
	put("opt/tool/bin/tool", script, 0755);
	put("opt/interp/bin/interp", "\177ELF not really\n", 0755);
	link_at("bin/tool", "../opt/tool/bin/tool");

	snprintf(path, sizeof path, "/nonexistent:%s/bin:/usr/bin", T);
	launchers[0] = "tool";
	launchers[1] = "sh";
	s = (struct jail_view_spec){ path, launchers, 2, NULL, 0 };
	err[0] = '\0';
	ok(jail_view_build(&v, &s, err, sizeof err) == 0, "builds%s%s",
	    err[0] ? ": " : "", err);
	ok(has(v.ro, v.nro, T, "/opt/tool"),
	    "a launcher's own prefix (above bin/) is in the list");
	ok(!has(v.ro, v.nro, T, "/bin") && !has(v.ro, v.nro, T, ""),
	    "the PATH directory holding it is not");
	ok(has(v.links, v.nlinks, T, "/bin/tool"),
	    "the symlink it was found through is kept, at its real place");
	ok(has(v.ro, v.nro, interp, "") &&
	    !has(v.ro, v.nro, T, "/opt/interp"),
	    "a script's #! interpreter is in the list, not its prefix");
	ok(!has(v.ro, v.nro, "/usr", "") &&
	    !has(v.ro, v.nro, "/usr/bin", "") &&
	    !has(v.ro, v.nro, "/usr/local", "") &&
	    !has(v.ro, v.nro, "/usr/lib", ""),
	    "neither /usr, /usr/bin, /usr/lib nor /usr/local whole");
	ok(jail_view_covered(&v, "/etc/hosts") || access("/etc/hosts", F_OK),
	    "the resolver's files are there");
	{
		char real[PATH_MAX];

		ok(realpath("/bin/sh", real) && jail_view_covered(&v, real),
		    "sh, found on PATH, is there as its real file %s", real);
	}
	{
		int inner = 0;

		for (size_t i = 0; i < v.nro; i++)
			for (size_t k = 0; k < v.nro; k++)
				inner += i != k && strncmp(v.ro[i], v.ro[k],
				    strlen(v.ro[k])) == 0 &&
				    v.ro[i][strlen(v.ro[k])] == '/';
		ok(inner == 0, "no entry lies inside another (%d do)", inner);
	}

	/* launchers in a shared prefix (/usr): their named entries under
	 * /usr/lib and /usr/share, each directory listed once for all of
	 * them, whichever comes first */
	for (int order = 0; order < 2; order++) {
		const char *two[2] = { order ? "sh" : "python3",
		    order ? "python3" : "sh" };
		char real[PATH_MAX];
		int py = realpath("/usr/bin/python3", real) != NULL;

		s = (struct jail_view_spec){ "/usr/bin", two, 2, NULL, 0 };
		ok(jail_view_build(&v, &s, err, sizeof err) == 0 &&
		    (!py || (jail_view_covered(&v, "/usr/lib/python3") &&
		    jail_view_covered(&v, real))) &&
		    !jail_view_covered(&v, "/usr/share/doc") &&
		    !has(v.ro, v.nro, "/usr/lib", ""),
		    "python3's entries under /usr/lib with sh %s it%s",
		    order ? "before" : "after", py ? "" : " (no python3 here)");
	}

	/* an extra path that holds earlier entries replaces them, and the
	 * links inside it go */
	snprintf(extra, sizeof extra, "%s", T);
	extras[0] = extra;
	s = (struct jail_view_spec){ path, launchers, 1, extras, 1 };
	ok(jail_view_build(&v, &s, err, sizeof err) == 0 &&
	    has(v.ro, v.nro, T, "") &&
	    !has(v.ro, v.nro, T, "/opt/tool") &&
	    !has(v.links, v.nlinks, T, "/bin/tool"),
	    "an extra path covering the launcher's prefix prunes it and its "
	    "links");

	/* a launcher given by a path with .. and an absolute symlink */
	link_at("abs", interp);
	snprintf(extra, sizeof extra, "%s/opt/tool/bin/../../../abs", T);
	launchers[0] = extra;
	s = (struct jail_view_spec){ "", launchers, 1, NULL, 0 };
	ok(jail_view_build(&v, &s, err, sizeof err) == 0 &&
	    has(v.links, v.nlinks, T, "/abs") &&
	    has(v.ro, v.nro, T, "/opt/interp"),
	    "'..' and an absolute link resolve to the real prefix");

	/* a symlink loop and a missing launcher add nothing */
	link_at("bin/loop", "loop");
	launchers[0] = "loop";
	launchers[1] = "missing";
	snprintf(path, sizeof path, "%s/bin", T);
	s = (struct jail_view_spec){ path, launchers, 2, NULL, 0 };
	ok(jail_view_build(&v, &s, err, sizeof err) == 0 &&
	    !has(v.links, v.nlinks, T, "/bin/loop"),
	    "a symlink loop and a missing launcher add nothing");

	/* refusals */
	extras[0] = "relative/path";
	s = (struct jail_view_spec){ "", NULL, 0, extras, 1 };
	ok(jail_view_build(&v, &s, err, sizeof err) == -1 &&
	    strstr(err, "is not absolute"), "a relative extra path: %s", err);
	snprintf(extra, sizeof extra, "%s/none", T);
	extras[0] = extra;
	ok(jail_view_build(&v, &s, err, sizeof err) == -1 &&
	    strstr(err, "No such file"), "a missing extra path: %s", err);

	/* an empty directory is in the view whole (what is put in it later,
	 * a runner's installed trees, must be readable); a directory of only
	 * links is made again link by link, without itself */
	dir("empty");
	dir("links");
	link_at("links/sh", "/bin/sh");
	snprintf(extra, sizeof extra, "%s/empty", T);
	extras[0] = extra;
	s = (struct jail_view_spec){ "", NULL, 0, extras, 1 };
	ok(jail_view_build(&v, &s, err, sizeof err) == 0 &&
	    has(v.ro, v.nro, extra, ""),
	    "an empty extra directory is in the view");
	snprintf(extra, sizeof extra, "%s/links", T);
	ok(jail_view_build(&v, &s, err, sizeof err) == 0 &&
	    !has(v.ro, v.nro, extra, ""),
	    "a directory of only links is not, itself");

	snprintf(path, sizeof path, "rm -rf '%s'", T);
	if (system(path) != 0)
		return 1;
	return tap_done();
}
