/* service.c - admission, refusal and drain shared by runner and sandbox. */
#include "common/service/service.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/jail/jail.h"
#include "common/jail/jail_probe.h"
#include "common/service/ctlmsg.h"
#include "common/base/fileio.h"
#include "common/base/idfile.h"
#include "common/base/log.h"
#include "common/base/signal_fd.h"
#include "common/jail/spawn.h"
#include "common/service/metrics.h"
#include "common/wire/netaddr.h"
#include "common/wire/version.h"
#include "common/wire/proto.h"
#include "common/jail/uidpool.h"

#define NOBODY 65534

void
service_preauth_identity(uint32_t uid, struct preauth_identity *id)
{
	memset(id, 0, sizeof *id);
	if (geteuid() != 0)
		return;
	id->change = 1;
	id->uid = id->gid = uid ? uid : NOBODY;
	if (!uid)
		log_msg(LOG_WARN, "the pre-auth process runs as nobody (%u), "
		    "which other daemons may share: give it a uid of its own "
		    "(--preauth-uid)", NOBODY);
}

/* A uid of the pre-auth process's own: no account of passwd or group has
 * it, no user is given it in subuid or subgid (newuidmap would let them
 * run a process under it, next to the one that holds the secret), no live
 * process holds it. 0, or -1 with err naming the holder. */
static int
uid_is_free(uint32_t uid, int preflight, char *err, size_t errlen)
{
	static const char *const files[] = { "/etc/passwd", "/etc/group",
		"/etc/subuid", "/etc/subgid" };
	uint8_t *buf;
	size_t len;
	uint32_t id, count;
	char name[64];
	int found;

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		if (file_read(files[i], 16u << 20, &buf, &len) != 0) {
			if (errno == ENOENT)
				continue;	/* FROM scratch */
			snprintf(err, errlen, "pre-auth uid %u: cannot check "
			    "%s: %s", uid, files[i], strerror(errno));
			return -1;
		}
		found = i < 2 ? idfile_find_in_range((const char *)buf, len,
		    uid, uid, &id, name, sizeof name) :
		    idfile_find_subid_overlap((const char *)buf, len, uid,
		    uid, &id, &count, name, sizeof name);
		free(buf);
		if (found) {
			log_escape(name, sizeof name, name, strlen(name));
			snprintf(err, errlen, "pre-auth uid %u is '%s' in %s: "
			    "the pre-auth process needs a uid no account uses "
			    "(--preauth-uid, or a --uid-range whose first uid "
			    "is free)", uid, name, files[i]);
			return -1;
		}
	}
	switch (preflight ? 0 : uid_has_process(uid, -1)) {
	case 0:
		return 0;
	case 1:
		snprintf(err, errlen, "pre-auth uid %u is held by a running "
		    "process: the pre-auth process needs a uid of its own "
		    "(--preauth-uid, or a --uid-range whose first uid is "
		    "free)", uid);
		return -1;
	default:
		snprintf(err, errlen, "pre-auth uid %u: /proc is unreadable, "
		    "so whether a process holds it is unknown", uid);
		return -1;
	}
}

int
service_start_preauth(struct supervisor *sv, const struct secret_ring *ring,
    uint32_t versions, const char *const *words, uint32_t handshake_ms,
    uint32_t per_peer, uint32_t uid, int preflight,
    const struct jail_config *jail, char *err, size_t errlen)
{
	struct preauth_config pc = {
		.ring = ring,
		.versions = versions,
		.words = words,
		.handshake_ms = handshake_ms,
		.max_pending = PREAUTH_PENDING_DEFAULT,
		.max_per_source = per_peer,
		.per_source_flag = "--max-conns-per-peer",
	};
	struct preauth_identity id;

	while (words && words[pc.nwords] && pc.nwords < VERSION_WORDS_MAX)
		pc.nwords++;
	/* the jailed children's uids: refused at the door */
	jail_child_uids(jail, &pc.lease_first, &pc.lease_last);
	service_preauth_identity(uid, &id);
	if (id.change && uid && uid_is_free(uid, preflight, err, errlen) != 0)
		return -1;
	return supervisor_start_preauth(sv, &pc, &id, err, errlen);
}

int
service_take(struct supervisor *sv, size_t serving_cap, int conn,
    char *peer, size_t peerlen)
{
	netaddr_peer_text(conn, peer, peerlen);
	if (sv->nh < serving_cap + SUPERVISOR_REFUSAL_SLOTS)
		return 0;
	metric_add(M_CONNECTIONS_DROPPED, 0, 1);
	log_event(LOG_WARN, "connection dropped: no refusal slot left",
	    (struct log_field[]){ LF_STR("peer", peer) }, 1);
	close(conn);
	return -1;
}

const char *
service_key_id(const struct secret_ring *ring, unsigned key)
{
	return key < ring->n ? ring->id[key] : "?";
}

int
service_handler_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	sigset_t none;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) != 0 ||
	    spawn_become_subreaper() != 0)
		return -1;
	return signal_fd_open(sigs, sizeof sigs / sizeof sigs[0]);
}

void
service_reap(struct supervisor *sv, void (*gone)(void *ctx, void *handler),
    void *ctx)
{
	void *h;

	while ((h = supervisor_reaped(sv)) != NULL) {
		if (gone)
			gone(ctx, h);
		supervisor_remove(sv, h);
	}
}

