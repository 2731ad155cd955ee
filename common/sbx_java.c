/* sbx_java.c - compile, check, run: the Java stage inside the jail. */
#include "sbx_java.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "javacheck.h"
#include "sbx_exec.h"
#include "sbx_stage.h"

#define DIR_OWN ".airlock"
#define DIR_CLASSES ".airlock/classes"
#define DIR_LAUNCH ".airlock/launch"
#define DIR_EMPTY ".airlock/empty"
#define LAUNCH_SRC ".airlock/Launch.java"
#define LAUNCH_REL SBX_JAVA_LAUNCH_PKG "/Launch.class"
#define NAMES_MAX 4096

const char sbx_java_launch_src[] =
"// airlock sandbox launcher: loads every checked class, then runs main.\n"
"// Names are fully qualified so nothing in the tool can shadow them.\n"
"package airlock_sandbox;\n"
"\n"
"final class Launch {\n"
"\tprivate static boolean started;\n"
"\n"
"\tprivate Launch() {\n"
"\t}\n"
"\n"
"\tpublic static void main(java.lang.String[] a) throws java.lang.Throwable {\n"
"\t\tsynchronized (Launch.class) {\n"
"\t\t\tif (started)\n"
"\t\t\t\tthrow new java.lang.IllegalStateException(\"airlock: the launcher runs once\");\n"
"\t\t\tstarted = true;\n"
"\t\t}\n"
"\t\tjava.lang.ClassLoader l = Launch.class.getClassLoader();\n"
"\t\tint n = java.lang.Integer.parseInt(a[1]);\n"
"\t\tfor (int i = 0; i < n; i++)\n"
"\t\t\tjava.lang.Class.forName(a[2 + i], false, l);\n"
"\t\tjava.lang.reflect.Method m = java.lang.Class.forName(a[0], false, l)\n"
"\t\t    .getMethod(\"main\", java.lang.String[].class);\n"
"\t\tif (!java.lang.reflect.Modifier.isStatic(m.getModifiers()))\n"
"\t\t\tthrow new java.lang.NoSuchMethodException(a[0] + \".main is not static\");\n"
"\t\ttry {\n"
"\t\t\tm.invoke(null, (java.lang.Object) new java.lang.String[0]);\n"
"\t\t} catch (java.lang.reflect.InvocationTargetException e) {\n"
"\t\t\tthrow e.getCause();\n"
"\t\t}\n"
"\t}\n"
"}\n";

static void
put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* The stage record on stdout: the first bytes the sandbox reads. */
static int
record(int status, uint64_t cpu_us, const char *detail, size_t len)
{
	uint8_t hdr[SBX_STAGE_HEADER_LEN];
	size_t off = 0;

