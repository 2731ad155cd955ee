/* preauth.c - the unprivileged process that runs every handshake. */
#include "common/service/preauth.h"

#include "common/base/random_id.h"
#include "common/wire/version.h"

#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/base/clock.h"
#include "common/service/ctlmsg.h"
#include "common/service/localpeer.h"
#include "common/wire/frame.h"
#include "common/base/log.h"
#include "common/service/metrics.h"
#include "common/wire/noise.h"
#include "common/service/pending.h"
#include "common/jail/seccomp_policy.h"
#include "common/base/secmem.h"

#define SAY(...) (snprintf(err, errlen, __VA_ARGS__), -1)
#define ACCEPT_BURST 64		/* accepts per listener per wake-up */

/* What the loop and musl's malloc and stdio need; everything else (open,
 * socket, connect, fork, exec, ptrace, ...) fails with ENOSYS. */
static const struct seccomp_rule rules[] = {
	SECCOMP_OWN_ALLOW(accept4), SECCOMP_OWN_ALLOW(brk),
	SECCOMP_OWN_ALLOW(clock_gettime), SECCOMP_OWN_ALLOW(close),
	SECCOMP_OWN_ALLOW(exit), SECCOMP_OWN_ALLOW(exit_group),
	SECCOMP_OWN_ALLOW(getrandom), SECCOMP_OWN_ALLOW(getsockname),
	SECCOMP_OWN_ALLOW(getsockopt), SECCOMP_OWN_ALLOW(madvise),
	SECCOMP_OWN_NO_EXEC(mmap), SECCOMP_OWN_NO_EXEC(mprotect),
	SECCOMP_OWN_ALLOW(munmap), SECCOMP_OWN_ALLOW(poll),
	SECCOMP_OWN_ALLOW(read), SECCOMP_OWN_ALLOW(recvfrom),
	SECCOMP_OWN_ALLOW(restart_syscall), SECCOMP_OWN_ALLOW(rt_sigreturn),
	SECCOMP_OWN_ALLOW(sendmsg), SECCOMP_OWN_ALLOW(write),
	SECCOMP_OWN_ALLOW(writev),
};

int
preauth_filter(struct sock_fprog *out, char *err, size_t errlen)
{
	return seccomp_policy_compile(rules, sizeof rules / sizeof rules[0],
	    out, err, errlen);
}

/* No capability left in any set, checked by reading them back. */
static int
drop_caps(char *err, size_t errlen)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 &&
	    errno != EINVAL)
		return SAY("pre-auth: clearing ambient capabilities: %s",
		    strerror(errno));
	memset(d, 0, sizeof d);
	if (syscall(SYS_capset, &h, d) != 0)
		return SAY("pre-auth: capset: %s", strerror(errno));
	if (syscall(SYS_capget, &h, d) != 0)
		return SAY("pre-auth: capget: %s", strerror(errno));
	for (int i = 0; i < 2; i++)
		if (d[i].effective || d[i].permitted || d[i].inheritable)
			return SAY("pre-auth: capabilities remain after capset");
	return 0;
}

static int
set_limit(int res, rlim_t v)
{
	struct rlimit rl = { v, v };

	return setrlimit(res, &rl);
}

