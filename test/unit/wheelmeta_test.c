/* wheelmeta_test.c - an installed wheel's RECORD as pip writes it (CRLF,
 * ../../bin/ scripts, itself unhashed) read exactly; every path, hash and
 * size form that could name another file or be read two ways refused
 * with its line; entry_points.txt's console scripts, and what they may
 * not be. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lock/wheelmeta.h"
#include "tap.h"

/* sha256 of "" and its RECORD spelling */
#define E_B64 "47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"

static int
record(const char *s, struct wheel_record *r, char *err, size_t cap)
{
	return wheel_record_parse((const uint8_t *)s, strlen(s), r, err, cap);
}

static void
records(void)
{
	static const char pip[] =
	    "../../bin/mcp-echo,sha256=" E_B64 ",214\r\n"
	    "mcp_echo-1.0.0.dist-info/RECORD,,\r\n"
	    "mcp_echo-1.0.0.dist-info/REQUESTED,sha256=" E_B64 ",0\r\n"
	    "mcp_echo/a b.py,sha256=" E_B64 ",0\n";
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "/etc/passwd,,\n", "relative path" },
		{ "a/../b,,\n", "relative path" },
		{ "../x,,\n", "relative path" },
		{ "../../share/x,,\n", "relative path" },
		{ "../../bin/../x,,\n", "relative path" },
		{ "../../bin/,,\n", "relative path" },
		{ "a//b,,\n", "relative path" },
		{ "./a,,\n", "relative path" },
		{ "a/,,\n", "relative path" },
		{ "a\\b,,\n", "relative path" },
		{ "a\tb,,\n", "relative path" },
		{ "\xc3\xa9,,\n", "relative path" },
		{ "\"a,b\",,\n", "quoted" },
		{ "a\n", "PATH,HASH,SIZE" },
		{ "a,,\n\n", "PATH,HASH,SIZE" },
		{ "a,sha256=" E_B64 ",\n", "size" },
		{ "a,,0\n", "hash is not" },
		{ "a,sha256=" E_B64 ",01\n", "size" },
		{ "a,sha256=" E_B64 ",-1\n", "size" },
		{ "a,sha256=" E_B64 ",1,\n", "size" },
		{ "a,sha256=" E_B64 "=,0\n", "hash is not" },
		{ "a,sha384=" E_B64 ",0\n", "hash is not" },
		{ "a,md5=1B2M2Y8AsgTpgAmY7PhCfg,0\n", "hash is not" },
		{ "a,sha256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU,0\n",
		  "hash is not" },
		{ "a,,\nb,,\na,,\n", "twice" },
		{ "a,,\r\r\n", "hash is not" },
		{ "", "empty" },
	};
	struct wheel_record r;
	char err[256];

	ok(record(pip, &r, err, sizeof err) == 0, "pip's RECORD: %s", err);
	ok(r.nfile == 4 && r.file[0].script && r.file[0].hashed &&
	    r.file[0].size == 214 && !r.file[1].hashed && !r.file[1].script &&
	    r.file[3].path_len == 15 && memcmp(r.file[3].path,
	    "mcp_echo/a b.py", 15) == 0, "four files, read as written");
	ok(r.file[2].sha256[0] == 0xe3 && r.file[2].sha256[31] == 0x55,
	    "the hash decoded");
	wheel_record_free(&r);
	ok(record("a,,", &r, err, sizeof err) == 0 && r.nfile == 1,
	    "a last line without its newline");
	wheel_record_free(&r);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ok(record(bad[i].text, &r, err, sizeof err) == -1 &&
		    strstr(err, bad[i].why) && r.file == NULL,
		    "refused %zu: %s", i, err);
	ok(record("a,,\nb,sha256=" E_B64 ",x\n", &r, err, sizeof err) == -1 &&
	    strncmp(err, "line 2:", 7) == 0, "the line named: %s", err);
}

static int
scripts(const char *s, struct wheel_script *out, size_t *n, char *err,
    size_t cap)
{
	return wheel_console_scripts((const uint8_t *)s, strlen(s), out, n,
	    err, cap);
}

static void
entry_points(void)
{
	static const char good[] =
	    "[gui_scripts]\r\n"
	    "x = anything goes: [here]\n"
	    "\n"
	    "# a comment\n"
	    "[ console_scripts ]\n"
	    "mcp-echo = mcp_echo.server:main\n"
	    "# another\n"
	    "echo2=mcp_echo._cli:App.run   \n"
	    "   \n";
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "x = a:b\n", "before any section" },
		{ "[console_scripts]\nx = a:b [cli]\n", "extras" },
		{ "[console_scripts]\nx = a\n", "MODULE:ATTR" },
		{ "[console_scripts]\nx = a.:b\n", "identifiers" },
		{ "[console_scripts]\nx = a:b.\n", "identifiers" },
		{ "[console_scripts]\nx = 1a:b\n", "identifiers" },
		{ "[console_scripts]\nx = a:b;c\n", "identifiers" },
		{ "[console_scripts]\nx = a:b()\n", "identifiers" },
		{ "[console_scripts]\nx = a:\n", "identifiers" },
		{ "[console_scripts]\nx = \xc3\xa9:b\n", "printable" },
		{ "[console_scripts]\nx: a:b\n", "NAME = MODULE" },
		{ "[console_scripts]\n= a:b\n", "no script name" },
		{ "[console_scripts]\n-x = a:b\n", "name's shape" },
		{ "[console_scripts]\nx/y = a:b\n", "name's shape" },
		{ "[console_scripts]\nx = a:b\nx = c:d\n", "twice" },
		{ "[console_scripts]\nx = a:b\n  c\n", "indented" },
		{ "[console_scripts]\n  # x\n", "indented" },
		{ "[console_scripts]\n; x\n", "NAME = MODULE" },
		{ "[console_scripts\nx = a:b\n", "section" },
		{ "[console_scripts]\nx = a:b\x01\n", "printable" },
	};
	struct wheel_script s[WHEEL_SCRIPTS_MAX];
	char err[256], *many;
	size_t n, k = 0;

	ok(scripts(good, s, &n, err, sizeof err) == 0 && n == 2, "two "
	    "console scripts: %s", err);
	ok(strcmp(s[0].name, "mcp-echo") == 0 && strcmp(s[0].module,
	    "mcp_echo.server") == 0 && strcmp(s[0].attr, "main") == 0 &&
	    strcmp(s[1].name, "echo2") == 0 && strcmp(s[1].attr, "App.run") ==
	    0, "read as written");
	ok(scripts("", s, &n, err, sizeof err) == 0 && n == 0, "none");
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ok(scripts(bad[i].text, s, &n, err, sizeof err) == -1 &&
		    strstr(err, bad[i].why), "refused %zu: %s", i, err);
	many = malloc(65 * 32 + 32);
	k = (size_t)sprintf(many, "[console_scripts]\n");
	for (int i = 0; i < 65; i++)
		k += (size_t)sprintf(many + k, "s%d = m:f\n", i);
	ok(scripts(many, s, &n, err, sizeof err) == -1 && strstr(err, "64"),
	    "65 scripts: %s", err);
	free(many);
}

int
main(void)
{
	records();
	entry_points();
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
