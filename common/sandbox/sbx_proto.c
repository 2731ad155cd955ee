/* sbx_proto.c - sandbox payloads: strict parsers, their encoders, and
 * the JSON form of a result. */
#include "common/sandbox/sbx_proto.h"

#include <stdio.h>
#include <string.h>

#include "common/base/json.h"
#include "common/wire/proto.h"
#include "common/base/bounded_rw.h"

static const char *const status_texts[] = {
	[SBX_OK] = "ok",
	[SBX_BAD_MAGIC] = "not a sandbox payload (no SBX1 or SBX2)",
	[SBX_TRUNCATED] = "a field runs past the end of the frame",
	[SBX_TRAILING] = "unexpected bytes after the last field",
	[SBX_BAD_ID] = "tenant or request id is empty, longer than 64 bytes "
	    "or not [A-Za-z0-9._-]",
	[SBX_BAD_LANG] = "unknown language",
	[SBX_BAD_FILES] = "no file, over 15 files, a name that is not 1-128 "
	    "bytes of [A-Za-z0-9._-] not starting with '.', or a duplicate",
	[SBX_BAD_SIZE] = "a file over 1 MiB, files over 4 MiB in all, or "
	    "input over 4 MiB",
	[SBX_BAD_FIELD] = "a field value out of range",
	[SBX_BAD_ARGS] = "arguments: over 64 words, a word over 4096 bytes, "
	    "over 16384 bytes in all, a NUL byte in one, or a count of 0 "
	    "after SBX2",
};

const char *
sbx_status_text(enum sbx_status s)
{
	if ((unsigned)s < sizeof status_texts / sizeof status_texts[0])
		return status_texts[s];
	return "unknown status";
}

static const char *const lang_names[] = {
	[SBX_LANG_PYTHON] = "python", [SBX_LANG_JAVA] = "java",
	[SBX_LANG_EXEC] = "exec",
};

const char *
sbx_lang_name(unsigned lang)
{
	if (lang < sizeof lang_names / sizeof lang_names[0])
		return lang_names[lang];
	return NULL;
}

unsigned
sbx_lang_parse(const char *name)
{
	for (unsigned i = 1; i < sizeof lang_names / sizeof lang_names[0]; i++)
		if (strcmp(name, lang_names[i]) == 0)
			return i;
	return 0;
}

const char *const sbx_reason_names[SBX_REASON_MAX_] = {
	[SBX_EXITED] = "exited", [SBX_TIMEOUT] = "timeout",
	[SBX_MEMORY] = "memory", [SBX_OUTPUT] = "output", [SBX_PIDS] = "pids",
	[SBX_VERIFY_FAILED] = "verify_failed",
	[SBX_COMPILE_FAILED] = "compile_failed",
	[SBX_JAIL_FAILED] = "jail_failed", [SBX_CPU] = "cpu",
	[SBX_DISK] = "disk", [SBX_SHUTDOWN] = "shutdown",
};

const char *
sbx_reason_name(unsigned reason)
{
	if (reason < SBX_REASON_MAX_)
		return sbx_reason_names[reason];
	return "unknown";
}

static const char *const error_names[] = {
	[SBX_ERR_BAD_REQUEST] = "bad_request",
	[SBX_ERR_PROTOCOL] = "protocol",
	[SBX_ERR_BUDGET_CONCURRENCY] = "budget_concurrency",
	[SBX_ERR_BUDGET_QUEUE] = "budget_queue",
	[SBX_ERR_BUDGET_CPU] = "budget_cpu",
	[SBX_ERR_CAPACITY] = "capacity",
	[SBX_ERR_LANGUAGE] = "language_unavailable",
	[SBX_ERR_SHUTDOWN] = "shutdown",
	[SBX_ERR_INTERNAL] = "internal",
	[SBX_ERR_UPLOAD_TIMEOUT] = "upload_timeout",
	[SBX_ERR_QUEUE_TIMEOUT] = "budget_queue_timeout",
};

const char *
sbx_error_name(unsigned code)
{
	if (code > 0 && code < SBX_ERR_MAX_)
		return error_names[code];
	return "unknown";
}

int
sbx_name_valid(const uint8_t *s, size_t n)
{
	/* not '-' first either: the first file's name is the interpreter's
	 * next word (python3 -E -s NAME), where "-c" or "-" would be an
	 * option or stdin, not the file */
	return proto_name_valid(s, n, SBX_NAME_MAX) && s[0] != '-';
}

