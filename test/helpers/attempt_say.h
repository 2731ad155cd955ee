/* attempt_say.h - how the stand-in servers (hostile, channel) report an
 * attempt: one line "what: ok" or "what: ERRNO_NAME", so a test compares
 * words, never guesses; and a server that holds what it made. */
#ifndef TEST_ATTEMPT_SAY_H
#define TEST_ATTEMPT_SAY_H

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

static const char *
errname(int e)
{
	switch (e) {
	case 0: return "ok";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ESRCH: return "ESRCH";
	case EAGAIN: return "EAGAIN";
	case EINVAL: return "EINVAL";
	case ENOSYS: return "ENOSYS";
	case EROFS: return "EROFS";
	case ECONNREFUSED: return "ECONNREFUSED";
	case ETIMEDOUT: return "ETIMEDOUT";
	case ENOMEM: return "ENOMEM";
	case EFBIG: return "EFBIG";
	case ENOSPC: return "ENOSPC";
	case EEXIST: return "EEXIST";
	case ENOTDIR: return "ENOTDIR";
	default: return "EOTHER";
	}
}

/* "what: ok" for err 0, else "what: ERRNO_NAME" */
static void
say(const char *what, int err)
{
	printf("%s: %s\n", what, errname(err));
	fflush(stdout);
}

static _Noreturn void
sleep_forever(void)
{
	for (;;)
		pause();
}

#endif
