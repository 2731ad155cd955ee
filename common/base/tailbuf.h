/* tailbuf.h - the last bytes of a stream (a child's stderr, for the
 * message that explains its end) in a fixed buffer. */
#ifndef AIRLOCK_TAILBUF_H
#define AIRLOCK_TAILBUF_H

#include <stddef.h>

/* Append p[0..n) to buf (cap bytes, *len of them in use, *len <= cap),
 * dropping the oldest bytes: afterwards buf holds the stream's last
 * min(cap, bytes so far) bytes, in order. */
void tail_keep(void *buf, size_t cap, size_t *len, const void *p, size_t n);

#endif
