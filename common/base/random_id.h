/* random_id.h - the short random ids that log lines carry (lease, exec). */
#ifndef AIRLOCK_RANDOM_ID_H
#define AIRLOCK_RANDOM_ID_H

/* 16 lower-case hex characters from getrandom and a NUL; -1 on failure. */
int random_id(char out[17]);

#endif
