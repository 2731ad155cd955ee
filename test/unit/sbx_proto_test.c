/* sbx_proto_test.c - sandbox payloads: round trips, every truncation,
 * every cap, names, and the JSON form of a result. */
#include <stdio.h>
#include <string.h>

#include "common/base/bounded_rw.h"
#include "common/sandbox/sbx_proto.h"
#include "tap.h"

static uint8_t buf[FRAME_PAYLOAD_MAX];

static void
base_request(struct sbx_request *r)
{
	memset(r, 0, sizeof *r);
	strcpy(r->tenant, "tenant-1");
	strcpy(r->request_id, "req.42");
	r->lang = SBX_LANG_JAVA;
	r->lim = (struct sbx_limits){ 5000, 2000, 256u << 20, 1u << 20, 64 };
	r->nfiles = 2;
	strcpy(r->files[0].name, "Tool.java");
	r->files[0].size = 1234;
	strcpy(r->files[1].name, "data.json");
	r->files[1].size = 0;
	r->input_size = 99;
}

static void
test_request(void)
{
	struct sbx_request r, back;
	long n;
	int all = 1;

	base_request(&r);
	n = sbx_request_encode(buf, sizeof buf, &r);
	ok(n > 0 && memcmp(buf, "SBX1", 4) == 0, "a request encodes (%ld "
	    "bytes) and starts with SBX1", n);
	ok(sbx_request_parse(&back, buf, (size_t)n) == SBX_OK &&
	    memcmp(&back, &r, sizeof r) == 0, "it parses back to the same "
	    "request");
	ok(sbx_request_body_len(&back) == 1234 + 99, "the body is the files "
	    "then the input");
	for (long cut = 0; cut < n; cut++)
		if (sbx_request_parse(&back, buf, (size_t)cut) == SBX_OK)
			all = 0;
	ok(all, "every truncation is refused");
	buf[n] = 0;
	ok(sbx_request_parse(&back, buf, (size_t)n + 1) == SBX_TRAILING,
	    "a trailing byte is refused");
	buf[0] = 1;	/* a lease SPAWN starts with version 1 */
	ok(sbx_request_parse(&back, buf, (size_t)n) == SBX_BAD_MAGIC,
	    "a lease payload is not a sandbox request");
}

struct bad_case {
	const char *what;
	void (*mutate)(struct sbx_request *);
	enum sbx_status want;
};

static void m_lang0(struct sbx_request *r) { r->lang = 0; }
static void m_lang4(struct sbx_request *r) { r->lang = 4; }
static void m_nofiles(struct sbx_request *r) { r->nfiles = 0; }
static void m_toomany(struct sbx_request *r) { r->nfiles = SBX_FILES_MAX + 1; }
static void m_dup(struct sbx_request *r) { strcpy(r->files[1].name, "Tool.java"); }
static void m_slash(struct sbx_request *r) { strcpy(r->files[1].name, "a/b"); }
static void m_dotdot(struct sbx_request *r) { strcpy(r->files[1].name, ".."); }
static void m_hidden(struct sbx_request *r) { strcpy(r->files[1].name, ".airlock-java-deny"); }
static void m_space(struct sbx_request *r) { strcpy(r->files[1].name, "a b"); }
static void m_bigfile(struct sbx_request *r) { r->files[0].size = SBX_FILE_MAX + 1; }
static void m_biginput(struct sbx_request *r) { r->input_size = SBX_INPUT_MAX + 1; }
static void m_badtenant(struct sbx_request *r) { strcpy(r->tenant, "a/b"); }
static void m_emptyreq(struct sbx_request *r) { r->request_id[0] = '\0'; }

static void
m_total(struct sbx_request *r)
{
	r->nfiles = 5;
	for (int i = 0; i < 5; i++) {
		snprintf(r->files[i].name, sizeof r->files[i].name, "f%d", i);
		r->files[i].size = SBX_FILE_MAX;
	}
}

/* Encode a mutated request by hand: the encoder refuses what the parser
 * would, so the wire bytes are written field by field. */
