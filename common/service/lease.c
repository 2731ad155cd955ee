/* lease.c - serve one runner connection: the lease of one child. */
#include "common/service/lease.h"

#include "common/base/bounded_rw.h"
#include "common/base/clock.h"
#include "common/jail/jail_dirs.h"
#include "common/service/metrics.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/egress/egress_allow.h"
#include "common/policy/approval.h"
#include "common/policy/approval_diff.h"
#include "common/wire/channel.h"
#include "common/policy/envpolicy.h"
#include "common/base/fsutil.h"
#include "common/policy/guardfs.h"
#include "common/base/log.h"
#include "common/wire/fd_writer.h"
#include "common/wire/proto.h"
#include "common/service/service.h"
#include "common/jail/diskquota.h"
#include "common/mcp/mcptap.h"
#include "common/mcp/surface.h"
#include "common/mcp/toollist.h"
#include "common/jail/spawn.h"
#include "common/base/tailbuf.h"

#define STDERR_CHUNK 4096	/* a stderr frame ends at a newline or here */
/* Before STARTED a relay gives up on a runner silent for 60 s
 * (docs/PROTOCOL.md, "Keep-alive"); a lease waiting for its tree says
 * PING at least this often. */
#define WAIT_PING_MS 10000u

struct lease {
	const struct lease_config *cfg;
	const char *id, *peer;
	struct channel ch;
	struct spawn_req req;
	struct spawn_child child;
	struct fd_writer in;			/* towards the child's stdin */
	int spawned, in_open, eof_pending, out_open, err_open;
	int exited, wait_status;
	int sigfd;
	int64_t t_start, t_exited, last_heard;
	int64_t t_eof;		/* the server's stdin reached EOF; 0 before */
	uint64_t bytes_out, bytes_err;
	uint8_t err_buf[STDERR_CHUNK];
	size_t err_len;
	char tail[PROTO_TEXT_MAX];	/* the last stderr bytes, for EXIT */
	size_t tail_len;
	struct guard_result guard;	/* scripts to resolve, PATH rule */
	struct jail_lease jl;		/* uid, HOME, TMPDIR, cgroup */
	int jl_open;
	struct jail_stats stats;
	const char *end_reason;
	char approval_id[APPROVAL_ID_TEXT];	/* the verified token's id
					 * (keys the package cache); "" none */
	struct disk_watch disk;		/* its share of the state disk */
	char disk_why[192];		/* why the watch ended it */
	struct egress_lease eg;		/* the proxy, with cfg->egress */
	struct egress_allow *rules;	/* its list, with cfg->egress */
	char egress_extra[EGRESS_ALLOW_TEXT_MAX];	/* the approval's own
					 * hosts (canonical list text) */
	size_t egress_extra_len;
	int has_lock;			/* the token binds a lock */
	uint8_t lock[APPROVAL_LOCK_LEN], lock_flags;
	uint8_t token_id[APPROVAL_ID_LEN];
	char *run_argv[PROTO_ARGC_MAX + 3];	/* the locked tree's node
					 * or python3 command (argc + 2
					 * words); [0] NULL: req.argv */
	char bin_path[PATH_MAX];
	int64_t lock_ms;		/* check_lock's time (install, seal) */
	int lock_installed;		/* this lease ran its tree's install */
	int64_t wait_ping_ms;		/* keep_alive's last PING */
	uint64_t wait_pings;
	struct mcp_tap *tap;		/* tools/call records */
	int mcp_failed;			/* enforcing, the tap ends it */
	char tools[TOOLLIST_TEXT_MAX];	/* the approval's tool list */
	size_t tools_len;		/* 0: no list, the tap observes */
	int has_surface;		/* the token pins a surface */
	uint8_t surface_digest[APPROVAL_SURFACE_LEN];
	struct surface pin;		/* loaded from --surface-store */
};

/* Enforcing, the tap holds what the server is to read (stdin_pending)
 * or the client (client_pending); the lease reads no more of that
 * side's source meanwhile. */
static int
stdin_pending(const struct lease *l)
{
	return fd_writer_busy(&l->in) || (l->tap && l->tap->enforce &&
	    l->tap->to_server.off < l->tap->to_server.len);
}

static int
client_pending(const struct lease *l)
{
	return l->tap && l->tap->enforce &&
	    l->tap->to_client.off < l->tap->to_client.len;
}

static void
log_refusal(const struct lease *l, unsigned code, const char *msg)
{
	metric_add(M_REFUSALS_TOTAL, code, 1);
	metric_add(M_LEASES_TOTAL, ME_REFUSED, 1);
	if (code == LERR_JAIL)
		metric_add(M_JAIL_FAILURES, 0, 1);
	log_event(LOG_WARN, "lease refused", (struct log_field[]){
	    LF_STR("lease", l->id), LF_STR("peer", l->peer),
	    LF_STR("code", proto_error_name(code)), LF_STR("reason", msg) }, 4);
}

/* The lease is over but for its final frame and linger: tell the
 * supervisor (DONE) so that it stops counting this lease against
 * --max-leases and its tenant's cap. A client that reconnects at once is
 * not refused for the seconds this one lingers. */
static void
release_slot(const struct lease *l)
{
	service_done(l->cfg->control_fd, 0);
}

/* Send ERROR and end; the relay prints the message (service_refuse:
 * the close lingers). Safe against a peer that never stops: only a peer
 * that completed the handshake reaches a handler at all, and the linger
 * is bounded in time and bytes, so a refused connection holds its lease
 * or refusal slot for at most the SPAWN deadline and then
 * SERVICE_FINAL_FRAME_MS. */
static int
refuse(struct lease *l, unsigned code, const char *msg)
{
	log_refusal(l, code, msg);
	release_slot(l);
	service_refuse(&l->ch, code, msg);
	return 1;
}

/* Ask the supervisor to count this lease against its tenant's cap. */
static unsigned
admit_tenant(const struct lease *l)
{
	int rc = service_admit(l->cfg->control_fd, l->req.tenant, 0, NULL);

	return rc < 0 ? LERR_INTERNAL : (unsigned)rc;
}

