/* piston.h - Piston's v2 API shape (docs/SANDBOX.md, "Gateway"): a
 * POST /api/v2/execute body decoded and checked into a sandbox request,
 * and a sandbox answer written back as Piston's response plus airlock's
 * own fields; GET /api/v2/runtimes; the error object every refusal is.
 * Pure but for the FILE* the writers write to (an open_memstream). */
#ifndef AIRLOCK_PISTON_H
#define AIRLOCK_PISTON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/gateway/json_reader.h"
#include "common/sandbox/sbx_client.h"

#define PISTON_TOKENS_MAX 512	/* JSON values in one body */
#define PISTON_VERSION_MAX 32

/* What the gateway offers: a language, the version it reports and
 * accepts ("*" is always accepted too), and its aliases. */
struct piston_runtime {
	unsigned lang;			/* enum sbx_lang */
	char version[PISTON_VERSION_MAX + 1];
};

/* A decoded execute request. Strings point into the caller's store. */
struct piston_req {
	unsigned lang;
	const struct piston_runtime *rt;
	char tenant[PROTO_ID_MAX + 1];		/* "tenant", or "" */
	char request_id[PROTO_ID_MAX + 1];	/* "request_id", or "" */
	struct sbx_limits lim;
	char names[SBX_FILES_MAX][SBX_NAME_MAX + 1];
	struct sbx_file_data files[SBX_FILES_MAX];
	size_t nfiles;
	char *args[SBX_ARGS_MAX + 1];		/* "args", in the store */
	size_t nargs;
	const uint8_t *input;
	size_t input_len;
};

/* The stable error codes of the gateway's own refusals, each with its
 * HTTP status (docs/SANDBOX.md, "Gateway errors"). */
enum piston_err {
	PISTON_OK,
	PISTON_BAD_JSON,	/* 400 the body is not strict JSON */
	PISTON_BAD_FIELD,	/* 400 a field breaks its rule */
	PISTON_RUNTIME,		/* 400 no such language or version */
	PISTON_TOO_LARGE,	/* 413 files or stdin over the protocol's caps */
	PISTON_ENCODING,	/* 400 a file's encoding is none of the three */
	PISTON_BAD_CONTENT,	/* 400 a file's content is not its encoding */
	PISTON_BAD_TENANT	/* 400 "tenant" breaks the id grammar */
};

/* The code's name ("bad_json" ...) and HTTP status. */
const char *piston_err_name(enum piston_err e);
int piston_err_status(enum piston_err e);

/* Decode body[0..len) into q, against the runtimes offered (n of them).
 * store must have room for len bytes: the decoded files and stdin live
 * there (a JSON string never decodes longer than its text). tok has
 * room for PISTON_TOKENS_MAX values. On refusal err holds why. */
enum piston_err piston_parse_execute(struct piston_req *q, const char *body,
    size_t len, const struct piston_runtime *rts, size_t n, uint8_t *store,
    struct json_node *tok, char *err, size_t errlen);

/* GET /api/v2/runtimes: the array of what is offered. */
void piston_write_runtimes(FILE *f, const struct piston_runtime *rts,
    size_t n);

/* The tool's output as the gateway kept it: each stream, and both in
 * the order they came (Piston's "output"). */
struct piston_output {
	const uint8_t *out, *err, *both;
	size_t out_len, err_len, both_len;
};

/* The answer to an execution: Piston's fields ("language", "version",
 * "run", and "compile" for Java) plus "airlock" (the result as `sandbox
 * call --json` gives it, the execution id, tenant, and the CPU time the
 * tenant's budget was charged). */
void piston_write_result(FILE *f, const struct piston_req *q,
    const struct sbx_answer *a, const struct piston_output *o);

/* {"code":CODE,"message":TEXT}: every refusal's body. */
void piston_write_error(FILE *f, const char *code, const char *message);

#endif
