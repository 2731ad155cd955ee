/* seccomp.c - the syscall policy for operators: list it, explain a name,
 * export it for Docker/Kubernetes, or run a command under it. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/jail/seccomp_policy.h"
#include "common/base/xwrap.h"

#define EXIT_EXEC_FAILED 127

int seccomp_main(int argc, char **argv);

static int
usage(FILE *out, int code)
{
	fprintf(out,
	    "usage: airlock seccomp [--program P] [--no-filter] -- CMD "
	    "[ARGS...]\n"
	    "       airlock seccomp [--program P] --list\n"
	    "       airlock seccomp [--program P] --explain NAME\n"
	    "       airlock seccomp [--program P] --export docker\n\n"
	    "airlock's system call policy (seccomp/policy.h, docs/SECCOMP.md),"
	    "\nthe one every jailed child runs under.\n\n"
	    "  --program P      which of its programs: jail (what leases and\n"
	    "                   executions run under; the default), jail-allow-"
	    "bind\n"
	    "                   (a runner's leases with --allow-bind), "
	    "container (the\n"
	    "                   services' own container, which listens; the "
	    "default\n"
	    "                   of --export), runner (container plus a "
	    "lease's\n"
	    "                   network, mount, ipc and pid namespaces: for "
	    "a runner\n"
	    "                   given CAP_SYS_ADMIN and CAP_NET_ADMIN)\n"
	    "  -- CMD ARGS      set no_new_privs, install the filter and exec "
	    "CMD\n"
	    "                   (searched in PATH)\n"
	    "  --no-filter      the same without the filter: the A/B baseline\n"
	    "  --list           every rule, one a line, tab-separated:\n"
	    "                   allow NAME | deny NAME ERRNO REASON |\n"
	    "                   omit NAME REASON | args NAME allow WHAT |\n"
	    "                   args NAME deny ERRNO WHAT REASON\n"
	    "  --explain NAME   what the filter does with syscall NAME, and "
	    "why\n"
	    "  --export docker  the same policy as a Docker/OCI seccomp profile"
	    "\n                   (docker run --security-opt seccomp=FILE, "
	    "Compose\n"
	    "                   security_opt, Kubernetes seccompProfile "
	    "Localhost)\n\n"
	    "Syscalls outside the allowlist fail with ENOSYS, the deny set "
	    "with\nEPERM (clone3: ENOSYS, so libcs fall back to clone); an x86 "
	    "(int 0x80)\nor x32 system call kills the process.\n\n"
	    "Exit codes: 0 ok, 64 usage, 65 NAME is not a syscall libseccomp "
	    "knows,\n70 the policy does not compile, 71 a system call failed, "
	    "127 CMD\ncould not be executed; otherwise CMD's own status "
	    "(killed by signal N:\nthe shell reports 128+N, SIGSYS = 159).\n");
	return code;
}

static const char *
errno_str(int err)
{
	const char *s = seccomp_errno_name(err);

	return s ? s : "errno";
}

static void
print_cond(const struct seccomp_cond *c)
{
	if (c->cmp == SECCOMP_CMP_EQ)
		printf("arg%d == %#llx", c->arg, (unsigned long long)c->a);
	else if (c->cmp == SECCOMP_CMP_NE)
		printf("arg%d != %#llx", c->arg, (unsigned long long)c->a);
	else if (c->cmp == SECCOMP_CMP_MASKED_EQ)
		printf("arg%d & %#llx == %#llx", c->arg,
		    (unsigned long long)c->a, (unsigned long long)c->b);
}

static void
print_conds(const struct seccomp_rule *r)
{
	printf("(");
	print_cond(&r->cond[0]);
	if (r->cond[1].cmp != SECCOMP_CMP_NONE) {
		printf(" && ");
		print_cond(&r->cond[1]);
	}
	printf(")");
}

/* The rules of the chosen program (seccomp_policy_select). */
static struct seccomp_rule *rules;
static size_t nrules;

