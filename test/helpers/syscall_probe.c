/* syscall_probe.c - attempt one named system call and print what the kernel
 * answered: "OK", or the errno's name ("EPERM", "ENOSYS", ...). A probe
 * killed by seccomp prints nothing; its shell sees 128 + SIGSYS.
 * usage: syscall_probe NAME   (syscall_probe --list names them all)
 * Exit: 0 the call was attempted, 64 unknown NAME, 70 setup failed. */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/perf_event.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <linux/netlink.h>
#include <mqueue.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#define X32_SYSCALL_BIT 0x40000000L
#define KEYCTL_GET_KEYRING_ID 0
#define KEY_SPEC_SESSION_KEYRING (-3)

/* Each probe returns the call's result: >= 0 for success, -errno. */
typedef long (*probe_fn)(void);

static long
result(long r)
{
	return r < 0 ? -errno : r;
}

static long
wait_child(pid_t pid)
{
	int st;

	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(0);
	if (waitpid(pid, &st, 0) != pid)
		return -errno;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -ECHILD;
}

static long
p_unshare_user(void)
{
	return result(unshare(CLONE_NEWUSER));
}

static long
p_unshare_pid(void)
{
	return result(unshare(CLONE_NEWPID));
}

static long
p_setns(void)
{
	int fd = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		perror("syscall_probe: /proc/self/ns/uts");
		exit(70);
	}
	return result(setns(fd, CLONE_NEWUTS));
}

static long
p_mount(void)
{
	/* a missing target: the kernel says ENOENT before any permission
	 * check, so the unfiltered answer differs for every user */
	return result(mount("none", "/nonexistent-airlock-probe", "tmpfs", 0,
	    NULL));
}

/* clone(2) with flags, fork-like (no new stack); the child exits at once. */
static long
raw_clone(unsigned long flags)
{
	long r = syscall(SYS_clone, flags | SIGCHLD, 0L, 0L, 0L, 0L);

	if (r < 0)
		return -errno;
	return wait_child((pid_t)r);
}

static long
p_clone_newns(void)
{
	return raw_clone(CLONE_NEWNS);
}

static long
p_clone_newuser(void)
{
	return raw_clone(CLONE_NEWUSER);
}

static long
p_clone_plain(void)
{
	return raw_clone(0);
}

static long
p_clone3(void)
{
	/* struct clone_args, version 0 (64 bytes) */
	uint64_t args[8] = { 0 };
	long r;

	args[4] = SIGCHLD;	/* exit_signal */
	r = syscall(SYS_clone3, args, sizeof args);
	if (r < 0)
		return -errno;
	return wait_child((pid_t)r);
}

static long
p_ptrace_traceme(void)
{
	return result(syscall(SYS_ptrace, 0L /* PTRACE_TRACEME */, 0L, 0L,
	    0L));
}

static long
p_process_vm_readv(void)
{
	static char src[8] = "probe";
	char dst[8];
	struct iovec local = { dst, sizeof dst }, remote = { src, sizeof src };

	return result(syscall(SYS_process_vm_readv, (long)getpid(), &local,
	    1L, &remote, 1L, 0L));
}

static long
p_bpf(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof attr);
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	return result(syscall(SYS_bpf, (long)BPF_MAP_CREATE, &attr,
	    (long)sizeof attr));
}

static long
p_io_uring_setup(void)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof p);
	return result(syscall(SYS_io_uring_setup, 1L, &p));
}

static long
p_userfaultfd(void)
{
	return result(syscall(SYS_userfaultfd,
	    (long)(O_CLOEXEC | UFFD_USER_MODE_ONLY)));
}

static long
p_keyctl(void)
{
	return result(syscall(SYS_keyctl, (long)KEYCTL_GET_KEYRING_ID,
	    (long)KEY_SPEC_SESSION_KEYRING, 0L));
}

static long
p_perf_event_open(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof a);
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof a;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return result(syscall(SYS_perf_event_open, &a, 0L, -1L, -1L, 0L));
}

static long
sock(long family, int type, int proto)
{
	return result(syscall(SYS_socket, family, (long)type, (long)proto));
}

static long
p_socketpair_unix(void)
{
	int sv[2];

	return result(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
}

/* The channels between leases: accepting connections and datagrams, and
 * System V and POSIX IPC. Each object made is removed again. */
static long
p_listen_noport(void)	/* no bind(): the kernel picks the port */
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	long r;

	if (fd < 0)
		return -errno;
	r = result(listen(fd, 1));
	close(fd);
	return r;
}

static long
bind_loopback(int type, long len_high)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, type, 0);
	long r;

	if (fd < 0)
		return -errno;
	/* the kernel reads the length as int: high bits must not pass */
	r = result(syscall(SYS_bind, (long)fd, &a, len_high | (long)sizeof a));
	close(fd);
	return r;
}

static long
p_bind_udp(void)
{
	return bind_loopback(SOCK_DGRAM, 0);
}

