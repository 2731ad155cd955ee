/* fuzz_seccomp_policy.c - the filters the kernel runs against the table
 * they were compiled from (common/jail/seccomp_policy.c, seccomp/
 * policy.h): a classic-BPF interpreter runs one of the build's programs
 * (seccomp_policy_bpf) over an arbitrary system call, number, arguments
 * and ABI, and the answer must be the table's own: another ABI (x86's
 * int 0x80, x32) kills the process; a number no rule names (or one
 * libseccomp does not know, or -1: no call) gets ENOSYS; ALLOW allows, DENY and OMIT give
 * their errno; argument rules give ARG_DENY's errno when one matches,
 * else allow when an ARG_ALLOW matches or the name has ARG_OTHERS, else
 * ENOSYS. Input: a byte choosing the program and the ABI, then the
 * number and six arguments, little-endian. Also: program names parse
 * back to themselves. */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>

#include "common/jail/seccomp_policy.h"
#include "fuzz.h"

/* The program's answer for d: a classic-BPF run over it. Aborts on an
 * instruction it does not know (the fuzzer would say which). */
static uint32_t
run(const struct sock_filter *f, unsigned short len,
    const struct seccomp_data *d)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };

	for (unsigned pc = 0; pc < len; pc++) {
		const struct sock_filter *i = &f[pc];
		uint32_t k = i->k, src = BPF_SRC(i->code) == BPF_X ? x : k;

		switch (i->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			FUZZ_ASSERT(k % 4 == 0 && k + 4 <= sizeof *d);
			memcpy(&a, (const uint8_t *)d + k, 4);
			continue;
		case BPF_LD | BPF_MEM:
			a = mem[k % BPF_MEMWORDS];
			continue;
		case BPF_LDX | BPF_MEM:
			x = mem[k % BPF_MEMWORDS];
			continue;
		case BPF_ST:
			mem[k % BPF_MEMWORDS] = a;
			continue;
		case BPF_STX:
			mem[k % BPF_MEMWORDS] = x;
			continue;
		case BPF_LD | BPF_IMM:
			a = k;
			continue;
		case BPF_ALU | BPF_AND | BPF_K:
		case BPF_ALU | BPF_AND | BPF_X:
			a &= src;
			continue;
		case BPF_MISC | BPF_TAX:
			x = a;
			continue;
		case BPF_MISC | BPF_TXA:
			a = x;
			continue;
		case BPF_RET | BPF_K:
			return k;
		case BPF_RET | BPF_A:
			return a;
		case BPF_JMP | BPF_JA:
			pc += k;
			continue;
		}
		if (BPF_CLASS(i->code) == BPF_JMP) {
			int t;

			switch (BPF_OP(i->code)) {
			case BPF_JEQ: t = a == src; break;
			case BPF_JGT: t = a > src; break;
			case BPF_JGE: t = a >= src; break;
			case BPF_JSET: t = (a & src) != 0; break;
			default: abort();
			}
			pc += t ? i->jt : i->jf;
			continue;
		}
		abort();
	}
	abort();	/* a program must end in a return */
}

static int
holds(const struct seccomp_cond *c, const struct seccomp_data *d)
{
	uint64_t v = c->cmp == SECCOMP_CMP_NONE ? 0 : d->args[c->arg];

	switch (c->cmp) {
	case SECCOMP_CMP_NONE: return 1;
	case SECCOMP_CMP_EQ: return v == c->a;
	case SECCOMP_CMP_NE: return v != c->a;
	case SECCOMP_CMP_MASKED_EQ: return (v & c->a) == c->b;
	}
	abort();
}

static struct seccomp_rule rules[1024];

/* What the table says about d for the program whose rules are rules[n]. */
static uint32_t
expected(size_t n, const struct seccomp_data *d)
{
	const uint32_t nosys = SECCOMP_RET_ERRNO | SECCOMP_DEFAULT_ERRNO;
	char *name;
	int deny = 0, allow = 0, others = 0, err = 0, listed = 0;

	/* x32's numbers start at 0x40000000 (and nothing native lies
	 * above them); -1 is no call (a tracer skipped it): libseccomp
	 * lets it reach the default */
	if (d->arch != AUDIT_ARCH_X86_64 || ((uint32_t)d->nr >= 0x40000000u &&
	    d->nr != -1))
		return SECCOMP_RET_KILL_PROCESS;
	if (!(name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64,
	    d->nr)))
		return nosys;
	for (size_t i = 0; i < n; i++) {
		const struct seccomp_rule *r = &rules[i];

		if (strcmp(r->name, name) != 0)
			continue;
		listed = 1;
		switch (r->kind) {
		case SECCOMP_KIND_ALLOW:
			free(name);
			return SECCOMP_RET_ALLOW;
		case SECCOMP_KIND_DENY:
			free(name);
			return SECCOMP_RET_ERRNO | (uint32_t)r->err;
		case SECCOMP_KIND_OMIT:
			free(name);
			return nosys;
		case SECCOMP_KIND_ARG_ALLOW:
			allow |= holds(&r->cond[0], d) && holds(&r->cond[1], d);
			break;
		case SECCOMP_KIND_ARG_DENY:
			if (holds(&r->cond[0], d) && holds(&r->cond[1], d)) {
				FUZZ_ASSERT(!deny || err == r->err);
				deny = 1;
				err = r->err;
			}
			break;
		case SECCOMP_KIND_ARG_OTHERS:
			others = 1;
			break;
		}
	}
	free(name);
	if (deny)
		return SECCOMP_RET_ERRNO | (uint32_t)err;
	return listed && (allow || others) ? SECCOMP_RET_ALLOW : nosys;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t arches[4] = { AUDIT_ARCH_X86_64,
		AUDIT_ARCH_X86_64, AUDIT_ARCH_X86_64, AUDIT_ARCH_I386 };
	struct seccomp_data d;
	enum seccomp_program p, back;
	uint32_t got, want;
	size_t n;

	if (size < 1 + 4 + 6 * 8)
		return 0;
	p = (enum seccomp_program)(data[0] % SECCOMP_PROGS);
	FUZZ_ASSERT(seccomp_program_parse(seccomp_program_name(p), &back) ==
	    0 && back == p);
	memset(&d, 0, sizeof d);
	d.arch = arches[(data[0] >> 2) & 3];
	memcpy(&d.nr, data + 1, 4);
	/* mostly a number the table can name, sometimes anything */
	if (data[0] & 0x80)
		d.nr &= 0x1ff;
	memcpy(d.args, data + 5, sizeof d.args);
	/* an argument rule looks at the low 32 bits or the whole value:
	 * often make the high half zero, or all ones */
	for (int i = 0; i < 6; i++)
		if (data[0] & 0x10)
			d.args[i] &= 0xffffffffu;
		else if (data[0] & 0x20)
			d.args[i] |= 0xffffffff00000000u;
	n = seccomp_policy_select(seccomp_policy, seccomp_policy_len, p,
	    rules);
	FUZZ_ASSERT(n <= sizeof rules / sizeof *rules);
	got = run(seccomp_policy_bpf[p], seccomp_policy_bpf_len[p], &d);
	want = expected(n, &d);
	FUZZ_ASSERT(got == want);
	return 0;
}
