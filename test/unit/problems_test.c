/* problems_test.c - a preflight notes every problem and goes on; the
 * service stops at the first, logging nothing itself (its caller reports
 * the message). */
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/xwrap.h"
#include "common/service/problems.h"
#include "tap.h"

/* problems_note(p, code, msg) with stderr captured into buf; its result */
static int
note(struct problems *p, int code, const char *msg, char *buf, size_t cap)
{
	int fds[2], saved = dup(2), rc;
	ssize_t got;

	if (pipe(fds) != 0 || saved < 0)
		return -1;
	dup2(fds[1], 2);
	rc = problems_note(p, code, msg);
	dup2(saved, 2);
	close(saved);
	close(fds[1]);
	got = read(fds[0], buf, cap - 1);
	close(fds[0]);
	buf[got > 0 ? got : 0] = '\0';
	return rc;
}

int
main(void)
{
	struct problems svc = { 0 }, pre = { .preflight = 1 };
	char buf[1024];

	log_init("unit");
	log_set_format("human");
	ok(problems_status(&pre) == 0, "nothing noted: status 0");
	ok(note(&svc, EXIT_USAGE, "--listen: bad", buf, sizeof buf) ==
	    EXIT_USAGE && buf[0] == '\0' && svc.n == 0,
	    "the service: the step's own code, nothing logged: '%s'", buf);
	ok(note(&pre, EXIT_USAGE, "--listen: bad", buf, sizeof buf) == 0 &&
	    strcmp(buf, "unit: error: --listen: bad\n") == 0,
	    "a preflight: go on, the problem logged as the service's "
	    "refusal");
	ok(note(&pre, EXIT_CONFIG, "state directory /x: No such file",
	    buf, sizeof buf) == 0 && strstr(buf, "state directory /x") &&
	    pre.n == 2, "the next one too, both counted");
	ok(problems_status(&pre) == EXIT_CONFIG,
	    "any problem: the preflight's status is EXIT_CONFIG (78)");
	return tap_done();
}
