/* jailrun.c - run a command N times, each in a fresh jail, through the
 * same common/jail and common/spawn calls the runner makes, and print how
 * long each start took (bench/jail.sh; docs/JAIL.md has the numbers).
 *
 *   jailrun [--mode raw|none|uid|ns] [--landlock auto|off] [-n N]
 *           [--uid-range FIRST-LAST] [--state-dir DIR] [--memory MIB]
 *           [--pids N] -- CMD [ARGS...]
 * (cgroups as the runner uses them: only for the limits given)
 *
 * raw is no jail at all: spawn_start without a jail hook (the baseline;
 * to time another sandbox, put it in CMD). Each run: jail_lease_open,
 * spawn, wait for the exit, jail_lease_close. Prints one line:
 *   MODE runs=N median_us=M p90_us=P start_us=S open_us=O close_us=C
 * median/p90: the whole cycle; start: from jail_lease_open until the
 * command is exec'd (spawn_start returned); open, close: those steps. The command's
 * output goes to /dev/null; a run that does not exit 0 is an error. CMD is
 * the jail's one launcher, as node or python3 is the runner's. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/jail/jail.h"
#include "common/jail/jail_options.h"
#include "common/jail/seccomp_policy.h"
#include "common/jail/spawn.h"

static int64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int
cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int64_t
pct(int64_t *v, int n, int p)
{
	qsort(v, (size_t)n, sizeof *v, cmp64);
	return v[(n - 1) * p / 100];
}

/* Drain out and err, wait for the child; its wait status. */
static int
finish(struct spawn_child *c)
{
	char buf[4096];
	int st = 0, found = 0;

	close(c->in);
	for (int open = 2; open > 0; ) {
		struct pollfd pf[2] = { { c->out, POLLIN, 0 },
			{ c->err, POLLIN, 0 } };

		if (poll(pf, 2, -1) < 0)
			break;
		for (int i = 0; i < 2; i++)
			if (pf[i].revents && pf[i].fd >= 0 &&
			    read(pf[i].fd, buf, sizeof buf) <= 0) {
				close(pf[i].fd);
				if (i == 0)
					c->out = -1;
				else
					c->err = -1;
				open--;
			}
		if (c->out < 0 && c->err < 0)
			break;
		if (c->out < 0 || c->err < 0) {
			int fd = c->out >= 0 ? c->out : c->err;

			while (read(fd, buf, sizeof buf) > 0)
				;
			close(fd);
			break;
		}
	}
	while (!found)
		if (spawn_reap(c->pid, &st, &found) == 0)
			usleep(50);
	close(c->pidfd);
	return st;
}