/* --- helpers --------------------------------------------------------------- */

static int
take_magic(struct rd *r)
{
	const uint8_t *m;

	return rd_bytes(r, SBX_MAGIC_LEN, &m) == 0 &&
	    memcmp(m, SBX_MAGIC, SBX_MAGIC_LEN) == 0 ? 0 : -1;
}

/* A str16 that passes valid() into dst (cap bytes with the NUL). */
static enum sbx_status
take_name(struct rd *r, char *dst, size_t cap,
    int (*valid)(const uint8_t *, size_t), enum sbx_status bad)
{
	const uint8_t *s;
	size_t n;

	if (rd_str16(r, &s, &n) != 0)
		return SBX_TRUNCATED;
	if (!valid(s, n) || n >= cap)
		return bad;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return SBX_OK;
}

static void
put_name(struct wr *w, const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1);

	if (n > max) {
		w->bad = 1;
		return;
	}
	wr_str16(w, s, n);
}

static void
put_limits(struct wr *w, const struct sbx_limits *l)
{
	wr_u64(w, l->timeout_ms);
	wr_u64(w, l->cpu_ms);
	wr_u64(w, l->memory);
	wr_u64(w, l->output);
	wr_u32(w, l->pids);
}

static int
take_limits(struct rd *r, struct sbx_limits *l)
{
	return rd_u64(r, &l->timeout_ms) || rd_u64(r, &l->cpu_ms) ||
	    rd_u64(r, &l->memory) || rd_u64(r, &l->output) ||
	    rd_u32(r, &l->pids) ? -1 : 0;
}

#define TRY(expr) do { enum sbx_status st_ = (expr); \
	if (st_ != SBX_OK) return st_; } while (0)

/* --- request ------------------------------------------------------------- */

uint64_t
sbx_request_body_len(const struct sbx_request *r)
{
	uint64_t n = r->input_size;

	for (size_t i = 0; i < r->nfiles && i < SBX_FILES_MAX; i++)
		n += r->files[i].size;
	return n;
}

enum sbx_status
sbx_request_add_arg(struct sbx_request *r, const void *s, size_t n)
{
	if (r->nargs >= SBX_ARGS_MAX || n > SBX_ARG_MAX ||
	    n >= sizeof r->args - r->args_len ||
	    r->args_len - r->nargs + n > SBX_ARGS_TOTAL_MAX ||
	    memchr(s, '\0', n))
		return SBX_BAD_ARGS;
	memcpy(r->args + r->args_len, s, n);
	r->args[r->args_len + n] = '\0';
	r->args_len += (uint16_t)(n + 1);
	r->nargs++;
	return SBX_OK;
}

size_t
sbx_request_argv(struct sbx_request *r, char **argv)
{
	size_t off = 0, i;

	for (i = 0; i < r->nargs && i < SBX_ARGS_MAX; i++) {
		argv[i] = r->args + off;
		off += strnlen(r->args + off, sizeof r->args - off) + 1;
	}
	argv[i] = NULL;
	return i;
}

enum sbx_status
sbx_args_check(char *const *argv)
{
	size_t total = 0, i;

	for (i = 0; argv && argv[i]; i++) {
		size_t n = strnlen(argv[i], SBX_ARG_MAX + 1);

		if (i == SBX_ARGS_MAX || n > SBX_ARG_MAX ||
		    (total += n) > SBX_ARGS_TOTAL_MAX)
			return SBX_BAD_ARGS;
	}
	return SBX_OK;
}

/* The checks the parser makes after the fields, shared with the encoder. */
static enum sbx_status
request_check(const struct sbx_request *r)
{
	uint64_t total = 0;

	if (!sbx_lang_name(r->lang))
		return SBX_BAD_LANG;
	if (r->nfiles == 0 || r->nfiles > SBX_FILES_MAX)
		return SBX_BAD_FILES;
	for (size_t i = 0; i < r->nfiles; i++) {
		if (r->files[i].size > SBX_FILE_MAX)
			return SBX_BAD_SIZE;
		total += r->files[i].size;
		for (size_t j = 0; j < i; j++)
			if (strcmp(r->files[i].name, r->files[j].name) == 0)
				return SBX_BAD_FILES;
	}
	if (total > SBX_FILES_TOTAL_MAX || r->input_size > SBX_INPUT_MAX)
		return SBX_BAD_SIZE;
	return SBX_OK;
}

