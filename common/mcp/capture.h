/* capture.h - airlock as an MCP client of a jailed server, once, to
 * capture its surface (review submit --capture; docs/REVIEW.md, "Surface
 * pins"): initialize, notifications/initialized, then tools/list,
 * prompts/list, resources/templates/list and resources/list for each
 * capability the server announced, every nextCursor page.
 *
 * The server is hostile: every line it writes is parsed strictly
 * (jsonparse.h) and must be JSON-RPC; requests it makes are answered
 * with an error (-32601); a response to no request, a line past
 * MCP_LINE_MAX, more than CAPTURE_READ_MAX bytes in all, more than
 * CAPTURE_PAGES_MAX pages of one list, a repeated cursor, or the
 * deadline passing ends the capture with a refusal that says which. */
#ifndef AIRLOCK_CAPTURE_H
#define AIRLOCK_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "common/lock/lockjail.h"

#define CAPTURE_PROTOCOL "2025-11-25"	/* what the capture asks for */
#define CAPTURE_READ_MAX (64u << 20)	/* bytes of the server's stdout */
#define CAPTURE_PAGES_MAX 64		/* pages of one list */
#define CAPTURE_TAIL 600		/* the server's stderr kept */

struct capture_result {
	uint8_t *surface;	/* the document (surface.h), malloc'd */
	size_t len;
	size_t resources;	/* resources/list items: seen, not pinned */
	char tail[CAPTURE_TAIL + 1];	/* the end of the server's stderr */
	size_t tail_len;
};

/* Talk to a server whose stdin is to, stdout from and stderr err_fd
 * (non-blocking pipes; stderr drained into out->tail) until the surface
 * is whole or deadline (clock.h milliseconds) passes. 0 with
 * out->surface set, or -1 with why in err. */
int capture_run(int to, int from, int err_fd, int64_t deadline,
    struct capture_result *out, char *err, size_t errcap);

/* capture_run against argv started in a one-shot jail of its own
 * (common/lock/lockjail.h: uid or ns mode, no secret in its
 * environment), killed with all it started at the end. 0, or -1 with
 * why in err, and the end of the server's stderr (escaped). */
int capture_jailed(const struct lock_jail_opts *o,
    const struct lock_jail_view *v, char *const *argv,
    struct capture_result *out, char *err, size_t errcap);

#endif
