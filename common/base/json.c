/* json.c - the one JSON string escaper (the rule is in json.h). */
#include "common/base/json.h"

#include <string.h>

#include "common/base/utf8.h"

/* "uXXXX" for one UTF-16 unit: 5 bytes. */
static size_t
hex_unit(char *out, uint32_t unit)
{
	static const char hex[] = "0123456789abcdef";

	out[0] = 'u';
	for (int i = 0; i < 4; i++)
		out[1 + i] = hex[unit >> (12 - 4 * i) & 0xf];
	return 5;
}

size_t
json_step(const uint8_t *p, size_t n, size_t *off, char out[JSON_STEP_MAX])
{
	uint32_t cp;
	size_t len = utf8_seq(p + *off, n - *off, &cp);

	if (len == 0) {
		cp = 0xfffd;
		len = 1;
	} else if (!utf8_must_escape(cp) && cp != '"' && cp != '\\') {
		memcpy(out, p + *off, len);
		*off += len;
		return len;
	}
	*off += len;
	out[0] = '\\';
	switch (cp) {
	case '"':
	case '\\':
		out[1] = (char)cp;
		return 2;
	case '\n':
		out[1] = 'n';
		return 2;
	case '\r':
		out[1] = 'r';
		return 2;
	case '\t':
		out[1] = 't';
		return 2;
	}
	if (cp < 0x10000)
		return 1 + hex_unit(out + 1, cp);
	/* a tag or a supplementary variation selector: its surrogate pair */
	cp -= 0x10000;
	hex_unit(out + 1, 0xd800 | cp >> 10);
	out[6] = '\\';
	return 7 + hex_unit(out + 7, 0xdc00 | (cp & 0x3ff));
}

void
json_write(FILE *f, const void *p, size_t n)
{
	char step[JSON_STEP_MAX];

	for (size_t off = 0; off < n; )
		fwrite(step, 1, json_step(p, n, &off, step), f);
}

void
json_write_quoted(FILE *f, const void *p, size_t n)
{
	fputc('"', f);
	json_write(f, p, n);
	fputc('"', f);
}

void
json_write_cstr(FILE *f, const char *s)
{
	json_write_quoted(f, s ? s : "", s ? strlen(s) : 0);
}

/* Printable ASCII but '"' and '\\': a byte that is its own escape. */
static int
plain_byte(uint8_t c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

size_t
json_append(char *buf, size_t cap, size_t *len, const void *p, size_t n)
{
	const uint8_t *b = p;
	char step[JSON_STEP_MAX];
	size_t off = 0;

	while (off < n) {
		size_t run = 0, next = off, k;
		size_t most = n - off < cap - *len ? n - off : cap - *len;

		/* a run of plain bytes in one copy: a log record is mostly
		 * these, and json_step's per-character path cost the MCP
		 * tap's record more than its parse (BENCHMARKS.md) */
		while (run < most && plain_byte(b[off + run]))
			run++;
		if (run > 0) {
			memcpy(buf + *len, b + off, run);
			*len += run;
			off += run;
			continue;
		}
		k = json_step(p, n, &next, step);
		if (k > cap - *len)
			break;
		memcpy(buf + *len, step, k);
		*len += k;
		off = next;
	}
	return off;
}
