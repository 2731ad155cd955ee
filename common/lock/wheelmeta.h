/* wheelmeta.h - what an installed wheel says of itself, read as hostile
 * input: its RECORD (every file it installed, each with a SHA-256) and
 * the console scripts of its entry_points.txt. Pure: no I/O.
 *
 * RECORD, as pip writes it at install (Python's csv: CRLF or LF):
 *   line    := PATH ',' [ 'sha256=' B64 ] ',' [ SIZE ] EOL
 *   PATH    := [ '../../bin/' ] REL    (a console script pip wrote)
 *   REL     := PART ( '/' PART )*      PART: printable ASCII but
 *                                      , " / and not . or ..
 *   B64     := 43 base64url characters (no padding: one spelling)
 *   SIZE    := canonical decimal
 * the hash and the size both or neither (RECORD itself, a .pyc). Refused:
 * a quoted field (a path with a comma or quote), an absolute path, any
 * other `..` (a data file outside the package: .data/ of a wheel),
 * another hash, a path twice, bytes that are not printable ASCII.
 *
 * entry_points.txt (an INI file as importlib.metadata reads it):
 *   [console_scripts]
 *   NAME = MODULE:ATTR
 * NAME a PEP 508 name's shape, MODULE and ATTR dotted ASCII Python
 * identifiers; comments are lines starting with '#' (not ';', which
 * importlib.metadata does not skip); extras (`[x]`), indented lines
 * (continuations) and a NAME twice are refused. Other sections are
 * skipped (their bytes still printable ASCII). */
#ifndef AIRLOCK_WHEELMETA_H
#define AIRLOCK_WHEELMETA_H

#include <stddef.h>
#include <stdint.h>

#define WHEEL_RECORD_MAX (8u << 20)	/* bytes of one RECORD */
#define WHEEL_FILES_MAX 100000		/* lines of one RECORD */
#define WHEEL_PATH_MAX 1024
#define WHEEL_ENTRY_POINTS_MAX (1u << 20)
#define WHEEL_SCRIPTS_MAX 64		/* console scripts of one wheel */
#define WHEEL_NAME_MAX 128
#define WHEEL_IDENT_MAX 256		/* a dotted module or attribute */
#define WHEEL_BIN_PREFIX "../../bin/"

struct wheel_file {
	const char *path;		/* into the RECORD text, not ended */
	size_t path_len;
	unsigned hashed:1;		/* sha256 and size are set */
	unsigned script:1;		/* under ../../bin/ (pip's scripts) */
	uint8_t sha256[32];
	uint64_t size;
};

struct wheel_record {
	struct wheel_file *file;	/* malloc'd, in the file's order */
	size_t nfile;
};

/* Read RECORD text[0..len) into *out (wheel_record_free; its paths point
 * into text, which must outlive it). 0, or -1 with a message naming the
 * line in err; *out then holds nothing. */
int wheel_record_parse(const uint8_t *text, size_t len,
    struct wheel_record *out, char *err, size_t errcap);
void wheel_record_free(struct wheel_record *r);

struct wheel_script {
	char name[WHEEL_NAME_MAX + 1];
	char module[WHEEL_IDENT_MAX + 1];
	char attr[WHEEL_IDENT_MAX + 1];
};

/* The console scripts of entry_points.txt text[0..len) into out (room
 * for WHEEL_SCRIPTS_MAX), their count in *n. 0, or -1 with a message
 * naming the line in err. */
int wheel_console_scripts(const uint8_t *text, size_t len,
    struct wheel_script *out, size_t *n, char *err, size_t errcap);

#endif
