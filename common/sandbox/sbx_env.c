/* sbx_env.c - the jail and the rest that every execution shares. */
#include "common/sandbox/sbx_env.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/fsutil.h"
#include "common/base/log.h"
#include "common/jail/seccomp_policy.h"
#include "common/sandbox/javacheck.h"

uint64_t
sbx_env_disk(uint64_t disk, uint64_t memory, uint64_t max_disk)
{
	uint64_t d = disk ? disk : memory / 2;

	d = d > max_disk ? max_disk : d;
	return d < (1u << 20) ? (1u << 20) : d;
}

void
sbx_env_jail_config(const struct sbx_jail_opts *o, struct jail_config *cfg)
{
	cfg->mode = o->mode;
	cfg->unit = JAIL_UNIT_LEASE;
	cfg->uid_first = o->uid_first;
	cfg->uid_last = o->uid_last;
	cfg->state_dir = o->state_dir;
	cfg->cgroup_dir = o->cgroup;
	cfg->new_net = 1;
	cfg->landlock = o->landlock;
}

const char *
sbx_env_java_home(void)
{
	static char home[PATH_MAX];
	const char *path = getenv("PATH");
	char cand[PATH_MAX];

	for (const char *p = path ? path : "/usr/bin"; *p; ) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len && len + 7 < sizeof cand) {
			memcpy(cand, p, len);
			memcpy(cand + len, "/javac", 7);
			if (access(cand, X_OK) == 0 && realpath(cand, home)) {
				size_t n = strlen(home);

				if (n > 10 && strcmp(home + n - 10,
				    "/bin/javac") == 0) {
					home[n - 10] = '\0';
					return home;
				}
			}
		}
		p = end ? end + 1 : p + len;
	}
	return NULL;
}

/* The JDK's configuration lives outside it on Debian (conf/ and lib/
 * link into /etc/java-17-openjdk): each link's target directory, two
 * levels deep when outside /usr, joins the jail's read-only list. */
static void
java_ro_paths(struct sbx_env *e, const char *java_home)
{
	static const char *const sub[] = { "conf", "conf/security",
		"conf/management", "lib" };
	size_t nbuf = 0;

	for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		char dir[PATH_MAX];
		DIR *d;
		struct dirent *de;

		snprintf(dir, sizeof dir, "%s/%s", java_home, sub[i]);
		if (!(d = opendir(dir)))
			continue;
		while ((de = readdir(d))) {
			char path[PATH_MAX + 256], real[PATH_MAX], *cut;
			struct stat st;
			int dup = 0;

			snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
			if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode) ||
			    !realpath(path, real) || strncmp(real, "/usr/", 5)
			    == 0 || real[0] != '/')
				continue;
			/* /etc/java-17-openjdk/x -> /etc/java-17-openjdk */
			cut = strchr(real + 1, '/');
			cut = cut ? strchr(cut + 1, '/') : NULL;
			if (!cut)
				continue;
			*cut = '\0';
			for (size_t k = 0; k < nbuf; k++)
				dup |= strcmp(e->ro_buf[k], real) == 0;
			if (dup || nbuf == sizeof e->ro_buf / sizeof e->ro_buf[0] ||
			    strlen(real) >= sizeof e->ro_buf[0])
				continue;
			memcpy(e->ro_buf[nbuf], real, strlen(real) + 1);
			e->ro[e->nro++] = e->ro_buf[nbuf++];
		}
		closedir(d);
	}
}

/* A custom denylist: parsed here first, then the very text parsed kept
 * for the Java stage (one read: what runs is what was checked). */
static enum sbx_env_status
read_denylist(struct sbx_env *e, const char *path, char *err, size_t errlen)
{
	struct javacheck_policy pol;
	char why[512];

	if (!path)
		return SBX_ENV_OK;
	if (javacheck_policy_load_text(&pol, path, &e->deny_text,
	    &e->deny_len, why, sizeof why) != 0) {
		snprintf(err, errlen, "--java-denylist: %s", why);
		return SBX_ENV_BAD_SETUP;
	}
	javacheck_policy_free(&pol);
	return SBX_ENV_OK;
}

enum sbx_env_status
sbx_env_init(struct sbx_env *e, const struct sbx_jail_opts *o,
    const struct sbx_limits *max, uint64_t max_disk, int sigfd, int one_shot,
    int check_only, const char *exec_cmd, char *err, size_t errlen)
{
	struct jail_config cfg;
	enum sbx_env_status st;
	ssize_t n;

	memset(e, 0, sizeof *e);
	n = readlink("/proc/self/exe", e->self, sizeof e->self - 1);
	if (n <= 0) {
		snprintf(err, errlen, "cannot find this binary "
		    "(/proc/self/exe): %s", n < 0 ? strerror(errno) :
		    "empty");
		return SBX_ENV_SYSTEM;
	}
	e->self[n] = '\0';
	seccomp_policy_program(&e->seccomp, SECCOMP_PROG_JAIL);
	if ((st = read_denylist(e, o->denylist, err, errlen)) != SBX_ENV_OK)
		return st;
	if (o->java_home) {
		e->ro[e->nro++] = o->java_home;
		java_ro_paths(e, o->java_home);
	}
	e->launchers[0] = o->python;
	e->launchers[1] = exec_cmd;
	memset(&cfg, 0, sizeof cfg);
	sbx_env_jail_config(o, &cfg);
	cfg.limits = (struct jail_limits){
		.memory = max->memory, .pids = max->pids,
		.nproc = max->pids, .nofile = 1024,
		.cpu_seconds = (max->cpu_ms + 999) / 1000 + 1,
		.disk = sbx_env_disk(o->disk, max->memory, max_disk),
	};
	cfg.ro_paths = e->ro;
	cfg.nro = e->nro;
	cfg.path = "/usr/local/bin:/usr/bin:/bin";
	cfg.launchers = e->launchers;
	cfg.nlaunchers = exec_cmd ? 2 : 1;
	/* the binary itself runs the Java stage inside the jail */
	cfg.self_exe = e->self;
	cfg.seccomp = &e->seccomp;
	cfg.one_shot = one_shot;
	cfg.check_only = check_only;
	if (fs_mkdir_private(o->state_dir, 0700) != 0) {
		snprintf(err, errlen, "state directory %s: %s", o->state_dir,
		    strerror(errno));
		return SBX_ENV_BAD_SETUP;
	}
	if (jail_init(&e->jail, &cfg, err, errlen) != 0)
		return SBX_ENV_BAD_SETUP;
	if (o->mode == JAIL_NONE)
		log_msg(LOG_WARN, "jail mode none: the tool runs as this "
		    "process's user, with its network and files "
		    "(development only)");
	else if (!e->jail.proc_private)
		log_msg(LOG_WARN, "uid mode: tools can read other executions' "
		    "/proc/PID/cmdline and status (%s); --jail ns hides them",
		    e->jail.host.proc_why);
	e->exec = (struct sbx_exec_env){
		.jail = &e->jail, .python = o->python,
		.java_home = o->java_home, .self_exe = jail_self_exe(&e->jail),
		.deny_text = e->deny_text, .deny_len = e->deny_len,
		.sigfd = sigfd,
		.use_cgroup_limits = 1,
	};
	return SBX_ENV_OK;
}
