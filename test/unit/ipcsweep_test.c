/* ipcsweep_test.c - the /proc/sysvipc tables as the kernel writes them
 * (a negative key, the creator's uid differing from the owner's), the
 * lines the parser must refuse, the cap, and, as root, the real thing: a
 * child running as a uid nothing uses makes a shared memory segment, a
 * message queue and a semaphore set, then ipcsweep_remove takes each away
 * (checked in the kernel's own tables, with an A/B before). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/jail/ipcsweep.h"
#include "tap.h"

#define U 3900000007u	/* a uid nothing runs as */

static const char shm[] =
    "       key      shmid perms                  size  cpid  lpid nattch"
    "   uid   gid  cuid  cgid      atime      dtime      ctime           "
    "        rss                  swap\n"
    "1603934463          0   644                  4096 17967     0      0"
    " 3900000007 3900000007 3900000007 3900000007          0          0 "
    "1796284178                     0                     0\n"
    "         0         32   600                 65536   100   100      1"
    "     0     0 3900000007     0          0          0 1796284178      "
    "               0                     0\n"
    "         0         33   600                 65536   100   100      1"
    "  1000  1000  1000  1000          0          0 1796284178           "
    "          0                     0\n";

static const char msg[] =
    "       key      msqid perms      cbytes       qnum lspid lrpid   uid"
    "   gid  cuid  cgid      stime      rtime      ctime\n"
    "-425802237          5   644           0          0     0     0 "
    "3900000007 3900000007 3900000007 3900000007          0          0 "
    "1796284178\n";

static const char sem[] =
    "       key      semid perms      nsems   uid   gid  cuid  cgid      "
    "otime      ctime\n"
    "         0          7   600          1 3900000007 0 0 0 0 1796284178\n"
    "         0          8   600          1 0 0 3900000007 0 0 1796284178\n";

static void
test_parse(void)
{
	int ids[4];
	size_t n;
	char bad[512];

	ok(ipcsweep_parse(shm, sizeof shm - 1, IPC_TABLE_SHM, U, ids, 4,
	    &n) == 0 && n == 2 && ids[0] == 0 && ids[1] == 32,
	    "shm: the owner's and the creator's segments (0, 32), not 33");
	ok(ipcsweep_parse(msg, sizeof msg - 1, IPC_TABLE_MSG, U, ids, 4,
	    &n) == 0 && n == 1 && ids[0] == 5, "msg: a negative key, id 5");
	ok(ipcsweep_parse(sem, sizeof sem - 1, IPC_TABLE_SEM, U, ids, 4,
	    &n) == 0 && n == 2 && ids[0] == 7 && ids[1] == 8,
	    "sem: owner (7) and creator (8)");
	ok(ipcsweep_parse(shm, sizeof shm - 1, IPC_TABLE_SHM, 1000, ids, 4,
	    &n) == 0 && n == 1 && ids[0] == 33, "another uid: only its own");
	ok(ipcsweep_parse(shm, sizeof shm - 1, IPC_TABLE_SHM, U, ids, 1,
	    &n) == 0 && n == 2 && ids[0] == 0, "over the cap: counted, not "
	    "stored");
	ok(ipcsweep_parse("header only\n", 12, IPC_TABLE_SHM, U, ids, 4,
	    &n) == 0 && n == 0, "an empty table");
	snprintf(bad, sizeof bad, "h\n 0 1 600 1 %s 0 0 0 0 0\n",
	    "39000000070");
	ok(ipcsweep_parse(bad, strlen(bad), IPC_TABLE_SEM, U, ids, 4, &n) ==
	    -1, "a uid over 32 bits is refused, not wrapped");
	snprintf(bad, sizeof bad, "h\n 0 1 600 1 -5 0 0 0 0 0\n");
	ok(ipcsweep_parse(bad, strlen(bad), IPC_TABLE_SEM, U, ids, 4, &n) ==
	    -1, "a signed uid is refused");
	snprintf(bad, sizeof bad, "h\n 0 1 600 1 3900000007\n");
	ok(ipcsweep_parse(bad, strlen(bad), IPC_TABLE_SEM, U, ids, 4, &n) ==
	    -1, "a line cut before the creator column is refused");
	snprintf(bad, sizeof bad, "h\n 0 2147483648 600 1 0 0 0 0\n");
	ok(ipcsweep_parse(bad, strlen(bad), IPC_TABLE_SEM, 0, ids, 4, &n) ==
	    -1, "an id over INT_MAX is refused");
	ok(ipcsweep_parse(sem, sizeof sem - 2, IPC_TABLE_SEM, U, ids, 4,
	    &n) == 0 && n == 2, "a last line without its newline still "
	    "parses");
}

/* How many objects of uid the kernel lists in table t. */
static size_t
listed(const char *path, enum ipc_table t)
{
	char buf[65536];
	int ids[64];
	size_t len, n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	if (ipcsweep_parse(buf, len, t, U, ids, 64, &n) != 0)
		return 999;
	return n;
}

static size_t
all_listed(void)
{
	return listed("/proc/sysvipc/shm", IPC_TABLE_SHM) +
	    listed("/proc/sysvipc/msg", IPC_TABLE_MSG) +
	    listed("/proc/sysvipc/sem", IPC_TABLE_SEM);
}

/* In a child as U: make one object of each kind (phase 0), or sweep
 * (phase 1). Its exit status says how it went. */
static int
as_u(int phase)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		if (setgroups(0, NULL) != 0 || setresgid(U, U, U) != 0 ||
		    setresuid(U, U, U) != 0)
			_exit(2);
		if (phase == 0)
			_exit(shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600) < 0 ||
			    msgget(IPC_PRIVATE, IPC_CREAT | 0600) < 0 ||
			    semget(IPC_PRIVATE, 1, IPC_CREAT | 0600) < 0);
		_exit(ipcsweep_remove(U) == 0 ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void
test_live(void)
{
	if (geteuid() != 0) {
		tap_skip("the sweep of a uid's IPC objects", "needs root (to "
		    "run as a uid nothing uses)");
		return;
	}
	ok(as_u(0) == 0 && all_listed() == 3, "a uid makes a segment, a "
	    "queue and a semaphore set: the kernel lists 3 (the A/B)");
	ok(as_u(1) == 0 && all_listed() == 0, "ipcsweep_remove as that uid: "
	    "none is left");
}

int
main(void)
{
	test_parse();
	test_live();
	return tap_done();
}
