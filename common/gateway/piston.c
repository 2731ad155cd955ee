/* piston.c - Piston's v2 request and response shapes over the sandbox. */
#include "common/gateway/piston.h"

#include <inttypes.h>
#include <string.h>

#include "common/base/base64.h"
#include "common/base/json.h"

#define MS_MAX 86400000		/* a day: the CLI's bound on durations */
#define MEMORY_MAX (64ll << 30)
/* Piston's own defaults, used for the stage a Java request leaves out:
 * airlock's one wall clock covers javac and the run together. */
#define PISTON_COMPILE_MS 10000
#define PISTON_RUN_MS 3000

static const struct {
	const char *name;
	int status;
} errs[] = {
	[PISTON_OK] = { "ok", 200 },
	[PISTON_BAD_JSON] = { "bad_json", 400 },
	[PISTON_BAD_FIELD] = { "bad_request", 400 },
	[PISTON_RUNTIME] = { "runtime_unknown", 400 },
	[PISTON_TOO_LARGE] = { "payload_too_large", 413 },
	[PISTON_ENCODING] = { "encoding_unknown", 400 },
	[PISTON_BAD_CONTENT] = { "bad_encoding", 400 },
	[PISTON_BAD_TENANT] = { "bad_tenant", 400 },
};

const char *
piston_err_name(enum piston_err e)
{
	return errs[e].name;
}

int
piston_err_status(enum piston_err e)
{
	return errs[e].status;
}

/* The names a request may use for each language. */
static const struct {
	const char *alias;
	unsigned lang;
} aliases[] = {
	{ "python", SBX_LANG_PYTHON }, { "python3", SBX_LANG_PYTHON },
	{ "py", SBX_LANG_PYTHON }, { "java", SBX_LANG_JAVA },
};

struct ctx {
	const struct jsonr *j;
	uint8_t *store;
	size_t used, cap;
	char *err;
	size_t errlen;
};

#define SAY(c, ...) snprintf((c)->err, (c)->errlen, __VA_ARGS__)

/* A string field decoded into the store: 0, or -1 (err said why). */
static enum piston_err
take_string(struct ctx *c, long idx, const char *what, size_t max,
    const uint8_t **p, size_t *n)
{
	if (jsonr_string(c->j, (size_t)idx, (char *)c->store + c->used,
	    c->cap - c->used, n) != 0) {
		SAY(c, "%s: a string expected", what);
		return PISTON_BAD_FIELD;
	}
	if (*n > max) {
		SAY(c, "%s: larger than %zu bytes", what, max);
		return PISTON_TOO_LARGE;
	}
	*p = c->store + c->used;
	c->used += *n;
	return PISTON_OK;
}

/* A short string field into out (cap bytes with the NUL). */
static enum piston_err
take_word(struct ctx *c, long idx, const char *what, char *out, size_t cap)
{
	size_t n;

	if (jsonr_string(c->j, (size_t)idx, out, cap - 1, &n) != 0 ||
	    memchr(out, '\0', n)) {
		SAY(c, "%s: a string of at most %zu bytes expected", what,
		    cap - 1);
		return PISTON_BAD_FIELD;
	}
	out[n] = '\0';
	return PISTON_OK;
}

/* An optional integer field: -1 (Piston: no limit) and absence give 0. */
static enum piston_err
take_int(struct ctx *c, size_t root, const char *key, int64_t max,
    uint64_t *v)
{
	long idx = jsonr_member(c->j, root, key);
	int64_t x;

	*v = 0;
	if (idx < 0 || c->j->tok[idx].type == JSON_NULL)
		return PISTON_OK;
	if (jsonr_int(c->j, (size_t)idx, -1, max, &x) != 0) {
		SAY(c, "%s: an integer from -1 to %" PRId64 " expected", key,
		    max);
		return PISTON_BAD_FIELD;
	}
	*v = x < 0 ? 0 : (uint64_t)x;
	return PISTON_OK;
}

