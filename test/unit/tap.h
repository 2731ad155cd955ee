/* tap.h - a tiny TAP producer for table-driven unit tests. */
#ifndef AIRLOCK_TAP_H
#define AIRLOCK_TAP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

__attribute__((format(printf, 4, 5))) static inline int
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", pass ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		printf("#   failed at %s:%d\n", file, line);
		tap_failed++;
	}
	return pass;
}

/* A case: name(0) .. name(count - 1), an enum's names, are all distinct
 * strings (a name function of any enum: its values are ints here). */
#define ok_names_distinct(name, count, ...) do {			\
	int tap_d = 1;							\
									\
	for (int tap_a = 0; tap_a < (count); tap_a++)			\
		for (int tap_b = tap_a + 1; tap_b < (count); tap_b++)	\
			tap_d &= strcmp(name(tap_a), name(tap_b)) != 0;	\
	ok(tap_d, __VA_ARGS__);						\
} while (0)

/* Test vectors as the specs print them: n bytes from the 2n hex digits
 * at hex into out; -1 at the first byte that is not two hex digits. */
static inline int
tap_unhex(uint8_t *out, size_t n, const char *hex)
{
	for (size_t i = 0; i < n; i++) {
		unsigned v = 0;

		for (int d = 0; d < 2; d++) {
			char c = hex[2 * i + d];

			if (c >= '0' && c <= '9')
				v = v << 4 | (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				v = v << 4 | (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				v = v << 4 | (unsigned)(c - 'A' + 10);
			else
				return -1;
		}
		out[i] = (uint8_t)v;
	}
	return 0;
}

static inline void
tap_skip(const char *name, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++tap_n, name, why);
}

static inline int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	fflush(stdout);
	return tap_failed != 0;
}

#endif