static long
p_bind_tcp(void)
{
	return bind_loopback(SOCK_STREAM, 0);
}

static long
p_bind_udp_hibits(void)
{
	return bind_loopback(SOCK_DGRAM, 0x100000000L);
}

static long
p_bind_netlink(void)	/* what glibc's getifaddrs does */
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	long r;

	if (fd < 0)
		return -errno;
	r = result(bind(fd, (struct sockaddr *)&a, sizeof a));
	close(fd);
	return r;
}

static long
p_shmget(void)
{
	long id = result(shmget(IPC_PRIVATE, 4096, 0600));

	if (id >= 0)
		shmctl((int)id, IPC_RMID, NULL);
	return id;
}

static long
p_semget(void)
{
	long id = result(semget(IPC_PRIVATE, 1, 0600));

	if (id >= 0)
		semctl((int)id, 0, IPC_RMID);
	return id;
}

static long
p_msgget(void)
{
	long id = result(msgget(IPC_PRIVATE, 0600));

	if (id >= 0)
		msgctl((int)id, IPC_RMID, NULL);
	return id;
}

static long
p_mq_open(void)
{
	char name[64];
	mqd_t q;

	snprintf(name, sizeof name, "/airlock-probe-%d", (int)getpid());
	q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, NULL);
	if (q == (mqd_t)-1)
		return -errno;
	mq_close(q);
	mq_unlink(name);
	return 0;
}

/* A terminal of our own: a new session whose controlling terminal is a
 * fresh pty, so TIOCSTI works unfiltered without privileges too. Runs in
 * a child (a process group leader cannot start a session), which exits
 * with 0, the errno, or PTY_SETUP_FAILED. */
#define PTY_SETUP_FAILED 200

static long
pty_ioctl(unsigned long req)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		char buf[64] = " ";	/* a char for TIOCSTI, termios room */
		const char *name;
		int m, s;
		long r;

		if (setsid() < 0 || (m = posix_openpt(O_RDWR)) < 0 ||
		    grantpt(m) != 0 || unlockpt(m) != 0 ||
		    !(name = ptsname(m)) || (s = open(name, O_RDWR)) < 0) {
			perror("syscall_probe: pty setup");
			_exit(PTY_SETUP_FAILED);
		}
		r = result(syscall(SYS_ioctl, (long)s, req, buf));
		_exit(r >= 0 ? 0 : (int)-r);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -errno;
	if (!WIFEXITED(st))
		return -ECHILD;
	if (WEXITSTATUS(st) == PTY_SETUP_FAILED)
		exit(70);
	return -WEXITSTATUS(st);
}

static long
p_tiocsti(void)
{
	return pty_ioctl(TIOCSTI);
}

/* The kernel reads the request as 32 bits: TIOCSTI with high garbage is
 * still TIOCSTI to it, and must be to the filter. */
static long
p_tiocsti_hibits(void)
{
	return pty_ioctl(0x100000000UL | TIOCSTI);
}

static long
p_tcgets(void)
{
	return pty_ioctl(TCGETS);
}

static long
p_int80(void)
{
	long ret;

	/* getpid through the 32-bit entry (x86 number 20) */
	__asm__ volatile ("int $0x80" : "=a"(ret) : "a"(20L)
	    : "r8", "r9", "r10", "r11", "memory", "cc");
	return ret < 0 ? ret : 0;
}

static long
p_x32(void)
{
	/* getpid (39) with the x32 ABI bit */
	return result(syscall(X32_SYSCALL_BIT | SYS_getpid));
}

static long
p_fork(void)
{
	return wait_child(fork());
}

static void *
thread_main(void *arg)
{
	return arg;
}

static long
p_pthread(void)
{
	static int token;
	pthread_t t;
	void *ret;
	int e;

	if ((e = pthread_create(&t, NULL, thread_main, &token)) != 0)
		return -e;
	if ((e = pthread_join(t, &ret)) != 0)
		return -e;
	return ret == &token ? 0 : -EINVAL;
}

static long
p_adjtimex(void)
{
	struct timex tx;

	memset(&tx, 0, sizeof tx);	/* modes 0: read only */
	return result(adjtimex(&tx));
}

static long
p_name_to_handle_at(void)
{
	struct {
		struct file_handle fh;
		unsigned char room[MAX_HANDLE_SZ];
	} h;
	int mnt;

	memset(&h, 0, sizeof h);
	h.fh.handle_bytes = MAX_HANDLE_SZ;
	return result(name_to_handle_at(AT_FDCWD, "/", &h.fh, &mnt, 0));
}

static long
p_personality(void)
{
	return result(syscall(SYS_personality, 0xffffffffL));
}

