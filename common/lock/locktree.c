/* locktree.c - approved npm trees: install once, check, seal, re-check
 * (locktree.h). */
#include "common/lock/locktree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bearssl_hash.h>

#include "common/base/b64url.h"
#include "common/base/fileio.h"
#include "common/base/fsutil.h"
#include "common/base/secmem.h"
#include "common/lock/lockread.h"
#include "common/lock/pytree.h"
#include "common/policy/revocation.h"

#define DEPTH_MAX 64
#define PKGJSON_MAX (1u << 20)
#define PKGJSON_VALUES 4096		/* values of one package.json */
#define SEAL_MAGIC "airlock-tree 1\n"
#define ID_TEXT 22			/* a token id in base64url */
#define TOKENS_MAX (64u << 10)		/* bytes of a HEX.tokens file */
#define WAIT_SLICE_MS 1000		/* a locktree_wait's slice */
#define FLOCK_RETRY_MS 200		/* a held tree's flock tried again */

static const char *const names[] = {
	[LOCKTREE_OK] = "ok", [LOCKTREE_LOCK_MISSING] = "lock_missing",
	[LOCKTREE_LOCK_MISMATCH] = "lock_mismatch",
	[LOCKTREE_BAD_LOCK] = "bad_lock",
	[LOCKTREE_INSTALL_FAILED] = "install_failed",
	[LOCKTREE_TREE_CHANGED] = "tree_changed",
	[LOCKTREE_SYSTEM] = "system",
};

const char *
locktree_result_name(enum locktree_result r)
{
	return (unsigned)r < LOCKTREE_RESULT_MAX_ ? names[r] : "unknown";
}

/* ---- the walk ------------------------------------------------------------ */

enum place { IN_PKG, IN_NM, IN_SCOPE };	/* what a child directory is */

struct walk {
	br_sha256_context content, stat;
	int hash;			/* digests wanted */
	int seal;			/* install: check, chown, chmod */
	const struct npm_lock *lock;	/* seal: an npm tree's package
					 * paths (NULL: a Python tree) */
	char rel[PATH_MAX];
	char *err;
	size_t errcap;
};

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
is_lock_path(const struct npm_lock *l, const char *p)
{
	size_t n = strlen(p);

	for (size_t i = 0; i < l->npkg; i++)
		if (l->pkg[i].path_len == n && memcmp(l->pkg[i].path, p, n) ==
		    0)
			return 1;
	return 0;
}

static void
put(br_sha256_context *h, const void *p, size_t n)
{
	br_sha256_update(h, p, n);
}

static int
wfail(struct walk *w, const char *what)
{
	snprintf(w->err, w->errcap, "%s: %s", what, w->rel[0] ? w->rel : ".");
	return -1;
}

static int walk_dir(struct walk *w, int dfd, enum place place,
    unsigned depth);