static enum piston_err
take_runtime(struct ctx *c, struct piston_req *q, size_t root,
    const struct piston_runtime *rts, size_t n)
{
	char lang[33], version[PISTON_VERSION_MAX + 1] = "*";
	long idx = jsonr_member(c->j, root, "language");
	enum piston_err e;

	if (idx < 0) {
		SAY(c, "language: required");
		return PISTON_BAD_FIELD;
	}
	if ((e = take_word(c, idx, "language", lang, sizeof lang)) != 0)
		return e;
	if ((idx = jsonr_member(c->j, root, "version")) >= 0 &&
	    (e = take_word(c, idx, "version", version, sizeof version)) != 0)
		return e;
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcmp(lang, aliases[i].alias) == 0)
			q->lang = aliases[i].lang;
	for (size_t i = 0; q->lang && i < n; i++)
		if (rts[i].lang == q->lang && (strcmp(version, "*") == 0 ||
		    strcmp(version, rts[i].version) == 0)) {
			q->rt = &rts[i];
			return PISTON_OK;
		}
	SAY(c, "%s-%s runtime is unknown (GET /api/v2/runtimes lists them)",
	    lang, version);
	return PISTON_RUNTIME;
}

/* Piston's file encodings: the content's text is the file's bytes
 * (utf8), or decodes into them (strictly: common/base/base64.h). */
static const struct {
	const char *name, *says;
	long (*decode)(const char *, size_t, uint8_t *, size_t, size_t *);
} encodings[] = {
	{ "utf8", NULL, NULL },
	{ "base64", "base64 (RFC 4648 section 4: A-Z a-z 0-9 + /, padded "
	    "with '=' to a multiple of 4, no line breaks)", base64_decode },
	{ "hex", "hex (an even count of 0-9 a-f A-F)", hex_decode },
};

/* files[i].encoding: which of encodings[], absent meaning utf8. */
static enum piston_err
take_encoding(struct ctx *c, long f, size_t i, const char *name,
    size_t *enc)
{
	long idx = jsonr_member(c->j, (size_t)f, "encoding");
	char word[16];
	size_t n;

	*enc = 0;
	if (idx < 0)
		return PISTON_OK;
	if (c->j->tok[idx].type != JSON_STRING) {
		SAY(c, "files[%zu].encoding (%s): utf8, base64 or hex "
		    "expected", i, name);
		return PISTON_ENCODING;
	}
	if (jsonr_string(c->j, (size_t)idx, word, sizeof word - 1, &n) == 0 &&
	    !memchr(word, '\0', n)) {
		word[n] = '\0';
		for (*enc = 0; *enc < sizeof encodings / sizeof encodings[0];
		    (*enc)++)
			if (strcmp(word, encodings[*enc].name) == 0)
				return PISTON_OK;
	}
	SAY(c, "files[%zu].encoding (%s): utf8, base64 or hex expected", i,
	    name);
	return PISTON_ENCODING;
}

/* The content's text, in the store from *p on (n bytes), decoded where
 * it lies: base64 and hex never write ahead of what they have read. */
static enum piston_err
decode_content(struct ctx *c, size_t enc, size_t i, const char *name,
    struct sbx_file_data *d, size_t n)
{
	uint8_t *at0 = c->store + c->used - n;
	size_t at;
	long r = encodings[enc].decode((const char *)at0, n, at0,
	    SBX_FILE_MAX, &at);

	if (r == TEXTDEC_ROOM) {
		SAY(c, "files[%zu].content (%s): larger than %u bytes decoded",
		    i, name, SBX_FILE_MAX);
		return PISTON_TOO_LARGE;
	}
	if (r < 0 && at < n) {
		SAY(c, "files[%zu].content (%s): not %s: %s, byte %zu (0x%02x) "
		    "of the text", i, name, encodings[enc].says,
		    textdec_why(r), at, at0[at]);
		return PISTON_BAD_CONTENT;
	}
	if (r < 0) {
		SAY(c, "files[%zu].content (%s): not %s: %s (%zu bytes)", i,
		    name, encodings[enc].says, textdec_why(r), n);
		return PISTON_BAD_CONTENT;
	}
	d->len = (size_t)r;
	c->used -= n - d->len;
	return PISTON_OK;
}

