/* seccomp_policy.c - seccomp/policy.h as a table, a BPF program, a Docker
 * profile and explanations. */
#include "common/jail/seccomp_policy.h"

#include <inttypes.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/errbuf.h"
#include "common/base/json.h"

/* (policy.h includes errno.h, sched.h, sys/ioctl.h and sys/socket.h;
 * they are included above, so inside the table they are no-ops.) */

/* Each entry takes its programs from SECCOMP_IN where it is expanded:
 * policy.h sets SECCOMP_IN per group of rules. */
const struct seccomp_rule seccomp_policy[] = {
#define SECCOMP_DENY(n, e, r) \
	{ #n, SECCOMP_KIND_DENY, (e), { SECCOMP_NOCOND, SECCOMP_NOCOND }, NULL, (r), \
	  SECCOMP_IN },
#define SECCOMP_ARG_ALLOW(n, c0, c1, w) \
	{ #n, SECCOMP_KIND_ARG_ALLOW, 0, { c0, c1 }, (w), NULL, SECCOMP_IN },
#define SECCOMP_ARG_DENY(n, e, c0, c1, w, r) \
	{ #n, SECCOMP_KIND_ARG_DENY, (e), { c0, c1 }, (w), (r), SECCOMP_IN },
#define SECCOMP_ARG_OTHERS(n, i, w) \
	{ #n, SECCOMP_KIND_ARG_OTHERS, 0, \
	  { { (i), SECCOMP_CMP_NONE, 0, 0 }, SECCOMP_NOCOND }, (w), NULL, \
	  SECCOMP_IN },
#define SECCOMP_OMIT(n, r) \
	{ #n, SECCOMP_KIND_OMIT, 0, { SECCOMP_NOCOND, SECCOMP_NOCOND }, NULL, \
	  (r), SECCOMP_IN },
#define SECCOMP_ALLOW(n) \
	{ #n, SECCOMP_KIND_ALLOW, 0, { SECCOMP_NOCOND, SECCOMP_NOCOND }, NULL, NULL, \
	  SECCOMP_IN },
#define SECCOMP_ALLOW_FOR(n, r) \
	{ #n, SECCOMP_KIND_ALLOW, 0, { SECCOMP_NOCOND, SECCOMP_NOCOND }, NULL, (r), \
	  SECCOMP_IN },
#include "seccomp/policy.h"
};

const size_t seccomp_policy_len = sizeof seccomp_policy /
    sizeof seccomp_policy[0];

static const char *const program_names[SECCOMP_PROGS] = {
	[SECCOMP_PROG_JAIL] = "jail",
	[SECCOMP_PROG_JAIL_BIND] = "jail-allow-bind",
	[SECCOMP_PROG_CONTAINER] = "container",
	[SECCOMP_PROG_RUNNER] = "runner",
};

const char *
seccomp_program_name(enum seccomp_program p)
{
	return (unsigned)p < SECCOMP_PROGS ? program_names[p] : "?";
}

int
seccomp_program_parse(const char *s, enum seccomp_program *p)
{
	for (unsigned i = 0; i < SECCOMP_PROGS; i++)
		if (strcmp(s, program_names[i]) == 0) {
			*p = (enum seccomp_program)i;
			return 0;
		}
	return -1;
}

size_t
seccomp_policy_select(const struct seccomp_rule *rules, size_t n,
    enum seccomp_program p, struct seccomp_rule *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (rules[i].in & (1u << p))
			out[k++] = rules[i];
	return k;
}

/* An ARG_OTHERS rule allows the complement of at most this many denied
 * values; each costs at most 32 blocks. */
#define OTHERS_DENY_MAX 8
#define OTHERS_BLOCK_MAX (32 * OTHERS_DENY_MAX + 1)

const char *
seccomp_errno_name(int err)
{
	switch (err) {
	case EPERM:
		return "EPERM";
	case ENOSYS:
		return "ENOSYS";
	case EACCES:
		return "EACCES";
	case EAFNOSUPPORT:
		return "EAFNOSUPPORT";
	case EINVAL:
		return "EINVAL";
	default:
		return NULL;
	}
}

static int
is_arg_kind(enum seccomp_kind k)
{
	return k == SECCOMP_KIND_ARG_ALLOW || k == SECCOMP_KIND_ARG_DENY ||
	    k == SECCOMP_KIND_ARG_OTHERS;
}

/* Emit the blocks of [prefix, prefix + 2^(32-fixed)) that hold no
 * denied value, splitting any block that does. */
static int
cover(uint32_t prefix, int fixed, const uint32_t *deny, size_t ndeny,
    struct seccomp_block *out, size_t cap, size_t *n)
{
	uint32_t mask = fixed ? ~(uint32_t)0 << (32 - fixed) : 0;
	size_t i;

	for (i = 0; i < ndeny; i++)
		if ((deny[i] & mask) == prefix)
			break;
	if (i == ndeny) {
		if (*n == cap)
			return -1;
		out[(*n)++] = (struct seccomp_block){ mask, prefix };
		return 0;
	}
	if (fixed == 32)	/* the denied value itself */
		return 0;
	if (cover(prefix, fixed + 1, deny, ndeny, out, cap, n) != 0)
		return -1;
	return cover(prefix | (uint32_t)1 << (31 - fixed), fixed + 1, deny,
	    ndeny, out, cap, n);
}

long
seccomp_policy_others(const struct seccomp_rule *rules, size_t n,
    const char *name, int arg, struct seccomp_block *out, size_t cap)
{
	uint32_t deny[OTHERS_DENY_MAX];
	size_t ndeny = 0, nout = 0;

	for (size_t i = 0; i < n; i++) {
		const struct seccomp_rule *r = &rules[i];

		if (r->kind != SECCOMP_KIND_ARG_DENY ||
		    strcmp(r->name, name) != 0)
			continue;
		/* only "low 32 bits == v" has a complement we can write */
		if (r->cond[0].arg != arg ||
		    r->cond[0].cmp != SECCOMP_CMP_MASKED_EQ ||
		    r->cond[0].a != 0xffffffffu || r->cond[0].b > 0xffffffffu ||
		    r->cond[1].cmp != SECCOMP_CMP_NONE ||
		    ndeny == OTHERS_DENY_MAX)
			return -1;
		deny[ndeny++] = (uint32_t)r->cond[0].b;
	}
	if (ndeny == 0)		/* "allow every value" is an ALLOW rule */
		return -1;
	if (cover(0, 0, deny, ndeny, out, cap, &nout) != 0)
		return -1;
	return (long)nout;
}

/* The native syscall number of name, or -1 with a message. */
static int
resolve(const char *name, char *err, size_t errlen)
{
	int nr = seccomp_syscall_resolve_name(name);

	if (nr == __NR_SCMP_ERROR) {
		const struct scmp_version *v = seccomp_version();

		return errbuf_set(err, errlen, "syscall '%s' is unknown to "
		    "libseccomp %u.%u.%u", name, v->major, v->minor,
		    v->micro);
	}
	if (nr < 0)
		return errbuf_set(err, errlen, "syscall '%s' does not exist on this "
		    "architecture", name);
	return nr;
}

/* Table invariants the compiler relies on: a name is unconditional or
 * argument-ruled, never both (libseccomp would let an unconditional rule
 * swallow the conditional ones), and its rules are adjacent. */
static int
check_table(const struct seccomp_rule *rules, size_t n, char *err,
    size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		const struct seccomp_rule *r = &rules[i];

		if (!r->name || !r->name[0])
			return errbuf_set(err, errlen, "policy rule %zu has no name",
			    i);
		for (size_t j = 0; j < i; j++) {
			if (strcmp(rules[j].name, r->name) != 0)
				continue;
			if (!is_arg_kind(r->kind) ||
			    !is_arg_kind(rules[j].kind))
				return errbuf_set(err, errlen, "syscall '%s' has "
				    "more than one rule, not all argument "
				    "rules", r->name);
			if (strcmp(rules[i - 1].name, r->name) != 0)
				return errbuf_set(err, errlen, "the rules of syscall "
				    "'%s' are not adjacent", r->name);
		}
		if (r->kind == SECCOMP_KIND_ARG_OTHERS &&
		    (r->cond[0].arg < 0 || r->cond[0].arg > 5))
			return errbuf_set(err, errlen, "syscall '%s': bad argument "
			    "index", r->name);
		if ((r->kind == SECCOMP_KIND_DENY ||
		    r->kind == SECCOMP_KIND_ARG_DENY) &&
		    (r->err <= 0 || r->err > 4095))
			return errbuf_set(err, errlen, "syscall '%s': errno %d out "
			    "of range", r->name, r->err);
		if (r->kind == SECCOMP_KIND_ARG_ALLOW ||
		    r->kind == SECCOMP_KIND_ARG_DENY) {
			const struct seccomp_cond *c = r->cond;

			if (c[0].cmp == SECCOMP_CMP_NONE || c[0].arg < 0 ||
			    c[0].arg > 5 || (c[1].cmp != SECCOMP_CMP_NONE &&
			    (c[1].arg < 0 || c[1].arg > 5 ||
			    c[1].arg == c[0].arg)))
				return errbuf_set(err, errlen, "syscall '%s': bad "
				    "argument condition", r->name);
		}
	}
	return 0;
}

static struct scmp_arg_cmp
to_scmp(const struct seccomp_cond *c)
{
	struct scmp_arg_cmp s = { (unsigned)c->arg, SCMP_CMP_EQ, c->a, 0 };

	if (c->cmp == SECCOMP_CMP_NE)
		s.op = SCMP_CMP_NE;
	if (c->cmp == SECCOMP_CMP_MASKED_EQ) {
		s.op = SCMP_CMP_MASKED_EQ;
		s.datum_b = c->b;
	}
	return s;
}

static int
add(scmp_filter_ctx ctx, const char *name, int nr, uint32_t action,
    unsigned ncmp, const struct scmp_arg_cmp *cmp, char *err, size_t errlen)
{
	int rc = seccomp_rule_add_exact_array(ctx, action, nr, ncmp, cmp);

	if (rc != 0)
		return errbuf_set(err, errlen, "libseccomp refused a rule for '%s': "
		    "%s", name, strerror(-rc));
	return 0;
}

static int
add_rule(scmp_filter_ctx ctx, const struct seccomp_rule *rules, size_t n,
    const struct seccomp_rule *r, int nr, enum seccomp_default dflt,
    char *err, size_t errlen)
{
	struct seccomp_block blocks[OTHERS_BLOCK_MAX];
	struct scmp_arg_cmp cmp[2];
	unsigned ncmp = 0;
	long nb;

	for (int k = 0; k < 2; k++)
		if (r->cond[k].cmp != SECCOMP_CMP_NONE)
			cmp[ncmp++] = to_scmp(&r->cond[k]);
	switch (r->kind) {
	case SECCOMP_KIND_ALLOW:
	case SECCOMP_KIND_ARG_ALLOW:
		return add(ctx, r->name, nr, SCMP_ACT_ALLOW, ncmp, cmp, err,
		    errlen);
	case SECCOMP_KIND_DENY:
	case SECCOMP_KIND_ARG_DENY:
		/* The default already answers this errno, and libseccomp
		 * refuses a rule that repeats the default action. */
		if (dflt == SECCOMP_DEFAULT_ENOSYS &&
		    r->err == SECCOMP_DEFAULT_ERRNO)
			return 0;
		return add(ctx, r->name, nr, SCMP_ACT_ERRNO((uint32_t)r->err),
		    ncmp, cmp, err, errlen);
	case SECCOMP_KIND_ARG_OTHERS:
		nb = seccomp_policy_others(rules, n, r->name, r->cond[0].arg,
		    blocks, OTHERS_BLOCK_MAX);
		if (nb < 0)
			return errbuf_set(err, errlen, "syscall '%s': the values "
			    "left to allow cannot be written as rules",
			    r->name);
		for (long b = 0; b < nb; b++) {
			cmp[0] = (struct scmp_arg_cmp){
				(unsigned)r->cond[0].arg, SCMP_CMP_MASKED_EQ,
				blocks[b].mask, blocks[b].value };
			if (add(ctx, r->name, nr, SCMP_ACT_ALLOW, 1, cmp, err,
			    errlen) != 0)
				return -1;
		}
		return 0;
	case SECCOMP_KIND_OMIT:
		return 0;
	}
	return errbuf_set(err, errlen, "syscall '%s': unknown rule kind", r->name);
}

/* Read the program libseccomp writes to a memfd back into memory:
 * libseccomp 2.5 exports only to a file descriptor. */
static int
export_bpf(scmp_filter_ctx ctx, struct sock_fprog *out, char *err,
    size_t errlen)
{
	struct sock_filter *prog;
	struct stat st;
	size_t size, got = 0;
	int fd, rc;

	fd = memfd_create("airlock-seccomp", MFD_CLOEXEC);
	if (fd < 0)
		return errbuf_set(err, errlen, "memfd_create for the BPF export: %s",
		    strerror(errno));
	if ((rc = seccomp_export_bpf(ctx, fd)) != 0) {
		close(fd);
		return errbuf_set(err, errlen, "seccomp_export_bpf: %s",
		    strerror(-rc));
	}
	if (fstat(fd, &st) != 0) {
		rc = errno;
		close(fd);
		return errbuf_set(err, errlen, "fstat of the BPF export: %s",
		    strerror(rc));
	}
	size = (size_t)st.st_size;
	if (st.st_size <= 0 || size % sizeof(struct sock_filter) != 0 ||
	    size / sizeof(struct sock_filter) > BPF_MAXINSNS) {
		close(fd);
		return errbuf_set(err, errlen, "the BPF export has a bad size "
		    "(%lld bytes)", (long long)st.st_size);
	}
	if (!(prog = malloc(size))) {
		close(fd);
		return errbuf_set(err, errlen, "out of memory for the BPF program");
	}
	while (got < size) {
		ssize_t r = pread(fd, (char *)prog + got, size - got,
		    (off_t)got);

		if (r <= 0) {
			rc = r < 0 ? errno : EIO;
			free(prog);
			close(fd);
			return errbuf_set(err, errlen, "reading the BPF export: %s",
			    strerror(rc));
		}
		got += (size_t)r;
	}
	close(fd);
	out->len = (unsigned short)(size / sizeof(struct sock_filter));
	out->filter = prog;
	return 0;
}

int
seccomp_policy_compile(const struct seccomp_rule *rules, size_t n,
    struct sock_fprog *out, char *err, size_t errlen)
{
	return seccomp_policy_compile_as(rules, n, SECCOMP_DEFAULT_ENOSYS, out,
	    err, errlen);
}

int
seccomp_policy_compile_as(const struct seccomp_rule *rules, size_t n,
    enum seccomp_default dflt, struct sock_fprog *out, char *err,
    size_t errlen)
{
	scmp_filter_ctx ctx;
	int rc = -1;

	out->len = 0;
	out->filter = NULL;
	if (check_table(rules, n, err, errlen) != 0)
		return -1;
	if (seccomp_arch_native() != SCMP_ARCH_X86_64)
		return errbuf_set(err, errlen, "the policy names x86_64 syscalls; "
		    "this machine is another architecture");
	if (!(ctx = seccomp_init(dflt == SECCOMP_DEFAULT_KILL ?
	    SCMP_ACT_KILL_PROCESS : SCMP_ACT_ERRNO(SECCOMP_DEFAULT_ERRNO))))
		return errbuf_set(err, errlen, "seccomp_init failed");
	/* x86 (int 0x80) and x32 calls are another numbering the rules
	 * were never written for: kill, do not guess. */
	if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS)) != 0) {
		errbuf_set(err, errlen, "cannot make other ABIs kill the process: %s",
		    strerror(-rc));
		goto out;
	}
	/* a binary tree over ~300 syscalls instead of a linear scan */
	if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2)) != 0) {
		errbuf_set(err, errlen, "cannot enable libseccomp's binary tree: %s",
		    strerror(-rc));
		goto out;
	}
	rc = -1;
	for (size_t i = 0; i < n; i++) {
		int nr = resolve(rules[i].name, err, errlen);

		if (nr < 0 || add_rule(ctx, rules, n, &rules[i], nr, dflt,
		    err, errlen) != 0)
			goto out;
	}
	rc = export_bpf(ctx, out, err, errlen);
