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
	static struct started_info s = { .lease_id = "abc", .jail = "uid",
	    .ping_ms = 5000, .liveness_ms = 15000 }, t;
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
	n = proto_started_encode(buf, sizeof buf, 1, &s);
	ok(n > 0 && proto_started_parse(&t, 1, buf, (size_t)n) == PROTO_OK &&
	    t.ping_ms == 5000 && t.liveness_ms == 15000 &&
	    strcmp(t.jail, "uid") == 0 && t.egress == EGRESS_UNREPORTED,
	    "started round trip (version 1: egress unreported)");
	s.liveness_ms = 5000;
	n = proto_started_encode(buf, sizeof buf, 1, &s);
	ok(proto_started_parse(&t, 1, buf, (size_t)n) != PROTO_OK,
	    "liveness not above the ping interval is refused");
}

/* A version 2 STARTED built by hand: the fixed head, then tail[n]. */
static size_t
started_v2(const uint8_t *tail, size_t n)
{
	static const uint8_t head[] = { 0, 3, 'a', 'b', 'c', 0, 2, 'n', 's',
		0, 0, 0x13, 0x88, 0, 0, 0x3a, 0x98 };

	memcpy(buf, head, sizeof head);
	memcpy(buf + sizeof head, tail, n);
	return sizeof head + n;
}

static enum proto_status
parse_v2(const void *tail, size_t n, struct started_info *t)
{
	return proto_started_parse(t, 2, buf, started_v2(tail, n));
}

/* A hosts policy with list text, as the wire carries it. */
static enum proto_status
parse_hosts(const char *list, struct started_info *t)
{
	static uint8_t tail[3 + 2 * PROTO_EGRESS_TEXT_MAX];
	size_t n = strlen(list);

	tail[0] = EGRESS_HOSTS;
	tail[1] = (uint8_t)(n >> 8);
	tail[2] = (uint8_t)n;
	memcpy(tail + 3, list, n);
	return parse_v2(tail, 3 + n, t);
}