	if (len > SBX_DETAIL_MAX)
		len = SBX_DETAIL_MAX;
	memcpy(hdr, SBX_STAGE_MAGIC, SBX_STAGE_MAGIC_LEN);
	hdr[SBX_STAGE_MAGIC_LEN] = (uint8_t)status;
	put_be(hdr + SBX_STAGE_MAGIC_LEN + 1, cpu_us, 8);
	put_be(hdr + SBX_STAGE_MAGIC_LEN + 9, len, 4);
	while (off < sizeof hdr + len) {
		const uint8_t *p = off < sizeof hdr ? hdr + off :
		    (const uint8_t *)detail + (off - sizeof hdr);
		size_t n = off < sizeof hdr ? sizeof hdr - off :
		    sizeof hdr + len - off;
		ssize_t w = write(STDOUT_FILENO, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

/* Record status with the message what + arg (both may be NULL). */
static int
fail(int status, const char *what, const char *arg)
{
	char msg[SBX_DETAIL_MAX];
	int n = snprintf(msg, sizeof msg, "%s%s", what ? what : "",
	    arg ? arg : "");

	record(status, 0, msg, n < 0 ? 0 : (size_t)n > sizeof msg - 1 ?
	    sizeof msg - 1 : (size_t)n);
	return 0;
}

static int
write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	size_t n = strlen(text), off = 0;

	if (fd < 0)
		return -1;
	while (off < n) {
		ssize_t w = write(fd, text + off, n - off);

		if (w <= 0 && errno != EINTR) {
			close(fd);
			return -1;
		}
		if (w > 0)
			off += (size_t)w;
	}
	return close(fd);
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
	uint64_t cpu_us;
	int status;
};

/* Run javac with its stdout and stderr on a pipe; keep the head. */
static int
run_javac(char **argv, struct compile *c)
{
	int p[2];
	pid_t pid;
	struct rusage ru;
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
	while (wait4(pid, &c->status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	c->cpu_us = (uint64_t)ru.ru_utime.tv_sec * 1000000 +
	    (uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_sec *
	    1000000 + (uint64_t)ru.ru_stime.tv_usec;
	return 0;
}

struct names {
	char *v[NAMES_MAX];
	size_t n;
};

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Binary names of the class files below dir (prefix: "a.b." so far). */
static int
collect(const char *dir, const char *prefix, struct names *nm, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d || depth > JAVACHECK_DEPTH_MAX)
		return -1;
	while (rc == 0 && (e = readdir(d))) {
		char path[4096], name[4096];
		size_t len = strlen(e->d_name);
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (lstat(path, &st) != 0) {
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			snprintf(name, sizeof name, "%s%s.", prefix, e->d_name);
			rc = collect(path, name, nm, depth + 1);
		} else if (S_ISREG(st.st_mode) && len > 6 &&
		    strcmp(e->d_name + len - 6, ".class") == 0) {
			if (nm->n == NAMES_MAX)
				rc = -1;
			else if (!(nm->v[nm->n] = malloc(strlen(prefix) +
			    len)))
				rc = -1;
			else
				snprintf(nm->v[nm->n++], strlen(prefix) + len,
				    "%s%.*s", prefix, (int)(len - 6), e->d_name);
		}
	}
	closedir(d);
	return rc;
}

int
sbx_java_stage(const struct sbx_java_opts *o)
{
	static struct names nm;
	static struct compile c;
	struct javacheck_policy pol;
	struct javacheck_stats stats;
	char javac[4096], java[4096], xmx[64], jxmx[64], main_cls[256];
	char why[JAVACHECK_WHY_MAX], err[256], count[32];
	char *jargv[64 + 256], **argv;
	const char *entry = o->files[0];
	size_t elen = strlen(entry), a = 0;
	enum javacheck_status js;
	int dfd;

	if (o->nfiles == 0 || elen < 6 || strcmp(entry + elen - 5, ".java") ||
	    !java_ident(entry, elen - 5) || elen - 5 >= sizeof main_cls)
		return fail(SBX_STAGE_COMPILE, "the first file must be NAME.java, "
		    "NAME the tool's main class; got ", entry);
	memcpy(main_cls, entry, elen - 5);
	main_cls[elen - 5] = '\0';
	if ((o->denylist ? javacheck_policy_load(&pol, o->denylist, err,
	    sizeof err) : javacheck_policy_default(&pol, err, sizeof err)) != 0)
		return fail(SBX_STAGE_ERROR, "Java denylist: ", err);
	snprintf(javac, sizeof javac, "%s/bin/javac", o->java_home);
	snprintf(java, sizeof java, "%s/bin/java", o->java_home);
	snprintf(jxmx, sizeof jxmx, "-J-Xmx%lluk",
	    (unsigned long long)(o->heap >> 10));
	snprintf(xmx, sizeof xmx, "-Xmx%lluk",
	    (unsigned long long)(o->heap >> 10));
	if (mkdir(DIR_OWN, 0700) || mkdir(DIR_CLASSES, 0700) ||
	    mkdir(DIR_LAUNCH, 0700) || mkdir(DIR_EMPTY, 0700) ||
	    mkdir(DIR_LAUNCH "/" SBX_JAVA_LAUNCH_PKG, 0700) ||
	    write_file(LAUNCH_SRC, sbx_java_launch_src))
		return fail(SBX_STAGE_ERROR, "cannot prepare the work directory: ",
		    strerror(errno));
	/* 1. compile: only the given sources, nothing found implicitly */
	{
		static char *const fixed[] = {
			"-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1",
			"-J-XX:-UsePerfData", "-J-Xshare:auto", "-proc:none",
			"-implicit:none", "-encoding", "UTF-8", "-Xmaxerrs", "20",
			"-d", DIR_CLASSES, "-classpath", DIR_EMPTY,
			"-sourcepath", DIR_EMPTY, LAUNCH_SRC,
		};
		size_t nsrc = 0;

		jargv[a++] = javac;
		jargv[a++] = jxmx;
		for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
			jargv[a++] = fixed[i];
		for (size_t i = 0; i < o->nfiles && a < 64 + 250; i++) {
			size_t n = strlen(o->files[i]);

			if (n > 5 && strcmp(o->files[i] + n - 5, ".java") == 0) {
				jargv[a++] = o->files[i];
				nsrc++;
			}
		}
		jargv[a] = NULL;
		if (run_javac(jargv, &c) != 0)
			return fail(SBX_STAGE_ERROR, "cannot run javac: ",
			    strerror(errno));
		if (!WIFEXITED(c.status) || WEXITSTATUS(c.status) != 0) {
			if (c.len == 0)
				c.len = (size_t)snprintf(c.out, sizeof c.out,
				    "javac ended with status %d", c.status);
			record(SBX_STAGE_COMPILE, c.cpu_us, c.out, c.len);
			return 0;
		}
	}
	/* 2. our launcher leaves the tree it shares with the tool */
	if (rename(DIR_CLASSES "/" LAUNCH_REL, DIR_LAUNCH "/" LAUNCH_REL) != 0)
		return fail(SBX_STAGE_ERROR, "the launcher did not compile: ",
		    strerror(errno));
	if (rmdir(DIR_CLASSES "/" SBX_JAVA_LAUNCH_PKG) != 0) {
		static const char reserved[] = "package " SBX_JAVA_LAUNCH_PKG
		    " is reserved for the sandbox's launcher";

		record(SBX_STAGE_VERIFY, c.cpu_us, reserved,
		    sizeof reserved - 1);
		return 0;
	}
	/* 3. every class file against the denylist */
	dfd = open(DIR_CLASSES, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (dfd < 0)
		return fail(SBX_STAGE_ERROR, "cannot open the classes: ",
		    strerror(errno));
	js = javacheck_tree(&pol, dfd, &stats, why, sizeof why);
	close(dfd);
	if (js != JAVACHECK_OK) {
		record(js == JAVACHECK_ERROR ? SBX_STAGE_ERROR :
		    SBX_STAGE_VERIFY, c.cpu_us, why, strlen(why));
		return 0;
	}
	/* 4. the names to load first, then java */
	if (collect(DIR_CLASSES, "", &nm, 0) != 0 || nm.n == 0)
		return fail(SBX_STAGE_ERROR, "cannot list the classes", NULL);
	qsort(nm.v, nm.n, sizeof nm.v[0], cmp);
	{
		char path[512];
		struct stat st;

		snprintf(path, sizeof path, DIR_CLASSES "/%s.class", main_cls);
		if (lstat(path, &st) != 0)
			return fail(SBX_STAGE_COMPILE, "the first file must declare "
			    "the tool's main class ", main_cls);
	}
	argv = calloc(nm.n + 32, sizeof *argv);
	if (!argv)
		return fail(SBX_STAGE_ERROR, "out of memory", NULL);
	a = 0;
	argv[a++] = java;
	argv[a++] = xmx;
	argv[a++] = "-XX:+UseSerialGC";
	argv[a++] = "-XX:TieredStopAtLevel=1";
	argv[a++] = "-XX:+ExitOnOutOfMemoryError";
	argv[a++] = "-XX:-UsePerfData";
	argv[a++] = "-XX:+DisableAttachMechanism";
	argv[a++] = "-Xshare:auto";
	argv[a++] = "-cp";
	argv[a++] = DIR_CLASSES ":" DIR_LAUNCH;
	argv[a++] = SBX_JAVA_LAUNCH_PKG ".Launch";
	argv[a++] = main_cls;
	snprintf(count, sizeof count, "%zu", o->no_preload ? 0 : nm.n);
	argv[a++] = count;
	for (size_t i = 0; i < nm.n && !o->no_preload; i++)
		argv[a++] = nm.v[i];
	argv[a] = NULL;
	if (record(SBX_STAGE_OK, c.cpu_us, "", 0) != 0)
		return 70;
	execv(java, argv);
	fprintf(stderr, "airlock: cannot exec %s: %s\n", java, strerror(errno));
	return 127;
}
