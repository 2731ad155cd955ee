/* seccomp_policy_test.c - the policy data is sound (every name resolves,
 * no allow/deny overlap, the deny set the issue requires is there) and
 * compiles to a stable, working BPF program. */
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/jail/seccomp_policy.h"
#include "tap.h"

#define NCOND { -1, SECCOMP_CMP_NONE, 0, 0 }
#define BLOCK_CAP 512

/* The rules of the program under test (use_program): the checks below
 * hold for each program on its own. */
static struct seccomp_rule pol[1024];
static size_t npol;
static enum seccomp_program cur;

static void
use_program(enum seccomp_program p)
{
	if (seccomp_policy_len > sizeof pol / sizeof pol[0])
		abort();
	npol = seccomp_policy_select(seccomp_policy, seccomp_policy_len, p,
	    pol);
	cur = p;
	printf("# program %s: %zu rules\n", seccomp_program_name(p), npol);
}

/* The deny set of the issue: name and errno (socket, clone and ioctl are
 * checked as argument rules below). */
static const struct {
	const char *name;
	int err;
} required[] = {
	{ "unshare", EPERM }, { "setns", EPERM }, { "mount", EPERM },
	{ "umount2", EPERM }, { "pivot_root", EPERM }, { "fsopen", EPERM },
	{ "fsconfig", EPERM }, { "fsmount", EPERM }, { "fspick", EPERM },
	{ "move_mount", EPERM }, { "open_tree", EPERM },
	{ "mount_setattr", EPERM }, { "clone3", ENOSYS }, { "bpf", EPERM },
	{ "perf_event_open", EPERM }, { "io_uring_setup", EPERM },
	{ "io_uring_enter", EPERM }, { "io_uring_register", EPERM },
	{ "userfaultfd", EPERM }, { "kexec_load", EPERM },
	{ "kexec_file_load", EPERM }, { "init_module", EPERM },
	{ "finit_module", EPERM }, { "delete_module", EPERM },
	{ "keyctl", EPERM }, { "add_key", EPERM }, { "request_key", EPERM },
	{ "ptrace", EPERM }, { "process_vm_readv", EPERM },
	{ "process_vm_writev", EPERM }, { "kcmp", EPERM },
	{ "pidfd_getfd", EPERM }, { "fanotify_init", EPERM },
	{ "fanotify_mark", EPERM }, { "name_to_handle_at", EPERM },
	{ "open_by_handle_at", EPERM }, { "reboot", EPERM },
	{ "swapon", EPERM }, { "swapoff", EPERM }, { "sethostname", EPERM },
	{ "setdomainname", EPERM }, { "syslog", EPERM }, { "acct", EPERM },
	{ "quotactl", EPERM }, { "quotactl_fd", EPERM },
	{ "settimeofday", EPERM }, { "clock_settime", EPERM },
	{ "clock_adjtime", EPERM }, { "adjtimex", EPERM }, { "iopl", EPERM },
	{ "ioperm", EPERM }, { "vhangup", EPERM },
};

static int
cond_matches(const struct seccomp_cond *c, const uint64_t *args)
{
	switch (c->cmp) {
	case SECCOMP_CMP_NONE:
		return 1;
	case SECCOMP_CMP_EQ:
		return args[c->arg] == c->a;
	case SECCOMP_CMP_NE:
		return args[c->arg] != c->a;
	case SECCOMP_CMP_MASKED_EQ:
		return (args[c->arg] & c->a) == c->b;
	}
	return 0;
}

/* +1 allowed, -err denied, 0 no rule of name matched (the default). A
 * value matched by rules with different outcomes is reported. */
static int
evaluate(const char *name, const uint64_t *args, int *conflict)
{
	struct seccomp_block blocks[BLOCK_CAP];
	int out = 0;

	*conflict = 0;
	for (size_t i = 0; i < npol; i++) {
		const struct seccomp_rule *r = &pol[i];
		int v = 0;

		if (strcmp(r->name, name) != 0)
			continue;
		if (r->kind == SECCOMP_KIND_ARG_ALLOW &&
		    cond_matches(&r->cond[0], args) &&
		    cond_matches(&r->cond[1], args))
			v = 1;
		if (r->kind == SECCOMP_KIND_ARG_DENY &&
		    cond_matches(&r->cond[0], args) &&
		    cond_matches(&r->cond[1], args))
			v = -r->err;
		if (r->kind == SECCOMP_KIND_ARG_OTHERS) {
			long nb = seccomp_policy_others(pol,
			    npol, name, r->cond[0].arg, blocks,
			    BLOCK_CAP);
			uint32_t low = (uint32_t)args[r->cond[0].arg];

			for (long b = 0; b < nb; b++)
				if ((low & blocks[b].mask) == blocks[b].value)
					v = 1;
		}
		if (v && out && v != out)
			*conflict = 1;
		if (v)
			out = v;
	}
	return out;
}

