/* lease_test.c - the lease's pure parts, without root: the refusal code
 * each guard verdict sends, and how an end is counted. */
#include <string.h>

#include "common/service/lease.h"
#include "common/service/metrics.h"
#include "common/wire/proto.h"
#include "tap.h"

static void
test_guard_codes(void)
{
	static const struct {
		enum guard_verdict v;
		unsigned code;
	} map[] = {
		{ GUARD_BAD_LAUNCHER, LERR_LAUNCHER },
		{ GUARD_INLINE_CODE, LERR_INLINE_CODE },
		{ GUARD_STDIN_PROGRAM, LERR_INLINE_CODE },
		{ GUARD_DEBUGGER, LERR_INLINE_CODE },
		{ GUARD_BAD_ARGV, LERR_ARGV },
		{ GUARD_FORBIDDEN_OPTION, LERR_ARGV },
		{ GUARD_UNKNOWN_OPTION, LERR_ARGV },
		{ GUARD_BAD_VALUE, LERR_ARGV },
		{ GUARD_FORBIDDEN_COMMAND, LERR_ARGV },
		{ GUARD_BAD_SUBCOMMAND, LERR_ARGV },
		{ GUARD_NO_COMMAND, LERR_ARGV },
		{ GUARD_TOO_DEEP, LERR_ARGV },
		{ GUARD_UNPINNED, LERR_ARGV },
		{ GUARD_NOT_PACKAGE, LERR_ARGV },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		ok(lease_guard_error(map[i].v) == map[i].code,
		    "guard %s refuses with %s", guard_verdict_name(map[i].v),
		    proto_error_name(map[i].code));
}

static void
test_end_labels(void)
{
	static const struct {
		const char *reason;
		unsigned label;
	} map[] = {
		{ "exited", ME_EXITED },
		{ "runner shutting down", ME_SHUTDOWN },
		{ "connection closed by the relay", ME_RELAY_CLOSED },
		{ "relay silent past the liveness limit", ME_LIVENESS },
		{ "connection lost", ME_ERROR },
		{ "poll failed", ME_ERROR },
		{ "cannot send STARTED", ME_ERROR },
		{ "protocol error: unexpected frame from the relay", ME_ERROR },
		{ "Exited", ME_ERROR },
		{ "exited ", ME_ERROR },
		{ "", ME_ERROR },
		{ "disk: HOME, TMPDIR and the files it holds open unlinked "
		  "take 9 MiB, over --home-size 8 MiB",
		  ME_DISK },
		{ "disk", ME_ERROR },
	};
	struct jail_stats st;

	memset(&st, 0, sizeof st);
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		ok(lease_end_label(map[i].reason, &st) == map[i].label,
		    "'%s' is counted as label %u", map[i].reason, map[i].label);
	st.pids_max_hits = 1;
	ok(lease_end_label("exited", &st) == ME_PIDS, "a pids limit hit "
	    "outranks the reason");
	st.oom_kills = 1;
	ok(lease_end_label("exited", &st) == ME_OOM &&
	    lease_end_label("runner shutting down", &st) == ME_OOM,
	    "an OOM kill outranks a pids hit and the reason");
	ok(lease_end_label("disk: the package cache holds 9 MiB", &st) ==
	    ME_DISK, "the disk watch's end outranks an OOM kill (the runner "
	    "killed it)");
}

int
main(void)
{
	test_guard_codes();
	test_end_labels();
	return tap_done();
}
