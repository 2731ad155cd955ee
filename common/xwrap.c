/* xwrap.c - the only place besides die() that may exit the process. */
#include "xwrap.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

static _Noreturn void
die_va(int code, int err, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (err)
		log_msg(LOG_ERROR, "%s: %s", msg, strerror(err));
	else
		log_msg(LOG_ERROR, "%s", msg);
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
