/* sbx_jwarm.h - a warm Java slot's stage, run INSIDE the slot's jail as
 * `airlock sandbox _java-stage --warm` while the slot waits (sbx_exec.h,
 * sbx_warm.h), and the Java loader its JVM runs.
 *
 * Before the call (the service's time, charged to no tenant):
 *   1. the stage's own Landlock layer (as the cold stage's: the JVM
 *      writes only where the tool may), the work directories, and two
 *      sources of airlock's own written read-only into .airlock: the
 *      loader (WarmLoader.java) and a warm-up (Warm.java);
 *   2. a helper is forked (twice: its parent is the jail's pid 1, not
 *      the JVM), then the stage execs the JVM in its place, so the JVM is
 *      the execution's main process as a cold start's `java` is: its exit
 *      status, signals and the heap-exhaustion SIGKILL are the tool's.
 *      The JVM runs the loader from source (java's source launcher:
 *      compiled in memory, never a file the tool can write), with
 *      --limit-modules java.base,jdk.compiler and an empty sealed jar
 *      (sbx_jar.h) as its class path (without -cp it would be the work
 *      directory, the tool's files); the loader compiles the
 *      warm-up three times with javax.tools (javac's classes loaded and
 *      compiled), then says W on fd 4;
 *   3. the helper loads the denylist and writes SBX_STAGE_READY on stdout:
 *      the slot is ready.
 * At the call: the helper reads the tool's files from stdin (the record
 * of sbx_warm.h, read exactly: the rest is the tool's input) and writes
 * them into the work directory as the jail writes a cold start's; checks
 * the names as the cold stage does; asks the JVM on fd 3 to compile them
 * (C, the same javac options as the cold stage's) into .airlock/classes;
 * on javac's verdict reads every class file with common/javacheck, and
 * sends the JVM the very bytes that passed (K); with every file passed
 * it writes the stage record (sbx_stage.h) and says R with the main
 * class, then exits. Only then does the JVM define a class of the tool's:
 * from those bytes in memory (findClass of its own loader, whose parent
 * is the platform loader), never from a file, so nothing the tool writes
 * later is ever loaded. A compile or check failure writes its record and
 * says Q (the JVM exits).
 *
 * What the loader exposes: nothing by name. The tool's classes resolve
 * names through their loader's parent, the platform loader, which knows
 * java.base and java.compiler but not the loader's classes (the source
 * launcher's memory loader) nor jdk.compiler's (the application
 * loader's); javax.tools, java.util.spi.ToolProvider (javac by name) and
 * ClassLoader are in the denylist, and reflection is. The loader closes
 * the streams it opened on fds 3 and 4 before main; fds 3 and 4
 * themselves stay open (Java closes no descriptor by number), but the
 * helper has exited: pipes with no one at the other end.
 *
 * Frames are <= 65535 bytes of name; class bytes u32; all big-endian:
 *   helper -> JVM (fd 3): 'C' n:u16 (len:u16 name)*n | 'K' len:u16 name
 *     size:u32 bytes | 'R' len:u16 main | 'Q'
 *   JVM -> helper (fd 4): 'W' once; per C: status:u8 len:u32 message */
#ifndef AIRLOCK_SBX_JWARM_H
#define AIRLOCK_SBX_JWARM_H

#include "common/sandbox/sbx_java.h"

/* The warm-up's RLIMIT_CPU allowance (seconds) on top of the call's
 * backstop: RLIMIT_CPU counts a process's whole life, so a warm JVM
 * needs a CPU cgroup, whose reading from the call's start is its limit
 * (sbx_exec refuses a warm Java slot without one). */
#define SBX_JWARM_CPU_S 120

/* The loader's and the warm-up's sources, NUL-terminated. */
extern const char sbx_jwarm_loader[];
extern const char sbx_jwarm_warmup[];

/* Run the warm stage (o->warm, no files): returns only on failure (an
 * exit status; the stage record said why on stdout when it could). */
int sbx_jwarm_stage(const struct sbx_java_opts *o);

#endif
