/* hostile.c - a hostile "MCP server" for the jail and Landlock tests: each
 * subcommand attempts one thing a malicious package would, and prints one
 * line per attempt, "what: ok" or "what: ERRNO_NAME", so the test compares
 * words, never guesses. Installed as "node" in a private PATH, so the
 * runner's guard takes it for `node SCRIPT`.
 *
 *   victim                 print "pid: N" and "home: DIR", write HOME/secret,
 *                          then sleep (the lease being attacked)
 *   attack PID HOME FILE RUNNER
 *                          against the victim (PID, HOME) and the runner
 *                          (its secret FILE, its pid RUNNER): read environ,
 *                          open mem, read cmdline, status, maps, list fd,
 *                          read HOME/secret, ptrace, SIGKILL, read FILE,
 *                          open RUNNER's mem, environ, cmdline; regain root and
 *                          capabilities, create a user namespace; count
 *                          the processes /proc shows
 *   read FILE | write FILE | list DIR   one attempt each
 *   cat FILE               print FILE (or "cat: ERRNO")
 *   view                   what the root view holds: "mount PATH",
 *                          "link PATH -> TARGET", "file PATH" from / down
 *                          (mount points and links are not entered)
 *   connect PORT | bind    TCP on 127.0.0.1
 *   signal PID             kill(PID, SIGTERM)
 *   abstract NAME          connect to the abstract unix socket @NAME
 *   doublefork             setsid + double fork: print "grandchild: PID",
 *                          both sleep
 *   ignore-term            ignore SIGTERM, print "pid: N", sleep
 *   forkbomb N             fork up to N children that sleep; print
 *                          "forks: K" and the errno that stopped it, sleep
 *   memhog MIB             touch MIB MiB, 1 MiB at a time, printing
 *                          "touched: K" every 16 MiB, then sleep
 *   fill DIR MIB [hidden]  write up to MIB files of 1 MiB into DIR (made,
 *                          relative to HOME), printing "filled: K" every
 *                          4 MiB, then "fill: ok" or the errno that stopped
 *                          it; sleep (the lease stays open). hidden: each
 *                          file is unlinked once written and kept open, so
 *                          no directory shows it
 *   memspread N KIB        fork N children that each touch KIB KiB and
 *                          sleep (a hog whose every process is small),
 *                          print "spread: N", sleep
 *   oom                    print "oom_score_adj: N" (our own), then try
 *                          to lower it to 0: "oom-lower: ok|ERRNO"
 *   echo                   stdin to stdout
 *   sleep                  print "pid: N", sleep
 * Outside a lease (the same-uid scoping test, no runner):
 *   listen NAME            listen on @NAME, print "ready", accept forever
 *   scoped on|off PID NAME apply only Landlock's scoping and TCP bind
 *                          rule (on) or nothing, then try kill(PID, 0),
 *                          connect @NAME and a TCP bind */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <dirent.h>
#include <sched.h>
#include <unistd.h>

#include "common/jail/landlock.h"
#include "test/helpers/attempt_say.h"

/* The outcome of an attempt on fd that failed or not: 0, or the errno
 * of the failure; fd is closed either way. */
static int
outcome(int fd, int failed)
{
	int e = failed ? errno : 0;

	close(fd);
	return e;
}