static enum piston_err
take_file(struct ctx *c, struct piston_req *q, long f, size_t i,
    size_t *total)
{
	char what[48];
	long idx;
	size_t enc;
	enum piston_err e;
	struct sbx_file_data *d = &q->files[i];

	if (f < 0 || c->j->tok[f].type != JSON_OBJECT) {
		SAY(c, "files[%zu]: an object expected", i);
		return PISTON_BAD_FIELD;
	}
	snprintf(what, sizeof what, "files[%zu].name", i);
	if ((idx = jsonr_member(c->j, (size_t)f, "name")) >= 0) {
		if ((e = take_word(c, idx, what, q->names[i],
		    sizeof q->names[i])) != 0)
			return e;
	} else if (q->lang == SBX_LANG_PYTHON) {
		snprintf(q->names[i], sizeof q->names[i], "file%zu.py", i);
	} else {
		SAY(c, "%s: required for Java (the class's name)", what);
		return PISTON_BAD_FIELD;
	}
	if (!sbx_name_valid((const uint8_t *)q->names[i],
	    strlen(q->names[i]))) {
		SAY(c, "%s: 1-%d bytes of [A-Za-z0-9._-], not starting with "
		    "'.' or '-'", what, SBX_NAME_MAX);
		return PISTON_BAD_FIELD;
	}
	for (size_t k = 0; k < i; k++)
		if (strcmp(q->names[k], q->names[i]) == 0) {
			SAY(c, "%s: two files named %s", what, q->names[i]);
			return PISTON_BAD_FIELD;
		}
	d->name = q->names[i];
	if ((e = take_encoding(c, f, i, d->name, &enc)) != 0)
		return e;
	snprintf(what, sizeof what, "files[%zu].content", i);
	if ((idx = jsonr_member(c->j, (size_t)f, "content")) < 0) {
		SAY(c, "%s: required", what);
		return PISTON_BAD_FIELD;
	}
	/* an encoded text's size is checked decoded */
	if ((e = take_string(c, idx, what, enc ? (size_t)-1 : SBX_FILE_MAX,
	    &d->data, &d->len)) != 0 ||
	    (enc && (e = decode_content(c, enc, i, d->name, d, d->len)) != 0))
		return e;
	if ((*total += d->len) > SBX_FILES_TOTAL_MAX) {
		SAY(c, "files: larger than %u bytes in all",
		    SBX_FILES_TOTAL_MAX);
		return PISTON_TOO_LARGE;
	}
	return PISTON_OK;
}

static enum piston_err
take_files(struct ctx *c, struct piston_req *q, size_t root)
{
	long arr = jsonr_member(c->j, root, "files");
	size_t n, total = 0;
	enum piston_err e;

	if (arr < 0 || c->j->tok[arr].type != JSON_ARRAY ||
	    (n = c->j->tok[arr].count) == 0 || n > SBX_FILES_MAX) {
		SAY(c, "files: an array of 1-%d files expected (the first "
		    "runs)", SBX_FILES_MAX);
		return PISTON_BAD_FIELD;
	}
	for (size_t i = 0; i < n; i++)
		if ((e = take_file(c, q, jsonr_element(c->j, (size_t)arr, i),
		    i, &total)) != 0)
			return e;
	q->nfiles = n;
	return PISTON_OK;
}

/* A memory limit field, as take_int; one under SBX_MEMORY_MIN is refused
 * here, as the service would, never raised. */
static enum piston_err
take_memory(struct ctx *c, size_t root, const char *key, uint64_t *v)
{
	enum piston_err e = take_int(c, root, key, MEMORY_MAX, v);

	if (e == PISTON_OK && *v && *v < SBX_MEMORY_MIN) {
		SAY(c, "%s: at least %llu bytes (%lluM, the smallest memory "
		    "limit a tool runs under), or -1 for the service's "
		    "default", key, SBX_MEMORY_MIN, SBX_MEMORY_MIN >> 20);
		return PISTON_BAD_FIELD;
	}
	return e;
}

