/* random_id.h - the short random ids that log lines carry (lease, exec),
 * and cheap random numbers for load shedding (not secrets). */
#ifndef AIRLOCK_RANDOM_ID_H
#define AIRLOCK_RANDOM_ID_H

#include <stddef.h>
#include <stdint.h>

/* 16 lower-case hex characters from getrandom and a NUL; -1 on failure. */
int random_id(char out[17]);

/* Random words drawn from one getrandom call per 64: an event loop's
 * early-drop and eviction choices take one per connection. */
struct random_pool {
	uint32_t v[64];
	size_t n;
};

/* The next word; 0 when getrandom fails (callers stay bounded then). */
uint32_t random_pool_next(struct random_pool *p);

#endif
