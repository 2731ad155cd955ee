/* cli.h - small parsers for command-line values (operator input, not wire
 * data): durations, sizes and counts with explicit ranges. */
#ifndef AIRLOCK_CLI_H
#define AIRLOCK_CLI_H

#include <stddef.h>
#include <stdint.h>

/* "250ms", "5s", "2m", "1h", "30d"; a bare number is seconds. Returns 0
 * and *ms, or -1 for anything malformed, zero, or over 10 years. */
int cli_duration_ms(const char *s, uint64_t *ms);

/* "512", "64K", "256M", "2G" (powers of 1024). -1 if malformed or 0. */
int cli_size_bytes(const char *s, uint64_t *bytes);

/* A decimal count in [min, max]; -1 otherwise. */
int cli_count(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* The uid range of --uid-range: "FIRST-LAST", plain digits, with
 * 0 < FIRST <= LAST <= CLI_UID_MAX. 0 and both, or -1 (untouched). */
#define CLI_UID_MAX 4294967293u	/* below (uid_t)-2 and -1 */
int cli_uid_range(const char *s, uint32_t *first, uint32_t *last);

/* A repeatable option (--listen, --secret-file): value joins list, which
 * holds *n of at most max. 0, or -1 when it is full (untouched). */
int cli_append(const char **list, size_t *n, size_t max, const char *value);

/* cli_append, or exit EXIT_USAGE naming flag and its cap (at start-up:
 * docs/HACKING.md "Errors and exit codes"). */
void xcli_append(const char **list, size_t *n, size_t max, const char *value,
    const char *flag);

#endif