/* One entry of directory dfd, w->rel naming it. */
static int
walk_entry(struct walk *w, int dfd, const char *name, enum place place,
    unsigned depth)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return wfail(w, "cannot stat");
	if (w->seal) {
		if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
			return wfail(w, "neither a directory nor a regular "
			    "file (a link?) in the installed tree");
		if (w->lock && S_ISDIR(st.st_mode) && place != IN_PKG &&
		    (place == IN_SCOPE || name[0] != '@') &&
		    !is_lock_path(w->lock, w->rel))
			return wfail(w, "a package directory the lock does not "
			    "name");
		if (S_ISREG(st.st_mode) && st.st_nlink != 1)
			return wfail(w, "a file with another name (hard link)");
		if (fchownat(dfd, name, 0, 0, AT_SYMLINK_NOFOLLOW) != 0 ||
		    fchmodat(dfd, name, S_ISDIR(st.st_mode) ? 0555 :
		    (st.st_mode & 0111) ? 0555 : 0444, 0) != 0 ||
		    fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			return wfail(w, "cannot seal");
	}
	if (w->hash) {
		uint64_t f[8] = { st.st_ino, st.st_mode, st.st_uid,
			(uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec,
			(uint64_t)st.st_mtim.tv_nsec,
			(uint64_t)st.st_ctim.tv_sec,
			(uint64_t)st.st_ctim.tv_nsec };
		uint64_t c[2] = { st.st_mode, (uint64_t)st.st_size };

		put(&w->stat, w->rel, strlen(w->rel) + 1);
		put(&w->stat, f, sizeof f);
		put(&w->content, w->rel, strlen(w->rel) + 1);
		put(&w->content, c, sizeof c);
		if (w->hash > 1 && S_ISREG(st.st_mode)) {
			uint8_t d[32];

			if (lock_file_digest(dfd, name, d) != 0)
				return wfail(w, "cannot read");
			put(&w->content, d, sizeof d);
		}
	}
	if (S_ISDIR(st.st_mode)) {
		int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC), rc;
		enum place next = strcmp(name, "node_modules") == 0 ? IN_NM :
		    place == IN_NM && name[0] == '@' ? IN_SCOPE : IN_PKG;

		if (sub < 0)
			return wfail(w, "cannot open");
		rc = walk_dir(w, sub, next, depth + 1);
		close(sub);
		return rc;
	}
	return 0;
}

/* Every entry of dfd (which walk_dir closes for readdir), sorted. */
static int
walk_dir(struct walk *w, int dfd, enum place place, unsigned depth)
{
	size_t n = 0, cap = 0, base = strlen(w->rel);
	char **v = NULL;
	struct dirent *e;
	int rc = 0, dup;
	DIR *d;

	if (depth > DEPTH_MAX)
		return wfail(w, "nested too deep");
	if ((dup = fcntl(dfd, F_DUPFD_CLOEXEC, 0)) < 0 ||
	    !(d = fdopendir(dup))) {
		if (dup >= 0)
			close(dup);
		return wfail(w, "cannot read");
	}
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n == cap) {
			char **nv = realloc(v, (cap = cap ? 2 * cap : 32) *
			    sizeof *v);

			if (!nv) {
				rc = wfail(w, "out of memory");
				break;
			}
			v = nv;
		}
		if (!(v[n] = strdup(e->d_name))) {
			rc = wfail(w, "out of memory");
			break;
		}
		n++;
	}
	closedir(d);
	if (rc == 0)
		qsort(v, n, sizeof *v, name_cmp);
	for (size_t i = 0; i < n && rc == 0; i++) {
		if ((size_t)snprintf(w->rel + base, sizeof w->rel - base,
		    "%s%s", base ? "/" : "", v[i]) >= sizeof w->rel - base) {
			rc = wfail(w, "a path too long");
			break;
		}
		rc = walk_entry(w, dfd, v[i], place, depth);
		w->rel[base] = '\0';
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return rc;
}

static int
walk_tree(const char *dir, struct walk *w, uint8_t content[32],
    uint8_t st[32])
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC),
	    rc;

	w->rel[0] = '\0';
	br_sha256_init(&w->content);
	br_sha256_init(&w->stat);
	if (dfd < 0)
		return wfail(w, "cannot open the tree");
	rc = walk_dir(w, dfd, IN_PKG, 0);
	close(dfd);
	if (content)
		br_sha256_out(&w->content, content);
	if (st)
		br_sha256_out(&w->stat, st);
	return rc;
}

int
locktree_digest(const char *dir, uint8_t content[32], uint8_t st[32])
{
	struct walk w = { .hash = 2 };
	char err[PATH_MAX + 64];

	w.err = err;
	w.errcap = sizeof err;
	return walk_tree(dir, &w, content, st);
}

/* ---- install ------------------------------------------------------------ */

#define SCRIPTS_TAIL "-scripts"
#define NAME_MAX_LEN (LOCK_HEX_LEN + sizeof SCRIPTS_TAIL)

/* A tree's name: the lock's digest, and "-scripts" when its install ran
 * the packages' install scripts (another tree than the same lock's
 * without them: a token that does not allow scripts never runs one's
 * output). */