int
preauth_confine(const struct preauth_identity *id,
    const struct sock_fprog *filter, unsigned nofile, char *err,
    size_t errlen)
{
	uid_t r, e, s;

	/* the bounding set, while CAP_SETPCAP may still be ours; without it
	 * no_new_privs and the empty sets below leave nothing to gain */
	for (int c = 0; prctl(PR_CAPBSET_READ, c, 0, 0, 0) >= 0; c++)
		(void)prctl(PR_CAPBSET_DROP, c, 0, 0, 0);
	if (id->change) {
		if (id->uid == 0 || id->gid == 0)
			return SAY("pre-auth: refusing to run as uid/gid 0");
		if (setgroups(0, NULL) != 0 ||
		    setresgid(id->gid, id->gid, id->gid) != 0 ||
		    setresuid(id->uid, id->uid, id->uid) != 0)
			return SAY("pre-auth: cannot become uid %u gid %u: %s",
			    (unsigned)id->uid, (unsigned)id->gid,
			    strerror(errno));
		if (setresuid(0, 0, 0) == 0)
			return SAY("pre-auth: could regain uid 0");
	}
	if (getresuid(&r, &e, &s) != 0 || r == 0 || e == 0 || s == 0)
		return SAY("pre-auth: still uid 0 (give the service a pre-auth "
		    "uid)");
	if (drop_caps(err, errlen) != 0)
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		return SAY("pre-auth: prctl: %s", strerror(errno));
	/* no RLIMIT_FSIZE: stderr, the log, may be a file; seccomp leaves
	 * no way to open another */
	if (set_limit(RLIMIT_NPROC, 0) || set_limit(RLIMIT_CORE, 0) ||
	    set_limit(RLIMIT_NOFILE, nofile))
		return SAY("pre-auth: setrlimit: %s", strerror(errno));
	if (seccomp_policy_install(filter) != 0)
		return SAY("pre-auth: seccomp: %s", strerror(errno));
	return 0;
}

/* --- the loop --------------------------------------------------------- */

struct slot {
	int fd;				/* -1: free */
	struct pending_source src;
	int64_t deadline;
	int64_t accepted;		/* the oldest is evicted first */
	int replying;			/* msg1 read, msg2 being written */
	size_t key;			/* which secret of the ring matched */
	unsigned version;		/* under which protocol version */
	unsigned word;			/* and prologue word (0: none, else
					 * cfg->words[word - 1]) */
	size_t have;			/* bytes of msg read or written */
	uint8_t msg[FRAME_HEADER_LEN + NOISE_MSG1_LEN];
	struct noise_handshake hs;
};

/* What the summary line counts, since the last one. */
struct tally {
	uint64_t completed, auth_failed, bad_record, closed, timed_out;
	uint64_t refused_source, dropped_full, dropped_early, evicted;
	uint64_t refused_lease, unidentified;
	char last_refused[64];		/* the last source over its cap */
};

struct loop {
	const struct preauth_config *cfg;
	struct slot *slots;
	struct pending table;
	struct pollfd *pf;
	size_t *pf_slot;		/* pf index -> slot index */
	struct tally t;
	int64_t last_summary;
	struct random_pool rnd;
};

static void
slot_free(struct loop *l, struct slot *s)
{
	close(s->fd);
	pending_remove(&l->table, &s->src);
	noise_handshake_destroy(&s->hs);
	secure_wipe(s->msg, sizeof s->msg);
	s->fd = -1;
}

/* The handshake is complete: give the connection to the supervisor.
 * -1 when the supervisor is gone. */
static int
hand_off(struct loop *l, struct slot *s)
{
	struct ctlmsg m;
	enum ctlmsg_status st;

	memset(&m, 0, sizeof m);
	m.type = CTLMSG_CONN;
	m.conn_key = (uint8_t)s->key;
	m.conn_version = (uint8_t)s->version;
	m.conn_word = (uint8_t)s->word;
	if (noise_split(&s->hs, &m.u.conn) != NOISE_OK) {
		l->t.auth_failed++;
		slot_free(l, s);
		return 0;
	}
	st = ctlmsg_send(l->cfg->ctl, &m, s->fd, 0);
	secure_wipe(&m, sizeof m);
	slot_free(l, s);
	if (st != CTLMSG_OK)
		return -1;
	l->t.completed++;
	return 0;
}

/* Account for n bytes read or written: 1 when the slot may go on, 0 when
 * it must wait (EAGAIN) or was freed (the peer closed or failed). */
static int
moved(struct loop *l, struct slot *s, ssize_t n)
{
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		l->t.closed++;
		slot_free(l, s);
		return 0;
	}
	s->have += (size_t)n;
	return 1;
}

/* msg2 is in s->msg: write what the socket takes. */
static int
reply(struct loop *l, struct slot *s)
{
	if (!moved(l, s, write(s->fd, s->msg + s->have,
	    sizeof s->msg - s->have)))
		return 0;
	return s->have == sizeof s->msg ? hand_off(l, s) : 0;
}

