/* outq.h - the unwritten tail of one frame's payload for a non-blocking
 * output fd. Holding at most one payload is the backpressure: while it is
 * not empty, the producer stops reading its source. */
#ifndef AIRLOCK_OUTQ_H
#define AIRLOCK_OUTQ_H

#include <stddef.h>
#include <stdint.h>

#include "frame.h"

struct outq {
	int fd;
	size_t off, len;
	uint64_t total;			/* bytes written, for the record */
	uint8_t buf[FRAME_PAYLOAD_MAX];
};

/* Write p now as far as the fd takes it and keep the rest (the queue must
 * be empty). Returns 0, or -1 on a write error (errno set, EPIPE included). */
int outq_write(struct outq *q, const uint8_t *p, size_t n);
/* Write more of what is kept; 0 or -1 as above. */
int outq_flush(struct outq *q);
/* 1 while bytes are kept. */
int outq_busy(const struct outq *q);
/* Block until everything kept is written or an error (end of a lease). */
int outq_drain(struct outq *q);

#endif
