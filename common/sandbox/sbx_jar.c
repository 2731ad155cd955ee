/* sbx_jar.c - write checked class files as a stored zip into a sealed
 * memfd (see sbx_jar.h). */
#include "common/sandbox/sbx_jar.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/base/fileio.h"

#define LOCAL_LEN 30
#define CENTRAL_LEN 46
#define END_LEN 22
#define FLAG_UTF8 0x0800
#define DATE_1980 0x0021	/* 1980-01-01: a fixed time, the same jar */

uint32_t
sbx_jar_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

/* ZIP's fields are little-endian, unlike the wire format (bounded_rw.h). */
static uint8_t *
le(uint8_t *p, uint32_t v, int n)
{
	for (int i = 0; i < n; i++, v >>= 8)
		*p++ = (uint8_t)v;
	return p;
}

int
sbx_jar_open(struct sbx_jar *j)
{
	memset(j, 0, sizeof *j);
	j->fd = memfd_create("airlock-classes", MFD_ALLOW_SEALING);
	return j->fd < 0 ? -1 : 0;
}

/* The fields local and central headers share, from "version needed". */
static uint8_t *
common_fields(uint8_t *p, uint32_t crc, uint32_t len, uint16_t nlen)
{
	p = le(p, 10, 2);		/* version needed: 1.0, stored */
	p = le(p, FLAG_UTF8, 2);
	p = le(p, 0, 2);		/* method: stored */
	p = le(p, 0, 2);		/* time */
	p = le(p, DATE_1980, 2);
	p = le(p, crc, 4);
	p = le(p, len, 4);		/* compressed size */
	p = le(p, len, 4);		/* uncompressed size */
	p = le(p, nlen, 2);
	return le(p, 0, 2);		/* extra field length */
}

int
sbx_jar_add(struct sbx_jar *j, const char *name, const uint8_t *data,
    size_t len)
{
	size_t nlen = strlen(name);
	uint8_t hdr[LOCAL_LEN], *c;
	uint32_t crc;

	if (nlen == 0 || nlen > SBX_JAR_NAME_MAX || name[0] == '/') {
		errno = EINVAL;
		return -1;
	}
	/* every offset and size a u32, every count a u16 */
	if (j->n == SBX_JAR_ENTRIES_MAX || len > UINT32_MAX ||
	    j->off + LOCAL_LEN + nlen + len > UINT32_MAX ||
	    j->cd_len + CENTRAL_LEN + nlen > UINT32_MAX) {
		errno = E2BIG;
		return -1;
	}
	if (j->cd_len + CENTRAL_LEN + nlen > j->cd_cap) {
		size_t cap = j->cd_cap ? 2 * j->cd_cap : 4096;
		uint8_t *nc;

		while (cap < j->cd_len + CENTRAL_LEN + nlen)
			cap *= 2;
		if (!(nc = realloc(j->cd, cap)))
			return -1;
		j->cd = nc;
		j->cd_cap = cap;
	}
	crc = sbx_jar_crc32(0, data, len);
	c = le(hdr, 0x04034b50, 4);
	common_fields(c, crc, (uint32_t)len, (uint16_t)nlen);
	if (file_write_all(j->fd, hdr, sizeof hdr) != 0 ||
	    file_write_all(j->fd, name, nlen) != 0 ||
	    file_write_all(j->fd, data, len) != 0)
		return -1;
	c = j->cd + j->cd_len;
	c = le(c, 0x02014b50, 4);
	c = le(c, 20, 2);		/* made by: MS-DOS attributes, 2.0 */
	c = common_fields(c, crc, (uint32_t)len, (uint16_t)nlen);
	c = le(c, 0, 2);		/* comment length */
	c = le(c, 0, 2);		/* disk */
	c = le(c, 0, 2);		/* internal attributes */
	c = le(c, 0, 4);		/* external attributes */
	c = le(c, (uint32_t)j->off, 4);
	memcpy(c, name, nlen);
	j->cd_len += CENTRAL_LEN + nlen;
	j->off += LOCAL_LEN + nlen + len;
	j->n++;
	return 0;
}

int
sbx_jar_seal(struct sbx_jar *j)
{
	uint8_t end[END_LEN], *p = end;
	int fd;

	p = le(p, 0x06054b50, 4);
	p = le(p, 0, 2);		/* this disk */
	p = le(p, 0, 2);		/* the directory's disk */
	p = le(p, j->n, 2);
	p = le(p, j->n, 2);
	p = le(p, (uint32_t)j->cd_len, 4);
	p = le(p, (uint32_t)j->off, 4);
	le(p, 0, 2);			/* comment length */
	if (file_write_all(j->fd, j->cd, j->cd_len) != 0 ||
	    file_write_all(j->fd, end, sizeof end) != 0 ||
	    fcntl(j->fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK |
	    F_SEAL_GROW | F_SEAL_SEAL) != 0) {
		int e = errno;

		sbx_jar_free(j);
		errno = e;
		return -1;
	}
	fd = j->fd;
	j->fd = -1;
	sbx_jar_free(j);
	return fd;
}

void
sbx_jar_free(struct sbx_jar *j)
{
	if (j->fd >= 0)
		close(j->fd);
	free(j->cd);
	j->fd = -1;
	j->cd = NULL;
	j->cd_len = j->cd_cap = 0;
}
