/* toollist.h - the tools an approval lets a registration expose
 * (`review approve --tools a,b`): one canonical text, what the token
 * signs and the runner enforces.
 *
 *	list = name *( "," name )	names in byte-wise ascending order,
 *					no repeats, no spaces
 *	name = 1*128( ALPHA / DIGIT / "_" / "-" / "." / "/" )
 *
 * A name outside that alphabet cannot be listed: MCP's own rule for tool
 * names is narrower still, and a list that cannot hold a comma, a quote
 * or a control needs no escaping anywhere it is printed. */
#ifndef AIRLOCK_TOOLLIST_H
#define AIRLOCK_TOOLLIST_H

#include <stddef.h>
#include <stdint.h>

#define TOOLLIST_TEXT_MAX 4096
#define TOOLLIST_NAME_MAX 128

/* The canonical form of the list in[0..n) (names in any order, repeats
 * allowed) into out (cap bytes, NUL added): its length, or -1 with why in
 * err (errcap bytes) when a name is empty, too long, or holds a byte
 * outside the alphabet, or the result passes TOOLLIST_TEXT_MAX or cap. */
long toollist_canonical(const char *in, size_t n, char *out, size_t cap,
    char *err, size_t errcap);

/* 1 when list[0..n) is exactly in canonical form (and not empty). */
int toollist_is_canonical(const uint8_t *list, size_t n);

/* 1 when name[0..len) (untrusted bytes) is one of canonical list
 * list[0..n). */
int toollist_has(const uint8_t *list, size_t n, const uint8_t *name,
    size_t len);

#endif
