/* sigfd.c - blocked signals read through a signalfd; random log ids. */
#include "common/base/sigfd.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/signalfd.h>

int
sigfd_open(const int *sigs, size_t n)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < n; i++)
		sigaddset(&set, sigs[i]);
	if (sigprocmask(SIG_BLOCK, &set, NULL) != 0)
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

int
random_id(char out[17])
{
	uint8_t b[8];

	if (getrandom(b, sizeof b, 0) != sizeof b)
		return -1;
	for (int i = 0; i < 8; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}
