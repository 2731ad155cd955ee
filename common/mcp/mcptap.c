/* mcptap.c - one lease's tools/call records, read off its stdio. */
#include "common/mcp/mcptap.h"

#include <stdio.h>
#include <string.h>

#include "common/base/clock.h"
#include "common/base/log.h"
#include "common/base/utf8.h"
#include "common/mcp/jcs.h"
#include "common/mcp/mcplabels.h"
#include "common/mcp/surface.h"
#include "common/mcp/toollist.h"
#include "common/service/metrics.h"

static const struct json_limits line_limits = {
	64, MCP_LINE_MAX, 64, MCP_MEMBERS_MAX, MCP_NODES_MAX
};

void
mcp_tap_init(struct mcp_tap *t, const struct mcp_who *who)
{
	t->who = *who;
	ndjson_init(&t->from_client, t->client_line, sizeof t->client_line);
	ndjson_init(&t->from_server, t->server_line, sizeof t->server_line);
	t->inflight = 0;
	t->calls = 0;
	t->enforce = 0;
	t->tools = NULL;
	t->tools_len = 0;
	t->pin = NULL;
	t->why[0] = '\0';
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

/* The record of one call, and its counter; the call leaves the table.
 * result may be NULL. */
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
	c->used = 0;
	t->inflight--;
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

/* Forget a tracked request: its record first when it is a call. */
static void
forget(struct mcp_tap *t, struct mcp_pending *c)
{
	if (c->used == MK_CALL) {
		record(t, c, MO_UNANSWERED, NULL, 0);
	} else {
		c->used = 0;
		t->inflight--;
	}
}

/* Hold a request of kind by its id: the entry, or NULL (counted) when
 * the id is not a string or number, too long, or the table is full. */
static struct mcp_pending *
track(struct mcp_tap *t, const struct json_node *id, enum mcp_kind kind,
    size_t line_len)
{
	uint8_t key[MCP_ID_MAX];
	size_t n = id_text(&t->doc, id, t->scratch, key);
	struct mcp_pending *c;

	if (n == 0) {
		ignored(MI_UNTRACKED, 0);
		return NULL;
	}
	/* an id reused while in flight: the first answer can no longer be
	 * told from the second's */
	if ((c = find(t, key, n)) != NULL)
		forget(t, c);
	c = NULL;
	for (size_t i = 0; i < MCP_PENDING_MAX && !c; i++)
		if (!t->pend[i].used)
			c = &t->pend[i];
	if (!c) {
		ignored(MI_UNTRACKED, 0);
		return NULL;
	}
	memset(c, 0, sizeof *c);
	c->used = (int)kind;
	c->t0 = mono_ms();
	c->bytes_in = line_len;
	memcpy(c->id, key, n);
	c->id_len = n;
	t->inflight++;
	return c;
}

/* A call's tool name as UTF-8, cut at a character; a NUL as '?' (a C
 * string; the log escapes every other control). */
static void
take_name(struct mcp_pending *c, const struct json_doc *d,
    const struct json_node *name)
{
	size_t pos = 0, at = 0;
	uint32_t cp;

	while (name && name->type == JSON_STRING &&
	    json_str_next(d, name, &pos, &cp)) {
		uint8_t b[4];
		size_t k = utf8_put(cp == 0 ? '?' : cp, b);

		if (k > MCP_TOOL_MAX - at) {
			c->tool_cut = 1;
			break;
		}
		memcpy(c->tool + at, b, k);
		at += k;
	}
	c->tool_len = at;
	c->tool[at] = '\0';
}

/* Is the call's tool one the list names? Its name must be a string of
 * the list's alphabet, whole (a name cut short is not the name). */
static int
allowed(const struct mcp_tap *t, const struct mcp_pending *c,
    const struct json_node *name)
{
	if (!t->tools)
		return 1;
	return name && name->type == JSON_STRING && !c->tool_cut &&
	    toollist_has(t->tools, t->tools_len, (const uint8_t *)c->tool,
	    c->tool_len);
}

/* Append p[0..n) to box: 0, or -1 when it does not fit (cap bytes). */
static int
box_put(struct mcp_outbox *box, size_t cap, const void *p, size_t n)
{
	if (n > cap - box->len)
		return -1;
	memcpy(box->p + box->len, p, n);
	box->len += n;
	return 0;
}

/* The runner's own JSON-RPC error to the client: for the request with
 * canonical id (NULL: "null"), code and a fixed message. 0 or -1 (the
 * answers' share of the outbox is spent). */
static int
answer(struct mcp_tap *t, const uint8_t *id, size_t id_len, int code,
    const char *msg)
{
	char head[64], tail[256];
	int h = snprintf(head, sizeof head, "{\"jsonrpc\":\"2.0\",\"id\":");
	int k = snprintf(tail, sizeof tail, ",\"error\":{\"code\":%d,"
	    "\"message\":\"airlock: %s\"}}\n", code, msg);
	size_t cap = t->to_client.len + MCP_ANSWERS_MAX;

	if (cap > t->to_client.cap)
		cap = t->to_client.cap;
	if (!id) {
		id = (const uint8_t *)"null";
		id_len = 4;
	}
	if (box_put(&t->to_client, cap, head, (size_t)h) != 0 ||
	    box_put(&t->to_client, cap, id, id_len) != 0 ||
	    box_put(&t->to_client, cap, tail, (size_t)k) != 0) {
		snprintf(t->why, sizeof t->why, "the client's lines drew "
		    "more than %u bytes of the runner's answers at once",
		    MCP_ANSWERS_MAX);
		return -1;
	}
	return 0;
}

/* Parse one line: the message when it is a JSON-RPC 2.0 object; else
 * (counted) NULL, why in *why and the parser's verdict in *st. */
static const struct json_node *
message(struct mcp_tap *t, const uint8_t *p, size_t n, int from_server,
    enum mcp_ignored *why, enum json_status *st)
{
	const struct json_node *m, *v;

	*st = json_parse(&t->doc, p, n, &line_limits, t->nodes, MCP_NODES_MAX,
	    t->scratch);
	if (*st != JSON_OK) {
		*why = MI_BAD_JSON;
		ignored(MI_BAD_JSON, from_server);
		return NULL;
	}
	m = &t->doc.nodes[0];
	v = json_get(&t->doc, m, "jsonrpc", 7);
	if (m->type != JSON_OBJECT || !v || v->type != JSON_STRING ||
	    !json_str_eq(&t->doc, v, "2.0", 3)) {
		*why = MI_NOT_JSONRPC;
		ignored(MI_NOT_JSONRPC, from_server);
		return NULL;
	}
	return m;
}

static int
blank(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return 0;
	return 1;
}

enum verdict { PASS, DROP, FAIL };

/* Enforcing, a request the tap must pair with its answer but cannot
 * hold is not passed on: answered instead. */
static enum verdict
untrackable(struct mcp_tap *t)
{
	return answer(t, NULL, 0, -32600, "this request's id cannot be "
	    "tracked (a string or number of at most 96 bytes, at most 128 "
	    "requests in flight)") ? FAIL : DROP;
}

/* Which requests the tap holds: calls always; tools/list when a list
 * filters it; with a pin, the answers it checks and every other request
 * (so no response passes that answers nothing). 0: not held. */
static int
request_kind(const struct mcp_tap *t, const struct json_node *method)
{
	static const struct { const char *m; size_t n; int kind; } pinned[] = {
		{ "initialize", 10, MK_INIT },
		{ "tools/list", 10, MK_LIST_TOOLS },
		{ "prompts/list", 12, MK_LIST_PROMPTS },
		{ "resources/templates/list", 24, MK_LIST_TEMPLATES },
	};

	if (json_str_eq(&t->doc, method, "tools/call", 10))
		return MK_CALL;
	if (!t->pin)
		return t->enforce && t->tools && json_str_eq(&t->doc, method,
		    "tools/list", 10) ? MK_LIST_TOOLS : 0;
	for (size_t i = 0; i < sizeof pinned / sizeof *pinned; i++)
		if (json_str_eq(&t->doc, method, pinned[i].m, pinned[i].n))
			return pinned[i].kind;
	return MK_OTHER;
}

/* One line from the client. Observing, the verdict is always PASS. */
static enum verdict
client_line(struct mcp_tap *t, const uint8_t *p, size_t n)
{
	const struct json_node *m, *method, *id, *params, *name = NULL;
	struct mcp_pending *c;
	enum mcp_ignored why;
	enum json_status st;
	int kind;

	if (t->enforce && blank(p, n))
		return DROP;
	if ((m = message(t, p, n, 0, &why, &st)) == NULL) {
		if (!t->enforce)
			return PASS;
		return answer(t, NULL, 0, why == MI_BAD_JSON ? -32700 :
		    -32600, why == MI_BAD_JSON ? "not JSON the runner reads "
		    "(strict RFC 8259: no duplicate keys, valid UTF-8)" :
		    "not a JSON-RPC 2.0 message (batches are not passed)") ?
		    FAIL : DROP;
	}
	method = json_get(&t->doc, m, "method", 6);
	id = json_get(&t->doc, m, "id", 2);
	params = json_get(&t->doc, m, "params", 6);
	if (!method || method->type != JSON_STRING || !id)
		return PASS;		/* a notification or a response */
	kind = request_kind(t, method);
	if (kind != MK_CALL && kind != 0) {
		if ((c = track(t, id, kind, n)) == NULL)
			return untrackable(t);
		/* the answer may be in the version asked for */
		if (kind == MK_INIT)
			c->version_len = surface_asked_version(&t->doc, params,
			    t->scratch, c->version);
		return PASS;
	}
	if (kind == 0)
		return PASS;
	if (params)
		name = json_get(&t->doc, params, "name", 4);
	if ((c = track(t, id, MK_CALL, n)) == NULL)
		return t->enforce ? untrackable(t) : PASS;
	take_name(c, &t->doc, name);
	if (params && (params = json_get(&t->doc, params, "arguments", 9)) &&
	    jcs_sha256(&t->doc, params, t->scratch, c->args_sha256) == 0)
		c->has_args = 1;
	if (!t->enforce || allowed(t, c, name))
		return PASS;
	if (answer(t, c->id, c->id_len, -32602, "this tool is not allowed "
	    "by the registration's approval") != 0)
		return FAIL;
	record(t, c, MO_DENIED, NULL, 0);
	return DROP;
}

/* jcs_omit: a tool of the tools/list result not in the list. */
static int
omit_tool(void *ctx, const struct json_doc *d, const struct json_node *array,
    const struct json_node *elem)
{
	const struct mcp_tap *t = ctx;
	const struct json_node *name;
	char buf[TOOLLIST_NAME_MAX + 1];
	long n;

	if (array != t->filtering || !t->tools)
		return 0;
	name = json_get(d, elem, "name", 4);
	if (!name || name->type != JSON_STRING ||
	    (n = json_str_copy(d, name, buf, sizeof buf)) < 0)
		return 1;
	return !toollist_has(t->tools, t->tools_len, (const uint8_t *)buf,
	    (size_t)n);
}

/* A tools/list response, enforcing: the whole message canonically, the
 * result's tools not in the list left out. */
static enum verdict
filtered_list(struct mcp_tap *t, const struct json_node *m,
    const struct json_node *res)
{
	const struct json_node *tools = json_get(&t->doc, res, "tools", 5);
	struct jcs_buf b = { t->to_client.p + t->to_client.len,
		t->to_client.cap - t->to_client.len, 0 };
	struct jcs_sink s = { jcs_buf_put, &b };
	struct jcs_omit o = { omit_tool, t };

	if (!tools || tools->type != JSON_ARRAY) {
		snprintf(t->why, sizeof t->why, "the server's tools/list "
		    "result has no tools array");
		return FAIL;
	}
	if (b.cap > MCP_OUT_MAX)
		b.cap = MCP_OUT_MAX;
	t->filtering = tools;
	if (jcs_write_omitting(&t->doc, m, &s, t->scratch, &o) != 0 ||
	    b.len + 1 > b.cap) {
		snprintf(t->why, sizeof t->why, "the server's tools/list "
		    "response has no canonical form that fits (a number "
		    "past a double, or past %u bytes)", MCP_OUT_MAX);
		return FAIL;
	}
	b.p[b.len++] = '\n';
	t->to_client.len += b.len;
	return DROP;		/* written already */
}

/* A pin failure counted (M_MCP_PIN_FAILURES): how, and in what. */
static void
pin_failed(enum surface_diff how, enum mcp_pin_item item)
{
	enum mcp_pin_kind k = how == SD_UNPINNED ? MPK_UNPINNED :
	    how == SD_MALFORMED ? MPK_MALFORMED : MPK_CHANGED;

	metric_add(M_MCP_PIN_FAILURES, (unsigned)k * MPI_N_ + item, 1);
}

/* A pinned answer's surface against the pin: 0, or -1 with t->why. The
 * tools a list leaves out are not compared (the client never gets
 * them). */
static int
pinned_answer(struct mcp_tap *t, const struct mcp_pending *c, int kind,
    const struct json_node *res)
{
	enum surface_kind k = kind == MK_LIST_TOOLS ? SK_TOOL :
	    kind == MK_LIST_PROMPTS ? SK_PROMPT : SK_TEMPLATE;
	enum mcp_pin_item item = k == SK_TOOL ? MPI_TOOL : k == SK_PROMPT ?
	    MPI_PROMPT : MPI_TEMPLATE;
	enum surface_diff how;
	const struct json_node *arr;
	char why[200];
	size_t i;

	if (kind == MK_INIT) {
		if ((how = surface_check_init(t->pin, &t->doc, res,
		    c->version, c->version_len, t->scratch, why,
		    sizeof why)) == SD_SAME)
			return 0;
		pin_failed(how, MPI_INITIALIZE);
		snprintf(t->why, sizeof t->why, "surface pin: %s", why);
		return -1;
	}
	arr = res->type == JSON_OBJECT ? json_get(&t->doc, res,
	    surface_kind_keys[k], strlen(surface_kind_keys[k])) : NULL;
	if (!arr || arr->type != JSON_ARRAY) {
		pin_failed(SD_MALFORMED, item);
		snprintf(t->why, sizeof t->why, "surface pin: a list result "
		    "without its %s array", surface_kind_keys[k]);
		return -1;
	}
	t->filtering = arr;
	i = json_index(&t->doc, arr) + 1;
	for (uint32_t m = 0; m < arr->count; m++) {
		const struct json_node *e = &t->doc.nodes[i];

		i = e->end;
		if (k == SK_TOOL && omit_tool(t, &t->doc, arr, e))
			continue;
		if ((how = surface_check_item(t->pin, k, &t->doc, e,
		    t->scratch, why, sizeof why)) != SD_SAME) {
			pin_failed(how, item);
			snprintf(t->why, sizeof t->why, "surface pin: %s "
			    "(review the server again)", why);
			return -1;
		}
	}
	return 0;
}

/* One line from the server. Observing, the verdict is always PASS. */
static enum verdict
server_line(struct mcp_tap *t, const uint8_t *p, size_t n)
{
	const struct json_node *m, *id, *res, *err, *v;
	uint8_t key[MCP_ID_MAX], digest[32];
	struct mcp_pending *c;
	enum mcp_ignored why;
	enum json_status st;
	size_t k;

	if (t->enforce && blank(p, n))
		return PASS;
	if ((m = message(t, p, n, 1, &why, &st)) == NULL) {
		snprintf(t->why, sizeof t->why, "the server wrote a line "
		    "that is not a JSON-RPC message (%s): with a tool list "
		    "in the approval only messages the runner reads pass",
		    why == MI_BAD_JSON ? json_status_name(st) : "not_jsonrpc");
		return t->enforce ? FAIL : PASS;
	}
	if (json_get(&t->doc, m, "method", 6))
		return PASS;		/* a request or notification */
	id = json_get(&t->doc, m, "id", 2);
	res = json_get(&t->doc, m, "result", 6);
	err = json_get(&t->doc, m, "error", 5);
	if (!id || (!res) == (!err)) {
		ignored(MI_NOT_JSONRPC, 1);
		snprintf(t->why, sizeof t->why, "the server wrote a "
		    "response with both or neither of result and error");
		return t->enforce ? FAIL : PASS;
	}
	k = id_text(&t->doc, id, t->scratch, key);
	/* enforcing too: the answers to requests the tap does not hold
	 * (initialize, ping, the other lists) pass; a client that gets an
	 * answer it never asked for drops it. What the tap must see, it
	 * holds: every tools/list is tracked or refused. */
	if (k == 0 || (c = find(t, key, k)) == NULL) {
		ignored(MI_UNMATCHED, 1);
		/* pinned, every request is held: this answers none, and
		 * could carry a surface no check saw */
		return t->pin ? DROP : PASS;
	}
	if (c->used != MK_CALL) {
		int kind = c->used;

		c->used = 0;
		t->inflight--;
		if (!res || kind == MK_OTHER)
			return PASS;
		if (t->pin && pinned_answer(t, c, kind, res) != 0)
			return FAIL;
		return kind == MK_LIST_TOOLS && t->tools ?
		    filtered_list(t, m, res) : PASS;
	}
	if (jcs_sha256(&t->doc, res ? res : err, t->scratch, digest) != 0) {
		record(t, c, err ? MO_RPC_ERROR : MO_OK, NULL, n);
		return PASS;
	}
	v = res ? json_get(&t->doc, res, "isError", 7) : NULL;
	record(t, c, err ? MO_RPC_ERROR : v && v->type == JSON_TRUE ?
	    MO_TOOL_ERROR : MO_OK, digest, n);
	return PASS;
}

/* Cut p[0..n) into lines for line_fn, enforcing passing each line on
 * (with its newline) into box as the verdict says. 0, or -1 (t->why). */
static int
feed(struct mcp_tap *t, struct ndjson *f, int from_server,
    struct mcp_outbox *box, const uint8_t *p, size_t n)
{
	while (n > 0) {
		const uint8_t *line;
		size_t len, used;
		enum verdict v = PASS;

		switch (ndjson_take(f, p, n, &used, &line, &len)) {
		case NDJSON_LINE:
			if (!from_server)
				v = client_line(t, line, len);
			else if (t->enforce || t->inflight > 0)
				v = server_line(t, line, len);
			/* observing with no call in flight, no server
			 * line can be an answer: only newlines are sought */
			if (v == FAIL)
				return -1;
			if (t->enforce && v == PASS &&
			    (box_put(box, box->cap, line, len) != 0 ||
			    box_put(box, box->cap, "\n", 1) != 0)) {
				snprintf(t->why, sizeof t->why, "the "
				    "runner's outbox is full");
				return -1;
			}
			break;
		case NDJSON_TOO_LONG:
			ignored(MI_TOO_LONG, from_server);
			if (t->enforce && from_server) {
				snprintf(t->why, sizeof t->why, "the "
				    "server wrote a line longer than %u bytes",
				    MCP_LINE_MAX);
				return -1;
			}
			if (t->enforce && answer(t, NULL, 0, -32600, "a line "
			    "longer than the runner takes (4 MiB)") != 0)
				return -1;
			break;
		case NDJSON_NEED:
			break;
		}
		p += used;
		n -= used;
	}
	return 0;
}

void
mcp_tap_from_client(struct mcp_tap *t, const uint8_t *p, size_t n)
{
	(void)feed(t, &t->from_client, 0, NULL, p, n);
}

void
mcp_tap_from_server(struct mcp_tap *t, const uint8_t *p, size_t n)
{
	(void)feed(t, &t->from_server, 1, NULL, p, n);
}

void
mcp_tap_enforce(struct mcp_tap *t, const uint8_t *tools, size_t n)
{
	t->enforce = 1;
	t->tools = tools;
	t->tools_len = n;
	t->to_server = (struct mcp_outbox){ t->server_out,
		sizeof t->server_out, 0, 0 };
	t->to_client = (struct mcp_outbox){ t->client_out,
		sizeof t->client_out, 0, 0 };
}

/* An empty box starts over at its beginning. */
static void
box_reset(struct mcp_outbox *box)
{
	if (box->off == box->len)
		box->off = box->len = 0;
}

int
mcp_tap_client_bytes(struct mcp_tap *t, const uint8_t *p, size_t n)
{
	box_reset(&t->to_server);
	box_reset(&t->to_client);
	return feed(t, &t->from_client, 0, &t->to_server, p, n);
}

int
mcp_tap_server_bytes(struct mcp_tap *t, const uint8_t *p, size_t n)
{
	box_reset(&t->to_client);
	return feed(t, &t->from_server, 1, &t->to_client, p, n);
}

void
mcp_tap_pin(struct mcp_tap *t, struct surface *s)
{
	if (!t->enforce)
		mcp_tap_enforce(t, NULL, 0);
	t->pin = s;
}

size_t
mcp_outbox_take(struct mcp_outbox *box, size_t max, const uint8_t **p)
{
	size_t n = box->len - box->off;

	if (n > max)
		n = max;
	*p = box->p + box->off;
	box->off += n;
	return n;
}

void
mcp_tap_end(struct mcp_tap *t)
{
	for (size_t i = 0; i < MCP_PENDING_MAX; i++)
		if (t->pend[i].used)
			forget(t, &t->pend[i]);
}
