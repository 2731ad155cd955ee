/* procscan_test.c - /proc/PID/status parsed for its owner: the fields
 * wherever they are, zombies told apart, four canonical uids or nothing,
 * names cut to the buffer; and the real scan finds this very process,
 * and (as root) a process of another uid that made itself non-dumpable
 * (its /proc files are root's then), which the scan's skip of tasks with
 * no memory of their own (kernel threads) must not take for one. */
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/procscan.h"
#include "tap.h"

static int
find_self(void *ctx, const struct proc_owner *o)
{
	return o->pid == *(const pid_t *)ctx ? 7 : 0;
}

#define HIDDEN_UID 7999901u

static int
find_hidden(void *ctx, const struct proc_owner *o)
{
	return o->pid == *(const pid_t *)ctx && o->uid[0] == HIDDEN_UID &&
	    o->uid[1] == HIDDEN_UID ? 1 : 0;
}

/* A child of HIDDEN_UID, not dumpable, waiting on a pipe; -1 when not
 * root. */
static pid_t
hidden_child(int *hold)
{
	int p[2];
	pid_t pid;
	char c;

	if (geteuid() != 0 || pipe(p) != 0)
		return -1;
	if ((pid = fork()) == 0) {
		close(p[1]);
		if (setresgid(HIDDEN_UID, HIDDEN_UID, HIDDEN_UID) != 0 ||
		    setresuid(HIDDEN_UID, HIDDEN_UID, HIDDEN_UID) != 0 ||
		    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
			_exit(1);
		(void)read(p[0], &c, 1);
		_exit(0);
	}
	close(p[0]);
	*hold = p[1];
	return pid;
}

int
main(void)
{
	static const char good[] = "Name:\tsleep\nUmask:\t0022\nState:\tS "
	    "(sleeping)\nTgid:\t5\nUid:\t1000\t1001\t1002\t1003\nGid:\t0\t0"
	    "\t0\t0\n";
	static const char *const bad[] = {
		"Name:\tx\nState:\tS\nUid:\t1\t2\t3\n",		/* three */
		"Name:\tx\nState:\tS\nUid:\t1\t2\t3\t4\t5\n",	/* five */
		"Name:\tx\nState:\tS\nUid:\t1\t2\t3\t04\n",	/* zero */
		"Name:\tx\nState:\tS\nUid:\t1\t2\t3\t4294967296\n",
		"Name:\tx\nState:\tS\nUid:\t-1\t2\t3\t4\n",
		"Name:\tx\nUid:\t1\t2\t3\t4\n",			/* no State */
		"State:\tS\nUid:\t1\t2\t3\t4\n",		/* no Name */
		"Name:\tx\nState:\tS\nXUid:\t1\t2\t3\t4\n",
		"",
	};
	struct proc_owner o;
	uint32_t u;
	pid_t me = getpid();

	ok(procscan_status_parse(good, strlen(good), &o) == 0 &&
	    o.uid[0] == 1000 && o.uid[3] == 1003 && strcmp(o.comm, "sleep") == 0,
	    "a live task: four uids and its name");
	ok(proc_owner_in_range(&o, 1002, 1002, &u) == 1 && u == 1002,
	    "the saved uid counts for the range");
	ok(proc_owner_in_range(&o, 1004, 2000, &u) == 0, "no uid in range");
	ok(procscan_status_parse("Name:\tz\nState:\tZ (zombie)\nUid:\t1\t1\t1"
	    "\t1\n", 35, &o) == 1, "a zombie is told apart");
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ok(procscan_status_parse(bad[i], strlen(bad[i]), &o) == -1,
		    "refused: case %zu", i);
	ok(procscan_status_parse(good, 10, &o) == -1,
	    "only len bytes are read");
	ok(procscan(-1, find_self, &me) == 7, "the scan finds this process");
	ok(procscan(me, find_self, &me) == 0, "except skips it");
	{
		int hold = -1;
		pid_t h = hidden_child(&hold);
		int found = 0;

		for (int i = 0; h > 0 && i < 200 && !found; i++) {
			found = procscan(-1, find_hidden, &h) == 1;
			if (!found)
				usleep(5000);	/* until its uid change */
		}
		if (h > 0) {
			ok(found, "a non-dumpable process of another uid is "
			    "found with its uids");
			close(hold);
			waitpid(h, NULL, 0);
		} else {
			ok(1, "# SKIP not root: no process of another uid");
		}
	}
	return tap_done();
}