static void
tree_name(const uint8_t digest[LOCK_DIGEST_LEN], int scripts,
    char name[NAME_MAX_LEN])
{
	lock_hex_encode(digest, name);
	if (scripts)
		memcpy(name + LOCK_HEX_LEN, SCRIPTS_TAIL, sizeof SCRIPTS_TAIL);
}

/* 1 when name is a tree's name (tree_name's form). */
static int
tree_name_valid(const char *name, size_t n)
{
	uint8_t d[LOCK_DIGEST_LEN];
	char hex[LOCK_HEX_LEN + 1];

	if (n != LOCK_HEX_LEN && (n != NAME_MAX_LEN - 1 || memcmp(name +
	    LOCK_HEX_LEN, SCRIPTS_TAIL, sizeof SCRIPTS_TAIL - 1) != 0))
		return 0;
	memcpy(hex, name, LOCK_HEX_LEN);
	hex[LOCK_HEX_LEN] = '\0';
	return lock_hex_decode(hex, d) == 0;
}

static int
path_of(char *out, size_t cap, const char *trees, const char *hex,
    const char *tail)
{
	return (size_t)snprintf(out, cap, "%s/%s%s", trees, hex, tail) >= cap ?
	    -1 : 0;
}

/* Every package of the lock whose directory exists holds a package.json
 * naming it at its version; only an optional one may be missing. */
static int
check_packages(const char *tree, const struct npm_lock *l, char *err,
    size_t errcap)
{
	for (size_t i = 0; i < l->npkg; i++) {
		const struct npm_pkg *p = &l->pkg[i];
		char path[PATH_MAX];
		struct json_node nodes[PKGJSON_VALUES];
		uint32_t scratch[PKGJSON_VALUES];
		struct lj_doc d;
		uint8_t *text;
		size_t len, at;
		const char *why;
		struct stat st;
		int ok;

		if ((size_t)snprintf(path, sizeof path, "%s/%.*s/package.json",
		    tree, (int)p->path_len, p->path) >= sizeof path)
			return -1;
		if (lstat(path, &st) != 0 && errno == ENOENT && p->optional)
			continue;
		if (file_read(path, PKGJSON_MAX, &text, &len) != 0) {
			snprintf(err, errcap, "%.*s: no package.json as npm "
			    "installs it", (int)p->path_len, p->path);
			return -1;
		}
		ok = lj_parse(&d, text, len, nodes, scratch, PKGJSON_VALUES,
		    &why, &at) == 0 && lj_is(&d, lj_get(&d, 0, "name", 4),
		    p->name, p->name_len) && lj_is(&d, lj_get(&d, 0,
		    "version", 7), p->version, p->version_len);
		free(text);
		if (!ok) {
			snprintf(err, errcap, "%.*s: its package.json is not "
			    "%.*s@%.*s of the lock", (int)p->path_len, p->path,
			    (int)p->name_len, p->name, (int)p->version_len,
			    p->version);
			return -1;
		}
	}
	return 0;
}

/* Remove every node_modules/.bin (and @scope/.bin is not a thing npm
 * makes): links airlock does not use. */
static void
drop_bins(const char *dir, unsigned depth)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (depth > DEPTH_MAX || !(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		if (e->d_type != DT_DIR || strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(path, sizeof path, "%s/%s", dir,
		    e->d_name) >= sizeof path)
			continue;
		if (strcmp(e->d_name, ".bin") == 0)
			(void)fs_remove_tree(path);
		else
			drop_bins(path, depth + 1);
	}
	closedir(d);
}

/* 1 when fd has something to read (or its end), now. */
static int
fd_readable(int fd)
{
	struct pollfd pf = { fd, POLLIN, 0 };

	return poll(&pf, 1, 0) > 0;
}

/* lock_jail_run_keep in a child of its own: the installer's jail
 * (jail_init and its uid table, cgroups and probes) never touches the
 * lease process that goes on to start the server. 0, or -1 with err. */
