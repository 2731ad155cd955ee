/* pytree.c - a uvx lock's installed tree: pip's command, the RECORD
 * check, the launchers (pytree.h). */
#include "common/lock/pytree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/fileio.h"
#include "common/base/fsutil.h"
#include "common/base/secmem.h"
#include "common/lock/lockstore.h"
#include "common/lock/wheelmeta.h"

#define DEPTH_MAX 64
#define INFO_TAIL ".dist-info"
#define INFO_TAIL_LEN (sizeof INFO_TAIL - 1)

const char *
pytree_index_refusal(const char *url)
{
	size_t n = strlen(url), k = strncmp(url, "https://", 8) == 0 ? 8 :
	    strncmp(url, "http://", 7) == 0 ? 7 : 0;

	if (!k)
		return "not an http:// or https:// URL";
	if (n > PYTREE_INDEX_MAX)
		return "longer than 1024 bytes";
	if (n == k || url[k] == '/')
		return "no host";
	for (size_t i = k; i < n; i++)
		if (url[i] <= ' ' || url[i] >= 0x7f || url[i] == '@' ||
		    url[i] == '?' || url[i] == '#' || url[i] == '\\')
			return "a byte an index URL may not hold (space, "
			    "control, non-ASCII, @ credentials, ? # \\)";
	return NULL;
}

void
pytree_pip_argv(const char *index, char **argv, char *idx, size_t idxcap)
{
	static const char *const head[] = { "python3", "-m", "pip", "install",
		"--isolated", "--disable-pip-version-check", "--no-input",
		"--no-cache-dir", "--progress-bar=off", "--require-hashes",
		"--no-deps", "--only-binary=:all:", "--no-compile",
		"--no-warn-script-location", "--target", PYTREE_KEEP };
	size_t k = 0;

	for (; k < sizeof head / sizeof *head; k++)
		argv[k] = (char *)head[k];
	snprintf(idx, idxcap, "--index-url=%s", index);
	argv[k++] = idx;
	argv[k++] = "-r";
	argv[k++] = PYTREE_LOCK_FILE;
	argv[k] = NULL;
}

void
pytree_prune(const char *tree)
{
	char bin[PATH_MAX];
	struct stat st;

	if ((size_t)snprintf(bin, sizeof bin, "%s/%s/bin", tree,
	    PYTREE_KEEP) < sizeof bin && lstat(bin, &st) == 0)
		(void)(S_ISDIR(st.st_mode) ? fs_remove_tree(bin) : unlink(bin));
}

/* The paths every RECORD lists (but pip's scripts), sorted. */
struct listed {
	char **path;
	size_t n, cap;
};

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
listed_add(struct listed *s, const char *p, size_t n)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		char **v = realloc(s->path, cap * sizeof *v);

		if (!v)
			return -1;
		s->path = v;
		s->cap = cap;
	}
	if (!(s->path[s->n] = strndup(p, n)))
		return -1;
	s->n++;
	return 0;
}

static void
listed_free(struct listed *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->path[i]);
	free(s->path);
}

/* The lock distribution whose dist-info directory is name (NAME-VERSION
 * .dist-info, NAME in any PEP 503 spelling, VERSION exactly the lock's):
 * its index, or -1. */
static long
dist_of(const struct py_lock *l, const char *name)
{
	size_t n = strlen(name);
	const char *dash;
	const struct py_dist *d;

	if (n <= INFO_TAIL_LEN || strcmp(name + n - INFO_TAIL_LEN,
	    INFO_TAIL) != 0 || !(dash = memchr(name, '-', n)))
		return -1;
	n -= INFO_TAIL_LEN;
	d = py_lock_find(l, name, (size_t)(dash - name));
	if (!d || strlen(d->version) != n - (size_t)(dash - name) - 1 ||
	    memcmp(d->version, dash + 1, strlen(d->version)) != 0)
		return -1;
	return d - l->dist;
}