long
sbx_request_encode(uint8_t *out, size_t cap, const struct sbx_request *r)
{
	struct wr w = wr_init(out, cap);

	if (!proto_id_valid((const uint8_t *)r->tenant,
	    strnlen(r->tenant, PROTO_ID_MAX + 1)) ||
	    !proto_id_valid((const uint8_t *)r->request_id,
	    strnlen(r->request_id, PROTO_ID_MAX + 1)) ||
	    request_check(r) != SBX_OK)
		return -1;
	for (size_t i = 0; i < r->nfiles; i++)
		if (!sbx_name_valid((const uint8_t *)r->files[i].name,
		    strnlen(r->files[i].name, SBX_NAME_MAX + 1)))
			return -1;
	if (r->nargs > SBX_ARGS_MAX || r->args_len > sizeof r->args)
		return -1;
	wr_bytes(&w, r->nargs ? SBX_MAGIC_ARGS : SBX_MAGIC, SBX_MAGIC_LEN);
	put_name(&w, r->tenant, PROTO_ID_MAX);
	put_name(&w, r->request_id, PROTO_ID_MAX);
	wr_u8(&w, r->lang);
	put_limits(&w, &r->lim);
	wr_u16(&w, r->nfiles);
	for (size_t i = 0; i < r->nfiles; i++) {
		put_name(&w, r->files[i].name, SBX_NAME_MAX);
		wr_u32(&w, r->files[i].size);
	}
	wr_u32(&w, r->input_size);
	if (r->nargs) {
		size_t off = 0;

		wr_u16(&w, r->nargs);
		/* the words as sbx_request_add_arg packed them, each within
		 * args_len (the caps were checked when they were added) */
		for (size_t i = 0; i < r->nargs; i++) {
			size_t n = off < r->args_len ? strnlen(r->args + off,
			    r->args_len - off) : 0;

			if (off >= r->args_len || n == r->args_len - off) {
				w.bad = 1;
				break;
			}
			wr_str16(&w, r->args + off, n);
			off += n + 1;
		}
	}
	return w.bad ? -1 : (long)w.off;
}

/* SBX2's tail: 1..SBX_ARGS_MAX words, str16 each, within the caps. */
static enum sbx_status
take_args(struct rd *rd, struct sbx_request *r)
{
	uint16_t n;
	const uint8_t *s;
	size_t len;

	if (rd_u16(rd, &n) != 0)
		return SBX_TRUNCATED;
	if (n == 0 || n > SBX_ARGS_MAX)
		return SBX_BAD_ARGS;
	for (size_t i = 0; i < n; i++) {
		if (rd_str16(rd, &s, &len) != 0)
			return SBX_TRUNCATED;
		TRY(sbx_request_add_arg(r, s, len));
	}
	return SBX_OK;
}

enum sbx_status
sbx_request_parse(struct sbx_request *r, const uint8_t *p, size_t n)
{
	struct rd rd = rd_init(p, n);

	const uint8_t *m;
	int with_args;

	memset(r, 0, sizeof *r);
	if (rd_bytes(&rd, SBX_MAGIC_LEN, &m) != 0)
		return SBX_BAD_MAGIC;
	if (memcmp(m, SBX_MAGIC_ARGS, SBX_MAGIC_LEN) == 0)
		with_args = 1;
	else if (memcmp(m, SBX_MAGIC, SBX_MAGIC_LEN) == 0)
		with_args = 0;
	else
		return SBX_BAD_MAGIC;
	TRY(take_name(&rd, r->tenant, sizeof r->tenant, proto_id_valid,
	    SBX_BAD_ID));
	TRY(take_name(&rd, r->request_id, sizeof r->request_id,
	    proto_id_valid, SBX_BAD_ID));
	if (rd_u8(&rd, &r->lang) != 0 || take_limits(&rd, &r->lim) != 0 ||
	    rd_u16(&rd, &r->nfiles) != 0)
		return SBX_TRUNCATED;
	if (!sbx_lang_name(r->lang))
		return SBX_BAD_LANG;
	if (r->nfiles == 0 || r->nfiles > SBX_FILES_MAX)
		return SBX_BAD_FILES;
	for (size_t i = 0; i < r->nfiles; i++) {
		TRY(take_name(&rd, r->files[i].name, sizeof r->files[i].name,
		    sbx_name_valid, SBX_BAD_FILES));
		if (rd_u32(&rd, &r->files[i].size) != 0)
			return SBX_TRUNCATED;
	}
	if (rd_u32(&rd, &r->input_size) != 0)
		return SBX_TRUNCATED;
	TRY(request_check(r));
	if (with_args)
		TRY(take_args(&rd, r));
	return rd_done(&rd) ? SBX_OK : SBX_TRAILING;
}

