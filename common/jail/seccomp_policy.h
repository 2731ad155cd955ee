/* seccomp_policy.h - the syscall policy of seccomp/policy.h as a table,
 * compiled by libseccomp into a BPF program, exported as a Docker/OCI
 * profile, and explained name by name.
 *
 * One table, three programs (enum seccomp_program): the rules say which
 * of them they belong to. The build compiles each once
 * (seccomp_policy_program); a child installs one right before execve
 * (seccomp_policy_install), which makes only prctl calls and so is safe
 * between fork and exec. */
#ifndef AIRLOCK_SECCOMP_POLICY_H
#define AIRLOCK_SECCOMP_POLICY_H

#include <errno.h>
#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a syscall outside the policy gets: "no such syscall", so libcs
 * fall back to older calls (which the policy governs in turn). */
#define SECCOMP_DEFAULT_ERRNO ENOSYS

/* The programs built from the table. A jail installs JAIL, or JAIL_BIND
 * when the operator lets leases accept connections (--allow-bind); the
 * Docker export is CONTAINER, the profile of the container the services
 * run in, which listen and bind themselves; RUNNER is CONTAINER plus what
 * a runner given CAP_SYS_ADMIN needs to make each lease's network, mount,
 * ipc and pid namespaces (docs/DEPLOY.md). */
enum seccomp_program {
	SECCOMP_PROG_JAIL = 0,
	SECCOMP_PROG_JAIL_BIND = 1,
	SECCOMP_PROG_CONTAINER = 2,
	SECCOMP_PROG_RUNNER = 3,
	SECCOMP_PROGS = 4
};

/* A rule's programs, as bits of enum seccomp_program. */
#define SECCOMP_IN_JAIL (1u << SECCOMP_PROG_JAIL)
#define SECCOMP_IN_JAIL_BIND (1u << SECCOMP_PROG_JAIL_BIND)
#define SECCOMP_IN_CONTAINER (1u << SECCOMP_PROG_CONTAINER)
#define SECCOMP_IN_RUNNER (1u << SECCOMP_PROG_RUNNER)
#define SECCOMP_IN_SERVICES (SECCOMP_IN_CONTAINER | SECCOMP_IN_RUNNER)
#define SECCOMP_IN_ALL ((1u << SECCOMP_PROGS) - 1)

enum seccomp_cmp {
	SECCOMP_CMP_NONE,	/* no condition */
	SECCOMP_CMP_EQ,		/* arg == a (all 64 bits) */
	SECCOMP_CMP_NE,		/* arg != a (all 64 bits) */
	SECCOMP_CMP_MASKED_EQ	/* (arg & a) == b */
};

struct seccomp_cond {
	int arg;		/* 0..5, or -1 with SECCOMP_CMP_NONE */
	enum seccomp_cmp cmp;
	uint64_t a, b;
};

enum seccomp_kind {
	SECCOMP_KIND_DENY,	/* denied with err */
	SECCOMP_KIND_ARG_ALLOW,	/* allowed when cond[0] and cond[1] hold */
	SECCOMP_KIND_ARG_DENY,	/* denied with err when both hold */
	SECCOMP_KIND_ARG_OTHERS,/* allowed: every low-32-bit value of
				 * argument cond[0].arg no ARG_DENY matches */
	SECCOMP_KIND_OMIT,	/* not allowed, on purpose: the default */
	SECCOMP_KIND_ALLOW	/* allowed */
};

struct seccomp_rule {
	const char *name;	/* libseccomp's name for the syscall */
	enum seccomp_kind kind;
	int err;		/* errno of DENY and ARG_DENY, else 0 */
	struct seccomp_cond cond[2];
	const char *what;	/* ARG_*: the condition in words, else NULL */
	const char *reason;	/* DENY, ARG_DENY, OMIT: why; ALLOW: why
				 * only some programs allow it, NULL in the
				 * baseline every program has */
	unsigned in;		/* SECCOMP_IN_* bits: its programs */
};

/* Rules of a process's own allowlist (the pre-auth process's, the
 * egress proxy's), compiled with seccomp_policy_compile{,_as}: */
#define SECCOMP_NOCOND { -1, SECCOMP_CMP_NONE, 0, 0 }
/* n allowed */
#define SECCOMP_OWN_ALLOW(n) { #n, SECCOMP_KIND_ALLOW, 0, \
	{ SECCOMP_NOCOND, SECCOMP_NOCOND }, NULL, NULL, SECCOMP_IN_ALL }
/* n (mmap, mprotect) allowed when its protection, argument 2, holds no
 * PROT_EXEC (sys/mman.h where it is used) */
#define SECCOMP_OWN_NO_EXEC(n) { #n, SECCOMP_KIND_ARG_ALLOW, 0, \
	{ { 2, SECCOMP_CMP_MASKED_EQ, PROT_EXEC, 0 }, SECCOMP_NOCOND }, \
	"not PROT_EXEC", NULL, SECCOMP_IN_ALL }
/* n allowed when argument a0 is v0 (and a1 is v1: _ONLY2); w says so */
#define SECCOMP_OWN_ONLY(n, a0, v0, w) { #n, SECCOMP_KIND_ARG_ALLOW, 0, \
	{ { (a0), SECCOMP_CMP_EQ, (v0), 0 }, SECCOMP_NOCOND }, (w), NULL, \
	SECCOMP_IN_ALL }
