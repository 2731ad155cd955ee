/* cgrun.c - run a command in fresh cgroups made by airlock's own cgroup
 * module, with the limits `airlock sandbox run` sets by default, then
 * remove them: the cgroup half of a sandbox execution without the rest.
 * bench/sandbox.sh puts bwrap under it, so the peer pays the same
 * placement (on v1: a task migration) as the sandbox does.
 *
 *   cgrun [--memory BYTES] [--pids N] -- CMD [ARGS...]
 *
 * Exit status: CMD's own (128+N for a signal); 70 when a cgroup step
 * failed, 127 when CMD could not run. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/jail/cgroup.h"

int
main(int argc, char **argv)
{
	struct cgroup_limits lim = { 256u << 20, 64, 0 };
	struct cgroup_service svc;
	struct cgroup_probe probe;
	struct cgroup_lease lease;
	char err[512], name[32];
	pid_t pid;
	int o, st;

	while ((o = getopt(argc, argv, "+m:p:")) != -1) {
		if (o == 'm')
			lim.memory = strtoull(optarg, NULL, 10);
		else if (o == 'p')
			lim.pids = strtoull(optarg, NULL, 10);
		else
			return 64;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: cgrun [-m BYTES] [-p PIDS] CMD...\n");
		return 64;
	}
	cgroup_probe(NULL, 1, &probe);
	snprintf(name, sizeof name, "cgrun%ld", (long)getpid());
	if (cgroup_setup(&svc, NULL, &probe, &lim, 0, err, sizeof err) != 0 ||
	    cgroup_lease_create(&svc, name, NULL, &lease, err,
	    sizeof err) != 0) {
		fprintf(stderr, "cgrun: %s\n", err);
		cgroup_teardown(&svc);
		return 70;
	}
	pid = fork();
	if (pid == 0) {
		if (cgroup_lease_attach(&lease) != 0) {
			perror("cgrun: attach");
			_exit(70);
		}
		execvp(argv[optind], argv + optind);
		perror("cgrun: exec");
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	(void)cgroup_lease_kill(&lease);
	(void)cgroup_lease_remove(&lease);
	cgroup_teardown(&svc);
	if (pid < 0)
		return 70;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
