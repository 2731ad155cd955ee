/* mcptap.h - the runner's reading of one lease's MCP traffic: the client's
 * requests (stdin) paired by id with the server's responses (stdout), so
 * that every `tools/call` becomes one record: who (tenant, registration,
 * approval), the tool's name, SHA-256 of the canonical (RFC 8785)
 * arguments and result, isError, bytes and duration; never a value.
 *
 * Two modes. Observing (the default): the caller passes the bytes on
 * unchanged and gives the tap a copy. Nothing the tap reads can end, stall or grow the lease:
 * a line past MCP_LINE_MAX is skipped to its newline, a line that is not
 * a JSON-RPC message is counted and ignored (docs/PROTOCOL.md, "The MCP
 * tap"), the table of requests in flight is fixed, and the server's lines
 * are parsed only while a call of interest is in flight.
 *
 * Every parse is strict (common/mcp/jsonparse.h): a request whose JSON
 * another parser would read differently (a duplicate key, a lone
 * surrogate) is not a request here.
 *
 * Enforcing (mcp_tap_enforce: the approval names the tools the server may
 * expose): the tap stands in the stream. Only whole lines it has read go
 * on, through its two outboxes; a tools/list response is re-written
 * canonically (RFC 8785) without the tools the list does not name; a
 * tools/call to such a tool is answered by the tap with a JSON-RPC error
 * and never reaches the server; a client line that is not JSON-RPC is
 * answered with an error too; a server line that is not JSON-RPC ends
 * the lease (the tap cannot know what it would carry to a lenient
 * client). docs/PROTOCOL.md, "Tool allowlists". */
#ifndef AIRLOCK_MCPTAP_H
#define AIRLOCK_MCPTAP_H

#include <stddef.h>
#include <stdint.h>

#include "common/mcp/jsonparse.h"
#include "common/mcp/ndjson.h"
#include "common/mcp/surface.h"

#define MCP_LINE_MAX (4u << 20)		/* one message, either way */
#define MCP_PENDING_MAX 128		/* requests in flight, tracked */
#define MCP_ID_MAX 96			/* a request id's canonical text */
#define MCP_TOOL_MAX 128		/* a tool name (MCP: 1..128 chars) */
#define MCP_NODES_MAX (1u << 17)	/* JSON values in one message */
#define MCP_MEMBERS_MAX 16384		/* members of one container */
/* Enforcing: what one batch of input may put in an outbox. A re-written
 * line may be longer than the server's (1e2 becomes 100); past this it
 * ends the lease. The runner's own answers to one frame of client bytes
 * get MCP_ANSWERS_MAX bytes; past that the lease ends (a flood). */
#define MCP_OUT_MAX (2 * MCP_LINE_MAX)
#define MCP_ANSWERS_MAX (1u << 20)

/* Whose lease: strings the caller owns for the tap's life. */
struct mcp_who {
	const char *lease, *tenant, *registration, *approval;
};

/* What a tracked request was: a call (a record), a list or initialize
 * (checked: the tool list, the surface pin), or any other (pinned: a
 * response must answer a request in flight). */
enum mcp_kind {
	MK_CALL = 1, MK_LIST_TOOLS, MK_LIST_PROMPTS, MK_LIST_TEMPLATES,
	MK_INIT, MK_OTHER
};

struct mcp_pending {
	int used;			/* 0, or enum mcp_kind */
	int64_t t0;			/* when the request was read */
	uint64_t bytes_in;
	size_t id_len;
	uint8_t id[MCP_ID_MAX];		/* canonical text of the id */
	size_t tool_len;
	char tool[MCP_TOOL_MAX + 1];	/* decoded, NUL-free, maybe cut */
	int tool_cut;
	int has_args;
	uint8_t args_sha256[32];
	size_t version_len;		/* initialize: the version asked */
	uint8_t version[SURFACE_VERSION_MAX];	/* for, canonical */
};

/* Bytes one side is to get, in order: p[off..len). */
struct mcp_outbox {
	uint8_t *p;
	size_t cap, len, off;
};

struct mcp_tap {
	struct mcp_who who;
	int enforce;
	const uint8_t *tools;		/* the canonical tool list, or NULL
					 * (every tool) */
	size_t tools_len;
	struct surface *pin;		/* the approval's surface, or NULL */
	struct mcp_outbox to_server, to_client;	/* enforcing */
	char why[256];			/* why an enforcing lease must end */
	const struct json_node *filtering;	/* the tools array being
					 * re-written, in doc */
	struct ndjson from_client, from_server;
	size_t inflight;		/* pend[] in use */
	uint64_t calls;			/* records written */
	struct mcp_pending pend[MCP_PENDING_MAX];
	struct json_doc doc;
	struct json_node nodes[MCP_NODES_MAX];
	uint32_t scratch[MCP_NODES_MAX];
	uint8_t client_line[MCP_LINE_MAX], server_line[MCP_LINE_MAX];
	uint8_t server_out[MCP_LINE_MAX + 65536];
	uint8_t client_out[MCP_OUT_MAX + 65536 + MCP_ANSWERS_MAX];
};

/* Start reading a lease's traffic (t is large: a caller keeps it static).
 * who's strings must outlive t. */
void mcp_tap_init(struct mcp_tap *t, const struct mcp_who *who);

/* A copy of bytes the client wrote to the server (stdin), and of bytes
 * the server wrote to the client (stdout), in stream order each. */
void mcp_tap_from_client(struct mcp_tap *t, const uint8_t *p, size_t n);
void mcp_tap_from_server(struct mcp_tap *t, const uint8_t *p, size_t n);

/* Enforce the canonical tool list tools[0..n) (toollist.h; it must
 * outlive t), from now on. */
void mcp_tap_enforce(struct mcp_tap *t, const uint8_t *tools, size_t n);

/* Compare, from now on, the server's answers to initialize, tools/list,
 * prompts/list and resources/templates/list with surface s (it must
 * outlive t; surface.h): a difference ends the lease (t->why names the
 * item and the field), an item the pin lacks too. Enforcing: only whole
 * lines pass, every request is paired, a response to none is dropped.
 * docs/PROTOCOL.md, "Surface pins". */
void mcp_tap_pin(struct mcp_tap *t, struct surface *s);

/* Enforcing, the lease's bytes go through the tap instead: the client's
 * p[0..n) and the server's, each taken whole, only while both outboxes
 * are empty (mcp_tap_holding says so). What goes on is then in
 * t->to_server and t->to_client. 0, or -1 when the lease must end, with
 * t->why saying why. */
int mcp_tap_client_bytes(struct mcp_tap *t, const uint8_t *p, size_t n);
int mcp_tap_server_bytes(struct mcp_tap *t, const uint8_t *p, size_t n);

/* 1 while an outbox holds bytes not yet taken (enforcing only). */
static inline int
mcp_tap_holding(const struct mcp_tap *t)
{
	return t->enforce && (t->to_server.off < t->to_server.len ||
	    t->to_client.off < t->to_client.len);
}

/* Take up to max bytes from box: a pointer and their count (0 when
 * empty). The caller passes them on before the next call. */
size_t mcp_outbox_take(struct mcp_outbox *box, size_t max,
    const uint8_t **p);

/* The lease is over: a record for every call still in flight
 * (MO_UNANSWERED). */
void mcp_tap_end(struct mcp_tap *t);

#endif
