/* signal_fd.c - blocked signals read through a signalfd. */
#include "common/base/signal_fd.h"

#include <signal.h>
#include <sys/signalfd.h>

int
signal_fd_open(const int *sigs, size_t n)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < n; i++)
		sigaddset(&set, sigs[i]);
	if (sigprocmask(SIG_BLOCK, &set, NULL) != 0)
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}
