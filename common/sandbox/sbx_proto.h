/* sbx_proto.h - payloads of the sandbox protocol (docs/SANDBOX.md): the
 * request a client sends, the STARTED and result records the service
 * answers with, and the stable names of reasons, languages and errors.
 * Same record layer and frame types as a lease (common/channel); the
 * sandbox's own payloads begin with the 4 bytes "SBX1", which no lease
 * payload can (a lease SPAWN starts with version byte 1).
 *
 * Parsers are strict: every field within its cap, every name checked,
 * the payload ends exactly where the last field does. Encoders refuse
 * what the parser would. Pure: no I/O, no allocation. */
#ifndef AIRLOCK_SBX_PROTO_H
#define AIRLOCK_SBX_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "common/wire/proto.h"

#define SBX_MAGIC "SBX1"
#define SBX_MAGIC_LEN 4
#define SBX_FILES_MAX 15		/* the jail writes 16: one for the denylist */
#define SBX_NAME_MAX 128
#define SBX_FILE_MAX (1u << 20)		/* one file */
#define SBX_FILES_TOTAL_MAX (4u << 20)	/* all files */
#define SBX_INPUT_MAX (4u << 20)	/* the tool's stdin */
#define SBX_DETAIL_MAX 2048		/* compiler message, verify reason */
/* A request with argv words for the tool starts "SBX2" instead: a service
 * that predates them refuses it as no sandbox payload (fail closed), and
 * one without words stays "SBX1", which every service reads. */
#define SBX_MAGIC_ARGS "SBX2"
#define SBX_ARGS_MAX 64			/* words */
#define SBX_ARG_MAX 4096		/* bytes of one word */
#define SBX_ARGS_TOTAL_MAX 16384	/* bytes of all words */

enum sbx_lang {
	SBX_LANG_PYTHON = 1,
	SBX_LANG_JAVA = 2,
	SBX_LANG_EXEC = 3		/* the service's configured interpreter */
};

/* "python", "java", "exec"; NULL for anything else. */
const char *sbx_lang_name(unsigned lang);
/* The language called name, or 0. */
unsigned sbx_lang_parse(const char *name);

/* The smallest memory limit a tool is run under: a request's, --memory,
 * --max-memory and the gateway's fields; a smaller one is refused, never
 * raised. Measured (docs/SANDBOX.md, "Limits"): under 512 KiB the jail
 * does not start (jail_failed), and a trivial Python tool needs about
 * 4 MiB; four times that leaves room for another host's interpreter. */
#define SBX_MEMORY_MIN (16ull << 20)

/* Requested limits; 0 means "the service's default". */
struct sbx_limits {
	uint64_t timeout_ms;	/* wall clock */
	uint64_t cpu_ms;	/* CPU time of the whole jail */
	uint64_t memory;	/* bytes */
	uint64_t output;	/* bytes, per stream (stdout, stderr) */
	uint32_t pids;		/* tasks in the jail */
};

struct sbx_file {
	char name[SBX_NAME_MAX + 1];
	uint32_t size;
};

/* The request header (a SPAWN frame). The bytes of the files, in order,
 * then the input follow in STDIN frames, then STDIN_EOF. */
struct sbx_request {
	char tenant[PROTO_ID_MAX + 1];
	char request_id[PROTO_ID_MAX + 1];
	uint8_t lang;			/* enum sbx_lang */
	struct sbx_limits lim;
	uint16_t nfiles;		/* 1..SBX_FILES_MAX; files[0] runs */
	struct sbx_file files[SBX_FILES_MAX];
	uint32_t input_size;
	uint16_t nargs;			/* 0..SBX_ARGS_MAX words for the tool */
	/* the words, each followed by a NUL (sbx_request_argv points at
	 * them; sbx_request_add_arg appends) */
	uint16_t args_len;		/* bytes used, NULs included */
	char args[SBX_ARGS_TOTAL_MAX + SBX_ARGS_MAX];
};

enum sbx_status {
	SBX_OK = 0,
	SBX_BAD_MAGIC,		/* not a sandbox payload */
	SBX_TRUNCATED,
	SBX_TRAILING,
	SBX_BAD_ID,		/* tenant or request id */
	SBX_BAD_LANG,
	SBX_BAD_FILES,		/* count 0 or over cap, a name, a duplicate */
	SBX_BAD_SIZE,		/* a file, all files or the input over cap */
	SBX_BAD_FIELD,		/* an enum or flag value out of range */
	SBX_BAD_ARGS		/* too many or too long words, a NUL in one */
};

const char *sbx_status_text(enum sbx_status s);

/* A file name a request may carry: 1..SBX_NAME_MAX bytes of
 * [A-Za-z0-9._-], not starting with '.' (so never ".", ".." or a hidden
 * name) or '-' (never an interpreter's option), hence never a '/' or a
 * path. 1 or 0. */
int sbx_name_valid(const uint8_t *s, size_t n);

/* Append the word s[0..n) (any bytes but NUL, empty allowed) to r's
 * argv: SBX_OK, or SBX_BAD_ARGS past a cap or for a NUL. */
enum sbx_status sbx_request_add_arg(struct sbx_request *r, const void *s,
    size_t n);
/* Point argv[0..nargs) at r's words, argv[nargs] NULL; argv has room for
 * SBX_ARGS_MAX + 1. Returns nargs. */
size_t sbx_request_argv(struct sbx_request *r, char **argv);
/* The same caps on a NULL-terminated list (the CLI's --arg words). */
enum sbx_status sbx_args_check(char *const *argv);