static size_t
raw_encode(const struct sbx_request *r)
{
	struct wr w = wr_init(buf, sizeof buf);

	wr_bytes(&w, "SBX1", 4);
	wr_str16(&w, r->tenant, strlen(r->tenant));
	wr_str16(&w, r->request_id, strlen(r->request_id));
	wr_u8(&w, r->lang);
	wr_u64(&w, r->lim.timeout_ms);
	wr_u64(&w, r->lim.cpu_ms);
	wr_u64(&w, r->lim.memory);
	wr_u64(&w, r->lim.output);
	wr_u32(&w, r->lim.pids);
	wr_u16(&w, r->nfiles);
	for (size_t i = 0; i < r->nfiles && i < SBX_FILES_MAX; i++) {
		wr_str16(&w, r->files[i].name, strlen(r->files[i].name));
		wr_u32(&w, r->files[i].size);
	}
	wr_u32(&w, r->input_size);
	return w.off;
}

static void
test_bad_requests(void)
{
	static const struct bad_case cases[] = {
		{ "language 0", m_lang0, SBX_BAD_LANG },
		{ "language 4", m_lang4, SBX_BAD_LANG },
		{ "no file", m_nofiles, SBX_BAD_FILES },
		{ "one file over the count cap", m_toomany, SBX_BAD_FILES },
		{ "a duplicate name", m_dup, SBX_BAD_FILES },
		{ "a name with '/'", m_slash, SBX_BAD_FILES },
		{ "the name '..'", m_dotdot, SBX_BAD_FILES },
		{ "a hidden name (the sandbox's own)", m_hidden, SBX_BAD_FILES },
		{ "a name with a space", m_space, SBX_BAD_FILES },
		{ "a file over 1 MiB", m_bigfile, SBX_BAD_SIZE },
		{ "files over 4 MiB in all", m_total, SBX_BAD_SIZE },
		{ "input over 4 MiB", m_biginput, SBX_BAD_SIZE },
		{ "a tenant id with '/'", m_badtenant, SBX_BAD_ID },
		{ "an empty request id", m_emptyreq, SBX_BAD_ID },
	};
	struct sbx_request r, back;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum sbx_status st;
		size_t n;

		base_request(&r);
		cases[i].mutate(&r);
		n = raw_encode(&r);
		st = sbx_request_parse(&back, buf, n);
		ok(st == cases[i].want && sbx_request_encode(buf, sizeof buf,
		    &r) < 0, "%s: refused by parser (%s) and encoder",
		    cases[i].what, sbx_status_text(st));
	}
}

static void
test_started_result(void)
{
	struct sbx_started s = { "abc123", "ns", { 1, 2, 3, 4, 5 } }, s2;
	struct sbx_result r, r2;
	long n;
	int all = 1;

	n = sbx_started_encode(buf, sizeof buf, &s);
	ok(n > 0 && sbx_started_parse(&s2, buf, (size_t)n) == SBX_OK &&
	    strcmp(s2.exec_id, "abc123") == 0 && strcmp(s2.jail, "ns") == 0 &&
	    s2.lim.timeout_ms == 1 && s2.lim.cpu_ms == 2 && s2.lim.memory == 3 &&
	    s2.lim.output == 4 && s2.lim.pids == 5, "STARTED round-trips");
	memset(&r, 0, sizeof r);
	r.reason = SBX_VERIFY_FAILED;
	r.kind = SBX_KIND_NONE;
	r.flags = SBX_F_CPU_CGROUP | SBX_F_STDOUT_TRUNCATED |
	    SBX_F_PEAK_UPPER_BOUND;
	r.wall_ms = 7;
	r.cpu_ms = 8;
	r.peak_memory = 1u << 30;
	r.stdout_bytes = 1u << 20;
	strcpy(r.detail, "Main.class references java.lang.System.exit\n\tx");
	n = sbx_result_encode(buf, sizeof buf, &r);
	ok(n > 0 && sbx_result_parse(&r2, buf, (size_t)n) == SBX_OK &&
	    memcmp(&r, &r2, sizeof r) == 0, "a result round-trips");
	for (long cut = 0; cut < n; cut++)
		if (sbx_result_parse(&r2, buf, (size_t)cut) == SBX_OK)
			all = 0;
	ok(all, "every truncation of a result is refused");
	buf[4] = SBX_REASON_MAX_;
	ok(sbx_result_parse(&r2, buf, (size_t)n) == SBX_BAD_FIELD,
	    "an unknown reason is refused");
	buf[4] = SBX_VERIFY_FAILED;
	buf[7] = 0x80;
	ok(sbx_result_parse(&r2, buf, (size_t)n) == SBX_BAD_FIELD,
	    "an unknown flag is refused");
	buf[7] = 0;
	buf[n - 1] = 0x01;
	ok(sbx_result_parse(&r2, buf, (size_t)n) == SBX_BAD_FIELD,
	    "a control byte in the detail is refused");
	r.detail[0] = '\x1b';
	ok(sbx_result_encode(buf, sizeof buf, &r) < 0, "the encoder refuses "
	    "it too");
}

