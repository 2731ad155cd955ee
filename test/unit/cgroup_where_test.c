/* cgroup_where_test.c - where this process sits in its cgroup
 * hierarchies, parsed from /proc/self/cgroup and mountinfo text: a
 * controller named by a whole item only, the v2 line, paths holding ':',
 * the first mount of a kind, roots of containers (a path below the root,
 * or outside it), the longest mount covering a directory deciding
 * whether it lies outside the cgroup namespace, short buffers, embedded
 * NULs and missing newlines; then this host's own files. */
#include <string.h>

#include "common/jail/cgroup_where.h"
#include "tap.h"

#define S(lit) lit, sizeof lit - 1

static const char mounts[] =
    "30 24 0:26 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755\n"
    "31 30 0:27 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
    "35 30 0:31 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup "
    "rw,memory\n"
    "36 30 0:32 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup "
    "rw,cpu,cpuacct\n"
    "37 30 0:33 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n"
    "38 30 0:33 / /elsewhere/pids rw - cgroup cgroup rw,pids";

static const char groups[] =
    "12:pids:/user.slice\n"
    "5:cpu,cpuacct:/a:b\n"
    "4:memory:/docker/abc/inner\n"
    "1:name=systemd:/init.scope\n"
    "0::/user.slice/session-1.scope";

static int
group_is(const char *text, size_t len, const char *ctl, const char *want)
{
	char out[64];

	return cg_where_group(text, len, ctl, out, sizeof out) == 0 &&
	    strcmp(out, want) == 0;
}

static int
mount_is(const char *ctl, const char *mnt, const char *root)
{
	char m[64], r[64];

	return cg_where_mount(mounts, sizeof mounts - 1, ctl, m, sizeof m, r,
	    sizeof r) == 0 && strcmp(m, mnt) == 0 && strcmp(r, root) == 0;
}

static int
own_is(const char *ctl, const char *want)
{
	struct cg_where w = { .mountinfo = (char *)mounts,
		.mountinfo_len = sizeof mounts - 1, .cgroup = (char *)groups,
		.cgroup_len = sizeof groups - 1 };
	char out[128];

	if (!want)
		return cg_where_own_dir(&w, ctl, out, sizeof out) == -1;
	return cg_where_own_dir(&w, ctl, out, sizeof out) == 0 &&
	    strcmp(out, want) == 0;
}

