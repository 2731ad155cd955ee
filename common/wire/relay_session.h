/* relay_session.h - the relay's side of one lease: connect and run the
 * handshake, send SPAWN, then relay stdio until the runner's EXIT or
 * ERROR, a signal, or a lost runner. Every frame from the runner is
 * checked against the lease's state and ranges (docs/PROTOCOL.md, "What
 * the relay accepts"): a runner is where hostile code runs. The lease's
 * outcome is the relay's exit status (the server's own, or one of the
 * codes below); the applet decides what to do with it. */
#ifndef AIRLOCK_RELAY_SESSION_H
#define AIRLOCK_RELAY_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/base/errstream.h"
#include "common/base/xwrap.h"
#include "common/wire/channel.h"
#include "common/wire/fd_writer.h"
#include "common/wire/netaddr.h"
#include "common/wire/proto.h"

/* Exit codes of the relay itself (the server's own status passes through). */
enum {
	RELAY_UNREACHABLE = EXIT_UNAVAILABLE,	/* 69 */
	RELAY_PROTOCOL = EXIT_PROTOCOL,		/* 76 */
	RELAY_REFUSED = EXIT_NOPERM,		/* 77 */
	RELAY_AUTH = EXIT_AUTH,			/* 80 */
	RELAY_SPAWN = EXIT_OSERR,		/* 71 */
	RELAY_INTERNAL = EXIT_SOFTWARE		/* 70: poll failed */
};

/* What the relay asks the runner to run; nothing is copied (the caller's
 * strings must outlive relay_session_spawn). */
struct relay_request {
	const char *tenant;
	const char *registration;
	char *const *argv;
	size_t argc;
	char *const *env_key;
	char *const *env_value;
	size_t envc;
	const char *approval;		/* "" when none */
	size_t approval_len;
};

/* One lease's state; zero it, then relay_session_handshake. */
struct relay_session {
	struct channel ch;
	struct fd_writer out;
	struct errstream err;
	unsigned version;	/* the protocol version spoken (version.h) */
	int sigfd;
	int parentfd;		/* a pidfd of our parent, or -1: readable
				 * when it has ended */
	int stdin_open;
	int started;		/* STARTED arrived: output and EXIT may follow */
	int exit_status;	/* -1 until the lease is decided */
	int64_t last_heard_ms;
	int64_t last_ping_ms;
	uint64_t pings;		/* PINGs sent; a PONG must echo one of them */
	uint8_t pong[PROTO_PING_LEN];	/* the PONG owed: the latest PING's */
	int pong_owed;		/* our queue had no room for it yet */
	int64_t last_ping_heard_ms;
	unsigned fast_owed;	/* PINGs in a row < 100 ms apart, owed */
	uint32_t ping_ms;	/* from STARTED; defaults until then */
	uint32_t liveness_ms;
	int violated;		/* the runner broke the protocol */
	int signalled;		/* SIGTERM, SIGINT or SIGHUP arrived */
};

/* Connect to the runner at a, retrying briefly (up to 2 s, within
 * timeout_ms) so a restarting runner is not an error. The socket, or -1
 * with the reason in err. */
int relay_connect(const struct netaddr *a, uint64_t timeout_ms, char *err,
    size_t errlen);

/* Run the handshake on fd speaking protocol version; the session owns fd
 * from then on. 0, or -1 with the reason in err (fd is the caller's). */
int relay_session_handshake(struct relay_session *r, int fd,
    const uint8_t psk[32], unsigned version, uint64_t timeout_ms, char *err,
    size_t errlen);

/* Queue the SPAWN request. 0; -1 with errno EMSGSIZE when it breaks the
 * protocol's caps, else -1 when it could not be queued. */
int relay_session_spawn(struct relay_session *r, const struct relay_request *q);

/* Set up the lease's outputs (stdout, stderr), signals (sigfd, read by
 * the loop) and the parent to outlive none of (parentfd, a pidfd, or -1:
 * when it becomes readable the lease ends at once, 128 + SIGHUP, nothing
 * more written); our log records go through the stderr stream from then
 * on. 0, or -1 with errno. */
int relay_session_start_io(struct relay_session *r, int sigfd, int parentfd);

/* Relay until the lease is decided, then write out what our outputs
 * hold; returns the relay's exit status. Closes the channel. */
int relay_session_run(struct relay_session *r);

/* --doctor: the same lease with stdin closed at once, each step reported
 * on report ("ok   ..." or "FAIL ..."); the runner's frames pass the same
 * checks as in a lease, and every text from it is printed escaped.
 * argv0 is the server's command word, for the report. Returns the relay's
 * exit status (EXIT_OK when the server ran). Closes the channel. */
int relay_session_doctor(struct relay_session *r, FILE *report,
    const char *argv0);

#endif
