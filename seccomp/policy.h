/* policy.h - airlock's syscall policy, as data (docs/SECCOMP.md).
 *
 * An X-macro list, included several times: the includer defines the
 * entry macros it wants, the others expand to nothing, and all of them
 * are undefined again at the end. Entries:
 *
 *   SECCOMP_DENY(name, err, reason)      denied: the call fails with err
 *   SECCOMP_ARG_ALLOW(name, c0, c1, what)
 *                                        allowed when both conditions hold
 *   SECCOMP_ARG_DENY(name, err, c0, c1, what, reason)
 *                                        denied with err when both hold
 *   SECCOMP_ARG_OTHERS(name, arg, what)  every value of argument arg
 *                                        (low 32 bits) that no ARG_DENY
 *                                        of name matches is allowed
 *   SECCOMP_OMIT(name, reason)           left out on purpose although
 *                                        Docker's default allows it
 *   SECCOMP_ALLOW(name)                  the baseline: allowed, always
 *   SECCOMP_ALLOW_FOR(name, reason)      allowed in the programs
 *                                        SECCOMP_IN names, and why
 *
 * Each entry belongs to the programs SECCOMP_IN names where it stands
 * (SECCOMP_IN_* bits of common/jail/seccomp_policy.h): every program
 * unless a group says otherwise. Within one program a name is either
 * unconditional or argument-ruled, as below.
 *
 * Anything else gets the default, ENOSYS ("no such syscall"), so that
 * libcs fall back to older calls, which the allowlist governs too.
 * Names are libseccomp's, native x86_64; every one must resolve (checked
 * when the filter is built and by test/unit/seccomp_policy_test.c). A
 * name is either unconditional (ALLOW, DENY, OMIT) or argument-ruled,
 * never both, and its entries are adjacent.
 *
 * Conditions compare one syscall argument (0..5):
 *   ARG_EQ(i, v)      the whole 64-bit argument equals v
 *   ARG_NE(i, v)      the whole 64-bit argument differs from v
 *   ARG_LOW32(i, v)   its low 32 bits equal v: for arguments the kernel
 *                     reads as int, so high garbage cannot dodge the rule
 *   ARG_CLEAR(i, m)   none of the bits in m is set
 *   ARG_SET(i, b)     every bit of b is set
 *   ARG_ANY           no condition
 * Rules of one name with different outcomes must never overlap: the
 * result may not depend on libseccomp's rule order (the unit test
 * checks). Never looser than Docker's default profile: every allowed
 * call is one Docker allows without extra capabilities (the runner
 * program: with CAP_SYS_ADMIN and CAP_NET_ADMIN; test/seccomp.test checks
 * the exported profiles against Docker's own). */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#ifndef SECCOMP_DENY
#define SECCOMP_DENY(name, err, reason)
#endif
#ifndef SECCOMP_ARG_ALLOW
#define SECCOMP_ARG_ALLOW(name, c0, c1, what)
#endif
#ifndef SECCOMP_ARG_DENY
#define SECCOMP_ARG_DENY(name, err, c0, c1, what, reason)
#endif
#ifndef SECCOMP_ARG_OTHERS
#define SECCOMP_ARG_OTHERS(name, arg, what)
#endif
#ifndef SECCOMP_OMIT
#define SECCOMP_OMIT(name, reason)
#endif
#ifndef SECCOMP_ALLOW
#define SECCOMP_ALLOW(name)
#endif
#ifndef SECCOMP_ALLOW_FOR
#define SECCOMP_ALLOW_FOR(name, reason)
#endif
#define SECCOMP_IN SECCOMP_IN_ALL

#define ARG_EQ(i, v)	{ (i), SECCOMP_CMP_EQ, (uint64_t)(v), 0 }
#define ARG_NE(i, v)	{ (i), SECCOMP_CMP_NE, (uint64_t)(v), 0 }
#define ARG_LOW32(i, v)	{ (i), SECCOMP_CMP_MASKED_EQ, 0xffffffffu, (v) }
#define ARG_CLEAR(i, m)	{ (i), SECCOMP_CMP_MASKED_EQ, (m), 0 }
#define ARG_SET(i, b)	{ (i), SECCOMP_CMP_MASKED_EQ, (b), (b) }
#define ARG_ANY		{ -1, SECCOMP_CMP_NONE, 0, 0 }

/* Every namespace flag clone(2) takes. CLONE_NEWTIME (0x80) is not
 * among them: in clone(2) that bit belongs to the exit signal, and only
 * unshare and clone3, both denied, accept it. */
#define CLONE_NEW_ANY (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | \
	CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)
