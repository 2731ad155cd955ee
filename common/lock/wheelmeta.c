/* wheelmeta.c - an installed wheel's RECORD and console scripts, read
 * strictly (wheelmeta.h). */
#include "common/lock/wheelmeta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/b64url.h"
#include "common/policy/guard_pep508.h"

#define SHA_WORD "sha256="
#define SHA_WORD_LEN (sizeof SHA_WORD - 1)
#define SHA_B64_LEN 43

/* One line of a text: [at, end) without its LF (or CRLF). */
struct line {
	const uint8_t *p;
	size_t len, off, no;
	size_t at, end;
};

/* The next line into l->at, l->end: 1, or 0 at the text's end. */
static int
next_line(struct line *l)
{
	const uint8_t *nl;

	if (l->off >= l->len)
		return 0;
	l->at = l->off;
	nl = memchr(l->p + l->off, '\n', l->len - l->off);
	l->end = nl ? (size_t)(nl - l->p) : l->len;
	l->off = nl ? l->end + 1 : l->len;
	if (l->end > l->at && l->p[l->end - 1] == '\r')
		l->end--;
	l->no++;
	return 1;
}

static int
fail(char *err, size_t errcap, size_t no, const char *why)
{
	snprintf(err, errcap, "line %zu: %s", no, why);
	return -1;
}

/* A path part's byte: printable ASCII but , " / \ (the csv's, the
 * separator's, another system's separator's). */
static int
part_byte(uint8_t b)
{
	return b >= ' ' && b < 0x7f && b != ',' && b != '"' && b != '/' &&
	    b != '\\';
}

/* p[0..n) is REL: parts of part_byte, none empty, "." or "..". */
static int
rel_path(const uint8_t *p, size_t n)
{
	size_t start = 0;

	if (n == 0 || n > WHEEL_PATH_MAX)
		return 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] != '/') {
			if (!part_byte(p[i]))
				return 0;
			continue;
		}
		if (i == start || (i - start == 1 && p[start] == '.') ||
		    (i - start == 2 && p[start] == '.' && p[start + 1] == '.'))
			return 0;
		start = i + 1;
	}
	return 1;
}

/* Canonical decimal p[0..n) (no sign, no leading zero) into *v. */
static int
decimal(const uint8_t *p, size_t n, uint64_t *v)
{
	*v = 0;
	if (n == 0 || n > 18 || (p[0] == '0' && n > 1))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		*v = *v * 10 + (uint64_t)(p[i] - '0');
	}
	return 0;
}

/* One RECORD line's three fields into f. */
static const char *
record_line(const uint8_t *p, size_t n, struct wheel_file *f)
{
	const uint8_t *c1 = memchr(p, ',', n), *c2;
	size_t pl, hl, sl, bl = sizeof WHEEL_BIN_PREFIX - 1;

	if (n && p[0] == '"')
		return "a quoted path (a comma or quote in a file name)";
	if (!c1 || !(c2 = memchr(c1 + 1, ',', n - (size_t)(c1 - p) - 1)))
		return "not PATH,HASH,SIZE";
	pl = (size_t)(c1 - p);
	hl = (size_t)(c2 - c1 - 1);
	sl = n - pl - hl - 2;
	f->path = (const char *)p;
	f->path_len = pl;
	if (pl > bl && memcmp(p, WHEEL_BIN_PREFIX, bl) == 0) {
		f->script = 1;
		p += bl;
		pl -= bl;
	}
	if (!rel_path(p, pl))
		return "not a relative path inside the package (no empty, . or "
		    ".. part but ../../bin/, printable ASCII without , \" \\)";
	if (hl == 0 && sl == 0)
		return NULL;
	if (hl != SHA_WORD_LEN + SHA_B64_LEN ||
	    memcmp(c1 + 1, SHA_WORD, SHA_WORD_LEN) != 0 ||
	    b64url_decode((const char *)c1 + 1 + SHA_WORD_LEN, SHA_B64_LEN,
	    f->sha256, sizeof f->sha256) != 32)
		return "the hash is not sha256= and 43 base64url characters";
	if (decimal(c2 + 1, sl, &f->size) != 0)
		return "the size is not a decimal number (with a hash, a size)";
	f->hashed = 1;
	return NULL;
}

static int
path_cmp(const void *a, const void *b)
{
	const struct wheel_file *x = a, *y = b;
	size_t n = x->path_len < y->path_len ? x->path_len : y->path_len;
	int c = memcmp(x->path, y->path, n);

	return c ? c : (x->path_len > y->path_len) - (x->path_len <
	    y->path_len);
}

int
wheel_record_parse(const uint8_t *text, size_t len,
    struct wheel_record *out, char *err, size_t errcap)
{
	struct line l = { text, len, 0, 0, 0, 0 };
	struct wheel_file *sorted;
	size_t lines = 0;
	const char *why;

