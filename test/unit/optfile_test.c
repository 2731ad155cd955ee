/* optfile_test.c - the option file's grammar: what it yields, and each
 * malformed form refused on the right line with its reason. */
#include <stdlib.h>

#include "common/base/optfile.h"
#include "tap.h"

/* Parse text whole: the entries as "LINE:NAME=VALUE;" (VALUE "-" when
 * none) into out, or "ERR LINE: message" at the first error. */
static const char *
run(const char *text, size_t len, char *out, size_t cap)
{
	char *buf = malloc(len + 1);
	struct optfile f;
	struct optfile_entry e;
	char err[256];
	size_t n = 0;
	int rc;

	memcpy(buf, text, len);
	buf[len] = 'Z';		/* the parser owns buf[len]: not read as text */
	optfile_init(&f, buf, len);
	out[0] = '\0';
	while ((rc = optfile_next(&f, &e, err, sizeof err)) > 0)
		n += (size_t)snprintf(out + n, cap - n, "%u:%s=%s;", e.line,
		    e.name, e.value ? e.value : "-");
	if (rc < 0) {
		snprintf(out, cap, "ERR %u: %s", f.line, err);
		ok(optfile_next(&f, &e, err, sizeof err) == -1,
		    "an error is sticky");
	}
	free(buf);
	return out;
}

int
main(void)
{
	static const struct { const char *in; const char *want; } good[] = {
		{ "", "" },
		{ "\n\n", "" },
		{ "memory 512M\n", "1:memory=512M;" },
		{ "memory 512M", "1:memory=512M;" },	/* no final newline */
		{ "# a comment\n  # indented\nallow-bind\n", "3:allow-bind=-;" },
		{ "\tpids\t \t100 \t\n", "1:pids=100;" },
		{ "allow-bind   \n", "1:allow-bind=-;" },
		{ "a 1\nb-2 x#y\n", "1:a=1;2:b-2=x#y;" },
		{ "allow-index https://r.example/x?a=1&b=2\n",
		  "1:allow-index=https://r.example/x?a=1&b=2;" },
	};
	static const struct { const char *in; size_t len; const char *want; }
	    bad[] = {
		{ "memory 512M 1G\n", 15,
		  "ERR 1: text after the value ('1G'): one value per line, "
		  "no quoting" },
		{ "ok 1\n--memory 1G\n", 17,
		  "ERR 2: write the option without its dashes ('--memory 1G')" },
		{ "memory=1G\n", 10,
		  "ERR 1: write 'memory VALUE', not 'memory=VALUE'" },
		{ "Memory 1G\n", 10, "ERR 1: 'M' cannot start an option name" },
		{ "mem_ory 1G\n", 11,
		  "ERR 1: '_' in the option name 'mem'" },
		{ "a 1\nmemory 1\0G\n", 14, "ERR 2: NUL byte" },
		{ "memory 1G\r\n", 11,
		  "ERR 1: carriage return (the file must have Unix line ends)" },
		{ "memory \x01\n", 9, "ERR 1: control byte 0x01" },
		{ "memory \x7f\n", 9, "ERR 1: control byte 0x7f" },
		{ "ro-path /caf\xc3\xa9\n", 16,
		  "ERR 1: byte 0xc3 is not ASCII (values are visible ASCII)" },
		{ "\"memory\" 1G\n", 12, "ERR 1: '\"' cannot start an option name" },
		{ "memory '1G 2G'\n", 15,
		  "ERR 1: text after the value ('2G''): one value per line, "
		  "no quoting" },
		{ "abcdefghijklmnopqrstuvwxyzabcdefg 1\n", 36,
		  "ERR 1: option name longer than 32 bytes" },
	};
	char out[512], *long_line;

	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		ok(strcmp(run(good[i].in, strlen(good[i].in), out, sizeof out),
		    good[i].want) == 0, "accepted %zu: %s", i,
		    out);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ok(strcmp(run(bad[i].in, bad[i].len, out, sizeof out),
		    bad[i].want) == 0, "refused %zu: %s", i, out);

	/* the line cap: OPTFILE_LINE_MAX bytes pass, one more does not */
	long_line = malloc(OPTFILE_LINE_MAX + 2);
	memcpy(long_line, "a ", 2);
	memset(long_line + 2, 'x', OPTFILE_LINE_MAX - 2);
	long_line[OPTFILE_LINE_MAX] = '\n';
	ok(strncmp(run(long_line, OPTFILE_LINE_MAX + 1, out, sizeof out),
	    "1:a=xxx", 7) == 0, "a line of %d bytes", OPTFILE_LINE_MAX);
	long_line[OPTFILE_LINE_MAX] = 'x';
	ok(strcmp(run(long_line, OPTFILE_LINE_MAX + 1, out, sizeof out),
	    "ERR 1: line longer than 1024 bytes") == 0,
	    "a line of %d bytes is refused: %s", OPTFILE_LINE_MAX + 1, out);
	free(long_line);
	return tap_done();
}
