/* store.c - review records on disk: strict parse, atomic write, lock. */
#include "common/policy/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/policy/approval.h"
#include "common/egress/egress_allow.h"
#include "common/mcp/toollist.h"
#include "common/base/fileio.h"
#include "common/policy/record_line.h"

#define REC_HEADER "airlock-record"
#define REC_VERSION "1"

static const char *const status_names[] = {
	[STORE_NOT_REQUIRED] = "NOT_REQUIRED",
	[STORE_PENDING] = "PENDING",
	[STORE_APPROVED] = "APPROVED",
	[STORE_REJECTED] = "REJECTED",
	[STORE_REVOKED] = "REVOKED",
};

static const char *const source_names[] = {
	[STORE_CATALOG] = "catalog",
	[STORE_CUSTOM] = "custom",
	[STORE_REGISTRY] = "registry",
};

static const char *const actions[] = {
	"submit", "approve", "reject", "revoke", "renew", NULL
};

const char *
store_status_name(enum store_status s)
{
	return (unsigned)s < STORE_STATUS_MAX_ ? status_names[s] : "?";
}

const char *
store_source_name(enum store_source s)
{
	return (unsigned)s < STORE_SOURCE_MAX_ ? source_names[s] : "?";
}

/* name's index among the n names, or -1. */
static int
name_index(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

int
store_status_parse(const char *name)
{
	return name_index(status_names, STORE_STATUS_MAX_, name);
}

int
store_source_parse(const char *name)
{
	return name_index(source_names, STORE_SOURCE_MAX_, name);
}

int
store_id_valid(const char *id, size_t n)
{
	if (n < 7 || n > 10 || id[0] != 'r')
		return 0;
	for (size_t i = 1; i < n; i++)
		if (id[i] < '0' || id[i] > '9')
			return 0;
	return 1;
}

__attribute__((format(printf, 2, 3))) static int
fail(struct store *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- record format ---------------------------------------------------- */

/* The parser's state: the input, the arena the C strings go to, and
 * where it failed. */
struct parse {
	struct rd r;
	struct record_line_line l;
	char *arena;
	size_t used, cap;
	size_t line;
	const char *why;
};

/* Next line; with key, it must be that key with n items. */
static int
next(struct parse *ps, const char *key, size_t n)
{
	int rc;

	ps->line++;
	rc = record_line_next(&ps->r, STORE_REC_MAX, &ps->l);
	if (rc != 0) {
		ps->why = rc > 0 ? "unexpected end of file" : "malformed line";
		return -1;
	}
	if (key && !record_line_is(&ps->l, key, n)) {
		ps->why = "unexpected line (wrong key or item count)";
		return -1;
	}
	return 0;
}

/* Peek: 1 when the next line starts with key (the line is not taken). */
static int
peek(struct parse *ps, const char *key)
{
	size_t k = strlen(key);

	return rd_left(&ps->r) > k &&
	    memcmp(ps->r.p + ps->r.off, key, k) == 0 &&
	    ps->r.p[ps->r.off + k] == ' ';
}

/* Item i of the current line as a C string in the arena (lpf already
 * refused NUL bytes inside). */
static const char *
str(struct parse *ps, size_t i)
{
	const struct record_line_item *it = &ps->l.item[i];
	char *out;

	if (it->n >= ps->cap - ps->used)
		return NULL;	/* never: an item is shorter than its line */
	out = ps->arena + ps->used;
	memcpy(out, it->p, it->n);
	out[it->n] = '\0';
	ps->used += it->n + 1;
	return out;
}

static int
bad(struct parse *ps, const char *why)
{
	ps->why = why;
	return -1;
}

int
store_actor_valid(const char *s, size_t n)
{
	if (n == 0 || n > STORE_ACTOR_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return 0;
	return 1;
}

static int
token_chars_valid(const char *s)
{
	size_t n = strlen(s);

	return n <= APPROVAL_TOKEN_MAX && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789-_.") == n;
}

static int
known_action(const char *a)
{
	for (size_t i = 0; actions[i]; i++)
		if (strcmp(a, actions[i]) == 0)
			return 1;
	return 0;
}

static int
parse_head(struct parse *ps, struct store_rec *rec)
{
	const char *v;
	int e;

	if (next(ps, REC_HEADER, 1) || !record_line_eq(&ps->l.item[0], REC_VERSION))
		return bad(ps, "not a version 1 record "
		    "(\"airlock-record 1:1\")");
	if (next(ps, "id", 1) || !(rec->id = str(ps, 0)) ||
	    !store_id_valid(rec->id, strlen(rec->id)))
		return bad(ps, "bad id");
	if (next(ps, "tenant", 1) || !(rec->tenant = str(ps, 0)) ||
	    (strcmp(rec->tenant, APPROVAL_WILDCARD_TENANT) != 0 &&
	    !proto_id_valid((const uint8_t *)rec->tenant,
	    strlen(rec->tenant))))
		return bad(ps, "bad tenant");
	if (next(ps, "registration", 1) || !(v = str(ps, 0)) ||
	    !proto_id_valid((const uint8_t *)v, strlen(v)))
		return bad(ps, "bad registration");
	rec->registration = v;
	if (next(ps, "source", 1) || !(v = str(ps, 0)) ||
	    (e = store_source_parse(v)) < 0)
		return bad(ps, "bad source");
	rec->source = (enum store_source)e;
	/* catalog entries and only they are for every tenant */
	if ((rec->source == STORE_CATALOG) !=
	    (strcmp(rec->tenant, APPROVAL_WILDCARD_TENANT) == 0))
		return bad(ps, "tenant \"*\" if and only if source is catalog");
	if (next(ps, "status", 1) || !(v = str(ps, 0)) ||
	    (e = store_status_parse(v)) < 0)
		return bad(ps, "bad status");
	rec->status = (enum store_status)e;
	return 0;
}

static int
parse_lists(struct parse *ps, struct store_rec *rec)
{
	const char *v;

	rec->argc = 0;
	while (peek(ps, "arg")) {
		if (rec->argc == PROTO_ARGC_MAX)
			return bad(ps, "too many arguments");
		if (next(ps, "arg", 1) || ps->l.item[0].n > PROTO_ARG_MAX ||
		    !(v = str(ps, 0)))
			return bad(ps, "bad argument");
		rec->argv[rec->argc++] = v;
	}
	if (rec->argc == 0) {
		ps->line++;	/* the line that should have been one */
		return bad(ps, "no argument");
	}
	rec->argv[rec->argc] = NULL;
	rec->envc = 0;
	while (peek(ps, "env")) {
		if (rec->envc == PROTO_ENVC_MAX)
			return bad(ps, "too many env keys");
		if (next(ps, "env", 1) || ps->l.item[0].n == 0 ||
		    ps->l.item[0].n > PROTO_ENV_KEY_MAX || !(v = str(ps, 0)) ||
		    strchr(v, '='))
			return bad(ps, "bad env key");
		if (rec->envc > 0 && strcmp(rec->env[rec->envc - 1], v) >= 0)
			return bad(ps, "env keys not strictly ascending");
		rec->env[rec->envc++] = v;
	}
	rec->egress = "";
	if (peek(ps, "egress")) {
		static char canon[EGRESS_ALLOW_TEXT_MAX + 1];
		char why[160];

		/* only the one spelling the token will carry */
		if (next(ps, "egress", 1) || ps->l.item[0].n == 0 ||
		    !(v = str(ps, 0)) || egress_allow_canonical(v, strlen(v),
		    canon, sizeof canon, why, sizeof why) < 0 ||
		    strcmp(canon, v) != 0)
			return bad(ps, "bad egress list");
		rec->egress = v;
	}
	rec->lock = "";
	rec->lock_scripts = 0;
	if (peek(ps, "lock")) {
		const char *sc;

		if (next(ps, "lock", 2) || !(v = str(ps, 0)) ||
		    !store_lock_valid(v, strlen(v)) || !(sc = str(ps, 1)) ||
		    (strcmp(sc, "no") != 0 && strcmp(sc, "yes") != 0))
			return bad(ps, "bad lock");
		rec->lock = v;
		rec->lock_scripts = sc[0] == 'y';
	}
	rec->tools = "";
	if (peek(ps, "tools")) {
		if (next(ps, "tools", 1) || !(v = str(ps, 0)) ||
		    !toollist_is_canonical((const uint8_t *)v, strlen(v)))
			return bad(ps, "bad tool list");
		rec->tools = v;
	}
	rec->surface = "";
	if (peek(ps, "surface")) {
		if (next(ps, "surface", 1) || !(v = str(ps, 0)) ||
		    !store_lock_valid(v, strlen(v)))
			return bad(ps, "bad surface digest");
		rec->surface = v;
	}
	rec->token = "";
	if (peek(ps, "token")) {
		if (next(ps, "token", 1) || ps->l.item[0].n == 0 ||
		    !(v = str(ps, 0)) || !token_chars_valid(v))
			return bad(ps, "bad token");
		rec->token = v;
	}
	return 0;
}

static int
parse_events(struct parse *ps, struct store_rec *rec)
{
	struct store_event *ev;
	const char *v;
	int e;

	rec->nevents = 0;
	while (rd_left(&ps->r) > 0) {
		if (rec->nevents == STORE_EVENTS_MAX)
			return bad(ps, "too many events");
		ev = &rec->events[rec->nevents];
		if (next(ps, "event", 5) || record_line_u64(&ps->l.item[0], &ev->time))
			return bad(ps, "bad event");
		if (!(ev->actor = str(ps, 1)) ||
		    !store_actor_valid(ev->actor, strlen(ev->actor)))
			return bad(ps, "bad event actor");
		if (!(ev->action = str(ps, 2)) || !known_action(ev->action))
			return bad(ps, "bad event action");
		if (!(v = str(ps, 3)) || (e = store_status_parse(v)) < 0)
			return bad(ps, "bad event status");
		ev->status = (enum store_status)e;
		if (ps->l.item[4].n > STORE_NOTE_MAX ||
		    !(ev->note = str(ps, 4)))
			return bad(ps, "bad event note");
		rec->nevents++;
	}
	if (rec->nevents == 0)
		return bad(ps, "no history");
	ps->line = 0;
	if (rec->events[rec->nevents - 1].status != rec->status)
		return bad(ps, "status differs from the last event's");
	if (rec->status == STORE_APPROVED && !rec->token[0])
		return bad(ps, "APPROVED without a token");
	return 0;
}

int
store_rec_parse(const uint8_t *p, size_t n, struct store_rec *rec,
    size_t *line, const char **why)
{
	struct parse ps = { .r = rd_init(p, n) };

	memset(rec, 0, sizeof *rec);
	if (n > STORE_REC_MAX) {
		*line = 0;
		*why = "record file too large";
		return -1;
	}
	/* Each value of k bytes takes at least k + 3 bytes of the file and
	 * k + 1 of the arena: n + 1 bytes always suffice. */
	ps.cap = n + 1;
	if (!(ps.arena = malloc(ps.cap))) {
		*line = 0;
		*why = "out of memory";
		return -1;
	}
	rec->arena = ps.arena;
	if (parse_head(&ps, rec) || parse_lists(&ps, rec) ||
	    parse_events(&ps, rec)) {
		*line = ps.line;
		*why = ps.why;
		store_rec_free(rec);
		return -1;
	}
	return 0;
}

void
store_rec_free(struct store_rec *rec)
{
	free(rec->arena);
	rec->arena = NULL;
}

int
store_lock_valid(const char *s, size_t n)
{
	return n == 64 && strspn(s, "0123456789abcdef") >= 64;
}

int
store_rec_format(const struct store_rec *rec, uint8_t **out, size_t *len)
{
	uint8_t *buf = malloc(STORE_REC_MAX);
	struct wr w = wr_init(buf, STORE_REC_MAX);

	if (!buf)
		return -1;
	record_line_key(&w, REC_HEADER);
	record_line_str(&w, REC_VERSION);
	record_line_eol(&w);
#define FIELD(key, value) do { record_line_key(&w, key); record_line_str(&w, value); \
	record_line_eol(&w); } while (0)
	FIELD("id", rec->id);
	FIELD("tenant", rec->tenant);
	FIELD("registration", rec->registration);
	FIELD("source", store_source_name(rec->source));
	FIELD("status", store_status_name(rec->status));
	for (size_t i = 0; i < rec->argc; i++)
		FIELD("arg", rec->argv[i]);
	for (size_t i = 0; i < rec->envc; i++)
		FIELD("env", rec->env[i]);
	if (rec->egress && rec->egress[0])
		FIELD("egress", rec->egress);
	if (rec->lock && rec->lock[0]) {
		record_line_key(&w, "lock");
		record_line_str(&w, rec->lock);
		record_line_str(&w, rec->lock_scripts ? "yes" : "no");
		record_line_eol(&w);
	}
	if (rec->tools && rec->tools[0])
		FIELD("tools", rec->tools);
	if (rec->surface && rec->surface[0])
		FIELD("surface", rec->surface);
	if (rec->token[0])
		FIELD("token", rec->token);
#undef FIELD
	for (size_t i = 0; i < rec->nevents; i++) {
		const struct store_event *ev = &rec->events[i];

		record_line_key(&w, "event");
		record_line_num(&w, ev->time);
		record_line_str(&w, ev->actor);
		record_line_str(&w, ev->action);
		record_line_str(&w, store_status_name(ev->status));
		record_line_str(&w, ev->note);
		record_line_eol(&w);
	}
	if (w.bad) {
		free(buf);
		return -1;
	}
	*out = buf;
	*len = w.off;
	return 0;
}

/* ---- the directory ---------------------------------------------------- */

int
store_path(struct store *s, const char *name, char *out, size_t cap)
{
	if ((size_t)snprintf(out, cap, "%s/%s", s->dir, name) >= cap)
		return fail(s, "path too long: %s/%s", s->dir, name);
	return 0;
}

/* Create dir/name as an empty file holding init, unless it exists. */
static int
ensure_file(struct store *s, const char *name, const char *init)
{
	char path[PATH_MAX];

	if (store_path(s, name, path, sizeof path) != 0)
		return -1;
	if (file_create(path, init, strlen(init), 0600) != 0 &&
	    errno != EEXIST)
		return fail(s, "cannot create %s: %s", path, strerror(errno));
	return 0;
}

int
store_open(struct store *s, const char *dir, int create)
{
	char path[PATH_MAX];
	struct stat st;

	s->lock_fd = -1;
	s->err[0] = '\0';
	if ((size_t)snprintf(s->dir, sizeof s->dir, "%s", dir) >=
	    sizeof s->dir)
		return fail(s, "store path too long");
	if (create && mkdir(dir, 0700) != 0 && errno != EEXIST)
		return fail(s, "cannot create store %s: %s", dir,
		    strerror(errno));
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return fail(s, "no review store at %s (submit creates one)",
		    dir);
	if (store_path(s, "records", path, sizeof path) != 0)
		return -1;
	if (create && mkdir(path, 0700) != 0 && errno != EEXIST)
		return fail(s, "cannot create %s: %s", path, strerror(errno));
	if (create && (ensure_file(s, "audit.log", "") != 0 ||
	    ensure_file(s, "revoked", REVOCATION_HEADER) != 0 ||
	    ensure_file(s, ".lock", "") != 0))
		return -1;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return fail(s, "%s is not a review store (no records/)", dir);
	return 0;
}

void
store_close(struct store *s)
{
	if (s->lock_fd >= 0)
		close(s->lock_fd);	/* releases the flock */
	s->lock_fd = -1;
}

int
store_lock(struct store *s)
{
	char path[PATH_MAX];

	if (store_path(s, ".lock", path, sizeof path) != 0)
		return -1;
	s->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (s->lock_fd < 0)
		return fail(s, "cannot open %s: %s", path, strerror(errno));
	while (flock(s->lock_fd, LOCK_EX) != 0)
		if (errno != EINTR)
			return fail(s, "cannot lock %s: %s", path,
			    strerror(errno));
	return 0;
}

static int
id_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t xn = strlen(x), yn = strlen(y);

	/* numeric order: a shorter id has fewer digits */
	return xn != yn ? (xn < yn ? -1 : 1) : strcmp(x, y);
}

void
store_list_free(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

static int
is_temp(const char *name)
{
	size_t n = strlen(name);

	return name[0] == '.' && n > 5 && strcmp(name + n - 4, ".tmp") == 0;
}

int
store_list(struct store *s, char ***ids, size_t *n)
{
	char path[PATH_MAX];
	char **out = NULL;
	size_t k = 0, cap = 0;
	struct dirent *e;
	DIR *d;

	if (store_path(s, "records", path, sizeof path) != 0)
		return -1;
	if (!(d = opendir(path)))
		return fail(s, "cannot read %s: %s", path, strerror(errno));
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0
		    || is_temp(e->d_name))
			continue;
		if (!store_id_valid(e->d_name, strlen(e->d_name))) {
			fail(s, "%s/%s: not a record file (records hold only "
			    "rNNNNNN files)", path, e->d_name);
			goto err;
		}
		if (k == cap) {
			char **grown = realloc(out, (cap = cap ? 2 * cap : 64) *
			    sizeof *out);

			if (!grown) {
				fail(s, "out of memory");
				goto err;
			}
			out = grown;
		}
		if (!(out[k] = strdup(e->d_name))) {
			fail(s, "out of memory");
			goto err;
		}
		k++;
	}
	closedir(d);
	if (k > 0)
		qsort(out, k, sizeof *out, id_cmp);
	*ids = out;
	*n = k;
	return 0;
err:
	closedir(d);
	store_list_free(out, k);
	return -1;
}