/* --- started ------------------------------------------------------------- */

long
sbx_started_encode(uint8_t *out, size_t cap, const struct sbx_started *s)
{
	struct wr w = wr_init(out, cap);

	if (!proto_id_valid((const uint8_t *)s->exec_id,
	    strnlen(s->exec_id, PROTO_ID_MAX + 1)) ||
	    !proto_id_valid((const uint8_t *)s->jail,
	    strnlen(s->jail, PROTO_ID_MAX + 1)))
		return -1;
	wr_bytes(&w, SBX_MAGIC, SBX_MAGIC_LEN);
	put_name(&w, s->exec_id, PROTO_ID_MAX);
	put_name(&w, s->jail, PROTO_ID_MAX);
	put_limits(&w, &s->lim);
	return w.bad ? -1 : (long)w.off;
}

enum sbx_status
sbx_started_parse(struct sbx_started *s, const uint8_t *p, size_t n)
{
	struct rd r = rd_init(p, n);

	memset(s, 0, sizeof *s);
	if (take_magic(&r) != 0)
		return SBX_BAD_MAGIC;
	TRY(take_name(&r, s->exec_id, sizeof s->exec_id, proto_id_valid,
	    SBX_BAD_ID));
	TRY(take_name(&r, s->jail, sizeof s->jail, proto_id_valid,
	    SBX_BAD_ID));
	if (take_limits(&r, &s->lim) != 0)
		return SBX_TRUNCATED;
	return rd_done(&r) ? SBX_OK : SBX_TRAILING;
}

/* --- result -------------------------------------------------------------- */

static int
detail_byte_ok(uint8_t c)
{
	return c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f);
}

void
sbx_detail_set(char *dst, size_t cap, const uint8_t *s, size_t n)
{
	size_t skip, i;

	if (cap == 0)
		return;
	skip = n > cap - 1 ? n - (cap - 1) : 0;
	for (i = 0; i + skip < n; i++)
		dst[i] = detail_byte_ok(s[i + skip]) ? (char)s[i + skip] : '?';
	dst[i] = '\0';
}

long
sbx_result_encode(uint8_t *out, size_t cap, const struct sbx_result *r)
{
	struct wr w = wr_init(out, cap);
	size_t n = strnlen(r->detail, SBX_DETAIL_MAX + 1);

	if (r->reason >= SBX_REASON_MAX_ || r->kind > SBX_KIND_NONE ||
	    (r->flags & ~SBX_F_ALL_) || n > SBX_DETAIL_MAX)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!detail_byte_ok((uint8_t)r->detail[i]))
			return -1;
	wr_bytes(&w, SBX_MAGIC, SBX_MAGIC_LEN);
	wr_u8(&w, r->reason);
	wr_u8(&w, r->kind);
	wr_u8(&w, r->status);
	wr_u8(&w, r->flags);
	wr_u64(&w, r->wall_ms);
	wr_u64(&w, r->cpu_ms);
	wr_u64(&w, r->peak_memory);
	wr_u64(&w, r->stdout_bytes);
	wr_u64(&w, r->stderr_bytes);
	wr_str16(&w, r->detail, n);
	return w.bad ? -1 : (long)w.off;
}

enum sbx_status
sbx_result_parse(struct sbx_result *r, const uint8_t *p, size_t n)
{
	struct rd rd = rd_init(p, n);
	const uint8_t *s;
	size_t len;

	memset(r, 0, sizeof *r);
	if (take_magic(&rd) != 0)
		return SBX_BAD_MAGIC;
	if (rd_u8(&rd, &r->reason) || rd_u8(&rd, &r->kind) ||
	    rd_u8(&rd, &r->status) || rd_u8(&rd, &r->flags) ||
	    rd_u64(&rd, &r->wall_ms) || rd_u64(&rd, &r->cpu_ms) ||
	    rd_u64(&rd, &r->peak_memory) || rd_u64(&rd, &r->stdout_bytes) ||
	    rd_u64(&rd, &r->stderr_bytes) || rd_str16(&rd, &s, &len))
		return SBX_TRUNCATED;
	if (r->reason >= SBX_REASON_MAX_ || r->kind > SBX_KIND_NONE ||
	    (r->flags & ~SBX_F_ALL_) || len > SBX_DETAIL_MAX)
		return SBX_BAD_FIELD;
	for (size_t i = 0; i < len; i++)
		if (!detail_byte_ok(s[i]))
			return SBX_BAD_FIELD;
	memcpy(r->detail, s, len);
	r->detail[len] = '\0';
	return rd_done(&rd) ? SBX_OK : SBX_TRAILING;
}

