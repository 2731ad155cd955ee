/* mcptap.c - one lease's tools/call records, read off its stdio. */
#include "common/mcp/mcptap.h"

#include <string.h>

#include "common/base/clock.h"
#include "common/base/log.h"
#include "common/mcp/jcs.h"
#include "common/service/metrics.h"

static const struct json_limits line_limits = {
	64, MCP_LINE_MAX, 64, MCP_MEMBERS_MAX, MCP_NODES_MAX
};

const char *const mcp_outcome_names[MO_N_] = {
	"ok", "tool_error", "rpc_error", "unanswered"
};
const char *const mcp_ignored_names[MI_N_] = {
	"too_long", "bad_json", "not_jsonrpc", "untracked", "unmatched"
};
const char *const mcp_direction_names[2] = { "from_client", "from_server" };

const char *
mcp_outcome_name(enum mcp_outcome o)
{
	return (unsigned)o < MO_N_ ? mcp_outcome_names[o] : "unknown";
}

const char *
mcp_ignored_name(enum mcp_ignored i)
{
	return (unsigned)i < MI_N_ ? mcp_ignored_names[i] : "unknown";
}

void
mcp_tap_init(struct mcp_tap *t, const struct mcp_who *who)
{
	t->who = *who;
	ndjson_init(&t->from_client, t->client_line, sizeof t->client_line);
	ndjson_init(&t->from_server, t->server_line, sizeof t->server_line);
	t->inflight = 0;
	t->calls = 0;
	for (size_t i = 0; i < MCP_PENDING_MAX; i++)
		t->pend[i].used = 0;
}

static void
ignored(enum mcp_ignored why, int from_server)
{
	metric_add(M_MCP_LINES_IGNORED, (unsigned)why * 2 +
	    (unsigned)from_server, 1);
}

static void
hex(const uint8_t d[32], char out[65])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < 32; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[64] = '\0';
}

/* The record of one call, and its counter. result may be NULL. */
static void
record(struct mcp_tap *t, struct mcp_pending *c, enum mcp_outcome o,
    const uint8_t *result_sha256, uint64_t bytes_out)
{
	char args[65] = "", result[65] = "";

	if (c->has_args)
		hex(c->args_sha256, args);
	if (result_sha256)
		hex(result_sha256, result);
	metric_add(M_MCP_CALLS, o, 1);
	t->calls++;
	log_event(LOG_INFO, "mcp call", (struct log_field[]){
	    LF_STR("lease", t->who.lease), LF_STR("tenant", t->who.tenant),
	    LF_STR("registration", t->who.registration),
	    LF_STR("approval", t->who.approval), LF_STR("tool", c->tool),
	    LF_NUM("tool_cut", c->tool_cut),
	    LF_STR("outcome", mcp_outcome_name(o)),
	    LF_NUM("is_error", o == MO_TOOL_ERROR),
	    LF_STR("args_sha256", args), LF_STR("result_sha256", result),
	    LF_NUM("bytes_in", c->bytes_in), LF_NUM("bytes_out", bytes_out),
	    LF_NUM("duration_ms", mono_ms() - c->t0) }, 13);
	c->used = 0;
	t->inflight--;
}

/* The canonical text of an id (a string or a number) into out: its
 * length, or 0 when it is neither or too long. */
static size_t
id_text(const struct json_doc *d, const struct json_node *id,
    uint32_t *scratch, uint8_t out[MCP_ID_MAX])
{
	struct jcs_buf b = { out, MCP_ID_MAX, 0 };
	struct jcs_sink s = { jcs_buf_put, &b };

	if (!id || (id->type != JSON_STRING && id->type != JSON_NUMBER) ||
	    jcs_write(d, id, &s, scratch) != 0)
		return 0;
	return b.len;
}

static struct mcp_pending *
find(struct mcp_tap *t, const uint8_t *id, size_t n)
{
	for (size_t i = 0; i < MCP_PENDING_MAX; i++)
		if (t->pend[i].used && t->pend[i].id_len == n &&
		    memcmp(t->pend[i].id, id, n) == 0)
			return &t->pend[i];
	return NULL;
}

/* A tools/call request: held until its response. */
static void
track_call(struct mcp_tap *t, const struct json_node *id,
    const struct json_node *params, size_t line_len)
{
	const struct json_doc *d = &t->doc;
	const struct json_node *name = params ?
	    json_get(d, params, "name", 4) : NULL;
	const struct json_node *args = params ?
	    json_get(d, params, "arguments", 9) : NULL;
	uint8_t key[MCP_ID_MAX];
	size_t n = id_text(d, id, t->scratch, key);
	struct mcp_pending *c;

	if (n == 0) {
		ignored(MI_UNTRACKED, 0);
		return;
	}
	/* an id reused while in flight: the first call's answer can no
	 * longer be told from the second's */
	if ((c = find(t, key, n)) != NULL)
		record(t, c, MO_UNANSWERED, NULL, 0);
	c = NULL;
	for (size_t i = 0; i < MCP_PENDING_MAX && !c; i++)
		if (!t->pend[i].used)
			c = &t->pend[i];
	if (!c) {
		ignored(MI_UNTRACKED, 0);
		return;
	}
	memset(c, 0, sizeof *c);
	c->used = 1;
	c->t0 = mono_ms();
	c->bytes_in = line_len;
	memcpy(c->id, key, n);
	c->id_len = n;
	if (name && name->type == JSON_STRING) {
		size_t pos = 0, at = 0;
		uint32_t cp;

		/* the name as UTF-8, cut at a character; a NUL as '?'
		 * (a C string; the log escapes every other control) */
		while (json_str_next(d, name, &pos, &cp)) {
			uint8_t b[4];
			size_t k = json_utf8_put(cp == 0 ? '?' : cp, b);

			if (k > MCP_TOOL_MAX - at) {
				c->tool_cut = 1;
				break;
			}
			memcpy(c->tool + at, b, k);
			at += k;
		}
		c->tool_len = at;
	}
	c->tool[c->tool_len] = '\0';
	if (args && jcs_sha256(d, args, t->scratch, c->args_sha256) == 0)
		c->has_args = 1;
	t->inflight++;
}

