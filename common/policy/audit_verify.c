/* audit_verify.c - the audit log against the records, the revocation
 * list and a kept head: the cross-checks of `review audit --verify`. */
#include "common/policy/audit_verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/b64url.h"
#include "common/base/log.h"
#include "common/policy/eckey.h"

void
audit_entries_add(void *ctx, const struct audit_view *v)
{
	struct audit_entries *e = ctx;

	if (e->oom)
		return;
	if (e->n == e->cap) {
		/* at most AUDIT_FILE_MAX / 70 entries: no overflow */
		void *p = realloc(e->v, (e->cap ? 2 * e->cap : 64) *
		    sizeof *e->v);

		if (!p) {
			e->oom = 1;
			return;
		}
		e->v = p;
		e->cap = e->cap ? 2 * e->cap : 64;
	}
	e->v[e->n++] = *v;
}

void
audit_entries_free(struct audit_entries *e)
{
	free(e->v);
	*e = (struct audit_entries){ 0 };
}

static int
item_is(const struct record_line_item *it, const char *s)
{
	return it->n == strlen(s) && memcmp(it->p, s, it->n) == 0;
}

void
audit_hash_text(const uint8_t h[AUDIT_HASH_LEN],
    char out[2 * AUDIT_HASH_LEN + 1])
{
	for (size_t i = 0; i < AUDIT_HASH_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", h[i]);
}

int
audit_check_head(const struct audit_entries *e, uint64_t n, const char *hex)
{
	char have[2 * AUDIT_HASH_LEN + 1];

	if (n == 0 || n > e->n) {
		log_msg(LOG_ERROR, "the log has %zu entries, fewer than the %llu "
		    "kept: entries were cut off the end", e->n,
		    (unsigned long long)n);
		return -1;
	}
	audit_hash_text(e->v[n - 1].hash, have);
	if (strcmp(have, hex) != 0) {
		log_msg(LOG_ERROR, "entry %llu's hash is not the one kept: the "
		    "log was rewritten up to there", (unsigned long long)n);
		return -1;
	}
	return 0;
}

static int
event_is(const struct audit_view *v, const struct store_event *ev)
{
	return v->time == ev->time && item_is(&v->actor, ev->actor) &&
	    item_is(&v->action, ev->action) &&
	    item_is(&v->status, store_status_name(ev->status));
}

/* Record ids sort by length, then bytes (as store_list sorts them). */
static int
id_order(const struct record_line_item *a, const char *b)
{
	size_t n = strlen(b);
	int c;

	if (a->n != n)
		return a->n < n ? -1 : 1;
	c = memcmp(a->p, b, n);
	return c < 0 ? -1 : c > 0;
}

/* Entries in record id order, each record's in log order. */
static int
by_record(const void *a, const void *b)
{
	const struct audit_view *x = *(const struct audit_view *const *)a;
	const struct audit_view *y = *(const struct audit_view *const *)b;
	int c;

	if (x->record.n != y->record.n)
		return x->record.n < y->record.n ? -1 : 1;
	if ((c = memcmp(x->record.p, y->record.p, x->record.n)) != 0)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* An entry for a record that does not exist. Returns the number of
 * problems. */
static size_t
orphan_entry(const struct audit_view *v)
{
	if (item_is(&v->action, "submit")) {
		log_msg(LOG_WARN, "audit entry %llu submits record %.*s, which "
		    "does not exist (a crash before it was written, or it was "
		    "deleted)", (unsigned long long)v->seq, (int)v->record.n,
		    (const char *)v->record.p);
		return 0;
	}
	log_msg(LOG_ERROR, "audit entry %llu (%.*s) names record %.*s, which "
	    "is missing: it was deleted", (unsigned long long)v->seq,
	    (int)v->action.n, (const char *)v->action.p, (int)v->record.n,
	    (const char *)v->record.p);
	return 1;
}

/* One record against its entries (idx[*g] on, in log order); advances
 * *g past them. Returns the number of problems. */
static size_t
check_record(const struct store_rec *rec, const struct audit_view **idx,
    size_t n, size_t *g)
{
	size_t k = 0;

	for (; *g < n && id_order(&idx[*g]->record, rec->id) == 0; ++*g) {
		if (k < rec->nevents && event_is(idx[*g], &rec->events[k]))
			k++;
		else
			log_msg(LOG_WARN, "record %s does not hold audit entry "
			    "%llu (a change a crash kept from taking effect, "
			    "or an edited record)", rec->id,
			    (unsigned long long)idx[*g]->seq);
	}
	if (k < rec->nevents) {
		log_msg(LOG_ERROR, "record %s holds %zu event(s) the audit log "
		    "lacks, the first a %s: entries were removed or cut off "
		    "the end", rec->id, rec->nevents - k,
		    rec->events[k].action);
		return 1;
	}
	return 0;
}

/* Records and entries are walked together in id order. */
int
audit_check_records(struct store *s, const struct audit_entries *e,
    size_t *bad)
{
	const struct audit_view **idx = calloc(e->n + 1, sizeof *idx);
	size_t n = 0, g = 0;
	char **ids;
	int r = -1;

	*bad = 0;
	if (!idx) {
		snprintf(s->err, sizeof s->err, "out of memory");
		return -1;
	}
	for (size_t j = 0; j < e->n; j++)
		idx[j] = &e->v[j];
	qsort(idx, e->n, sizeof *idx, by_record);
	if (store_list(s, &ids, &n) != 0) {
		free(idx);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct store_rec rec;

		for (; g < e->n && id_order(&idx[g]->record, ids[i]) < 0; g++)
			*bad += orphan_entry(idx[g]);
		if (store_read(s, ids[i], &rec) != 0)
			goto out;
		*bad += check_record(&rec, idx, e->n, &g);
		store_rec_free(&rec);
	}
	for (; g < e->n; g++)
		*bad += orphan_entry(idx[g]);
	r = 0;
out:
	store_list_free(ids, n);
	free(idx);
	return r;
}

/* 1 when detail ends with "key=value". */
static int
detail_has(const struct record_line_item *d, const char *key, const char *value)
{
	size_t k = strlen(key), n = strlen(value);

	return d->n >= k + 1 + n && memcmp(d->p + d->n - n, value, n) == 0 &&
	    d->p[d->n - n - 1] == '=' &&
	    memcmp(d->p + d->n - n - 1 - k, key, k) == 0 &&
	    (d->n == k + 1 + n || d->p[d->n - n - 2 - k] == ' ');
}

size_t
audit_check_revoked(const struct audit_entries *e,
    const uint8_t (*ids)[REVOCATION_ID_LEN], size_t n, const char *path)
{
	char tid[ECKEY_ID_TEXT];
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		int found = 0;

		eckey_id_text(ids[i], tid);
		for (size_t j = 0; j < e->n && !found; j++)
			found = (item_is(&e->v[j].action, "revoke") &&
			    detail_has(&e->v[j].detail, "token", tid)) ||
			    (item_is(&e->v[j].action, "renew") &&
			    detail_has(&e->v[j].detail, "supersedes", tid));
		if (!found) {
			log_msg(LOG_ERROR, "%s lists token %s but no audit "
			    "entry revokes it: entries were removed or cut off "
			    "the end", path, tid);
			bad++;
		}
	}
	return bad;
}

/* The token id that ends detail as "key=ID" (22 base64url characters). */
static int
detail_id(const struct record_line_item *d, const char *key,
    uint8_t id[REVOCATION_ID_LEN])
{
	const size_t t = ECKEY_ID_TEXT - 1, k = strlen(key);
	const uint8_t *v;

	if (d->n < k + 1 + t)
		return -1;
	v = d->p + d->n - t;
	if (v[-1] != '=' || memcmp(v - 1 - k, key, k) != 0 ||
	    (d->n != k + 1 + t && v[-2 - (long)k] != ' '))
		return -1;
	return b64url_decode((const char *)v, t, id, REVOCATION_ID_LEN) ==
	    REVOCATION_ID_LEN ? 0 : -1;
}

static int
id_cmp(const void *a, const void *b)
{
	return memcmp(a, b, REVOCATION_ID_LEN);
}

size_t
audit_check_listed(const struct audit_entries *e,
    const uint8_t (*ids)[REVOCATION_ID_LEN], size_t n, const char *path)
{
	uint8_t id[REVOCATION_ID_LEN];
	char tid[ECKEY_ID_TEXT];
	size_t bad = 0;

	for (size_t j = 0; j < e->n; j++) {
		const struct audit_view *v = &e->v[j];

		if (!(item_is(&v->action, "revoke") &&
		    detail_id(&v->detail, "token", id) == 0) &&
		    !(item_is(&v->action, "renew") &&
		    detail_id(&v->detail, "supersedes", id) == 0))
			continue;
		if (bsearch(id, ids, n, sizeof *ids, id_cmp))
			continue;
		eckey_id_text(id, tid);
		log_msg(LOG_ERROR, "audit entry %llu revokes token %s but %s "
		    "does not list it: the list was edited or rolled back",
		    (unsigned long long)v->seq, tid, path);
		bad++;
	}
	return bad;
}
