/* proto.c - lease frame payloads: strict parsers and their encoders. */
#include "common/wire/proto.h"

#include <stdio.h>
#include <string.h>

#include "common/base/bounded_rw.h"
#include "common/egress/egress_allow.h"

static const char *const status_texts[] = {
	[PROTO_OK] = "ok",
	[PROTO_BAD_VERSION] = "unsupported protocol version",
	[PROTO_TRUNCATED] = "a field runs past the end of the frame",
	[PROTO_TRAILING] = "unexpected bytes after the last field",
	[PROTO_BAD_ID] = "tenant or registration id is empty, longer than 64 "
	    "bytes or not [A-Za-z0-9._-]",
	[PROTO_BAD_ARGV] = "argv is empty, has over 256 entries, an entry "
	    "over 4096 bytes or a NUL byte",
	[PROTO_BAD_ENV] = "env has over 256 entries, a key over 128 or a "
	    "value over 32768 bytes, or a NUL byte",
	[PROTO_BAD_APPROVAL] = "approval token over 8192 bytes or has a NUL",
	[PROTO_BAD_LENGTH] = "fixed-size payload has the wrong length",
	[PROTO_BAD_EGRESS] = "egress policy with an unknown mode, over 64 "
	    "ports or rules, out of order, or not in its one spelling",
};

const char *
proto_status_text(enum proto_status s)
{
	if ((unsigned)s < sizeof status_texts / sizeof status_texts[0])
		return status_texts[s];
	return "unknown status";
}