/* Interesting values for argument arg of name: every constant its rules
 * mention, each bit of every mask, and the same with high garbage. */
static size_t
samples(const char *name, int arg, uint64_t *out, size_t cap)
{
	size_t n = 0;
	static const uint64_t fixed[] = { 0, 1, 2, 0xffffffffu,
		0xffffffffffffffffu, (uint64_t)1 << 32, 0x7fffffffu };

#define PUT(v) do { if (n < cap) out[n++] = (v); } while (0)
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		PUT(fixed[i]);
	for (size_t i = 0; i < npol; i++) {
		const struct seccomp_rule *r = &pol[i];

		if (strcmp(r->name, name) != 0)
			continue;
		for (int k = 0; k < 2; k++) {
			const struct seccomp_cond *c = &r->cond[k];
			uint64_t base = c->cmp == SECCOMP_CMP_MASKED_EQ ? c->b :
			    c->a;

			if (c->arg != arg || c->cmp == SECCOMP_CMP_NONE)
				continue;
			PUT(base);
			PUT(base ^ 1);
			PUT(base | (uint64_t)1 << 32);
			PUT(base | 0xffffffff00000000u);
			PUT(base + 1);
			PUT(base - 1);
			for (int bit = 0; bit < 64; bit++)
				if (c->cmp == SECCOMP_CMP_MASKED_EQ &&
				    (c->a >> bit & 1)) {
					PUT(base ^ (uint64_t)1 << bit);
					PUT((uint64_t)1 << bit);
				}
		}
	}
#undef PUT
	return n;
}

/* No sample of an argument-ruled syscall is both allowed and denied. */
static void
test_no_overlap(const char *name, int arg0, int arg1)
{
	static uint64_t v0[1024], v1[1024];
	size_t n0 = samples(name, arg0, v0, 1024), n1 = 1;
	uint64_t args[6] = { 0 };
	long conflicts = 0, tried = 0;
	int conflict;

	if (arg1 >= 0)
		n1 = samples(name, arg1, v1, 1024);
	for (size_t i = 0; i < n0; i++)
		for (size_t j = 0; j < n1; j++) {
			args[arg0] = v0[i];
			if (arg1 >= 0)
				args[arg1] = v1[j];
			evaluate(name, args, &conflict);
			conflicts += conflict;
			tried++;
		}
	ok(conflicts == 0 && tried > 10, "%s: no allow rule overlaps a deny "
	    "rule (%ld samples, %ld conflicts)", name, tried, conflicts);
}

static void
test_names_resolve(void)
{
	size_t bad = 0;

	for (size_t i = 0; i < seccomp_policy_len; i++) {
		int nr = seccomp_syscall_resolve_name(seccomp_policy[i].name);

		if (nr < 0) {
			printf("# '%s' does not resolve (%d)\n", seccomp_policy[i].name,
			    nr);
			bad++;
		}
		if ((seccomp_policy[i].in & SECCOMP_IN_ALL) == 0 ||
		    (seccomp_policy[i].in & ~SECCOMP_IN_ALL) != 0) {
			printf("# '%s': rule %zu is in no program or an "
			    "unknown one\n", seccomp_policy[i].name, i);
			bad++;
		}
	}
	ok(bad == 0, "all %zu policy names resolve to native syscalls, each "
	    "rule in a known program", seccomp_policy_len);
}

