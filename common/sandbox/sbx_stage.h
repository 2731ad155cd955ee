/* sbx_stage.h - the Java stage record: its format (written by sbx_java.c)
 * and its decoder (used by sbx_exec.c). The record is the first bytes of
 * the jail's stdout, so bytes that cross the jail boundary. The decoder
 * resumes over arbitrary splits; BAD is sticky. Pure: no I/O, no
 * allocation. */
#ifndef AIRLOCK_SBX_STAGE_H
#define AIRLOCK_SBX_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include "common/sandbox/sbx_proto.h"

/* The stage record sbx_java writes first on stdout:
 *   "\0airlock-stage\0" (15 bytes) | status:u8 | len:u32 | detail[len]
 *                                            (len big-endian)
 * status 0: compiled and checked, java follows; 1 compile_failed;
 * 2 verify_failed; 3 stage error. len <= SBX_DETAIL_MAX. */
#define SBX_STAGE_MAGIC "\0airlock-stage\0"
#define SBX_STAGE_MAGIC_LEN 15
#define SBX_STAGE_HEADER_LEN (SBX_STAGE_MAGIC_LEN + 1 + 4)
/* A warm Java slot's stage writes this on stdout when its JVM is ready
 * (sbx_jwarm.h), before any call: the slot's preparation reads it, and
 * the record above is then the first thing the call reads. */
#define SBX_STAGE_READY "\0airlock-warm\0"
#define SBX_STAGE_READY_LEN 14
enum sbx_stage_status { SBX_STAGE_OK = 0, SBX_STAGE_COMPILE = 1,
	SBX_STAGE_VERIFY = 2, SBX_STAGE_ERROR = 3 };

enum sbx_stage_rc {
	SBX_STAGE_NEED = 0,	/* every byte taken; the record goes on */
	SBX_STAGE_DONE,		/* a whole record; later bytes are the tool's */
	SBX_STAGE_BAD		/* bad magic, status or length; sticky */
};

/* invariant: have <= SBX_STAGE_HEADER_LEN + len once the header is in,
 * and len <= SBX_DETAIL_MAX (checked before a detail byte is copied). */
struct sbx_stage {
	uint8_t hdr[SBX_STAGE_HEADER_LEN];
	size_t have;		/* header and detail bytes taken */
	int state;		/* enum sbx_stage_rc */
	/* valid once the header is in (len) or DONE (the rest) */
	uint32_t len;		/* detail bytes, <= SBX_DETAIL_MAX */
	uint8_t status;		/* enum sbx_stage_status */
	uint8_t detail[SBX_DETAIL_MAX];	/* not NUL-terminated */
};

void sbx_stage_init(struct sbx_stage *s);

/* Feed n bytes of stdout. *used (always set, <= n) is how many belong to
 * the record: NEED took them all; DONE leaves p + *used .. p + n to the
 * tool; BAD says how many were read up to the verdict (the rest is not
 * looked at). After DONE or BAD every call returns the same with *used 0. */
enum sbx_stage_rc sbx_stage_feed(struct sbx_stage *s, const uint8_t *p,
    size_t n, size_t *used);

#endif