int
service_answer_pings(struct channel *ch, int wait_ms)
{
	const uint8_t *p;
	const char *why;
	uint8_t type;
	size_t len;
	long got = channel_fill(ch);

	if (got == 0 || (got < 0 && errno != EAGAIN))
		return -1;
	while (channel_next(ch, &type, &p, &len, &why) == CHANNEL_FRAME) {
		if (type != FRAME_PING || len != PROTO_PING_LEN)
			return -2;
		if ((wait_ms ? channel_send_wait(ch, FRAME_PONG, p, len,
		    wait_ms) : channel_queue(ch, FRAME_PONG, p, len)) != 0)
			return -3;
	}
	return ch->failed ? -2 : 0;
}

void
service_refuse(struct channel *ch, unsigned code, const char *msg)
{
	uint8_t buf[PROTO_TEXT_MAX + 8];
	long n = proto_error_encode(buf, sizeof buf, code, msg);

	if (n >= 0)
		(void)channel_queue(ch, FRAME_ERROR, buf, (size_t)n);
	(void)channel_close_lingering(ch, SERVICE_FINAL_FRAME_MS);
}

int
service_admit(int ctl, const char *tenant, uint64_t cpu_ms,
    struct channel *watch)
{
	struct ctlmsg m;

	memset(&m, 0, sizeof m);
	m.type = CTLMSG_ADMIT;
	m.u.admit.cpu_ms = cpu_ms;
	snprintf(m.u.admit.tenant, sizeof m.u.admit.tenant, "%s", tenant);
	if (ctlmsg_send(ctl, &m, -1, 0) != CTLMSG_OK)
		return -2;
	return service_admit_wait(ctl, watch);
}

int
service_admit_wait(int ctl, struct channel *watch)
{
	struct ctlmsg m;
	int fd;

	for (;;) {
		struct pollfd pf[2] = { { ctl, POLLIN, 0 },
			{ watch ? watch->fd : -1, POLLIN, 0 } };

		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -2;
		}
		if (pf[0].revents) {
			if (ctlmsg_recv(ctl, &m, &fd, 0) != CTLMSG_OK ||
			    m.type != CTLMSG_VERDICT)
				return -2;
			return m.u.verdict;
		}
		if (pf[1].revents) {
			int rc = service_answer_pings(watch,
			    SERVICE_FINAL_FRAME_MS);

			if (rc == -2)
				return -3;
			if (rc != 0)
				return -1;
		}
	}
}

void
service_done(int ctl, uint64_t cpu_used_ms)
{
	struct ctlmsg m;

	memset(&m, 0, sizeof m);
	m.type = CTLMSG_DONE;
	m.u.done_cpu_ms = cpu_used_ms;
	if (ctl >= 0)
		(void)ctlmsg_send(ctl, &m, -1, MSG_DONTWAIT);
}

void
service_verdict(int ctl, unsigned code)
{
	struct ctlmsg m;

	memset(&m, 0, sizeof m);
	m.type = CTLMSG_VERDICT;
	m.u.verdict = (uint16_t)code;
	(void)ctlmsg_send(ctl, &m, -1, MSG_DONTWAIT);
}

int
service_serve(struct supervisor *sv, const struct service_loop *loop,
    void *ctx)
{
	int timeout = -1;

	metric_set(M_READY, 0, 1);
	for (;;) {
		int rc = supervisor_poll(sv, timeout, loop->on_ctl,
		    loop->on_conn, ctx);
		int sig = 0;

		if (rc < 0 && errno != EINTR)
			return -1;
		if (rc > 0 && (sig = supervisor_signals(sv)) == SIGHUP)
			loop->reload(ctx);
		else if (sig)
			return sig;
		timeout = loop->tick(ctx);
	}
}

void
service_drain(struct supervisor *sv, uint32_t wait_ms, uint32_t kill_ms,
    void (*on_ctl)(void *ctx, void *handler), void (*reap)(void *ctx),
    void *ctx)
{
	int64_t start = mono_ms(), ending = 0;
	int now = wait_ms == 0;

	metric_set(M_READY, 0, 0);
	metric_set(M_DRAINING, 0, 1);
	supervisor_stop_listening(sv);
	for (;;) {
		int64_t t = mono_ms(), wait;
		int rc;

		reap(ctx);
		if (sv->nh == 0)
			return;
		if (!ending && (now || t - start >= (int64_t)wait_ms)) {
			if (!now)
				log_msg(LOG_INFO, "drain timeout: ending what "
				    "still runs");
			supervisor_kill_all(sv, SIGTERM);
			ending = t;
		}
		if (ending && t - ending >= (int64_t)kill_ms)
			supervisor_kill_all(sv, SIGKILL);
		wait = ending ? 10 : start + (int64_t)wait_ms - t;
		rc = supervisor_poll(sv, (int)(wait > 1000 ? 1000 : wait),
		    on_ctl, NULL, ctx);
		if (rc > 0 && supervisor_signals(sv) && !ending) {
			log_msg(LOG_INFO, "a second signal: ending everything "
			    "now");
			now = 1;
		}
	}
}