static void
test_classes(void)
{
	size_t mixed = 0, apart = 0, allow = 0, unsorted = 0;
	const char *last_allow = "";

	for (size_t i = 0; i < npol; i++) {
		const struct seccomp_rule *r = &pol[i];
		int arg = r->kind == SECCOMP_KIND_ARG_ALLOW ||
		    r->kind == SECCOMP_KIND_ARG_DENY ||
		    r->kind == SECCOMP_KIND_ARG_OTHERS;

		if (r->kind == SECCOMP_KIND_ALLOW)
			allow++;
		/* the baseline, every program's: one sorted list */
		if (r->kind == SECCOMP_KIND_ALLOW && r->in == SECCOMP_IN_ALL) {
			if (strcmp(last_allow, r->name) >= 0)
				unsorted++;
			last_allow = r->name;
		}
		for (size_t j = 0; j < i; j++) {
			const struct seccomp_rule *q = &pol[j];
			int qarg = q->kind == SECCOMP_KIND_ARG_ALLOW ||
			    q->kind == SECCOMP_KIND_ARG_DENY ||
			    q->kind == SECCOMP_KIND_ARG_OTHERS;

			if (strcmp(q->name, r->name) != 0)
				continue;
			if (!arg || !qarg) {
				printf("# '%s' is in two classes\n", r->name);
				mixed++;
			}
			if (strcmp(pol[i - 1].name, r->name) != 0)
				apart++;
		}
	}
	ok(mixed == 0, "no name is both allowed and denied/omitted, or both "
	    "unconditional and argument-ruled");
	ok(apart == 0, "the rules of each name are adjacent");
	ok(unsorted == 0, "the baseline allowlist is sorted without "
	    "duplicates");
	ok(allow > 250 && allow < 300, "the allowlist has %zu names", allow);
}

static void
test_required(void)
{
	size_t first, count, missing = 0;

	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
		enum seccomp_verdict v = seccomp_policy_explain(pol,
		    npol, required[i].name, &first, &count);

		/* the runner program's three, test_runner_namespaces */
		if (cur == SECCOMP_PROG_RUNNER && i < 3)
			continue;

		if (v != SECCOMP_DENIED ||
		    pol[first].err != required[i].err) {
			printf("# %s is not denied with errno %d\n",
			    required[i].name, required[i].err);
			missing++;
		}
	}
	ok(missing == 0, "the issue's %zu deny-set names are denied with "
	    "their errno", sizeof required / sizeof required[0]);
}

static void
test_arg_rules(void)
{
	uint64_t a[6] = { 0 };
	int c;

	a[0] = AF_PACKET;
	ok(evaluate("socket", a, &c) == -EPERM, "socket(AF_PACKET) is EPERM");
	a[0] = (uint64_t)1 << 32 | AF_PACKET;
	ok(evaluate("socket", a, &c) == -EPERM, "socket(AF_PACKET with high "
	    "bits) is EPERM");
	a[0] = AF_VSOCK;
	ok(evaluate("socket", a, &c) == -EPERM, "socket(AF_VSOCK) is EPERM");
	a[0] = AF_INET;
	ok(evaluate("socket", a, &c) == 1, "socket(AF_INET) is allowed");
	a[0] = AF_NETLINK;
	a[2] = 4;	/* NETLINK_SOCK_DIAG */
	ok(evaluate("socket", a, &c) == -EAFNOSUPPORT, "socket(AF_NETLINK, "
	    "NETLINK_SOCK_DIAG) is EAFNOSUPPORT");
	a[2] = 0;	/* NETLINK_ROUTE */
	ok(evaluate("socket", a, &c) == -EAFNOSUPPORT, "socket(AF_NETLINK, "
	    "NETLINK_ROUTE) is EAFNOSUPPORT");
	a[0] = (uint64_t)1 << 32 | AF_NETLINK;
	ok(evaluate("socket", a, &c) == -EAFNOSUPPORT, "socket(AF_NETLINK "
	    "with high bits) is EAFNOSUPPORT");
	a[0] = CLONE_NEWUSER | SIGCHLD;
	ok(evaluate("clone", a, &c) == -EPERM, "clone(CLONE_NEWUSER) is EPERM");
	a[0] = 0x3d0f00;	/* glibc's pthread_create flags */
	ok(evaluate("clone", a, &c) == 1, "clone(thread flags) is allowed");
	a[0] = 0;
	a[1] = TIOCSTI;
	ok(evaluate("ioctl", a, &c) == -EPERM, "ioctl(TIOCSTI) is EPERM");
	a[1] = 0xffffffff00000000u | TIOCSTI;
	ok(evaluate("ioctl", a, &c) == -EPERM, "ioctl(TIOCSTI, high bits) "
	    "is EPERM");
	a[1] = TIOCLINUX;
	ok(evaluate("ioctl", a, &c) == -EPERM, "ioctl(TIOCLINUX) is EPERM");
	a[1] = 0xffffffff80000000u | 0x5401;	/* sign-extended request */
	ok(evaluate("ioctl", a, &c) == 1, "ioctl(other, sign-extended) is "
	    "allowed");

	test_no_overlap("socket", 0, 2);
	test_no_overlap("socketpair", 0, -1);
	test_no_overlap("clone", 0, -1);
	test_no_overlap("ioctl", 1, -1);
}

