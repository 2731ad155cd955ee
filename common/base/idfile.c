/* idfile.c - find an account id inside a range in passwd/group text. */
#include "common/base/idfile.h"

#include <string.h>

#include "common/jail/uidpool.h"

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

int
idfile_find_in_range(const char *buf, size_t len, uint32_t first,
    uint32_t last, uint32_t *id, char *name, size_t namecap)
{
	size_t off = 0;

	while (off < len) {
		const char *line = buf + off, *nl, *f, *nm;
		size_t llen, flen, nlen;
		uint32_t v;

		nl = memchr(line, '\n', len - off);
		llen = nl ? (size_t)(nl - line) : len - off;
		off += llen + 1;
		if (field(line, llen, 2, &f, &flen) != 0 ||
		    uidpool_number_parse(f, flen, &v) != 0 || v < first || v > last ||
		    field(line, llen, 0, &nm, &nlen) != 0)
			continue;
		*id = v;
		if (namecap > 0) {
			if (nlen >= namecap)
				nlen = namecap - 1;
			memcpy(name, nm, nlen);
			name[nlen] = '\0';
		}
		return 1;
	}
	return 0;
}
