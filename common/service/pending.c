/* pending.c - fair shares of the pending-handshake table. */
#include "common/service/pending.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "common/base/bounded_rw.h"

void
pending_init(struct pending *p, uint32_t max, uint32_t per_source)
{
	memset(p, 0, sizeof *p);
	p->max = max < 1 ? 1 : max > PENDING_MAX ? PENDING_MAX : max;
	p->per_source = per_source < 1 ? 1 : per_source > PENDING_MAX ?
	    PENDING_MAX : per_source;
}

void
pending_source_of(struct pending_source *s, const struct sockaddr *sa,
    socklen_t len, uid_t uid)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0xff, 0xff };
	struct wr w = wr_init(s->key, sizeof s->key);

	memset(s, 0, sizeof *s);
	if (uid != (uid_t)-1) {
		s->kind = PENDING_LOCAL;
		wr_u32(&w, (uint32_t)uid);
		return;
	}
	if (sa && sa->sa_family == AF_INET &&
	    len >= (socklen_t)sizeof(struct sockaddr_in)) {
		s->kind = PENDING_IPV4;
		memcpy(s->key, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		return;
	}
	if (sa && sa->sa_family == AF_INET6 &&
	    len >= (socklen_t)sizeof(struct sockaddr_in6)) {
		const uint8_t *a =
		    ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;

		if (memcmp(a, mapped, sizeof mapped) == 0) {
			s->kind = PENDING_IPV4;
			memcpy(s->key, a + 12, 4);
		} else {
			s->kind = PENDING_IPV6;
			memcpy(s->key, a, 8);
		}
		return;
	}
	s->kind = PENDING_LOCAL;
	wr_u32(&w, (uint32_t)uid);
}

void
pending_source_text(const struct pending_source *s, char *out, size_t cap)
{
	char a[INET6_ADDRSTRLEN];
	uint8_t v6[16] = { 0 };
	struct rd r = rd_init(s->key, sizeof s->key);
	uint32_t u;

	switch (s->kind) {
	case PENDING_IPV4:
		inet_ntop(AF_INET, s->key, a, sizeof a);
		snprintf(out, cap, "%s", a);
		return;
	case PENDING_IPV6:
		memcpy(v6, s->key, 8);
		inet_ntop(AF_INET6, v6, a, sizeof a);
		snprintf(out, cap, "%s/64", a);
		return;
	default:
		if (rd_u32(&r, &u) != 0 || u == UINT32_MAX)
			snprintf(out, cap, "local (uid unknown)");
		else
			snprintf(out, cap, "local uid %u", u);
	}
}

static int
same(const struct pending_source *a, const struct pending_source *b)
{
	return a->kind == b->kind && memcmp(a->key, b->key, sizeof a->key) == 0;
}

static size_t
find(const struct pending *p, const struct pending_source *s)
{
	size_t i;

	for (i = 0; i < p->nsources; i++)
		if (same(&p->count[i].src, s))
			break;
	return i;
}

uint32_t
pending_count(const struct pending *p, const struct pending_source *s)
{
	size_t i = find(p, s);

	return i < p->nsources ? p->count[i].n : 0;
}

enum pending_verdict
pending_decide(const struct pending *p, const struct pending_source *s,
    uint32_t rnd, struct pending_source *heavy)
{
	uint32_t c = pending_count(p, s), start = p->max / 2, share, span;
	size_t nsrc = p->nsources + (c == 0), h = 0;

	if (c >= p->per_source)
		return PENDING_REFUSE_SOURCE;
	if (p->total >= p->max) {
		for (size_t i = 1; i < p->nsources; i++)
			if (p->count[i].n > p->count[h].n)
				h = i;
		if (p->nsources == 0 || p->count[h].n <= c)
			return PENDING_DROP_FULL;
		*heavy = p->count[h].src;
		return PENDING_ADMIT_EVICT;
	}
	share = p->max / (uint32_t)nsrc;
	if (p->total < start || c < share)
		return PENDING_ADMIT;
	span = p->max - start;	/* total in [start, max): drop with
				 * probability (total - start + 1) / span */
	return rnd % span <= p->total - start ? PENDING_DROP_EARLY :
	    PENDING_ADMIT;
}

void
pending_add(struct pending *p, const struct pending_source *s)
{
	size_t i = find(p, s);

	if (i == p->nsources) {
		if (p->nsources == PENDING_MAX)
			return;		/* cannot happen: total <= max */
		p->count[p->nsources].src = *s;
		p->count[p->nsources++].n = 0;
	}
	p->count[i].n++;
	p->total++;
}

void
pending_remove(struct pending *p, const struct pending_source *s)
{
	size_t i = find(p, s);

	if (i == p->nsources || p->count[i].n == 0)
		return;
	p->total--;
	if (--p->count[i].n == 0)
		p->count[i] = p->count[--p->nsources];
}