#define NETLINK_ROUTE_PROTOCOL 0	/* NETLINK_ROUTE, <linux/netlink.h> */
#define NETLINK_SOCK_DIAG_PROTOCOL 4	/* NETLINK_SOCK_DIAG */

/* --- The deny set: the kernel's risky surface, EPERM unless noted. --- */

/* Namespaces and mounts: the jail built the process's view of the
 * system; nothing inside may rebuild it. */
#undef SECCOMP_IN
#define SECCOMP_IN (SECCOMP_IN_ALL & ~SECCOMP_IN_RUNNER)
SECCOMP_DENY(unshare, EPERM, "creates namespaces: a new user namespace "
    "grants every capability inside it, the way into most recent kernel "
    "exploits")
SECCOMP_DENY(setns, EPERM, "joins another process's namespaces")
SECCOMP_DENY(mount, EPERM, "mounts filesystems: changes the tree the jail "
    "built")
/* The runner program: a runner with CAP_SYS_ADMIN gives each lease its
 * own network namespace (common/egress/egress_lease.h: unshare, then
 * setns back for the proxy), and in uid mode its own mount, ipc and pid
 * namespaces with a fresh /proc (jail_private_unshare, mount). No user,
 * uts, cgroup or time namespace: ns mode stays refused under it. */
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_RUNNER
SECCOMP_ARG_ALLOW(unshare, ARG_CLEAR(0, ~(uint64_t)(CLONE_NEWNET |
    CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID)), ARG_ANY,
    "only CLONE_NEWNET, CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWPID")
SECCOMP_ARG_DENY(unshare, EPERM, ARG_SET(0, CLONE_NEWUSER), ARG_ANY,
    "CLONE_NEWUSER", "a new user namespace grants every capability inside "
    "it, the way into most recent kernel exploits")
SECCOMP_ARG_DENY(unshare, EPERM, ARG_SET(0, CLONE_NEWUTS), ARG_ANY,
    "CLONE_NEWUTS", "the runner has no use for it")
SECCOMP_ARG_DENY(unshare, EPERM, ARG_SET(0, CLONE_NEWCGROUP), ARG_ANY,
    "CLONE_NEWCGROUP", "the runner has no use for it")
SECCOMP_ARG_ALLOW(setns, ARG_LOW32(1, CLONE_NEWNET), ARG_ANY,
    "nstype CLONE_NEWNET (the proxy's way back to the runner's network)")
SECCOMP_ALLOW_FOR(mount, "a runner with CAP_SYS_ADMIN mounts a uid-mode "
    "lease's fresh /proc, its masks and its size-capped tmpfs in the "
    "lease's own mount namespace; seccomp cannot read the paths, so the "
    "call is allowed whole (leases get the jail program on top, which "
    "denies it)")
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_ALL
SECCOMP_DENY(umount2, EPERM, "unmounts: could uncover what the jail hid")
SECCOMP_DENY(pivot_root, EPERM, "changes the root filesystem")
SECCOMP_DENY(fsopen, EPERM, "new mount API: creates a filesystem context")
SECCOMP_DENY(fsconfig, EPERM, "new mount API: configures a filesystem "
    "context")
SECCOMP_DENY(fsmount, EPERM, "new mount API: creates a mount")
SECCOMP_DENY(fspick, EPERM, "new mount API: reconfigures a mounted "
    "filesystem")
SECCOMP_DENY(move_mount, EPERM, "new mount API: attaches or moves a mount")
SECCOMP_DENY(open_tree, EPERM, "new mount API: clones a mount tree")
SECCOMP_DENY(mount_setattr, EPERM, "changes mount properties (read-only, "
    "idmapping)")
SECCOMP_DENY(clone3, ENOSYS, "its flags sit in a struct seccomp cannot "
    "read, so CLONE_NEW* could not be refused; ENOSYS makes libcs fall "
    "back to clone(2), whose flags are checked")

/* Kernel extension points with a long exploit history. */
SECCOMP_DENY(bpf, EPERM, "loads eBPF programs and maps: verifier and JIT "
    "bugs are a classic way to kernel code execution")
SECCOMP_DENY(perf_event_open, EPERM, "performance counters: side channels "
    "and a long list of kernel bugs")
SECCOMP_DENY(io_uring_setup, EPERM, "io_uring runs I/O seccomp never sees, "
    "and is one of the kernel's most exploited interfaces")
SECCOMP_DENY(io_uring_enter, EPERM, "io_uring: see io_uring_setup")
SECCOMP_DENY(io_uring_register, EPERM, "io_uring: see io_uring_setup")
SECCOMP_DENY(userfaultfd, EPERM, "lets a process stall kernel page faults, "
    "the usual tool for winning kernel race conditions")