/* Parse one line; NULL (counted) when it is not a JSON-RPC 2.0 object. */
static const struct json_node *
message(struct mcp_tap *t, const uint8_t *p, size_t n, int from_server)
{
	const struct json_node *m, *v;

	if (json_parse(&t->doc, p, n, &line_limits, t->nodes, MCP_NODES_MAX,
	    t->scratch) != JSON_OK) {
		ignored(MI_BAD_JSON, from_server);
		return NULL;
	}
	m = &t->doc.nodes[0];
	v = json_get(&t->doc, m, "jsonrpc", 7);
	if (m->type != JSON_OBJECT || !v || v->type != JSON_STRING ||
	    !json_str_eq(&t->doc, v, "2.0", 3)) {
		ignored(MI_NOT_JSONRPC, from_server);
		return NULL;
	}
	return m;
}

static void
client_line(struct mcp_tap *t, const uint8_t *p, size_t n)
{
	const struct json_node *m = message(t, p, n, 0), *method, *id;

	if (!m)
		return;
	method = json_get(&t->doc, m, "method", 6);
	id = json_get(&t->doc, m, "id", 2);
	if (method && method->type == JSON_STRING && id &&
	    json_str_eq(&t->doc, method, "tools/call", 10))
		track_call(t, id, json_get(&t->doc, m, "params", 6), n);
}

static void
server_line(struct mcp_tap *t, const uint8_t *p, size_t n)
{
	const struct json_node *m = message(t, p, n, 1), *id, *res, *err, *v;
	uint8_t key[MCP_ID_MAX], digest[32];
	struct mcp_pending *c;
	size_t k;

	if (!m || json_get(&t->doc, m, "method", 6))
		return;			/* a request or notification */
	id = json_get(&t->doc, m, "id", 2);
	res = json_get(&t->doc, m, "result", 6);
	err = json_get(&t->doc, m, "error", 5);
	if (!id || (!res) == (!err)) {
		ignored(MI_NOT_JSONRPC, 1);
		return;
	}
	k = id_text(&t->doc, id, t->scratch, key);
	if (k == 0 || (c = find(t, key, k)) == NULL) {
		ignored(MI_UNMATCHED, 1);
		return;
	}
	if (jcs_sha256(&t->doc, res ? res : err, t->scratch, digest) != 0) {
		record(t, c, err ? MO_RPC_ERROR : MO_OK, NULL, n);
		return;
	}
	v = res ? json_get(&t->doc, res, "isError", 7) : NULL;
	record(t, c, err ? MO_RPC_ERROR : v && v->type == JSON_TRUE ?
	    MO_TOOL_ERROR : MO_OK, digest, n);
}

void
mcp_tap_from_client(struct mcp_tap *t, const uint8_t *p, size_t n)
{
	while (n > 0) {
		const uint8_t *line;
		size_t len, used;

		switch (ndjson_take(&t->from_client, p, n, &used, &line,
		    &len)) {
		case NDJSON_LINE:
			client_line(t, line, len);
			break;
		case NDJSON_TOO_LONG:
			ignored(MI_TOO_LONG, 0);
			break;
		case NDJSON_NEED:
			break;
		}
		p += used;
		n -= used;
	}
}

void
mcp_tap_from_server(struct mcp_tap *t, const uint8_t *p, size_t n)
{
	while (n > 0) {
		const uint8_t *line;
		size_t len, used;

		switch (ndjson_take(&t->from_server, p, n, &used, &line,
		    &len)) {
		case NDJSON_LINE:
			/* with no call in flight no line can be its answer:
			 * the server's other output costs a newline search */
			if (t->inflight > 0)
				server_line(t, line, len);
			break;
		case NDJSON_TOO_LONG:
			ignored(MI_TOO_LONG, 1);
			break;
		case NDJSON_NEED:
			break;
		}
		p += used;
		n -= used;
	}
}

void
mcp_tap_end(struct mcp_tap *t)
{
	for (size_t i = 0; i < MCP_PENDING_MAX; i++)
		if (t->pend[i].used)
			record(t, &t->pend[i], MO_UNANSWERED, NULL, 0);
}
