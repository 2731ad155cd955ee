/* store.h - the review store: a directory holding one file per record
 * (records/rNNNNNN), the hash-chained audit log (audit.log), the
 * revocation list (revoked) and the lock file (.lock). Every change runs
 * under an exclusive flock of .lock and replaces a record file atomically
 * (fileio.h), so concurrent review commands never lose an update and a
 * crash leaves the old record or the new one. docs/REVIEW.md has the
 * record format; it is parsed strictly and a bad file is an error that
 * names it, never skipped. */
#ifndef AIRLOCK_STORE_H
#define AIRLOCK_STORE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "common/wire/proto.h"

#define STORE_REC_MAX (256u << 10)	/* bytes in one record file */
#define STORE_EVENTS_MAX 64		/* history entries per record */
#define STORE_ACTOR_MAX 64
#define STORE_NOTE_MAX 1024
#define STORE_ID_MAX 16			/* "r" and up to 9 digits */
#define STORE_RECORDS_MAX 999999999u

enum store_status {
	STORE_NOT_REQUIRED,	/* platform catalog: no review needed */
	STORE_PENDING,
	STORE_APPROVED,
	STORE_REJECTED,
	STORE_REVOKED,
	STORE_STATUS_MAX_
};

enum store_source {
	STORE_CATALOG,
	STORE_CUSTOM,
	STORE_REGISTRY,
	STORE_SOURCE_MAX_
};

struct store_event {
	uint64_t time;
	const char *actor;
	const char *action;	/* submit, approve, reject, revoke */
	enum store_status status;	/* the status after it */
	const char *note;	/* "" when none */
};

/* A record. Parsed strings live in arena (owned, freed by store_rec_free);
 * a record built by hand may point at any strings that outlive it. */
struct store_rec {
	const char *id;
	const char *tenant;	/* "*" for catalog entries */
	const char *registration;
	enum store_source source;
	enum store_status status;
	size_t argc;
	const char *argv[PROTO_ARGC_MAX + 1];	/* NULL-terminated */
	size_t envc;
	const char *env[PROTO_ENVC_MAX];	/* strictly ascending */
	const char *egress;	/* the registration's own egress hosts, the
				 * canonical allow-list text; "" none */
	const char *lock;	/* the npm lockfile's SHA-256, 64 lowercase
				 * hex (STORE/locks/HEX.json); "" none */
	int lock_scripts;	/* its install scripts may run (approve
				 * --allow-scripts) */
	const char *tools;	/* the tools the approval allows, the
				 * canonical tool list; "" every tool */
	const char *surface;	/* the captured MCP surface's SHA-256, 64
				 * lowercase hex (STORE/surfaces/HEX.json,
				 * common/mcp/surface.h); "" none */
	const char *token;	/* the approval token issued; "" when none */
	size_t nevents;
	struct store_event events[STORE_EVENTS_MAX];
	char *arena;
};

struct store {
	char dir[PATH_MAX - 64];	/* room left for "/records/ID" */
	int lock_fd;
	char err[PATH_MAX + 256];	/* the last error, naming its file */
};

const char *store_status_name(enum store_status s);
const char *store_source_name(enum store_source s);
/* The enum for a name; -1 if none. */
int store_status_parse(const char *name);
int store_source_parse(const char *name);

/* Every function below returns 0, or -1 with s->err set. */

/* Open the store at dir; with create, make what is missing (0700 dirs,
 * an empty audit log and revocation list). */
int store_open(struct store *s, const char *dir, int create);
void store_close(struct store *s);

/* Take the exclusive lock for a read-modify-write; held until close. */
int store_lock(struct store *s);

/* The path of a file in the store ("audit.log", "records/r000001"). */
int store_path(struct store *s, const char *name, char *out, size_t cap);

/* Sorted record ids; the array and strings are the caller's (free each,
 * then the array). A file in records/ that is not a record id and not a
 * writer's temporary (".NAME.tmp") is an error that names it. */
int store_list(struct store *s, char ***ids, size_t *n);
void store_list_free(char **ids, size_t n);

/* The next free record id (call it under the lock). */
int store_next_id(struct store *s, char id[STORE_ID_MAX]);

/* Read and parse record id; a bad file is an error that names it. */
int store_read(struct store *s, const char *id, struct store_rec *rec);
/* Write rec atomically (the caller holds the lock). */
int store_write(struct store *s, const struct store_rec *rec);

/* Parse record file bytes (untrusted); -1 with *why and *line (1-based,
 * 0 when the problem is not on one line). */
int store_rec_parse(const uint8_t *p, size_t n, struct store_rec *rec,
    size_t *line, const char **why);
/* Serialise into a new buffer the caller frees; -1 if over a cap. */
int store_rec_format(const struct store_rec *rec, uint8_t **out,
    size_t *len);
void store_rec_free(struct store_rec *rec);

/* 1 when s is n bytes of lowercase hex naming a lock (64). */
int store_lock_valid(const char *s, size_t n);

/* 1 when a reviewer name is 1..STORE_ACTOR_MAX printable ASCII bytes
 * without spaces. */
int store_actor_valid(const char *s, size_t n);

/* 1 when id is "r" followed by 6 to 9 digits. */
int store_id_valid(const char *id, size_t n);

#endif
