/* sbx_java.c - compile, check, run: the Java stage inside the jail. */
#include "common/sandbox/sbx_java.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/fileio.h"
#include "common/sandbox/javacheck.h"
#include "common/jail/landlock.h"
#include "common/base/bounded_rw.h"
#include "common/sandbox/sbx_proto.h"
#include "common/sandbox/sbx_jar.h"
#include "common/sandbox/sbx_stage.h"

int
sbx_java_record(int status, const char *detail, size_t len)
{
	uint8_t hdr[SBX_STAGE_HEADER_LEN];
	struct wr w = wr_init(hdr, sizeof hdr);

	if (len > SBX_DETAIL_MAX)
		len = SBX_DETAIL_MAX;
	wr_bytes(&w, SBX_STAGE_MAGIC, SBX_STAGE_MAGIC_LEN);
	wr_u8(&w, (uint8_t)status);
	wr_u32(&w, (uint32_t)len);
	return w.bad || file_write_all(STDOUT_FILENO, hdr, sizeof hdr) != 0 ||
	    file_write_all(STDOUT_FILENO, detail, len) != 0 ? -1 : 0;
}

int
sbx_java_fail(int status, const char *what, const char *arg)
{
	char msg[SBX_DETAIL_MAX];
	int n = snprintf(msg, sizeof msg, "%s%s", what ? what : "",
	    arg ? arg : "");

	sbx_java_record(status, msg, n < 0 ? 0 : (size_t)n > sizeof msg - 1 ?
	    sizeof msg - 1 : (size_t)n);
	return 0;
}

/* A Java identifier in the ASCII subset, for the entry class. */
static int
java_ident(const char *s, size_t n)
{
	if (n == 0 || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '_' || s[i] == '$'))
			return 0;
	return 1;
}

struct compile {
	char out[SBX_DETAIL_MAX];	/* the compiler's first words */
	size_t len;
	int status;
};

