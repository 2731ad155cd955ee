/* piston_test.c - Piston's request shape into a sandbox request (every
 * field's rule, the limits' mapping for one stage and for Java's two,
 * the caps of the protocol), and the answers written back: valid JSON
 * (read again by the gateway's own reader), Piston's fields where a
 * client looks for them. */
#include <stdlib.h>
#include <string.h>

#include "common/gateway/piston.h"
#include "tap.h"

static const struct piston_runtime rts[] = {
	{ SBX_LANG_PYTHON, "3.11" }, { SBX_LANG_JAVA, "17" },
};
static struct json_node tok[PISTON_TOKENS_MAX];
static struct piston_req q;
static uint8_t store[8u << 20];
static char err[512];

static enum piston_err
parse(const char *body)
{
	return piston_parse_execute(&q, body, strlen(body), rts, 2, store, tok,
	    err, sizeof err);
}

struct case_ {
	const char *body;
	enum piston_err want;
};

/* A body with one file of n bytes of 'a' (escaped when esc). */
static char *
big_body(size_t n, int esc)
{
	char *b = malloc(n * 6 + 128);
	size_t k = (size_t)sprintf(b, "{\"language\":\"py\",\"files\":[{"
	    "\"content\":\"");

	for (size_t i = 0; i < n; i++)
		k += (size_t)sprintf(b + k, esc ? "\\u0061" : "a");
	sprintf(b + k, "\"}]}");
	return b;
}

/* A body with one file of n bytes of 0xff, base64 or hex. */
static enum piston_err
encoded_big(size_t n, int hex)
{
	char *b = malloc(n * 2 + 128);
	size_t k = (size_t)sprintf(b, "{\"language\":\"py\",\"files\":[{"
	    "\"encoding\":\"%s\",\"content\":\"", hex ? "hex" : "base64");
	enum piston_err e;

	for (size_t i = 0; i < n; i += hex ? 1 : 3)
		k += (size_t)sprintf(b + k, hex ? "ff" : n - i == 1 ? "/w==" :
		    n - i == 2 ? "//8=" : "////");
	sprintf(b + k, "\"}]}");
	e = parse(b);
	free(b);
	return e;
}

/* Is the text f wrote one JSON object? Its root's member key, if any. */
static long
written(char *text, size_t len, struct jsonr *j, const char *key)
{
	if (jsonr_parse(j, text, len, tok, PISTON_TOKENS_MAX) != JSONR_OK ||
	    tok[0].type != JSON_OBJECT)
		return -2;
	return key ? jsonr_member(j, 0, key) : 0;
}

