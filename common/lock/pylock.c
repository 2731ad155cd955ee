/* pylock.c - a hash-pinned requirements file, read strictly (pylock.h). */
#include "common/lock/pylock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/base64.h"
#include "common/policy/guard_pep508.h"

#define HASH_WORD "--hash=sha256:"
#define HASH_WORD_LEN (sizeof HASH_WORD - 1)

/* The reader's place: the text, where it is, the line it is on. */
struct cur {
	const uint8_t *p;
	size_t len, off, line;
	char *err;
	size_t errcap;
};

static int
fail(struct cur *c, const char *why)
{
	snprintf(c->err, c->errcap, "line %zu: %s", c->line, why);
	return -1;
}

static int
blank(uint8_t b)
{
	return b == ' ' || b == '\t';
}

/* A name or version's bytes: printable ASCII but space, '#', '\'. */
static int
word_byte(uint8_t b)
{
	return b > ' ' && b < 0x7f && b != '#' && b != '\\';
}

static size_t
skip_blanks(struct cur *c)
{
	size_t n = 0;

	while (c->off < c->len && blank(c->p[c->off])) {
		c->off++;
		n++;
	}
	return n;
}

/* A separator before a hash (or the line's end): blanks, and once a
 * continuation (`\` LF) followed by blanks. 1 when there was one, 0
 * when none (at the line's end, or junk next), -1 on a bad one. */
static int
separator(struct cur *c)
{
	size_t n = skip_blanks(c);

	if (c->off < c->len && c->p[c->off] == '\\') {
		if (!n)
			return fail(c, "a continuation `\\` must follow a "
			    "blank");
		if (c->len - c->off < 2 || c->p[c->off + 1] != '\n')
			return fail(c, "`\\` is only a line's last byte");
		c->off += 2;
		c->line++;
		if (!skip_blanks(c))
			return fail(c, "a continued line must start with a "
			    "blank");
		return 1;
	}
	return n > 0;
}

static int
control(uint8_t b)
{
	return (b < ' ' && b != '\t') || b == 0x7f;
}

static int
hex_val(uint8_t b)
{
	return b >= '0' && b <= '9' ? b - '0' : b >= 'a' && b <= 'f' ?
	    b - 'a' + 10 : -1;
}

/* One word (word_byte) at the cursor into out (cap with the NUL): its
 * length, or 0 when there is none or it does not fit. */
static size_t
take_word(struct cur *c, size_t stop, char *out, size_t cap)
{
	size_t n = 0;

	while (c->off + n < stop && word_byte(c->p[c->off + n]))
		n++;
	if (!n || n >= cap)
		return 0;
	memcpy(out, c->p + c->off, n);
	out[n] = '\0';
	c->off += n;
	return n;
}

long
py_name_normalise(const char *p, size_t n, char *out, size_t outcap)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		char ch = p[i];

		if (ch == '-' || ch == '_' || ch == '.') {
			if (k && out[k - 1] == '-')
				continue;
			ch = '-';
		} else if (ch >= 'A' && ch <= 'Z') {
			ch = (char)(ch - 'A' + 'a');
		}
		if (k + 1 >= outcap)
			return -1;
		out[k++] = ch;
	}
	if (outcap == 0)
		return -1;
	out[k] = '\0';
	return (long)k;
}

/* NAME==VERSION at the cursor (the line's end at stop) into d. */
static int
requirement(struct cur *c, size_t stop, struct py_dist *d)
{
	char name[PYLOCK_NAME_MAX + 2], ver[PYLOCK_VERSION_MAX + 2];
	size_t n = 0, start = c->off;

	while (c->off + n < stop && word_byte(c->p[c->off + n]) &&
	    c->p[c->off + n] != '=')
		n++;
	if (c->p[c->off] == '-')
		return fail(c, "an option line (-e, -r, --index-url ...): "
		    "only `name==version --hash=sha256:HEX` lines");
	if (!n || n > PYLOCK_NAME_MAX)
		return fail(c, "no requirement name (of at most 128 bytes)");
	memcpy(name, c->p + c->off, n);
	name[n] = '\0';
	if (pep508_name(name) != n || !((name[0] >= 'a' && name[0] <= 'z') ||
	    (name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= '0' &&
	    name[0] <= '9')))
		return fail(c, "not a name (PEP 508) pinned with ==: a URL, "
		    "path, extras or marker is refused");
	c->off += n;
	if (stop - c->off < 2 || c->p[c->off] != '=' ||
	    c->p[c->off + 1] != '=' || (stop - c->off > 2 &&
	    c->p[c->off + 2] == '='))
		return fail(c, "the version must be pinned with == (exactly)");
	c->off += 2;
	if (!take_word(c, stop, ver, sizeof ver) || !pep440_exact(ver) ||
	    strlen(ver) > PYLOCK_VERSION_MAX)
		return fail(c, "not an exact version (PEP 440, canonical, "
		    "no epoch, wildcard or local part)");
	if (py_name_normalise((const char *)c->p + start, n, d->name,
	    sizeof d->name) < 0)
		return fail(c, "name too long");
	snprintf(d->version, sizeof d->version, "%s", ver);
	return 0;
}

