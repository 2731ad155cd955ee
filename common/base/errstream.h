/* errstream.h - one stderr shared by a peer's output (a server's STDERR
 * frames) and our own log records, kept apart so that no peer byte can
 * pass for a record of ours (docs/PROTOCOL.md, "What the relay writes").
 *
 * human  the peer's characters pass through in human form
 *        (log_escape_step): valid UTF-8 as itself, every control but tab
 *        and newline (C0, DEL, C1, bidi, U+2028/2029) and every byte not
 *        in valid UTF-8 as \xNN, so that no terminal escape, carriage
 *        return or line break reaches a terminal or log viewer; a
 *        peer line that would begin with our own record prefix ("relay: ")
 *        gets "server: " in front. Our records always start on a fresh
 *        line (a newline is inserted after a peer's partial line). So a
 *        line that begins with the prefix is ours.
 * json   every line is a JSON record: the peer's bytes are wrapped
 *        (log_stream_record, source "server"), ours are log.c's records.
 *
 * Memory is fixed: one payload of input and one queue of output, with
 * room kept for our records. Writes go through outq's shared-fd writer
 * (the fd's status flags are never changed). */
#ifndef AIRLOCK_ERRSTREAM_H
#define AIRLOCK_ERRSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "common/wire/frame.h"
#include "common/base/log.h"
#include "common/wire/fd_writer.h"

struct errstream {
	struct fd_writer q;			/* formatted, for the fd */
	uint8_t in[FRAME_PAYLOAD_MAX];	/* peer bytes not yet formatted */
	size_t in_off, in_len;
	int json;
	int dead;			/* the fd failed or we gave up: drop */
	int at_line_start;		/* human: the next peer byte starts a line */
	size_t held;			/* human: bytes of a line start that
					 * match the prefix, held back */
	char prefix[80];		/* "PROG: " */
	size_t prefix_len;
	uint64_t dropped;		/* bytes given up on */
};

/* Set s up for fd (inherited: see fd_writer_init_shared). json picks the
 * format; prog is our record prefix's name. 0, or -1 as fd_writer_init_shared. */
int errstream_init(struct errstream *s, int fd, int json, const char *prog);
/* 1 if errstream_put can take a payload now. */
int errstream_can_put(const struct errstream *s);
/* Take a peer payload (n <= FRAME_PAYLOAD_MAX) when errstream_can_put. */
void errstream_put(struct errstream *s, const uint8_t *p, size_t n);
/* One record of ours (a full line, newline included): queued after what
 * is already there, on a fresh line; dropped (and counted) if the room
 * kept for records is used up. Then written as far as the fd takes. */
void errstream_record(struct errstream *s, const char *line, size_t n);
/* Format and write as far as the fd takes. A write error makes the stream
 * dead (everything after is dropped): stderr is never worth the lease. */
void errstream_flush(struct errstream *s);
/* 1 while anything is waiting to be formatted or written. */
int errstream_busy(const struct errstream *s);
/* End of the peer's output: release held-back bytes. */
void errstream_finish(struct errstream *s);
/* Give up: drop everything waiting, and everything after. */
void errstream_abandon(struct errstream *s);

#endif
