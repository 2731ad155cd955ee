/* procscan.c - walk /proc, parse each task's status for its owner. */
#include "common/base/procscan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/base/dirents.h"

/* The value of "key\t..." in buf: the bytes after the tab up to the end of
 * its line. 0 and *v, *vlen, or -1 when no line starts with key. */
static int
value(const char *buf, size_t len, const char *key, const char **v,
    size_t *vlen)
{
	size_t klen = strlen(key), off = 0;

	while (off < len) {
		const char *line = buf + off, *nl = memchr(line, '\n', len - off);
		size_t llen = nl ? (size_t)(nl - line) : len - off;

		if (llen > klen && memcmp(line, key, klen) == 0 &&
		    line[klen] == '\t') {
			*v = line + klen + 1;
			*vlen = llen - klen - 1;
			return 0;
		}
		off += llen + 1;
	}
	return -1;
}

/* Four tab-separated canonical decimal numbers, each <= UINT32_MAX. */
static int
four_ids(const char *s, size_t n, uint32_t out[4])
{
	size_t i = 0;

	for (int k = 0; k < 4; k++) {
		uint64_t x = 0;
		size_t start = i;

		while (i < n && s[i] >= '0' && s[i] <= '9' && i - start < 11)
			x = x * 10 + (uint64_t)(s[i++] - '0');
		if (i == start || x > UINT32_MAX ||
		    (i - start > 1 && s[start] == '0'))
			return -1;
		out[k] = (uint32_t)x;
		if (k < 3 && (i >= n || s[i++] != '\t'))
			return -1;
	}
	return i == n ? 0 : -1;
}

int
procscan_status_parse(const char *buf, size_t len, struct proc_owner *o)
{
	const char *v;
	size_t vlen;

	if (value(buf, len, "State:", &v, &vlen) != 0 || vlen == 0)
		return -1;
	if (v[0] == 'Z' || v[0] == 'X')
		return 1;
	if (value(buf, len, "Uid:", &v, &vlen) != 0 ||
	    four_ids(v, vlen, o->uid) != 0)
		return -1;
	if (value(buf, len, "Name:", &v, &vlen) != 0)
		return -1;
	if (vlen >= sizeof o->comm)
		vlen = sizeof o->comm - 1;
	memcpy(o->comm, v, vlen);
	o->comm[vlen] = '\0';
	return 0;
}

int
procscan(pid_t except, int (*fn)(void *ctx, const struct proc_owner *o),
    void *ctx)
{
	struct dirents d;
	struct dirent *e;
	int rc = 0;

	if (dirents_open(&d, AT_FDCWD, "/proc") != 0)
		return -1;
	while (rc == 0 && (e = dirents_next(&d))) {
		struct proc_owner o;
		char path[64], buf[4096];
		long pid = 0;
		ssize_t n;
		int fd;

		for (const char *c = e->d_name; *c; c++) {
			if (*c < '0' || *c > '9' || pid > 99999999) {
				pid = 0;
				break;
			}
			pid = pid * 10 + (*c - '0');
		}
		if (pid <= 0 || pid == except)
			continue;
		/* a task with no memory of its own (a kernel thread, or one
		 * past exit_mm: a zombie to be) runs as no user's: its exe
		 * link is ENOENT, one lookup where status is a formatted
		 * page (a host's /proc is mostly kernel threads) */
		snprintf(path, sizeof path, "%ld/exe", pid);
		if (readlinkat(d.fd, path, buf, 1) < 0 && errno == ENOENT)
			continue;
		/* relative to /proc (a shorter walk), and openat: musl's
		 * open() adds an fcntl for O_CLOEXEC */
		snprintf(path, sizeof path, "%ld/status", pid);
		if ((fd = openat(d.fd, path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;	/* gone meanwhile */
		n = read(fd, buf, sizeof buf);
		close(fd);
		if (n <= 0 || procscan_status_parse(buf, (size_t)n, &o) != 0)
			continue;
		o.pid = (pid_t)pid;
		rc = fn(ctx, &o);
	}
	dirents_close(&d);
	return rc;
}

int
proc_owner_in_range(const struct proc_owner *o, uint32_t first,
    uint32_t last, uint32_t *uid)
{
	for (int i = 0; i < 4; i++)
		if (o->uid[i] >= first && o->uid[i] <= last) {
			*uid = o->uid[i];
			return 1;
		}
	return 0;
}