static int
try_read(const char *path)
{
	char buf[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	return outcome(fd, read(fd, buf, sizeof buf) < 0);
}

static int
try_write(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return errno;
	return outcome(fd, write(fd, "x\n", 2) != 2);
}

/* Connect to a loopback TCP port, or bind one (port 0: any) and listen. */
static int
try_tcp(int port, int listener)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
		.sin_port = htons((uint16_t)port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return errno;
	if (!listener)
		return outcome(fd, connect(fd, (struct sockaddr *)&a,
		    sizeof a) != 0);
	return outcome(fd, bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
	    listen(fd, 1) != 0);
}

static socklen_t
abstract_addr(struct sockaddr_un *a, const char *name)
{
	size_t n = strlen(name);

	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	if (n > sizeof a->sun_path - 2)
		n = sizeof a->sun_path - 2;
	memcpy(a->sun_path + 1, name, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

static int
try_abstract(const char *name)
{
	struct sockaddr_un a;
	socklen_t len = abstract_addr(&a, name);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return errno;
	return outcome(fd, connect(fd, (struct sockaddr *)&a, len) != 0);
}

/* Open DIR and read one entry: the /proc/PID/fd listing. */
static int
try_list(const char *path)
{
	DIR *d = opendir(path);
	int e = 0;

	if (!d)
		return errno;
	errno = 0;
	if (!readdir(d) && errno)
		e = errno;
	closedir(d);
	return e;
}

static int
count_procs(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] >= '0' && e->d_name[0] <= '9';
	closedir(d);
	return n;
}

static void
victim(void)
{
	const char *home = getenv("HOME");
	char path[4096];

	printf("pid: %d\nhome: %s\n", (int)getpid(), home ? home : "");
	snprintf(path, sizeof path, "%s/secret", home ? home : ".");
	say("write-home-secret", try_write(path));
	sleep_forever();
}

/* "WHO-ENTRY: outcome" for reading each /proc/PID/ENTRY (listing fd). */
static void
say_proc(const char *who, const char *pid, const char *const *entries)
{
	char path[4096], what[64];

	for (; *entries; entries++) {
		snprintf(path, sizeof path, "/proc/%s/%s", pid, *entries);
		snprintf(what, sizeof what, "%s-%s", who, *entries);
		say(what, strcmp(*entries, "fd") == 0 ? try_list(path) :
		    try_read(path));
	}
}

static void
attack(const char *pid, const char *home, const char *file,
    const char *runner)
{
	char path[4096];
	pid_t v = (pid_t)atoi(pid);
	long caps = -1;
	FILE *f;

	say_proc("victim", pid, (const char *const []){ "environ", "mem",
	    "cmdline", "status", "maps", "fd", NULL });
	snprintf(path, sizeof path, "%s/secret", home);
	say("victim-home", try_read(path));
	say("victim-ptrace", ptrace(PTRACE_ATTACH, v, NULL, NULL) == 0 ? 0 :
	    errno);
	say("victim-kill", kill(v, SIGKILL) == 0 ? 0 : errno);
	say("runner-secret", try_read(file));
	say_proc("runner", runner, (const char *const []){ "mem", "environ",
	    "cmdline", NULL });
	say("setuid-0", setuid(0) == 0 ? 0 : errno);
	say("setresuid-0", setresuid(0, 0, 0) == 0 ? 0 : errno);
	say("unshare-user", unshare(CLONE_NEWUSER) == 0 ? 0 : errno);
	if ((f = fopen("/proc/self/status", "r"))) {
		char line[256];

		while (fgets(line, sizeof line, f))
			if (strncmp(line, "CapEff:", 7) == 0 ||
			    strncmp(line, "CapPrm:", 7) == 0 ||
			    strncmp(line, "CapBnd:", 7) == 0 ||
			    strncmp(line, "CapAmb:", 7) == 0 ||
			    strncmp(line, "NoNewPrivs:", 11) == 0 ||
			    strncmp(line, "Seccomp:", 8) == 0)
				fputs(line, stdout);
		fclose(f);
	}
	(void)caps;
	printf("procs: %d\nuid: %d\n", count_procs(), (int)getuid());
	fflush(stdout);
}

/* Walk the file tree from dir without following symlinks: print each
 * mount point ("mount PATH", not entered), symlink ("link PATH -> T")
 * and file ("file PATH") it finds; directories of the same file system
 * are entered. What the jail's root view holds, for the allowlist. */
static void
view(const char *dir, dev_t dev)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		printf("unlistable %s %s\n", dir, errname(errno));
		return;
	}
	while ((e = readdir(d))) {
		char p[4096], t[4096];
		struct stat st;
		ssize_t n;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", strcmp(dir, "/") ? dir : "",
		    e->d_name);
		if (lstat(p, &st) != 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			n = readlink(p, t, sizeof t - 1);
			t[n > 0 ? n : 0] = '\0';
			printf("link %s -> %s\n", p, t);
		} else if (st.st_dev != dev) {
			printf("mount %s\n", p);
		} else if (S_ISDIR(st.st_mode)) {
			view(p, dev);
		} else {
			printf("file %s\n", p);
		}
	}
	closedir(d);
}