out:
	seccomp_release(ctx);
	return rc == 0 ? 0 : -1;
}

void
seccomp_policy_free(struct sock_fprog *prog)
{
	free(prog->filter);
	prog->filter = NULL;
	prog->len = 0;
}

int
seccomp_policy_install(const struct sock_fprog *prog)
{
	int nnp = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);

	if (nnp < 0)
		return -1;
	if (nnp != 1) {
		errno = EPERM;
		return -1;
	}
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, prog, 0, 0) == 0 ?
	    0 : -1;
}

/* --- Docker/OCI export --- */

static void
json_arg(FILE *out, int index, enum seccomp_cmp cmp, uint64_t a, uint64_t b,
    int last)
{
	fprintf(out, "\t\t\t\t{\n\t\t\t\t\t\"index\": %d,\n"
	    "\t\t\t\t\t\"value\": %" PRIu64 ",\n"
	    "\t\t\t\t\t\"valueTwo\": %" PRIu64 ",\n"
	    "\t\t\t\t\t\"op\": \"%s\"\n\t\t\t\t}%s\n", index, a,
	    cmp == SECCOMP_CMP_MASKED_EQ ? b : 0,
	    cmp == SECCOMP_CMP_MASKED_EQ ? "SCMP_CMP_MASKED_EQ" :
	    cmp == SECCOMP_CMP_NE ? "SCMP_CMP_NE" : "SCMP_CMP_EQ",
	    last ? "" : ",");
}

