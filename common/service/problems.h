/* problems.h - a preflight (--check) reports every problem of a service's
 * configuration in one run. Each start-up step that fails hands its
 * message and exit code to problems_note: in a preflight the message is
 * logged as the service's own refusal is ("PROG: error: MESSAGE") and
 * start-up goes on with the steps that do not depend on the failed one;
 * when the service itself starts, it stops at the first, as always. */
#ifndef AIRLOCK_PROBLEMS_H
#define AIRLOCK_PROBLEMS_H

struct problems {
	int preflight;		/* note each one and go on */
	unsigned n;		/* noted so far */
};

/* A failed step (code != 0, message msg). The service: code, start-up
 * stops there and msg is the caller's to report. A preflight: msg is
 * logged now, and 0: go on. */
int problems_note(struct problems *p, int code, const char *msg);

/* After the last step: 0 when nothing was noted, else EXIT_CONFIG (every
 * problem already logged). */
int problems_status(const struct problems *p);

#endif
