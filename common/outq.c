/* outq.c - a one-payload output queue for a non-blocking fd. */
#include "outq.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

/* Write from p as far as the fd takes; returns bytes written or -1. */
static long
write_some(int fd, const uint8_t *p, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(fd, p + done, n - done);

		if (w > 0) {
			done += (size_t)w;
		} else if (w < 0 && errno == EINTR) {
			continue;
		} else if (w < 0 && errno == EAGAIN) {
			break;
		} else {
			return -1;
		}
	}
	return (long)done;
}

int
outq_write(struct outq *q, const uint8_t *p, size_t n)
{
	long w = write_some(q->fd, p, n);

	if (w < 0)
		return -1;
	q->total += (uint64_t)w;
	q->off = 0;
	q->len = n - (size_t)w;
	memcpy(q->buf, p + w, q->len);
	return 0;
}

int
outq_flush(struct outq *q)
{
	long w = write_some(q->fd, q->buf + q->off, q->len - q->off);

	if (w < 0)
		return -1;
	q->total += (uint64_t)w;
	q->off += (size_t)w;
	if (q->off == q->len)
		q->off = q->len = 0;
	return 0;
}

int
outq_busy(const struct outq *q)
{
	return q->len > q->off;
}

int
outq_drain(struct outq *q)
{
	while (outq_busy(q)) {
		struct pollfd p = { q->fd, POLLOUT, 0 };

		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return -1;
		if (outq_flush(q) != 0)
			return -1;
	}
	return 0;
}