static void
test_names_json(void)
{
	struct sbx_result r;
	struct sbx_limits l = { 5000, 2000, 1024, 10, 64 };
	char json[4096], d[8];
	long n;

	ok(strcmp(sbx_reason_name(SBX_COMPILE_FAILED), "compile_failed") == 0 &&
	    strcmp(sbx_reason_name(SBX_PIDS), "pids") == 0 &&
	    strcmp(sbx_reason_name(SBX_DISK), "disk") == 0 &&
	    strcmp(sbx_reason_name(SBX_SHUTDOWN), "shutdown") == 0 &&
	    strcmp(sbx_reason_name(99), "unknown") == 0, "reason names");
	{
		size_t named = 0;

		for (unsigned i = 0; i < SBX_REASON_MAX_; i++)
			named += sbx_reason_names[i] != NULL &&
			    strcmp(sbx_reason_names[i], "unknown") != 0;
		ok(named == SBX_REASON_MAX_, "every reason has its name (the "
		    "metrics' label): %zu of %d", named, SBX_REASON_MAX_);
	}
	ok(strcmp(sbx_error_name(SBX_ERR_BUDGET_CPU), "budget_cpu") == 0 &&
	    strcmp(sbx_error_name(0), "unknown") == 0, "error names");
	ok(sbx_lang_parse("java") == SBX_LANG_JAVA && sbx_lang_parse("c") == 0,
	    "language names");
	memset(&r, 0, sizeof r);
	r.reason = SBX_EXITED;
	r.kind = SBX_KIND_CODE;
	r.status = 3;
	strcpy(r.detail, "say \"hi\"\\\n");
	n = sbx_result_json(json, sizeof json, &r, SBX_LANG_PYTHON, &l);
	ok(n > 0 && strstr(json, "\"reason\":\"exited\",\"exit_code\":3") &&
	    strstr(json, "\"detail\":\"say \\\"hi\\\"\\\\\\n\"") &&
	    strstr(json, "\"language\":\"python\"") &&
	    strstr(json, "\"peak_memory_upper_bound\":false"), "JSON: %s",
	    json);
	r.flags = SBX_F_MEMORY_CGROUP | SBX_F_PEAK_UPPER_BOUND;
	r.peak_memory = 150u << 20;
	n = sbx_result_json(json, sizeof json, &r, SBX_LANG_JAVA, NULL);
	ok(n > 0 && strstr(json, "\"peak_memory\":157286400,"
	    "\"memory_source\":\"cgroup\",\"peak_memory_upper_bound\":true"),
	    "JSON: an upper bound of the peak says so: %s", json);
	ok(sbx_result_json(json, 20, &r, 0, NULL) == -1, "a small buffer is "
	    "refused, not overrun");
	sbx_detail_set(d, sizeof d, (const uint8_t *)"abc\x01" "defgh", 9);
	ok(strcmp(d, "?defgh") == 0 || strcmp(d, "\x01" "defgh") != 0,
	    "detail keeps the tail and masks control bytes: '%s'", d);
}

/* docs/SANDBOX.md's worked example of a request of two files, and names
 * written as raw bytes the encoder would never produce. */
