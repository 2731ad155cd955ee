/* mcplabels.c - the tap's and the metrics' shared words. */
#include "common/mcp/mcplabels.h"

const char *const mcp_outcome_names[MO_N_] = {
	"ok", "tool_error", "rpc_error", "unanswered", "denied"
};
const char *const mcp_ignored_names[MI_N_] = {
	"too_long", "bad_json", "not_jsonrpc", "untracked", "unmatched"
};
const char *const mcp_direction_names[2] = { "from_client", "from_server" };
const char *const mcp_pin_kind_names[MPK_N_] = {
	"changed", "unpinned", "malformed"
};
const char *const mcp_pin_item_names[MPI_N_] = {
	"initialize", "tool", "prompt", "resource_template"
};

const char *
mcp_outcome_name(enum mcp_outcome o)
{
	return (unsigned)o < MO_N_ ? mcp_outcome_names[o] : "unknown";
}
