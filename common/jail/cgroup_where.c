/* cgroup_where.c - this process's cgroup hierarchies, from one read of
 * /proc/self/mountinfo and /proc/self/cgroup. */
#include "common/jail/cgroup_where.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/fileio.h"

/* mountinfo lists every mount of our namespace: thousands on a busy
 * node, each line under 4 KiB */
#define MOUNTINFO_MAX (8u << 20)
#define CGROUP_MAX (64u << 10)

int
cg_where_read(struct cg_where *w)
{
	w->mountinfo = w->cgroup = NULL;
	if (file_read_kernel_in("/proc/self/mountinfo", MOUNTINFO_MAX,
	    w->mountinfo_first, sizeof w->mountinfo_first, &w->mountinfo,
	    &w->mountinfo_len) != 0)
		return -1;
	if (file_read_kernel_in("/proc/self/cgroup", CGROUP_MAX,
	    w->cgroup_first, sizeof w->cgroup_first, &w->cgroup,
	    &w->cgroup_len) != 0) {
		int e = errno;

		cg_where_free(w);
		errno = e;
		return -1;
	}
	return 0;
}

void
cg_where_free(struct cg_where *w)
{
	if (w->mountinfo != w->mountinfo_first)
		free(w->mountinfo);
	if (w->cgroup != w->cgroup_first)
		free(w->cgroup);
	w->mountinfo = w->cgroup = NULL;
	w->mountinfo_len = w->cgroup_len = 0;
}

/* The line at *off of buf[0..len): its start and length (no newline);
 * *off moves past it. 0, or -1 at the end. */
static int
next_line(const char *buf, size_t len, size_t *off, const char **line,
    size_t *llen)
{
	const char *nl;

	if (*off >= len)
		return -1;
	*line = buf + *off;
	nl = memchr(*line, '\n', len - *off);
	*llen = nl ? (size_t)(nl - *line) : len - *off;
	*off += *llen + 1;
	return 0;
}

/* The next space-separated field of s[0..len) from *off (runs of spaces
 * are one separator): 0 with *f, *flen; -1 when none is left. */
static int
next_field(const char *s, size_t len, size_t *off, const char **f,
    size_t *flen)
{
	size_t i = *off, start;

	while (i < len && s[i] == ' ')
		i++;
	if (i == len)
		return -1;
	start = i;
	while (i < len && s[i] != ' ')
		i++;
	*f = s + start;
	*flen = i - start;
	*off = i;
	return 0;
}

/* Is word one of the comma-separated items of list[0..len)? */
static int
has_item(const char *list, size_t len, const char *word)
{
	size_t w = strlen(word), off = 0;

	while (off <= len) {
		const char *c = memchr(list + off, ',', len - off);
		size_t n = c ? (size_t)(c - (list + off)) : len - off;

		if (n == w && memcmp(list + off, word, w) == 0)
			return 1;
		off += n + 1;
	}
	return 0;
}