static int
install_apart(const struct lock_jail_opts *o, const struct lock_jail_view *v,
    char *const *argv, const struct jail_file *f, size_t nf,
    const char *keep, const char *dest, const struct locktree_wait *wait,
    char *err, size_t errcap)
{
	int p[2], status;
	ssize_t n, got = 0;
	pid_t pid, parent = getpid();

	if (pipe2(p, O_CLOEXEC) != 0)
		return snprintf(err, errcap, "pipe: %s", strerror(errno)), -1;
	if ((pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		return snprintf(err, errcap, "fork: %s", strerror(errno)), -1;
	}
	if (pid == 0) {
		int rc;

		/* the lease or prefetch worker that waits for it gone (a
		 * drain, a kill): the install goes too */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 ||
		    getppid() != parent)
			_exit(1);
		close(p[0]);
		rc = lock_jail_run_keep(o, v, argv, f, nf, keep, dest, err,
		    errcap);
		if (rc != 0)
			(void)file_write_all(p[1], err, strlen(err));
		_exit(rc != 0);
	}
	close(p[1]);
	err[0] = '\0';
	/* the pipe is readable at the installer's end (its message, or EOF) */
	while (wait && !fd_readable(p[0]))
		wait->fn(wait->ctx, p[0], WAIT_SLICE_MS);
	while (got + 1 < (ssize_t)errcap && (n = read(p[0], err + got,
	    errcap - (size_t)got - 1)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		got += n;
	}
	err[got] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (!err[0])
		snprintf(err, errcap, "the installer ended without a word");
	return -1;
}

/* npm ci of lock l into tree/node_modules, .bin directories removed. */
static int
run_npm(const struct locktree_cfg *c, const char *tree,
    const struct lockread *l, int scripts, const struct locktree_wait *wait,
    char *err, size_t errcap)
{
	char *const ci[] = { "npm", "ci", scripts ? "--foreground-scripts" :
		"--ignore-scripts", "--no-audit", "--no-fund",
		"--registry=" NPM_REGISTRY, NULL };
	char manifest[NPM_NAME_MAX + NPM_VERSION_MAX + 128], nm[PATH_MAX];
	long m = npm_manifest(&l->npm_spec, manifest, sizeof manifest);
	struct jail_file f[2];

	if (m < 0 || (size_t)snprintf(nm, sizeof nm, "%s/node_modules",
	    tree) >= sizeof nm) {
		snprintf(err, errcap, "%s: path too long", tree);
		return -1;
	}
	f[0] = (struct jail_file){ "package.json", manifest, (size_t)m, 0644 };
	f[1] = (struct jail_file){ "package-lock.json", l->text, l->len,
		0644 };
	if (install_apart(&c->install, NULL, ci, f, 2, "node_modules", nm,
	    wait, err, errcap) != 0)
		return -1;
	drop_bins(tree, 0);
	return 0;
}

#define LOCAL_PY_MAX 4

/* What pip reads besides python3's own files (pip fails on a file the
 * jail refuses where it copes with one missing): the system's name, for
 * its user agent, and /usr/local/lib/python3.X, the local site directory
 * Debian's python3 puts on sys.path, which pip scans for setuptools.
 * The local ones into out, pointed to by ro: their count. */
static size_t
local_python(char out[LOCAL_PY_MAX][PATH_MAX], const char **ro)
{
	DIR *d = opendir("/usr/local/lib");
	struct dirent *e;
	size_t n = 0;

	while (d && n < LOCAL_PY_MAX && (e = readdir(d)))
		if (strncmp(e->d_name, "python3", 7) == 0) {
			snprintf(out[n], PATH_MAX, "/usr/local/lib/%s",
			    e->d_name);
			ro[n] = out[n];
			n++;
		}
	if (d)
		closedir(d);
	return n;
}

/* pip install of lock l (rendered again: pip reads no byte we did not)
 * into tree/site, from the index c->py_index; pip's scripts removed. */
static int
run_pip(const struct locktree_cfg *c, const char *tree,
    const struct lockread *l, const struct locktree_wait *wait, char *err,
    size_t errcap)
{
	static const char *const launchers[] = { "python3" };
	static char local[LOCAL_PY_MAX][PATH_MAX];
	const char *ro[3 + LOCAL_PY_MAX] = { "/etc/os-release",
		"/usr/lib/os-release", "/etc/debian_version" };
	struct lock_jail_view view = { launchers, 1, ro, 3 };
	size_t cap = PYLOCK_HASHES_MAX * 80 + PYLOCK_DISTS_MAX * 200;
	char *pip[PYTREE_PIP_ARGC], idx[PATH_MAX], site[PATH_MAX];
	char *text = malloc(cap);
	struct jail_file f;
	long n;
	int rc;

	view.nro += local_python(local, ro + 3);
	if (!text || (n = py_lock_render(&l->py, text, cap)) < 0 ||
	    (size_t)snprintf(site, sizeof site, "%s/" PYTREE_KEEP, tree) >=
	    sizeof site) {
		free(text);
		snprintf(err, errcap, "the lock cannot be rendered");
		return -1;
	}
	pytree_pip_argv(c->py_index ? c->py_index : PYTREE_INDEX, pip, idx,
	    sizeof idx);
	f = (struct jail_file){ PYTREE_LOCK_FILE, text, (size_t)n, 0644 };
	rc = install_apart(&c->install, &view, pip, &f, 1, PYTREE_KEEP, site,
	    wait, err, errcap);
	free(text);
	if (rc == 0)
		pytree_prune(tree);
	return rc;
}

/* The tree for lock l installed (npm ci or pip, jailed), checked against
 * the lock, made root's and read-only, and sealed. */
static enum locktree_result
install(const struct locktree_cfg *c, const char *hex,
    const struct lockread *l, int scripts, const struct locktree_wait *wait,
    char *err, size_t errcap)
{
	char tree[PATH_MAX], seal[PATH_MAX], sealtext[LOCKTREE_SEAL_LEN + 1];
	struct walk w = { .seal = 1 };
	uint8_t cd[32], sd[32];
	int npm = l->kind == LOCK_KIND_NPM;

	if (path_of(tree, sizeof tree, c->trees, hex, "") ||
	    path_of(seal, sizeof seal, c->trees, hex, ".seal"))
		return LOCKTREE_SYSTEM;
	(void)fs_remove_tree(tree);	/* a crashed install's */
	if (mkdir(tree, 0755) != 0) {
		snprintf(err, errcap, "%s: %s", tree, strerror(errno));
		return LOCKTREE_SYSTEM;
	}
	if ((npm ? run_npm(c, tree, l, scripts, wait, err, errcap) :
	    run_pip(c, tree, l, wait, err, errcap)) != 0) {
		(void)fs_remove_tree(tree);
		return LOCKTREE_INSTALL_FAILED;
	}
	w.lock = npm ? &l->npm : NULL;
	w.err = err;
	w.errcap = errcap;
	/* the walk first: it refuses links, so each package.json or RECORD
	 * read after it is the tree's own file */
	if (walk_tree(tree, &w, NULL, NULL) != 0 ||
	    (npm ? check_packages(tree, &l->npm, err, errcap) :
	    pytree_check(tree, &l->py, l->py_top, err, errcap)) != 0 ||
	    chmod(tree, 0555) != 0 ||
	    locktree_digest(tree, cd, sd) != 0) {
		(void)fs_remove_tree(tree);
		return LOCKTREE_INSTALL_FAILED;
	}
	if (file_replace(seal, sealtext, locktree_seal_text(cd, sd, sealtext),
	    0644) != 0) {
		snprintf(err, errcap, "cannot write %s: %s", seal,
		    strerror(errno));
		return LOCKTREE_SYSTEM;
	}
	return LOCKTREE_OK;
}

_Static_assert(sizeof SEAL_MAGIC - 1 + 8 + 64 + 1 + 5 + 64 + 1 ==
    LOCKTREE_SEAL_LEN, "the seal's length");

size_t
locktree_seal_text(const uint8_t cd[32], const uint8_t sd[32],
    char out[LOCKTREE_SEAL_LEN + 1])
{
	char ch[65], sh[65];

	lock_hex_encode(cd, ch);
	lock_hex_encode(sd, sh);
	return (size_t)snprintf(out, LOCKTREE_SEAL_LEN + 1, SEAL_MAGIC
	    "content %s\nstat %s\n", ch, sh);
}

int
locktree_seal_parse(const char *text, size_t n, uint8_t cd[32],
    uint8_t sd[32])
{
	char hex[65];
	size_t m = sizeof SEAL_MAGIC - 1;

	if (n != LOCKTREE_SEAL_LEN || memcmp(text, SEAL_MAGIC, m) != 0 ||
	    memcmp(text + m, "content ", 8) != 0 ||
	    memcmp(text + m + 72, "\nstat ", 6) != 0 || text[n - 1] != '\n')
		return -1;
	memcpy(hex, text + m + 8, 64);
	hex[64] = '\0';
	if (lock_hex_decode(hex, cd) != 0)
		return -1;
	memcpy(hex, text + m + 78, 64);
	return lock_hex_decode(hex, sd);
}

/* The seal's digests: 0, or -1 when it is missing or malformed. */
static int
read_seal(const char *path, uint8_t cd[32], uint8_t sd[32])
{
	char buf[256];
	ssize_t n = file_read_small(path, buf, sizeof buf);

	return n < 0 ? -1 : locktree_seal_parse(buf, (size_t)n, cd, sd);
}

/* flock(fd, LOCK_EX), in slices of wait's while another holds it. */
static int
flock_waiting(int fd, const struct locktree_wait *wait)
{
	if (!wait)
		return flock(fd, LOCK_EX);
	while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		wait->fn(wait->ctx, -1, FLOCK_RETRY_MS);
	}
	return 0;
}