SECCOMP_DENY(kexec_load, EPERM, "replaces the running kernel")
SECCOMP_DENY(kexec_file_load, EPERM, "replaces the running kernel")
SECCOMP_DENY(init_module, EPERM, "loads code into the kernel")
SECCOMP_DENY(finit_module, EPERM, "loads code into the kernel")
SECCOMP_DENY(delete_module, EPERM, "unloads kernel modules")
SECCOMP_DENY(keyctl, EPERM, "kernel keyrings: not isolated per lease, and "
    "a source of kernel bugs")
SECCOMP_DENY(add_key, EPERM, "kernel keyrings: see keyctl")
SECCOMP_DENY(request_key, EPERM, "kernel keyrings: see keyctl")

/* Reaching into other processes. */
SECCOMP_DENY(ptrace, EPERM, "traces a process: reads and writes its memory "
    "and registers")
SECCOMP_DENY(process_vm_readv, EPERM, "reads another process's memory")
SECCOMP_DENY(process_vm_writev, EPERM, "writes another process's memory")
SECCOMP_DENY(process_madvise, EPERM, "acts on another process's memory")
SECCOMP_DENY(kcmp, EPERM, "compares kernel objects of two processes: an "
    "oracle for kernel pointers")
SECCOMP_DENY(pidfd_getfd, EPERM, "copies a file descriptor out of another "
    "process")

/* Filesystem-wide views and path-check bypasses. */
SECCOMP_DENY(fanotify_init, EPERM, "watches filesystem-wide events")
SECCOMP_DENY(fanotify_mark, EPERM, "fanotify: see fanotify_init")
SECCOMP_DENY(name_to_handle_at, EPERM, "file handles: the first half of "
    "the open_by_handle_at escape")
SECCOMP_DENY(open_by_handle_at, EPERM, "opens a file by handle, past every "
    "path check (the 'shocker' container escape)")

/* Machine administration. */
SECCOMP_DENY(reboot, EPERM, "reboots or halts the machine")
SECCOMP_DENY(swapon, EPERM, "adds swap space")
SECCOMP_DENY(swapoff, EPERM, "removes swap space")
SECCOMP_DENY(sethostname, EPERM, "renames the host")
SECCOMP_DENY(setdomainname, EPERM, "renames the NIS domain")
SECCOMP_DENY(syslog, EPERM, "reads the kernel log: addresses that defeat "
    "KASLR")
SECCOMP_DENY(acct, EPERM, "switches process accounting")
SECCOMP_DENY(quotactl, EPERM, "manages disk quotas")
SECCOMP_DENY(quotactl_fd, EPERM, "manages disk quotas")
SECCOMP_DENY(settimeofday, EPERM, "sets the clock")
SECCOMP_DENY(clock_settime, EPERM, "sets a clock")
SECCOMP_DENY(adjtimex, EPERM, "adjusts the clock; its read-only form "
    "(modes 0) is denied too: the mode sits in a struct seccomp cannot "
    "read, and nothing in a lease needs the clock's discipline state")
SECCOMP_DENY(clock_adjtime, EPERM, "adjusts a clock; read-only form denied "
    "too, see adjtimex")
SECCOMP_DENY(iopl, EPERM, "raw I/O port access")
SECCOMP_DENY(ioperm, EPERM, "raw I/O port access")
SECCOMP_DENY(vhangup, EPERM, "hangs up the terminal")

/* System V IPC and POSIX message queues: named by a key or a name in
 * the IPC namespace, which uid-mode leases share with the host and one
 * another, so a tenant that creates a key first receives what the next
 * one writes. Node, npm, Python and Java never call them (strace). */
SECCOMP_DENY(shmget, EPERM, "System V shared memory: keys shared between "
    "leases of the same IPC namespace, a channel between tenants")
SECCOMP_DENY(shmat, EPERM, "System V IPC: see shmget")
SECCOMP_DENY(shmctl, EPERM, "System V IPC: see shmget")
SECCOMP_DENY(shmdt, EPERM, "System V IPC: see shmget")
SECCOMP_DENY(semget, EPERM, "System V semaphores: see shmget")
SECCOMP_DENY(semop, EPERM, "System V IPC: see shmget")
SECCOMP_DENY(semtimedop, EPERM, "System V IPC: see shmget")
SECCOMP_DENY(semctl, EPERM, "System V IPC: see shmget")
SECCOMP_DENY(msgget, EPERM, "System V message queues: see shmget")
SECCOMP_DENY(msgsnd, EPERM, "System V IPC: see shmget")
SECCOMP_DENY(msgrcv, EPERM, "System V IPC: see shmget")
SECCOMP_DENY(msgctl, EPERM, "System V IPC: see shmget")
SECCOMP_DENY(mq_open, EPERM, "POSIX message queues: names shared between "
    "leases of the same IPC namespace, see shmget")
