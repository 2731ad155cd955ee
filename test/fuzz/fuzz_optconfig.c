/* fuzz_optconfig.c - a service's --config FILE applied to its options
 * (common/service/optconfig.c) under arbitrary bytes, over a table of
 * this target's own that has every kind of option (flag, value, repeat;
 * fixed, reload, swap). The first byte picks options given on the
 * command line first; the rest is a file, and after a 0xff byte (which
 * no file may hold) a second file, the configuration a reload reads.
 * Invariants, against a model of optconfig.h's rules run on optfile's
 * entries: the file is applied exactly when every entry names an option,
 * has a value exactly when the option takes one, is on the command line
 * neither, is not given twice in the file (unless the option repeats),
 * fits OPTCONFIG_GIVEN_MAX, and its value is taken by set_value (this
 * table's set_value refuses "bad"); the record is the command line's
 * options, then the file's entries in order with their lines and values;
 * a refusal names "PATH:LINE: " of the entry that failed and set_value
 * saw nothing past it. optconfig_fixed_change names the first option
 * (in the table's order) whose values differ between the two records as
 * written when it is fixed, or that is given in one and not the other
 * when it is a swap; a reload option never; a record never differs from
 * itself. A duration taken is at most a day. */
#include <stdio.h>
#include <string.h>

#include "common/base/optfile.h"
#include "common/service/optconfig.h"
#include "config_input.h"
#include "fuzz.h"

static const struct optconfig_option opts[] = {
	{ "flag", 0, 0, OPTCONFIG_FIXED },
	{ "fixed", 1, 0, OPTCONFIG_FIXED },
	{ "reload", 1, 0, OPTCONFIG_RELOAD },
	{ "swap", 1, 0, OPTCONFIG_SWAP },
	{ "many", 1, 1, OPTCONFIG_FIXED },
	{ "more", 1, 1, OPTCONFIG_RELOAD },
	{ "swap-flag", 0, 0, OPTCONFIG_SWAP },
};
#define NOPTS (sizeof opts / sizeof *opts)

/* What set_value saw: how many calls. */
struct seen {
	size_t calls;
};

static int
set_value(void *cfg, size_t o, const char *v, char *err, size_t errlen)
{
	struct seen *s = cfg;

	s->calls++;
	if (v && strcmp(v, "bad") == 0) {
		snprintf(err, errlen, "--%s: bad", opts[o].name);
		return -1;
	}
	return 0;
}

static const struct optconfig_service svc = {
	opts, NOPTS, "fuzz --help", "the fuzzer", set_value
};

/* The model's record: (option, line, value) as optconfig_set keeps it. */
struct model {
	size_t n;
	struct {
		size_t opt;
		unsigned line;
		const char *value;
	} at[OPTCONFIG_GIVEN_MAX];
};

