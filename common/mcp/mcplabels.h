/* mcplabels.h - the fixed words the MCP tap's log records and the
 * runner's metrics share: how a tools/call ended, why a line was ignored,
 * which way it went, and what failed a surface pin. Their own module so
 * that metrics (which renders them) and mcptap (which counts them) do not
 * include each other. No word here ever comes from a tenant or a server. */
#ifndef AIRLOCK_MCPLABELS_H
#define AIRLOCK_MCPLABELS_H

/* Label values of M_MCP_CALLS (metrics.h): how a tools/call ended. */
enum mcp_outcome {
	MO_OK,			/* a result, isError absent or false */
	MO_TOOL_ERROR,		/* a result with isError true */
	MO_RPC_ERROR,		/* a JSON-RPC error response */
	MO_UNANSWERED,		/* the lease ended first */
	MO_DENIED,		/* not in the approval's tool list: answered
				 * by the runner, never sent to the server */
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

/* Label values of M_MCP_PIN_FAILURES: what in a server's answer differed
 * from its surface pin (kind), and where (item); kind * MPI_N_ + item. */
enum mcp_pin_kind {
	MPK_CHANGED,		/* a pinned item or initialize member changed,
				 * gained or lost a member */
	MPK_UNPINNED,		/* an item the pin does not hold (added) */
	MPK_MALFORMED,		/* not the shape the pin can be compared with */
	MPK_N_
};
enum mcp_pin_item {
	MPI_INITIALIZE, MPI_TOOL, MPI_PROMPT, MPI_TEMPLATE, MPI_N_
};

/* Stable snake_case names, indexed by the enums above. */
extern const char *const mcp_outcome_names[MO_N_];
extern const char *const mcp_ignored_names[MI_N_];
extern const char *const mcp_direction_names[2];
extern const char *const mcp_pin_kind_names[MPK_N_];
extern const char *const mcp_pin_item_names[MPI_N_];

/* An outcome's name; "unknown" out of range. */
const char *mcp_outcome_name(enum mcp_outcome o);

#endif
