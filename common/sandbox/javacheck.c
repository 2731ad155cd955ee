/* javacheck.c - the Java denylist: parse rules, check class files and
 * javac's output tree (see javacheck.h). */
#include "common/sandbox/javacheck.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sandbox/classfile.h"

const char javacheck_default_text[] =
#include "common/sandbox/java-deny.h"
    ;

/* --- rules ------------------------------------------------------------- */

static int
is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* A target's characters: internal names of the JDK's packages and
 * classes, '$' for nested classes, '.' between class and member. */
static int
target_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '/' ||
	    c == '.';
}

static int
parse_target(struct javacheck_rule *r, const char *s, size_t n)
{
	const char *dot = memchr(s, '.', n);

	if (n == 0 || n > JAVACHECK_TARGET_MAX || s[0] == '/')
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!target_char(s[i]) || (i > 0 && s[i] == '/' &&
		    s[i - 1] == '/'))
			return -1;
	memcpy(r->pattern, s, n);
	r->pattern[n] = '\0';
	if (dot) {
		size_t cl = (size_t)(dot - s);

		/* one dot, a class before it, a name after it */
		if (memchr(dot + 1, '.', n - cl - 1) || cl == 0 ||
		    cl + 1 == n || s[cl - 1] == '/' ||
		    memchr(dot + 1, '/', n - cl - 1))
			return -1;
		r->target = JAVACHECK_MEMBER;
		r->cls_len = (uint16_t)cl;
	} else if (s[n - 1] == '/') {
		r->target = JAVACHECK_PACKAGE;
	} else {
		r->target = JAVACHECK_CLASS;
	}
	return 0;
}

int
javacheck_policy_parse(struct javacheck_policy *pol, const char *text,
    size_t len, char *err, size_t errlen)
{
	size_t off = 0, line = 0, cap = 64;

	pol->n = 0;
	pol->rules = calloc(cap, sizeof *pol->rules);
	if (!pol->rules) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (off < len) {
		const char *s = text + off, *nl = memchr(s, '\n', len - off);
		size_t n = nl ? (size_t)(nl - s) : len - off, i = 0, w;
		struct javacheck_rule r;

		off += n + (nl != NULL);
		line++;
		memset(&r, 0, sizeof r);
		if (n > 0 && s[n - 1] == '\r')
			n--;
		for (size_t k = 0; k < n; k++)
			if ((unsigned char)s[k] < 0x20 && s[k] != '\t')
				goto bad;
		while (i < n && is_space(s[i]))
			i++;
		if (i == n || s[i] == '#')
			continue;
		/* scope */
		for (w = i; i < n && !is_space(s[i]); i++)
			;
		if (i - w == 3 && memcmp(s + w, "any", 3) == 0)
			r.scope = JAVACHECK_ANY;
		else if (i - w == 4 && memcmp(s + w, "call", 4) == 0)
			r.scope = JAVACHECK_CALL;
		else
			goto bad;
		while (i < n && is_space(s[i]))
			i++;
		/* target */
		for (w = i; i < n && !is_space(s[i]); i++)
			;
		if (parse_target(&r, s + w, i - w) != 0)
			goto bad;
		if (r.target == JAVACHECK_MEMBER && r.scope != JAVACHECK_CALL)
			goto bad;
		while (i < n && is_space(s[i]))
			i++;
		/* reason: the rest, printable ASCII */
		while (n > i && is_space(s[n - 1]))
			n--;
		if (n - i == 0 || n - i > JAVACHECK_REASON_MAX)
			goto bad;
		for (size_t k = i; k < n; k++)
			if ((unsigned char)s[k] > 0x7e)
				goto bad;
		memcpy(r.reason, s + i, n - i);
		if (pol->n == JAVACHECK_RULES_MAX) {
			snprintf(err, errlen, "line %zu: more than %d rules",
			    line, JAVACHECK_RULES_MAX);
			goto fail;
		}
		if (pol->n == cap) {
			struct javacheck_rule *nr = realloc(pol->rules,
			    2 * cap * sizeof *nr);

			if (!nr) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			pol->rules = nr;
			cap *= 2;
		}
		pol->rules[pol->n++] = r;
		continue;
bad:
		snprintf(err, errlen, "line %zu: not 'any|call TARGET REASON' "
		    "(TARGET: a/b/ or a/b/C or a/b/C.member, member rules "
		    "with call; reason 1-%d printable bytes)", line,
		    JAVACHECK_REASON_MAX);
		goto fail;
	}
	if (pol->n == 0) {
		snprintf(err, errlen, "the denylist has no rules");
		goto fail;
	}
	return 0;
fail:
	javacheck_policy_free(pol);
	return -1;
}