static int
list_policy(void)
{
	for (size_t i = 0; i < nrules; i++) {
		const struct seccomp_rule *r = &rules[i];

		switch (r->kind) {
		case SECCOMP_KIND_ALLOW:
			printf("allow\t%s\n", r->name);
			break;
		case SECCOMP_KIND_DENY:
			printf("deny\t%s\t%s\t%s\n", r->name, errno_str(r->err),
			    r->reason);
			break;
		case SECCOMP_KIND_OMIT:
			printf("omit\t%s\t%s\n", r->name, r->reason);
			break;
		case SECCOMP_KIND_ARG_ALLOW:
		case SECCOMP_KIND_ARG_OTHERS:
			printf("args\t%s\tallow\t%s\n", r->name, r->what);
			break;
		case SECCOMP_KIND_ARG_DENY:
			printf("args\t%s\tdeny\t%s\t%s\t%s\n", r->name,
			    errno_str(r->err), r->what, r->reason);
			break;
		}
	}
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_IOERR;
}

/* Do the argument rules rules[first..first+count) answer every call?
 * An ARG_OTHERS does; so does "arg == v" beside "arg != v", each
 * alone. */
static int
rules_cover_all(size_t first, size_t count)
{
	for (size_t i = first; i < first + count; i++) {
		const struct seccomp_cond *a = &rules[i].cond[0];

		if (rules[i].kind == SECCOMP_KIND_ARG_OTHERS)
			return 1;
		if (a->cmp != SECCOMP_CMP_EQ ||
		    rules[i].cond[1].cmp != SECCOMP_CMP_NONE)
			continue;
		for (size_t j = first; j < first + count; j++) {
			const struct seccomp_cond *b = &rules[j].cond[0];

			if (b->cmp == SECCOMP_CMP_NE && b->arg == a->arg &&
			    b->a == a->a &&
			    rules[j].cond[1].cmp == SECCOMP_CMP_NONE)
				return 1;
		}
	}
	return 0;
}

static int
explain(const char *name, enum seccomp_program prog)
{
	size_t first = 0, count = 0, i;
	const struct seccomp_rule *r;

	switch (seccomp_policy_explain(rules, nrules, name, &first,
	    &count)) {
	case SECCOMP_UNKNOWN:
		log_msg(LOG_ERROR, "'%s' is not a syscall libseccomp knows on "
		    "this architecture (a typo, or a call newer than this "
		    "build: the filter does not allow it)", name);
		return EXIT_DATAERR;
	case SECCOMP_NOT_LISTED:
		printf("%s: not listed: not in the baseline allowlist, so the "
		    "filter answers %s\n", name,
		    errno_str(SECCOMP_DEFAULT_ERRNO));
		return EXIT_OK;
	case SECCOMP_ALLOWED:
		r = &rules[first];
		if (r->reason)
			printf("%s: allowed by the %s program, not the "
			    "baseline allowlist: %s\n", name,
			    seccomp_program_name(prog), r->reason);
		else
			printf("%s: allowed: in the baseline allowlist\n",
			    name);
		return EXIT_OK;
	case SECCOMP_DENIED:
		r = &rules[first];
		printf("%s: denied (%s): %s\n", name, errno_str(r->err),
		    r->reason);
		return EXIT_OK;
	case SECCOMP_OMITTED:
		r = &rules[first];
		printf("%s: not allowed (%s): left out of the baseline "
		    "although Docker allows it: %s\n", name,
		    errno_str(SECCOMP_DEFAULT_ERRNO), r->reason);
		return EXIT_OK;
	case SECCOMP_BY_ARGS:
		break;
	}
	printf("%s: decided by its arguments:\n", name);
	for (i = first; i < first + count; i++) {
		r = &rules[i];
		if (r->kind == SECCOMP_KIND_ARG_ALLOW) {
			printf("  allowed: %s ", r->what);
			print_conds(r);
			printf("\n");
		} else if (r->kind == SECCOMP_KIND_ARG_DENY) {
			printf("  denied (%s): %s ", errno_str(r->err),
			    r->what);
			print_conds(r);
			printf(": %s\n", r->reason);
		} else if (r->kind == SECCOMP_KIND_ARG_OTHERS) {
			printf("  allowed: %s (arg%d: any other low 32 bits)\n",
			    r->what, r->cond[0].arg);
		}
	}
	if (!rules_cover_all(first, count))
		printf("  no rule above matches: %s, like any call outside "
		    "the allowlist\n", errno_str(SECCOMP_DEFAULT_ERRNO));
	return EXIT_OK;
}