static void
cat(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		say("cat", errno);
		return;
	}
	while ((n = read(fd, buf, sizeof buf)) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	fflush(stdout);
}

static void
doublefork(void)
{
	int p[2];
	pid_t c;

	if (pipe(p) != 0)
		exit(2);
	c = fork();
	if (c == 0) {
		setsid();
		if (fork() == 0) {
			char line[64];
			int n = snprintf(line, sizeof line, "grandchild: %d\n",
			    (int)getpid());

			(void)!write(p[1], line, (size_t)n);
			close(p[1]);
			close(1);
			close(2);
			sleep_forever();
		}
		_exit(0);
	}
	close(p[1]);
	waitpid(c, NULL, 0);
	{
		char buf[64];
		ssize_t n = read(p[0], buf, sizeof buf);

		if (n > 0)
			(void)!write(1, buf, (size_t)n);
	}
	printf("pid: %d\n", (int)getpid());
	fflush(stdout);
	sleep_forever();
}

static void
forkbomb(int max)
{
	int n = 0, e = 0;

	for (; n < max; n++) {
		pid_t c = fork();

		if (c < 0) {
			e = errno;
			break;
		}
		if (c == 0) {
			close(1);
			sleep_forever();
		}
	}
	printf("forks: %d\n", n);
	say("fork-stopped-by", e);
	sleep_forever();
}

static void
memhog(long mib)
{
	for (long i = 1; i <= mib; i++) {
		char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			say("mmap", errno);
			sleep_forever();
		}
		memset(p, 0x5a, 1 << 20);
		if (i % 16 == 0) {
			printf("touched: %ld\n", i);
			fflush(stdout);
		}
	}
	printf("survived: %ld\n", mib);
	fflush(stdout);
	sleep_forever();
}

static void
fill(const char *dir, long mib, int hidden)
{
	static char buf[1 << 20];
	char path[4096];
	int e = 0;

	memset(buf, 0x5a, sizeof buf);
	if (chdir(getenv("HOME") ? getenv("HOME") : "/") != 0 ||
	    (mkdir(dir, 0700) != 0 && errno != EEXIST)) {
		say("fill", errno);
		sleep_forever();
	}
	for (long i = 1; i <= mib && !e; i++) {
		int fd;

		snprintf(path, sizeof path, "%s/f%ld", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			e = errno;
		for (size_t off = 0; fd >= 0 && !e && off < sizeof buf;) {
			ssize_t n = write(fd, buf + off, sizeof buf - off);

			if (n < 0)
				e = errno;
			else
				off += (size_t)n;
		}
		if (fd >= 0 && hidden)
			(void)unlink(path);	/* the fd keeps its blocks */
		else if (fd >= 0)
			close(fd);
		if (i % 4 == 0) {
			printf("filled: %ld\n", i);
			fflush(stdout);
		}
	}
	say("fill", e);
	sleep_forever();
}

static void
memspread(int n, long kib)
{
	for (int i = 0; i < n; i++) {
		pid_t c = fork();

		if (c < 0) {
			say("fork", errno);
			break;
		}
		if (c == 0) {
			char *p = mmap(NULL, (size_t)kib << 10, PROT_READ |
			    PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			close(1);
			if (p != MAP_FAILED)
				memset(p, 0x5a, (size_t)kib << 10);
			sleep_forever();
		}
	}
	printf("spread: %d\n", n);
	fflush(stdout);
	sleep_forever();
}

static void
oom(void)
{
	char buf[32];
	int fd = open("/proc/self/oom_score_adj", O_RDONLY);
	ssize_t r = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);

	if (fd >= 0)
		close(fd);
	buf[r > 0 ? r : 0] = 0;
	printf("oom_score_adj: %s", r > 0 ? buf : "unreadable\n");
	fd = open("/proc/self/oom_score_adj", O_WRONLY);
	say("oom-lower", fd < 0 ? errno : write(fd, "0", 1) == 1 ? 0 : errno);
	if (fd >= 0)
		close(fd);
}

static void
listen_abstract(const char *name)
{
	struct sockaddr_un a;
	socklen_t len = abstract_addr(&a, name);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) != 0 ||
	    listen(fd, 16) != 0) {
		say("listen", errno);
		exit(1);
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		int c = accept(fd, NULL, NULL);

		if (c >= 0)
			close(c);
	}
}

