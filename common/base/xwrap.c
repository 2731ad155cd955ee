/* xwrap.c - die() and the x-wrappers: in common/, the only code that
 * exits (applets and per-request children call exit themselves too); and
 * the table of exit codes. */
#include "common/base/xwrap.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"

const struct exit_code_desc exit_code_table[] = {
	{ EXIT_OK, "ok" },
	{ EXIT_USAGE, "usage" },
	{ EXIT_DATAERR, "bad data (sandbox: verify or compile failed)" },
	{ EXIT_UNAVAILABLE, "unavailable (runner unreachable, connection lost)" },
	{ EXIT_SOFTWARE, "internal error" },
	{ EXIT_OSERR, "system error (a jail step, a spawn)" },
	{ EXIT_IOERR, "I/O error" },
	{ EXIT_TEMPFAIL, "ended by the service, retry (sandbox: shutdown; "
	    "relay: --max-lease-duration)" },
	{ EXIT_PROTOCOL, "the peer broke the protocol" },
	{ EXIT_NOPERM, "refused (guard, env policy, approval, caps)" },
	{ EXIT_CONFIG, "configuration" },
	{ EXIT_AUTH, "handshake failed: wrong secret or not an airlock/1 peer" },
	{ EXIT_TIMEOUT, "sandbox: wall-clock limit" },
	{ EXIT_LIMIT, "sandbox: memory, cpu, output, pids or disk limit" },
	{ EXIT_UNKNOWN_APPLET, "unknown applet" },
	{ -1, NULL }
};

static void (*die_hook)(int code, const char *msg);
static pid_t die_hook_pid;

void
die_set_hook(void (*hook)(int code, const char *msg))
{
	die_hook = hook;
	die_hook_pid = getpid();
}

static _Noreturn void
die_va(int code, int err, const char *fmt, va_list ap)
{
	char msg[1024];
	size_t n;

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (err) {
		n = strlen(msg);
		snprintf(msg + n, sizeof msg - n, ": %s", strerror(err));
	}
	log_msg(LOG_ERROR, "%s", msg);
	if (die_hook && getpid() == die_hook_pid)
		die_hook(code, msg);
	exit(code);
}

void
die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	die_va(code, 0, fmt, ap);
}

void
die_errno(int code, const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	die_va(code, err, fmt, ap);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die(EXIT_OSERR, "out of memory (%zu bytes)", n);
	return p;
}

void *
xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p)
		die(EXIT_OSERR, "out of memory (%zu x %zu bytes)", count, size);
	return p;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die(EXIT_OSERR, "out of memory");
	return p;
}
