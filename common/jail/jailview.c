/* jailview.c - the host paths a jailed lease sees (see jailview.h). */
#include "common/jail/jailview.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/dirents.h"

/* The merged-/usr links at the top (/bin -> usr/bin): made again when
 * they are symlinks; nothing is bound for them. */
static const char *const top_links[] = {
	"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
};

/* What every launcher needs besides its own files (missing ones are
 * skipped): the shell (npm runs scripts with sh) and env (#!/usr/bin/env
 * node), the resolver's and the loader's configuration, CA certificates
 * (OpenSSL's own directory links into /etc/ssl), time zones, locales,
 * and the launchers' system-wide configuration the operator may have
 * written (npm's global npmrc with a CA file or a registry, pip's, uv's). */
static const char *const base_paths[] = {
	"/usr/etc/npmrc", "/usr/local/etc/npmrc", "/etc/npmrc",
	"/etc/pip.conf", "/etc/xdg/pip", "/etc/uv",
	"/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/resolv.conf",
	"/etc/hosts", "/etc/nsswitch.conf", "/etc/ld.so.cache",
	"/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
	"/etc/host.conf", "/etc/gai.conf", "/etc/mime.types",
	"/etc/protocols", "/etc/services",
	"/usr/share/ca-certificates", "/usr/lib/ssl", "/usr/share/zoneinfo",
	"/usr/lib/locale",
};

/* The shell and the POSIX file and text tools that npm's scripts and a
 * package's `sh -c` expect, looked up in /usr/bin then /bin; nothing
 * that reaches the network, compiles or installs. */
static const char *const base_tools[] = {
	"sh", "env", "basename", "cat", "chmod", "cp", "cut", "date",
	"dirname", "expr", "false", "find", "grep", "head", "id", "ln", "ls",
	"mkdir", "mktemp", "mv", "nproc", "printf", "readlink", "realpath",
	"rm", "rmdir", "sed", "sleep", "sort", "stat", "tail", "tee", "test",
	"touch", "tr", "true", "uname", "uniq", "wc", "which", "xargs",
};

/* Install prefixes many programs share: a launcher there brings its
 * binary and the lib/ and share/ entries named after it, never the
 * whole prefix. */
static const char *const shared_prefixes[] = { "", "/usr", "/usr/local" };

static char *
keep(struct jail_view *v, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p;

	if (n > sizeof v->buf - v->len)
		return NULL;
	p = memcpy(v->buf + v->len, s, n);
	v->len += n;
	return p;
}

/* Is path dir itself or below it? */
static int
inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/' || (n == 1 && *dir == '/'));
}

const char *
jail_view_covered(const struct jail_view *v, const char *path)
{
	for (size_t i = 0; i < v->nro; i++)
		if (inside(path, v->ro[i]))
			return v->ro[i];
	return NULL;
}

static int
add_link(struct jail_view *v, const char *at)
{
	for (size_t i = 0; i < v->nlinks; i++)
		if (strcmp(v->links[i], at) == 0)
			return 0;
	if (v->nlinks == JAIL_VIEW_LINKS_MAX ||
	    !(v->links[v->nlinks] = keep(v, at)))
		return -1;
	v->nlinks++;
	return 0;
}

/* A real path of file type mode; one inside an earlier entry adds
 * nothing (one that holds earlier entries is pruned at the end). */
static int
add_real(struct jail_view *v, const char *real, mode_t mode)
{
	if (jail_view_covered(v, real))
		return 0;
	if (v->nro == JAIL_VIEW_PATHS_MAX || !(v->ro[v->nro] = keep(v, real)))
		return -1;
	v->ro_dir[v->nro++] = S_ISDIR(mode);
	return 0;
}

/* real a directory met before (no symlink)? */
static int
known_dir(const struct jail_view *v, const char *real)
{
	for (size_t i = 0; i < v->ndirs; i++)
		if (strcmp(v->dirs[i], real) == 0)
			return 1;
	return 0;
}

/* Remember a directory, when there is room (only a saving). */
static void
note_dir(struct jail_view *v, const char *real)
{
	if (v->ndirs < JAIL_VIEW_DIRS_MAX && sizeof v->buf - v->len >
	    sizeof v->buf / 8 && (v->dirs[v->ndirs] = keep(v, real)))
		v->ndirs++;
}

