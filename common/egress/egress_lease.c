/* egress_lease.c - a lease's network namespace and its egress proxy. */
#include "common/egress/egress_lease.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/fileio.h"
#include "common/base/log.h"
#include "common/egress/egress_proxy.h"

static const char *const proxy_env[] = {
	"HTTPS_PROXY=" EGRESS_LEASE_URL, "https_proxy=" EGRESS_LEASE_URL,
	"HTTP_PROXY=" EGRESS_LEASE_URL, "http_proxy=" EGRESS_LEASE_URL,
	"ALL_PROXY=" EGRESS_LEASE_URL, "all_proxy=" EGRESS_LEASE_URL,
	"NO_PROXY=localhost,127.0.0.1,::1", "no_proxy=localhost,127.0.0.1,::1",
	"npm_config_proxy=" EGRESS_LEASE_URL,
	"npm_config_https_proxy=" EGRESS_LEASE_URL,
	"PIP_PROXY=" EGRESS_LEASE_URL, "NODE_USE_ENV_PROXY=1",
};
#define NPROXY_ENV (sizeof proxy_env / sizeof *proxy_env)

/* In the new namespace: lo up, then a listener on the proxy address. */
static int
listen_inside(char *err, size_t errlen)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
		.sin_port = htons(EGRESS_LEASE_PORT) };
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), fd = -1;

	memset(&ifr, 0, sizeof ifr);
	memcpy(ifr.ifr_name, "lo", 3);
	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) != 0 ||
	    (ifr.ifr_flags |= IFF_UP, ioctl(s, SIOCSIFFLAGS, &ifr) != 0)) {
		snprintf(err, errlen, "egress: loopback up in the lease's "
		    "network namespace: %s", strerror(errno));
		goto out;
	}
	inet_pton(AF_INET, EGRESS_LEASE_HOST, &sin.sin_addr);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    listen(fd, 128) != 0) {
		snprintf(err, errlen, "egress: listen on %s:%d in the lease's "
		    "network namespace: %s", EGRESS_LEASE_HOST,
		    EGRESS_LEASE_PORT, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
out:
	if (s >= 0)
		close(s);
	return fd;
}

/* The entries of text but the launcher word into out (cap bytes,
 * NUL-terminated), *launcher set when the word is there. The length, or
 * -1 (too long, or an empty entry). */
static long
split_launcher(const char *text, char *out, size_t cap, int *launcher)
{
	size_t n = 0, k, len = strnlen(text, EGRESS_ALLOW_TEXT_MAX + 1);
	int first = 1;

	if (len > EGRESS_ALLOW_TEXT_MAX || len >= cap)
		return -1;
	*launcher = 0;
	for (size_t i = 0; ; i = k + 1) {
		for (k = i; k < len && text[k] != ','; k++)
			;
		if (k == i)
			return -1;
		if (k - i == sizeof EGRESS_LAUNCHER_WORD - 1 &&
		    memcmp(text + i, EGRESS_LAUNCHER_WORD, k - i) == 0) {
			*launcher = 1;
		} else {
			if (!first)
				out[n++] = ',';
			memcpy(out + n, text + i, k - i);
			n += k - i;
			first = 0;
		}
		if (k >= len)
			break;
	}
	out[n] = '\0';
	return (long)n;
}

int
egress_config_parse(struct egress_config *ec, const char *text, char *err,
    size_t errlen)
{
	char why[256], rest[EGRESS_ALLOW_TEXT_MAX + 2];
	long n;

	memset(ec, 0, sizeof *ec);
	if (!text)
		text = EGRESS_LAUNCHER_WORD;
	if (strcmp(text, "none") == 0)
		return 0;
	n = split_launcher(text, rest, sizeof rest, &ec->launcher);
	if (n < 0) {
		snprintf(err, errlen, "--egress-allow: an empty entry, or "
		    "longer than %d bytes", EGRESS_ALLOW_TEXT_MAX);
		return -1;
	}
	if (egress_allow_add(&ec->base, rest, (size_t)n, why, sizeof why)
	    != 0) {
		snprintf(err, errlen, "--egress-allow: %s", why);
		return -1;
	}
	return 0;
}

/* In a child, as a lease's handler would: the namespace, loopback up,
 * the listener. Its exit code: 0, or which step failed. */
enum { NETNS_OK, NETNS_UNSHARE = 2, NETNS_LOOPBACK, NETNS_LISTEN };

/* What lets unshare(CLONE_NEWNET) through a container's seccomp profile:
 * uid mode runs under the runner program, which allows it; ns mode needs
 * user namespaces too, which that program refuses, so it runs with the
 * sandbox's options (docs/DEPLOY.md). */
static const char *
netns_profile_fix(enum jail_mode mode)
{
	return mode == JAIL_NS ? "for --jail ns a container seccomp profile "
	    "that allows user namespaces too (seccomp=unconfined, as the "
	    "sandbox's: docs/DEPLOY.md; the runner program refuses them)" :
	    "a container seccomp profile that allows it (airlock seccomp "
	    "--program runner --export docker)";
}

int
egress_netns_trial(enum jail_mode mode, char *why, size_t whylen)
{
	pid_t pid = fork();
	int st, code;

	if (pid == 0) {
		char ignored[256];
		int fd;

		if (unshare(CLONE_NEWNET) != 0)
			_exit(NETNS_UNSHARE);
		fd = listen_inside(ignored, sizeof ignored);
		_exit(fd >= 0 ? NETNS_OK : strstr(ignored, "loopback") ?
		    NETNS_LOOPBACK : NETNS_LISTEN);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		code = -1;
	else
		code = WEXITSTATUS(st);
	if (code == NETNS_OK)
		return 0;
	if (code == NETNS_UNSHARE)
		snprintf(why, whylen, "unshare(CLONE_NEWNET) refused: the "
		    "runner needs CAP_SYS_ADMIN, and %s",
		    netns_profile_fix(mode));
	else
		snprintf(why, whylen, "%s", code == NETNS_LOOPBACK ?
		    "bringing loopback up in the new namespace refused: the "
		    "runner needs CAP_NET_ADMIN" : code == NETNS_LISTEN ?
		    "the proxy's listener in the new namespace failed" :
		    "the trial died");
	return -1;
}

int
egress_config_init(struct egress_config *ec, const char *text,
    const struct jail *j, char *err, size_t errlen)
{
	char why[256];

	if (j->cfg.mode == JAIL_NONE) {
		snprintf(err, errlen, "--egress-allow needs --jail uid or ns "
		    "(a network namespace per lease); --jail none isolates "
		    "nothing");
		return -1;
	}
	if (egress_config_parse(ec, text, err, errlen) != 0)
		return -1;
	/* the step every lease takes, tried once now */
	if (egress_netns_trial(j->cfg.mode, why, sizeof why) != 0) {
		snprintf(err, errlen, "a network namespace per lease (the "
		    "default, --egress-allow) cannot be made here: %s "
		    "(docs/DEPLOY.md); or run with --shared-network (leases then share this runner's "
		    "network namespace and can reach each other over UDP: "
		    "docs/SECURITY.md)", why);
		return -1;
	}
	return 0;
}

const char *
egress_launcher_hosts(const char *argv0)
{
	if (strcmp(argv0, "npx") == 0)
		return "registry.npmjs.org:443";
	if (strcmp(argv0, "uvx") == 0 || strcmp(argv0, "uv") == 0)
		return "pypi.org:443,files.pythonhosted.org:443";
	return "";
}

int
egress_lease_rules(const struct egress_config *ec, const char *launcher,
    const char *extra, size_t extra_len, struct egress_allow *a, char *err,
    size_t errlen)
{
	const char *hosts = launcher && ec->launcher ?
	    egress_launcher_hosts(launcher) : "";
	char why[256];

	*a = ec->base;
	if (egress_allow_add(a, hosts, strlen(hosts), why, sizeof why) != 0 ||
	    egress_allow_add(a, extra, extra_len, why, sizeof why) != 0) {
		snprintf(err, errlen, "the lease's egress list: %s", why);
		return -1;
	}
	return 0;
}

/* The proxy process: back to the runner's network, the lease's ids. */
static _Noreturn void
run_proxy(int home_ns, int lfd, const struct sock_fprog *filter,
    const struct egress_allow *a, const char *lease_id, uid_t uid,
    gid_t gid, pid_t parent)
{
	sigset_t none;
	char adj[16];

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 ||
	    getppid() != parent)
		_exit(1);
	/* only the listener and stderr: not the relay's connection, the
	 * supervisor's control socket or the handler's signalfd */
	lfd = fcntl(lfd, F_DUPFD, 64);		/* clear of 3 and 4 first */
	home_ns = fcntl(home_ns, F_DUPFD, 64);
	if (lfd < 0 || home_ns < 0 || dup2(lfd, 3) < 0 ||
	    dup2(home_ns, 4) < 0 || syscall(SYS_close_range, 5, ~0U, 0) != 0)
		_exit(1);
	if (setns(4, CLONE_NEWNET) != 0)
		_exit(1);
	close(4);
	/* the lease's, in the OOM order: its connections are the lease's
	 * doing, so it goes before the runner, as the lease does */
	snprintf(adj, sizeof adj, "%d", JAIL_OOM_SCORE_ADJ);
	if (file_write_str("/proc/self/oom_score_adj", adj) != 0)
		_exit(1);
	if (setgroups(0, NULL) != 0 || setresgid(gid, gid, gid) != 0 ||
	    setresuid(uid, uid, uid) != 0 || setresuid(0, 0, 0) == 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		_exit(1);
	/* returns only when its filter or the listener failed: either way
	 * the lease's connections are refused, never served unfiltered */
	egress_proxy_run(3, filter, a, lease_id);
	log_event(LOG_ERROR, "egress proxy stopped: the lease has no way out",
	    (struct log_field[]){ LF_STR("lease", lease_id),
	    LF_STR("error", strerror(errno)) }, 2);
	_exit(1);
}

int
egress_lease_start(const struct egress_allow *a,
    const struct sock_fprog *filter, const char *lease_id, uid_t uid,
    gid_t gid, struct egress_lease *el, char *err, size_t errlen)
{
	int home, lfd;
	pid_t self = getpid();

	memset(el, 0, sizeof *el);
	el->pidfd = -1;
	el->nrules = a->n;
	if (!filter || filter->len == 0) {
		snprintf(err, errlen, "egress: no seccomp filter for the "
		    "proxy");
		return -1;
	}
	home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (home < 0 || unshare(CLONE_NEWNET) != 0) {
		snprintf(err, errlen, "egress: a network namespace for the "
		    "lease: %s", strerror(errno));
		if (home >= 0)
			close(home);
		return -1;
	}
	if ((lfd = listen_inside(err, errlen)) < 0) {
		close(home);
		return -1;
	}
	el->pid = fork();
	if (el->pid == 0)
		run_proxy(home, lfd, filter, a, lease_id, uid, gid, self);
	close(home);
	close(lfd);
	if (el->pid < 0) {
		el->pid = 0;
		snprintf(err, errlen, "egress: fork the proxy: %s",
		    strerror(errno));
		return -1;
	}
	el->pidfd = (int)syscall(SYS_pidfd_open, el->pid, 0);
	if (el->pidfd < 0) {
		kill(el->pid, SIGKILL);
		snprintf(err, errlen, "egress: pidfd_open: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void
egress_lease_stop(struct egress_lease *el)
{
	if (el->pid > 0 && el->pidfd >= 0) {
		/* by pidfd: the lease's reaping may already have taken the
		 * pid, which could then name someone else */
		(void)syscall(SYS_pidfd_send_signal, el->pidfd, SIGKILL, NULL,
		    0);
		(void)waitid(P_PIDFD, (id_t)el->pidfd, NULL, WEXITED);
		close(el->pidfd);
	}
	el->pidfd = -1;
	el->pid = 0;
}

static int
is_proxy_key(const char *kv)
{
	for (size_t i = 0; i < NPROXY_ENV; i++) {
		size_t k = (size_t)(strchr(proxy_env[i], '=') - proxy_env[i]);

		if (strncmp(kv, proxy_env[i], k + 1) == 0)
			return 1;
	}
	return 0;
}

int
egress_env(char **envp, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; envp[i]; i++)
		if (!is_proxy_key(envp[i]))
			envp[n++] = envp[i];
	if (cap < n + NPROXY_ENV + 1)
		return -1;
	for (size_t i = 0; i < NPROXY_ENV; i++)
		envp[n++] = (char *)(uintptr_t)proxy_env[i];
	envp[n] = NULL;
	return 0;
}