/* The flock of the tree called name (TREES/NAME.lk; created when create;
 * with wait 0, EWOULDBLOCK when another holds it; else waited for, in
 * w's slices when w is not NULL): an fd, or -1. The file
 * goes with its tree (tree_remove, under the lock), so the lock won must
 * still be the file of that name: else it was removed between our open
 * and our flock, and we try again. */
static int
tree_flock(const struct locktree_cfg *c, const char *name, int create,
    int wait, const struct locktree_wait *w)
{
	char path[PATH_MAX];

	if (path_of(path, sizeof path, c->trees, name, ".lk"))
		return -1;
	for (unsigned tries = 0; tries < 64; tries++) {
		struct stat held, named;
		int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC |
		    (create ? O_CREAT : 0), 0600);

		if (fd < 0)
			return -1;
		if ((wait ? flock_waiting(fd, w) : flock(fd, LOCK_EX |
		    LOCK_NB)) != 0 ||
		    fstat(fd, &held) != 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		if (lstat(path, &named) == 0 && named.st_dev == held.st_dev &&
		    named.st_ino == held.st_ino)
			return fd;
		close(fd);
	}
	errno = EAGAIN;
	return -1;
}

/* Remove the tree called name, its seal (first: a crash midway leaves a
 * tree nothing trusts), its token list and, last, its lock file, whose
 * flock lk the caller holds and which is closed here. 0, or -1. */