static int
find(const char *name)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (strcmp(opts[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The command line's options, as picked. */
static void
command_line(unsigned pick, struct optconfig_given *g, struct model *m,
    struct seen *s)
{
	char err[256];

	for (size_t o = 0; o < NOPTS; o++) {
		const char *v = opts[o].has_value ? "v0" : NULL;

		if (!(pick >> o & 1))
			continue;
		FUZZ_ASSERT(optconfig_set(&svc, g, s, o, v, 0, err,
		    sizeof err) == 0);
		m->at[m->n].opt = o;
		m->at[m->n].line = 0;
		m->at[m->n++].value = v;
	}
}

/* The model's verdict on one entry given m: TAKEN (recorded), REFUSED
 * by set_value, or REFUSED_BEFORE it was reached. */
enum verdict { TAKEN, REFUSED, REFUSED_BEFORE };

static enum verdict
model_take(struct model *m, const struct optfile_entry *e)
{
	int o = find(e->name);

	if (o < 0 || opts[o].has_value != (e->value != NULL))
		return REFUSED_BEFORE;
	for (size_t i = 0; i < m->n; i++)
		if (m->at[i].opt == (size_t)o && (m->at[i].line == 0 ||
		    !opts[o].repeat))
			return REFUSED_BEFORE;
	if (m->n == OPTCONFIG_GIVEN_MAX)
		return REFUSED_BEFORE;
	if (e->value && strcmp(e->value, "bad") == 0)
		return REFUSED;
	m->at[m->n].opt = (size_t)o;
	m->at[m->n].line = e->line;
	m->at[m->n++].value = e->value;
	return TAKEN;
}

/* One file (data[0..size)) onto a fresh record after the command line:
 * applied in buf, modelled in copy (optfile writes NULs into each; the
 * records point into them), compared. 0 applied, -1 refused. */
static int
one_file(unsigned pick, const uint8_t *data, size_t size, char *buf,
    char *copy, struct optconfig_given *g, struct model *m)
{
	struct optfile f;
	struct optfile_entry e;
	struct seen s = { 0 };
	char err[1024], why[512], head[64];
	size_t cmd, calls_want;
	enum verdict v = TAKEN;
	int rc, want = 0;
	unsigned bad_line = 0;

	memset(g, 0, sizeof *g);
	memset(m, 0, sizeof *m);
	command_line(pick, g, m, &s);
	cmd = m->n;
	calls_want = s.calls;
	memcpy(copy, data, size);
	optfile_init(&f, copy, size);
	while ((rc = optfile_next(&f, &e, why, sizeof why)) > 0) {
		v = model_take(m, &e);
		calls_want += v != REFUSED_BEFORE;
		if (v != TAKEN) {
			want = -1;
			bad_line = e.line;
			break;
		}
	}
	if (rc < 0) {
		want = -1;
		bad_line = f.line;
	}
	memcpy(buf, data, size);
	rc = optconfig_apply(&svc, g, &s, "P", buf, size, err, sizeof err);
	FUZZ_ASSERT(rc == want);
	FUZZ_ASSERT(g->n == m->n && g->n >= cmd);
	for (size_t i = 0; i < g->n; i++) {
		FUZZ_ASSERT(g->at[i].opt == m->at[i].opt &&
		    g->at[i].line == m->at[i].line);
		FUZZ_ASSERT(config_str_eq(g->at[i].value, m->at[i].value));
	}
	if (rc != 0) {
		snprintf(head, sizeof head, "P:%u: ", bad_line);
		FUZZ_ASSERT(strncmp(err, head, strlen(head)) == 0);
	}
	/* set_value saw each entry taken, and the one it refused */
	FUZZ_ASSERT(s.calls == calls_want);
	return rc;
}

/* The model of optconfig_fixed_change. */
static int
same_values(const struct model *a, const struct model *b, size_t o)
{
	size_t i = 0, k = 0;

	for (;;) {
		while (i < a->n && a->at[i].opt != o)
			i++;
		while (k < b->n && b->at[k].opt != o)
			k++;
		if (i == a->n || k == b->n)
			return i == a->n && k == b->n;
		if (!config_str_eq(a->at[i].value, b->at[k].value))
			return 0;
		i++;
		k++;
	}
}

static int
has(const struct model *a, size_t o)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->at[i].opt == o)
			return 1;
	return 0;
}

static const char *
model_change(const struct model *a, const struct model *b)
{
	for (size_t o = 0; o < NOPTS; o++)
		if ((opts[o].reload == OPTCONFIG_FIXED &&
		    !same_values(a, b, o)) || (opts[o].reload ==
		    OPTCONFIG_SWAP && has(a, o) != has(b, o)))
			return opts[o].name;
	return NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf_a[OPTFILE_MAX + 1], buf_b[OPTFILE_MAX + 1],
	    copy_a[OPTFILE_MAX + 1], copy_b[OPTFILE_MAX + 1];
	static struct optconfig_given ga, gb;
	static struct model ma, mb;
	struct config_input in;
	const char *got, *want;
	int ra, rb;

	if (config_input_split(data, size, &in) != 0)
		return 0;
	ra = one_file(in.pick, in.file[0], in.len[0], buf_a, copy_a, &ga, &ma);
	/* the command line the same, or (bit 7) another */
	rb = one_file(in.pick >> 7 ? in.pick ^ 0x7f : in.pick, in.file[1],
	    in.len[1], buf_b, copy_b, &gb, &mb);
	FUZZ_ASSERT(optconfig_fixed_change(&svc, &ga, &ga) == NULL);
	if (ra == 0 && rb == 0) {
		got = optconfig_fixed_change(&svc, &ga, &gb);
		want = model_change(&ma, &mb);
		FUZZ_ASSERT((got == NULL) == (want == NULL));
		FUZZ_ASSERT(!got || strcmp(got, want) == 0);
		FUZZ_ASSERT((optconfig_fixed_change(&svc, &gb, &ga) == NULL) ==
		    (got == NULL));
	}
	/* every value of the first file as a duration */
	for (size_t i = 0; i < ga.n; i++) {
		uint64_t ms;
		char err[256];

		if (!ga.at[i].value)
			continue;
		if (optconfig_duration("d", ga.at[i].value, &ms, err,
		    sizeof err) == 0)
			FUZZ_ASSERT(ms <= 86400000);
		else
			FUZZ_ASSERT(strncmp(err, "--d: '", 6) == 0);
	}
	return 0;
}
