/* ipcsweep.c - remove the System V and POSIX IPC objects of a uid. */
#include "common/jail/ipcsweep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mqueue.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "common/base/decnum.h"
#include "common/base/dirents.h"
#include "common/base/fileio.h"

#define MQUEUE_MAGIC 0x19800202
#define TABLE_MAX (4u << 20)

/* Columns (0-based, after the key) of the id, owner uid and creator uid:
 * shm "key shmid perms size cpid lpid nattch uid gid cuid ...",
 * msg "key msqid perms cbytes qnum lspid lrpid uid gid cuid ...",
 * sem "key semid perms nsems uid gid cuid ...". */
static const struct {
	size_t id, uid, cuid;
} columns[] = {
	[IPC_TABLE_SHM] = { 1, 7, 9 },
	[IPC_TABLE_MSG] = { 1, 7, 9 },
	[IPC_TABLE_SEM] = { 1, 4, 6 },
};

/* The line p[0..n): its id, owner and creator, canonical decimals (the
 * kernel's %d; the key column, the only signed one, is never read). 0 or
 * -1. */
static int
parse_line(const char *p, size_t n, enum ipc_table t, uint32_t *id,
    uint32_t *owner, uint32_t *creator)
{
	size_t col = 0, i = 0, want = columns[t].cuid;

	while (col <= want) {
		uint32_t *v = col == columns[t].id ? id : col ==
		    columns[t].uid ? owner : col == columns[t].cuid ? creator :
		    NULL;
		size_t start;

		while (i < n && p[i] == ' ')
			i++;
		if (i == n)
			return -1;
		start = i;
		while (i < n && p[i] != ' ')
			i++;
		if (v && decnum_parse(p + start, i - start, v) != 0)
			return -1;
		col++;
	}
	return *id <= INT32_MAX ? 0 : -1;
}

int
ipcsweep_parse(const char *buf, size_t len, enum ipc_table t, uint32_t uid,
    int *ids, size_t cap, size_t *n)
{
	const char *nl = memchr(buf, '\n', len);
	size_t off = nl ? (size_t)(nl - buf) + 1 : len;

	*n = 0;
	if ((unsigned)t > IPC_TABLE_SEM)
		return -1;
	while (off < len) {
		const char *end = memchr(buf + off, '\n', len - off);
		size_t k = end ? (size_t)(end - (buf + off)) : len - off;
		uint32_t id = 0, owner = 0, creator = 0;

		if (parse_line(buf + off, k, t, &id, &owner, &creator) != 0)
			return -1;
		if (owner == uid || creator == uid) {
			if (*n < cap)
				ids[*n] = (int)id;
			++*n;
		}
		off += k + (end ? 1 : 0);
	}
	return 0;
}

static int
remove_id(enum ipc_table t, int id)
{
	int rc = t == IPC_TABLE_SHM ? shmctl(id, IPC_RMID, NULL) :
	    t == IPC_TABLE_MSG ? msgctl(id, IPC_RMID, NULL) :
	    semctl(id, 0, IPC_RMID);

	/* gone meanwhile (EINVAL, EIDRM) is as good as removed */
	return rc == 0 || errno == EINVAL || errno == EIDRM ? 0 : -1;
}

/* One table: remove what uid owns or created, until none is listed. */
static int
sweep_table(const char *path, enum ipc_table t, uint32_t uid)
{
	int ids[IPCSWEEP_IDS_MAX];

	for (int pass = 0; pass < 64; pass++) {
		char *buf;
		size_t len, n;
		int rc;

		if (file_read_kernel(path, TABLE_MAX, &buf, &len) != 0)
			return errno == ENOENT ? 0 : -1;
		rc = ipcsweep_parse(buf, len, t, uid, ids, IPCSWEEP_IDS_MAX,
		    &n);
		free(buf);
		if (rc != 0)
			return -1;
		if (n == 0)
			return 0;
		for (size_t i = 0; i < n && i < IPCSWEEP_IDS_MAX; i++)
			if (remove_id(t, ids[i]) != 0)
				return -1;
	}
	return -1;	/* more keep coming: something of the uid still runs */
}

/* POSIX message queues: files of the mqueue mount, owned by the uid.
 * How many there were (each unlinked when remove), or -1. */
static int
mqueues(uint32_t uid, int remove)
{
	struct statfs fs;
	struct dirents d;
	struct dirent *e;
	int n = 0, rc = 0;

	if (statfs("/dev/mqueue", &fs) != 0 || fs.f_type != MQUEUE_MAGIC)
		return 0;	/* not mounted: queues exist, unlisted */
	if (dirents_open(&d, AT_FDCWD, "/dev/mqueue") != 0)
		return -1;
	while ((e = dirents_next(&d))) {
		char name[NAME_MAX + 2];
		struct stat st;

		if (e->d_name[0] == '.' || fstatat(d.fd, e->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != uid)
			continue;
		n++;
		snprintf(name, sizeof name, "/%s", e->d_name);
		if (remove && mq_unlink(name) != 0 && errno != ENOENT)
			rc = -1;
	}
	dirents_close(&d);
	return rc == 0 ? n : -1;
}

/* 1 when one table lists an object of uid, 0 when none, -1 */
static int
table_has(const char *path, enum ipc_table t, uint32_t uid)
{
	int id;
	char *buf;
	size_t len, n;
	int rc;

	if (file_read_kernel(path, TABLE_MAX, &buf, &len) != 0)
		return errno == ENOENT ? 0 : -1;
	rc = ipcsweep_parse(buf, len, t, uid, &id, 1, &n);
	free(buf);
	return rc != 0 ? -1 : n > 0;
}

int
ipcsweep_any(uint32_t uid)
{
	static const struct { const char *path; enum ipc_table t; } tab[] = {
		{ "/proc/sysvipc/shm", IPC_TABLE_SHM },
		{ "/proc/sysvipc/msg", IPC_TABLE_MSG },
		{ "/proc/sysvipc/sem", IPC_TABLE_SEM },
	};
	int rc;

	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if ((rc = table_has(tab[i].path, tab[i].t, uid)) != 0)
			return rc;
	rc = mqueues(uid, 0);
	return rc < 0 ? -1 : rc > 0;
}

int
ipcsweep_remove(uint32_t uid)
{
	int rc = 0;

	if (sweep_table("/proc/sysvipc/shm", IPC_TABLE_SHM, uid) != 0 ||
	    sweep_table("/proc/sysvipc/msg", IPC_TABLE_MSG, uid) != 0 ||
	    sweep_table("/proc/sysvipc/sem", IPC_TABLE_SEM, uid) != 0)
		rc = -1;
	if (mqueues(uid, 1) < 0)
		rc = -1;
	return rc;
}