/* One "syscalls" entry for one rule (or one block of an ARG_OTHERS). */
static void
json_entry(FILE *out, const struct seccomp_rule *r,
    const struct seccomp_block *block, int *first)
{
	int allow = r->kind == SECCOMP_KIND_ARG_ALLOW ||
	    r->kind == SECCOMP_KIND_ARG_OTHERS;
	int ncond = 0, k;

	fprintf(out, "%s\t\t{\n\t\t\t\"names\": [\n\t\t\t\t", *first ? "" :
	    ",\n");
	*first = 0;
	json_write_cstr(out, r->name);
	fprintf(out, "\n\t\t\t],\n\t\t\t\"action\": \"%s\",\n",
	    allow ? "SCMP_ACT_ALLOW" : "SCMP_ACT_ERRNO");
	if (!allow)
		fprintf(out, "\t\t\t\"errnoRet\": %d,\n", r->err);
	if (block) {
		fprintf(out, "\t\t\t\"args\": [\n");
		json_arg(out, r->cond[0].arg, SECCOMP_CMP_MASKED_EQ,
		    block->mask, block->value, 1);
		fprintf(out, "\t\t\t],\n");
	} else if (r->kind != SECCOMP_KIND_DENY) {
		for (k = 0; k < 2; k++)
			ncond += r->cond[k].cmp != SECCOMP_CMP_NONE;
		fprintf(out, "\t\t\t\"args\": [\n");
		for (k = 0; k < ncond; k++)
			json_arg(out, r->cond[k].arg, r->cond[k].cmp,
			    r->cond[k].a, r->cond[k].b, k == ncond - 1);
		fprintf(out, "\t\t\t],\n");
	}
	/* "request TIOCSTI: pushes bytes ...", or whichever half exists */
	fprintf(out, "\t\t\t\"comment\": \"");
	if (r->what)
		json_write(out, r->what, strlen(r->what));
	if (r->what && r->reason)
		fprintf(out, ": ");
	if (r->reason)
		json_write(out, r->reason, strlen(r->reason));
	fprintf(out, "\"");
	fprintf(out, "\n\t\t}");
}

