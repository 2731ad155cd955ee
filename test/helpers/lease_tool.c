/* lease_tool.c - a stand-in "MCP server" for the lease tests: each
 * subcommand does one thing a real server (or a hostile one) might do.
 *   echo                 copy stdin to stdout until EOF, exit 0
 *   stderr TEXT          write TEXT and a newline to stderr, exit 0
 *   exit N               exit with status N
 *   signal N             kill itself with signal N
 *   env                  print the environment, one entry per line
 *   doublefork PIDFILE   setsid + double fork: the grandchild writes its
 *                        pid to PIDFILE and sleeps; the server sleeps too
 *   ignore-term PIDFILE  ignore SIGTERM, write own pid, sleep
 *   sleep                sleep forever (a server waiting for input)
 *   zeros N              write N zero bytes to stdout, exit 0
 * Called as "npx" it first drops "-y PACKAGE" (a stand-in for a pinned
 * package run through npx), then does the rest. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
write_pid(const char *path, pid_t pid)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if (!(f = fopen(tmp, "w")))
		exit(2);
	fprintf(f, "%d\n", (int)pid);
	fclose(f);
	rename(tmp, path);	/* the test never sees a half-written file */
}

static _Noreturn void
sleep_forever(void)
{
	for (;;)
		pause();
}

int
main(int argc, char **argv)
{
	extern char **environ;
	char buf[65536];
	ssize_t n;

	const char *base = strrchr(argv[0], '/');

	if (strcmp(base ? base + 1 : argv[0], "npx") == 0 && argc >= 3 &&
	    strcmp(argv[1], "-y") == 0) {
		argv += 2;
		argc -= 2;
	}
	if (argc < 2)
		return 64;
	/* the guard takes scripts as paths below a --script-dir: the
	 * command is the path's last component */
	if (strrchr(argv[1], '/'))
		argv[1] = strrchr(argv[1], '/') + 1;
	if (strcmp(argv[1], "echo") == 0) {
		while ((n = read(0, buf, sizeof buf)) > 0)
			if (write(1, buf, (size_t)n) != n)
				return 1;
		return n < 0;
	}
	if (strcmp(argv[1], "stderr") == 0 && argc == 3) {
		fprintf(stderr, "%s\n", argv[2]);
		return 0;
	}
	if (strcmp(argv[1], "exit") == 0 && argc == 3)
		return atoi(argv[2]);
	if (strcmp(argv[1], "signal") == 0 && argc == 3) {
		signal(atoi(argv[2]), SIG_DFL);
		raise(atoi(argv[2]));
		return 1;
	}
	if (strcmp(argv[1], "env") == 0) {
		for (char **e = environ; *e; e++)
			puts(*e);
		return 0;
	}
	if (strcmp(argv[1], "doublefork") == 0 && argc == 3) {
		pid_t p = fork();

		if (p == 0) {
			setsid();
			if (fork() == 0) {
				close(0);
				write_pid(argv[2], getpid());
				sleep_forever();
			}
			_exit(0);
		}
		sleep_forever();
	}
	if (strcmp(argv[1], "ignore-term") == 0 && argc == 3) {
		signal(SIGTERM, SIG_IGN);
		write_pid(argv[2], getpid());
		sleep_forever();
	}
	if (strcmp(argv[1], "sleep") == 0)
		sleep_forever();
	if (strcmp(argv[1], "zeros") == 0 && argc == 3) {
		long long left = atoll(argv[2]);

		memset(buf, 0, sizeof buf);
		while (left > 0) {
			n = write(1, buf, left < (long long)sizeof buf ?
			    (size_t)left : sizeof buf);
			if (n <= 0)
				return 1;
			left -= n;
		}
		return 0;
	}
	return 64;
}