int
main(void)
{
	static const struct case_ cases[] = {
		{ "{\"language\":\"python\",\"version\":\"3.11\",\"files\":"
		  "[{\"name\":\"m.py\",\"content\":\"print(1)\"}]}", PISTON_OK },
		{ "{\"language\":\"py\",\"version\":\"*\",\"files\":"
		  "[{\"content\":\"x\"}],\"args\":[],\"stdin\":\"\"}",
		  PISTON_OK },
		{ "{\"language\":\"python3\",\"files\":[{\"content\":\"x\","
		  "\"encoding\":\"utf8\"}],\"extra\":{\"ignored\":[1]}}",
		  PISTON_OK },
		{ "[]", PISTON_BAD_JSON },
		{ "{\"language\":\"python\",", PISTON_BAD_JSON },
		{ "{\"language\":\"python\",\"language\":\"java\",\"files\":[]}",
		  PISTON_BAD_JSON },
		{ "{\"files\":[{\"content\":\"x\"}]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"cobol\",\"files\":[{\"content\":\"x\"}]}",
		  PISTON_RUNTIME },
		{ "{\"language\":\"python\",\"version\":\"2.7\",\"files\":"
		  "[{\"content\":\"x\"}]}", PISTON_RUNTIME },
		{ "{\"language\":7,\"files\":[{\"content\":\"x\"}]}",
		  PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":{}}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[\"x\"]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"name\":\"a.py\"}]}",
		  PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":1}]}",
		  PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\","
		  "\"encoding\":\"base64\"}]}", PISTON_BAD_CONTENT },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"eA==\","
		  "\"encoding\":\"base64\"}]}", PISTON_OK },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"eA==\","
		  "\"encoding\":\"base64url\"}]}", PISTON_ENCODING },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"78\","
		  "\"encoding\":\"HEX\"}]}", PISTON_ENCODING },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"78\","
		  "\"encoding\":\"hex\\u0000\"}]}", PISTON_ENCODING },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"78\","
		  "\"encoding\":\"utf8utf8utf8utf8utf8\"}]}", PISTON_ENCODING },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"78\","
		  "\"encoding\":null}]}", PISTON_ENCODING },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"eA\","
		  "\"encoding\":\"base64\"}]}", PISTON_BAD_CONTENT },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"eB==\","
		  "\"encoding\":\"base64\"}]}", PISTON_BAD_CONTENT },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"-_8=\","
		  "\"encoding\":\"base64\"}]}", PISTON_BAD_CONTENT },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"eA==\\n\","
		  "\"encoding\":\"base64\"}]}", PISTON_BAD_CONTENT },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"787\","
		  "\"encoding\":\"hex\"}]}", PISTON_BAD_CONTENT },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"7g\","
		  "\"encoding\":\"hex\"}]}", PISTON_BAD_CONTENT },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"\\u00e9\","
		  "\"encoding\":\"hex\"}]}", PISTON_BAD_CONTENT },
		{ "{\"language\":\"java\",\"files\":[{\"content\":\"x\"}]}",
		  PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"name\":\"../x.py\","
		  "\"content\":\"\"}]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"name\":\"a/b.py\","
		  "\"content\":\"\"}]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"name\":\".x\","
		  "\"content\":\"\"}]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"name\":\"a\\u0000b\","
		  "\"content\":\"\"}]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"name\":\"a\\nb\","
		  "\"content\":\"\"}]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"name\":\"\","
		  "\"content\":\"\"}]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"name\":\"a.py\","
		  "\"content\":\"\"},{\"name\":\"a.py\",\"content\":\"\"}]}",
		  PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"args\":\"1\"}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"args\":[1]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"args\":[null]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"args\":[[\"a\"]]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"args\":[\"a\\u0000b\"]}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"run_timeout\":1.5}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"run_timeout\":-2}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"run_timeout\":\"3000\"}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"run_timeout\":86400001}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"tenant\":\"a b\"}", PISTON_BAD_TENANT },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"run_memory_limit\":16777215}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"run_memory_limit\":16777216}", PISTON_OK },
		{ "{\"language\":\"java\",\"files\":[{\"name\":\"M.java\","
		  "\"content\":\"x\"}],\"compile_memory_limit\":1,"
		  "\"run_memory_limit\":300000000}", PISTON_BAD_FIELD },
		{ "{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
		  "\"stdin\":5}", PISTON_BAD_FIELD },
	};
	struct jsonr j;
	char *b, *text;
	size_t len;
	FILE *f;
	long i;

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
		ok(parse(cases[k].body) == cases[k].want, "case %zu (%s)", k,
		    err);

	/* what a good request becomes */
	ok(parse("{\"language\":\"python\",\"version\":\"*\",\"files\":["
	    "{\"name\":\"main.py\",\"content\":\"import h\\nprint(h.x)\"},"
	    "{\"name\":\"h.py\",\"content\":\"x = \\\"\\u00e9\\\"\"}],"
	    "\"stdin\":\"in\\tput\",\"run_timeout\":3000,"
	    "\"compile_timeout\":10000,\"run_memory_limit\":-1,"
	    "\"run_cpu_time\":500,\"tenant\":\"acme\",\"request_id\":\"r1\"}")
	    == PISTON_OK, "a python request of two files");
	ok(q.lang == SBX_LANG_PYTHON && q.nfiles == 2 &&
	    strcmp(q.files[0].name, "main.py") == 0 && q.files[0].len == 19 &&
	    memcmp(q.files[0].data, "import h\nprint(h.x)", 19) == 0 &&
	    q.files[1].len == 8 && memcmp(q.files[1].data, "x = \"\xc3\xa9\"",
	    8) == 0, "the files, decoded, in order");
	ok(q.input_len == 6 && memcmp(q.input, "in\tput", 6) == 0,
	    "stdin, decoded");
	ok(q.lim.timeout_ms == 3000 && q.lim.cpu_ms == 500 &&
	    q.lim.memory == 0, "python: the run's limits; -1 is the default");
	ok(strcmp(q.tenant, "acme") == 0 && strcmp(q.request_id, "r1") == 0 &&
	    strcmp(q.rt->version, "3.11") == 0, "tenant, request id, runtime");
	ok(parse("{\"language\":\"py\",\"files\":[{\"content\":\"1\"},"
	    "{\"content\":\"2\"}]}") == PISTON_OK &&
	    strcmp(q.names[0], "file0.py") == 0 &&
	    strcmp(q.names[1], "file1.py") == 0,
	    "python files without a name get file0.py, file1.py");
	ok(parse("{\"language\":\"java\",\"files\":[{\"name\":\"Main.java\","
	    "\"content\":\"x\"}],\"run_timeout\":3000,"
	    "\"compile_memory_limit\":300000000,\"run_memory_limit\":"
	    "200000000}") == PISTON_OK && q.lim.timeout_ms == 13000 &&
	    q.lim.cpu_ms == 0 && q.lim.memory == 300000000,
	    "java: one clock for both stages (Piston's default compile "
	    "timeout added), the larger memory limit");
	ok(parse("{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
	    "\"run_memory_limit\":1}") == PISTON_BAD_FIELD && strcmp(err,
	    "run_memory_limit: at least 16777216 bytes (16M, the smallest "
	    "memory limit a tool runs under), or -1 for the service's "
	    "default") == 0, "a memory limit under the minimum is refused, "
	    "not raised, the minimum named: %s", err);

	/* args: each word exactly, in order, NUL-terminated */
	ok(parse("{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
	    "\"args\":[\"\",\"a b\",\"-c\",\"x\\ny\",\"\\u00e9\",\"\\\"\"]}")
	    == PISTON_OK && q.nargs == 6 && strcmp(q.args[0], "") == 0 &&
	    strcmp(q.args[1], "a b") == 0 && strcmp(q.args[2], "-c") == 0 &&
	    strcmp(q.args[3], "x\ny") == 0 &&
	    strcmp(q.args[4], "\xc3\xa9") == 0 &&
	    strcmp(q.args[5], "\"") == 0 && q.args[6] == NULL,
	    "args: six words decoded exactly, the list NULL-terminated");
	ok(parse("{\"language\":\"py\",\"files\":[{\"content\":\"x\"}],"
	    "\"args\":[]}") == PISTON_OK && q.nargs == 0, "args: [] is none");
	b = malloc(1u << 20);
	len = (size_t)sprintf(b, "{\"language\":\"py\",\"files\":[{\"content"
	    "\":\"x\"}],\"args\":[");
	for (int k = 0; k < SBX_ARGS_MAX + 1; k++)
		len += (size_t)sprintf(b + len, "%s\"\"", k ? "," : "");
	sprintf(b + len, "]}");
	ok(parse(b) == PISTON_BAD_FIELD, "args: 65 words refused");
	len = (size_t)sprintf(b, "{\"language\":\"py\",\"files\":[{\"content"
	    "\":\"x\"}],\"args\":[\"");
	memset(b + len, 'a', SBX_ARG_MAX + 1);
	len += SBX_ARG_MAX + 1;
	sprintf(b + len, "\"]}");
	ok(parse(b) == PISTON_TOO_LARGE, "args: a word of 4097 bytes refused");
	len = (size_t)sprintf(b, "{\"language\":\"py\",\"files\":[{\"content"
	    "\":\"x\"}],\"args\":[");
	for (int k = 0; k < 5; k++) {
		len += (size_t)sprintf(b + len, "%s\"", k ? "," : "");
		memset(b + len, 'a', SBX_ARG_MAX);
		len += SBX_ARG_MAX;
		b[len++] = '"';
	}
	sprintf(b + len, "]}");
	ok(parse(b) == PISTON_TOO_LARGE, "args: five words of 4096 bytes: "
	    "over 16384 in all");
	free(b);

	/* encodings: decoded into the file's bytes, NUL and all; a refusal
	 * names the file */
	ok(parse("{\"language\":\"py\",\"files\":[{\"name\":\"m.py\","
	    "\"content\":\"x\"},{\"name\":\"d.bin\",\"content\":"
	    "\"AP8KDQA=\",\"encoding\":\"base64\"},{\"name\":\"h.bin\","
	    "\"content\":\"00Ff0a\",\"encoding\":\"hex\"}],\"stdin\":"
	    "\"in\"}") == PISTON_OK && q.files[1].len == 5 &&
	    memcmp(q.files[1].data, "\0\xff\n\r\0", 5) == 0 &&
	    q.files[2].len == 3 && memcmp(q.files[2].data, "\0\xff\n", 3) == 0
	    && q.input_len == 2 && memcmp(q.input, "in", 2) == 0,
	    "base64 and hex files decode to their bytes; stdin after them "
	    "intact");
	ok(parse("{\"language\":\"py\",\"files\":[{\"name\":\"m.py\","
	    "\"content\":\"x\"},{\"name\":\"d.bin\",\"content\":"
	    "\"AP8=AP8=\",\"encoding\":\"base64\"}]}") == PISTON_BAD_CONTENT
	    && strstr(err, "files[1].content (d.bin): not base64") &&
	    strstr(err, "byte 3 (0x3d)"), "a bad base64 file is named, and "
	    "the byte: %s", err);
	ok(parse("{\"language\":\"py\",\"files\":[{\"name\":\"m.py\","
	    "\"content\":\"x\",\"encoding\":\"gzip\"}]}") ==
	    PISTON_ENCODING && strstr(err, "files[0].encoding (m.py)"),
	    "an unknown encoding names the file: %s", err);
	ok(strcmp(piston_err_name(PISTON_ENCODING), "encoding_unknown") == 0 &&
	    strcmp(piston_err_name(PISTON_BAD_CONTENT), "bad_encoding") == 0 &&
	    piston_err_status(PISTON_ENCODING) == 400 &&
	    piston_err_status(PISTON_BAD_CONTENT) == 400,
	    "the encodings' codes: encoding_unknown, bad_encoding, 400");

	/* the caps, on the decoded bytes */
	b = big_body(SBX_FILE_MAX, 1);
	ok(parse(b) == PISTON_OK && q.files[0].len == SBX_FILE_MAX,
	    "a file of 1 MiB written as \\u escapes: OK");
	free(b);
	b = big_body(SBX_FILE_MAX + 1, 0);
	ok(parse(b) == PISTON_TOO_LARGE, "a file of 1 MiB + 1: too large");
	free(b);
	ok(encoded_big(SBX_FILE_MAX, 0) == PISTON_OK &&
	    q.files[0].len == SBX_FILE_MAX && q.files[0].data[0] == 0xff &&
	    encoded_big(SBX_FILE_MAX, 1) == PISTON_OK &&
	    q.files[0].len == SBX_FILE_MAX,
	    "base64 and hex of 1 MiB: OK (the cap is on the decoded bytes)");
	ok(encoded_big(SBX_FILE_MAX + 1, 0) == PISTON_TOO_LARGE &&
	    strstr(err, "larger than 1048576 bytes decoded") &&
	    encoded_big(SBX_FILE_MAX + 1, 1) == PISTON_TOO_LARGE,
	    "base64 and hex of 1 MiB + 1: too large: %s", err);
	b = malloc(64u << 20);
	len = (size_t)sprintf(b, "{\"language\":\"py\",\"files\":[");
	for (int k = 0; k < 5; k++) {
		len += (size_t)sprintf(b + len, "%s{\"name\":\"f%d.py\","
		    "\"content\":\"", k ? "," : "", k);
		memset(b + len, 'a', SBX_FILE_MAX);
		len += SBX_FILE_MAX;
		len += (size_t)sprintf(b + len, "\"}");
	}
	sprintf(b + len, "]}");
	ok(parse(b) == PISTON_TOO_LARGE, "five files of 1 MiB: over 4 MiB in "
	    "all");
	len = (size_t)sprintf(b, "{\"language\":\"py\",\"files\":[");
	for (int k = 0; k < SBX_FILES_MAX + 1; k++)
		len += (size_t)sprintf(b + len, "%s{\"content\":\"\"}", k ? ","
		    : "");
	sprintf(b + len, "]}");
	ok(parse(b) == PISTON_BAD_FIELD, "16 files: refused");
	free(b);

	/* answers */
	{
		struct sbx_answer a;
		struct piston_output o = { (const uint8_t *)"out\n",
			(const uint8_t *)"\x1b[2Jerr\xff", (const uint8_t *)"x", 4,
			8, 1 };

		ok(parse("{\"language\":\"py\",\"files\":[{\"content\":\"1\"}]}")
		    == PISTON_OK, "a request to answer");
		memset(&a, 0, sizeof a);
		a.started = 1;
		snprintf(a.info.exec_id, sizeof a.info.exec_id, "e1");
		snprintf(a.info.jail, sizeof a.info.jail, "ns");
		a.res.reason = SBX_EXITED;
		a.res.kind = SBX_KIND_CODE;
		a.res.status = 3;
		a.res.cpu_ms = 77;
		text = NULL;
		f = open_memstream(&text, &len);
		piston_write_result(f, &q, &a, &o);
		fclose(f);
		i = written(text, len, &j, "run");
		ok(i >= 0, "a result is one JSON object with run");
		{
			long c = jsonr_member(&j, (size_t)i, "code");
			long e = jsonr_member(&j, (size_t)i, "stderr");
			char s[64];
			size_t n;
			int64_t v;

			ok(c > 0 && jsonr_int(&j, (size_t)c, 0, 255, &v) == 0 &&
			    v == 3, "run.code is the exit code");
			ok(e > 0 && jsonr_string(&j, (size_t)e, s, sizeof s, &n)
			    == 0 && n == 10 && memcmp(s, "\x1b[2Jerr\xef\xbf\xbd",
			    10) == 0, "run.stderr: the ESC as \\u001b, a bad "
			    "byte as U+FFFD");
		}
		ok(jsonr_member(&j, 0, "compile") < 0 && jsonr_member(&j, 0,
		    "airlock") > 0, "python: no compile stage; airlock's fields");
		free(text);

		ok(parse("{\"language\":\"java\",\"files\":[{\"name\":"
		    "\"T.java\",\"content\":\"x\"}]}") == PISTON_OK,
		    "a java request to answer");
		a.res.reason = SBX_COMPILE_FAILED;
		a.res.kind = SBX_KIND_NONE;
		snprintf(a.res.detail, sizeof a.res.detail, "T.java:1: error");
		text = NULL;
		f = open_memstream(&text, &len);
		piston_write_result(f, &q, &a, &o);
		fclose(f);
		ok(written(text, len, &j, "compile") > 0 &&
		    jsonr_member(&j, 0, "run") < 0,
		    "java that did not compile: compile, no run");
		free(text);
		a.res.reason = SBX_TIMEOUT;
		a.res.kind = SBX_KIND_SIGNAL;
		a.res.status = 9;
		text = NULL;
		f = open_memstream(&text, &len);
		piston_write_result(f, &q, &a, &o);
		fclose(f);
		ok(written(text, len, &j, "run") > 0 && strstr(text,
		    "\"signal\":\"SIGKILL\"") && strstr(text,
		    "\"status\":\"TO\"") && strstr(text, "\"code\":null"),
		    "java stopped by the clock: run with SIGKILL, TO, no code");
		free(text);
	}
	text = NULL;
	f = open_memstream(&text, &len);
	piston_write_error(f, "budget_cpu", "over \"budget\"\n\x01");
	fclose(f);
	ok(written(text, len, &j, "code") > 0 && jsonr_member(&j, 0,
	    "message") > 0, "an error object: code and message");
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	piston_write_runtimes(f, rts, 2);
	fclose(f);
	ok(jsonr_parse(&j, text, len, tok, PISTON_TOKENS_MAX) == JSONR_OK &&
	    tok[0].type == JSON_ARRAY && tok[0].count == 2 &&
	    strstr(text, "\"aliases\":[\"python3\",\"py\"]"),
	    "the runtimes: an array of two, with aliases");
	free(text);
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
