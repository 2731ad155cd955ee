/* xwrap_test.c - die() and die_errno() exit with the given code and one
 * escaped line; the x-allocators return memory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/xwrap.h"
#include "tap.h"

/* Run fn in a child with stderr on a pipe; its exit code and output. */
static int
run(void (*fn)(void), char *out, size_t cap)
{
	int fds[2], status = -1;
	ssize_t n;
	pid_t pid;

	if (pipe(fds) != 0)
		return -1;
	fflush(stdout);	/* the child must not repeat our TAP lines */
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		fn();
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], out, cap - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void
call_die(void)
{
	die(EXIT_CONFIG, "secret file %s is empty", "/run/s\n");
}

static void
call_die_errno(void)
{
	errno = ENOENT;
	die_errno(EXIT_OSERR, "cannot open %s", "x");
}

int
main(void)
{
	char out[512];
	void *p;

	log_init("unit");
	ok(run(call_die, out, sizeof out) == EXIT_CONFIG,
	    "die exits with its code (78)");
	ok(strcmp(out, "unit: error: secret file /run/s\\x0a is empty\n") == 0,
	    "die writes one escaped line");
	ok(run(call_die_errno, out, sizeof out) == EXIT_OSERR,
	    "die_errno exits with its code (71)");
	ok(strcmp(out, "unit: error: cannot open x: No such file or "
	    "directory\n") == 0, "die_errno appends strerror");
	p = xmalloc(0);
	ok(p != NULL, "xmalloc(0) returns memory");
	free(p);
	p = xcalloc(4, 8);
	ok(p && memcmp(p, "\0\0\0\0\0\0\0\0", 8) == 0, "xcalloc zeroes");
	free(p);
	p = xstrdup("abc");
	ok(p && strcmp(p, "abc") == 0, "xstrdup copies");
	free(p);
	{
		int prev = -1, has80 = 0, n = 0;

		for (const struct exit_code_desc *e = exit_code_table;
		    e->meaning; e++, n++) {
			ok(e->code > prev, "exit code %d listed in order",
			    e->code);
			prev = e->code;
			has80 |= e->code == EXIT_AUTH && e->code == 80;
		}
		ok(has80 && n == 15, "the table lists all 15 codes, 80 too");
	}
	return tap_done();
}