/* Piston's two stages onto airlock's one set of limits. */
static enum piston_err
take_limits(struct ctx *c, struct piston_req *q, size_t root)
{
	uint64_t ct, rt, cc, rc, cm, rm;
	enum piston_err e;

	if ((e = take_int(c, root, "compile_timeout", MS_MAX, &ct)) ||
	    (e = take_int(c, root, "run_timeout", MS_MAX, &rt)) ||
	    (e = take_int(c, root, "compile_cpu_time", MS_MAX, &cc)) ||
	    (e = take_int(c, root, "run_cpu_time", MS_MAX, &rc)) ||
	    (e = take_memory(c, root, "compile_memory_limit", &cm)) ||
	    (e = take_memory(c, root, "run_memory_limit", &rm)))
		return e;
	if (q->lang == SBX_LANG_JAVA) {
		if (ct || rt)
			q->lim.timeout_ms = (ct ? ct : PISTON_COMPILE_MS) +
			    (rt ? rt : PISTON_RUN_MS);
		if (cc || rc)
			q->lim.cpu_ms = (cc ? cc : PISTON_COMPILE_MS) +
			    (rc ? rc : PISTON_RUN_MS);
		q->lim.memory = cm > rm ? cm : rm;
	} else {
		q->lim.timeout_ms = rt;
		q->lim.cpu_ms = rc;
		q->lim.memory = rm;
	}
	return PISTON_OK;
}

/* "args": an array of strings, the tool's argv words after its name,
 * each NUL-terminated in the store (a JSON string's text is at least two
 * bytes longer than its value: the NUL fits where the text did). */
static enum piston_err
take_args(struct ctx *c, struct piston_req *q, size_t root)
{
	long arr = jsonr_member(c->j, root, "args"), idx;
	size_t n, total = 0;
	const uint8_t *w;
	size_t len;
	enum piston_err e;

	if (arr < 0)
		return PISTON_OK;
	if (c->j->tok[arr].type != JSON_ARRAY ||
	    (n = c->j->tok[arr].count) > SBX_ARGS_MAX) {
		SAY(c, "args: an array of at most %d strings expected",
		    SBX_ARGS_MAX);
		return PISTON_BAD_FIELD;
	}
	for (size_t i = 0; i < n; i++) {
		char what[24];

		snprintf(what, sizeof what, "args[%zu]", i);
		idx = jsonr_element(c->j, (size_t)arr, i);
		if (idx < 0 || (e = take_string(c, idx, what, SBX_ARG_MAX,
		    &w, &len)) != 0)
			return idx < 0 ? PISTON_BAD_FIELD : e;
		if (memchr(w, '\0', len) || c->used >= c->cap) {
			SAY(c, "%s: no NUL byte (\\u0000) in a word", what);
			return PISTON_BAD_FIELD;
		}
		if ((total += len) > SBX_ARGS_TOTAL_MAX) {
			SAY(c, "args: larger than %d bytes in all",
			    SBX_ARGS_TOTAL_MAX);
			return PISTON_TOO_LARGE;
		}
		c->store[c->used++] = '\0';
		q->args[i] = (char *)w;
	}
	q->nargs = n;
	q->args[n] = NULL;
	return PISTON_OK;
}

/* tenant and request_id: optional, the protocol's id grammar; one
 * outside it (or not a string) is refused with bad. */
static enum piston_err
take_id(struct ctx *c, size_t root, const char *key, char *out,
    enum piston_err bad)
{
	long idx = jsonr_member(c->j, root, key);

