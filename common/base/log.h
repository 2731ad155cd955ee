/* log.h - one line per event on stderr: "prog: level: message key=value"
 * for humans, or one JSON object per line (--log-format json) for operators.
 * Human lines write every control and every byte that is not valid
 * UTF-8 as \xNN (log_escape_step), JSON lines escape every control
 * (docs/HACKING.md, "JSON text"), so wire data can never forge a line; format strings are always literals (-Wformat-nonliteral). */
#ifndef AIRLOCK_LOG_H
#define AIRLOCK_LOG_H

#include <stddef.h>
#include <stdint.h>

enum log_level { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

struct log_field {
	const char *key;	/* a literal: fields are never named by data */
	const char *str;	/* string value (NULL is written as "") */
	long long num;
	int is_num;
};

#define LF_STR(k, v) ((struct log_field){ (k), (v), 0, 0 })
#define LF_NUM(k, v) ((struct log_field){ (k), NULL, (long long)(v), 1 })

/* prog is kept by reference; pass a string that lives forever. */
void log_init(const char *prog);
/* "human" or "json"; returns -1 for anything else. */
int log_set_format(const char *name);
void log_set_level(enum log_level max);
int log_is_json(void);
/* The name given to log_init: human records start with it and ": ". */
const char *log_prog_name(void);

/* The longest record, its newline included. */
#define LOG_LINE_MAX 4096
/* Send every finished record (newline included) to sink instead of writing
 * it to stderr; NULL restores stderr. For a process that shares its stderr
 * with a peer's output and must keep the two apart (the relay). */
void log_set_sink(void (*sink)(const char *line, size_t n, void *arg),
    void *arg);

/* Bytes of a peer's stream in one record; longer pieces take several. */
#define LOG_STREAM_PIECE 512
/* Format one JSON record, whatever the log format, for up to
 * LOG_STREAM_PIECE bytes of a peer's output (a server's stderr):
 *   {"ts":..,"prog":..,"level":"info","msg":"peer output",
 *    "source":SOURCE,"text":"..","eol":true|false}
 * text is the bytes as JSON text (docs/HACKING.md, "JSON text": valid
 * UTF-8 kept, controls escaped, any other byte as \ufffd, so a character
 * cut at a piece's end is too); eol says the piece ended a line (its
 * newline is not in text). Returns the record's length, newline included,
 * written to out. */
size_t log_stream_record(char out[LOG_LINE_MAX], const char *source,
    const uint8_t *p, size_t n, int eol);

void log_msg(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void log_event(enum log_level level, const char *event,
    const struct log_field *fields, size_t nfields);

/* The most bytes one input character becomes in human text. */
#define LOG_ESCAPE_STEP_MAX 4
/* The one escaper of human text (log lines, --doctor's report, a peer's
 * stderr passed through by the relay and the sandbox): the character at
 * p[*off] (requires *off < n) as itself when it is valid UTF-8 and no
 * control (common/base/utf8.h: C0, DEL, C1, bidi, U+2028/U+2029), else
 * its first byte as \xNN (the rest of a control's bytes, stray
 * continuations then, follow as \xNN too). Moves *off past what it used;
 * returns the bytes written to out, 1 to LOG_ESCAPE_STEP_MAX. */
size_t log_escape_step(const uint8_t *p, size_t n, size_t *off,
    char out[LOG_ESCAPE_STEP_MAX]);

/* log_escape_step for a peer's stream of lines (its stderr passed
 * through): tab and newline as themselves, the rest as log_escape_step. */
size_t log_stream_step(const uint8_t *p, size_t n, size_t *off,
    char out[LOG_ESCAPE_STEP_MAX]);

/* Copy n bytes of s into out (cap > 4 bytes, always NUL-terminated) in
 * human form (log_escape_step), the backslash written \x5c too; what
 * does not fit ends in "...". For text a peer sent that goes anywhere but
 * a log line (--doctor's report). Returns out. */
char *log_escape(char *out, size_t cap, const void *s, size_t n);

/* Longest value written for one field; longer ones end in "...". */
#define LOG_VALUE_MAX 256

#endif