/* site/rel is a regular file of f's size and SHA-256. */
static int
file_is(int site, const char *rel, const struct wheel_file *f)
{
	uint8_t d[32];
	struct stat st;

	return fstatat(site, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && (uint64_t)st.st_size == f->size &&
	    lock_file_digest(site, rel, d) == 0 && ct_equal(d, f->sha256, 32);
}

/* One distribution's RECORD (site/INFO/RECORD): each hashed file as it
 * says, nothing unhashed but itself; its paths into s. */
static int
check_record(int site, const char *info, struct listed *s, char *err,
    size_t errcap)
{
	char path[PATH_MAX], self[NAME_MAX + 16], rel[WHEEL_PATH_MAX + 1];
	struct wheel_record r;
	uint8_t *text;
	size_t len;
	int fd, rc = -1;

	snprintf(self, sizeof self, "%s/RECORD", info);
	if ((fd = openat(site, self, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    snprintf(path, sizeof path, "/proc/self/fd/%d", fd) < 0 ||
	    file_read(path, WHEEL_RECORD_MAX, &text, &len) != 0) {
		snprintf(err, errcap, "%s: unreadable", self);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (wheel_record_parse(text, len, &r, rel, sizeof rel) != 0) {
		snprintf(err, errcap, "%s: %s", self, rel);
		free(text);
		return -1;
	}
	for (size_t i = 0; i < r.nfile; i++) {
		const struct wheel_file *f = &r.file[i];

		if (f->script)		/* bin/: removed */
			continue;
		memcpy(rel, f->path, f->path_len);
		rel[f->path_len] = '\0';
		if (!f->hashed && strcmp(rel, self) != 0) {
			snprintf(err, errcap, "%s lists %s without a hash",
			    self, rel);
			goto out;
		}
		if (f->hashed && !file_is(site, rel, f)) {
			snprintf(err, errcap, "site/%s: not the file its "
			    "RECORD names (size or SHA-256), or missing", rel);
			goto out;
		}
		if (listed_add(s, rel, f->path_len) != 0) {
			snprintf(err, errcap, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	wheel_record_free(&r);
	free(text);
	return rc;
}

/* Every regular file below dir (rel its path in site) is listed. */
static int
all_listed(int dir, char *rel, size_t base, const struct listed *s,
    unsigned depth, char *err, size_t errcap)
{
	int dup = fcntl(dir, F_DUPFD_CLOEXEC, 0), rc = 0;
	struct dirent *e;
	DIR *d;

	if (depth > DEPTH_MAX || dup < 0 || !(d = fdopendir(dup))) {
		if (dup >= 0)
			close(dup);
		snprintf(err, errcap, "site/%s: cannot read", rel);
		return -1;
	}
	while (rc == 0 && (e = readdir(d))) {
		struct stat st;
		char *key = rel;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(rel + base, PATH_MAX - base, "%s%s",
		    base ? "/" : "", e->d_name) >= PATH_MAX - base ||
		    fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			snprintf(err, errcap, "site/%s: cannot stat", rel);
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dir, e->d_name, O_RDONLY |
			    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			rc = sub < 0 ? -1 : all_listed(sub, rel, strlen(rel),
			    s, depth + 1, err, errcap);
			if (sub >= 0)
				close(sub);
		} else if (!bsearch(&key, s->path, s->n, sizeof *s->path,
		    str_cmp)) {
			snprintf(err, errcap, "site/%s: a file no RECORD "
			    "lists", rel);
			rc = -1;
		}
		rel[base] = '\0';
	}
	closedir(d);
	return rc;
}

/* TREE/entry/NAME for each console script of info's entry_points.txt. */
static int
write_launchers(const char *tree, int site, const char *info,
    const struct py_dist *top, char *err, size_t errcap)
{
	static struct wheel_script s[WHEEL_SCRIPTS_MAX];
	char path[PATH_MAX], dir[PATH_MAX], text[2048];
	uint8_t *ep;
	size_t len, n;
	int fd;

	snprintf(path, sizeof path, "%s/entry_points.txt", info);
	if ((fd = openat(site, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return errno == ENOENT ? 0 : -1;
	snprintf(dir, sizeof dir, "/proc/self/fd/%d", fd);
	if (file_read(dir, WHEEL_ENTRY_POINTS_MAX, &ep, &len) != 0) {
		close(fd);
		snprintf(err, errcap, "%s: unreadable", path);
		return -1;
	}
	close(fd);
	if (wheel_console_scripts(ep, len, s, &n, text, sizeof text) != 0) {
		snprintf(err, errcap, "%s: %s", path, text);
		free(ep);
		return -1;
	}
	free(ep);
	if ((size_t)snprintf(dir, sizeof dir, "%s/entry", tree) >= sizeof dir ||
	    mkdir(dir, 0755) != 0) {
		snprintf(err, errcap, "%s: %s", dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		int tl = snprintf(text, sizeof text,
		    "# airlock: the console script %s of %s==%s (its "
		    "entry_points.txt),\n# for python3 -I -S: the "
		    "distributions are in ../site (docs/REVIEW.md).\n"
		    "import importlib, os, site, sys\n"
		    "site.addsitedir(os.path.join(os.path.dirname("
		    "os.path.dirname(\n    os.path.abspath(__file__))), "
		    "\"site\"))\n"
		    "sys.argv[0] = \"%s\"\n"
		    "obj = importlib.import_module(\"%s\")\n"
		    "for part in \"%s\".split(\".\"):\n"
		    "    obj = getattr(obj, part)\n"
		    "sys.exit(obj())\n", s[i].name, top->name, top->version,
		    s[i].name, s[i].module, s[i].attr);

		if (tl < 0 || (size_t)tl >= sizeof text ||
		    (size_t)snprintf(path, sizeof path, "%s/%s", dir,
		    s[i].name) >= sizeof path ||
		    file_create(path, text, (size_t)tl, 0444) != 0) {
			snprintf(err, errcap, "%s/%s: cannot write its "
			    "launcher", dir, s[i].name);
			return -1;
		}
	}
	return chmod(dir, 0555);
}

int
pytree_check(const char *tree, const struct py_lock *l,
    const struct py_dist *top, char *err, size_t errcap)
{
	char path[PATH_MAX], rel[PATH_MAX] = "", **info;
	struct listed s = { 0 };
	struct dirent *e;
	int site, rc = -1;
	DIR *d;

	err[0] = '\0';
	if ((size_t)snprintf(path, sizeof path, "%s/%s", tree, PYTREE_KEEP) >=
	    sizeof path || (site = open(path, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) < 0) {
		snprintf(err, errcap, "%s: no installed tree", path);
		return -1;
	}
	if (!(info = calloc(l->ndist, sizeof *info)) || !(d = opendir(path))) {
		snprintf(err, errcap, "%s: cannot read", path);
		free(info);
		close(site);
		return -1;
	}
	while ((e = readdir(d))) {
		long i;

		if (strlen(e->d_name) <= INFO_TAIL_LEN || strcmp(e->d_name +
		    strlen(e->d_name) - INFO_TAIL_LEN, INFO_TAIL) != 0)
			continue;
		if ((i = dist_of(l, e->d_name)) < 0 || info[i]) {
			snprintf(err, errcap, "site/%s: %s", e->d_name, i < 0 ?
			    "a distribution the lock does not pin (or another "
			    "version)" : "a distribution installed twice");
			closedir(d);
			goto out;
		}
		info[i] = strdup(e->d_name);
	}
	closedir(d);
	for (size_t i = 0; i < l->ndist; i++)
		if (!info[i]) {
			snprintf(err, errcap, "%s==%s: not installed",
			    l->dist[i].name, l->dist[i].version);
			goto out;
		}
	for (size_t i = 0; i < l->ndist; i++)
		if (check_record(site, info[i], &s, err, errcap) != 0)
			goto out;
	qsort(s.path, s.n, sizeof *s.path, str_cmp);
	for (size_t i = 1; i < s.n; i++)
		if (strcmp(s.path[i - 1], s.path[i]) == 0) {
			snprintf(err, errcap, "site/%s: in two RECORDs",
			    s.path[i]);
			goto out;
		}
	if (all_listed(site, rel, 0, &s, 0, err, errcap) != 0)
		goto out;
	rc = write_launchers(tree, site, info[top - l->dist], top, err,
	    errcap);
	if (rc != 0 && !err[0])
		snprintf(err, errcap, "%s/entry: %s", tree, strerror(errno));
out:
	for (size_t i = 0; i < l->ndist; i++)
		free(info[i]);
	free(info);
	listed_free(&s);
	close(site);
	return rc;
}

int
pytree_argv(const char *tree, const struct py_spec *spec,
    char *const *argv, size_t argc, char **argv_out, size_t *argc_out,
    char *buf, size_t bufcap, char *err, size_t errcap)
{
	size_t k = 0;
	struct stat st;

	if ((size_t)snprintf(buf, bufcap, "%s/entry/%s", tree,
	    spec->command) >= bufcap) {
		snprintf(err, errcap, "the launcher's path is too long");
		return -1;
	}
	if (lstat(buf, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errcap, "%s==%s has no console script %s (its "
		    "entry_points.txt)", spec->name, spec->version,
		    spec->command);
		return -1;
	}
	argv_out[k++] = "python3";
	argv_out[k++] = "-I";
	argv_out[k++] = "-S";
	argv_out[k++] = buf;
	for (size_t i = spec->args; i < argc; i++)
		argv_out[k++] = argv[i];
	argv_out[k] = NULL;
	*argc_out = k;
	return 0;
}
