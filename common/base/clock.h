/* clock.h - the one monotonic clock: milliseconds since an arbitrary
 * start, for deadlines and durations (never wall time). */
#ifndef AIRLOCK_CLOCK_H
#define AIRLOCK_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