/* Every clone flags value is decided by a rule: the deny bits are
 * exactly the bits the allow rule requires clear. */
static void
test_clone_covered(void)
{
	uint64_t allow_mask = 0, deny_bits = 0;

	for (size_t i = 0; i < npol; i++) {
		const struct seccomp_rule *r = &pol[i];

		if (strcmp(r->name, "clone") != 0)
			continue;
		if (r->kind == SECCOMP_KIND_ARG_ALLOW)
			allow_mask |= r->cond[0].a;
		if (r->kind == SECCOMP_KIND_ARG_DENY)
			deny_bits |= r->cond[0].a;
	}
	ok(allow_mask != 0 && allow_mask == deny_bits, "clone: one deny rule "
	    "per CLONE_NEW* bit the allow rule excludes (%#llx)",
	    (unsigned long long)allow_mask);
}

static void
test_others(void)
{
	struct seccomp_block b[BLOCK_CAP];
	long n = seccomp_policy_others(pol, npol,
	    "ioctl", 1, b, BLOCK_CAP);
	uint32_t x = 0x12345678;
	long wrong = 0, order = 0;

	ok(n > 0 && n < 100, "ioctl: the other requests are %ld blocks", n);
	for (long i = 1; i < n; i++)
		if (b[i].value <= b[i - 1].value)
			order++;
	ok(order == 0, "ioctl: blocks ascend");
	/* every 32-bit value: in exactly one block, unless denied */
	for (long k = 0; k < 200000; k++) {
		int hits = 0, denied;

		x = x * 1103515245u + 12345u;	/* a fixed LCG */
		if (k < 64)
			x = (uint32_t)(TIOCSTI ^ (k < 32 ? 1u << k : 0)) |
			    (k == 63 ? TIOCLINUX : 0);
		denied = x == TIOCSTI || x == TIOCLINUX;
		for (long i = 0; i < n; i++)
			hits += (x & b[i].mask) == b[i].value;
		if (hits != (denied ? 0 : 1))
			wrong++;
	}
	ok(wrong == 0, "ioctl: each sampled request lies in exactly one block "
	    "unless denied (%ld wrong)", wrong);
	ok(seccomp_policy_others(pol, npol, "ioctl",
	    1, b, 4) == -1, "too small a block array is an error");
	ok(seccomp_policy_others(pol, npol, "clone",
	    0, b, BLOCK_CAP) == -1, "clone's deny rules (bit tests, not "
	    "ARG_LOW32) have no complement blocks");
	ok(seccomp_policy_others(pol, npol,
	    "socketpair", 0, b, BLOCK_CAP) == -1, "a name without deny rules "
	    "has no complement blocks");
}

static void
test_compile(void)
{
	struct sock_fprog p1, p2;
	char err[256];
	int rc1, rc2;

	rc1 = seccomp_policy_compile(pol, npol, &p1,
	    err, sizeof err);
	if (!ok(rc1 == 0, "the policy compiles"))
		printf("# %s\n", err);
	rc2 = seccomp_policy_compile(pol, npol, &p2,
	    err, sizeof err);
	ok(rc1 == 0 && p1.len > 100 && p1.len <= BPF_MAXINSNS,
	    "the BPF program has %u instructions", rc1 == 0 ? p1.len : 0);
	ok(rc1 == 0 && rc2 == 0 && p1.len == p2.len &&
	    memcmp(p1.filter, p2.filter, p1.len * sizeof *p1.filter) == 0,
	    "two compilations give the same bytes");
	ok(rc1 == 0 && p1.len == seccomp_policy_bpf_len[cur] &&
	    memcmp(p1.filter, seccomp_policy_bpf[cur],
	    p1.len * sizeof *p1.filter) == 0, "%s: the program compiled at "
	    "build time is the same bytes as a fresh compile of the table",
	    seccomp_program_name(cur));
	if (rc1 == 0)
		seccomp_policy_free(&p1);
	if (rc2 == 0)
		seccomp_policy_free(&p2);
	ok(p1.filter == NULL && p1.len == 0, "free clears the program");
}