/* --hash=sha256:HEX at the cursor into h. */
static int
hash_word(struct cur *c, size_t stop, uint8_t h[32])
{
	if (stop - c->off < HASH_WORD_LEN + 64 ||
	    memcmp(c->p + c->off, HASH_WORD, HASH_WORD_LEN) != 0)
		return fail(c, "after the version only --hash=sha256:HEX "
		    "words (no other option, marker or comment)");
	c->off += HASH_WORD_LEN;
	for (size_t i = 0; i < 32; i++) {
		int hi = hex_val(c->p[c->off + 2 * i]),
		    lo = hex_val(c->p[c->off + 2 * i + 1]);

		if (hi < 0 || lo < 0)
			return fail(c, "a sha256 hash is 64 lowercase hex "
			    "digits");
		h[i] = (uint8_t)(hi << 4 | lo);
	}
	c->off += 64;
	if (c->off < stop && !blank(c->p[c->off]) && c->p[c->off] != '\\')
		return fail(c, "a sha256 hash is 64 lowercase hex digits");
	return 0;
}

/* The end of the logical line that starts at the cursor: the LF that no
 * `\` before it continues. -1 (and err) for a byte no line may hold. */
static long
line_end(struct cur *c)
{
	for (size_t i = c->off; i < c->len; i++) {
		uint8_t b = c->p[i];

		if (b == '\n' && !(i > c->off && c->p[i - 1] == '\\'))
			return (long)i;
		if (b != '\n' && control(b))
			return fail(c, "a control byte (CR, NUL ...)");
	}
	return fail(c, "the last line does not end with a newline");
}

/* A comment line (its first non-blank is '#'; any byte but controls, and
 * never continued: pip and uv disagree on a `\` ending one). 1 when the
 * line at the cursor was one (skipped, LF included), 0 when not, -1. */
static int
comment(struct cur *c)
{
	const uint8_t *nl = memchr(c->p + c->off, '\n', c->len - c->off);
	size_t at = c->off, end;

	if (!nl)
		return 0;	/* line_end says why */
	end = (size_t)(nl - c->p);
	while (at < end && blank(c->p[at]))
		at++;
	if (at == end || c->p[at] != '#')
		return 0;
	for (; at < end; at++)
		if (control(c->p[at]))
			return fail(c, "a control byte (CR, NUL ...)");
	if (c->p[end - 1] == '\\')
		return fail(c, "a comment cannot be continued");
	c->off = end + 1;
	c->line++;
	return 1;
}

/* One requirement line; its hashes appended to l->hash. */
static int
req_line(struct cur *c, size_t end, struct py_lock *l)
{
	struct py_dist *d = &l->dist[l->ndist];
	int sep;

	if (l->ndist == PYLOCK_DISTS_MAX)
		return fail(c, "more than 1024 requirements");
	memset(d, 0, sizeof *d);
	if (requirement(c, end, d) != 0)
		return -1;
	if (py_lock_find(l, d->name, strlen(d->name)))
		return fail(c, "a name twice (PEP 503 normalised)");
	d->hash_first = l->nhash;
	while ((sep = separator(c)) == 1 && c->off < end) {
		if (l->nhash == PYLOCK_HASHES_MAX)
			return fail(c, "more than 4096 hashes");
		if (hash_word(c, end, l->hash[l->nhash]) != 0)
			return -1;
		if (py_lock_hash_ok(l, d, l->hash[l->nhash]))
			return fail(c, "a hash twice in one requirement");
		l->nhash++;
		d->nhash++;
	}
	if (sep < 0)
		return -1;
	if (c->off != end)
		return fail(c, "after the version only --hash=sha256:HEX "
		    "words (no other option, marker or comment)");
	if (!d->nhash)
		return fail(c, "a requirement without a --hash=sha256: "
		    "every distribution must be pinned by its file's hash");
	l->ndist++;
	c->off = end + 1;
	c->line++;
	return 0;
}