SECCOMP_DENY(mq_unlink, EPERM, "POSIX message queues: see mq_open")
SECCOMP_DENY(mq_timedsend, EPERM, "POSIX message queues: see mq_open")
SECCOMP_DENY(mq_timedreceive, EPERM, "POSIX message queues: see mq_open")
SECCOMP_DENY(mq_notify, EPERM, "POSIX message queues: see mq_open")
SECCOMP_DENY(mq_getsetattr, EPERM, "POSIX message queues: see mq_open")

/* --- Argument rules. --- */

/* clone(2): threads and forks, never new namespaces. The deny rules
 * cover exactly what the allow rule leaves out (unit-tested). */
SECCOMP_ARG_ALLOW(clone, ARG_CLEAR(0, CLONE_NEW_ANY), ARG_ANY,
    "flags without any CLONE_NEW* flag")
SECCOMP_ARG_DENY(clone, EPERM, ARG_SET(0, CLONE_NEWNS), ARG_ANY,
    "flags with CLONE_NEWNS", "new mount namespace: see unshare")
SECCOMP_ARG_DENY(clone, EPERM, ARG_SET(0, CLONE_NEWCGROUP), ARG_ANY,
    "flags with CLONE_NEWCGROUP", "new cgroup namespace: see unshare")
SECCOMP_ARG_DENY(clone, EPERM, ARG_SET(0, CLONE_NEWUTS), ARG_ANY,
    "flags with CLONE_NEWUTS", "new UTS namespace: see unshare")
SECCOMP_ARG_DENY(clone, EPERM, ARG_SET(0, CLONE_NEWIPC), ARG_ANY,
    "flags with CLONE_NEWIPC", "new IPC namespace: see unshare")
SECCOMP_ARG_DENY(clone, EPERM, ARG_SET(0, CLONE_NEWUSER), ARG_ANY,
    "flags with CLONE_NEWUSER", "new user namespace: see unshare")
SECCOMP_ARG_DENY(clone, EPERM, ARG_SET(0, CLONE_NEWPID), ARG_ANY,
    "flags with CLONE_NEWPID", "new PID namespace: see unshare")
SECCOMP_ARG_DENY(clone, EPERM, ARG_SET(0, CLONE_NEWNET), ARG_ANY,
    "flags with CLONE_NEWNET", "new network namespace: see unshare")

/* ioctl(2): every request but terminal input injection. The kernel reads
 * the request as 32 bits, so the rules look at the low 32 only. */
SECCOMP_ARG_DENY(ioctl, EPERM, ARG_LOW32(1, TIOCSTI), ARG_ANY,
    "request TIOCSTI", "pushes bytes into a terminal's input: commands "
    "typed into whatever shell reads that terminal")
SECCOMP_ARG_DENY(ioctl, EPERM, ARG_LOW32(1, TIOCLINUX), ARG_ANY,
    "request TIOCLINUX", "virtual console selection and paste: the same "
    "injection on a VT")
SECCOMP_ARG_OTHERS(ioctl, 1, "every other request")

/* socket(2): an allowlist of address families. Each family is kernel
 * code reachable by anyone (and a module the kernel may load on first
 * use); these three are what node, python and java need (and netlink's
 * routing protocol for the services' own container). A jailed child
 * gets no AF_UNIX socket (only socketpair): the services' container
 * does. */
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_SERVICES
SECCOMP_ARG_ALLOW(socket, ARG_EQ(0, AF_UNIX), ARG_ANY, "family AF_UNIX")
#undef SECCOMP_IN
#define SECCOMP_IN (SECCOMP_IN_JAIL | SECCOMP_IN_JAIL_BIND)
SECCOMP_ARG_DENY(socket, EPERM, ARG_LOW32(0, AF_UNIX), ARG_ANY,
    "family AF_UNIX", "reaches every unix socket of the host by path (D-Bus, "
    "/dev/log, a container runtime's, the runner's own) and listens on "
    "abstract ones; Landlock does not govern connect() to a path socket. "
    "socketpair stays, and node, npm, python and java only use socket() "
    "for glibc's nscd, which falls back")
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_ALL
SECCOMP_ARG_ALLOW(socket, ARG_EQ(0, AF_INET), ARG_ANY, "family AF_INET")
SECCOMP_ARG_ALLOW(socket, ARG_EQ(0, AF_INET6), ARG_ANY, "family AF_INET6")
SECCOMP_ARG_DENY(socket, EPERM, ARG_LOW32(0, AF_PACKET), ARG_ANY,
    "family AF_PACKET", "raw link-layer packets: sniffing and spoofing on "
    "the host's network, and a history of kernel bugs")
