/* problems_test.c - a preflight notes every problem and goes on; the
 * service stops at the first, logging nothing itself (its caller reports
 * the message). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/xwrap.h"
#include "common/service/problems.h"
#include "tap.h"

/* What was logged (stderr is the file f) since the last call, into buf. */
static const char *
logged(FILE *f, char *buf, size_t cap)
{
	static long seen;
	ssize_t got = pread(fileno(f), buf, cap - 1, seen);

	buf[got > 0 ? got : 0] = '\0';
	seen += got > 0 ? got : 0;
	return buf;
}

int
main(void)
{
	struct problems svc = { 0 }, pre = { .preflight = 1 };
	FILE *f = tmpfile();
	char buf[1024];

	if (!f || dup2(fileno(f), 2) < 0)
		return 1;
	log_init("unit");
	log_set_format("human");
	ok(problems_status(&pre) == 0, "nothing noted: status 0");
	ok(problems_note(&svc, EXIT_USAGE, "--listen: bad") == EXIT_USAGE &&
	    svc.n == 0 && !*logged(f, buf, sizeof buf),
	    "the service: the step's own code, nothing logged");
	ok(problems_note(&pre, EXIT_USAGE, "--listen: bad") == 0 &&
	    strcmp(logged(f, buf, sizeof buf), "unit: error: --listen: bad\n")
	    == 0, "a preflight: go on, the problem logged as the service's "
	    "refusal");
	ok(problems_note(&pre, EXIT_CONFIG, "state directory /x: missing") ==
	    0 && strcmp(logged(f, buf, sizeof buf), "unit: error: state "
	    "directory /x: missing\n") == 0 && pre.n == 2,
	    "the next one too, both counted");
	ok(problems_status(&pre) == EXIT_CONFIG,
	    "any problem: the preflight's status is EXIT_CONFIG (78)");
	return tap_done();
}