/* msg1 under each accepted (version, word, secret) in turn, until one
 * authenticates: a failed try costs a hash and a tag check, never a DH
 * (msg1 is "psk, e" with an empty payload). The word is learnt only so:
 * no byte of the peer's is parsed for it. Leaves s->version, s->word,
 * s->key and s->hs set to what matched. */
static enum noise_status
try_each(struct loop *l, struct slot *s, size_t *plen)
{
	uint32_t versions = l->cfg->versions ? l->cfg->versions :
	    VERSION_ACCEPTED;
	char prologue[VERSION_PROLOGUE_MAX];
	enum noise_status st = NOISE_ERR_AUTH;

	for (unsigned v = 1; v <= VERSION_MAX; v++) {
		if (!(versions & (1u << v)))
			continue;
		for (s->word = 0; s->word <= l->cfg->nwords; s->word++) {
			size_t pn = version_prologue(v, s->word ?
			    l->cfg->words[s->word - 1] : NULL, prologue,
			    sizeof prologue);

			if (pn == 0)
				continue;
			for (s->key = 0; s->key < l->cfg->ring->n; s->key++) {
				st = noise_handshake_init(&s->hs,
				    NOISE_RESPONDER, l->cfg->ring->psk[s->key],
				    prologue, pn);
				if (st == NOISE_OK)
					st = noise_read_message(&s->hs, s->msg +
					    FRAME_HEADER_LEN, NOISE_MSG1_LEN,
					    NULL, 0, plen);
				if (st == NOISE_OK) {
					s->version = v;
					return st;
				}
				noise_handshake_destroy(&s->hs);
			}
		}
	}
	return st;
}

/* No pair authenticated msg1: before the close, one record that names
 * the versions accepted (common/wire/version.h), so the relay can tell a
 * wrong secret from a version mismatch. Best effort: the socket is fresh
 * and the record small, so one write takes it or none is sent. */
static void
say_versions(struct loop *l, struct slot *s)
{
	uint8_t rec[FRAME_HEADER_LEN + VERSION_HINT_MAX];
	size_t n = version_hint_encode(l->cfg->versions ? l->cfg->versions :
	    VERSION_ACCEPTED, rec + FRAME_HEADER_LEN, VERSION_HINT_MAX);

	if (n && frame_header(rec, n) == 0)
		(void)!write(s->fd, rec, FRAME_HEADER_LEN + n);
}

/* Read msg1: exactly one 48-byte record, nothing past it (the relay sends
 * SPAWN only after msg2, and whatever it sends next is the handler's). */
static int
step(struct loop *l, struct slot *s)
{
	enum noise_status st;
	size_t plen, len;

	if (s->replying)
		return reply(l, s);
	if (!moved(l, s, read(s->fd, s->msg + s->have,
	    sizeof s->msg - s->have)))
		return 0;
	if (s->have >= FRAME_HEADER_LEN &&
	    (s->msg[0] != 0 || s->msg[1] != NOISE_MSG1_LEN)) {
		l->t.bad_record++;	/* not airlock/1, or garbage */
		metric_add(M_HANDSHAKE_FAILURES, 0, 1);
		slot_free(l, s);
		return 0;
	}
	if (s->have < sizeof s->msg)
		return 0;
	st = try_each(l, s, &plen);
	if (st == NOISE_ERR_AUTH)
		say_versions(l, s);
	if (st == NOISE_OK)
		st = noise_write_message(&s->hs, NULL, 0,
		    s->msg + FRAME_HEADER_LEN, NOISE_MSG2_LEN, &len);
	if (st != NOISE_OK || frame_header(s->msg, NOISE_MSG2_LEN) != 0) {
		l->t.auth_failed++;	/* wrong secret or other version */
		metric_add(M_HANDSHAKE_FAILURES, 0, 1);
		slot_free(l, s);
		return 0;
	}
	s->replying = 1;
	s->have = 0;
	return reply(l, s);
}

static struct slot *
free_slot(struct loop *l)
{
	for (uint32_t i = 0; i < l->table.max; i++)
		if (l->slots[i].fd < 0)
			return &l->slots[i];
	return NULL;
}