int
javacheck_policy_default(struct javacheck_policy *pol, char *err,
    size_t errlen)
{
	return javacheck_policy_parse(pol, javacheck_default_text,
	    sizeof javacheck_default_text - 1, err, errlen);
}

int
javacheck_policy_load(struct javacheck_policy *pol, const char *path,
    char *err, size_t errlen)
{
	return javacheck_policy_load_text(pol, path, NULL, NULL, err, errlen);
}

int
javacheck_policy_load_text(struct javacheck_policy *pol, const char *path,
    char **text, size_t *text_len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;
	size_t len = 0;
	ssize_t n;
	int rc;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = malloc(JAVACHECK_TEXT_MAX + 1);
	if (!buf) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (len <= JAVACHECK_TEXT_MAX &&
	    (n = read(fd, buf + len, JAVACHECK_TEXT_MAX + 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
			free(buf);
			return -1;
		}
		len += (size_t)n;
	}
	close(fd);
	if (len > JAVACHECK_TEXT_MAX) {
		snprintf(err, errlen, "%s: over %u bytes", path,
		    JAVACHECK_TEXT_MAX);
		free(buf);
		return -1;
	}
	rc = javacheck_policy_parse(pol, buf, len, err, errlen);
	if (rc != 0) {
		char tmp[256];

		snprintf(tmp, sizeof tmp, "%s", err);
		snprintf(err, errlen, "%s: %s", path, tmp);
	}
	/* the bytes just parsed, not a second read a writer could change */
	if (rc == 0 && text) {
		*text = buf;
		*text_len = len;
	} else
		free(buf);
	return rc;
}

void
javacheck_policy_free(struct javacheck_policy *pol)
{
	free(pol->rules);
	pol->rules = NULL;
	pol->n = 0;
}

/* --- matching ------------------------------------------------------------- */

/* Class name cls (bytes from the file) against a PACKAGE or CLASS rule. */
static int
class_matches(const struct javacheck_rule *r, struct classfile_str cls)
{
	size_t n = strlen(r->pattern);

	if (cls.len < n || memcmp(cls.p, r->pattern, n) != 0)
		return 0;
	if (r->target == JAVACHECK_PACKAGE)
		return 1;
	return cls.len == n || cls.p[n] == '$';
}

static const struct javacheck_rule *
match(const struct javacheck_policy *pol, const struct classfile_ref *ref)
{
	for (size_t i = 0; i < pol->n; i++) {
		const struct javacheck_rule *r = &pol->rules[i];

		switch (ref->kind) {
		case CLASSFILE_REF_CLASS:
		case CLASSFILE_REF_TYPE:
			if (r->scope == JAVACHECK_ANY &&
			    r->target != JAVACHECK_MEMBER &&
			    class_matches(r, ref->cls))
				return r;
			break;
		case CLASSFILE_REF_MEMBER:
			if (r->target != JAVACHECK_MEMBER) {
				if (class_matches(r, ref->cls))
					return r;
			} else if (ref->cls.len == r->cls_len &&
			    memcmp(ref->cls.p, r->pattern, r->cls_len) == 0 &&
			    ref->name.len == strlen(r->pattern + r->cls_len +
			    1) && memcmp(ref->name.p, r->pattern + r->cls_len +
			    1, ref->name.len) == 0) {
				return r;
			}
			break;
		default:
			break;
		}
	}
	return NULL;
}

/* Append s to out, anything not printable ASCII as '?' (the bytes come
 * from the file or its name); dots: '/' as '.', as Java prints names. */
static void
put_bytes(char *out, size_t cap, size_t *len, const uint8_t *s, size_t n,
    int dots)
{
	for (size_t i = 0; i < n && *len + 1 < cap; i++) {
		uint8_t c = s[i];

		out[(*len)++] = dots && c == '/' ? '.' : (c >= 0x20 &&
		    c < 0x7f) ? (char)c : '?';
	}
	out[*len] = '\0';
}

static void
put_name(char *out, size_t cap, size_t *len, const uint8_t *s, size_t n)
{
	put_bytes(out, cap, len, s, n, 1);
}

static void
put_text(char *out, size_t cap, size_t *len, const char *s)
{
	put_bytes(out, cap, len, (const uint8_t *)s, strlen(s), 0);
}

struct check_ctx {
	const struct javacheck_policy *pol;
	const char *file;
	char *why;
	size_t whylen;
};

static int
visit(void *arg, const struct classfile_ref *ref)
{
	struct check_ctx *c = arg;
	const struct javacheck_rule *r = NULL;
	size_t n = 0;

	if (ref->kind == CLASSFILE_REF_NATIVE) {
		put_text(c->why, c->whylen, &n, c->file);
		put_text(c->why, c->whylen, &n, " declares native method ");
		put_name(c->why, c->whylen, &n, ref->name.p, ref->name.len);
		put_text(c->why, c->whylen, &n, " (native code)");
		return 1;
	}
	if (!(r = match(c->pol, ref)))
		return 0;
	put_text(c->why, c->whylen, &n, c->file);
	put_text(c->why, c->whylen, &n, " references ");
	if (ref->kind == CLASSFILE_REF_MEMBER) {
		put_name(c->why, c->whylen, &n, ref->cls.p, ref->cls.len);
		put_text(c->why, c->whylen, &n, ".");
		put_name(c->why, c->whylen, &n, ref->name.p, ref->name.len);
	} else {
		put_text(c->why, c->whylen, &n, ref->kind ==
		    CLASSFILE_REF_CLASS ? "class " : "type ");
		put_name(c->why, c->whylen, &n, ref->cls.p, ref->cls.len);
	}
	put_text(c->why, c->whylen, &n, " (");
	put_text(c->why, c->whylen, &n, r->reason);
	put_text(c->why, c->whylen, &n, ")");
	return 1;
}

static enum javacheck_status
check_class(const struct javacheck_policy *pol, const char *name,
    const uint8_t *buf, size_t len, char *why, size_t whylen, size_t *refs)
{
	struct check_ctx c = { pol, name, why, whylen };
	struct classfile_info info;
	const char *bad = NULL;
	size_t where = 0;
	enum classfile_status st;

	why[0] = '\0';
	st = classfile_scan(buf, len, visit, &c, &info, &bad, &where);
	if (refs)
		*refs += info.refs;
	switch (st) {
	case CLASSFILE_OK:
		return JAVACHECK_OK;
	case CLASSFILE_STOPPED:
		return JAVACHECK_DENIED;
	case CLASSFILE_NOMEM:
		snprintf(why, whylen, "%s: out of memory", name);
		return JAVACHECK_ERROR;
	default:
		snprintf(why, whylen, "%s: malformed class file at byte %zu: "
		    "%s", name, where, bad);
		return JAVACHECK_BAD;
	}
}

enum javacheck_status
javacheck_class(const struct javacheck_policy *pol, const char *name,
    const uint8_t *buf, size_t len, char *why, size_t whylen)
{
	return check_class(pol, name, buf, len, why, whylen, NULL);
}

/* --- the tree ------------------------------------------------------------ */

struct walk {
	const struct javacheck_policy *pol;
	struct javacheck_stats st;
	char *why;
	size_t whylen;
	char path[4096];	/* relative path of the current entry */
	uint8_t *buf;		/* CLASSFILE_SIZE_MAX + 1 bytes */
	javacheck_take_fn take;	/* gets each class file that passed */
	void *take_ctx;
};

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static enum javacheck_status walk_dir(struct walk *w, int dfd, int depth);

static enum javacheck_status
check_file(struct walk *w, int dfd, const char *name, const char *label)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
	    O_NONBLOCK);
	struct stat st;
	size_t len = 0;
	ssize_t n;
	enum javacheck_status rc;

	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(w->why, w->whylen, "%s: not a regular file", label);
		if (fd >= 0)
			close(fd);
		return JAVACHECK_BAD;
	}
	/* read one byte more than the cap: a file growing under us shows */
	while (len <= CLASSFILE_SIZE_MAX && (n = read(fd, w->buf + len,
	    CLASSFILE_SIZE_MAX + 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(w->why, w->whylen, "%s: %s", label,
			    strerror(errno));
			close(fd);
			return JAVACHECK_ERROR;
		}
		len += (size_t)n;
	}
	close(fd);
	if (len > CLASSFILE_SIZE_MAX) {
		snprintf(w->why, w->whylen, "%s: class file over %u bytes",
		    label, CLASSFILE_SIZE_MAX);
		return JAVACHECK_BAD;
	}
	if (++w->st.files > JAVACHECK_FILES_MAX ||
	    (w->st.bytes += len) > JAVACHECK_BYTES_MAX) {
		snprintf(w->why, w->whylen, "more than %d class files or %u "
		    "bytes", JAVACHECK_FILES_MAX, JAVACHECK_BYTES_MAX);
		return JAVACHECK_BAD;
	}
	rc = check_class(w->pol, label, w->buf, len, w->why, w->whylen,
	    &w->st.refs);
	if (rc != JAVACHECK_OK)
		return rc;
	/* the bytes just checked, not the file again */
	if (w->take && w->take(w->take_ctx, w->path, w->buf, len) != 0) {
		snprintf(w->why, w->whylen, "%s: %s", label, strerror(errno));
		return JAVACHECK_ERROR;
	}
	return JAVACHECK_OK;
}

