/* idfile.c - find an account id inside a range in passwd/group text, or a
 * subordinate id range that overlaps it in subuid/subgid text. */
#include "common/base/idfile.h"

#include <string.h>

#include "common/base/decnum.h"

/* The n-th ':'-separated field of line[0..len): 0 and *f, *flen, or -1. */
static int
field(const char *line, size_t len, unsigned n, const char **f, size_t *flen)
{
	size_t start = 0;

	for (size_t i = 0; i <= len; i++) {
		if (i < len && line[i] != ':')
			continue;
		if (n-- == 0) {
			*f = line + start;
			*flen = i - start;
			return 0;
		}
		start = i + 1;
	}
	return -1;
}

/* name[0..namecap) gets nm[0..nlen), cut to fit, NUL-terminated. */
static void
copy_name(char *name, size_t namecap, const char *nm, size_t nlen)
{
	if (namecap == 0)
		return;
	if (nlen >= namecap)
		nlen = namecap - 1;
	memcpy(name, nm, nlen);
	name[nlen] = '\0';
}

/* The line at buf[*off..len): its start and length; *off moves past it. */
static const char *
next_line(const char *buf, size_t len, size_t *off, size_t *llen)
{
	const char *line = buf + *off, *nl = memchr(line, '\n', len - *off);

	*llen = nl ? (size_t)(nl - line) : len - *off;
	*off += *llen + 1;
	return line;
}

int
idfile_find_in_range(const char *buf, size_t len, uint32_t first,
    uint32_t last, uint32_t *id, char *name, size_t namecap)
{
	size_t off = 0;

	while (off < len) {
		const char *f, *nm;
		size_t llen, flen, nlen;
		const char *line = next_line(buf, len, &off, &llen);
		uint32_t v;

		if (field(line, llen, 2, &f, &flen) != 0 ||
		    decnum_parse(f, flen, &v) != 0 || v < first || v > last ||
		    field(line, llen, 0, &nm, &nlen) != 0)
			continue;
		*id = v;
		copy_name(name, namecap, nm, nlen);
		return 1;
	}
	return 0;
}

int
idfile_find_subid_overlap(const char *buf, size_t len, uint32_t first,
    uint32_t last, uint32_t *start, uint32_t *count, char *name,
    size_t namecap)
{
	size_t off = 0;

	while (off < len) {
		const char *fs, *fc, *nm;
		size_t llen, slen, clen, nlen;
		const char *line = next_line(buf, len, &off, &llen);
		uint32_t s, n;

		if (field(line, llen, 1, &fs, &slen) != 0 ||
		    field(line, llen, 2, &fc, &clen) != 0 ||
		    decnum_parse(fs, slen, &s) != 0 ||
		    decnum_parse(fc, clen, &n) != 0 || n == 0 ||
		    s > last || (uint64_t)s + n - 1 < first ||
		    field(line, llen, 0, &nm, &nlen) != 0)
			continue;
		*start = s;
		*count = n;
		copy_name(name, namecap, nm, nlen);
		return 1;
	}
	return 0;
}