int
seccomp_policy_export_docker(const struct seccomp_rule *rules, size_t n,
    FILE *out)
{
	struct seccomp_block blocks[OTHERS_BLOCK_MAX];
	int first = 1;
	char err[256];

	if (check_table(rules, n, err, sizeof err) != 0)
		return -1;
	fprintf(out, "{\n\t\"defaultAction\": \"SCMP_ACT_ERRNO\",\n"
	    "\t\"defaultErrnoRet\": %d,\n"
	    "\t\"architectures\": [\n\t\t\"SCMP_ARCH_X86_64\"\n\t],\n"
	    "\t\"syscalls\": [\n", SECCOMP_DEFAULT_ERRNO);
	/* the baseline first, as one entry */
	for (size_t i = 0; i < n; i++) {
		if (rules[i].kind != SECCOMP_KIND_ALLOW)
			continue;
		fprintf(out, "%s", first ? "\t\t{\n\t\t\t\"names\": [\n" :
		    ",\n");
		first = 0;
		fprintf(out, "\t\t\t\t");
		json_write_cstr(out, rules[i].name);
	}
	if (!first)
		fprintf(out, "\n\t\t\t],\n\t\t\t\"action\": "
		    "\"SCMP_ACT_ALLOW\"\n\t\t}");
	for (size_t i = 0; i < n; i++) {
		const struct seccomp_rule *r = &rules[i];
		long nb;

		switch (r->kind) {
		case SECCOMP_KIND_DENY:
		case SECCOMP_KIND_ARG_ALLOW:
		case SECCOMP_KIND_ARG_DENY:
			json_entry(out, r, NULL, &first);
			break;
		case SECCOMP_KIND_ARG_OTHERS:
			nb = seccomp_policy_others(rules, n, r->name,
			    r->cond[0].arg, blocks, OTHERS_BLOCK_MAX);
			if (nb < 0)
				return -1;
			for (long b = 0; b < nb; b++)
				json_entry(out, r, &blocks[b], &first);
			break;
		case SECCOMP_KIND_OMIT:
		case SECCOMP_KIND_ALLOW:
			break;
		}
	}
	fprintf(out, "\n\t]\n}\n");
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

/* --- explain --- */

enum seccomp_verdict
seccomp_policy_explain(const struct seccomp_rule *rules, size_t n,
    const char *name, size_t *first, size_t *count)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		if (strcmp(rules[i].name, name) == 0)
			break;
	if (i == n)
		return seccomp_syscall_resolve_name(name) < 0 ?
		    SECCOMP_UNKNOWN : SECCOMP_NOT_LISTED;
	for (j = i; j < n && strcmp(rules[j].name, name) == 0; j++)
		;
	*first = i;
	*count = j - i;
	switch (rules[i].kind) {
	case SECCOMP_KIND_ALLOW:
		return SECCOMP_ALLOWED;
	case SECCOMP_KIND_DENY:
		return SECCOMP_DENIED;
	case SECCOMP_KIND_OMIT:
		return SECCOMP_OMITTED;
	default:
		return SECCOMP_BY_ARGS;
	}
}