/* --- JSON ---------------------------------------------------------------- */

struct jout {
	char *p;
	size_t cap, len;
	int bad;
};

static void
jput(struct jout *j, const char *s, size_t n)
{
	if (j->bad || n >= j->cap - j->len) {
		j->bad = 1;
		return;
	}
	memcpy(j->p + j->len, s, n);
	j->len += n;
	j->p[j->len] = '\0';
}

static void
jputs(struct jout *j, const char *s)
{
	jput(j, s, strlen(s));
}

static void
jnum(struct jout *j, const char *key, uint64_t v)
{
	char b[64];
	int n = snprintf(b, sizeof b, ",\"%s\":%llu", key,
	    (unsigned long long)v);

	jput(j, b, (size_t)n);
}

/* A string that does not fit in full makes the whole object fail. */
static void
jstr(struct jout *j, const char *s)
{
	size_t n = strlen(s);

	jputs(j, "\"");
	if (!j->bad && json_append(j->p, j->cap - 1, &j->len, s, n) != n)
		j->bad = 1;
	jputs(j, "\"");
}

long
sbx_result_json(char *out, size_t cap, const struct sbx_result *r,
    unsigned lang, const struct sbx_limits *lim)
{
	struct jout j = { out, cap, 0, cap == 0 };

	if (cap)
		out[0] = '\0';
	jputs(&j, "{\"reason\":");
	jstr(&j, sbx_reason_name(r->reason));
	if (r->kind == SBX_KIND_CODE)
		jnum(&j, "exit_code", r->status);
	else if (r->kind == SBX_KIND_SIGNAL)
		jnum(&j, "signal", r->status);
	jnum(&j, "wall_ms", r->wall_ms);
	jnum(&j, "cpu_ms", r->cpu_ms);
	jputs(&j, ",\"cpu_source\":");
	jstr(&j, r->flags & SBX_F_CPU_CGROUP ? "cgroup" : "rusage");
	jnum(&j, "peak_memory", r->peak_memory);
	jputs(&j, ",\"memory_source\":");
	jstr(&j, r->flags & SBX_F_MEMORY_CGROUP ? "cgroup" : "rusage");
	jputs(&j, r->flags & SBX_F_PEAK_UPPER_BOUND ?
	    ",\"peak_memory_upper_bound\":true" :
	    ",\"peak_memory_upper_bound\":false");
	jnum(&j, "stdout_bytes", r->stdout_bytes);
	jnum(&j, "stderr_bytes", r->stderr_bytes);
	jputs(&j, r->flags & SBX_F_STDOUT_TRUNCATED ?
	    ",\"stdout_truncated\":true" : ",\"stdout_truncated\":false");
	jputs(&j, r->flags & SBX_F_STDERR_TRUNCATED ?
	    ",\"stderr_truncated\":true" : ",\"stderr_truncated\":false");
	jputs(&j, ",\"detail\":");
	jstr(&j, r->detail);
	if (lim) {
		jputs(&j, ",\"language\":");
		jstr(&j, sbx_lang_name(lang) ? sbx_lang_name(lang) : "unknown");
		jputs(&j, ",\"limits\":{\"pids\":");
		{
			char b[32];
			int n = snprintf(b, sizeof b, "%u", lim->pids);

			jput(&j, b, (size_t)n);
		}
		jnum(&j, "timeout_ms", lim->timeout_ms);
		jnum(&j, "cpu_ms", lim->cpu_ms);
		jnum(&j, "memory", lim->memory);
		jnum(&j, "output", lim->output);
		jputs(&j, ",\"pids_source\":");
		jstr(&j, r->flags & SBX_F_PIDS_CGROUP ? "cgroup" : "rlimit");
		jputs(&j, "}");
	}
	jputs(&j, "}");
	return j.bad ? -1 : (long)j.len;
}
