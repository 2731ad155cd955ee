/* sbx_java.h - the Java stage, run INSIDE the execution's jail as
 * `airlock sandbox _java-stage` (its cwd is the jail's work directory,
 * holding the tenant's files):
 *   1. javac (-proc:none: no annotation processor, so no tenant code runs
 *      while compiling) on the tenant's .java files and on our launcher,
 *      into .airlock/classes; a failure ends here as compile_failed with
 *      the compiler's message;
 *   2. our launcher's class file moves out of the tree; the package
 *      airlock_sandbox is ours alone;
 *   3. every class file javac produced (inner, anonymous, local classes
 *      too) is read by common/javacheck; one refused reference or one
 *      malformed file ends here as verify_failed naming it;
 *   4. the stage record (sbx_exec.h) goes to stdout, and java replaces
 *      this process: heap from the memory limit (-Xmx, never an address-
 *      space limit), serial GC, -XX:+ExitOnOutOfMemoryError, the class
 *      path .airlock/classes:.airlock/launch only.
 * The launcher (airlock_sandbox.Launch) loads every checked class before
 * the tool's first instruction runs and then calls its main: the work
 * directory is the tool's to write, so a class file changed later is
 * never read. It runs once (a second call throws), exposes nothing else,
 * and is not subject to the denylist: it is ours. */
#ifndef AIRLOCK_SBX_JAVA_H
#define AIRLOCK_SBX_JAVA_H

#include <stddef.h>
#include <stdint.h>

struct sbx_java_opts {
	const char *java_home;	/* bin/javac and bin/java below it */
	uint64_t heap;		/* bytes: -Xmx of javac and of java */
	const char *denylist;	/* a denylist file, or NULL: built-in */
	char **files;		/* the tenant's files; files[0] is NAME.java */
	size_t nfiles;
	int no_preload;		/* test hook (A/B): load classes lazily */
};

/* Run the stage; returns only on failure to exec java (an exit status
 * for the process: the record said so on stdout already) or after a
 * compile or verify failure (0: the record tells). */
int sbx_java_stage(const struct sbx_java_opts *o);

/* The launcher's source, for tests. */
extern const char sbx_java_launch_src[];

#endif