/* Resolve path as the kernel would, recording each symlink met at its
 * real place (so the view can make it again); the real path goes to
 * real (PATH_MAX), its mode (file type and permissions; a directory met
 * before, S_IFDIR alone) to *mode. 0; 1 when something on the
 * way is missing or out of reach (nothing to see); -1 when the link
 * list is full. */
static int
resolve(struct jail_view *v, const char *path, char *real, mode_t *mode)
{
	char rest[PATH_MAX], tmp[PATH_MAX], target[PATH_MAX];
	const char *r = rest;
	size_t dlen = 0;
	int hops = 0;

	if (path[0] != '/' || strlen(path) >= sizeof rest)
		return 1;
	memcpy(rest, path, strlen(path) + 1);
	real[0] = '\0';
	*mode = S_IFDIR;
	for (;;) {
		struct stat st;
		size_t clen;
		ssize_t n;

		while (*r == '/')
			r++;
		if (!*r)
			break;
		clen = strcspn(r, "/");
		if (clen == 1 && r[0] == '.') {
			r += clen;
			continue;
		}
		if (clen == 2 && r[0] == '.' && r[1] == '.') {
			char *up = strrchr(real, '/');

			if (up)
				*up = '\0';
			dlen = strlen(real);
			r += clen;
			*mode = S_IFDIR;
			continue;
		}
		if (dlen + 1 + clen >= PATH_MAX)
			return 1;
		real[dlen] = '/';
		memcpy(real + dlen + 1, r, clen);
		real[dlen + 1 + clen] = '\0';
		r += clen;
		if (known_dir(v, real)) {
			dlen += 1 + clen;
			*mode = S_IFDIR;
			continue;
		}
		if (lstat(real, &st) != 0)
			return 1;
		if (!S_ISLNK(st.st_mode)) {
			if (S_ISDIR(st.st_mode))
				note_dir(v, real);
			dlen += 1 + clen;
			*mode = st.st_mode;
			continue;
		}
		if (++hops > 40 ||
		    (n = readlink(real, target, sizeof target - 1)) <= 0)
			return 1;
		target[n] = '\0';
		if (add_link(v, real) != 0)
			return -1;
		if ((size_t)snprintf(tmp, sizeof tmp, "%s/%s", target, r) >=
		    sizeof tmp)
			return 1;
		memcpy(rest, tmp, strlen(tmp) + 1);
		r = rest;
		if (target[0] == '/')
			dlen = 0;
		real[dlen] = '\0';
	}
	if (dlen == 0)
		memcpy(real, "/", 2);
	return 0;
}

enum { RUN_DIRECT, RUN_LOADER, RUN_SCRIPT };

/* What runs path (of file type mode): a 64-bit ELF file's loader
 * (PT_INTERP, into out), a script's #! interpreter (into out), or
 * nothing else (a static binary, data, a directory). Only a regular file
 * is opened: opening a device can act (a watchdog). The first KiB read
 * holds the program headers and the loader's name of the usual ELF
 * file; the rest is read only when not. */
static int
runner_of(const char *path, mode_t mode, char *out, size_t len)
{
	unsigned char h[1024];
	Elf64_Ehdr eh;
	ssize_t n;
	int fd, kind = RUN_DIRECT;

	/* openat: musl's open() adds an fcntl for O_CLOEXEC */
	if (!S_ISREG(mode) || (fd = openat(AT_FDCWD, path, O_RDONLY |
	    O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK)) < 0)
		return RUN_DIRECT;
	n = read(fd, h, sizeof h);
	if (n > 2 && h[0] == '#' && h[1] == '!') {
		size_t i = 2, k = 0;

		if (n > 256)
			n = 256;	/* the kernel reads no further */
		while (i < (size_t)n && (h[i] == ' ' || h[i] == '\t'))
			i++;
		while (i < (size_t)n && k + 1 < len && h[i] != ' ' &&
		    h[i] != '\t' && h[i] != '\n')
			out[k++] = (char)h[i++];
		out[k] = '\0';
		kind = k && i < (size_t)n ? RUN_SCRIPT : RUN_DIRECT;
	} else if (n >= (ssize_t)sizeof eh && memcmp(h, ELFMAG, SELFMAG) == 0 &&
	    h[EI_CLASS] == ELFCLASS64) {
		memcpy(&eh, h, sizeof eh);
		for (unsigned i = 0; i < eh.e_phnum && i < 64; i++) {
			uint64_t at = eh.e_phoff + (uint64_t)i * eh.e_phentsize;
			Elf64_Phdr ph;

			if (at <= (uint64_t)n && sizeof ph <= (uint64_t)n - at)
				memcpy(&ph, h + at, sizeof ph);
			else if (pread(fd, &ph, sizeof ph, (off_t)at) !=
			    sizeof ph)
				break;
			if (ph.p_type != PT_INTERP)
				continue;
			if (ph.p_filesz <= 1 || ph.p_filesz >= len)
				break;
			if (ph.p_offset <= (uint64_t)n &&
			    ph.p_filesz <= (uint64_t)n - ph.p_offset)
				memcpy(out, h + ph.p_offset, ph.p_filesz);
			else if (pread(fd, out, ph.p_filesz,
			    (off_t)ph.p_offset) != (ssize_t)ph.p_filesz)
				break;
			out[ph.p_filesz - 1] = '\0';
			kind = RUN_LOADER;
			break;
		}
	}
	close(fd);
	return kind;
}