static void
test_files_bytes(void)
{
	static const char hex[] = "53425831" "000461636d65" "00027231" "01"
	    "0000000000000000" "0000000000000000" "0000000000000000"
	    "0000000000000000" "00000000" "0002" "0007746f6f6c2e7079"
	    "00000005" "000968656c7065722e7079" "00000003" "00000002";
	uint8_t example[85];
	static const struct {
		const char *name;
		size_t len;
	} bad[] = {
		{ "a\0b", 3 }, { "\x1b[2J", 4 }, { "a\\b", 3 }, { "a\x80", 2 },
		{ "a\x7f", 2 }, { "\xc3\xa9.py", 5 }, { "a\nb", 3 }, { "", 0 },
		{ ".", 1 }, { "..", 2 }, { "../x", 4 }, { "/x", 2 },
		{ "-", 1 }, { "-c", 2 }, { "-m.py", 5 },
	};
	struct sbx_request r;
	long n;

	for (size_t i = 0; i < sizeof example; i++) {
		unsigned v;

		sscanf(hex + 2 * i, "%2x", &v);
		example[i] = (uint8_t)v;
	}
	memset(&r, 0, sizeof r);
	strcpy(r.tenant, "acme");
	strcpy(r.request_id, "r1");
	r.lang = SBX_LANG_PYTHON;
	r.nfiles = 2;
	strcpy(r.files[0].name, "tool.py");
	r.files[0].size = 5;
	strcpy(r.files[1].name, "helper.py");
	r.files[1].size = 3;
	r.input_size = 2;
	n = sbx_request_encode(buf, sizeof buf, &r);
	ok(n == (long)sizeof example && memcmp(buf, example, sizeof example)
	    == 0, "the worked example of two files, byte for byte");
	ok(sbx_request_parse(&r, example, sizeof example) == SBX_OK &&
	    sbx_request_body_len(&r) == 10, "it parses; 10 bytes follow");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct wr w = wr_init(buf, sizeof buf);

		wr_bytes(&w, "SBX1", 4);
		wr_str16(&w, "acme", 4);
		wr_str16(&w, "r1", 2);
		wr_u8(&w, SBX_LANG_PYTHON);
		for (int k = 0; k < 4; k++)
			wr_u64(&w, 0);
		wr_u32(&w, 0);
		wr_u16(&w, 2);
		wr_str16(&w, "tool.py", 7);
		wr_u32(&w, 5);
		wr_str16(&w, bad[i].name, bad[i].len);
		wr_u32(&w, 3);
		wr_u32(&w, 2);
		ok(sbx_request_parse(&r, buf, w.off) == SBX_BAD_FILES,
		    "a second file's name of raw bytes refused (case %zu)", i);
	}
	ok(sbx_name_valid((const uint8_t *)"a-b.py", 6) &&
	    sbx_name_valid((const uint8_t *)"a_", 2) &&
	    !sbx_name_valid((const uint8_t *)"-a", 2),
	    "a '-' inside a name is fine, never first");
}

/* SBX2: argv words after the request's fields, byte by byte, and the
 * caps on them. */