	out[0] = '\0';
	if (idx < 0)
		return PISTON_OK;
	if (take_word(c, idx, key, out, PROTO_ID_MAX + 1) != 0)
		return bad;
	if (!proto_id_valid((const uint8_t *)out, strlen(out))) {
		SAY(c, "%s: 1-%d bytes of [A-Za-z0-9._-], not starting with "
		    "'.'", key, PROTO_ID_MAX);
		return bad;
	}
	return PISTON_OK;
}

enum piston_err
piston_parse_execute(struct piston_req *q, const char *body, size_t len,
    const struct piston_runtime *rts, size_t n, uint8_t *store,
    struct json_node *tok, char *err, size_t errlen)
{
	struct jsonr j;
	struct ctx c = { &j, store, 0, len, err, errlen };
	enum jsonr_status js;
	enum piston_err e;
	long idx;

	memset(q, 0, sizeof *q);
	if ((js = jsonr_parse(&j, body, len, tok, PISTON_TOKENS_MAX)) !=
	    JSONR_OK) {
		snprintf(err, errlen, "the body is not JSON the gateway takes: "
		    "%s at byte %zu", j.err, j.err_off);
		return PISTON_BAD_JSON;
	}
	if (tok[0].type != JSON_OBJECT) {
		snprintf(err, errlen, "the body must be a JSON object");
		return PISTON_BAD_JSON;
	}
	if ((e = take_runtime(&c, q, 0, rts, n)) || (e = take_files(&c, q, 0))
	    || (e = take_limits(&c, q, 0)) ||
	    (e = take_id(&c, 0, "tenant", q->tenant,
	    PISTON_BAD_TENANT)) ||
	    (e = take_id(&c, 0, "request_id", q->request_id,
	    PISTON_BAD_FIELD)))
		return e;
	if ((idx = jsonr_member(&j, 0, "stdin")) >= 0 &&
	    (e = take_string(&c, idx, "stdin", SBX_INPUT_MAX, &q->input,
	    &q->input_len)) != 0)
		return e;
	return take_args(&c, q, 0);
}

/* --- writing ----------------------------------------------------------- */

static void
write_aliases(FILE *f, unsigned lang)
{
	int first = 1;

	fputc('[', f);
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (aliases[i].lang == lang &&
		    strcmp(aliases[i].alias, sbx_lang_name(lang)) != 0) {
			fprintf(f, "%s\"%s\"", first ? "" : ",",
			    aliases[i].alias);
			first = 0;
		}
	fputc(']', f);
}

void
piston_write_runtimes(FILE *f, const struct piston_runtime *rts, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s{\"language\":\"%s\",\"version\":", i ? "," : "",
		    sbx_lang_name(rts[i].lang));
		json_write_cstr(f, rts[i].version);
		fputs(",\"aliases\":", f);
		write_aliases(f, rts[i].lang);
		fputc('}', f);
	}
	fputs("]\n", f);
}

void
piston_write_error(FILE *f, const char *code, const char *message)
{
	fprintf(f, "{\"code\":\"%s\",\"message\":", code);
	json_write_cstr(f, message);
	fputs("}\n", f);
}

static const char *
signal_name(unsigned sig)
{
	static const char *const names[] = { NULL, "SIGHUP", "SIGINT",
		"SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE",
		"SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE",
		"SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
		"SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG",
		"SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH",
		"SIGIO", "SIGPWR", "SIGSYS" };

	return sig < sizeof names / sizeof names[0] ? names[sig] : NULL;
}

/* Piston's status word for how a stage ended, or NULL when it ran to
 * its end with status 0. */
static const char *
piston_status(const struct sbx_result *r)
{
	switch (r->reason) {
	case SBX_EXITED:
		if (r->kind == SBX_KIND_SIGNAL)
			return "SG";
		return r->status ? "RE" : NULL;
	case SBX_TIMEOUT:
	case SBX_CPU:
		return "TO";
	case SBX_OUTPUT:
		return r->flags & SBX_F_STDOUT_TRUNCATED ? "OL" : "EL";
	case SBX_JAIL_FAILED:
	case SBX_SHUTDOWN:
		return "XX";
	case SBX_COMPILE_FAILED:
	case SBX_VERIFY_FAILED:
		return "RE";
	default:
		return "SG";	/* memory, pids, disk: the jail was killed */
	}
}