static const struct probe {
	const char *name;
	probe_fn fn;
} probes[] = {
	{ "adjtimex", p_adjtimex },
	{ "bind_netlink", p_bind_netlink },
	{ "bind_tcp", p_bind_tcp },
	{ "bind_udp", p_bind_udp },
	{ "bind_udp_hibits", p_bind_udp_hibits },
	{ "bpf", p_bpf },
	{ "clone3", p_clone3 },
	{ "clone_newns", p_clone_newns },
	{ "clone_newuser", p_clone_newuser },
	{ "clone_plain", p_clone_plain },
	{ "fork", p_fork },
	{ "int80", p_int80 },
	{ "io_uring_setup", p_io_uring_setup },
	{ "keyctl", p_keyctl },
	{ "listen_noport", p_listen_noport },
	{ "mount", p_mount },
	{ "mq_open", p_mq_open },
	{ "msgget", p_msgget },
	{ "name_to_handle_at", p_name_to_handle_at },
	{ "perf_event_open", p_perf_event_open },
	{ "personality", p_personality },
	{ "process_vm_readv", p_process_vm_readv },
	{ "pthread", p_pthread },
	{ "ptrace_traceme", p_ptrace_traceme },
	{ "semget", p_semget },
	{ "setns", p_setns },
	{ "shmget", p_shmget },
	{ "socketpair_unix", p_socketpair_unix },
	{ "tcgets", p_tcgets },
	{ "tiocsti", p_tiocsti },
	{ "tiocsti_hibits", p_tiocsti_hibits },
	{ "unshare_pid", p_unshare_pid },
	{ "unshare_user", p_unshare_user },
	{ "userfaultfd", p_userfaultfd },
	{ "x32", p_x32 },
	{ NULL, NULL }
};

/* The socket(2) probes: socket_NAME calls socket(family, type, proto). */
static const struct socket_probe {
	const char *name;
	long family;
	int type, proto;
} socket_probes[] = {
	{ "socket_alg", AF_ALG, SOCK_SEQPACKET, 0 },
	{ "socket_inet", AF_INET, SOCK_STREAM, 0 },
	{ "socket_inet6", AF_INET6, SOCK_DGRAM, 0 },
	{ "socket_netlink_diag", AF_NETLINK, SOCK_RAW, 4 /* SOCK_DIAG */ },
	{ "socket_netlink_route", AF_NETLINK, SOCK_RAW, 0 /* ROUTE */ },
	{ "socket_packet", AF_PACKET, SOCK_RAW, 0 },
	/* the kernel reads the family as an int: garbage in the high 32
	 * bits must not slip AF_PACKET past the filter */
	{ "socket_packet_hibits", 0x100000000L | AF_PACKET, SOCK_RAW, 0 },
	{ "socket_unix", AF_UNIX, SOCK_STREAM, 0 },
	{ "socket_vsock", AF_VSOCK, SOCK_STREAM, 0 },
	{ NULL, 0, 0, 0 }
};

/* Run the probe called name, its result (or -errno) in *r; -1 when
 * there is no such probe. */
static int
run_probe(const char *name, long *r)
{
	for (const struct probe *p = probes; p->name; p++)
		if (strcmp(p->name, name) == 0) {
			*r = p->fn();
			return 0;
		}
	for (const struct socket_probe *p = socket_probes; p->name; p++)
		if (strcmp(p->name, name) == 0) {
			*r = sock(p->family, p->type, p->proto);
			return 0;
		}
	return -1;
}

static const char *
errno_name(int e)
{
	static const struct {
		int e;
		const char *name;
	} names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" },
		{ EIO, "EIO" }, { ENXIO, "ENXIO" }, { EBADF, "EBADF" },
		{ ECHILD, "ECHILD" }, { EAGAIN, "EAGAIN" },
		{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" },
		{ EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
		{ ENODEV, "ENODEV" }, { EINVAL, "EINVAL" },
		{ EMFILE, "EMFILE" }, { ENOTTY, "ENOTTY" },
		{ ENOSPC, "ENOSPC" }, { EROFS, "EROFS" }, { ENOSYS, "ENOSYS" },
		{ EOVERFLOW, "EOVERFLOW" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ EAFNOSUPPORT, "EAFNOSUPPORT" },
		{ EPROTONOSUPPORT, "EPROTONOSUPPORT" },
		{ ESOCKTNOSUPPORT, "ESOCKTNOSUPPORT" },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].e == e)
			return names[i].name;
	return NULL;
}

int
main(int argc, char **argv)
{
	const char *name;
	long r;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (const struct probe *p = probes; p->name; p++)
			printf("%s\n", p->name);
		for (const struct socket_probe *p = socket_probes; p->name; p++)
			printf("%s\n", p->name);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: syscall_probe NAME | --list\n");
		return 64;
	}
	if (run_probe(argv[1], &r) != 0) {
		fprintf(stderr, "syscall_probe: unknown probe '%s'\n", argv[1]);
		return 64;
	}
	if (r >= 0) {
		printf("OK\n");
	} else if ((name = errno_name((int)-r))) {
		printf("%s\n", name);
	} else {
		printf("E%ld\n", -r);
	}
	return 0;
}