/* Queue the buffered stderr up to its last newline (all of it when full
 * or at end of stream) as one STDERR frame. */
static int
flush_stderr(struct lease *l, int all)
{
	size_t n = l->err_len;

	if (!all && n < sizeof l->err_buf) {
		while (n > 0 && l->err_buf[n - 1] != '\n')
			n--;
	}
	if (n == 0)
		return 0;
	if (channel_queue(&l->ch, FRAME_STDERR, l->err_buf, n) != 0)
		return -1;
	tail_keep(l->tail, sizeof l->tail, &l->tail_len, l->err_buf, n);
	l->bytes_err += n;
	memmove(l->err_buf, l->err_buf + n, l->err_len - n);
	l->err_len -= n;
	return 0;
}

static void
pump_stdout(struct lease *l)
{
	static uint8_t buf[FRAME_PAYLOAD_MAX];
	ssize_t n = read(l->child.out, buf, sizeof buf);

	if (n > 0 && l->tap->enforce) {
		if (mcp_tap_server_bytes(l->tap, buf, (size_t)n) != 0)
			l->mcp_failed = 1;
	} else if (n > 0) {
		if (channel_queue(&l->ch, FRAME_STDOUT, buf, (size_t)n) == 0) {
			l->bytes_out += (uint64_t)n;
			/* the bytes go out first, the tap's record after:
			 * off the reply's way (a failed send is seen by the
			 * loop's next flush) */
			(void)channel_flush(&l->ch);
			mcp_tap_from_server(l->tap, buf, (size_t)n);
		}
	} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
		l->out_open = 0;
	}
}

static void
pump_stderr(struct lease *l)
{
	ssize_t n = read(l->child.err, l->err_buf + l->err_len,
	    sizeof l->err_buf - l->err_len);

	if (n > 0) {
		l->err_len += (size_t)n;
		(void)flush_stderr(l, 0);
	} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
		l->err_open = 0;
		(void)flush_stderr(l, 1);
	}
}

static void
close_child_stdin(struct lease *l)
{
	if (l->in_open) {
		close(l->child.in);
		l->in_open = 0;
	}
}

/* One frame from the relay. Returns -1 when the lease must end. */
static int
on_frame(struct lease *l, uint8_t type, const uint8_t *p, size_t n)
{
	switch (type) {
	case FRAME_STDIN:
		if (l->eof_pending)
			break;
		if (!l->in_open || n == 0)
			return 0;	/* the child closed its stdin: drop */
		if (l->tap->enforce) {
			if (mcp_tap_client_bytes(l->tap, p, n) == 0)
				return 0;
			l->mcp_failed = 1;
			return -1;
		}
		/* to the server first, then the tap's look: off the
		 * request's way */
		if (fd_writer_write(&l->in, p, n) != 0)
			close_child_stdin(l);
		mcp_tap_from_client(l->tap, p, n);
		return 0;
	case FRAME_STDIN_EOF:
		if (n != 0)
			break;
		l->eof_pending = 1;
		if (!stdin_pending(l))
			close_child_stdin(l);
		return 0;
	case FRAME_PING:
		if (n != PROTO_PING_LEN)
			break;
		/* not service_answer_pings: other frames come here too, and a
		 * full queue drops the PONG, not the lease (the relay counts
		 * the queued output as heard) */
		if (channel_can_queue(&l->ch))
			(void)channel_queue(&l->ch, FRAME_PONG, p, n);
		return 0;
	case FRAME_PONG:
		return 0;
	default:
		break;
	}
	l->end_reason = "protocol error: unexpected frame from the relay";
	return -1;
}

static void
reap(struct lease *l)
{
	int found = 0;

	spawn_reap(l->child.pid, &l->wait_status, &found);
	if (found && !l->exited) {
		l->exited = 1;
		l->t_exited = mono_ms();
	}
}

/* SIGKILL the tree until no child of ours is left (bounded), recording
 * the server's status if it is among the reaped. */
static void
kill_rest(struct lease *l)
{
	struct timespec pause = { 0, 2 * 1000 * 1000 };

	for (int round = 0; round < 500; round++) {
		int st;
		pid_t got;

		spawn_signal_tree(l->child.pid, SIGKILL);
		while ((got = waitpid(-1, &st, WNOHANG)) > 0)
			if (got == l->child.pid && !l->exited) {
				l->wait_status = st;
				l->exited = 1;
				l->t_exited = mono_ms();
			}
		if (got < 0 && errno == ECHILD)
			return;
		nanosleep(&pause, NULL);
	}
}

/* Everything of the lease: the jail's cgroup and uid sweeps, then our own
 * children (the process group and orphans reparented to us). */
static void
kill_everything(struct lease *l)
{
	int st = 0, found = 0;

	if (l->jl_open) {
		jail_lease_kill(&l->jl, l->exited ? -1 : l->child.pid, &st,
		    &found);
		if (found && !l->exited) {
			l->wait_status = st;
			l->exited = 1;
			l->t_exited = mono_ms();
		}
	}
	kill_rest(l);
}

/* SIGTERM the tree, give it the grace, then SIGKILL whatever is left. */
static void
teardown(struct lease *l)
{
	int64_t deadline = mono_ms() + l->cfg->kill_grace_ms;

	if (!l->spawned)
		return;
	if (!l->exited) {
		spawn_signal_tree(l->child.pid, SIGTERM);
		while (!l->exited && mono_ms() < deadline) {
			struct pollfd pf = { l->child.pidfd, POLLIN, 0 };

			poll(&pf, 1, (int)(deadline - mono_ms()));
			reap(l);
		}
	}
	kill_everything(l);
	reap(l);
}

