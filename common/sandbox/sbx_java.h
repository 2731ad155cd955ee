/* sbx_java.h - the Java stage, run INSIDE the execution's jail as
 * `airlock sandbox _java-stage` (its cwd is the jail's work directory,
 * holding the tenant's files):
 *   1. javac (-proc:none: no annotation processor, so no tenant code runs
 *      while compiling; --limit-modules java.base) on the tenant's .java
 *      files into .airlock/classes; a failure ends here as compile_failed
 *      with the compiler's message;
 *   2. every class file javac produced (inner, anonymous, local classes
 *      too) is read once by common/javacheck; one refused reference or
 *      one malformed file ends here as verify_failed naming it; the bytes
 *      that passed go into a jar in a sealed memfd (common/sbx_jar);
 *   3. the stage record (sbx_stage.h) goes to stdout, and java replaces
 *      this process: heap from the memory limit (-Xmx, never an address-
 *      space limit), serial GC, heap exhaustion ending it by SIGKILL
 *      (-XX:OnOutOfMemoryError: the reason memory, sbx_exec.c), java.base
 *      alone, and the class path /proc/self/fd/N, the sealed jar, alone.
 * Whatever the tool writes (its work directory, /tmp) is on no class
 * path, and the jar cannot change: every class the JVM can load by name
 * from the class path is a class javacheck passed. */
#ifndef AIRLOCK_SBX_JAVA_H
#define AIRLOCK_SBX_JAVA_H

#include <stddef.h>
#include <stdint.h>

struct javacheck_policy;

/* The module graph of javac and java: java.base alone. Other modules
 * reach code by names in data (java.xml's XSLT extension functions call
 * any public method, jdk.dynalink links any call, java.naming loads
 * factories), which no reference check of the tool's classes sees. */
#define SBX_JAVA_MODULES "java.base"
/* The stage's own directories in the work directory. */
#define SBX_JAVA_DIR_OWN ".airlock"
#define SBX_JAVA_DIR_CLASSES ".airlock/classes"
#define SBX_JAVA_DIR_EMPTY ".airlock/empty"

struct sbx_java_opts {
	const char *java_home;	/* bin/javac and bin/java below it */
	uint64_t heap;		/* bytes: -Xmx of javac and of java */
	const char *denylist;	/* a denylist file, or NULL: built-in */
	char **files;		/* the tenant's files; files[0] is NAME.java */
	size_t nfiles;
	char **args;		/* the tool's main(String[]) words */
	size_t nargs;		/* at most SBX_ARGS_MAX */
	int unconfined;		/* test hook (A/B): the class path is the
				 * writable .airlock/classes directory, and
				 * no Landlock layer of the stage's own */
	int warm;		/* a warm slot's stage (sbx_jwarm.h): no
				 * files, they come on stdin */
};

/* Run the stage; returns only on failure to exec java (an exit status
 * for the process: the record said so on stdout already) or after a
 * compile or verify failure (0: the record tells). */
int sbx_java_stage(const struct sbx_java_opts *o);

/* What the cold stage and the warm one (sbx_jwarm.c) share. Each that
 * can fail has written the stage record saying why when it returns -1. */

/* The stage record on stdout (sbx_stage.h): status and detail[0..len),
 * cut at SBX_DETAIL_MAX. 0, or -1 when stdout failed. */
int sbx_java_record(int status, const char *detail, size_t len);
/* The record status with the message what + arg (both may be NULL);
 * returns 0. */
int sbx_java_fail(int status, const char *what, const char *arg);
/* The main class from files[0] (NAME.java, NAME an identifier) into
 * cls[clslen]; no file name may start with '-'. 0, or -1. */
int sbx_java_main_class(char *const *files, size_t nfiles, char *cls,
    size_t clslen);
/* The denylist of o (its file, or the built-in one) into pol (free it
 * with javacheck_policy_free). 0, or -1. */
int sbx_java_policy(const struct sbx_java_opts *o,
    struct javacheck_policy *pol);
/* .airlock, its classes and empty directories in the cwd. 0, or -1. */
int sbx_java_workdirs(void);
/* The JVM's own flags (heap xmx, GC, heap exhaustion by SIGKILL, no
 * attach, CDS) appended to argv from a; returns the new count (8 more). */
size_t sbx_java_jvm_flags(char **argv, size_t a, char *xmx);
/* The JVM may write only where the tool may (its work directory, TMPDIR,
 * HOME, /dev/shm, harmless devices): a Landlock layer of the stage's
 * own. 0 (or 0 without Landlock), or -1 with errno. */
int sbx_java_confine_writes(void);

#endif