static int
tree_remove(const struct locktree_cfg *c, const char *name, int lk)
{
	static const char *const tails[] = { ".seal", "", ".tokens", ".lk" };
	char path[PATH_MAX];
	int rc = 0;

	/* in this order, stopping at a failure: what is left keeps its
	 * lock file, so a later sweep finds it */
	for (size_t i = 0; i < sizeof tails / sizeof *tails && rc == 0; i++) {
		if (path_of(path, sizeof path, c->trees, name, tails[i]))
			rc = -1;
		else if (!*tails[i])
			rc = fs_remove_tree(path);
		else if (unlink(path) != 0 && errno != ENOENT)
			rc = -1;
	}
	close(lk);
	return rc;
}

/* Add token id to TREES/HEX.tokens unless it is there (the caller holds
 * the tree's flock). */
static void
note_token(const char *trees, const char *hex, const uint8_t id[16])
{
	char path[PATH_MAX], line[ID_TEXT + 2];
	uint8_t *text = NULL;
	size_t len = 0;
	int fd;

	if (path_of(path, sizeof path, trees, hex, ".tokens") ||
	    b64url_encode(id, 16, line, sizeof line) != ID_TEXT)
		return;
	line[ID_TEXT] = '\n';
	if (file_read(path, TOKENS_MAX, &text, &len) == 0 &&
	    memmem(text, len, line, ID_TEXT + 1)) {
		free(text);
		return;
	}
	free(text);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
	    O_CLOEXEC, 0644);
	if (fd >= 0) {
		(void)file_write_all(fd, line, ID_TEXT + 1);
		close(fd);
	}
}