/* Why a server that exited by itself ended: a server the memory limit
 * killed, or one that failed after the pids limit refused a fork, ended
 * because of its limits. With a proxy (ns mode, uid mode's pid
 * namespace) the status is the proxy's mirror of the server's end, the
 * exit code 128 + SIGKILL should its own SIGKILL not take (mirror()'s
 * fallback). */
static unsigned
exited_reason(const struct lease *l)
{
	int st = l->wait_status;

	if (l->stats.oom_kills > 0 &&
	    ((WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) ||
	    (WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGKILL)))
		return EXIT_REASON_OOM;
	if (l->stats.pids_max_hits > 0 &&
	    !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		return EXIT_REASON_PIDS;
	return EXIT_REASON_EXITED;
}

static void
send_exit(struct lease *l, unsigned reason)
{
	struct exit_info x;
	uint8_t buf[PROTO_TEXT_MAX + 64];
	long n;

	memset(&x, 0, sizeof x);
	if (WIFSIGNALED(l->wait_status)) {
		x.kind = EXIT_KIND_SIGNAL;
		x.status = (uint8_t)WTERMSIG(l->wait_status);
	} else {
		x.status = (uint8_t)WEXITSTATUS(l->wait_status);
	}
	if (reason == EXIT_REASON_EXITED)
		reason = exited_reason(l);
	x.reason = (uint8_t)reason;
	x.peak_memory = l->stats.peak_memory;
	x.duration_ms = (uint64_t)(mono_ms() - l->t_start);
	x.bytes_in = l->in.total;
	x.bytes_out = l->bytes_out;
	x.bytes_err = l->bytes_err;
	memcpy(x.detail, l->tail, l->tail_len);
	x.detail[l->tail_len] = '\0';
	for (size_t i = 0; i < l->tail_len; i++)	/* text field: no NUL */
		if (x.detail[i] == '\0')
			x.detail[i] = '?';
	n = proto_exit_encode(buf, sizeof buf, &x);
	if (n >= 0)
		(void)channel_send_wait(&l->ch, FRAME_EXIT, buf, (size_t)n,
		    (int)l->cfg->liveness_ms);
}

/* How relay() ends besides 0 (the server exited, its pipes drained):
 * each with end_reason set. */
enum {
	RELAY_CONN_ENDED = -1,		/* closed, broken, silent: no frame */
	RELAY_SHUTDOWN = -2,		/* the runner drains: EXIT shutdown */
	RELAY_DISK = -3,		/* the disk watch: EXIT disk */
	RELAY_STDIN_GRACE = -4,		/* stdin at EOF, the server lived on
					 * past --kill-grace: EXIT */
	RELAY_MAX_DURATION = -5,	/* --max-lease-duration: ERROR */
	RELAY_MCP = -6			/* the tap enforcing the approval's
					 * tool list: ERROR mcp */
};

/* The lease's own deadlines: its whole life (--max-lease-duration), and
 * the grace a server gets after its stdin reached EOF (its client is
 * gone: MCP's stdio shutdown closes stdin, then expects the exit).
 * 0 to go on, else how the lease ends. Lowers *deadline to the next. */
static int
own_deadlines(struct lease *l, int64_t now, int64_t *deadline)
{
	int64_t end = l->t_start + (int64_t)l->cfg->max_lease_ms;

	if (l->eof_pending && !l->in_open && l->t_eof == 0)
		l->t_eof = now;
	if (now >= end) {
		l->end_reason = "max lease duration";
		return RELAY_MAX_DURATION;
	}
	if (end < *deadline)
		*deadline = end;
	if (l->t_eof == 0 || l->exited)
		return 0;
	if (now >= l->t_eof + l->cfg->kill_grace_ms) {
		l->end_reason = "stdin closed, the server did not exit";
		return RELAY_STDIN_GRACE;
	}
	if (l->t_eof + l->cfg->kill_grace_ms < *deadline)
		*deadline = l->t_eof + l->cfg->kill_grace_ms;
	return 0;
}

/* Enforcing: pass on what the tap's outboxes hold, as far as the
 * channel's queue and the server's stdin take it now. */
static void
drain_tap(struct lease *l)
{
	const uint8_t *p;
	size_t n;

	while (client_pending(l) && channel_can_queue(&l->ch)) {
		n = mcp_outbox_take(&l->tap->to_client, FRAME_PAYLOAD_MAX, &p);
		if (channel_queue(&l->ch, FRAME_STDOUT, p, n) == 0)
			l->bytes_out += n;
	}
	while (l->in_open && !fd_writer_busy(&l->in) &&
	    stdin_pending(l)) {
		n = mcp_outbox_take(&l->tap->to_server, FRAME_PAYLOAD_MAX, &p);
		if (fd_writer_write(&l->in, p, n) != 0)
			close_child_stdin(l);
	}
	if (!l->in_open && l->tap->enforce)	/* nobody reads it now */
		l->tap->to_server.off = l->tap->to_server.len;
	if (l->eof_pending && !stdin_pending(l))
		close_child_stdin(l);
}

/* Relay until the child is gone and its pipes are drained (0), or the
 * lease ends otherwise (RELAY_*, with end_reason set). */
static int
relay(struct lease *l)
{
	for (;;) {
		struct pollfd pf[6];
		int64_t now = mono_ms(), deadline;
		int stdin_blocked, own;
		const uint8_t *p;
		const char *why = "";
		uint8_t type;
		size_t len;
		enum channel_next nx = CHANNEL_NEED;

		/* enforcing, each frame's lines are passed on (as far as
		 * they go now) before the next frame is read */
		for (;;) {
			if (l->tap->enforce)
				drain_tap(l);
			if (stdin_pending(l) || client_pending(l) ||
			    (nx = channel_next(&l->ch, &type, &p, &len,
			    &why)) != CHANNEL_FRAME)
				break;
			if (on_frame(l, type, p, len) != 0) {
				if (!l->mcp_failed)
					return RELAY_CONN_ENDED;
				break;
			}
		}
		if (l->mcp_failed) {
			l->end_reason = l->tap->why;
			return RELAY_MCP;
		}
		if (!stdin_pending(l) && !client_pending(l) &&
		    nx == CHANNEL_BAD) {
			l->end_reason = why;
			return RELAY_CONN_ENDED;
		}
		if (l->exited && !l->out_open && !l->err_open &&
		    !client_pending(l))
			return 0;
		stdin_blocked = stdin_pending(l) || client_pending(l);
		if (channel_pending(&l->ch) && channel_flush(&l->ch) != 0) {
			l->end_reason = "connection lost";
			return RELAY_CONN_ENDED;
		}
		/* the flush made room for more of a line the tap holds: no
		 * event would come for it (the source is not read) */
		if (client_pending(l) && channel_can_queue(&l->ch))
			continue;
		if (stdin_blocked)	/* the relay did talk; we are not
					 * listening because the child is slow */
			l->last_heard = now;
		deadline = l->last_heard + l->cfg->liveness_ms;
		if (l->exited && l->t_exited + l->cfg->kill_grace_ms < deadline)
			deadline = l->t_exited + l->cfg->kill_grace_ms;
		if ((own = own_deadlines(l, now, &deadline)) != 0)
			return own;
		if (now >= l->last_heard + l->cfg->liveness_ms) {
			l->end_reason = "relay silent past the liveness limit";
			return RELAY_CONN_ENDED;
		}
		if (!l->exited && disk_watch_deadline(&l->disk) >= 0 &&
		    disk_watch_tick(&l->disk, now,
		    l->cfg->jail->cfg.state_dir, jail_lease_disk_usage,
		    &l->jl, l->disk_why, sizeof l->disk_why)) {
			/* at once, no grace: it would go on writing */
			kill_everything(l);
			reap(l);
			l->end_reason = l->disk_why;
			return RELAY_DISK;
		}
		if (!l->exited && disk_watch_deadline(&l->disk) >= 0 &&
		    disk_watch_deadline(&l->disk) < deadline)
			deadline = disk_watch_deadline(&l->disk) > now ?
			    disk_watch_deadline(&l->disk) : now;
		if (l->exited && now >= l->t_exited + l->cfg->kill_grace_ms) {
			/* leftovers keep the pipes open: end them */
			kill_everything(l);
			l->t_exited = now + 3600 * 1000;
		}
		pf[0] = (struct pollfd){ l->ch.fd, (short)((stdin_blocked ? 0 :
		    POLLIN) | (channel_pending(&l->ch) ? POLLOUT : 0)), 0 };
		pf[1] = (struct pollfd){ l->sigfd, POLLIN, 0 };
		pf[2] = (struct pollfd){ l->out_open && channel_can_queue(&l->ch)
		    && !client_pending(l) ? l->child.out : -1, POLLIN, 0 };
		pf[3] = (struct pollfd){ l->err_open && channel_can_queue(&l->ch)
		    ? l->child.err : -1, POLLIN, 0 };
		pf[4] = (struct pollfd){ l->in_open && fd_writer_busy(&l->in) ?
		    l->child.in : -1, POLLOUT, 0 };
		pf[5] = (struct pollfd){ l->exited ? -1 : l->child.pidfd,
		    POLLIN, 0 };
		if (poll(pf, 6, (int)(deadline - now) + 1) < 0 &&
		    errno != EINTR) {
			l->end_reason = "poll failed";
			return RELAY_CONN_ENDED;
		}
		if (pf[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			(void)!read(l->sigfd, &si, sizeof si);
			l->end_reason = "runner shutting down";
			return RELAY_SHUTDOWN;
		}
		if (pf[5].revents & POLLIN)
			reap(l);
		if (pf[4].revents & (POLLOUT | POLLERR | POLLHUP)) {
			if (fd_writer_flush(&l->in) != 0)
				close_child_stdin(l);
			else if (!stdin_pending(l) && l->eof_pending)
				close_child_stdin(l);
		}
		if (pf[2].revents & (POLLIN | POLLHUP | POLLERR))
			pump_stdout(l);
		if (pf[3].revents & (POLLIN | POLLHUP | POLLERR))
			pump_stderr(l);
		if (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			long got = channel_fill(&l->ch);

			if (got == 0 || (got < 0 && errno != EAGAIN)) {
				l->end_reason = "connection closed by the relay";
				return RELAY_CONN_ENDED;
			}
			l->last_heard = mono_ms();
		}
	}
}

unsigned
lease_end_label(const char *end_reason, const struct jail_stats *st)
{
	static const struct { const char *reason; unsigned label; } map[] = {
		{ "exited", ME_EXITED },
		{ "runner shutting down", ME_SHUTDOWN },
		{ "connection closed by the relay", ME_RELAY_CLOSED },
		{ "relay silent past the liveness limit", ME_LIVENESS },
		{ "stdin closed, the server did not exit", ME_STDIN_CLOSED },
		{ "max lease duration", ME_MAX_DURATION },
	};

	if (strncmp(end_reason, "disk:", 5) == 0)
		return ME_DISK;
	if (st->oom_kills > 0)
		return ME_OOM;
	if (st->pids_max_hits > 0)
		return ME_PIDS;
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (strcmp(end_reason, map[i].reason) == 0)
			return map[i].label;
	return ME_ERROR;
}

static void
count_end(const struct lease *l)
{
	metric_add(M_LEASES_TOTAL, lease_end_label(l->end_reason, &l->stats),
	    1);
	metric_add(M_LEASE_BYTES, MS_STDIN, l->in.total);
	metric_add(M_LEASE_BYTES, MS_STDOUT, l->bytes_out);
	metric_add(M_LEASE_BYTES, MS_STDERR, l->bytes_err);
	if (l->stats.oom_kills > 0)
		metric_add(M_CGROUP_KILLS, ML_MEMORY, 1);
	if (l->stats.pids_max_hits > 0)
		metric_add(M_CGROUP_KILLS, ML_PIDS, 1);
	metric_observe(MH_LEASE_SECONDS, (uint64_t)(mono_ms() - l->t_start));
}

static void
log_end(const struct lease *l)
{
	struct log_field f[16];
	size_t n = 0;

	count_end(l);

	f[n++] = LF_STR("lease", l->id);
	f[n++] = LF_STR("reason", l->end_reason);
	if (WIFSIGNALED(l->wait_status))
		f[n++] = LF_NUM("signal", WTERMSIG(l->wait_status));
	else
		f[n++] = LF_NUM("exit", WEXITSTATUS(l->wait_status));
	f[n++] = LF_NUM("bytes_in", l->in.total);
	f[n++] = LF_NUM("bytes_out", l->bytes_out);
	f[n++] = LF_NUM("bytes_err", l->bytes_err);
	f[n++] = LF_NUM("duration_ms", mono_ms() - l->t_start);
	f[n++] = LF_STR("jail", l->cfg->jail_name);
	if (l->cfg->jail && l->cfg->jail->cfg.mode != JAIL_NONE) {
		f[n++] = LF_NUM("uid", l->jl.uid);
		f[n++] = LF_NUM("landlock_abi", l->cfg->jail->landlock_abi);
	}
	if (l->stats.has_memory) {
		f[n++] = LF_NUM("peak_memory", l->stats.peak_memory);
		f[n++] = LF_NUM("oom_kills", l->stats.oom_kills);
	}
	if (l->stats.has_pids)
		f[n++] = LF_NUM("pids_limit_hits", l->stats.pids_max_hits);
	if (l->stats.has_cpu)
		f[n++] = LF_NUM("cpu_ms", l->stats.cpu_usec / 1000);
	log_event(LOG_INFO, "lease ended", f, n);
}

unsigned
lease_guard_error(enum guard_verdict v)
{
	switch (v) {
	case GUARD_BAD_LAUNCHER:
		return LERR_LAUNCHER;
	case GUARD_INLINE_CODE:
	case GUARD_STDIN_PROGRAM:
	case GUARD_DEBUGGER:
		return LERR_INLINE_CODE;
	default:
		return LERR_ARGV;
	}
}

#define APPROVAL_SKEW_S 60	/* clock skew tolerated between reviewer and us */

/* With a reviewer key, the token must bind exactly this request. */
static int
check_approval(struct lease *l)
{
	struct approval_request ar = { l->req.tenant, l->req.registration,
		l->req.argv, l->req.argc, l->req.env_key, l->req.envc };
	static struct approval token;	/* about 15 KiB */
	enum approval_result res;
	char msg[PROTO_TEXT_MAX], diff[512];
	const char *why;

	if (!l->cfg->review_key)
		return 0;
	if (l->cfg->revoked && revocation_reload(l->cfg->revoked, &why) != 0) {
		if (l->cfg->revoked->usable)
			log_msg(LOG_WARN, "revocation list refused, the last "
			    "good one (serial %llu) stays in force: %s",
			    (unsigned long long)l->cfg->revoked->serial, why);
		else
			log_msg(LOG_WARN, "revocation list unusable, refusing "
			    "every token: %s", why);
	}
	if (l->req.approval_len == 0)
		return refuse(l, LERR_APPROVAL, "approval_required: this "
		    "runner only spawns reviewed registrations");
	res = approval_open(l->cfg->review_key, l->req.approval,
	    l->req.approval_len, &token);
	if (res == APPROVAL_OK)
		res = approval_check(&token, &ar, (uint64_t)time(NULL),
		    APPROVAL_SKEW_S, l->cfg->revoked);
	if (res == APPROVAL_OK) {
		/* the cache and uid belong to this approval alone: what a
		 * revoked one left there is never seen again */
		eckey_id_text(token.token_id, l->approval_id);
		/* the runner allows its own list plus exactly these */
		memcpy(l->egress_extra, token.egress.p, token.egress.n);
		l->egress_extra_len = token.egress.n;
		l->has_lock = token.has_lock;
		memcpy(l->lock, token.lock, sizeof l->lock);
		l->lock_flags = token.lock_flags;
		memcpy(l->token_id, token.token_id, sizeof l->token_id);
		/* a tool list: the tap enforces it (docs/PROTOCOL.md) */
		memcpy(l->tools, token.tools.p, token.tools.n);
		l->tools_len = token.tools.n;
		l->has_surface = token.has_surface;
		memcpy(l->surface_digest, token.surface,
		    sizeof l->surface_digest);
		return 0;
	}
	/* a mismatch says what differs (never a credential's value) */
	approval_diff(&token, &ar, res, diff, sizeof diff);
	snprintf(msg, sizeof msg, "%s: the approval token does not allow "
	    "this spawn%s%s", approval_result_name(res), diff[0] ? ": " : "",
	    diff);
	return refuse(l, LERR_APPROVAL, msg);
}

/* 1 when the launcher argv0 installs packages from a registry at run
 * time (what --require-lock wants locked; the guard has checked argv0 is
 * a bare launcher word). */
static int
fetches_packages(const char *argv0)
{
	return strcmp(argv0, "npx") == 0 || strcmp(argv0, "uvx") == 0 ||
	    strcmp(argv0, "uv") == 0;
}

/* A token that pins a surface: the pinned document read from the
 * store (its bytes checked against the digest) before anything runs. */
static int
check_surface(struct lease *l)
{
	char msg[PROTO_TEXT_MAX], err[512];

	if (!l->has_surface)
		return 0;
	if (!l->cfg->surface_store)
		return refuse(l, LERR_APPROVAL, "surface: the approval pins "
		    "the server's MCP surface and this runner has no "
		    "--surface-store");
	if (surface_read(&l->pin, l->cfg->surface_store, l->surface_digest,
	    err, sizeof err) == 0)
		return 0;
	snprintf(msg, sizeof msg, "surface: %s", err);
	return refuse(l, LERR_APPROVAL, msg);
}

/* locktree_ready's wait: the relay hears a PING every WAIT_PING_MS (or
 * the runner's --ping-interval, if shorter) while the tree is installed
 * or another install holds it, so it does not give the lease up. Nothing
 * is read meanwhile: what the relay sends (the client's first bytes, its
 * own PINGs) waits in the connection, in order, for the lease's loop;
 * the PONGs to ours are dropped there. A full queue (a relay that does
 * not read) skips a PING; the install goes on regardless. */
static void
keep_alive(void *ctx, int fd, int ms)
{
	struct lease *l = ctx;
	uint32_t every = l->cfg->ping_ms && l->cfg->ping_ms < WAIT_PING_MS ?
	    l->cfg->ping_ms : WAIT_PING_MS;
	int64_t until = mono_ms() + ms;

	for (;;) {
		int64_t now = mono_ms(), left = until - now,
		    next = l->wait_ping_ms + every - now;
		struct pollfd pf[2];

		if (next <= 0) {
			uint8_t p[PROTO_PING_LEN];
			struct wr w = wr_init(p, sizeof p);

			wr_u64(&w, ++l->wait_pings);
			if (channel_can_queue(&l->ch))
				(void)channel_queue(&l->ch, FRAME_PING, p,
				    sizeof p);
			l->wait_ping_ms = now;
			next = every;
		}
		if (channel_pending(&l->ch))
			(void)channel_flush(&l->ch);
		if (left <= 0)
			return;
		pf[0] = (struct pollfd){ fd, POLLIN, 0 };
		pf[1] = (struct pollfd){ channel_pending(&l->ch) &&
		    !l->ch.failed ? l->ch.fd : -1, POLLOUT, 0 };
		if (poll(pf, 2, (int)(next < left ? next : left)) > 0 &&
		    pf[0].revents)
			return;
	}
}

/* A token that binds a lock runs its installed tree, never npx: the tree
 * installed once (per lock digest) and its seal checked, then the bin
 * started with node (locktree.h). */
static int
check_lock(struct lease *l)
{
	char msg[PROTO_TEXT_MAX], err[512];
	enum locktree_result r;
	size_t argc;

	if (!l->has_lock && l->cfg->require_lock &&
	    fetches_packages(l->req.argv[0]))
		return refuse(l, LERR_APPROVAL, "lock: lock_required: this "
		    "runner has --require-lock and the approval binds no "
		    "locked dependency tree (the launcher would resolve "
		    "packages at run time): submit it with review submit "
		    "--lock and approve it again");
	if (!l->has_lock)
		return 0;
	if (!l->cfg->locks)
		return refuse(l, LERR_APPROVAL, "lock: the approval binds a "
		    "locked dependency tree and this runner has no "
		    "--lock-store");
	l->lock_ms = mono_ms();
	l->wait_ping_ms = l->t_start;
	r = locktree_ready(l->cfg->locks, l->lock, l->token_id,
	    l->lock_flags & APPROVAL_LOCK_SCRIPTS, &(struct locktree_wait){
	    keep_alive, l }, l->req.argv, l->req.argc,
	    0, &l->lock_installed, l->run_argv, &argc, l->bin_path,
	    sizeof l->bin_path, err, sizeof err);
	l->lock_ms = mono_ms() - l->lock_ms;
	if (r == LOCKTREE_OK)
		return 0;
	l->run_argv[0] = NULL;
	snprintf(msg, sizeof msg, "lock: %s: %s", locktree_result_name(r),
	    err);
	return refuse(l, LERR_APPROVAL, msg);
}

/* The guard: is this argv one we may run at all, and is each script it
 * names, on disk, the file it names? */
static int
check_guard(struct lease *l)
{
	struct guard_result *g = &l->guard;
	char msg[PROTO_TEXT_MAX];

	if (guard_check(l->cfg->guard, (const char *const *)l->req.argv,
	    l->req.argc, g) != GUARD_OK) {
		snprintf(msg, sizeof msg, "%s", g->reason);
		return refuse(l, lease_guard_error(g->verdict), msg);
	}
	if (guardfs_check_scripts(g, (const char *const *)l->req.argv, msg,
	    sizeof msg) != 0)
		return refuse(l, LERR_ARGV, msg);
	return 0;
}

/* The jail's uid, directories and cgroup for this lease. */
static int
open_jail(struct lease *l)
{
	struct jail_request rq = { .id = l->id, .tenant = l->req.tenant,
		.registration = l->req.registration,
		.approval = l->approval_id[0] ? l->approval_id : NULL };
	char err[512];

	if (jail_lease_open(l->cfg->jail, &rq, &l->jl, err, sizeof err) != 0)
		return refuse(l, LERR_JAIL, err);
	l->jl_open = 1;
	return 0;
}

/* A lease's own network namespace (cfg->egress: uid and ns mode unless
 * --shared-network), the proxy its only way out, the variables that
 * point clients at it. Its list: the runner's, the launcher's package
 * hosts (none for a locked tree: it fetches nothing), the approval's. */
static int
open_egress(struct lease *l, char **envp)
{
	static struct egress_allow rules;	/* about 17 KiB */
	char err[512];

	if (!l->cfg->egress)
		return 0;
	if (egress_lease_rules(l->cfg->egress, l->run_argv[0] ? NULL :
	    l->req.argv[0], l->egress_extra, l->egress_extra_len, &rules, err,
	    sizeof err) != 0)
		return refuse(l, LERR_JAIL, err);
	l->rules = &rules;
	if (egress_lease_start(&rules, l->cfg->egress_filter, l->id,
	    l->jl.uid, l->jl.gid, &l->eg, err, sizeof err) != 0)
		return refuse(l, LERR_JAIL, err);
	if (egress_env(envp, ENV_ENVP_CAP) != 0)
		return refuse(l, LERR_ENV, "no room left in the environment "
		    "for the egress proxy's variables");
	log_event(LOG_INFO, "lease egress", (struct log_field[]){
	    LF_STR("lease", l->id), LF_STR("proxy", EGRESS_LEASE_URL),
	    LF_NUM("rules", l->eg.nrules), LF_NUM("proxy_pid", l->eg.pid) },
	    4);
	return 0;
}

/* The env policy; on success envp is the child's environment. */
static int
build_env(struct lease *l, char **envp, size_t envp_cap, char *buf,
    size_t buf_cap)
{
	static struct env_entry map[PROTO_ENVC_MAX];
	struct env_result e;
	struct env_base base;
	char msg[PROTO_TEXT_MAX];

	for (size_t i = 0; i < l->req.envc; i++)
		map[i] = (struct env_entry){ l->req.env_key[i],
		    strlen(l->req.env_key[i]), l->req.env_value[i],
		    strlen(l->req.env_value[i]) };
	base = (struct env_base){ l->cfg->path, l->jl.home, l->cfg->lang,
		l->jl.tmpdir };
	/* a command word looked up on PATH finds only the packages' bins
	 * (put first by the launcher) or a launcher the guard checked */
	if (l->guard.path_lookup) {
		if (!l->cfg->launcher_path)
			return refuse(l, LERR_ARGV, "this runner has no "
			    "launcher directory for a command looked up on "
			    "PATH");
		base.path = l->cfg->launcher_path;
	}
	if (envpolicy_build(&base, map, l->req.envc, envp, envp_cap, buf,
	    buf_cap, &e) != ENV_OK) {
		snprintf(msg, sizeof msg, "%s", e.reason);
		return refuse(l, LERR_ENV, msg);
	}
	return 0;
}

static void
log_spawned(const struct lease *l)
{
	metric_observe(MH_SPAWN_SECONDS, (uint64_t)(mono_ms() - l->t_start));
	log_event(LOG_INFO, "lease spawned", (struct log_field[]){
	    LF_STR("lease", l->id), LF_STR("tenant", l->req.tenant),
	    LF_STR("registration", l->req.registration),
	    LF_STR("argv0", l->req.argv[0]), LF_NUM("argc", l->req.argc),
	    LF_NUM("env_keys", l->req.envc), LF_NUM("pid", l->child.pid),
	    LF_STR("jail", l->cfg->jail_name), LF_NUM("uid", l->jl.uid),
	    LF_NUM("landlock_abi", l->cfg->jail ?
	        l->cfg->jail->landlock_abi : 0),
	    LF_STR("runs", l->run_argv[0] ? "locked_tree" : "argv"),
	    LF_NUM("lock_ms", (uint64_t)l->lock_ms),
	    LF_NUM("lock_installed", (uint64_t)l->lock_installed) }, 13);
}

/* What STARTED (protocol version 2) says the lease may reach: the
 * proxy's rules (open_egress's list, as the proxy got it), the Landlock
 * ports (--shared-network), or no rule of ours. 0, or -1. */
static int
egress_policy(const struct lease *l, struct started_info *s)
{
	const struct jail_config *jc = l->cfg->jail ? &l->cfg->jail->cfg :
	    NULL;

	if (l->rules) {
		if (egress_allow_sorted_text(l->rules, s->rules,
		    sizeof s->rules) < 0)
			return -1;
		s->egress = EGRESS_HOSTS;
		s->nrules = l->rules->n;
		return 0;
	}
	if (jc && jc->negress && jc->mode != JAIL_NONE) {
		if (jc->negress > PROTO_EGRESS_PORTS_MAX)
			return -1;
		/* in ascending order, the one spelling (the flag's list has
		 * no repeats) */
		for (s->nports = 0; s->nports < jc->negress; s->nports++) {
			uint16_t v = jc->egress_ports[s->nports];
			size_t i;

			for (i = s->nports; i > 0 && s->port[i - 1] > v; i--)
				s->port[i] = s->port[i - 1];
			s->port[i] = v;
		}
		s->egress = EGRESS_PORTS;
		return 0;
	}
	s->egress = EGRESS_NONE;
	return 0;
}

/* STARTED, in the lease's protocol version. */
static int
send_started(struct lease *l, unsigned version)
{
	static struct started_info s;
	static uint8_t buf[FRAME_PAYLOAD_MAX];
	long n;

	memset(&s, 0, sizeof s);
	snprintf(s.lease_id, sizeof s.lease_id, "%s", l->id);
	snprintf(s.jail, sizeof s.jail, "%s", l->cfg->jail_name);
	s.ping_ms = l->cfg->ping_ms;
	s.liveness_ms = l->cfg->liveness_ms;
	if (version >= 2 && egress_policy(l, &s) != 0)
		return -1;
	n = proto_started_encode(buf, sizeof buf, version, &s);
	if (n < 0 || channel_queue(&l->ch, FRAME_STARTED, buf, (size_t)n))
		return -1;
	return 0;
}

/* The authenticated connection and its spawn request, within the
 * handshake deadline (counted again from the hand-off). */
static int
open_lease(struct lease *l, int conn_fd, struct noise_transport *t)
{
	char err[512];
	const uint8_t *p;
	const char *why;
	uint8_t type;
	size_t len;
	enum proto_status st;
	int64_t left;

	channel_adopt(&l->ch, conn_fd, t);
	if (l->cfg->refuse_code)
		return refuse(l, l->cfg->refuse_code, l->cfg->refuse_message);
	left = l->t_start + l->cfg->handshake_ms - mono_ms();
	switch (channel_recv_wait(&l->ch, &type, &p, &len,
	    left > 0 ? (int)left : 0, &why)) {
	case CHANNEL_FRAME:
		break;
	case CHANNEL_NEED:
		return refuse(l, LERR_TIMEOUT, "no spawn request before the "
		    "handshake deadline");
	default:
		snprintf(err, sizeof err, "no valid spawn request: %s", why);
		return refuse(l, LERR_PROTOCOL, err);
	}
	if (type != FRAME_SPAWN)
		return refuse(l, LERR_PROTOCOL, "the first frame must be SPAWN");
	st = proto_spawn_parse(&l->req, p, len);
	if (st != PROTO_OK)
		return refuse(l, LERR_BAD_REQUEST, proto_status_text(st));
	return 0;
}

int
lease_serve(const struct lease_config *cfg, int conn_fd,
    struct noise_transport *t, unsigned version, const char *peer,
    const char *lease_id)
{
	static struct lease l;
	static struct mcp_tap tap;	/* about 11 MiB, touched as used */
	static char *envp[ENV_ENVP_CAP];
	static char envbuf[ENV_BUF_CAP];
	struct spawn_spec spec;
	char err[512];
	unsigned code;
	int rc;

	l.cfg = cfg;
	l.id = lease_id;
	l.peer = peer;
	l.t_start = mono_ms();
	l.end_reason = "exited";
	/* the handshake ran in the pre-auth process: this copy of the
	 * shared secret (inherited from the supervisor) serves nothing here,
	 * and nothing forked from here on (the jail's init in ns mode never
	 * execs) may carry it */
	secret_ring_wipe(cfg->ring);
	l.sigfd = cfg->sigfd;
	rc = open_lease(&l, conn_fd, t);
	if (rc != 0)
		return 1;
	if ((code = admit_tenant(&l)) != 0)
		return refuse(&l, code, code == LERR_TENANT_CAPACITY ?
		    "the tenant is at its lease limit" : code == LERR_SHUTDOWN ?
		    "the runner is shutting down" : "admission failed");
	if (check_guard(&l) || check_approval(&l) || check_surface(&l) ||
	    check_lock(&l) || open_jail(&l) ||
	    build_env(&l, envp, ENV_ENVP_CAP, envbuf, sizeof envbuf) ||
	    open_egress(&l, envp))
		goto out;
	spec = (struct spawn_spec){ .argv = l.run_argv[0] ? l.run_argv :
		l.req.argv, .envp = envp,
		.jail = jail_lease_enter, .jail_ctx = &l.jl,
		.cgroup_fd = jail_lease_cgroup_fd(&l.jl) };
	spec.into_cgroup = spec.cgroup_fd >= 0;
	if (spawn_start(&spec, &l.child, err, sizeof err) != 0) {
		refuse(&l, strncmp(err, "jail", 4) == 0 ? LERR_JAIL : LERR_SPAWN,
		    err);
		goto out;
	}
	l.spawned = l.in_open = l.out_open = l.err_open = 1;
	/* before the first byte of the server's: the handler parses it */
	if (jail_lease_drop_setup_caps() != 0) {
		snprintf(err, sizeof err, "jail: dropping the handler's setup "
		    "capabilities: %s", strerror(errno));
		teardown(&l);
		refuse(&l, LERR_JAIL, err);
		goto out;
	}
	l.tap = &tap;
	mcp_tap_init(&tap, &(struct mcp_who){ l.id, l.req.tenant,
	    l.req.registration, l.approval_id });
	if (l.tools_len)
		mcp_tap_enforce(&tap, (const uint8_t *)l.tools, l.tools_len);
	if (l.has_surface)
		mcp_tap_pin(&tap, &l.pin);
	memset(&l.in, 0, offsetof(struct fd_writer, buf));
	l.in.fd = l.child.in;
	log_spawned(&l);
	if (cfg->jail && cfg->jail->cfg.mode != JAIL_NONE)
		disk_watch_start(&l.disk, l.jl.limits.home_size,
		    l.jl.limits.cache_size, l.jl.limits.disk_reserve,
		    mono_ms());
	if (!cfg->jail || cfg->jail->cfg.mode == JAIL_NONE)
		log_event(LOG_WARN, "lease NOT isolated (--jail none)",
		    (struct log_field[]){ LF_STR("lease", l.id) }, 1);
	if (send_started(&l, version) != 0) {
		l.end_reason = "cannot send STARTED";
		rc = -1;
	} else {
		l.last_heard = mono_ms();
		rc = relay(&l);
	}
	teardown(&l);
	mcp_tap_end(&tap);
	jail_lease_stats(&l.jl, &l.stats);
	/* the log names the limit that ended it, as the EXIT frame does */
	if (rc == 0 && exited_reason(&l) != EXIT_REASON_EXITED)
		l.end_reason = proto_exit_reason_name(exited_reason(&l));
	log_end(&l);
	switch (rc) {
	case 0:
	case RELAY_STDIN_GRACE:	/* the server's status says how it ended */
		send_exit(&l, EXIT_REASON_EXITED);
		break;
	case RELAY_SHUTDOWN:
		send_exit(&l, EXIT_REASON_SHUTDOWN);
		break;
	case RELAY_DISK:
		send_exit(&l, EXIT_REASON_DISK);
		break;
	case RELAY_MCP:
		release_slot(&l);
		service_refuse(&l.ch, LERR_MCP, l.end_reason);
		goto out;
	case RELAY_MAX_DURATION:
		/* refuse(): the slot, the ERROR and the lingering close */
		release_slot(&l);
		snprintf(err, sizeof err, "the lease reached the runner's "
		    "--max-lease-duration (%llu s); the server was ended",
		    (unsigned long long)(cfg->max_lease_ms / 1000));
		service_refuse(&l.ch, LERR_MAX_DURATION, err);
		goto out;
	default:
		goto out;
	}
	/* EXIT is a final frame as ERROR is: the relay may still be sending
	 * stdin the server never read; linger as refuse() does (the server
	 * is already gone, so this only delays the jail's cleanup) */
	release_slot(&l);
	(void)channel_close_lingering(&l.ch, SERVICE_FINAL_FRAME_MS);
out:
	channel_close(&l.ch);
	egress_lease_stop(&l.eg);
	if (l.jl_open && jail_lease_close(&l.jl, -1, NULL, NULL, err,
	    sizeof err) != 0)
		log_event(LOG_WARN, "lease cleanup incomplete", (struct
		    log_field[]){ LF_STR("lease", l.id), LF_STR("reason", err) },
		    2);
	return 0;
}
