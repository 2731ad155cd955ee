/* proto.c - lease frame payloads: strict parsers and their encoders. */
#include "common/wire/proto.h"

#include <string.h>

#include "common/base/bounded_rw.h"

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

long
proto_started_encode(uint8_t *out, size_t cap, const struct started_info *s)
{
	struct wr w = wr_init(out, cap);

	put_cstr(&w, s->lease_id, PROTO_ID_MAX);
	put_cstr(&w, s->jail, PROTO_ID_MAX);
	wr_u32(&w, s->ping_ms);
	wr_u32(&w, s->liveness_ms);
	return w.bad ? -1 : (long)w.off;
}

enum proto_status
proto_started_parse(struct started_info *s, const uint8_t *p, size_t n)
{
	struct rd r = rd_init(p, n);

	TRY(take_text(&r, s->lease_id, sizeof s->lease_id));
	TRY(take_text(&r, s->jail, sizeof s->jail));
	if (rd_u32(&r, &s->ping_ms) || rd_u32(&r, &s->liveness_ms))
		return PROTO_TRUNCATED;
	if (s->ping_ms == 0 || s->liveness_ms <= s->ping_ms)
		return PROTO_BAD_LENGTH;
	return rd_done(&r) ? PROTO_OK : PROTO_TRAILING;
}