/* The names in dfd (without . and ..), sorted; NULL with errno. */
static char **
list_dir(int dfd, size_t *count)
{
	int fd = dup(dfd);
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	errno = 0;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n == JAVACHECK_FILES_MAX) {
			errno = E2BIG;
			goto fail;
		}
		if (n == cap) {
			char **nn = realloc(names, (cap ? 2 * cap : 16) *
			    sizeof *nn);

			if (!nn)
				goto fail;
			names = nn;
			cap = cap ? 2 * cap : 16;
		}
		if (!(names[n] = strdup(e->d_name)))
			goto fail;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_names);
	*count = n;
	return names ? names : calloc(1, sizeof *names);
fail:
	closedir(d);
	while (n > 0)
		free(names[--n]);
	free(names);
	return NULL;
}

static enum javacheck_status
walk_dir(struct walk *w, int dfd, int depth)
{
	enum javacheck_status rc = JAVACHECK_OK;
	size_t count = 0, base = strlen(w->path), i;
	char **names = list_dir(dfd, &count);

	if (!names) {
		snprintf(w->why, w->whylen, "%s: %s", base ? w->path : ".",
		    errno == E2BIG ? "too many entries" : strerror(errno));
		return errno == E2BIG ? JAVACHECK_BAD : JAVACHECK_ERROR;
	}
	for (i = 0; i < count && rc == JAVACHECK_OK; i++) {
		const char *name = names[i];
		size_t nlen = strlen(name);
		struct stat st;

		if (base + nlen + 2 > sizeof w->path) {
			snprintf(w->why, w->whylen, "path too long");
			rc = JAVACHECK_BAD;
			break;
		}
		snprintf(w->path + base, sizeof w->path - base, "%s%s",
		    base ? "/" : "", name);
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			snprintf(w->why, w->whylen, "%s: %s", w->path,
			    strerror(errno));
			rc = JAVACHECK_ERROR;
		} else if (S_ISDIR(st.st_mode)) {
			int sub;

			if (depth >= JAVACHECK_DEPTH_MAX) {
				snprintf(w->why, w->whylen, "%s: packages "
				    "nested too deep", w->path);
				rc = JAVACHECK_BAD;
			} else if ((sub = openat(dfd, name, O_RDONLY |
			    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
				snprintf(w->why, w->whylen, "%s: %s", w->path,
				    strerror(errno));
				rc = JAVACHECK_ERROR;
			} else {
				rc = walk_dir(w, sub, depth + 1);
				close(sub);
			}
		} else if (S_ISREG(st.st_mode) && nlen > 6 &&
		    strcmp(name + nlen - 6, ".class") == 0) {
			char label[256];
			size_t ln = 0;

			put_text(label, sizeof label, &ln, w->path);
			rc = check_file(w, dfd, name, label);
		} else {
			char label[256];
			size_t ln = 0;

			put_text(label, sizeof label, &ln, w->path);
			snprintf(w->why, w->whylen, "%s: %s", label,
			    S_ISLNK(st.st_mode) ? "a symlink in the compiler "
			    "output" : "not a class file (the compiler output "
			    "holds only class files)");
			rc = JAVACHECK_BAD;
		}
		w->path[base] = '\0';
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	return rc;
}

enum javacheck_status
javacheck_tree(const struct javacheck_policy *pol, int dirfd,
    struct javacheck_stats *stats, char *why, size_t whylen)
{
	return javacheck_tree_take(pol, dirfd, stats, why, whylen, NULL,
	    NULL);
}

enum javacheck_status
javacheck_tree_take(const struct javacheck_policy *pol, int dirfd,
    struct javacheck_stats *stats, char *why, size_t whylen,
    javacheck_take_fn take, void *ctx)
{
	struct walk w;
	enum javacheck_status rc;

	memset(&w, 0, sizeof w);
	w.pol = pol;
	w.take = take;
	w.take_ctx = ctx;
	w.why = why;
	w.whylen = whylen;
	why[0] = '\0';
	w.buf = malloc(CLASSFILE_SIZE_MAX + 1);
	if (!w.buf) {
		snprintf(why, whylen, "out of memory");
		return JAVACHECK_ERROR;
	}
	rc = walk_dir(&w, dirfd, 0);
	free(w.buf);
	if (rc == JAVACHECK_OK && w.st.files == 0) {
		snprintf(why, whylen, "the compiler produced no class file");
		rc = JAVACHECK_BAD;
	}
	if (stats)
		*stats = w.st;
	return rc;
}