static void
write_opt_str(FILE *f, const char *key, const char *v)
{
	fprintf(f, ",\"%s\":", key);
	if (v)
		json_write_cstr(f, v);
	else
		fputs("null", f);
}

/* One of Piston's stage objects. code: the exit code or -1 (null). */
static void
write_stage(FILE *f, const struct piston_output *o, const char *err_text,
    const struct sbx_result *r, long code)
{
	const char *sig = NULL;

	if (!o) {
		fputs("{\"stdout\":\"\",\"stderr\":", f);
		json_write_cstr(f, err_text);
		fputs(",\"output\":", f);
		json_write_cstr(f, err_text);
	} else {
		fputs("{\"stdout\":", f);
		json_write_quoted(f, o->out, o->out_len);
		fputs(",\"stderr\":", f);
		json_write_quoted(f, o->err, o->err_len);
		fputs(",\"output\":", f);
		json_write_quoted(f, o->both, o->both_len);
	}
	if (code >= 0)
		fprintf(f, ",\"code\":%ld", code);
	else
		fputs(",\"code\":null", f);
	if (r && r->kind == SBX_KIND_SIGNAL)
		sig = signal_name(r->status);
	write_opt_str(f, "signal", sig);
	write_opt_str(f, "message", r && r->reason != SBX_EXITED &&
	    r->detail[0] ? r->detail : NULL);
	write_opt_str(f, "status", r ? piston_status(r) : NULL);
	if (r)
		fprintf(f, ",\"cpu_time\":%" PRIu64 ",\"wall_time\":%" PRIu64
		    ",\"memory\":%" PRIu64, r->cpu_ms, r->wall_ms,
		    r->peak_memory);
	fputc('}', f);
}

static void
write_airlock(FILE *f, const struct piston_req *q, const struct sbx_answer *a)
{
	static char obj[SBX_DETAIL_MAX * 2 + 2048];
	long n = sbx_result_json(obj, sizeof obj, &a->res, q->lang,
	    &a->info.lim);

	if (n < 2) {
		fputs("{}", f);
		return;
	}
	/* the result object, its last '}' replaced by what call adds */
	fwrite(obj, 1, (size_t)n - 1, f);
	fputs(",\"exec_id\":", f);
	json_write_cstr(f, a->info.exec_id);
	fputs(",\"jail\":", f);
	json_write_cstr(f, a->info.jail);
	fputs(",\"tenant\":", f);
	json_write_cstr(f, q->tenant);
	fprintf(f, ",\"budget\":{\"cpu_ms_charged\":%" PRIu64 "}}",
	    a->res.cpu_ms);
}

void
piston_write_result(FILE *f, const struct piston_req *q,
    const struct sbx_answer *a, const struct piston_output *o)
{
	const struct sbx_result *r = &a->res;
	long code = r->kind == SBX_KIND_CODE ? (long)r->status : -1;

	fprintf(f, "{\"language\":\"%s\",\"version\":",
	    sbx_lang_name(q->lang));
	json_write_cstr(f, q->rt->version);
	if (q->lang == SBX_LANG_JAVA && r->kind == SBX_KIND_NONE) {
		/* the tool never ran: the compile stage says why */
		fputs(",\"compile\":", f);
		write_stage(f, NULL, r->detail, r, r->reason ==
		    SBX_COMPILE_FAILED || r->reason == SBX_VERIFY_FAILED ?
		    1 : -1);
	} else {
		if (q->lang == SBX_LANG_JAVA) {
			fputs(",\"compile\":", f);
			write_stage(f, NULL, "", NULL, 0);
		}
		fputs(",\"run\":", f);
		write_stage(f, o, NULL, r, code);
	}
	fputs(",\"airlock\":", f);
	write_airlock(f, q, a);
	fputs("}\n", f);
}