static int
export_docker(void)
{
	/* the build compiled the same table: the profile never names a
	 * call the filter cannot */
	if (seccomp_policy_export_docker(rules, nrules, stdout) != 0)
		die(EXIT_IOERR, "cannot write the Docker profile");
	return EXIT_OK;
}

static int
run(char **cmd, int filter, enum seccomp_program p)
{
	struct sock_fprog prog;

	seccomp_policy_program(&prog, p);
	/* set in both modes, so the filter is the only A/B difference */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		die_errno(EXIT_OSERR, "cannot set no_new_privs");
	if (filter && seccomp_policy_install(&prog) != 0)
		die_errno(EXIT_OSERR, "cannot install the seccomp filter");
	execvp(cmd[0], cmd);
	die_errno(EXIT_EXEC_FAILED, "cannot execute %s", cmd[0]);
}

int
seccomp_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "explain", required_argument, NULL, 'e' },
		{ "export", required_argument, NULL, 'x' },
		{ "no-filter", no_argument, NULL, 'n' },
		{ "program", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int filter = 1, mode = 0, nopts = 0, chosen = 0, dashdash, at, o;
	enum seccomp_program prog = SECCOMP_PROG_JAIL;
	const char *arg = NULL;

	if (argc < 2)
		return usage(stderr, EXIT_USAGE);
	/* "+": CMD's own options are never ours, even without -- */
	while (at = optind, (o = getopt_long(argc, argv, "+h", opts,
	    NULL)) != -1) {
		nopts++;
		switch (o) {
		case 'h':
			return usage(stdout, EXIT_OK);
		case 'n':
			filter = 0;
			break;
		case 'p':
			if (seccomp_program_parse(optarg, &prog) != 0) {
				log_msg(LOG_ERROR, "unknown program '%s' (known: "
				    "jail, jail-allow-bind, container, runner)",
				    optarg);
				return EXIT_USAGE;
			}
			chosen = 1;
			nopts--;	/* goes with any mode */
			break;
		case 'l':
		case 'e':
		case 'x':
			mode = o;
			arg = optarg;
			break;
		default:
			return usage(stderr, EXIT_USAGE);
		}
	}
	dashdash = optind == at + 1 && strcmp(argv[at], "--") == 0;
	/* the services' container listens: its profile is the default
	 * export */
	if (mode == 'x' && !chosen)
		prog = SECCOMP_PROG_CONTAINER;
	rules = xmalloc(seccomp_policy_len * sizeof *rules);
	nrules = seccomp_policy_select(seccomp_policy, seccomp_policy_len,
	    prog, rules);
	/* --list, --explain and --export stand alone */
	if (mode && nopts == 1 && !dashdash && optind == argc) {
		if (mode == 'l')
			return list_policy();
		if (mode == 'e')
			return explain(arg, prog);
		if (strcmp(arg, "docker") != 0) {
			log_msg(LOG_ERROR, "unknown export format '%s' (known: "
			    "docker)", arg);
			return EXIT_USAGE;
		}
		return export_docker();
	}
	if (mode || !dashdash || optind == argc) {
		log_msg(LOG_ERROR, "expected -- CMD [ARGS...]; see 'airlock "
		    "seccomp --help'");
		return EXIT_USAGE;
	}
	return run(argv + optind, filter, prog);
}