int
main(void)
{
	static const char ns_mounts[] =
	    "1 0 0:1 /.. /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
	    "2 1 0:2 / /sys/fs/cgroup/inner rw - cgroup2 cgroup2 rw\n"
	    "3 1 0:3 /../x /sys/fs/cgroup/two rw - cgroup2 cgroup2 rw\n"
	    "4 1 0:4 /..x /sys/fs/cgroup/dots rw - cgroup2 cgroup2 rw\n"
	    "5 1 0:5 /.. /sys/fs/cgroupX rw - cgroup2 cgroup2 rw\n"
	    "6 1 0:6 /.. /sys/fs/cgroup/tmp rw - tmpfs tmpfs rw\n";
	static const char twice[] =
	    "1 0 0:1 /.. /c rw - cgroup2 cgroup2 rw\n"
	    "2 0 0:2 / /c rw - cgroup2 cgroup2 rw\n";
	struct cg_where host;
	char out[8], m[64], r[64];

	ok(group_is(S(groups), "pids", "/user.slice"), "a v1 line");
	ok(group_is(S(groups), "cpuacct", "/a:b") &&
	    group_is(S(groups), "cpu", "/a:b"),
	    "a controller among several, a path holding ':'");
	ok(cg_where_group(S(groups), "cpua", out, sizeof out) == -1 &&
	    cg_where_group(S(groups), "mem", out, sizeof out) == -1,
	    "a controller is a whole item, not a prefix");
	ok(group_is(S(groups), NULL, "/user.slice/session-1.scope"),
	    "the v2 line (an empty list), the last one without a newline");
	ok(group_is(S("0::/\n"), NULL, "/"), "v2 at the root");
	ok(group_is(S("3:memory:/first\n4:memory:/second\n"), "memory",
	    "/first"), "the first line naming it");
	ok(cg_where_group(S("4:memory:/a/long/path\n"), "memory", out,
	    sizeof out) == -1, "a path longer than the buffer is refused");
	ok(cg_where_group(S("4:memory:/a\0b\n"), "memory", m, sizeof m) == -1,
	    "a path holding a NUL is refused");
	ok(cg_where_group(S("4:memory\n0:/x\n:\n"), "memory", m,
	    sizeof m) == -1 && cg_where_group(S("nothing"), NULL, m,
	    sizeof m) == -1 && cg_where_group("", 0, NULL, m, sizeof m) == -1,
	    "lines of another shape");
	ok(group_is(S("4:memory:/a\n0::/b"), "memory", "/a") &&
	    cg_where_group(groups, 10, "cpu", m, sizeof m) == -1,
	    "only len bytes are read");

	ok(mount_is("memory", "/sys/fs/cgroup/memory", "/docker/abc"),
	    "a v1 mount: its mount point and root");
	ok(mount_is("cpuacct", "/sys/fs/cgroup/cpu,cpuacct", "/"),
	    "a co-mounted hierarchy");
	ok(mount_is("pids", "/sys/fs/cgroup/pids", "/"),
	    "the first mount of a hierarchy");
	ok(mount_is(NULL, "/sys/fs/cgroup/unified", "/"), "the cgroup2 mount");
	ok(cg_where_mount(S(mounts), "blkio", m, sizeof m, r, sizeof r) == -1,
	    "no mount of a hierarchy");
	ok(cg_where_mount(S(mounts), "memory", m, 8, r, sizeof r) == -1,
	    "a mount point longer than the buffer is refused");
	ok(cg_where_mount(S("1 2 3 / /x rw - cgroup\n1 2 /y - cgroup cgroup "
	    "rw,memory\nno separator cgroup rw,memory\n"), "memory", m,
	    sizeof m, r, sizeof r) == -1, "lines missing fields are skipped");

	ok(own_is("pids", "/sys/fs/cgroup/pids/user.slice"),
	    "our group: the mount point and our path");
	ok(own_is("memory", "/sys/fs/cgroup/memory/inner"),
	    "our group below a container's root: the path less the root");
	ok(own_is(NULL, "/sys/fs/cgroup/unified/user.slice/session-1.scope"),
	    "our v2 group");
	ok(own_is("blkio", NULL), "no such hierarchy");
	{
		static const char g[] = "4:memory:/docker/abcd\n"
		    "12:pids:/\n";
		struct cg_where w = { .mountinfo = (char *)mounts,
			.mountinfo_len = sizeof mounts - 1, .cgroup = (char *)g,
			.cgroup_len = sizeof g - 1 };
		char o[128];

		ok(cg_where_own_dir(&w, "memory", o, sizeof o) == -1,
		    "a group outside the mount's root (a prefix is not "
		    "below it)");
		ok(cg_where_own_dir(&w, "pids", o, sizeof o) == 0 &&
		    strcmp(o, "/sys/fs/cgroup/pids") == 0,
		    "the root group is the mount point");
		ok(cg_where_own_dir(&w, "pids", o, 10) == -1,
		    "a result longer than the buffer is refused");
	}

	ok(cg_where_outside_ns(S(ns_mounts), "/sys/fs/cgroup/a") == 1,
	    "below a mount rooted at /..");
	ok(cg_where_outside_ns(S(ns_mounts), "/sys/fs/cgroup/inner/a") == 0,
	    "the longest mount covering it decides");
	ok(cg_where_outside_ns(S(ns_mounts), "/sys/fs/cgroup/two") == 1,
	    "a root below /..");
	ok(cg_where_outside_ns(S(ns_mounts), "/sys/fs/cgroup/dots/q") == 0,
	    "/..x is not /..");
	ok(cg_where_outside_ns(S(ns_mounts), "/sys/fs/cgroupXY") == 0 &&
	    cg_where_outside_ns(S(ns_mounts), "/sys/fs/cgroupX/a") == 1,
	    "a mount point is a whole component");
	ok(cg_where_outside_ns(S(ns_mounts), "/sys/fs/cgroup/tmp/a") == 1,
	    "only cgroup2 mounts count (a tmpfs below one does not)");
	ok(cg_where_outside_ns(S(twice), "/c/d") == 0 &&
	    cg_where_outside_ns(twice, 40, "/c/d") == 1,
	    "of equal mount points the last decides");
	ok(cg_where_outside_ns(S("1 0 0:1 /.. / rw - cgroup2 cgroup2 rw\n"),
	    "/any") == 1, "a mount on / covers everything");
	ok(cg_where_outside_ns("", 0, "/x") == 0, "no mount: not outside");

	ok(cg_where_read(&host) == 0 && host.mountinfo_len > 0 &&
	    host.cgroup_len > 0 && host.mountinfo[host.mountinfo_len] == '\0',
	    "this host's files are read whole");
	cg_where_free(&host);
	ok(host.mountinfo == NULL && host.cgroup == NULL, "and freed");
	return tap_done();
}