int
main(int argc, char **argv)
{
	static struct jail j;
	static struct jail_lease l;
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "landlock", required_argument, NULL, 'L' },
		{ "uid-range", required_argument, NULL, 'u' },
		{ "state-dir", required_argument, NULL, 's' },
		{ "memory", required_argument, NULL, 'M' },
		{ "pids", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 }
	};
	struct jail_config cfg;
	struct sock_fprog prog;
	const char *mode = "raw";
	char err[512], home[4200], tmp[4200], *envp[4], path[4200];
	int n = 100, o, raw;
	int64_t *total, *topen, *tclose, *tstart;

	memset(&cfg, 0, sizeof cfg);
	cfg.uid_first = 700000;
	cfg.uid_last = 700099;
	cfg.state_dir = "/tmp/airlock-jailrun";
	cfg.cgroup_lean = 1;
	while ((o = getopt_long(argc, argv, "n:", opts, NULL)) != -1) {
		switch (o) {
		case 'n': n = atoi(optarg); break;
		case 'm': mode = optarg; break;
		case 'L':
			if (jail_landlock_parse(optarg, &cfg.landlock))
				return 64;
			break;
		case 'u':
			if (sscanf(optarg, "%u-%u", &cfg.uid_first,
			    &cfg.uid_last) != 2)
				return 64;
			break;
		case 's': cfg.state_dir = optarg; break;
		case 'M': cfg.limits.memory = strtoull(optarg, NULL, 10) << 20;
			break;
		case 'P': cfg.limits.pids = strtoull(optarg, NULL, 10); break;
		default: return 64;
		}
	}
	if (optind >= argc || n < 1) {
		fprintf(stderr, "usage: jailrun [--mode raw|none|uid|ns] "
		    "[--landlock auto|off] [-n N] -- CMD [ARGS...]\n");
		return 64;
	}
	raw = strcmp(mode, "raw") == 0;
	if (!raw && jail_mode_parse(mode, &cfg.mode) != 0)
		return 64;
	snprintf(path, sizeof path, "PATH=%s", getenv("PATH") ?
	    getenv("PATH") : "/usr/bin:/bin");
	if (!raw) {
		if (mkdir(cfg.state_dir, 0711) != 0 && errno != EEXIST)
			return 71;
		seccomp_policy_program(&prog, SECCOMP_PROG_JAIL);
		cfg.seccomp = &prog;
		cfg.path = path + 5;
		/* as the runner names node or python3: the command's own
		 * files (an interpreter's libraries) join the jail's view */
		cfg.launchers = (const char *const *)&argv[optind];
		cfg.nlaunchers = 1;
		if (jail_init(&j, &cfg, err, sizeof err) != 0) {
			fprintf(stderr, "jailrun: %s\n", err);
			return 78;
		}
	}
	if (spawn_become_subreaper() != 0)
		return 71;
	total = calloc((size_t)n, sizeof *total);
	topen = calloc((size_t)n, sizeof *topen);
	tclose = calloc((size_t)n, sizeof *tclose);
	tstart = calloc((size_t)n, sizeof *tstart);
	if (!total || !topen || !tclose || !tstart)
		return 71;
	for (int i = 0; i < n; i++) {
		struct jail_request rq = { 0 };
		struct spawn_spec spec;
		struct spawn_child c;
		char id[32];
		int64_t t0 = now_us(), t1, t2;
		int st;

		snprintf(id, sizeof id, "bench%d-%d", (int)getpid(), i);
		rq.id = id;
		if (!raw && jail_lease_open(&j, &rq, &l, err, sizeof err)) {
			fprintf(stderr, "jailrun: %s\n", err);
			return 71;
		}
		t1 = now_us();
		snprintf(home, sizeof home, "HOME=%s", raw ? "/" : l.home);
		snprintf(tmp, sizeof tmp, "TMPDIR=%s", raw ? "/tmp" : l.tmpdir);
		envp[0] = path;
		envp[1] = home;
		envp[2] = tmp;
		envp[3] = NULL;
		spec = (struct spawn_spec){ .argv = argv + optind,
			.envp = envp, .jail = raw ? NULL : jail_lease_enter,
			.jail_ctx = raw ? NULL : &l,
			.cgroup_fd = raw ? -1 : jail_lease_cgroup_fd(&l) };
		spec.into_cgroup = spec.cgroup_fd >= 0;
		if (spawn_start(&spec, &c, err, sizeof err) != 0) {
			fprintf(stderr, "jailrun: %s\n", err);
			return 71;
		}
		tstart[i] = now_us() - t0;	/* the command is exec'd */
		st = finish(&c);
		t2 = now_us();
		if (!raw && jail_lease_close(&l, -1, NULL, NULL, err,
		    sizeof err) != 0)
			fprintf(stderr, "jailrun: close: %s\n", err);
		tclose[i] = now_us() - t2;
		topen[i] = t1 - t0;
		total[i] = now_us() - t0;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "jailrun: run %d: status %#x\n", i, st);
			return 1;
		}
	}
	printf("%s runs=%d median_us=%lld p90_us=%lld start_us=%lld "
	    "open_us=%lld close_us=%lld\n", mode, n,
	    (long long)pct(total, n, 50), (long long)pct(total, n, 90),
	    (long long)pct(tstart, n, 50), (long long)pct(topen, n, 50),
	    (long long)pct(tclose, n, 50));
	if (!raw)
		jail_fini(&j);
	return 0;
}
