/* fd_writer.c - a one-payload output queue that never blocks for long. */
#include "common/wire/fd_writer.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

static void
on_alarm(int sig)
{
	(void)sig;	/* only here to interrupt a write (no SA_RESTART) */
}

int
fd_writer_init_shared(struct fd_writer *q, int fd)
{
	struct sigaction sa;
	struct stat st;

	memset(q, 0, offsetof(struct fd_writer, buf));
	q->fd = fd;
	if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode)) {
		q->kind = FD_WRITER_SOCKET;
		return 0;
	}
	q->kind = FD_WRITER_SHARED;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGALRM, &sa, NULL);
}

/* Arm (or with ms 0, disarm) the one-shot timer that cuts a blocked write
 * short: its SIGALRM makes the write return EINTR. */
static void
write_timer(long ms)
{
	struct itimerval t = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000 } };
	int saved = errno;

	setitimer(ITIMER_REAL, &t, NULL);
	errno = saved;
}

/* One write that does not block past the armed timer; -1 with EAGAIN when
 * the fd takes nothing now. */
static ssize_t
write_once(const struct fd_writer *q, const uint8_t *p, size_t n)
{
	struct pollfd pf = { q->fd, POLLOUT, 0 };
	ssize_t w;

	switch (q->kind) {
	case FD_WRITER_SOCKET:
		return send(q->fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL);
	case FD_WRITER_SHARED:
		if (poll(&pf, 1, 0) < 0) {
			if (errno == EINTR)
				errno = EAGAIN;	/* the timer ran out */
			return -1;
		}
		if (pf.revents & (POLLERR | POLLHUP))
			return write(q->fd, p, 1);	/* reports EPIPE */
		if (!(pf.revents & POLLOUT)) {
			errno = EAGAIN;
			return -1;
		}
		w = write(q->fd, p, n < PIPE_BUF ? n : PIPE_BUF);
		if (w < 0 && errno == EINTR)
			errno = EAGAIN;		/* it would block: later */
		return w;
	default:
		return write(q->fd, p, n);
	}
}

/* Write from p as far as the fd takes; returns bytes written or -1. For a
 * shared fd one timer bounds the whole call to FD_WRITER_WRITE_BOUND_MS. */
static long
write_some(const struct fd_writer *q, const uint8_t *p, size_t n)
{
	size_t done = 0;
	long rc;

	if (q->kind == FD_WRITER_SHARED && n > 0)
		write_timer(FD_WRITER_WRITE_BOUND_MS);
	for (;;) {
		ssize_t w;

		if (done == n) {
			rc = (long)done;
			break;
		}
		w = write_once(q, p + done, n - done);
		if (w > 0) {
			done += (size_t)w;
		} else if (w < 0 && errno == EINTR) {
			continue;
		} else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			rc = (long)done;
			break;
		} else {
			rc = -1;
			break;
		}
	}
	if (q->kind == FD_WRITER_SHARED && n > 0)
		write_timer(0);
	return rc;
}

int
fd_writer_write(struct fd_writer *q, const uint8_t *p, size_t n)
{
	long w = write_some(q, p, n);

	if (w < 0)
		return -1;
	q->total += (uint64_t)w;
	q->off = 0;
	q->len = n - (size_t)w;
	memcpy(q->buf, p + w, q->len);
	return 0;
}

size_t
fd_writer_room(const struct fd_writer *q)
{
	return sizeof q->buf - (q->len - q->off);
}

int
fd_writer_append(struct fd_writer *q, const uint8_t *p, size_t n)
{
	if (n > fd_writer_room(q))
		return -1;
	if (q->off > 0) {	/* keep the free space at the end */
		memmove(q->buf, q->buf + q->off, q->len - q->off);
		q->len -= q->off;
		q->off = 0;
	}
	memcpy(q->buf + q->len, p, n);
	q->len += n;
	return 0;
}

int
fd_writer_flush(struct fd_writer *q)
{
	long w = write_some(q, q->buf + q->off, q->len - q->off);

	if (w < 0)
		return -1;
	q->total += (uint64_t)w;
	q->off += (size_t)w;
	if (q->off == q->len)
		q->off = q->len = 0;
	return 0;
}

int
fd_writer_busy(const struct fd_writer *q)
{
	return q->len > q->off;
}