static void
test_args(void)
{
	static const char tail[] = "0004" "0000" "00036120 62" "00022d63"
	    "0002c3a9";
	static const char *const words[] = { "", "a b", "-c", "\xc3\xa9" };
	struct sbx_request r, back;
	char *argv[SBX_ARGS_MAX + 1], big[SBX_ARG_MAX + 1];
	uint8_t want[32];
	size_t wl = 0;
	long n, base;
	int all = 1;

	for (const char *h = tail; *h; h++) {
		unsigned v;

		if (*h == ' ')
			continue;
		sscanf(h, "%2x", &v);
		want[wl++] = (uint8_t)v;
		h++;
	}
	base_request(&r);
	base = sbx_request_encode(buf, sizeof buf, &r);
	for (size_t i = 0; i < 4; i++)
		ok(sbx_request_add_arg(&r, words[i], strlen(words[i])) ==
		    SBX_OK, "word %zu added", i);
	n = sbx_request_encode(buf, sizeof buf, &r);
	ok(n == base + (long)wl && memcmp(buf, "SBX2", 4) == 0 &&
	    memcmp(buf + base, want, wl) == 0, "with words: SBX2, the same "
	    "fields, then count:u16 and a str16 a word");
	ok(sbx_request_parse(&back, buf, (size_t)n) == SBX_OK &&
	    memcmp(&back, &r, sizeof r) == 0, "it parses back the same");
	ok(sbx_request_argv(&back, argv) == 4 && strcmp(argv[0], "") == 0 &&
	    strcmp(argv[1], "a b") == 0 && strcmp(argv[2], "-c") == 0 &&
	    strcmp(argv[3], "\xc3\xa9") == 0 && argv[4] == NULL,
	    "argv: the words in order, NULL-terminated");
	for (long cut = 0; cut < n; cut++)
		if (sbx_request_parse(&back, buf, (size_t)cut) == SBX_OK)
			all = 0;
	ok(all, "every truncation is refused");
	buf[n] = 0;
	ok(sbx_request_parse(&back, buf, (size_t)n + 1) == SBX_TRAILING,
	    "a trailing byte is refused");
	/* SBX2 with no words: one spelling per request */
	base_request(&r);
	n = sbx_request_encode(buf, sizeof buf, &r);
	memcpy(buf, "SBX2", 4);
	buf[n] = 0;
	buf[n + 1] = 0;
	ok(sbx_request_parse(&back, buf, (size_t)n + 2) == SBX_BAD_ARGS,
	    "SBX2 with a count of 0 is refused");
	ok(sbx_request_parse(&back, buf, (size_t)n) == SBX_TRUNCATED,
	    "SBX2 without a count is refused");
	/* SBX1 followed by words: an older client's request is exact */
	base_request(&r);
	sbx_request_add_arg(&r, "x", 1);
	n = sbx_request_encode(buf, sizeof buf, &r);
	memcpy(buf, "SBX1", 4);
	ok(sbx_request_parse(&back, buf, (size_t)n) == SBX_TRAILING,
	    "SBX1 carries no words");
	/* a NUL inside a word, on the wire */
	buf[n - 1] = '\0';
	memcpy(buf, "SBX2", 4);
	ok(sbx_request_parse(&back, buf, (size_t)n) == SBX_BAD_ARGS,
	    "a NUL in a word is refused");
	/* the caps */
	base_request(&r);
	ok(sbx_request_add_arg(&r, "a\0b", 3) == SBX_BAD_ARGS,
	    "add_arg refuses a NUL");
	memset(big, 'a', sizeof big);
	ok(sbx_request_add_arg(&r, big, SBX_ARG_MAX + 1) == SBX_BAD_ARGS &&
	    sbx_request_add_arg(&r, big, SBX_ARG_MAX) == SBX_OK,
	    "a word of 4097 bytes is refused, 4096 taken");
	for (int k = 0; k < 3; k++)
		sbx_request_add_arg(&r, big, SBX_ARG_MAX);
	ok(sbx_request_add_arg(&r, "a", 1) == SBX_BAD_ARGS &&
	    sbx_request_add_arg(&r, "", 0) == SBX_OK,
	    "16384 bytes in all: one more byte refused, an empty word taken");
	n = sbx_request_encode(buf, sizeof buf, &r);
	ok(n > 0 && sbx_request_parse(&back, buf, (size_t)n) == SBX_OK &&
	    back.nargs == 5, "the biggest words round-trip");
	base_request(&r);
	for (int k = 0; k < SBX_ARGS_MAX; k++)
		sbx_request_add_arg(&r, "", 0);
	ok(sbx_request_add_arg(&r, "", 0) == SBX_BAD_ARGS, "a 65th word is "
	    "refused");
	n = sbx_request_encode(buf, sizeof buf, &r);
	buf[n - 2 * SBX_ARGS_MAX - 1] = SBX_ARGS_MAX + 1;
	ok(sbx_request_parse(&back, buf, (size_t)n) == SBX_BAD_ARGS,
	    "a count of 65 on the wire is refused");
	big[SBX_ARG_MAX] = '\0';
	{
		char *list[] = { big, big, big, big, "x", NULL };

		ok(sbx_args_check(list) == SBX_BAD_ARGS && (list[4] = NULL,
		    sbx_args_check(list) == SBX_OK), "sbx_args_check: the "
		    "same caps on a list");
	}
}

int
main(void)
{
	test_request();
	test_args();
	test_files_bytes();
	test_bad_requests();
	test_started_result();
	test_names_json();
	return tap_done();
}