/* The command that starts lock l's tree: node and the bin, or python3
 * and the launcher. */
static int
command_of(const char *tree, const struct lockread *l, char *const *argv,
    size_t argc, char **argv_out, size_t *argc_out, char *buf,
    size_t bufcap, char *err, size_t errcap)
{
	size_t k = 0;
	int n;

	if (l->kind == LOCK_KIND_PY)
		return pytree_argv(tree, &l->py_spec, argv, argc, argv_out,
		    argc_out, buf, bufcap, err, errcap);
	n = snprintf(buf, bufcap, "%s/node_modules/%s/%.*s", tree,
	    l->npm_spec.name, (int)l->npm.bin_len, l->npm.bin);
	if (n < 0 || (size_t)n >= bufcap) {
		snprintf(err, errcap, "the bin's path is too long");
		return -1;
	}
	argv_out[k++] = "node";
	argv_out[k++] = buf;
	for (size_t i = l->npm_spec.args; i < argc; i++)
		argv_out[k++] = argv[i];
	argv_out[k] = NULL;
	*argc_out = k;
	return 0;
}

enum locktree_result
locktree_ready(const struct locktree_cfg *c,
    const uint8_t digest[LOCK_DIGEST_LEN], const uint8_t token_id[16],
    int scripts, const struct locktree_wait *wait,
    char *const *argv, size_t argc, int full, int *installed,
    char **argv_out, size_t *argc_out, char *buf, size_t bufcap, char *err,
    size_t errcap)
{
	char hex[NAME_MAX_LEN], tree[PATH_MAX], seal[PATH_MAX];
	uint8_t cd[32], sd[32], want_c[32], want_s[32];
	enum locktree_result r = LOCKTREE_SYSTEM;
	struct lockread l;
	int lk = -1;

	err[0] = '\0';
	if (installed)
		*installed = 0;
	tree_name(digest, scripts, hex);
	switch (lockread_load(c->lock_store, digest, (const char *const *)argv,
	    argc, &l, err, errcap)) {
	case LOCKREAD_OK:
		break;
	case LOCKREAD_MISSING:
		return LOCKTREE_LOCK_MISSING;
	case LOCKREAD_MISMATCH:
		return LOCKTREE_LOCK_MISMATCH;
	default:
		return LOCKTREE_BAD_LOCK;
	}
	if (l.kind == LOCK_KIND_PY && scripts) {
		snprintf(err, errcap, "the approval lets install scripts run "
		    "and a uvx lock installs wheels only");
		r = LOCKTREE_BAD_LOCK;
		goto out;
	}
	if (path_of(tree, sizeof tree, c->trees, hex, "") ||
	    path_of(seal, sizeof seal, c->trees, hex, ".seal")) {
		snprintf(err, errcap, "%s: path too long", c->trees);
		goto out;
	}
	if ((mkdir(c->trees, 0755) != 0 && errno != EEXIST) ||
	    (lk = tree_flock(c, hex, 1, 1, wait)) < 0) {
		snprintf(err, errcap, "%s/%s.lk: %s", c->trees, hex,
		    strerror(errno));
		goto out;
	}
	if (read_seal(seal, want_c, want_s) != 0) {
		if ((r = install(c, hex, &l, scripts, wait, err, errcap)) !=
		    LOCKTREE_OK) {
			/* nothing of it kept, its lock file neither */
			(void)tree_remove(c, hex, lk);
			lk = -1;
			goto out;
		}
		if (installed)
			*installed = 1;
		if (read_seal(seal, want_c, want_s) != 0) {
			snprintf(err, errcap, "%s: unreadable", seal);
			r = LOCKTREE_SYSTEM;
			goto out;
		}
	}
	{
		struct walk w = { .hash = full ? 2 : 1 };

		w.err = err;
		w.errcap = errcap;
		if (walk_tree(tree, &w, cd, sd) != 0 ||
		    !ct_equal(sd, want_s, 32) || (full &&
		    !ct_equal(cd, want_c, 32))) {
			if (!err[0] || walk_tree(tree, &w, NULL, NULL) == 0)
				snprintf(err, errcap, "%s: the installed "
				    "tree is not as it was sealed (removed: "
				    "the next lease installs it again)", tree);
			/* never used again */
			(void)tree_remove(c, hex, lk);
			lk = -1;
			r = LOCKTREE_TREE_CHANGED;
			goto out;
		}
	}
	if (token_id)
		note_token(c->trees, hex, token_id);
	r = command_of(tree, &l, argv, argc, argv_out, argc_out, buf, bufcap,
	    err, errcap) == 0 ? LOCKTREE_OK : LOCKTREE_BAD_LOCK;
out:
	if (lk >= 0)
		close(lk);
	lockread_free(&l);
	return r;
}