/* Drop the oldest pending handshake of a source that holds n (one of the
 * heaviest): an idle one sooner than a relay's, which is done in a round
 * trip. */
static void
evict(struct loop *l, uint32_t n)
{
	struct slot *old = NULL;

	for (uint32_t i = 0; i < l->table.max; i++) {
		struct slot *s = &l->slots[i];

		if (s->fd >= 0 && (!old || s->accepted < old->accepted) &&
		    pending_count(&l->table, &s->src) == n)
			old = s;
	}
	if (old) {
		slot_free(l, old);
		l->t.evicted++;
	}
}

/* A connection closed unread: past its source's cap, or the table's. */
static void
dropped(int fd, uint64_t *counter)
{
	(*counter)++;
	metric_add(M_CONNECTIONS_DROPPED, 0, 1);
	close(fd);
}

static void
accept_burst(struct loop *l, int lfd)
{
	for (int i = 0; i < ACCEPT_BURST; i++) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof ss;
		struct pending_source src, heavy;
		uid_t uid = (uid_t)-1;
		struct slot *s;
		int fd = accept4(lfd, (struct sockaddr *)&ss, &sl,
		    SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (fd < 0)
			return;		/* EAGAIN, EMFILE, a peer gone */
		switch (localpeer_of(l->cfg->diag, fd, (struct sockaddr *)&ss,
		    sl, &uid)) {
		case LOCALPEER_LOCAL:
			if (!localpeer_uid_in(uid, l->cfg->lease_first,
			    l->cfg->lease_last))
				break;
			dropped(fd, &l->t.refused_lease);
			continue;
		case LOCALPEER_REMOTE:
			uid = (uid_t)-1;
			break;
		case LOCALPEER_UNKNOWN:
			dropped(fd, &l->t.unidentified);
			continue;
		}
		pending_source_of(&src, (struct sockaddr *)&ss, sl, uid);
		switch (pending_decide(&l->table, &src,
		    random_pool_next(&l->rnd), &heavy)) {
		case PENDING_ADMIT_EVICT:
			evict(l, pending_count(&l->table, &heavy));
			break;
		case PENDING_ADMIT:
			break;
		case PENDING_REFUSE_SOURCE:
			pending_source_text(&src, l->t.last_refused,
			    sizeof l->t.last_refused);
			dropped(fd, &l->t.refused_source);
			continue;
		case PENDING_DROP_FULL:
			dropped(fd, &l->t.dropped_full);
			continue;
		case PENDING_DROP_EARLY:
			dropped(fd, &l->t.dropped_early);
			continue;
		}
		s = free_slot(l);
		if (!s) {		/* cannot happen: the table bounds it */
			dropped(fd, &l->t.dropped_full);
			continue;
		}
		memset(s, 0, sizeof *s);
		s->fd = fd;
		s->src = src;
		s->accepted = mono_ms();
		s->deadline = s->accepted + l->cfg->handshake_ms;
		pending_add(&l->table, &src);
	}
}

static void
expire(struct loop *l, int64_t now)
{
	for (uint32_t i = 0; i < l->table.max; i++) {
		struct slot *s = &l->slots[i];

		if (s->fd >= 0 && now >= s->deadline) {
			l->t.timed_out++;
			metric_add(M_HANDSHAKE_FAILURES, 0, 1);
			slot_free(l, s);
		}
	}
}

/* Did anything go wrong since the last summary? */
static int
trouble(const struct tally *t)
{
	return t->auth_failed + t->bad_record + t->closed + t->timed_out +
	    t->refused_source + t->dropped_full + t->dropped_early +
	    t->evicted + t->refused_lease + t->unidentified != 0;
}