static void
test_started_egress(void)
{
	static struct started_info s = { .lease_id = "abc", .jail = "ns",
	    .ping_ms = 5000, .liveness_ms = 15000 }, t;
	/* version 1's exact bytes: what a relay of version 1 gets, as before */
	static const uint8_t v1[] = { 0, 3, 'a', 'b', 'c', 0, 2, 'n', 's',
		0, 0, 0x13, 0x88, 0, 0, 0x3a, 0x98 };
	static char big[2 * PROTO_EGRESS_TEXT_MAX], text[256];
	size_t o;
	long n;

	s.egress = EGRESS_HOSTS;
	strcpy(s.rules, "a.io:443");
	n = proto_started_encode(buf, sizeof buf, 1, &s);
	ok(n == (long)sizeof v1 && memcmp(buf, v1, sizeof v1) == 0,
	    "version 1 STARTED is byte for byte the old one, egress left out");
	ok(proto_started_parse(&t, 2, buf, (size_t)n) == PROTO_TRUNCATED,
	    "... and a version 2 parser refuses it (truncated)");

	s.egress = EGRESS_NONE;
	n = proto_started_encode(buf, sizeof buf, 2, &s);
	ok(n == (long)sizeof v1 + 1 && buf[sizeof v1] == 0 &&
	    proto_started_parse(&t, 2, buf, (size_t)n) == PROTO_OK &&
	    t.egress == EGRESS_NONE, "version 2, no egress rule: one byte 0");
	ok(proto_started_parse(&t, 1, buf, (size_t)n) == PROTO_TRAILING,
	    "... which a version 1 parser refuses (trailing)");

	s.egress = EGRESS_PORTS;
	s.nports = 2;
	s.port[0] = 80;
	s.port[1] = 443;
	n = proto_started_encode(buf, sizeof buf, 2, &s);
	ok(n == (long)sizeof v1 + 7 && memcmp(buf + sizeof v1,
	    "\x01\x00\x02\x00\x50\x01\xbb", 7) == 0,
	    "ports: mode 1, count, each u16");
	ok(proto_started_parse(&t, 2, buf, (size_t)n) == PROTO_OK &&
	    t.egress == EGRESS_PORTS && t.nports == 2 && t.port[0] == 80 &&
	    t.port[1] == 443, "ports round trip");
	proto_egress_text(&t, text, sizeof text);
	ok(strcmp(text, "ports 80,443") == 0, "ports as text: %s", text);
	s.port[0] = 443;
	s.port[1] = 80;
	ok(proto_started_encode(buf, sizeof buf, 2, &s) == -1,
	    "the encoder refuses ports out of order");
	ok(parse_v2("\x01\x00\x02\x01\xbb\x00\x50", 7, &t) ==
	    PROTO_BAD_EGRESS, "ports out of order are refused");
	ok(parse_v2("\x01\x00\x02\x01\xbb\x01\xbb", 7, &t) ==
	    PROTO_BAD_EGRESS, "a repeated port is refused");
	ok(parse_v2("\x01\x00\x01\x00\x00", 5, &t) == PROTO_BAD_EGRESS,
	    "port 0 is refused");
	ok(parse_v2("\x01\x00\x00", 3, &t) == PROTO_BAD_EGRESS,
	    "an empty port list is refused");
	ok(parse_v2("\x01\x00\x41", 3, &t) == PROTO_BAD_EGRESS,
	    "65 ports are refused before they are read");
	ok(parse_v2("\x01\xff\xff", 3, &t) == PROTO_BAD_EGRESS,
	    "a count of 65535 is refused before it is read");
	ok(parse_v2("\x01\x00\x02\x00\x50", 5, &t) == PROTO_TRUNCATED,
	    "a port list cut short is truncated");
	{
		uint8_t tail[3 + 2 * 64];

		tail[0] = 1;
		tail[1] = 0;
		tail[2] = 64;
		for (int i = 0; i < 64; i++) {
			tail[3 + 2 * i] = 0;
			tail[4 + 2 * i] = (uint8_t)(i + 1);
		}
		ok(parse_v2(tail, sizeof tail, &t) == PROTO_OK &&
		    t.nports == 64, "64 ports, the cap, parse");
	}

	{
		/* docs/PROTOCOL.md's worked example, byte for byte */
		static struct started_info d = { .lease_id = "l-1",
			.jail = "ns", .ping_ms = 10000, .liveness_ms = 30000,
			.egress = EGRESS_PORTS, .nports = 2,
			.port = { 80, 443 } };
		static const uint8_t want[] = { 0x00, 0x03, 0x6c, 0x2d, 0x31,
			0x00, 0x02, 0x6e, 0x73, 0x00, 0x00, 0x27, 0x10, 0x00,
			0x00, 0x75, 0x30, 0x01, 0x00, 0x02, 0x00, 0x50, 0x01,
			0xbb };
		static const uint8_t hosts[] = { 0x02, 0x00, 0x10, 0x61, 0x2e,
			0x69, 0x6f, 0x3a, 0x34, 0x34, 0x33, 0x2c, 0x62, 0x2e,
			0x69, 0x6f, 0x3a, 0x38, 0x30 };

		n = proto_started_encode(buf, sizeof buf, 2, &d);
		ok(n == (long)sizeof want && memcmp(buf, want, sizeof want) ==
		    0, "the documented example (ports) encodes byte for byte");
		d.egress = EGRESS_HOSTS;
		strcpy(d.rules, "a.io:443,b.io:80");
		n = proto_started_encode(buf, sizeof buf, 2, &d);
		ok(n == 17 + (long)sizeof hosts && memcmp(buf + 17, hosts,
		    sizeof hosts) == 0, "... and with rules instead");
	}

	s.egress = EGRESS_HOSTS;
	strcpy(s.rules, "[::1]:8080,a.io:443,b.io:80");
	n = proto_started_encode(buf, sizeof buf, 2, &s);
	ok(n == (long)sizeof v1 + 3 + 27 && buf[sizeof v1] == 2 &&
	    buf[sizeof v1 + 2] == 27, "hosts: mode 2, then the list as str16");
	ok(proto_started_parse(&t, 2, buf, (size_t)n) == PROTO_OK &&
	    t.egress == EGRESS_HOSTS && t.nrules == 3 &&
	    strcmp(t.rules, s.rules) == 0, "hosts round trip (3 rules)");
	proto_egress_text(&t, text, sizeof text);
	ok(strcmp(text, "hosts [::1]:8080,a.io:443,b.io:80") == 0,
	    "hosts as text: %s", text);
	ok(parse_hosts("", &t) == PROTO_OK && t.nrules == 0 &&
	    t.rules[0] == '\0', "an empty hosts list: nothing is reachable");
	proto_egress_text(&t, text, sizeof text);
	ok(strcmp(text, "hosts") == 0, "... as text: %s", text);
	ok(parse_hosts("A.io:443", &t) == PROTO_BAD_EGRESS,
	    "upper case is not the one spelling");
	ok(parse_hosts("b.io:443,a.io:443", &t) == PROTO_BAD_EGRESS,
	    "rules out of order are refused");
	ok(parse_hosts("a.io:443,a.io:443", &t) == PROTO_BAD_EGRESS,
	    "a repeated rule is refused");
	ok(parse_hosts("a.io:443,", &t) == PROTO_BAD_EGRESS &&
	    parse_hosts(",a.io:443", &t) == PROTO_BAD_EGRESS &&
	    parse_hosts("a.io:443,,b.io:1", &t) == PROTO_BAD_EGRESS,
	    "empty entries are refused");
	ok(parse_hosts("[0::1]:443", &t) == PROTO_BAD_EGRESS &&
	    parse_hosts("a.io:0443", &t) == PROTO_BAD_EGRESS,
	    "an address or port not in its canonical form is refused");
	ok(parse_hosts("*.a.io:443", &t) == PROTO_BAD_EGRESS &&
	    parse_hosts("a.io", &t) == PROTO_BAD_EGRESS &&
	    parse_hosts("a.io:443 ", &t) == PROTO_BAD_EGRESS,
	    "a wildcard, a missing port, a space are refused");
	ok(parse_hosts("a.io:443\x1b[2J", &t) == PROTO_BAD_EGRESS,
	    "a terminal escape in a rule is refused");
	ok(parse_v2("\x02\x00\x05" "a.io:", 8, &t) == PROTO_BAD_EGRESS,
	    "a rule without its port number is refused");
	ok(parse_v2("\x02\x00\x09" "a.io:443", 10, &t) == PROTO_TRUNCATED,
	    "a list cut short is truncated");
	ok(parse_v2("\x02\x00\x08" "a.io:443\x00", 12, &t) == PROTO_TRAILING,
	    "a byte after the policy is trailing");
	ok(parse_v2("\x03", 1, &t) == PROTO_BAD_EGRESS &&
	    parse_v2("\xff", 1, &t) == PROTO_BAD_EGRESS,
	    "an unknown mode (3, 255) is refused");
	s.egress = 3;
	ok(proto_started_encode(buf, sizeof buf, 2, &s) == -1,
	    "the encoder refuses an unknown mode");
	s.egress = EGRESS_HOSTS;
	strcpy(s.rules, "B.io:1");
	ok(proto_started_encode(buf, sizeof buf, 2, &s) == -1,
	    "the encoder refuses a list not in its one spelling");

	/* the cap: 64 rules of the longest names (253 bytes) parse; a 65th
	 * rule, or a text over the cap, does not */
	for (o = 0, n = 0; n < 65; n++)
		o += (size_t)snprintf(big + o, sizeof big - o,
		    "%s%c%c%061d.%063d.%063d.d%060d:65535", n ? "," : "",
		    'a' + (int)(n / 26), 'a' + (int)(n % 26), 0, 0, 0, 0);
	ok(parse_hosts(big, &t) == PROTO_BAD_EGRESS, "65 rules are refused");
	big[o - 260] = '\0';
	ok(parse_hosts(big, &t) == PROTO_OK && t.nrules == 64 &&
	    strlen(t.rules) == 64 * 259 + 63, "64 rules of 253-byte names "
	    "parse (%zu bytes)", strlen(big));
	memset(big, 'a', PROTO_EGRESS_TEXT_MAX + 1);
	memcpy(big + PROTO_EGRESS_TEXT_MAX - 4, ".io:1", 5);
	big[PROTO_EGRESS_TEXT_MAX + 1] = '\0';
	ok(parse_hosts(big, &t) == PROTO_BAD_EGRESS, "a list over %d bytes is "
	    "refused", PROTO_EGRESS_TEXT_MAX);
}

int
main(void)
{
	test_spawn_roundtrip();
	test_spawn_refusals();
	test_other_frames();
	test_started_egress();
	return tap_done();
}