SECCOMP_ARG_DENY(socket, EPERM, ARG_LOW32(0, AF_VSOCK), ARG_ANY,
    "family AF_VSOCK", "VM sockets: a path from a guest to its hypervisor")
/* Netlink, in a jailed child: kernel memory no memory cgroup is charged
 * for (a reply the reader never reads stays queued, up to 2 x rmem_max a
 * socket), and the host's links, addresses and routes in a shared
 * network namespace. What node, npm and glibc do with it (getifaddrs,
 * getaddrinfo's AI_ADDRCONFIG) falls back when the family is
 * unsupported (docs/SECCOMP.md has the figures). The services keep the
 * routing protocol, and sock_diag: they look up the uid behind a local
 * peer's socket with it (common/service/localpeer.h), to close a lease's
 * connection to their own ports. */
#undef SECCOMP_IN
#define SECCOMP_IN (SECCOMP_IN_JAIL | SECCOMP_IN_JAIL_BIND)
SECCOMP_ARG_DENY(socket, EAFNOSUPPORT, ARG_LOW32(0, AF_NETLINK), ARG_ANY,
    "family AF_NETLINK", "unaccounted kernel memory (replies left unread) "
    "and the host's network configuration; every use measured falls back "
    "without it")
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_SERVICES
SECCOMP_ARG_ALLOW(socket, ARG_EQ(0, AF_NETLINK),
    ARG_EQ(2, NETLINK_ROUTE_PROTOCOL),
    "family AF_NETLINK with protocol NETLINK_ROUTE")
SECCOMP_ARG_ALLOW(socket, ARG_EQ(0, AF_NETLINK),
    ARG_EQ(2, NETLINK_SOCK_DIAG_PROTOCOL),
    "family AF_NETLINK with protocol NETLINK_SOCK_DIAG")
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_ALL

/* socketpair(2): only AF_UNIX implements it usefully; other families
 * would only load kernel modules. */
SECCOMP_ARG_ALLOW(socketpair, ARG_EQ(0, AF_UNIX), ARG_ANY, "family AF_UNIX")

/* Accepting connections and datagrams: no lease or execution accepts
 * anything from outside itself (docs/SECURITY.md "Between tenants").
 * listen() is what TCP and stream unix servers need, with or without a
 * bind() first (without, the kernel picks the port, which Landlock does
 * not check); bind() is what UDP and unix datagram receivers need. The
 * services themselves listen (the container program), and
 * --allow-bind gives both back to leases (jail-allow-bind). */
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_JAIL
SECCOMP_DENY(listen, EPERM, "accepts connections: from other tenants' "
    "leases and the network, even without bind() (the kernel picks the "
    "port); --allow-bind permits it")
/* bind(): only with a netlink address's length, 12 (glibc's getifaddrs,
 * used by npm, binds its NETLINK_ROUTE socket). No other allowed family
 * takes 12: AF_INET needs 16, AF_INET6 24, and an AF_UNIX socket can
 * only come from socketpair, already connected, whose name nobody else
 * can reach. The kernel reads the length as int; any high bit is
 * refused. */
SECCOMP_ARG_ALLOW(bind, ARG_EQ(2, 12), ARG_ANY,
    "address length 12 (struct sockaddr_nl)")
SECCOMP_ARG_DENY(bind, EPERM, ARG_NE(2, 12), ARG_ANY,
    "any other address length", "names a port or socket others can send "
    "to: UDP bind, TCP bind (also Landlock's), unix socket names; "
    "--allow-bind permits it")
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_JAIL_BIND
SECCOMP_ALLOW_FOR(listen, "--allow-bind: the operator lets leases accept "
    "connections")
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_SERVICES
SECCOMP_ALLOW_FOR(listen, "the services accept connections themselves "
    "(the runner's and sandbox serve's listeners, the metrics port)")
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_JAIL_BIND
SECCOMP_ALLOW_FOR(bind, "--allow-bind: the operator lets leases name "
    "ports and sockets others can reach")
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_SERVICES
SECCOMP_ALLOW_FOR(bind, "the services bind their own listeners")
#undef SECCOMP_IN
#define SECCOMP_IN SECCOMP_IN_ALL

/* --- Left out of the baseline although Docker allows them (ENOSYS). --- */

SECCOMP_OMIT(epoll_ctl_old, "never implemented on x86_64")
SECCOMP_OMIT(epoll_wait_old, "never implemented on x86_64")
SECCOMP_OMIT(get_thread_area, "32-bit TLS descriptors; 64-bit code uses "
    "arch_prctl")
SECCOMP_OMIT(set_thread_area, "32-bit TLS descriptors; 64-bit code uses "
    "arch_prctl")