/* s[0..n) as a C string in out: -1 when it does not fit or holds a NUL. */
static int
copy_out(const char *s, size_t n, char *out, size_t outlen)
{
	if (n >= outlen || memchr(s, '\0', n))
		return -1;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

int
cg_where_group(const char *cgroup, size_t len, const char *ctl, char *out,
    size_t outlen)
{
	const char *line;
	size_t off = 0, llen;

	while (next_line(cgroup, len, &off, &line, &llen) == 0) {
		const char *c1 = memchr(line, ':', llen), *list, *c2;
		size_t rest;

		if (!c1)
			continue;
		list = c1 + 1;
		rest = llen - (size_t)(list - line);
		if (!(c2 = memchr(list, ':', rest)))
			continue;
		if (ctl ? !has_item(list, (size_t)(c2 - list), ctl) :
		    c2 != list)
			continue;
		return copy_out(c2 + 1, rest - (size_t)(c2 + 1 - list), out,
		    outlen);
	}
	return -1;
}

/* One mountinfo line split: the mount's root and mount point (fields 4
 * and 5) and, after the " - " separator, the file system type and its
 * super options. 0, or -1 for a line of another shape. */
struct mount_line {
	const char *root, *mnt, *type, *opts;
	size_t root_len, mnt_len, type_len, opts_len;
};

static int
split_mount(const char *line, size_t llen, struct mount_line *m)
{
	const char *f, *sep = NULL;
	size_t off = 0, flen, head;

	for (size_t i = 0; i + 3 <= llen; i++)
		if (memcmp(line + i, " - ", 3) == 0) {
			sep = line + i;
			break;
		}
	if (!sep)
		return -1;
	head = (size_t)(sep - line);
	for (int k = 0; k < 3; k++)	/* id, parent, major:minor */
		if (next_field(line, head, &off, &f, &flen) != 0)
			return -1;
	if (next_field(line, head, &off, &m->root, &m->root_len) != 0 ||
	    next_field(line, head, &off, &m->mnt, &m->mnt_len) != 0)
		return -1;
	off = head + 3;
	if (next_field(line, llen, &off, &m->type, &m->type_len) != 0 ||
	    next_field(line, llen, &off, &f, &flen) != 0 ||	/* source */
	    next_field(line, llen, &off, &m->opts, &m->opts_len) != 0)
		return -1;
	return 0;
}

static int
is_type(const struct mount_line *m, const char *type)
{
	size_t n = strlen(type);

	return m->type_len == n && memcmp(m->type, type, n) == 0;
}

int
cg_where_mount(const char *mountinfo, size_t len, const char *ctl,
    char *mnt, size_t mntlen, char *root, size_t rootlen)
{
	const char *line;
	size_t off = 0, llen;
	struct mount_line m;

	while (next_line(mountinfo, len, &off, &line, &llen) == 0) {
		if (split_mount(line, llen, &m) != 0)
			continue;
		if (ctl ? !is_type(&m, "cgroup") ||
		    !has_item(m.opts, m.opts_len, ctl) : !is_type(&m, "cgroup2"))
			continue;
		if (copy_out(m.mnt, m.mnt_len, mnt, mntlen) != 0 ||
		    copy_out(m.root, m.root_len, root, rootlen) != 0)
			return -1;
		return 0;
	}
	return -1;
}

int
cg_where_own_dir(const struct cg_where *w, const char *ctl, char *out,
    size_t len)
{
	char mnt[PATH_MAX], root[PATH_MAX], path[PATH_MAX];
	const char *rel;
	size_t rl, ml;

	if (cg_where_mount(w->mountinfo, w->mountinfo_len, ctl, mnt,
	    sizeof mnt, root, sizeof root) != 0 ||
	    cg_where_group(w->cgroup, w->cgroup_len, ctl, path,
	    sizeof path) != 0)
		return -1;
	rl = strlen(root);
	rel = path;
	if (strcmp(root, "/") != 0) {
		if (strncmp(path, root, rl) != 0 ||
		    (path[rl] != '/' && path[rl] != '\0'))
			return -1;	/* our group is outside the mount */
		rel = path + rl;
	}
	if (strcmp(rel, "/") == 0)
		rel = "";
	ml = strlen(mnt);
	rl = strlen(rel);
	if (ml + rl >= len)
		return -1;
	memcpy(out, mnt, ml);
	memcpy(out + ml, rel, rl + 1);
	return 0;
}

int
cg_where_outside_ns(const char *mountinfo, size_t len, const char *real)
{
	const char *line, *root = NULL;
	size_t off = 0, llen, best = 0, root_len = 0, rl = strlen(real);
	struct mount_line m;

	while (next_line(mountinfo, len, &off, &line, &llen) == 0) {
		size_t n;

		if (split_mount(line, llen, &m) != 0 || !is_type(&m, "cgroup2"))
			continue;
		n = m.mnt_len;
		if (n > rl || memcmp(real, m.mnt, n) != 0 || n < best)
			continue;
		if (real[n] != '/' && real[n] != '\0' &&
		    !(n == 1 && m.mnt[0] == '/'))
			continue;
		best = n;	/* the last of equal ones covers the others */
		root = m.root;
		root_len = m.root_len;
	}
	return root && root_len >= 3 && memcmp(root, "/..", 3) == 0 &&
	    (root_len == 3 || root[3] == '/');
}