/* path, the symlinks on its way, and what runs it: an ELF loader's
 * directory (the C library and the system's shared libraries), a
 * script's interpreter (in turn). The real path goes to real. 0; 1 when
 * missing; -1 when full. */
static int add_resolved(struct jail_view *v, const char *real, mode_t mode,
    int depth);

static int
add_program(struct jail_view *v, const char *path, char *real, int depth)
{
	mode_t mode;
	int rc = resolve(v, path, real, &mode);

	return rc != 0 ? rc : add_resolved(v, real, mode, depth);
}

/* add_program's second half, for a path resolved to real (of mode). */
static int
add_resolved(struct jail_view *v, const char *real, mode_t mode, int depth)
{
	char run[PATH_MAX], rreal[PATH_MAX], *slash;
	mode_t rmode;
	int rc, kind;

	if (add_real(v, real, mode) != 0)
		return -1;
	kind = depth < 3 ? runner_of(real, mode, run, sizeof run) :
	    RUN_DIRECT;
	if (kind == RUN_DIRECT || run[0] != '/')
		return 0;
	if (kind == RUN_SCRIPT)
		return add_program(v, run, rreal, depth + 1) < 0 ? -1 : 0;
	/* most programs share one loader: its links and directory are in
	 * the view already */
	if (v->loader && strcmp(v->loader, run) == 0)
		return 0;
	if ((rc = resolve(v, run, rreal, &rmode)) != 0)
		return rc < 0 ? -1 : 0;
	if ((slash = strrchr(rreal, '/')) && slash != rreal)
		*slash = '\0';
	if (add_real(v, rreal, S_IFDIR) != 0)
		return -1;
	v->loader = keep(v, run);	/* NULL when full: no saving */
	return 0;
}

/* path (configuration, certificates: nothing that runs), and the
 * symlinks on its way; its real path goes to real. 0; 1 when missing; -1
 * when full. */
static int
add_data(struct jail_view *v, const char *path, char *real)
{
	mode_t mode;
	int rc = resolve(v, path, real, &mode);

	if (rc != 0)
		return rc;
	return add_real(v, real, mode) != 0 ? -1 : 0;
}

/* Does name start as one of the launchers noted under shared prefix p
 * (its binary name up to its first dot)? */
static int
named_match(const struct jail_view *v, size_t p, const char *name)
{
	for (size_t k = 0; k < v->nnamed; k++)
		if (v->named_prefix[k] == p && strncmp(name, v->named[k],
		    strcspn(v->named[k], ".")) == 0)
			return 1;
	return 0;
}

/* The entries of dir (under shared prefix p) that named_match. 0, or -1
 * when full. */
static int
add_named_in(struct jail_view *v, size_t p, const char *dir)
{
	char path[PATH_MAX], real[PATH_MAX];
	struct dirents d;
	struct dirent *e;
	mode_t mode;
	int rc = 0;

	if (dirents_open(&d, AT_FDCWD, dir) != 0)
		return 0;
	while (rc >= 0 && (e = dirents_next(&d))) {
		if (!named_match(v, p, e->d_name) || (size_t)snprintf(path,
		    sizeof path, "%s/%s", dir, e->d_name) >= sizeof path)
			continue;
		/* 1 (gone meanwhile, out of reach) adds nothing */
		if ((rc = resolve(v, path, real, &mode)) == 0)
			rc = add_real(v, real, mode);
	}
	dirents_close(&d);
	return rc < 0 ? -1 : 0;
}

