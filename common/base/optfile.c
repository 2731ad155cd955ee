/* optfile.c - a file of long options, one per line (optfile.h). */
#include <stdio.h>

#include "common/base/optfile.h"

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

void
optfile_init(struct optfile *f, char *buf, size_t len)
{
	f->p = buf;
	f->len = len;
	f->off = 0;
	f->line = 0;
	f->bad = 0;
}

/* Every byte of the line from f->off is allowed; its end (the "\n" or
 * len) into *end. 0, or -1 with err. */
static int
line_bytes(struct optfile *f, size_t *end, char *err, size_t errlen)
{
	size_t i;

	for (i = f->off; i < f->len && f->p[i] != '\n'; i++) {
		unsigned char c = (unsigned char)f->p[i];

		if (i - f->off >= OPTFILE_LINE_MAX) {
			snprintf(err, errlen, "line longer than %d bytes",
			    OPTFILE_LINE_MAX);
			return -1;
		}
		if (c == 0)
			snprintf(err, errlen, "NUL byte");
		else if (c == '\r')
			snprintf(err, errlen, "carriage return (the file must "
			    "have Unix line ends)");
		else if ((c < 0x20 && c != '\t') || c == 0x7f)
			snprintf(err, errlen, "control byte 0x%02x", c);
		else if (c > 0x7f)
			snprintf(err, errlen, "byte 0x%02x is not ASCII (values "
			    "are visible ASCII)", c);
		else
			continue;
		return -1;
	}
	*end = i;
	return 0;
}

/* Parse the line p[0..n) (its bytes checked): 1 with *e, 0 when blank or
 * a comment, -1 with err. Names and values are ended in place. */
static int
parse_line(char *p, size_t n, struct optfile_entry *e, char *err,
    size_t errlen)
{
	size_t i = 0, name, name_end, value, value_end;

	while (i < n && is_blank(p[i]))
		i++;
	if (i == n || p[i] == '#')
		return 0;
	name = i;
	if (p[i] == '-' && i + 1 < n && p[i + 1] == '-') {
		snprintf(err, errlen, "write the option without its dashes "
		    "('%.*s')", (int)(n - i > 32 ? 32 : n - i), p + i);
		return -1;
	}
	if (p[i] < 'a' || p[i] > 'z') {
		snprintf(err, errlen, "'%c' cannot start an option name", p[i]);
		return -1;
	}
	while (i < n && is_name_char(p[i]))
		i++;
	name_end = i;
	if (name_end - name > OPTFILE_NAME_MAX) {
		snprintf(err, errlen, "option name longer than %d bytes",
		    OPTFILE_NAME_MAX);
		return -1;
	}
	if (i < n && !is_blank(p[i])) {
		if (p[i] == '=')
			snprintf(err, errlen, "write '%.*s VALUE', not "
			    "'%.*s=VALUE'", (int)(name_end - name), p + name,
			    (int)(name_end - name), p + name);
		else
			snprintf(err, errlen, "'%c' in the option name '%.*s'",
			    p[i], (int)(name_end - name), p + name);
		return -1;
	}
	while (i < n && is_blank(p[i]))
		i++;
	value = i;
	while (i < n && !is_blank(p[i]))
		i++;
	value_end = i;
	while (i < n && is_blank(p[i]))
		i++;
	if (i < n) {
		snprintf(err, errlen, "text after the value ('%.*s'): one "
		    "value per line, no quoting", (int)(n - i > 32 ? 32 :
		    n - i), p + i);
		return -1;
	}
	p[name_end] = '\0';
	e->name = p + name;
	e->value = NULL;
	if (value_end > value) {
		p[value_end] = '\0';
		e->value = p + value;
	}
	return 1;
}

int
optfile_next(struct optfile *f, struct optfile_entry *e, char *err,
    size_t errlen)
{
	if (f->bad) {
		snprintf(err, errlen, "the file was refused before");
		return -1;
	}
	while (f->off < f->len) {
		size_t end;
		int rc;

		f->line++;
		if (line_bytes(f, &end, err, errlen) != 0)
			return f->bad = 1, -1;
		rc = parse_line(f->p + f->off, end - f->off, e, err, errlen);
		f->off = end < f->len ? end + 1 : end;
		if (rc < 0)
			return f->bad = 1, -1;
		if (rc > 0) {
			e->line = f->line;
			return 1;
		}
	}
	return 0;
}
