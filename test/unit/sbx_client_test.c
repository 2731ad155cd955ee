/* sbx_client_test.c - the client's reading of the sandbox service's
 * answer (sbx_answer_read), frame by frame: the order the protocol
 * allows (STARTED before output and EXIT, once), refusals, PINGs, and
 * every frame that breaks it, named. */
#include <string.h>

#include "common/sandbox/sbx_client.h"
#include "tap.h"

static uint8_t started[512], result[SBX_DETAIL_MAX + 256], refusal[1200];
static size_t started_len, result_len, refusal_len;

static void
encode(void)
{
	struct sbx_started s;
	struct sbx_result r;
	long n;

	memset(&s, 0, sizeof s);
	snprintf(s.exec_id, sizeof s.exec_id, "e1");
	snprintf(s.jail, sizeof s.jail, "ns");
	s.lim = (struct sbx_limits){ 5000, 2000, 256u << 20, 1u << 20, 64 };
	n = sbx_started_encode(started, sizeof started, &s);
	started_len = n > 0 ? (size_t)n : 0;
	memset(&r, 0, sizeof r);
	r.reason = SBX_TIMEOUT;
	r.kind = SBX_KIND_SIGNAL;
	r.status = 9;
	r.wall_ms = 5001;
	snprintf(r.detail, sizeof r.detail, "wall clock");
	n = sbx_result_encode(result, sizeof result, &r);
	result_len = n > 0 ? (size_t)n : 0;
	n = proto_error_encode(refusal, sizeof refusal, SBX_ERR_BUDGET_CPU,
	    "the tenant has used its CPU time for this window");
	refusal_len = n > 0 ? (size_t)n : 0;
	ok(started_len && result_len && refusal_len, "the answers encode");
}

static enum sbx_answer_step
feed(struct sbx_answer *a, uint8_t type, const uint8_t *p, size_t len,
    char *err)
{
	err[0] = '\0';
	return sbx_answer_read(a, type, p, len, err, 128);
}

static void
test_order(void)
{
	static const uint8_t ping[PROTO_PING_LEN] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct sbx_answer a;
	char err[128];

	memset(&a, 0, sizeof a);
	ok(feed(&a, FRAME_STARTED, started, started_len, err) ==
	    SBX_ANSWER_MORE && a.started && strcmp(a.info.exec_id, "e1") == 0 &&
	    a.info.lim.timeout_ms == 5000, "STARTED: the limits in force");
	ok(feed(&a, FRAME_STDOUT, (const uint8_t *)"hi", 2, err) ==
	    SBX_ANSWER_OUTPUT && feed(&a, FRAME_STDERR, (const uint8_t *)"x",
	    1, err) == SBX_ANSWER_OUTPUT, "then the tool's stdout and stderr");
	ok(feed(&a, FRAME_PING, ping, sizeof ping, err) == SBX_ANSWER_PING,
	    "a PING of 8 bytes is answered");
	ok(feed(&a, FRAME_PING, ping, 3, err) == SBX_ANSWER_MORE,
	    "a PING of another size is not");
	ok(feed(&a, FRAME_EXIT, result, result_len, err) ==
	    SBX_ANSWER_RESULT && a.res.reason == SBX_TIMEOUT &&
	    a.res.status == 9 && strcmp(a.res.detail, "wall clock") == 0,
	    "EXIT: the result, parsed");
}

static void
test_refused(void)
{
	struct sbx_answer a;
	char err[128];

	memset(&a, 0, sizeof a);
	ok(feed(&a, FRAME_ERROR, refusal, refusal_len, err) ==
	    SBX_ANSWER_REFUSED && a.refusal.code == SBX_ERR_BUDGET_CPU &&
	    strstr(a.refusal.message, "CPU time") != NULL,
	    "ERROR before STARTED: a refusal with its code and message");
	memset(&a, 0, sizeof a);
	ok(feed(&a, FRAME_ERROR, refusal, refusal_len - 1, err) ==
	    SBX_ANSWER_BAD && strcmp(err, "bad ERROR from the sandbox") == 0,
	    "an ERROR cut short breaks the protocol");
}

static void
test_bad(void)
{
	static const struct {
		const char *name;
		int start_first;
		uint8_t type;
		int which;	/* 0 started, 1 result, 2 "out" */
		size_t cut;	/* bytes dropped from the end */
		const char *err;	/* in the message */
	} cases[] = {
		{ "stdout first", 0, FRAME_STDOUT, 2, 0, "before STARTED" },
		{ "stderr first", 0, FRAME_STDERR, 2, 0, "before STARTED" },
		{ "EXIT first", 0, FRAME_EXIT, 1, 0, "bad result" },
		{ "STARTED twice", 1, FRAME_STARTED, 0, 0, "bad STARTED" },
		{ "STARTED cut short", 0, FRAME_STARTED, 0, 1, "bad STARTED" },
		{ "EXIT cut short", 1, FRAME_EXIT, 1, 1, "bad result" },
		{ "a SPAWN", 1, FRAME_SPAWN, 2, 0, "unexpected spawn frame" },
		{ "type 200", 1, 200, 2, 0, "unexpected unknown frame" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sbx_answer a;
		char err[128];
		const uint8_t *p = cases[i].which == 0 ? started :
		    cases[i].which == 1 ? result : (const uint8_t *)"out";
		size_t len = cases[i].which == 0 ? started_len :
		    cases[i].which == 1 ? result_len : 3;

		memset(&a, 0, sizeof a);
		if (cases[i].start_first)
			(void)feed(&a, FRAME_STARTED, started, started_len,
			    err);
		ok(feed(&a, cases[i].type, p, len - cases[i].cut, err) ==
		    SBX_ANSWER_BAD && strstr(err, cases[i].err) != NULL,
		    "%s breaks the protocol: '%s'", cases[i].name, err);
	}
}

int
main(void)
{
	encode();
	test_order();
	test_refused();
	test_bad();
	return tap_done();
}
