/* applets.h - the one applet table, sorted by name (a unit test checks it).
 * Included twice by main.c: once for prototypes, once for the table.
 * APPLET(name, one-line summary) */
APPLET(probe, "health check: GET a --metrics URL, exit 0 on 200 (for HEALTHCHECK)")
APPLET(relay, "stand in for an MCP server: relay its stdio to a runner lease")
APPLET(review, "staff review gate: queue, audit log, signed approvals")
APPLET(runner, "serve leases: authenticate, check, spawn in a jail, relay stdio")
APPLET(sandbox, "run tenant code tools (Python, Java) once per request in a fresh jail")
APPLET(seccomp, "the syscall policy: list, explain, export for Docker, run a command under it")