/* Under each shared prefix: prefix/lib/NAME* and prefix/share/NAME*,
 * NAME being a launcher's binary name up to its first dot (python3.11:
 * python3, python3.11; node: node_modules, nodejs), for every launcher
 * noted there (note_named): each directory is listed once, however many
 * launchers share it. */
static int
add_named(struct jail_view *v)
{
	static const char *const sub[] = { "lib", "share" };

	for (size_t p = 0; p < sizeof shared_prefixes / sizeof
	    *shared_prefixes; p++) {
		int any = 0;

		for (size_t k = 0; k < v->nnamed; k++)
			any |= v->named_prefix[k] == p;
		for (size_t i = 0; any && i < sizeof sub / sizeof *sub; i++) {
			char dir[PATH_MAX];

			if ((size_t)snprintf(dir, sizeof dir, "%s/%s",
			    shared_prefixes[p], sub[i]) < sizeof dir &&
			    add_named_in(v, p, dir) != 0)
				return -1;
		}
	}
	return 0;
}

/* Note base (a launcher's binary name) for add_named under shared
 * prefix p; a name of fewer than two characters before its first dot
 * would match too much, and is not noted. 0, or -1 when full. */
static int
note_named(struct jail_view *v, size_t p, const char *base)
{
	if (strcspn(base, ".") < 2)
		return 0;
	if (v->nnamed == JAIL_VIEW_LAUNCHERS_MAX ||
	    !(v->named[v->nnamed] = keep(v, base)))
		return -1;
	v->named_prefix[v->nnamed++] = (unsigned char)p;
	return 0;
}

/* Find name on path (or take it when absolute) into cand (PATH_MAX). */
static int
find_program(const char *path, const char *name, char *cand)
{
	if (name[0] == '/') {
		snprintf(cand, PATH_MAX, "%s", name);
		return access(cand, X_OK) == 0;
	}
	for (const char *p = path; !strchr(name, '/') && p && *p; ) {
		size_t len = strcspn(p, ":");

		if (len && *p == '/' && (size_t)snprintf(cand, PATH_MAX,
		    "%.*s/%s", (int)len, p, name) < PATH_MAX &&
		    access(cand, X_OK) == 0)
			return 1;
		p += len + (p[len] == ':');
	}
	return 0;
}

/* A base tool: the program only, the first of /usr/bin/NAME and
 * /bin/NAME that is an executable regular file (its mode from the
 * resolution's lstat: no access() per tool). A candidate that is not
 * leaves nothing: the symlinks met on its way are dropped again. */
static int
add_tool(struct jail_view *v, const char *name)
{
	static const char *const dirs[] = { "/usr/bin", "/bin" };

	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		char cand[PATH_MAX], real[PATH_MAX];
		size_t nlinks = v->nlinks, ndirs = v->ndirs, len = v->len;
		mode_t mode;
		int rc;

		snprintf(cand, sizeof cand, "%s/%s", dirs[i], name);
		if ((rc = resolve(v, cand, real, &mode)) < 0)
			return -1;
		if (rc == 0 && S_ISREG(mode) && (mode & 0111))
			return add_resolved(v, real, mode, 0) < 0 ? -1 : 0;
		v->nlinks = nlinks;
		v->ndirs = ndirs;
		v->len = len;
	}
	return 0;
}

/* name looked up on path (or an absolute path): the program, and its
 * install prefix (the directory above its bin/, or the one holding it)
 * when that is its own, else its named entries in the shared prefix
 * (noted here, added by add_named once every launcher is in). */
static int
add_launcher(struct jail_view *v, const char *path, const char *name)
{
	char cand[PATH_MAX], real[PATH_MAX], *slash;
	int rc;

	if (!find_program(path, name, cand))
		return 0;
	if ((rc = add_program(v, cand, real, 0)) != 0)
		return rc < 0 ? -1 : 0;
	if (!(slash = strrchr(real, '/')))
		return 0;
	*slash = '\0';
	snprintf(cand, sizeof cand, "%s", slash + 1);	/* the base name */
	slash = strrchr(real, '/');
	if (slash && strcmp(slash, "/bin") == 0)
		*slash = '\0';
	for (size_t i = 0; i < sizeof shared_prefixes / sizeof
	    *shared_prefixes; i++)
		if (strcmp(real, shared_prefixes[i]) == 0)
			return note_named(v, i, cand);
	return add_real(v, real[0] ? real : "/", S_IFDIR);
}

