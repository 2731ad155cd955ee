/* proto.h - payloads of the lease frames (see docs/PROTOCOL.md): encoders
 * for the sender and strict parsers for the receiver. A parser accepts a
 * payload only when every field fits its cap and the payload ends exactly
 * where the last field does. Strings become C strings by bounded copy that
 * rejects embedded NUL bytes. */
#ifndef AIRLOCK_PROTO_H
#define AIRLOCK_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "common/wire/frame.h"

#define PROTO_VERSION 1
#define PROTO_ID_MAX 64		/* tenant and registration ids */
#define PROTO_ARGC_MAX 256
#define PROTO_ARG_MAX 4096
#define PROTO_ENVC_MAX 256
#define PROTO_ENV_KEY_MAX 128
#define PROTO_ENV_VALUE_MAX 32768
#define PROTO_APPROVAL_MAX 8192
#define PROTO_TEXT_MAX 1024	/* error messages, exit detail, stderr tail */
#define PROTO_PING_LEN 8

/* A parsed SPAWN request. Every pointer points into pool. */
struct spawn_req {
	char *tenant;
	char *registration;
	size_t argc;
	char *argv[PROTO_ARGC_MAX + 1];		/* NULL-terminated */
	size_t envc;
	char *env_key[PROTO_ENVC_MAX];
	char *env_value[PROTO_ENVC_MAX];
	char *approval;				/* "" when absent */
	size_t approval_len;
	char pool[FRAME_PAYLOAD_MAX + 2 * (1 + PROTO_ARGC_MAX + 2 * PROTO_ENVC_MAX)];
};

enum proto_status {
	PROTO_OK = 0,
	PROTO_BAD_VERSION,
	PROTO_TRUNCATED,	/* a field runs past the end */
	PROTO_TRAILING,		/* bytes after the last field */
	PROTO_BAD_ID,		/* tenant/registration empty, too long, bad char */
	PROTO_BAD_ARGV,		/* count 0 or over cap, arg too long, NUL */
	PROTO_BAD_ENV,		/* count over cap, key/value too long, NUL */
	PROTO_BAD_APPROVAL,
	PROTO_BAD_LENGTH,	/* a fixed-size payload of the wrong size */
	PROTO_BAD_EGRESS	/* STARTED's egress policy: unknown mode, a
				 * list over its cap, out of order, or not in
				 * its one spelling */
};

const char *proto_status_text(enum proto_status s);

/* Ids are 1..PROTO_ID_MAX bytes of [A-Za-z0-9._-], not starting with '.':
 * they name directories (per-registration caches) and appear in logs. */
int proto_id_valid(const uint8_t *s, size_t n);
/* The same alphabet with another length cap (the sandbox's file names). */
int proto_name_valid(const uint8_t *s, size_t n, size_t max);

/* Encode a SPAWN payload into out (cap bytes); returns its length or -1 if
 * it does not fit or a field breaks a cap. env may be NULL when envc is 0. */
long proto_spawn_encode(uint8_t *out, size_t cap, const char *tenant,
    const char *registration, char *const *argv, size_t argc,
    char *const *env_key, char *const *env_value, size_t envc,
    const char *approval, size_t approval_len);
enum proto_status proto_spawn_parse(struct spawn_req *req, const uint8_t *p,
    size_t n);

/* EXIT: how the child ended and what crossed the lease. */
enum exit_kind { EXIT_KIND_CODE = 0, EXIT_KIND_SIGNAL = 1 };

struct exit_info {
	uint8_t kind;		/* enum exit_kind */
	uint8_t status;		/* exit code, or signal number */
	uint8_t reason;		/* enum exit_reason in lease terms */
	uint64_t duration_ms;
	uint64_t bytes_in, bytes_out, bytes_err;
	uint64_t peak_memory;	/* bytes; 0 when not measured */
	char detail[PROTO_TEXT_MAX + 1];	/* e.g. the stderr tail */
};

enum exit_reason {
	EXIT_REASON_EXITED = 0,		/* the server ended by itself */
	EXIT_REASON_SHUTDOWN = 1,	/* the runner is shutting down */
	EXIT_REASON_OOM = 2,		/* killed by the memory limit */
	EXIT_REASON_PIDS = 3,
	EXIT_REASON_DISK = 4,		/* past its share of the state
					 * volume (common/jail/diskquota.h) */
	EXIT_REASON_MAX_ = 5
};