static void
test_compile_errors(void)
{
	static const struct seccomp_rule unknown[] = {
		{ "read", SECCOMP_KIND_ALLOW, 0, { NCOND, NCOND }, NULL, NULL, SECCOMP_IN_ALL },
		{ "no_such_syscall", SECCOMP_KIND_ALLOW, 0, { NCOND, NCOND },
		  NULL, NULL, SECCOMP_IN_ALL },
	};
	static const struct seccomp_rule foreign[] = {
		{ "chown32", SECCOMP_KIND_DENY, EPERM, { NCOND, NCOND }, NULL,
		  "x86 only", SECCOMP_IN_ALL },
	};
	static const struct seccomp_rule omitted[] = {
		{ "no_such_syscall", SECCOMP_KIND_OMIT, 0, { NCOND, NCOND },
		  NULL, "never", SECCOMP_IN_ALL },
	};
	static const struct seccomp_rule mixed[] = {
		{ "socket", SECCOMP_KIND_ALLOW, 0, { NCOND, NCOND }, NULL,
		  NULL, SECCOMP_IN_ALL },
		{ "socket", SECCOMP_KIND_ARG_DENY, EPERM,
		  { { 0, SECCOMP_CMP_EQ, 17, 0 }, NCOND }, "AF_PACKET", "x",
		  SECCOMP_IN_ALL },
	};
	static const struct seccomp_rule sameargs[] = {
		{ "socket", SECCOMP_KIND_ARG_ALLOW, 0,
		  { { 0, SECCOMP_CMP_EQ, 1, 0 }, { 0, SECCOMP_CMP_EQ, 2, 0 } },
		  "1 and 2", NULL, SECCOMP_IN_ALL },
	};
	struct sock_fprog p;
	char err[256];

	ok(seccomp_policy_compile(unknown, 2, &p, err, sizeof err) == -1 &&
	    strstr(err, "'no_such_syscall'") && p.filter == NULL,
	    "an unknown name is an error naming it: %s", err);
	ok(seccomp_policy_compile(foreign, 1, &p, err, sizeof err) == -1 &&
	    strstr(err, "'chown32'"), "a name of another ABI is an error: %s",
	    err);
	ok(seccomp_policy_compile(omitted, 1, &p, err, sizeof err) == -1 &&
	    strstr(err, "'no_such_syscall'"), "an unknown OMIT name is an "
	    "error too: %s", err);
	ok(seccomp_policy_compile(mixed, 2, &p, err, sizeof err) == -1 &&
	    strstr(err, "'socket'"), "unconditional and argument rules for one "
	    "name are refused: %s", err);
	ok(seccomp_policy_compile(sameargs, 1, &p, err, sizeof err) == -1,
	    "two conditions on one argument are refused: %s", err);
}

/* A denied call under the real filter, in a child: the result, or
 * -1000 - errno when installing failed. */