static void
scoped(const char *on, const char *pid, const char *name)
{
	struct landlock_spec s;
	const char *step;

	if (strcmp(on, "on") == 0) {
		memset(&s, 0, sizeof s);
		s.abi = landlock_abi(NULL);
		s.features = LANDLOCK_FEAT_SCOPE_SIGNAL |
		    LANDLOCK_FEAT_SCOPE_ABSTRACT | LANDLOCK_FEAT_BIND;
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
		    landlock_apply(&s, &step) != 0) {
			say("landlock", errno);
			exit(1);
		}
	}
	say("signal", kill((pid_t)atoi(pid), 0) == 0 ? 0 : errno);
	say("abstract", try_abstract(name));
	say("bind", try_tcp(0, 1));
}

int
main(int argc, char **argv)
{
	char buf[65536];
	ssize_t n;

	if (argc < 2)
		return 64;
	/* the guard takes scripts as paths below a --script-dir: the
	 * command is the path's last component */
	if (strrchr(argv[1], '/'))
		argv[1] = strrchr(argv[1], '/') + 1;
	if (strcmp(argv[1], "victim") == 0)
		victim();
	else if (strcmp(argv[1], "attack") == 0 && argc == 6)
		attack(argv[2], argv[3], argv[4], argv[5]);
	else if (strcmp(argv[1], "read") == 0 && argc == 3)
		say("read", try_read(argv[2]));
	else if (strcmp(argv[1], "cat") == 0 && argc == 3)
		cat(argv[2]);
	else if (strcmp(argv[1], "view") == 0) {
		struct stat st;

		if (stat("/", &st) == 0)
			view("/", st.st_dev);
		fflush(stdout);
	}
	else if (strcmp(argv[1], "write") == 0 && argc == 3)
		say("write", try_write(argv[2]));
	else if (strcmp(argv[1], "list") == 0 && argc == 3) {
		DIR *d = opendir(argv[2]);

		say("list", d ? 0 : errno);
		if (d)
			closedir(d);
	} else if (strcmp(argv[1], "connect") == 0 && argc == 3)
		say("connect", try_tcp(atoi(argv[2]), 0));
	else if (strcmp(argv[1], "bind") == 0)
		say("bind", try_tcp(0, 1));
	else if (strcmp(argv[1], "signal") == 0 && argc == 3)
		say("signal", kill((pid_t)atoi(argv[2]), SIGTERM) == 0 ? 0 :
		    errno);
	else if (strcmp(argv[1], "abstract") == 0 && argc == 3)
		say("abstract", try_abstract(argv[2]));
	else if (strcmp(argv[1], "doublefork") == 0)
		doublefork();
	else if (strcmp(argv[1], "ignore-term") == 0) {
		signal(SIGTERM, SIG_IGN);
		printf("pid: %d\n", (int)getpid());
		fflush(stdout);
		sleep_forever();
	} else if (strcmp(argv[1], "forkbomb") == 0 && argc == 3)
		forkbomb(atoi(argv[2]));
	else if (strcmp(argv[1], "fill") == 0 && (argc == 4 || (argc == 5 &&
	    strcmp(argv[4], "hidden") == 0)))
		fill(argv[2], atol(argv[3]), argc == 5);
	else if (strcmp(argv[1], "memhog") == 0 && argc == 3)
		memhog(atol(argv[2]));
	else if (strcmp(argv[1], "memspread") == 0 && argc == 4)
		memspread(atoi(argv[2]), atol(argv[3]));
	else if (strcmp(argv[1], "oom") == 0)
		oom();
	else if (strcmp(argv[1], "echo") == 0) {
		while ((n = read(0, buf, sizeof buf)) > 0)
			if (write(1, buf, (size_t)n) != n)
				return 1;
	} else if (strcmp(argv[1], "sleep") == 0) {
		printf("pid: %d\n", (int)getpid());
		fflush(stdout);
		sleep_forever();
	} else if (strcmp(argv[1], "listen") == 0 && argc == 3)
		listen_abstract(argv[2]);
	else if (strcmp(argv[1], "scoped") == 0 && argc == 5)
		scoped(argv[2], argv[3], argv[4]);
	else
		return 64;
	return 0;
}