long sbx_request_encode(uint8_t *out, size_t cap, const struct sbx_request *r);
enum sbx_status sbx_request_parse(struct sbx_request *r, const uint8_t *p,
    size_t n);
/* Bytes that follow the header: all file sizes plus the input size. */
uint64_t sbx_request_body_len(const struct sbx_request *r);

/* STARTED: the execution id (for logs), the jail mode, and the limits
 * in force after clamping to the service's maxima. */
struct sbx_started {
	char exec_id[PROTO_ID_MAX + 1];
	char jail[PROTO_ID_MAX + 1];
	struct sbx_limits lim;
};

long sbx_started_encode(uint8_t *out, size_t cap, const struct sbx_started *s);
enum sbx_status sbx_started_parse(struct sbx_started *s, const uint8_t *p,
    size_t n);

/* Why an execution ended. Stable numbers and names. */
enum sbx_reason {
	SBX_EXITED = 0,		/* the tool ended by itself (any status) */
	SBX_TIMEOUT = 1,	/* wall-clock limit */
	SBX_MEMORY = 2,		/* memory limit (OOM kill, JVM heap) */
	SBX_OUTPUT = 3,		/* stdout or stderr over its byte cap */
	SBX_PIDS = 4,		/* a fork refused by the pids limit */
	SBX_VERIFY_FAILED = 5,	/* Java: a class file the denylist refuses */
	SBX_COMPILE_FAILED = 6,	/* Java: javac failed */
	SBX_JAIL_FAILED = 7,	/* the jail could not be built */
	SBX_CPU = 8,		/* CPU-time limit */
	SBX_DISK = 9,		/* the writable space (--disk) is full */
	SBX_SHUTDOWN = 10,	/* the service drained past --drain-timeout */
	SBX_REASON_MAX_ = 11
};

/* Their names, by number: the result's JSON and the sandbox metrics'
 * reason labels (one table, so a reason cannot lack its label). */
extern const char *const sbx_reason_names[SBX_REASON_MAX_];
const char *sbx_reason_name(unsigned reason);

enum sbx_exit_kind {
	SBX_KIND_CODE = 0,	/* status is the exit code */
	SBX_KIND_SIGNAL = 1,	/* status is the signal number */
	SBX_KIND_NONE = 2	/* the tool never ran (verify, compile, jail) */
};

enum sbx_flags {
	SBX_F_STDOUT_TRUNCATED = 1u << 0,
	SBX_F_STDERR_TRUNCATED = 1u << 1,
	SBX_F_CPU_CGROUP = 1u << 2,	/* cpu_ms from the cgroup (else rusage) */
	SBX_F_MEMORY_CGROUP = 1u << 3,	/* peak from the cgroup (else maxrss) */
	SBX_F_PIDS_CGROUP = 1u << 4,	/* pids limit by cgroup (else rlimit) */
	/* peak_memory bounds the execution's own peak from above, no more:
	 * a warm Java call on cgroup v2, whose slot's memory.peak cannot be
	 * restarted (Linux < 6.12) and did not grow during the call, so it
	 * is the slot's warm-up's (sbx_exec.h) */
	SBX_F_PEAK_UPPER_BOUND = 1u << 5,
	SBX_F_ALL_ = (1u << 6) - 1
};

struct sbx_result {
	uint8_t reason;		/* enum sbx_reason */
	uint8_t kind;		/* enum sbx_exit_kind */
	uint8_t status;
	uint8_t flags;		/* enum sbx_flags */
	uint64_t wall_ms, cpu_ms, peak_memory;
	uint64_t stdout_bytes, stderr_bytes;	/* as delivered (capped) */
	char detail[SBX_DETAIL_MAX + 1];	/* printable; may be "" */
};

long sbx_result_encode(uint8_t *out, size_t cap, const struct sbx_result *r);
enum sbx_status sbx_result_parse(struct sbx_result *r, const uint8_t *p,
    size_t n);

/* Copy n bytes of tool or compiler output into a detail field (cap
 * bytes with the NUL), keeping the tail when it is longer, '\n' and
 * printable ASCII as they are and anything else as '?'. */
void sbx_detail_set(char *dst, size_t cap, const uint8_t *s, size_t n);

/* The result as one JSON object (no newline) into out; the limits and
 * language are included when lim is not NULL. Returns the length, or -1
 * if cap is too small. */
long sbx_result_json(char *out, size_t cap, const struct sbx_result *r,
    unsigned lang, const struct sbx_limits *lim);

/* ERROR frames carry a code from this list (proto_error_encode). */
enum sbx_error {
	SBX_ERR_BAD_REQUEST = 1,
	SBX_ERR_PROTOCOL = 2,
	SBX_ERR_BUDGET_CONCURRENCY = 3,	/* tenant's concurrent executions */
	SBX_ERR_BUDGET_QUEUE = 4,	/* tenant's queue is full */
	SBX_ERR_BUDGET_CPU = 5,		/* tenant's CPU-seconds per window */
	SBX_ERR_CAPACITY = 6,		/* the service's own cap */
	SBX_ERR_LANGUAGE = 7,		/* language not offered here */
	SBX_ERR_SHUTDOWN = 8,
	SBX_ERR_INTERNAL = 9,
	SBX_ERR_UPLOAD_TIMEOUT = 10,	/* handshake + request too slow */
	SBX_ERR_QUEUE_TIMEOUT = 11,	/* queued longer than allowed */
	SBX_ERR_MAX_ = 12
};

/* "budget_concurrency" etc.; "unknown" otherwise. */
const char *sbx_error_name(unsigned code);

#endif