static int
in_child(int as_nobody, int set_nnp, long (*call)(void))
{
	struct sock_fprog p;
	pid_t pid;
	int st;

	seccomp_policy_program(&p, cur);	/* what the jails install */
	fflush(stdout);
	if ((pid = fork()) < 0)
		return -2001;
	if (pid == 0) {
		long r;

		if (as_nobody && (setgroups(0, NULL) != 0 ||
		    setresgid(65534, 65534, 65534) != 0 ||
		    setresuid(65534, 65534, 65534) != 0))
			_exit(201);
		if (set_nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
			_exit(202);
		if (seccomp_policy_install(&p) != 0)
			_exit(errno == EPERM ? 203 : 204);
		r = call();
		_exit(r < 0 ? (int)(-r & 0x7f) : 100);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -2002;
	return WEXITSTATUS(st);
}

static long
call_keyctl(void)
{
	long r = syscall(SYS_keyctl, 0L, -3L, 0L);

	return r < 0 ? -errno : r;
}

static long
call_getppid(void)
{
	return syscall(SYS_getppid) < 0 ? -errno : 0;
}

static long
call_chroot(void)
{
	return syscall(SYS_chroot, "/") < 0 ? -errno : 0;
}

static void
test_install(void)
{
	ok(in_child(0, 0, call_getppid) == 203, "install refuses without "
	    "no_new_privs (EPERM)");
	ok(in_child(0, 1, call_keyctl) == EPERM, "installed: keyctl fails "
	    "with EPERM");
	ok(in_child(0, 1, call_chroot) == ENOSYS, "installed: chroot (not "
	    "listed) fails with ENOSYS");
	ok(in_child(0, 1, call_getppid) == 100, "installed: getppid works");
	if (geteuid() != 0) {
		ok(in_child(0, 1, call_keyctl) == EPERM, "installs as an "
		    "unprivileged user");
		return;
	}
	ok(in_child(1, 1, call_keyctl) == EPERM, "installs after dropping to "
	    "uid 65534 (no capabilities)");
}

static void
test_explain(void)
{
	static const struct {
		const char *name;
		enum seccomp_verdict v;
	} cases[] = {
		{ "read", SECCOMP_ALLOWED }, { "ptrace", SECCOMP_DENIED },
		{ "socket", SECCOMP_BY_ARGS }, { "ioctl", SECCOMP_BY_ARGS },
		{ "modify_ldt", SECCOMP_OMITTED },
		{ "chroot", SECCOMP_NOT_LISTED },
		{ "no_such_syscall", SECCOMP_UNKNOWN },
		{ "chown32", SECCOMP_UNKNOWN },
	};
	size_t first, count;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ok(seccomp_policy_explain(pol, npol,
		    cases[i].name, &first, &count) == cases[i].v,
		    "explain %s", cases[i].name);
	ok(seccomp_policy_explain(pol, npol, "clone",
	    &first, &count) == SECCOMP_BY_ARGS && count == 8,
	    "explain clone gives its 8 rules");
}

static void
test_export(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ok(f && seccomp_policy_export_docker(pol,
	    npol, f) == 0, "the Docker export writes");
	if (f)
		fclose(f);
	ok(buf && len > 1000 && buf[0] == '{' && buf[len - 2] == '}' &&
	    strstr(buf, "\"defaultErrnoRet\": 38"), "the Docker export looks "
	    "like a profile (%zu bytes)", len);
	free(buf);
}

/* What a program answers for name: +1 allowed, -err denied, 0 the
 * default; unconditional rules and argument rules alike. */
static int
answer(const char *name, const uint64_t *args)
{
	size_t first, count;
	int c;

	switch (seccomp_policy_explain(pol, npol, name, &first, &count)) {
	case SECCOMP_ALLOWED:
		return 1;
	case SECCOMP_DENIED:
		return -pol[first].err;
	case SECCOMP_BY_ARGS:
		return evaluate(name, args, &c);
	default:
		return 0;
	}
}

/* The channels between leases (docs/SECURITY.md): what each program says
 * to listen, bind, socket(AF_UNIX), socketpair, SysV IPC and mqueues. */
static void
test_channels(void)
{
	static const char *const ipc[] = { "shmget", "shmat", "shmctl",
		"shmdt", "semget", "semop", "semtimedop", "semctl", "msgget",
		"msgsnd", "msgrcv", "msgctl", "mq_open", "mq_unlink",
		"mq_timedsend", "mq_timedreceive", "mq_notify",
		"mq_getsetattr" };
	const char *p = seccomp_program_name(cur);
	int jail = cur != SECCOMP_PROG_CONTAINER &&
	    cur != SECCOMP_PROG_RUNNER;
	int bind_ok = cur != SECCOMP_PROG_JAIL;
	uint64_t a[6] = { 0 };
	size_t bad = 0;

	for (size_t i = 0; i < sizeof ipc / sizeof ipc[0]; i++)
		if (answer(ipc[i], a) != -EPERM) {
			printf("# %s: %s is not EPERM\n", p, ipc[i]);
			bad++;
		}
	ok(bad == 0, "%s: System V IPC and POSIX mqueues are EPERM", p);
	ok(answer("listen", a) == (bind_ok ? 1 : -EPERM), "%s: listen is %s",
	    p, bind_ok ? "allowed" : "EPERM");
	a[2] = 12;
	ok(answer("bind", a) == 1, "%s: bind with a netlink address length "
	    "is allowed", p);
	for (int k = 0; k < 4; k++) {
		static const uint64_t len[] = { 16, 28, 110,
			(uint64_t)1 << 32 | 12 };

		a[2] = len[k];
		ok(answer("bind", a) == (bind_ok ? 1 : -EPERM), "%s: bind with "
		    "length %#llx is %s", p, (unsigned long long)len[k],
		    bind_ok ? "allowed" : "EPERM");
	}
	a[2] = 0;
	a[0] = AF_UNIX;
	ok(answer("socket", a) == (jail ? -EPERM : 1), "%s: socket(AF_UNIX) "
	    "is %s", p, jail ? "EPERM" : "allowed");
	a[0] = (uint64_t)1 << 32 | AF_UNIX;
	ok(answer("socket", a) != 1, "%s: socket(AF_UNIX with high bits) is "
	    "refused", p);
	a[0] = AF_UNIX;
	ok(answer("socketpair", a) == 1, "%s: socketpair(AF_UNIX) is "
	    "allowed", p);
	if (cur == SECCOMP_PROG_JAIL)
		test_no_overlap("bind", 2, -1);
}

/* The runner program: the namespaces of a lease (net, mount, ipc, pid),
 * never a user, uts or cgroup one; setns only to a network namespace;
 * mount; the rest of the deny set as everywhere (test_required). */
static void
test_runner_namespaces(void)
{
	static const struct {
		uint64_t flags;
		int want;
	} un[] = {
		{ CLONE_NEWNET, 1 },
		{ CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID, 1 },
		{ CLONE_NEWNET | CLONE_NEWNS, 1 },
		{ CLONE_NEWUSER, -EPERM },
		{ CLONE_NEWUSER | CLONE_NEWNET, -EPERM },
		{ CLONE_NEWUTS, -EPERM },
		{ CLONE_NEWCGROUP | CLONE_NEWNS, -EPERM },
		{ 0x80, 0 },			/* CLONE_NEWTIME: the default */
		{ (uint64_t)1 << 32 | CLONE_NEWNET, 0 },
	};
	uint64_t a[6] = { 0 };
	size_t bad = 0;

	for (size_t i = 0; i < sizeof un / sizeof un[0]; i++) {
		a[0] = un[i].flags;
		if (answer("unshare", a) != un[i].want) {
			printf("# unshare(%#llx) is not %d\n",
			    (unsigned long long)un[i].flags, un[i].want);
			bad++;
		}
	}
	ok(bad == 0, "runner: unshare of net, mount, ipc, pid only; user, "
	    "uts, cgroup EPERM; other bits the default (ENOSYS)");
	a[0] = 3;
	a[1] = CLONE_NEWNET;
	ok(answer("setns", a) == 1, "runner: setns(CLONE_NEWNET) is allowed");
	a[1] = CLONE_NEWUSER;
	ok(answer("setns", a) != 1, "runner: setns(CLONE_NEWUSER) is refused");
	a[1] = 0;
	ok(answer("setns", a) != 1, "runner: setns(any type) is refused");
	ok(answer("mount", a) == 1, "runner: mount is allowed");
	ok(answer("umount2", a) == -EPERM && answer("pivot_root", a) ==
	    -EPERM, "runner: umount2 and pivot_root stay EPERM");
	test_no_overlap("unshare", 0, -1);
}

int
main(void)
{
	test_names_resolve();
	use_program(SECCOMP_PROG_JAIL);
	test_classes();
	test_required();
	test_arg_rules();
	test_clone_covered();
	test_others();
	test_compile();
	test_compile_errors();
	test_install();
	test_explain();
	test_export();
	for (int p = 0; p < SECCOMP_PROGS; p++) {
		use_program((enum seccomp_program)p);
		test_channels();
		if (p == SECCOMP_PROG_JAIL)
			continue;
		test_classes();
		test_required();
		test_no_overlap("socket", 0, 2);
		test_compile();
		if (p == SECCOMP_PROG_RUNNER)
			test_runner_namespaces();
	}
	return tap_done();
}
