/* optfile.h - a file of long options, one per line: the runner's --config.
 * Operator input, read strictly all the same:
 *   line    = blank* ( "#" text | name ( blank+ value )? )? blank*
 *   name    = [a-z] [a-z0-9-]*          (the option, without "--")
 *   value   = one word of visible ASCII (0x21-0x7e); no quoting
 *   blank   = space or tab
 * A line ends at "\n" (the last may lack it). Refused, naming the line: a
 * NUL, any other control byte (a "\r" too), a byte over 0x7e, a line over
 * OPTFILE_LINE_MAX bytes, a name written "--name" or "name=value", a
 * second word after the value. Whether a name exists or takes a value is
 * the caller's to decide. The parser is pure: no I/O, no allocation. */
#ifndef AIRLOCK_OPTFILE_H
#define AIRLOCK_OPTFILE_H

#include <stddef.h>

#define OPTFILE_MAX (64 * 1024)		/* bytes in a whole file */
#define OPTFILE_LINE_MAX 1024		/* bytes in a line, "\n" excluded */
#define OPTFILE_NAME_MAX 32

struct optfile {
	char *p;		/* the file's bytes, NUL-terminated in place */
	size_t len, off;	/* invariant: off <= len */
	unsigned line;		/* of the last entry or error, from 1 */
	int bad;		/* an error was returned: sticky */
};

struct optfile_entry {
	unsigned line;
	const char *name;	/* NUL-terminated, inside the buffer */
	const char *value;	/* NULL when the line has none */
};

/* Read buf[0..len) as an option file; buf is written to (each name and
 * value ends in a NUL in place: buf[len] too, so it holds len + 1 bytes)
 * and must outlive the entries. */
void optfile_init(struct optfile *f, char *buf, size_t len);

/* The next entry: 1 with *e set, 0 at the end, -1 with a message in err
 * (f->line is the line it is about; the message does not repeat it), and
 * -1 again on every later call. */
int optfile_next(struct optfile *f, struct optfile_entry *e, char *err,
    size_t errlen);

#endif
