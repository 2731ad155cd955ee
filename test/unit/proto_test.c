/* proto_test.c - lease payloads: round trips, every cap, strictness. */
#include <string.h>

#include "common/wire/proto.h"
#include "common/base/bounded_rw.h"
#include "tap.h"

static struct spawn_req req;
static uint8_t buf[FRAME_PAYLOAD_MAX + 64];

static long
encode_basic(char *const *argv, size_t argc, char *const *k, char *const *v,
    size_t envc)
{
	return proto_spawn_encode(buf, sizeof buf, "tenant-1", "reg.2", argv,
	    argc, k, v, envc, "tok", 3);
}

static void
test_spawn_roundtrip(void)
{
	char *argv[] = { "npx", "-y", "@scope/server@1.4.2", "" };
	char *k[] = { "API_KEY", "EMPTY" }, *v[] = { "s3cret value", "" };
	long n = encode_basic(argv, 4, k, v, 2);

	ok(n > 0, "spawn encodes (%ld bytes)", n);
	ok(proto_spawn_parse(&req, buf, (size_t)n) == PROTO_OK,
	    "spawn parses back");
	ok(strcmp(req.tenant, "tenant-1") == 0 &&
	    strcmp(req.registration, "reg.2") == 0, "ids survive");
	ok(req.argc == 4 && strcmp(req.argv[2], "@scope/server@1.4.2") == 0 &&
	    req.argv[3][0] == '\0' && req.argv[4] == NULL,
	    "argv survives, empty argument kept, NULL-terminated");
	ok(req.envc == 2 && strcmp(req.env_value[0], "s3cret value") == 0 &&
	    req.env_value[1][0] == '\0', "env survives");
	ok(req.approval_len == 3 && strcmp(req.approval, "tok") == 0,
	    "approval survives");
	for (long cut = 0; cut < n; cut++)
		if (proto_spawn_parse(&req, buf, (size_t)cut) == PROTO_OK) {
			ok(0, "a spawn cut at %ld bytes must not parse", cut);
			return;
		}
	ok(1, "every truncation of the spawn request is refused");
	buf[n] = 0;
	ok(proto_spawn_parse(&req, buf, (size_t)n + 1) == PROTO_TRAILING,
	    "one trailing byte is refused");
}

/* Hand-built requests probe what the encoder would never produce. */
static size_t
build(struct wr *w, uint8_t version, const char *tenant, uint16_t argc,
    const char *arg, size_t arglen)
{
	*w = wr_init(buf, sizeof buf);
	wr_u8(w, version);
	wr_str16(w, tenant, strlen(tenant));
	wr_str16(w, "r", 1);
	wr_u16(w, argc);
	for (uint16_t i = 0; i < argc; i++)
		wr_str16(w, arg, arglen);
	wr_u16(w, 0);
	wr_str16(w, "", 0);
	return w->off;
}

static void
test_spawn_refusals(void)
{
	static char big[PROTO_ARG_MAX + 2];
	struct wr w;
	size_t n;

	n = build(&w, 2, "t", 1, "node", 4);
	ok(proto_spawn_parse(&req, buf, n) == PROTO_BAD_VERSION,
	    "version 2 is refused");
	n = build(&w, 1, "", 1, "node", 4);
	ok(proto_spawn_parse(&req, buf, n) == PROTO_BAD_ID, "empty tenant");
	n = build(&w, 1, "../etc", 1, "node", 4);
	ok(proto_spawn_parse(&req, buf, n) == PROTO_BAD_ID,
	    "tenant with a slash");
	n = build(&w, 1, ".hidden", 1, "node", 4);
	ok(proto_spawn_parse(&req, buf, n) == PROTO_BAD_ID,
	    "tenant starting with a dot");
	n = build(&w, 1, "t", 0, "node", 4);
	ok(proto_spawn_parse(&req, buf, n) == PROTO_BAD_ARGV, "empty argv");
	n = build(&w, 1, "t", PROTO_ARGC_MAX + 1, "x", 1);
	ok(proto_spawn_parse(&req, buf, n) == PROTO_BAD_ARGV,
	    "257 arguments are refused");
	n = build(&w, 1, "t", PROTO_ARGC_MAX, "x", 1);
	ok(proto_spawn_parse(&req, buf, n) == PROTO_OK,
	    "256 arguments are accepted");
	n = build(&w, 1, "t", 1, "no\0de", 5);
	ok(proto_spawn_parse(&req, buf, n) == PROTO_BAD_ARGV,
	    "an argument with a NUL byte is refused");
	memset(big, 'a', sizeof big);
	n = build(&w, 1, "t", 1, big, PROTO_ARG_MAX + 1);
	ok(proto_spawn_parse(&req, buf, n) == PROTO_BAD_ARGV,
	    "a 4097-byte argument is refused");
	n = build(&w, 1, "t", 1, big, PROTO_ARG_MAX);
	ok(proto_spawn_parse(&req, buf, n) == PROTO_OK,
	    "a 4096-byte argument is accepted");
	n = build(&w, 1, "t", 3, "x", 1);
	buf[n - 3] = 0xff;	/* env count 0xff00: runs past the end */
	ok(proto_spawn_parse(&req, buf, n) == PROTO_BAD_ENV ||
	    proto_spawn_parse(&req, buf, n) == PROTO_TRUNCATED,
	    "an env count over the cap or the payload is refused");
}

static void
test_other_frames(void)
{
	struct exit_info x = { .kind = EXIT_KIND_SIGNAL, .status = 9,
		.reason = EXIT_REASON_OOM, .duration_ms = 1234,
		.bytes_in = 1, .bytes_out = 1ull << 40, .bytes_err = 3,
		.peak_memory = 5 }, y;
	struct error_info e;
	struct started_info s = { "abc", "uid", 5000, 15000 }, t;
	long n;

	strcpy(x.detail, "last line\n");
	n = proto_exit_encode(buf, sizeof buf, &x);
	ok(n > 0 && proto_exit_parse(&y, buf, (size_t)n) == PROTO_OK &&
	    y.kind == 1 && y.status == 9 && y.bytes_out == 1ull << 40 &&
	    strcmp(y.detail, "last line\n") == 0, "exit round trip");
	buf[0] = 2;
	ok(proto_exit_parse(&y, buf, (size_t)n) != PROTO_OK,
	    "exit kind 2 is refused");
	n = proto_error_encode(buf, sizeof buf, LERR_INLINE_CODE, "node -e");
	ok(n > 0 && proto_error_parse(&e, buf, (size_t)n) == PROTO_OK &&
	    e.code == LERR_INLINE_CODE && strcmp(e.message, "node -e") == 0,
	    "error round trip");
	ok(strcmp(proto_error_name(LERR_INLINE_CODE), "inline_code") == 0 &&
	    strcmp(proto_error_name(0), "unknown") == 0 &&
	    strcmp(proto_error_name(LERR_MAX_), "unknown") == 0,
	    "error names are stable");
	n = proto_started_encode(buf, sizeof buf, &s);
	ok(n > 0 && proto_started_parse(&t, buf, (size_t)n) == PROTO_OK &&
	    t.ping_ms == 5000 && t.liveness_ms == 15000 &&
	    strcmp(t.jail, "uid") == 0, "started round trip");
	s.liveness_ms = 5000;
	n = proto_started_encode(buf, sizeof buf, &s);
	ok(proto_started_parse(&t, buf, (size_t)n) != PROTO_OK,
	    "liveness not above the ping interval is refused");
}

int
main(void)
{
	test_spawn_roundtrip();
	test_spawn_refusals();
	test_other_frames();
	return tap_done();
}
