/* sbx_env.h - what every execution of one `sandbox run` or one `sandbox
 * serve` shares, made once at start-up: the jail (common/jail: mode, uid
 * range, state directory, cgroup, Landlock, limits at their maxima, an
 * empty network namespace, a read-only view with python3, the exec command
 * and the JDK with the configuration it links to outside itself), the
 * seccomp program, a custom Java denylist's text and this binary for the
 * Java stage: the struct sbx_exec_env that sbx_exec takes. */
#ifndef AIRLOCK_SBX_ENV_H
#define AIRLOCK_SBX_ENV_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "common/jail/jail.h"
#include "common/sandbox/sbx_exec.h"
#include "common/sandbox/sbx_proto.h"

/* The jail options of run, serve and check. */
struct sbx_jail_opts {
	enum jail_mode mode;
	uint32_t uid_first, uid_last;
	const char *state_dir;
	const char *cgroup;		/* a delegated cgroup v2 directory */
	enum jail_landlock landlock;
	uint64_t disk;			/* 0: half the execution's memory */
	const char *python;		/* absolute path of python3 */
	const char *java_home;		/* NULL: no Java */
	const char *denylist;		/* a custom Java denylist, or NULL */
};

struct sbx_env {
	struct sbx_exec_env exec;	/* what sbx_exec takes */
	struct jail jail;
	struct sock_fprog seccomp;
	char self[PATH_MAX];
	char *deny_text;
	size_t deny_len;
	const char *ro[16];
	size_t nro;
	const char *launchers[2];	/* python, the exec command */
	char ro_buf[8][2 * NAME_MAX + 3];	/* "/etc/java-17-openjdk": two
					 * components of a JDK's links */
};

enum sbx_env_status {
	SBX_ENV_OK = 0,
	SBX_ENV_BAD_SETUP,	/* the state directory, the denylist, a jail
				 * this host cannot build: the configuration */
	SBX_ENV_SYSTEM,		/* this binary not found, out of memory */
};

/* The writable space of an execution with this memory limit: disk, or
 * half the limit (tmpfs pages count against it: the tool keeps the other
 * half, and a full disk ends as disk, not as an OOM kill); at most
 * max_disk, at least 1 MiB. */
uint64_t sbx_env_disk(uint64_t disk, uint64_t memory, uint64_t max_disk);

/* The part of a jail configuration o names (mode, uids, state directory,
 * cgroup, Landlock, an empty network), into a zeroed cfg. */
void sbx_env_jail_config(const struct sbx_jail_opts *o,
    struct jail_config *cfg);

/* Make e (it must not move: e->exec points into it) for o: the jail's
 * limits at max (an execution applies its own to its copy) and its disk
 * sbx_env_disk(o->disk, max->memory, max_disk); exec_cmd is run's command
 * or serve's --exec-interpreter (NULL: none); one_shot and check_only as
 * in struct jail_config; sigfd the signals that stop an execution (-1:
 * none). The state directory is made, a custom denylist parsed first (a
 * bad one is a start-up error, not a failure of every Java request). On
 * failure err says why. */
enum sbx_env_status sbx_env_init(struct sbx_env *e,
    const struct sbx_jail_opts *o, const struct sbx_limits *max,
    uint64_t max_disk, int sigfd, int one_shot, int check_only,
    const char *exec_cmd, char *err, size_t errlen);

/* JAVA_HOME from javac on PATH (realpath(javac) minus "/bin/javac"), in a
 * static buffer, or NULL when there is none. */
const char *sbx_env_java_home(void);

#endif