int
py_lock_parse(const uint8_t *text, size_t len, struct py_lock *out,
    char *err, size_t errcap)
{
	struct cur c = { text, len, 0, 1, err, errcap };
	struct py_lock l = { 0 };

	memset(out, 0, sizeof *out);
	if (errcap)
		err[0] = '\0';
	if (len > PYLOCK_TEXT_MAX)
		return fail(&c, "the file is larger than 1 MiB");
	l.dist = calloc(PYLOCK_DISTS_MAX, sizeof *l.dist);
	l.hash = calloc(PYLOCK_HASHES_MAX, sizeof *l.hash);
	if (!l.dist || !l.hash) {
		py_lock_free(&l);
		return fail(&c, "out of memory");
	}
	while (c.off < c.len) {
		int r = comment(&c);
		long e;

		if (r < 0)
			goto bad;
		if (r)
			continue;
		if ((e = line_end(&c)) < 0)
			goto bad;
		skip_blanks(&c);
		if ((size_t)e == c.off) {	/* blank */
			c.off++;
			c.line++;
			continue;
		}
		if (req_line(&c, (size_t)e, &l) != 0)
			goto bad;
	}
	if (!l.ndist) {
		fail(&c, "no requirement");
		goto bad;
	}
	*out = l;
	return 0;
bad:
	py_lock_free(&l);
	return -1;
}

void
py_lock_free(struct py_lock *l)
{
	free(l->dist);
	free(l->hash);
	memset(l, 0, sizeof *l);
}

const struct py_dist *
py_lock_find(const struct py_lock *l, const char *name, size_t n)
{
	char norm[PYLOCK_NAME_MAX + 1];

	if (py_name_normalise(name, n, norm, sizeof norm) < 0)
		return NULL;
	for (size_t i = 0; i < l->ndist; i++)
		if (strcmp(l->dist[i].name, norm) == 0)
			return &l->dist[i];
	return NULL;
}

int
py_lock_hash_ok(const struct py_lock *l, const struct py_dist *d,
    const uint8_t sha[32])
{
	for (size_t i = 0; i < d->nhash; i++)
		if (memcmp(l->hash[d->hash_first + i], sha, 32) == 0)
			return 1;
	return 0;
}

/* NAME==VERSION or NAME@VERSION (op) into s's name and version. */
static int
spec_req(const char *w, const char *op, struct py_spec *s)
{
	size_t n = pep508_name(w), ol = strlen(op);

	if (!n || n > PYLOCK_NAME_MAX || strncmp(w + n, op, ol) != 0 ||
	    !pep440_exact(w + n + ol) || strlen(w + n + ol) >
	    PYLOCK_VERSION_MAX ||
	    py_name_normalise(w, n, s->name, sizeof s->name) < 0)
		return -1;
	snprintf(s->version, sizeof s->version, "%s", w + n + ol);
	return 0;
}

int
py_spec_parse(const char *const *argv, size_t argc, struct py_spec *out)
{
	const char *cmd;
	size_t n;

	memset(out, 0, sizeof *out);
	if (argc < 2 || strcmp(argv[0], "uvx") != 0)
		return -1;
	if (strcmp(argv[1], "--from") == 0) {
		if (argc < 4 || spec_req(argv[2], "==", out) != 0)
			return -1;
		cmd = argv[3];
		n = strlen(cmd);
		out->args = 4;
	} else {
		if (spec_req(argv[1], "@", out) != 0)
			return -1;
		cmd = argv[1];
		n = pep508_name(cmd);
		out->args = 2;
	}
	if (!n || n > PYLOCK_NAME_MAX || pep508_name(cmd) != n)
		return -1;
	memcpy(out->command, cmd, n);
	out->command[n] = '\0';
	return 0;
}

const struct py_dist *
py_lock_top(const struct py_lock *l, const struct py_spec *spec, char *err,
    size_t errcap)
{
	const struct py_dist *d = py_lock_find(l, spec->name,
	    strlen(spec->name));

	if (!d)
		snprintf(err, errcap, "the lock has no distribution %s",
		    spec->name);
	else if (strcmp(d->version, spec->version) != 0)
		snprintf(err, errcap, "the lock pins %s==%s, the command "
		    "%s==%s", d->name, d->version, spec->name, spec->version);
	else
		return d;
	return NULL;
}

long
py_lock_render(const struct py_lock *l, char *out, size_t cap)
{
	size_t k = 0;

	for (size_t i = 0; i < l->ndist; i++) {
		const struct py_dist *d = &l->dist[i];
		int n = snprintf(out + k, cap - k, "%s==%s", d->name,
		    d->version);

		if (n < 0 || (size_t)n >= cap - k)
			return -1;
		k += (size_t)n;
		for (size_t j = 0; j < d->nhash; j++) {
			const uint8_t *h = l->hash[d->hash_first + j];

			if (cap - k < 1 + HASH_WORD_LEN + 64 + 2)
				return -1;
			out[k++] = ' ';
			memcpy(out + k, HASH_WORD, HASH_WORD_LEN);
			k += HASH_WORD_LEN;
			k += (size_t)hex_encode(h, 32, out + k, cap - k);
		}
		out[k++] = '\n';
	}
	if (k >= cap)
		return -1;
	out[k] = '\0';
	return (long)k;
}