/* Run javac with its stdout and stderr on a pipe; keep the head. */
static int
run_javac(char **argv, struct compile *c)
{
	int p[2];
	pid_t pid;
	uint8_t buf[4096];

	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		ssize_t n = read(p[0], buf, sizeof buf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (c->len < sizeof c->out) {
			size_t take = sizeof c->out - c->len;

			take = (size_t)n < take ? (size_t)n : take;
			memcpy(c->out + c->len, buf, take);
			c->len += take;
		}
	}
	close(p[0]);
	while (waitpid(pid, &c->status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* The JVM may write only where the tool may: its work directory,
 * $TMPDIR, $HOME, /dev/shm and the harmless device files. Not /proc
 * above all: a process may write its
 * own memory through /proc/self/mem, code pages included, and a tool
 * that rewrites its JVM's code runs anything, past every reference
 * check. The jail's Landlock (when on) refuses that too; this layer is
 * the stage's own, so the Java claim holds with --landlock off. A kernel
 * without Landlock has neither (docs/SECURITY.md). */
int
sbx_java_confine_writes(void)
{
	static const char *const dev[] = { "/dev/null", "/dev/zero",
		"/dev/full", "/dev/random", "/dev/urandom", "/dev/shm" };
	static struct landlock_spec s;
	static char cwd[PATH_MAX];
	const char *step, *tmp = getenv("TMPDIR"), *home = getenv("HOME");
	unsigned abi = landlock_abi(NULL);

	if (abi == 0)
		return 0;
	memset(&s, 0, sizeof s);
	s.abi = abi < LANDLOCK_ABI_KNOWN ? abi : LANDLOCK_ABI_KNOWN;
	s.features = LANDLOCK_FEAT_FS | (s.abi >= 3 ? LANDLOCK_FEAT_TRUNCATE :
	    0);
	s.ro[s.nro++] = "/";
	if (!getcwd(cwd, sizeof cwd))
		return -1;
	s.rw[s.nrw++] = cwd;
	for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
		s.rw[s.nrw++] = dev[i];
	if (tmp && tmp[0] == '/')
		s.rw[s.nrw++] = tmp;
	if (home && home[0] == '/')
		s.rw[s.nrw++] = home;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return landlock_apply(&s, &step);
}

static int
take_class(void *ctx, const char *path, const uint8_t *buf, size_t len)
{
	return sbx_jar_add(ctx, path, buf, len);
}

/* Check every class file javac wrote and, unless the test hook keeps
 * the writable directory as the class path, pack the bytes that passed
 * into a sealed jar. *done 0: *cp is the class path; *done 1: a record
 * said why not, and the return value is the stage's exit status. */
static int
check_and_pack(const struct javacheck_policy *pol, int writable,
    char *cp, size_t cplen, int *done)
{
	static struct sbx_jar jar;
	struct javacheck_stats stats;
	char why[JAVACHECK_WHY_MAX];
	enum javacheck_status js;
	int dfd, fd;

	*done = 1;
	jar.fd = -1;
	if (!writable && sbx_jar_open(&jar) != 0)
		return sbx_java_fail(SBX_STAGE_ERROR, "cannot make the class jar: ",
		    strerror(errno));
	dfd = open(SBX_JAVA_DIR_CLASSES, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (dfd < 0) {
		sbx_jar_free(&jar);
		return sbx_java_fail(SBX_STAGE_ERROR, "cannot open the classes: ",
		    strerror(errno));
	}
	js = javacheck_tree_take(pol, dfd, &stats, why, sizeof why,
	    writable ? NULL : take_class, &jar);
	close(dfd);
	if (js != JAVACHECK_OK) {
		sbx_jar_free(&jar);
		sbx_java_record(js == JAVACHECK_ERROR ? SBX_STAGE_ERROR :
		    SBX_STAGE_VERIFY, why, strlen(why));
		return 0;
	}
	if (writable) {
		snprintf(cp, cplen, "%s", SBX_JAVA_DIR_CLASSES);
	} else {
		if ((fd = sbx_jar_seal(&jar)) < 0)
			return sbx_java_fail(SBX_STAGE_ERROR, "cannot seal the class "
			    "jar: ", strerror(errno));
		snprintf(cp, cplen, "/proc/self/fd/%d", fd);
	}
	*done = 0;
	return 0;
}

int
sbx_java_main_class(char *const *files, size_t nfiles, char *cls,
    size_t clslen)
{
	const char *entry = nfiles ? files[0] : "";
	size_t elen = strlen(entry);

	if (nfiles == 0 || elen < 6 || strcmp(entry + elen - 5, ".java") ||
	    !java_ident(entry, elen - 5) || elen - 5 >= clslen) {
		sbx_java_fail(SBX_STAGE_COMPILE, "the first file must be "
		    "NAME.java, NAME the tool's main class; got ", entry);
		return -1;
	}
	memcpy(cls, entry, elen - 5);
	cls[elen - 5] = '\0';
	for (size_t i = 0; i < nfiles; i++)
		if (files[i][0] == '-') {
			sbx_java_fail(SBX_STAGE_COMPILE, "a file name may not "
			    "start with '-' (javac reads it as an option): ",
			    files[i]);
			return -1;
		}
	return 0;
}

int
sbx_java_policy(const struct sbx_java_opts *o, struct javacheck_policy *pol)
{
	char err[256];

	if ((o->denylist ? javacheck_policy_load(pol, o->denylist, err,
	    sizeof err) : javacheck_policy_default(pol, err, sizeof err)) != 0) {
		sbx_java_fail(SBX_STAGE_ERROR, "Java denylist: ", err);
		return -1;
	}
	return 0;
}

int
sbx_java_workdirs(void)
{
	if (mkdir(SBX_JAVA_DIR_OWN, 0700) || mkdir(SBX_JAVA_DIR_CLASSES, 0700) ||
	    mkdir(SBX_JAVA_DIR_EMPTY, 0700)) {
		sbx_java_fail(SBX_STAGE_ERROR, "cannot prepare the work "
		    "directory: ", strerror(errno));
		return -1;
	}
	return 0;
}

size_t
sbx_java_jvm_flags(char **argv, size_t a, char *xmx)
{
	argv[a++] = xmx;
	argv[a++] = "-XX:+UseSerialGC";
	argv[a++] = "-XX:TieredStopAtLevel=1";
	/* heap exhaustion ends the JVM by SIGKILL from a shell it spawns
	 * itself: a pure-Java tool cannot kill its own process (no process
	 * spawning, no native code, no ProcessHandle), so unlike exit
	 * status 3 or the "OutOfMemoryError" text, the reason memory cannot
	 * be forged, nor hidden by catching the error or closing stdout;
	 * exit 3 remains only if that shell cannot start */
	argv[a++] = "-XX:OnOutOfMemoryError=kill -9 %p";
	argv[a++] = "-XX:+ExitOnOutOfMemoryError";
	argv[a++] = "-XX:-UsePerfData";
	argv[a++] = "-XX:+DisableAttachMechanism";
	argv[a++] = "-Xshare:auto";
	return a;
}

int
sbx_java_stage(const struct sbx_java_opts *o)
{
	static struct compile c;
	struct javacheck_policy pol;
	char javac[4096], java[4096], xmx[64], jxmx[64], main_cls[256];
	char cp[64], path[512];
	char *jargv[64 + 256], *argv[32 + SBX_ARGS_MAX];
	size_t a = 0;
	struct stat st;
	int rc, done;

	if (sbx_java_main_class(o->files, o->nfiles, main_cls,
	    sizeof main_cls) != 0 || sbx_java_policy(o, &pol) != 0)
		return 0;
	snprintf(javac, sizeof javac, "%s/bin/javac", o->java_home);
	snprintf(java, sizeof java, "%s/bin/java", o->java_home);
	snprintf(jxmx, sizeof jxmx, "-J-Xmx%lluk",
	    (unsigned long long)(o->heap >> 10));
	snprintf(xmx, sizeof xmx, "-Xmx%lluk",
	    (unsigned long long)(o->heap >> 10));
	if (sbx_java_workdirs() != 0)
		return 0;
	/* 1. compile: only the given sources, nothing found implicitly */
	{
		static char *const fixed[] = {
			"-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1",
			"-J-XX:-UsePerfData", "-J-Xshare:auto", "-proc:none",
			"-implicit:none", "--limit-modules", SBX_JAVA_MODULES,
			"-encoding", "UTF-8", "-Xmaxerrs", "20",
			"-d", SBX_JAVA_DIR_CLASSES, "-classpath", SBX_JAVA_DIR_EMPTY,
			"-sourcepath", SBX_JAVA_DIR_EMPTY,
		};

		jargv[a++] = javac;
		jargv[a++] = jxmx;
		for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
			jargv[a++] = fixed[i];
		for (size_t i = 0; i < o->nfiles && a < 64 + 250; i++) {
			size_t n = strlen(o->files[i]);

			if (n > 5 && strcmp(o->files[i] + n - 5, ".java") == 0)
				jargv[a++] = o->files[i];
		}
		jargv[a] = NULL;
		if (run_javac(jargv, &c) != 0)
			return sbx_java_fail(SBX_STAGE_ERROR, "cannot run javac: ",
			    strerror(errno));
		if (!WIFEXITED(c.status) || WEXITSTATUS(c.status) != 0) {
			if (c.len == 0)
				c.len = (size_t)snprintf(c.out, sizeof c.out,
				    "javac ended with status %d", c.status);
			sbx_java_record(SBX_STAGE_COMPILE, c.out, c.len);
			return 0;
		}
	}
	snprintf(path, sizeof path, SBX_JAVA_DIR_CLASSES "/%s.class", main_cls);
	if (lstat(path, &st) != 0)
		return sbx_java_fail(SBX_STAGE_COMPILE, "the first file must declare "
		    "the tool's main class ", main_cls);
	/* 2. every class file against the denylist, into the sealed jar */
	rc = check_and_pack(&pol, o->unconfined, cp, sizeof cp, &done);
	javacheck_policy_free(&pol);
	if (done)
		return rc;
	if (!o->unconfined && sbx_java_confine_writes() != 0)
		return sbx_java_fail(SBX_STAGE_ERROR, "cannot confine the JVM's writes "
		    "(Landlock): ", strerror(errno));
	/* 3. java on the checked classes alone */
	a = 0;
	argv[a++] = java;
	a = sbx_java_jvm_flags(argv, a, xmx);
	argv[a++] = "--limit-modules";
	argv[a++] = SBX_JAVA_MODULES;
	argv[a++] = "-cp";
	argv[a++] = cp;
	argv[a++] = main_cls;
	/* after the main class: main(String[])'s words, which the launcher
	 * neither reads as options nor expands as @argfiles */
	for (size_t i = 0; i < o->nargs && i < SBX_ARGS_MAX; i++)
		argv[a++] = o->args[i];
	argv[a] = NULL;
	if (sbx_java_record(SBX_STAGE_OK, "", 0) != 0)
		return 70;
	execv(java, argv);
	fprintf(stderr, "airlock: cannot exec %s: %s\n", java, strerror(errno));
	return 127;
}
