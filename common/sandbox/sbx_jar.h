/* sbx_jar.h - the checked classes of a Java tool as one jar in a sealed
 * memfd: the JVM's only class path. A sealed memfd cannot be written,
 * grown, shrunk or unsealed by anyone, the tool's uid included (reopening
 * /proc/self/fd/N gives the same sealed file), so the classes the JVM
 * loads by name stay the bytes common/javacheck read.
 *
 * The jar is a plain zip (APPNOTE 6.3): entries stored (method 0), names
 * in UTF-8 (flag bit 11), no manifest, no directory entries, no extra
 * fields, no zip64 (the caps of javacheck keep every count and offset far
 * below 2^16 entries and 2^32 bytes). Writing only: nothing here parses
 * a zip. */
#ifndef AIRLOCK_SBX_JAR_H
#define AIRLOCK_SBX_JAR_H

#include <stddef.h>
#include <stdint.h>

#define SBX_JAR_ENTRIES_MAX 65535u
#define SBX_JAR_NAME_MAX 4095u

struct sbx_jar {
	int fd;			/* the memfd, or -1 */
	uint64_t off;		/* bytes written so far */
	uint8_t *cd;		/* the central directory, kept until the end */
	size_t cd_len, cd_cap;
	uint32_t n;		/* entries */
};

/* A new, empty jar in a memfd (not close-on-exec: java inherits it).
 * 0, or -1 with errno. */
int sbx_jar_open(struct sbx_jar *j);

/* Append the file name (relative, '/'-separated, 1..SBX_JAR_NAME_MAX
 * bytes) holding data[0..len). 0, or -1 with errno (E2BIG: past a zip
 * limit). */
int sbx_jar_add(struct sbx_jar *j, const char *name, const uint8_t *data,
    size_t len);

/* Write the central directory and seal the memfd against every change;
 * returns the fd (the caller owns it), or -1 with errno. The jar is
 * released either way. */
int sbx_jar_seal(struct sbx_jar *j);

/* Drop an unfinished jar. */
void sbx_jar_free(struct sbx_jar *j);

/* CRC-32 (ISO-HDLC, as zip uses) of p[0..n), continuing from crc (0 to
 * start). */
uint32_t sbx_jar_crc32(uint32_t crc, const uint8_t *p, size_t n);

#endif