int
locktree_tokens_revoked(const uint8_t *p, size_t n,
    const struct revocation_set *rev)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i += ID_TEXT + 1, count++) {
		uint8_t id[16];

		if (n - i < ID_TEXT + 1 || p[i + ID_TEXT] != '\n' ||
		    b64url_decode((const char *)p + i, ID_TEXT, id,
		    sizeof id) != 16 || !revocation_contains(rev, id))
			return 0;
	}
	return count > 0;
}

size_t
locktree_sweep(const struct locktree_cfg *c,
    const struct revocation_set *revoked, size_t *busy)
{
	size_t removed = 0;
	struct dirent *e;
	DIR *d;

	*busy = 0;
	if (!revoked->usable || !(d = opendir(c->trees)))
		return 0;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char name[NAME_MAX_LEN], path[PATH_MAX];
		uint8_t *text = NULL, cd[32], sd[32];
		size_t len = 0;
		int lk;

		if (n <= 3 || strcmp(e->d_name + n - 3, ".lk") != 0 ||
		    !tree_name_valid(e->d_name, n - 3))
			continue;
		memcpy(name, e->d_name, n - 3);
		name[n - 3] = '\0';
		/* never wait: an install may hold it for minutes, and the
		 * caller is a service's event loop; it asks again */
		if ((lk = tree_flock(c, name, 0, 0, NULL)) < 0) {
			*busy += errno == EWOULDBLOCK;
			continue;
		}
		if (path_of(path, sizeof path, c->trees, name, ".seal") ||
		    read_seal(path, cd, sd) != 0) {
			/* no seal, no install under way: what a crashed
			 * install or a removal left, never trusted */
			(void)tree_remove(c, name, lk);
			continue;
		}
		if (!path_of(path, sizeof path, c->trees, name, ".tokens") &&
		    file_read(path, TOKENS_MAX, &text, &len) == 0 &&
		    locktree_tokens_revoked(text, len, revoked)) {
			removed += tree_remove(c, name, lk) == 0;
			lk = -1;
		}
		free(text);
		if (lk >= 0)
			close(lk);
	}
	closedir(d);
	return removed;
}