SECCOMP_OMIT(modify_ldt, "segment descriptors: only 16-bit code and Wine "
    "need them, and they have a history of kernel bugs")
SECCOMP_OMIT(personality, "execution domains: nothing a lease runs needs "
    "them, and ADDR_NO_RANDOMIZE would switch off ASLR for children")
SECCOMP_OMIT(remap_file_pages, "deprecated since Linux 3.16, emulated")

/* --- The baseline allowlist: sorted, one name a line. Everything here
 * is in Docker's unconditional allowlist (arch_prctl in its x86_64
 * list). --- */
SECCOMP_ALLOW(accept)
SECCOMP_ALLOW(accept4)
SECCOMP_ALLOW(access)
SECCOMP_ALLOW(alarm)
SECCOMP_ALLOW(arch_prctl)
SECCOMP_ALLOW(brk)
SECCOMP_ALLOW(cachestat)
SECCOMP_ALLOW(capget)
SECCOMP_ALLOW(capset)
SECCOMP_ALLOW(chdir)
SECCOMP_ALLOW(chmod)
SECCOMP_ALLOW(chown)
SECCOMP_ALLOW(clock_getres)
SECCOMP_ALLOW(clock_gettime)
SECCOMP_ALLOW(clock_nanosleep)
SECCOMP_ALLOW(close)
SECCOMP_ALLOW(close_range)
SECCOMP_ALLOW(connect)
SECCOMP_ALLOW(copy_file_range)
SECCOMP_ALLOW(creat)
SECCOMP_ALLOW(dup)
SECCOMP_ALLOW(dup2)
SECCOMP_ALLOW(dup3)
SECCOMP_ALLOW(epoll_create)
SECCOMP_ALLOW(epoll_create1)
SECCOMP_ALLOW(epoll_ctl)
SECCOMP_ALLOW(epoll_pwait)
SECCOMP_ALLOW(epoll_pwait2)
SECCOMP_ALLOW(epoll_wait)
SECCOMP_ALLOW(eventfd)
SECCOMP_ALLOW(eventfd2)
SECCOMP_ALLOW(execve)
SECCOMP_ALLOW(execveat)
SECCOMP_ALLOW(exit)
SECCOMP_ALLOW(exit_group)
SECCOMP_ALLOW(faccessat)
SECCOMP_ALLOW(faccessat2)
SECCOMP_ALLOW(fadvise64)
SECCOMP_ALLOW(fallocate)
SECCOMP_ALLOW(fchdir)
SECCOMP_ALLOW(fchmod)
SECCOMP_ALLOW(fchmodat)
SECCOMP_ALLOW(fchmodat2)
SECCOMP_ALLOW(fchown)
SECCOMP_ALLOW(fchownat)
SECCOMP_ALLOW(fcntl)
SECCOMP_ALLOW(fdatasync)
SECCOMP_ALLOW(fgetxattr)
SECCOMP_ALLOW(flistxattr)
SECCOMP_ALLOW(flock)
SECCOMP_ALLOW(fork)
SECCOMP_ALLOW(fremovexattr)
SECCOMP_ALLOW(fsetxattr)
SECCOMP_ALLOW(fstat)
SECCOMP_ALLOW(fstatfs)
SECCOMP_ALLOW(fsync)
SECCOMP_ALLOW(ftruncate)
SECCOMP_ALLOW(futex)
SECCOMP_ALLOW(futex_requeue)
SECCOMP_ALLOW(futex_wait)
SECCOMP_ALLOW(futex_waitv)
SECCOMP_ALLOW(futex_wake)
SECCOMP_ALLOW(futimesat)
SECCOMP_ALLOW(get_robust_list)
SECCOMP_ALLOW(getcpu)
SECCOMP_ALLOW(getcwd)
SECCOMP_ALLOW(getdents)
SECCOMP_ALLOW(getdents64)
SECCOMP_ALLOW(getegid)
SECCOMP_ALLOW(geteuid)
SECCOMP_ALLOW(getgid)
SECCOMP_ALLOW(getgroups)
SECCOMP_ALLOW(getitimer)
SECCOMP_ALLOW(getpeername)
SECCOMP_ALLOW(getpgid)
SECCOMP_ALLOW(getpgrp)
SECCOMP_ALLOW(getpid)
SECCOMP_ALLOW(getppid)
SECCOMP_ALLOW(getpriority)
SECCOMP_ALLOW(getrandom)
SECCOMP_ALLOW(getresgid)
SECCOMP_ALLOW(getresuid)
SECCOMP_ALLOW(getrlimit)
SECCOMP_ALLOW(getrusage)
SECCOMP_ALLOW(getsid)
SECCOMP_ALLOW(getsockname)
SECCOMP_ALLOW(getsockopt)
SECCOMP_ALLOW(gettid)
SECCOMP_ALLOW(gettimeofday)
SECCOMP_ALLOW(getuid)
SECCOMP_ALLOW(getxattr)
SECCOMP_ALLOW(inotify_add_watch)
SECCOMP_ALLOW(inotify_init)
SECCOMP_ALLOW(inotify_init1)
SECCOMP_ALLOW(inotify_rm_watch)
SECCOMP_ALLOW(io_cancel)
SECCOMP_ALLOW(io_destroy)
SECCOMP_ALLOW(io_getevents)
SECCOMP_ALLOW(io_pgetevents)
SECCOMP_ALLOW(io_setup)
SECCOMP_ALLOW(io_submit)
SECCOMP_ALLOW(ioprio_get)
SECCOMP_ALLOW(ioprio_set)
SECCOMP_ALLOW(kill)
SECCOMP_ALLOW(landlock_add_rule)
SECCOMP_ALLOW(landlock_create_ruleset)
SECCOMP_ALLOW(landlock_restrict_self)
SECCOMP_ALLOW(lchown)
SECCOMP_ALLOW(lgetxattr)
SECCOMP_ALLOW(link)
SECCOMP_ALLOW(linkat)
SECCOMP_ALLOW(listxattr)
SECCOMP_ALLOW(llistxattr)
SECCOMP_ALLOW(lremovexattr)
SECCOMP_ALLOW(lseek)
SECCOMP_ALLOW(lsetxattr)
SECCOMP_ALLOW(lstat)
SECCOMP_ALLOW(madvise)
SECCOMP_ALLOW(map_shadow_stack)
SECCOMP_ALLOW(membarrier)
SECCOMP_ALLOW(memfd_create)
SECCOMP_ALLOW(memfd_secret)
SECCOMP_ALLOW(mincore)
SECCOMP_ALLOW(mkdir)
SECCOMP_ALLOW(mkdirat)
SECCOMP_ALLOW(mknod)
SECCOMP_ALLOW(mknodat)
SECCOMP_ALLOW(mlock)
SECCOMP_ALLOW(mlock2)
SECCOMP_ALLOW(mlockall)
SECCOMP_ALLOW(mmap)
SECCOMP_ALLOW(mprotect)
SECCOMP_ALLOW(mremap)
SECCOMP_ALLOW(msync)
SECCOMP_ALLOW(munlock)
SECCOMP_ALLOW(munlockall)
SECCOMP_ALLOW(munmap)
SECCOMP_ALLOW(nanosleep)
SECCOMP_ALLOW(newfstatat)
SECCOMP_ALLOW(open)
SECCOMP_ALLOW(openat)
SECCOMP_ALLOW(openat2)
SECCOMP_ALLOW(pause)
SECCOMP_ALLOW(pidfd_open)
SECCOMP_ALLOW(pidfd_send_signal)
SECCOMP_ALLOW(pipe)
SECCOMP_ALLOW(pipe2)
SECCOMP_ALLOW(pkey_alloc)
SECCOMP_ALLOW(pkey_free)
SECCOMP_ALLOW(pkey_mprotect)
SECCOMP_ALLOW(poll)
SECCOMP_ALLOW(ppoll)
SECCOMP_ALLOW(prctl)
SECCOMP_ALLOW(pread64)
SECCOMP_ALLOW(preadv)
SECCOMP_ALLOW(preadv2)
SECCOMP_ALLOW(prlimit64)
SECCOMP_ALLOW(process_mrelease)
SECCOMP_ALLOW(pselect6)
SECCOMP_ALLOW(pwrite64)
SECCOMP_ALLOW(pwritev)
SECCOMP_ALLOW(pwritev2)
SECCOMP_ALLOW(read)
SECCOMP_ALLOW(readahead)
SECCOMP_ALLOW(readlink)
SECCOMP_ALLOW(readlinkat)
SECCOMP_ALLOW(readv)
SECCOMP_ALLOW(recvfrom)
SECCOMP_ALLOW(recvmmsg)
SECCOMP_ALLOW(recvmsg)
SECCOMP_ALLOW(removexattr)
SECCOMP_ALLOW(rename)
SECCOMP_ALLOW(renameat)
SECCOMP_ALLOW(renameat2)
SECCOMP_ALLOW(restart_syscall)
SECCOMP_ALLOW(rmdir)
SECCOMP_ALLOW(rseq)
SECCOMP_ALLOW(rt_sigaction)
SECCOMP_ALLOW(rt_sigpending)
SECCOMP_ALLOW(rt_sigprocmask)
SECCOMP_ALLOW(rt_sigqueueinfo)
SECCOMP_ALLOW(rt_sigreturn)
SECCOMP_ALLOW(rt_sigsuspend)
SECCOMP_ALLOW(rt_sigtimedwait)
SECCOMP_ALLOW(rt_tgsigqueueinfo)
SECCOMP_ALLOW(sched_get_priority_max)
SECCOMP_ALLOW(sched_get_priority_min)
SECCOMP_ALLOW(sched_getaffinity)
SECCOMP_ALLOW(sched_getattr)
SECCOMP_ALLOW(sched_getparam)
SECCOMP_ALLOW(sched_getscheduler)
SECCOMP_ALLOW(sched_rr_get_interval)
SECCOMP_ALLOW(sched_setaffinity)
SECCOMP_ALLOW(sched_setattr)
SECCOMP_ALLOW(sched_setparam)
SECCOMP_ALLOW(sched_setscheduler)
SECCOMP_ALLOW(sched_yield)
SECCOMP_ALLOW(seccomp)
SECCOMP_ALLOW(select)
SECCOMP_ALLOW(sendfile)
SECCOMP_ALLOW(sendmmsg)
SECCOMP_ALLOW(sendmsg)
SECCOMP_ALLOW(sendto)
SECCOMP_ALLOW(set_robust_list)
SECCOMP_ALLOW(set_tid_address)
SECCOMP_ALLOW(setfsgid)
SECCOMP_ALLOW(setfsuid)
SECCOMP_ALLOW(setgid)
SECCOMP_ALLOW(setgroups)
SECCOMP_ALLOW(setitimer)
SECCOMP_ALLOW(setpgid)
SECCOMP_ALLOW(setpriority)
SECCOMP_ALLOW(setregid)
SECCOMP_ALLOW(setresgid)
SECCOMP_ALLOW(setresuid)
SECCOMP_ALLOW(setreuid)
SECCOMP_ALLOW(setrlimit)
SECCOMP_ALLOW(setsid)
SECCOMP_ALLOW(setsockopt)
SECCOMP_ALLOW(setuid)
SECCOMP_ALLOW(setxattr)
SECCOMP_ALLOW(shutdown)
SECCOMP_ALLOW(sigaltstack)
SECCOMP_ALLOW(signalfd)
SECCOMP_ALLOW(signalfd4)
SECCOMP_ALLOW(splice)
SECCOMP_ALLOW(stat)
SECCOMP_ALLOW(statfs)
SECCOMP_ALLOW(statx)
SECCOMP_ALLOW(symlink)
SECCOMP_ALLOW(symlinkat)
SECCOMP_ALLOW(sync)
SECCOMP_ALLOW(sync_file_range)
SECCOMP_ALLOW(syncfs)
SECCOMP_ALLOW(sysinfo)
SECCOMP_ALLOW(tee)
SECCOMP_ALLOW(tgkill)
SECCOMP_ALLOW(time)
SECCOMP_ALLOW(timer_create)
SECCOMP_ALLOW(timer_delete)
SECCOMP_ALLOW(timer_getoverrun)
SECCOMP_ALLOW(timer_gettime)
SECCOMP_ALLOW(timer_settime)
SECCOMP_ALLOW(timerfd_create)
SECCOMP_ALLOW(timerfd_gettime)
SECCOMP_ALLOW(timerfd_settime)
SECCOMP_ALLOW(times)
SECCOMP_ALLOW(tkill)
SECCOMP_ALLOW(truncate)
SECCOMP_ALLOW(umask)
SECCOMP_ALLOW(uname)
SECCOMP_ALLOW(unlink)
SECCOMP_ALLOW(unlinkat)
SECCOMP_ALLOW(utime)
SECCOMP_ALLOW(utimensat)
SECCOMP_ALLOW(utimes)
SECCOMP_ALLOW(vfork)
SECCOMP_ALLOW(vmsplice)
SECCOMP_ALLOW(wait4)
SECCOMP_ALLOW(waitid)
SECCOMP_ALLOW(write)
SECCOMP_ALLOW(writev)

#undef ARG_EQ
#undef ARG_NE
#undef SECCOMP_IN
#undef ARG_LOW32
#undef ARG_CLEAR
#undef ARG_SET
#undef ARG_ANY
#undef CLONE_NEW_ANY
#undef NETLINK_ROUTE_PROTOCOL
#undef NETLINK_SOCK_DIAG_PROTOCOL
#undef SECCOMP_DENY
#undef SECCOMP_ARG_ALLOW
#undef SECCOMP_ARG_DENY
#undef SECCOMP_ARG_OTHERS
#undef SECCOMP_OMIT
#undef SECCOMP_ALLOW
#undef SECCOMP_ALLOW_FOR