	memset(out, 0, sizeof *out);
	if (len > WHEEL_RECORD_MAX)
		return fail(err, errcap, 0, "RECORD is larger than 8 MiB");
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (lines + 1 > WHEEL_FILES_MAX)
		return fail(err, errcap, 0, "more than 100000 files");
	if (!(out->file = calloc(lines + 1, sizeof *out->file)))
		return fail(err, errcap, 0, "out of memory");
	while (next_line(&l)) {
		struct wheel_file *f = &out->file[out->nfile];

		if ((why = record_line(text + l.at, l.end - l.at, f)) != NULL) {
			wheel_record_free(out);
			return fail(err, errcap, l.no, why);
		}
		out->nfile++;
	}
	if (!out->nfile) {
		wheel_record_free(out);
		return fail(err, errcap, 0, "an empty RECORD");
	}
	/* a path twice: sorted, neighbours compared */
	if (!(sorted = malloc(out->nfile * sizeof *sorted))) {
		wheel_record_free(out);
		return fail(err, errcap, 0, "out of memory");
	}
	memcpy(sorted, out->file, out->nfile * sizeof *sorted);
	qsort(sorted, out->nfile, sizeof *sorted, path_cmp);
	for (size_t i = 1; i < out->nfile; i++)
		if (path_cmp(&sorted[i - 1], &sorted[i]) == 0) {
			free(sorted);
			wheel_record_free(out);
			return fail(err, errcap, 0, "a path twice");
		}
	free(sorted);
	return 0;
}

void
wheel_record_free(struct wheel_record *r)
{
	free(r->file);
	memset(r, 0, sizeof *r);
}

/* ---- entry_points.txt --------------------------------------------------- */

static int
blank(uint8_t b)
{
	return b == ' ' || b == '\t';
}

/* [a, b) of p without blanks at either end. */
static void
trim(const uint8_t *p, size_t *a, size_t *b)
{
	while (*a < *b && blank(p[*a]))
		(*a)++;
	while (*b > *a && blank(p[*b - 1]))
		(*b)--;
}

static int
ident_start(uint8_t b)
{
	return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_';
}

/* p[0..n) is a dotted ASCII identifier: into out (WHEEL_IDENT_MAX). */
static int
dotted(const uint8_t *p, size_t n, char *out)
{
	int start = 1;

	if (n == 0 || n > WHEEL_IDENT_MAX)
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint8_t b = p[i];

		if (b == '.' && !start && i + 1 < n) {
			start = 1;
			continue;
		}
		if (!ident_start(b) && (start || b < '0' || b > '9'))
			return -1;
		start = 0;
	}
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

/* NAME = MODULE:ATTR (p[0..n), trimmed) into s. */
static const char *
script_line(const uint8_t *p, size_t n, struct wheel_script *s)
{
	const uint8_t *eq = memchr(p, '=', n), *colon;
	size_t ka = 0, kb, va, vb = n;

	if (!eq)
		return "not NAME = MODULE:ATTR";
	kb = (size_t)(eq - p);
	va = kb + 1;
	trim(p, &ka, &kb);
	trim(p, &va, &vb);
	if (kb - ka == 0 || kb - ka > WHEEL_NAME_MAX)
		return "no script name (of at most 128 bytes)";
	memcpy(s->name, p + ka, kb - ka);
	s->name[kb - ka] = '\0';
	if (pep508_name(s->name) != kb - ka)
		return "a script name is a name's shape (alnum at both ends, "
		    ". _ - inside)";
	if (memchr(p + va, '[', vb - va))
		return "extras on a console script";
	if (!(colon = memchr(p + va, ':', vb - va)))
		return "a console script is MODULE:ATTR";
	if (dotted(p + va, (size_t)(colon - p) - va, s->module) != 0 ||
	    dotted(colon + 1, vb - (size_t)(colon - p) - 1, s->attr) != 0)
		return "MODULE and ATTR are dotted ASCII identifiers";
	return NULL;
}

int
wheel_console_scripts(const uint8_t *text, size_t len,
    struct wheel_script *out, size_t *n, char *err, size_t errcap)
{
	struct line l = { text, len, 0, 0, 0, 0 };
	int section = 0, console = 0;

	*n = 0;
	if (len > WHEEL_ENTRY_POINTS_MAX)
		return fail(err, errcap, 0, "entry_points.txt is larger than "
		    "1 MiB");
	while (next_line(&l)) {
		size_t a = l.at, b = l.end;
		const char *why;

		for (size_t i = a; i < b; i++)
			if ((text[i] < ' ' && text[i] != '\t') ||
			    text[i] >= 0x7f)
				return fail(err, errcap, l.no, "a byte that is "
				    "not printable ASCII");
		if (a < b && blank(text[a])) {
			trim(text, &a, &b);
			if (a == b)
				continue;
			return fail(err, errcap, l.no, "an indented line (a "
			    "continuation)");
		}
		trim(text, &a, &b);
		if (a == b || text[a] == '#')
			continue;
		if (text[a] == '[') {
			size_t sa = a + 1, sb = b - 1;

			if (text[b - 1] != ']' || b - a < 2)
				return fail(err, errcap, l.no, "a section "
				    "header is [NAME]");
			trim(text, &sa, &sb);
			section = 1;
			console = sb - sa == 15 && memcmp(text + sa,
			    "console_scripts", 15) == 0;
			continue;
		}
		if (!section)
			return fail(err, errcap, l.no, "a line before any "
			    "section");
		if (!console)
			continue;
		if (*n == WHEEL_SCRIPTS_MAX)
			return fail(err, errcap, l.no, "more than 64 console "
			    "scripts");
		if ((why = script_line(text + a, b - a, &out[*n])) != NULL)
			return fail(err, errcap, l.no, why);
		for (size_t i = 0; i < *n; i++)
			if (strcmp(out[i].name, out[*n].name) == 0)
				return fail(err, errcap, l.no, "a script name "
				    "twice");
		(*n)++;
	}
	return 0;
}