const char *proto_exit_reason_name(unsigned reason);
long proto_exit_encode(uint8_t *out, size_t cap, const struct exit_info *e);
enum proto_status proto_exit_parse(struct exit_info *e, const uint8_t *p,
    size_t n);

/* ERROR: a stable code (see enum lease_error) and a human message. */
enum lease_error {
	LERR_BAD_REQUEST = 1,
	LERR_LAUNCHER = 2,
	LERR_INLINE_CODE = 3,
	LERR_ENV = 4,
	LERR_APPROVAL = 5,
	LERR_CAPACITY = 6,
	LERR_TENANT_CAPACITY = 7,
	LERR_PEER_CAPACITY = 8,
	LERR_SPAWN = 9,
	LERR_JAIL = 10,
	LERR_PROTOCOL = 11,
	LERR_TIMEOUT = 12,
	LERR_SHUTDOWN = 13,
	LERR_INTERNAL = 14,
	LERR_ARGV = 15,
	LERR_MAX_DURATION = 16,	/* after STARTED: --max-lease-duration */
	LERR_MCP = 17,		/* after STARTED: the server's MCP broke the
				 * approval's tool rules (common/mcp) */
	LERR_MAX_ = 18
};

/* Stable snake_case name of a code ("inline_code"), "unknown" otherwise. */
const char *proto_error_name(unsigned code);

struct error_info {
	uint16_t code;
	char message[PROTO_TEXT_MAX + 1];
};

long proto_error_encode(uint8_t *out, size_t cap, unsigned code,
    const char *message);
enum proto_status proto_error_parse(struct error_info *e, const uint8_t *p,
    size_t n);

/* STARTED: the lease id, the jail mode the child runs in, and the
 * liveness contract: the relay sends PING every ping_ms, and a runner that
 * hears nothing for liveness_ms ends the lease (and vice versa). From
 * protocol version 2 on, also the lease's egress policy. */
enum started_egress {
	EGRESS_NONE = 0,	/* no rule of airlock's: the runner's network */
	EGRESS_PORTS = 1,	/* TCP connect to these ports only (Landlock) */
	EGRESS_HOSTS = 2,	/* own network namespace; the proxy reaches
				 * these host:port pairs only */
	EGRESS_MODE_MAX_ = 3,
	EGRESS_UNREPORTED = 255	/* version 1: STARTED does not say */
};

#define PROTO_EGRESS_PORTS_MAX 64	/* --egress-ports' cap */
#define PROTO_EGRESS_RULES_MAX 64	/* egress_allow.h's cap */
/* 64 rules of at most 261 bytes (EGRESS_RULE_TEXT_MAX), 63 commas */
#define PROTO_EGRESS_TEXT_MAX (PROTO_EGRESS_RULES_MAX * 262 - 1)

struct started_info {
	char lease_id[PROTO_ID_MAX + 1];
	char jail[PROTO_ID_MAX + 1];
	uint32_t ping_ms;
	uint32_t liveness_ms;
	uint8_t egress;				/* enum started_egress */
	size_t nports;				/* EGRESS_PORTS: 1..64 */
	uint16_t port[PROTO_EGRESS_PORTS_MAX];	/* strictly ascending */
	size_t nrules;				/* EGRESS_HOSTS: 0..64 */
	char rules[PROTO_EGRESS_TEXT_MAX + 1];	/* EGRESS_HOSTS: the list in
						 * its one spelling
						 * (egress_allow_sorted_text),
						 * "" for none */
};

/* version is the lease's protocol version (version.h): 1 leaves the
 * egress policy out (and the parser sets EGRESS_UNREPORTED), 2 carries it.
 * The encoder refuses (-1) a policy the parser would refuse. */
long proto_started_encode(uint8_t *out, size_t cap, unsigned version,
    const struct started_info *s);
enum proto_status proto_started_parse(struct started_info *s,
    unsigned version, const uint8_t *p, size_t n);

/* "none", "ports 80,443", "hosts a.io:443,b.io:443" ("hosts" alone for
 * an empty list), "unreported": s's egress policy as one line of text
 * into out (cap bytes, NUL-terminated; cut short when it does not fit).
 * The rules are checked wire bytes, but print them escaped all the same. */
void proto_egress_text(const struct started_info *s, char *out, size_t cap);

#endif
