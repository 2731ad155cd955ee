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

struct sbx_java_opts {
	const char *java_home;	/* bin/javac and bin/java below it */
	uint64_t heap;		/* bytes: -Xmx of javac and of java */
	const char *denylist;	/* a denylist file, or NULL: built-in */
	char **files;		/* the tenant's files; files[0] is NAME.java */
	size_t nfiles;
	int unconfined;		/* test hook (A/B): the class path is the
				 * writable .airlock/classes directory, and
				 * no Landlock layer of the stage's own */
};

/* Run the stage; returns only on failure to exec java (an exit status
 * for the process: the record said so on stdout already) or after a
 * compile or verify failure (0: the record tells). */
int sbx_java_stage(const struct sbx_java_opts *o);

#endif