int
proto_name_valid(const uint8_t *s, size_t n, size_t max)
{
	if (n == 0 || n > max || s[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

int
proto_id_valid(const uint8_t *s, size_t n)
{
	return proto_name_valid(s, n, PROTO_ID_MAX);
}

/* Pool allocator for C strings made from wire bytes. */
struct pool {
	char *p;
	size_t cap, off;
};

/* Copy n wire bytes as a C string; NULL on an embedded NUL or no room. */
static char *
pool_str(struct pool *pl, const uint8_t *s, size_t n)
{
	char *out;

	if (memchr(s, '\0', n) || n >= pl->cap - pl->off)
		return NULL;
	out = pl->p + pl->off;
	memcpy(out, s, n);
	out[n] = '\0';
	pl->off += n + 1;
	return out;
}

/* Read one str16 field of at most max bytes into the pool. */
static enum proto_status
take_str(struct rd *r, struct pool *pl, size_t max, enum proto_status bad,
    char **out, size_t *len)
{
	const uint8_t *s;
	size_t n;

	if (rd_str16(r, &s, &n))
		return PROTO_TRUNCATED;
	if (n > max || !(*out = pool_str(pl, s, n)))
		return bad;
	if (len)
		*len = n;
	return PROTO_OK;
}

static enum proto_status
take_id(struct rd *r, struct pool *pl, char **out)
{
	const uint8_t *s;
	size_t n;

	if (rd_str16(r, &s, &n))
		return PROTO_TRUNCATED;
	if (!proto_id_valid(s, n) || !(*out = pool_str(pl, s, n)))
		return PROTO_BAD_ID;
	return PROTO_OK;
}

#define TRY(expr) do { enum proto_status st_ = (expr); \
	if (st_ != PROTO_OK) return st_; } while (0)

enum proto_status
proto_spawn_parse(struct spawn_req *req, const uint8_t *p, size_t n)
{
	struct rd r = rd_init(p, n);
	struct pool pl = { req->pool, sizeof req->pool, 0 };
	uint8_t version;
	uint16_t count;

	if (rd_u8(&r, &version))
		return PROTO_TRUNCATED;
	if (version != PROTO_VERSION)
		return PROTO_BAD_VERSION;
	TRY(take_id(&r, &pl, &req->tenant));
	TRY(take_id(&r, &pl, &req->registration));
	if (rd_u16(&r, &count))
		return PROTO_TRUNCATED;
	if (count == 0 || count > PROTO_ARGC_MAX)
		return PROTO_BAD_ARGV;
	req->argc = count;
	for (size_t i = 0; i < req->argc; i++)
		TRY(take_str(&r, &pl, PROTO_ARG_MAX, PROTO_BAD_ARGV,
		    &req->argv[i], NULL));
	req->argv[req->argc] = NULL;
	if (rd_u16(&r, &count))
		return PROTO_TRUNCATED;
	if (count > PROTO_ENVC_MAX)
		return PROTO_BAD_ENV;
	req->envc = count;
	for (size_t i = 0; i < req->envc; i++) {
		TRY(take_str(&r, &pl, PROTO_ENV_KEY_MAX, PROTO_BAD_ENV,
		    &req->env_key[i], NULL));
		TRY(take_str(&r, &pl, PROTO_ENV_VALUE_MAX, PROTO_BAD_ENV,
		    &req->env_value[i], NULL));
	}
	TRY(take_str(&r, &pl, PROTO_APPROVAL_MAX, PROTO_BAD_APPROVAL,
	    &req->approval, &req->approval_len));
	return rd_done(&r) ? PROTO_OK : PROTO_TRAILING;
}

static void
put_cstr(struct wr *w, const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n > max)
		w->bad = 1;
	wr_str16(w, s, n);
}

long
proto_spawn_encode(uint8_t *out, size_t cap, const char *tenant,
    const char *registration, char *const *argv, size_t argc,
    char *const *env_key, char *const *env_value, size_t envc,
    const char *approval, size_t approval_len)
{
	struct wr w = wr_init(out, cap);

	if (argc == 0 || argc > PROTO_ARGC_MAX || envc > PROTO_ENVC_MAX ||
	    approval_len > PROTO_APPROVAL_MAX ||
	    !proto_id_valid((const uint8_t *)tenant, strlen(tenant)) ||
	    !proto_id_valid((const uint8_t *)registration, strlen(registration)))
		return -1;
	wr_u8(&w, PROTO_VERSION);
	put_cstr(&w, tenant, PROTO_ID_MAX);
	put_cstr(&w, registration, PROTO_ID_MAX);
	wr_u16(&w, (uint16_t)argc);
	for (size_t i = 0; i < argc; i++)
		put_cstr(&w, argv[i], PROTO_ARG_MAX);
	wr_u16(&w, (uint16_t)envc);
	for (size_t i = 0; i < envc; i++) {
		put_cstr(&w, env_key[i], PROTO_ENV_KEY_MAX);
		put_cstr(&w, env_value[i], PROTO_ENV_VALUE_MAX);
	}
	wr_str16(&w, approval, approval_len);
	return w.bad ? -1 : (long)w.off;
}

static const char *const reason_names[] = {
	[EXIT_REASON_EXITED] = "exited", [EXIT_REASON_SHUTDOWN] = "shutdown",
	[EXIT_REASON_OOM] = "memory", [EXIT_REASON_PIDS] = "pids",
	[EXIT_REASON_DISK] = "disk",
};

const char *
proto_exit_reason_name(unsigned reason)
{
	return reason < EXIT_REASON_MAX_ ? reason_names[reason] : "unknown";
}

/* Copy a str16 text field into a fixed buffer, rejecting NUL and excess. */
static enum proto_status
take_text(struct rd *r, char *dst, size_t cap)
{
	const uint8_t *s;
	size_t n;

	if (rd_str16(r, &s, &n))
		return PROTO_TRUNCATED;
	if (n >= cap || memchr(s, '\0', n))
		return PROTO_BAD_LENGTH;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return PROTO_OK;
}

long
proto_exit_encode(uint8_t *out, size_t cap, const struct exit_info *e)
{
	struct wr w = wr_init(out, cap);

	wr_u8(&w, e->kind);
	wr_u8(&w, e->status);
	wr_u8(&w, e->reason);
	wr_u64(&w, e->duration_ms);
	wr_u64(&w, e->bytes_in);
	wr_u64(&w, e->bytes_out);
	wr_u64(&w, e->bytes_err);
	wr_u64(&w, e->peak_memory);
	put_cstr(&w, e->detail, PROTO_TEXT_MAX);
	return w.bad ? -1 : (long)w.off;
}

enum proto_status
proto_exit_parse(struct exit_info *e, const uint8_t *p, size_t n)
{
	struct rd r = rd_init(p, n);

	if (rd_u8(&r, &e->kind) || rd_u8(&r, &e->status) ||
	    rd_u8(&r, &e->reason) || rd_u64(&r, &e->duration_ms) ||
	    rd_u64(&r, &e->bytes_in) || rd_u64(&r, &e->bytes_out) ||
	    rd_u64(&r, &e->bytes_err) || rd_u64(&r, &e->peak_memory))
		return PROTO_TRUNCATED;
	if (e->kind > EXIT_KIND_SIGNAL)
		return PROTO_BAD_LENGTH;
	TRY(take_text(&r, e->detail, sizeof e->detail));
	return rd_done(&r) ? PROTO_OK : PROTO_TRAILING;
}

static const char *const error_names[] = {
	[LERR_BAD_REQUEST] = "bad_request", [LERR_LAUNCHER] = "launcher",
	[LERR_INLINE_CODE] = "inline_code", [LERR_ENV] = "env",
	[LERR_APPROVAL] = "approval", [LERR_CAPACITY] = "capacity",
	[LERR_TENANT_CAPACITY] = "tenant_capacity",
	[LERR_PEER_CAPACITY] = "peer_capacity", [LERR_SPAWN] = "spawn",
	[LERR_JAIL] = "jail", [LERR_PROTOCOL] = "protocol",
	[LERR_TIMEOUT] = "timeout", [LERR_SHUTDOWN] = "shutdown",
	[LERR_INTERNAL] = "internal", [LERR_ARGV] = "argv",
	[LERR_MAX_DURATION] = "max_duration",
	[LERR_MCP] = "mcp",
};

const char *
proto_error_name(unsigned code)
{
	if (code > 0 && code < LERR_MAX_)
		return error_names[code];
	return "unknown";
}

long
proto_error_encode(uint8_t *out, size_t cap, unsigned code,
    const char *message)
{
	struct wr w = wr_init(out, cap);
	size_t n = strnlen(message, PROTO_TEXT_MAX);

	wr_u16(&w, (uint16_t)code);
	wr_str16(&w, message, n);	/* longer messages are cut, not lost */
	return w.bad ? -1 : (long)w.off;
}

enum proto_status
proto_error_parse(struct error_info *e, const uint8_t *p, size_t n)
{
	struct rd r = rd_init(p, n);

	if (rd_u16(&r, &e->code))
		return PROTO_TRUNCATED;
	TRY(take_text(&r, e->message, sizeof e->message));
	return rd_done(&r) ? PROTO_OK : PROTO_TRAILING;
}

/* The rules of an EGRESS_HOSTS list (n bytes at p, hostile): comma-
 * separated, each in the authority grammar (connect_req.h) and already
 * in its own spelling, strictly ascending (so no duplicates), at most
 * PROTO_EGRESS_RULES_MAX. Their count, or -1. */
static long
rules_check(const uint8_t *p, size_t n)
{
	char prev[EGRESS_RULE_TEXT_MAX] = "", cur[EGRESS_RULE_TEXT_MAX];
	struct connect_target t;
	size_t start = 0, count = 0;

	if (n == 0)
		return 0;
	for (size_t i = 0; i <= n; i++) {
		size_t len = i - start;

		if (i < n && p[i] != ',')
			continue;
		if (count == PROTO_EGRESS_RULES_MAX ||
		    connect_authority_parse((const char *)p + start, len,
		    &t) != 0 || egress_rule_text(&t, cur) != len ||
		    memcmp(cur, p + start, len) != 0 ||
		    (count > 0 && strcmp(prev, cur) >= 0))
			return -1;
		memcpy(prev, cur, sizeof prev);
		count++;
		start = i + 1;
	}
	return (long)count;
}

/* The ports of an EGRESS_PORTS policy: 1..64, each 1..65535, strictly
 * ascending. */
static int
ports_ok(const uint16_t *port, size_t n)
{
	if (n == 0 || n > PROTO_EGRESS_PORTS_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (port[i] == 0 || (i > 0 && port[i] <= port[i - 1]))
			return 0;
	return 1;
}

long
proto_started_encode(uint8_t *out, size_t cap, unsigned version,
    const struct started_info *s)
{
	struct wr w = wr_init(out, cap);
	size_t rn;

	put_cstr(&w, s->lease_id, PROTO_ID_MAX);
	put_cstr(&w, s->jail, PROTO_ID_MAX);
	wr_u32(&w, s->ping_ms);
	wr_u32(&w, s->liveness_ms);
	if (version < 2)
		return w.bad ? -1 : (long)w.off;
	wr_u8(&w, s->egress);
	switch (s->egress) {
	case EGRESS_NONE:
		break;
	case EGRESS_PORTS:
		if (!ports_ok(s->port, s->nports))
			return -1;
		wr_u16(&w, (uint16_t)s->nports);
		for (size_t i = 0; i < s->nports; i++)
			wr_u16(&w, s->port[i]);
		break;
	case EGRESS_HOSTS:
		rn = strnlen(s->rules, sizeof s->rules);
		if (rn > PROTO_EGRESS_TEXT_MAX ||
		    rules_check((const uint8_t *)s->rules, rn) < 0)
			return -1;
		wr_str16(&w, s->rules, rn);
		break;
	default:
		return -1;
	}
	return w.bad ? -1 : (long)w.off;
}

/* Version 2's tail of STARTED: the egress policy. */
static enum proto_status
take_egress(struct rd *r, struct started_info *s)
{
	const uint8_t *p;
	uint16_t count;
	size_t n;
	long rules;

	if (rd_u8(r, &s->egress))
		return PROTO_TRUNCATED;
	switch (s->egress) {
	case EGRESS_NONE:
		return PROTO_OK;
	case EGRESS_PORTS:
		if (rd_u16(r, &count))
			return PROTO_TRUNCATED;
		if (count == 0 || count > PROTO_EGRESS_PORTS_MAX)
			return PROTO_BAD_EGRESS;
		for (s->nports = 0; s->nports < count; s->nports++)
			if (rd_u16(r, &s->port[s->nports]))
				return PROTO_TRUNCATED;
		return ports_ok(s->port, s->nports) ? PROTO_OK :
		    PROTO_BAD_EGRESS;
	case EGRESS_HOSTS:
		if (rd_str16(r, &p, &n))
			return PROTO_TRUNCATED;
		if (n > PROTO_EGRESS_TEXT_MAX || (rules = rules_check(p, n)) < 0)
			return PROTO_BAD_EGRESS;
		memcpy(s->rules, p, n);		/* no NUL: the grammar */
		s->rules[n] = '\0';
		s->nrules = (size_t)rules;
		return PROTO_OK;
	default:
		return PROTO_BAD_EGRESS;
	}
}

enum proto_status
proto_started_parse(struct started_info *s, unsigned version,
    const uint8_t *p, size_t n)
{
	struct rd r = rd_init(p, n);

	s->egress = EGRESS_UNREPORTED;
	s->nports = s->nrules = 0;
	s->rules[0] = '\0';
	TRY(take_text(&r, s->lease_id, sizeof s->lease_id));
	TRY(take_text(&r, s->jail, sizeof s->jail));
	if (rd_u32(&r, &s->ping_ms) || rd_u32(&r, &s->liveness_ms))
		return PROTO_TRUNCATED;
	if (s->ping_ms == 0 || s->liveness_ms <= s->ping_ms)
		return PROTO_BAD_LENGTH;
	if (version >= 2)
		TRY(take_egress(&r, s));
	return rd_done(&r) ? PROTO_OK : PROTO_TRAILING;
}

void
proto_egress_text(const struct started_info *s, char *out, size_t cap)
{
	size_t o;

	if (cap == 0)
		return;
	switch (s->egress) {
	case EGRESS_NONE:
		snprintf(out, cap, "none");
		return;
	case EGRESS_PORTS:
		o = (size_t)snprintf(out, cap, "ports");
		for (size_t i = 0; i < s->nports && o < cap; i++)
			o += (size_t)snprintf(out + o, cap - o, "%s%u",
			    i ? "," : " ", (unsigned)s->port[i]);
		return;
	case EGRESS_HOSTS:
		snprintf(out, cap, "hosts%s%s", s->rules[0] ? " " : "",
		    s->rules);
		return;
	default:
		snprintf(out, cap, "unreported");
	}
}
