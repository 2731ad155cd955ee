/* fd_writer.h - the unwritten tail of one frame's payload for an output fd that
 * must never block its writer for long. Holding at most one payload is the
 * backpressure: while it is not empty, the producer stops reading its
 * source.
 *
 * Two kinds of fd:
 *   owned   a pipe we created and set O_NONBLOCK on ourselves (the
 *           runner's end of a server's stdin); plain write().
 *   shared  a descriptor we inherited (the relay's stdout and stderr): its
 *           open file description is shared with our parent, so its file
 *           status flags are never touched (O_NONBLOCK there would make
 *           the parent's own writes fail with EAGAIN, and outlive us).
 *           A socket is written with send(MSG_DONTWAIT), per call. Any
 *           other fd (pipe, FIFO, terminal, file) is written only after
 *           poll() reported POLLOUT, at most PIPE_BUF bytes at a time (a
 *           pipe then takes them whole, without blocking, unless another
 *           writer of the same pipe filled it in between), and each call
 *           (fd_writer_write, fd_writer_flush) is bounded by a one-shot SIGALRM
 *           after FD_WRITER_WRITE_BOUND_MS: a write that blocks returns EINTR
 *           and the rest is kept for later. */
#ifndef AIRLOCK_FD_WRITER_H
#define AIRLOCK_FD_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "common/wire/frame.h"

/* The longest one call may block on a shared non-socket fd. */
#define FD_WRITER_WRITE_BOUND_MS 100

enum fd_writer_kind { FD_WRITER_OWNED = 0, FD_WRITER_SOCKET, FD_WRITER_SHARED };

struct fd_writer {
	int fd;
	int kind;			/* enum fd_writer_kind; 0 after memset */
	size_t off, len;
	uint64_t total;			/* bytes written, for the record */
	uint8_t buf[FRAME_PAYLOAD_MAX];
};

/* Set q up (empty) for an inherited fd: FD_WRITER_SOCKET or FD_WRITER_SHARED as
 * above. For FD_WRITER_SHARED it installs a do-nothing SIGALRM handler without
 * SA_RESTART; the process must not use SIGALRM or ITIMER_REAL otherwise.
 * Returns 0, or -1 if the handler cannot be installed. */
int fd_writer_init_shared(struct fd_writer *q, int fd);

/* Write p now as far as the fd takes it and keep the rest (the queue must
 * be empty). Returns 0, or -1 on a write error (errno set, EPIPE included). */
int fd_writer_write(struct fd_writer *q, const uint8_t *p, size_t n);
/* Append p to what is kept, without writing (n must fit: fd_writer_room). */
int fd_writer_append(struct fd_writer *q, const uint8_t *p, size_t n);
/* Bytes that fd_writer_append can take now. */
size_t fd_writer_room(const struct fd_writer *q);
/* Write more of what is kept; 0 or -1 as above. */
int fd_writer_flush(struct fd_writer *q);
/* 1 while bytes are kept. */
int fd_writer_busy(const struct fd_writer *q);

#endif