#define SECCOMP_OWN_ONLY2(n, a0, v0, a1, v1, w) { #n, \
	SECCOMP_KIND_ARG_ALLOW, 0, { { (a0), SECCOMP_CMP_EQ, (v0), 0 }, \
	{ (a1), SECCOMP_CMP_EQ, (v1), 0 } }, (w), NULL, SECCOMP_IN_ALL }

/* The policy of seccomp/policy.h, in its order: every program's rules. */
extern const struct seccomp_rule seccomp_policy[];
extern const size_t seccomp_policy_len;

/* "jail", "jail-allow-bind", "container", "runner"; parse returns -1 for anything
 * else. */
const char *seccomp_program_name(enum seccomp_program p);
int seccomp_program_parse(const char *s, enum seccomp_program *p);

/* Copy the rules of rules[0..n) that belong to program p, in order, into
 * out (room for n); their count. Every function below takes one
 * program's rules (a name's rules in two programs may differ). */
size_t seccomp_policy_select(const struct seccomp_rule *rules, size_t n,
    enum seccomp_program p, struct seccomp_rule *out);

/* Compile rules[0..n) into a BPF program for this machine's native
 * architecture (x86_64 only: the names are written for it). The default
 * action is ERRNO(SECCOMP_DEFAULT_ERRNO); a syscall of another ABI (x86
 * int 0x80, x32) kills the process. A name libseccomp cannot resolve to
 * a native syscall, a rule it refuses or a rule set the compiler cannot
 * express is an error, never skipped. On success fills *out (out->filter
 * is the caller's: seccomp_policy_free) and returns 0; on failure returns
 * -1 and writes a message naming the syscall or step into err. */
int seccomp_policy_compile(const struct seccomp_rule *rules, size_t n,
    struct sock_fprog *out, char *err, size_t errlen);

/* What a syscall no rule decides gets: ENOSYS (the jail's programs and
 * the pre-auth process: a libc falls back), or the process killed by
 * SIGSYS (a process of our own whose every call was measured: the egress
 * proxy; anything else is an attacker's code or a bug, and either ends
 * there). */
enum seccomp_default {
	SECCOMP_DEFAULT_ENOSYS,
	SECCOMP_DEFAULT_KILL
};

/* seccomp_policy_compile with the default action dflt (the function
 * above is SECCOMP_DEFAULT_ENOSYS). */
int seccomp_policy_compile_as(const struct seccomp_rule *rules, size_t n,
    enum seccomp_default dflt, struct sock_fprog *out, char *err,
    size_t errlen);
void seccomp_policy_free(struct sock_fprog *prog);

/* Each program of seccomp_policy compiled at build time by
 * seccomp/compile.c (a build that cannot compile them fails), by enum
 * seccomp_program. */
extern const struct sock_filter *const seccomp_policy_bpf[SECCOMP_PROGS];
extern const unsigned short seccomp_policy_bpf_len[SECCOMP_PROGS];

/* A sock_fprog over program p; never seccomp_policy_free it. The kernel
 * only reads the instructions, hence the cast. */
static inline void
seccomp_policy_program(struct sock_fprog *out, enum seccomp_program p)
{
	out->len = seccomp_policy_bpf_len[p];
	out->filter = (struct sock_filter *)seccomp_policy_bpf[p];
}

/* Install prog on the calling thread (call it single-threaded, right
 * before execve). Refuses (-1, errno EPERM) unless no_new_privs is
 * already set, so nothing under the filter can gain privileges through a
 * setuid program. Only prctl calls: async-signal-safe. 0 or -1/errno. */
int seccomp_policy_install(const struct sock_fprog *prog);

/* Write rules[0..n) as a Docker/OCI seccomp profile (JSON) to out, with
 * the same default errno and argument rules; a syscall of another ABI
 * gets the runtime's bad-architecture action. 0, or -1 if the rules
 * cannot be expressed or writing failed. */
int seccomp_policy_export_docker(const struct seccomp_rule *rules, size_t n,
    FILE *out);

/* A block of low-32-bit argument values: (x & mask) == value. */
struct seccomp_block {
	uint32_t mask, value;
};

/* The values of argument arg that the ARG_OTHERS rule of name allows:
 * every 32-bit value no ARG_DENY of name matches, as disjoint blocks in
 * ascending order. Returns the count, or -1 if the deny rules of name
 * are not all single ARG_LOW32 conditions on arg or cap is too small. */
long seccomp_policy_others(const struct seccomp_rule *rules, size_t n,
    const char *name, int arg, struct seccomp_block *out, size_t cap);

enum seccomp_verdict {
	SECCOMP_ALLOWED,	/* an ALLOW rule */
	SECCOMP_DENIED,		/* a DENY rule */
	SECCOMP_BY_ARGS,	/* ARG_* rules decide */
	SECCOMP_OMITTED,	/* an OMIT rule: the default action */
	SECCOMP_NOT_LISTED,	/* a syscall no rule names: the default */
	SECCOMP_UNKNOWN		/* not a native syscall libseccomp knows */
};

/* What the policy does with the syscall called name. For the first four
 * verdicts *first and *count give its (adjacent) rules in rules[]. */
enum seccomp_verdict seccomp_policy_explain(const struct seccomp_rule *rules,
    size_t n, const char *name, size_t *first, size_t *count);

/* "EPERM" for EPERM and the other errnos the policy uses, else NULL. */
const char *seccomp_errno_name(int err);

#endif
