/* pending.h - who may hold a pending (not yet authenticated) handshake:
 * a bounded table shared fairly among sources, with random early drop
 * when it fills (OpenSSH's MaxStartups, plus a per-source fair share).
 * Pure: no I/O, no clock, the caller supplies randomness.
 *
 * A source is a local peer's uid (a unix peer's SO_PEERCRED, a TCP peer
 * whose socket is on this host: common/service/localpeer.h), so one local
 * user is one source whichever of 127/8 it connects from; else an IPv4
 * address (IPv4-mapped IPv6 included) or an IPv6 /64 (one subscriber's
 * usual allocation: a /128 costs an attacker nothing). */
#ifndef AIRLOCK_PENDING_H
#define AIRLOCK_PENDING_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#define PENDING_MAX 1024	/* the most any table holds */

enum pending_kind { PENDING_IPV4 = 4, PENDING_IPV6 = 6, PENDING_LOCAL = 'u' };

struct pending_source {
	uint8_t kind;		/* enum pending_kind */
	uint8_t key[8];		/* address, /64 prefix or uid; zero padded */
};

struct pending {
	uint32_t max;		/* pending handshakes in all, <= PENDING_MAX */
	uint32_t per_source;	/* pending handshakes of one source */
	uint32_t total;
	size_t nsources;
	struct {
		struct pending_source src;
		uint32_t n;
	} count[PENDING_MAX];	/* sources with n > 0, unordered */
};

enum pending_verdict {
	PENDING_ADMIT,		/* take it */
	PENDING_ADMIT_EVICT,	/* take it after dropping one pending
				 * handshake of *heavy (the table is full and
				 * that source holds more than its share) */
	PENDING_REFUSE_SOURCE,	/* the source is at per_source */
	PENDING_DROP_FULL,	/* full, and no source holds more than this */
	PENDING_DROP_EARLY	/* random early drop */
};

/* An empty table; max and per_source are clamped to 1..PENDING_MAX. */
void pending_init(struct pending *p, uint32_t max, uint32_t per_source);

/* The source of a peer: uid when it is a local peer's (not -1), else the
 * address sa/len from accept (hostile only in the sense of unexpected
 * families: those become one shared PENDING_LOCAL key with uid -1). */
void pending_source_of(struct pending_source *s, const struct sockaddr *sa,
    socklen_t len, uid_t uid);

/* Text for logs: "10.0.0.1", "2001:db8:1:2::/64", "local uid 1000". */
void pending_source_text(const struct pending_source *s, char *out,
    size_t cap);

/* Pending handshakes of s. */
uint32_t pending_count(const struct pending *p, const struct pending_source *s);

/* May one more handshake of s start? rnd is a fresh random number (it
 * decides the early drop). Past half of max, a source that already holds
 * its fair share (max / sources) is dropped with a probability that grows
 * linearly to 1 at max; a source below its share never is. When full, a
 * source holding more than s loses one to s (*heavy says which: the
 * caller drops that source's oldest, an idle one more likely than a
 * relay's, which completes in a round trip); otherwise s is dropped. So
 * many sources holding one idle handshake each cannot shut out a new
 * one, and a source that holds as many as the heaviest evicts no one. */
enum pending_verdict pending_decide(const struct pending *p,
    const struct pending_source *s, uint32_t rnd,
    struct pending_source *heavy);

/* Count one more / one fewer handshake of s (add only after ADMIT or
 * ADMIT_EVICT, and after removing the evicted one). */
void pending_add(struct pending *p, const struct pending_source *s);
void pending_remove(struct pending *p, const struct pending_source *s);

#endif