int
store_next_id(struct store *s, char id[STORE_ID_MAX])
{
	char **ids;
	size_t n;
	unsigned long last = 0;

	if (store_list(s, &ids, &n) != 0)
		return -1;
	if (n > 0)
		last = strtoul(ids[n - 1] + 1, NULL, 10);	/* 9 digits */
	store_list_free(ids, n);
	if (last >= STORE_RECORDS_MAX)
		return fail(s, "%s: no record ids left", s->dir);
	snprintf(id, STORE_ID_MAX, "r%06lu", last + 1);
	return 0;
}

int
store_read(struct store *s, const char *id, struct store_rec *rec)
{
	char path[PATH_MAX], name[STORE_ID_MAX + 8];
	const char *why;
	uint8_t *buf;
	size_t len, line;
	int rc;

	if (!store_id_valid(id, strlen(id)))
		return fail(s, "not a record id: %.20s (ids look like r000001)",
		    id);
	snprintf(name, sizeof name, "records/%s", id);
	if (store_path(s, name, path, sizeof path) != 0)
		return -1;
	if (file_read(path, STORE_REC_MAX, &buf, &len) != 0)
		return fail(s, errno == ENOENT ? "no record %s in %s" :
		    "cannot read record %s in %s", id, s->dir);
	rc = store_rec_parse(buf, len, rec, &line, &why);
	free(buf);
	if (rc != 0)
		return line ? fail(s, "%s: line %zu: %s", path, line, why) :
		    fail(s, "%s: %s", path, why);
	if (strcmp(rec->id, id) != 0) {
		fail(s, "%s: holds record %s, not %s", path, rec->id, id);
		store_rec_free(rec);
		return -1;
	}
	return 0;
}

int
store_write(struct store *s, const struct store_rec *rec)
{
	char path[PATH_MAX], name[STORE_ID_MAX + 8];
	uint8_t *buf;
	size_t len;
	int rc;

	snprintf(name, sizeof name, "records/%s", rec->id);
	if (store_path(s, name, path, sizeof path) != 0)
		return -1;
	if (store_rec_format(rec, &buf, &len) != 0)
		return fail(s, "record %s is too large to store", rec->id);
	rc = file_replace(path, buf, len, 0600);
	free(buf);
	if (rc != 0)
		return fail(s, "cannot write %s: %s", path, strerror(errno));
	return 0;
}