/* A directory holding only symlinks, at least one (the runner's
 * launcher directory), is made again link by link, each followed;
 * anything else, an empty directory too, is added whole. A bind of it would show its host path in mountinfo. */
static int
add_extra(struct jail_view *v, const char *path)
{
	char p[PATH_MAX], real[PATH_MAX];
	struct dirents d;
	struct dirent *e;
	struct stat st;
	int only_links = 1, links = 0;

	if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    dirents_open(&d, AT_FDCWD, path) != 0)
		return add_program(v, path, real, 0) < 0 ? -1 : 0;
	while (only_links && (e = dirents_next(&d))) {
		int dots = e->d_name[0] == '.' && (!e->d_name[1] ||
		    (e->d_name[1] == '.' && !e->d_name[2]));

		/* the directory entry's type, when the file system gives
		 * it, saves an lstat */
		only_links = dots || e->d_type == DT_LNK ||
		    (e->d_type == DT_UNKNOWN && (size_t)snprintf(p, sizeof p,
		    "%s/%s", path, e->d_name) < sizeof p && lstat(p, &st) == 0 &&
		    S_ISLNK(st.st_mode));
		links += !dots;
	}
	/* an empty directory is added whole: what is put in it later (a
	 * runner's installed trees) must be in the view too */
	if (!only_links || links == 0) {
		dirents_close(&d);
		return add_program(v, path, real, 0) < 0 ? -1 : 0;
	}
	if (dirents_rewind(&d) != 0) {
		dirents_close(&d);
		return -1;
	}
	while ((e = dirents_next(&d))) {
		if (e->d_name[0] == '.' || (size_t)snprintf(p, sizeof p,
		    "%s/%s", path, e->d_name) >= sizeof p)
			continue;
		if (add_program(v, p, real, 0) < 0) {
			dirents_close(&d);
			return -1;
		}
	}
	dirents_close(&d);
	return 0;
}

/* Drop entries inside another (added before it was), and links inside
 * an entry (the bound directory holds them). */
static void
prune(struct jail_view *v)
{
	size_t n = 0;

	for (size_t i = 0; i < v->nro; i++) {
		int in = 0;

		for (size_t k = 0; k < v->nro && !in; k++)
			in = k != i && strcmp(v->ro[k], v->ro[i]) != 0 &&
			    inside(v->ro[i], v->ro[k]);
		if (!in) {
			v->ro_dir[n] = v->ro_dir[i];
			v->ro[n++] = v->ro[i];
		}
	}
	v->nro = n;
	n = 0;
	for (size_t i = 0; i < v->nlinks; i++)
		if (!jail_view_covered(v, v->links[i]))
			v->links[n++] = v->links[i];
	v->nlinks = n;
}

int
jail_view_build(struct jail_view *v, const struct jail_view_spec *s,
    char *err, size_t errlen)
{
	char real[PATH_MAX];

	memset(v, 0, sizeof *v);
	for (size_t i = 0; i < sizeof top_links / sizeof *top_links; i++) {
		struct stat st;

		if (lstat(top_links[i], &st) == 0 && S_ISLNK(st.st_mode) &&
		    add_link(v, top_links[i]) != 0)
			goto full;
	}
	for (size_t i = 0; i < sizeof base_tools / sizeof *base_tools; i++)
		if (add_tool(v, base_tools[i]) != 0)
			goto full;
	for (size_t i = 0; i < sizeof base_paths / sizeof *base_paths; i++)
		if (add_data(v, base_paths[i], real) < 0)
			goto full;
	for (size_t i = 0; i < s->nextra; i++) {
		if (s->extra[i][0] != '/') {
			snprintf(err, errlen, "read-only path '%s' is not "
			    "absolute", s->extra[i]);
			return -1;
		}
		if (access(s->extra[i], F_OK) != 0) {
			snprintf(err, errlen, "read-only path %s: %s",
			    s->extra[i], strerror(errno));
			return -1;
		}
		if (add_extra(v, s->extra[i]) != 0)
			goto full;
	}
	for (size_t i = 0; i < s->nlaunchers; i++)
		if (add_launcher(v, s->path, s->launchers[i]) != 0)
			goto full;
	if (add_named(v) != 0)
		goto full;
	prune(v);
	return 0;
full:
	snprintf(err, errlen, "too many read-only paths or symlinks (at most "
	    "%d and %d)", JAIL_VIEW_PATHS_MAX, JAIL_VIEW_LINKS_MAX);
	return -1;
}