/* One line for everything that went wrong since the last one. */
static void
summary(struct loop *l, int64_t now)
{
	struct tally *t = &l->t;
	char limit[64];

	if (!trouble(t) || now - l->last_summary < PREAUTH_SUMMARY_MS)
		return;
	snprintf(limit, sizeof limit, "%s %u", l->cfg->per_source_flag,
	    (unsigned)l->table.per_source);
	log_event(LOG_WARN, "handshakes refused or failed", (struct log_field[]){
	    LF_NUM("since_ms", now - l->last_summary),
	    LF_NUM("completed", t->completed),
	    LF_NUM("auth_failed", t->auth_failed),
	    LF_NUM("not_airlock", t->bad_record),
	    LF_NUM("closed_by_peer", t->closed),
	    LF_NUM("timed_out", t->timed_out),
	    LF_NUM("refused_per_peer", t->refused_source),
	    LF_STR("per_peer_limit", limit),
	    LF_STR("last_refused_peer", t->last_refused),
	    LF_NUM("dropped_full", t->dropped_full),
	    LF_NUM("dropped_early", t->dropped_early),
	    LF_NUM("evicted", t->evicted),
	    LF_NUM("refused_lease", t->refused_lease),
	    LF_NUM("unidentified_local", t->unidentified),
	    LF_NUM("pending", l->table.total) }, 15);
	memset(t, 0, sizeof *t);
	l->last_summary = now;
}

static int
wait_ms(const struct loop *l, int64_t now)
{
	int64_t until = now + 60000;

	for (uint32_t i = 0; i < l->table.max; i++)
		if (l->slots[i].fd >= 0 && l->slots[i].deadline < until)
			until = l->slots[i].deadline;
	if (trouble(&l->t) && l->last_summary + PREAUTH_SUMMARY_MS < until)
		until = l->last_summary + PREAUTH_SUMMARY_MS;
	return until <= now ? 0 : (int)(until - now);
}

int
preauth_serve(const struct preauth_config *cfg)
{
	static struct loop l;
	struct ctlmsg ready;
	size_t cap = 1 + cfg->nlisteners + PENDING_MAX;

	memset(&l, 0, sizeof l);
	l.cfg = cfg;
	pending_init(&l.table, cfg->max_pending, cfg->max_per_source);
	l.slots = calloc(l.table.max, sizeof *l.slots);
	l.pf = calloc(cap, sizeof *l.pf);
	l.pf_slot = calloc(cap, sizeof *l.pf_slot);
	if (!l.slots || !l.pf || !l.pf_slot)
		return -1;
	for (uint32_t i = 0; i < l.table.max; i++)
		l.slots[i].fd = -1;
	memset(&ready, 0, sizeof ready);
	ready.type = CTLMSG_READY;
	if (ctlmsg_send(cfg->ctl, &ready, -1, 0) != CTLMSG_OK)
		return -1;
	l.last_summary = mono_ms() - PREAUTH_SUMMARY_MS;
	for (;;) {
		int64_t now = mono_ms();
		size_t n = 0, first_slot;

		l.pf[n++] = (struct pollfd){ cfg->ctl, POLLIN, 0 };
		for (size_t i = 0; i < cfg->nlisteners; i++)
			l.pf[n++] = (struct pollfd){ cfg->listeners[i],
			    POLLIN, 0 };
		first_slot = n;
		for (uint32_t i = 0; i < l.table.max; i++)
			if (l.slots[i].fd >= 0) {
				l.pf_slot[n] = i;
				l.pf[n++] = (struct pollfd){ l.slots[i].fd,
				    l.slots[i].replying ? POLLOUT : POLLIN, 0 };
			}
		if (poll(l.pf, n, wait_ms(&l, now)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (l.pf[0].revents)
			return 0;	/* the supervisor never writes: gone */
		for (size_t i = first_slot; i < n; i++) {
			struct slot *s = &l.slots[l.pf_slot[i]];

			if (l.pf[i].revents && s->fd == l.pf[i].fd &&
			    step(&l, s) != 0)
				return -1;
		}
		now = mono_ms();
		expire(&l, now);
		for (size_t i = 0; i < cfg->nlisteners; i++)
			if (l.pf[1 + i].revents & POLLIN)
				accept_burst(&l, cfg->listeners[i]);
		metric_set(M_HANDSHAKES_PENDING, 0, l.table.total);
		summary(&l, now);
	}
}
