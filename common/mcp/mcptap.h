/* mcptap.h - the runner's reading of one lease's MCP traffic: the client's
 * requests (stdin) paired by id with the server's responses (stdout), so
 * that every `tools/call` becomes one record: who (tenant, registration,
 * approval), the tool's name, SHA-256 of the canonical (RFC 8785)
 * arguments and result, isError, bytes and duration; never a value.
 *
 * Observation only: the caller passes the bytes on unchanged and gives
 * the tap a copy. Nothing the tap reads can end, stall or grow the lease:
 * a line past MCP_LINE_MAX is skipped to its newline, a line that is not
 * a JSON-RPC message is counted and ignored (docs/PROTOCOL.md, "The MCP
 * tap"), the table of requests in flight is fixed, and the server's lines
 * are parsed only while a call of interest is in flight.
 *
 * Every parse is strict (common/mcp/jsonparse.h): a request whose JSON
 * another parser would read differently (a duplicate key, a lone
 * surrogate) is not a request here. */
#ifndef AIRLOCK_MCPTAP_H
#define AIRLOCK_MCPTAP_H

#include <stddef.h>
#include <stdint.h>

#include "common/mcp/jsonparse.h"
#include "common/mcp/ndjson.h"

#define MCP_LINE_MAX (4u << 20)		/* one message, either way */
#define MCP_PENDING_MAX 128		/* requests in flight, tracked */
#define MCP_ID_MAX 96			/* a request id's canonical text */
#define MCP_TOOL_MAX 128		/* a tool name (MCP: 1..128 chars) */
#define MCP_NODES_MAX (1u << 17)	/* JSON values in one message */
#define MCP_MEMBERS_MAX 16384		/* members of one container */

/* Label values of M_MCP_CALLS (metrics.h): how a tools/call ended. */
enum mcp_outcome {
	MO_OK,			/* a result, isError absent or false */
	MO_TOOL_ERROR,		/* a result with isError true */
	MO_RPC_ERROR,		/* a JSON-RPC error response */
	MO_UNANSWERED,		/* the lease ended first */
	MO_N_
};

/* Label values of M_MCP_LINES_IGNORED: why a line taught the tap
 * nothing (by direction: reason * 2 + from_server). */
enum mcp_ignored {
	MI_TOO_LONG,		/* past MCP_LINE_MAX */
	MI_BAD_JSON,		/* refused by the strict parser */
	MI_NOT_JSONRPC,		/* JSON, but not a request, response or
				 * notification */
	MI_UNTRACKED,		/* a request the table had no room or id for */
	MI_UNMATCHED,		/* a response to no tracked request */
	MI_N_
};

/* Whose lease: strings the caller owns for the tap's life. */
struct mcp_who {
	const char *lease, *tenant, *registration, *approval;
};

struct mcp_pending {
	int used;
	int64_t t0;			/* when the request was read */
	uint64_t bytes_in;
	size_t id_len;
	uint8_t id[MCP_ID_MAX];		/* canonical text of the id */
	size_t tool_len;
	char tool[MCP_TOOL_MAX + 1];	/* decoded, NUL-free, maybe cut */
	int tool_cut;
	int has_args;
	uint8_t args_sha256[32];
};

struct mcp_tap {
	struct mcp_who who;
	struct ndjson from_client, from_server;
	size_t inflight;		/* pend[] in use */
	uint64_t calls;			/* records written */
	struct mcp_pending pend[MCP_PENDING_MAX];
	struct json_doc doc;
	struct json_node nodes[MCP_NODES_MAX];
	uint32_t scratch[MCP_NODES_MAX];
	uint8_t client_line[MCP_LINE_MAX], server_line[MCP_LINE_MAX];
};

/* Start reading a lease's traffic (t is large: a caller keeps it static).
 * who's strings must outlive t. */
void mcp_tap_init(struct mcp_tap *t, const struct mcp_who *who);

/* A copy of bytes the client wrote to the server (stdin), and of bytes
 * the server wrote to the client (stdout), in stream order each. */
void mcp_tap_from_client(struct mcp_tap *t, const uint8_t *p, size_t n);
void mcp_tap_from_server(struct mcp_tap *t, const uint8_t *p, size_t n);

/* The lease is over: a record for every call still in flight
 * (MO_UNANSWERED). */
void mcp_tap_end(struct mcp_tap *t);

/* Stable snake_case names of the label values (the metrics' tables). */
extern const char *const mcp_outcome_names[MO_N_];
extern const char *const mcp_ignored_names[MI_N_];
extern const char *const mcp_direction_names[2];
const char *mcp_outcome_name(enum mcp_outcome o);
const char *mcp_ignored_name(enum mcp_ignored i);

#endif
