/* diskquota_test.c - measuring a tree on the real file system (blocks,
 * the per-entry floor, links not followed, a tree too deep refused), and
 * the watch's decisions through a stand-in measurement: under the caps,
 * past either, unmeasurable, nothing to watch. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/fsutil.h"
#include "common/jail/diskquota.h"
#include "tap.h"

static char root[] = "/tmp/diskquota-test.XXXXXX";

static void
at(char *out, size_t len, const char *rel)
{
	snprintf(out, len, "%s/%s", root, rel);
}

static void
test_tree(void)
{
	static char block[100000];
	char p[4096];
	uint64_t empty = 0, b = 0, links = 0;
	int fd, rc;

	at(p, sizeof p, "t");
	mkdir(p, 0700);
	rc = disk_tree_bytes(p, &empty) == 0;
	ok(rc && empty >= DISK_ENTRY_BYTES,
	    "an empty directory counts at least one entry (%llu)",
	    (unsigned long long)empty);
	at(p, sizeof p, "t/data");
	fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	memset(block, 1, sizeof block);
	rc = fd >= 0 && write(fd, block, sizeof block) ==
	    (ssize_t)sizeof block;
	if (fd >= 0)
		close(fd);
	at(p, sizeof p, "t");
	rc = rc && disk_tree_bytes(p, &b) == 0;
	ok(rc && b >= empty + sizeof block,
	    "a file's blocks are counted (%llu)", (unsigned long long)b);
	for (int i = 0; i < 50; i++) {
		snprintf(p, sizeof p, "%s/t/e%d", root, i);
		close(open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
	}
	at(p, sizeof p, "t");
	links = 0;
	ok(disk_tree_bytes(p, &links) == 0 &&
	    links >= b + 50ull * DISK_ENTRY_BYTES,
	    "empty files count DISK_ENTRY_BYTES each: inodes are not free");
	at(p, sizeof p, "t/usr");
	(void)symlink("/usr", p);
	at(p, sizeof p, "t");
	b = 0;
	ok(disk_tree_bytes(p, &b) == 0 && b < links + (1u << 20),
	    "a link is counted as itself, never followed (/usr)");
	at(p, sizeof p, "missing");
	b = 7;
	ok(disk_tree_bytes(p, &b) == 0 && b == 7,
	    "a missing tree holds nothing and adds nothing");
}

static void
test_deep(void)
{
	char p[16384];
	size_t n;
	uint64_t b = 0;
	int rc;

	n = (size_t)snprintf(p, sizeof p, "%s/deep", root);
	mkdir(p, 0700);
	for (int i = 0; i < DISK_DEPTH_MAX + 4 && n + 3 < sizeof p; i++) {
		memcpy(p + n, "/d", 3);
		n += 2;
		mkdir(p, 0700);
	}
	snprintf(p, sizeof p, "%s/deep", root);
	errno = 0;
	rc = disk_tree_bytes(p, &b);
	ok(rc == -1 && errno == ELOOP,
	    "a tree deeper than DISK_DEPTH_MAX cannot be measured: refused, "
	    "not counted short");
}

struct fake {
	int rc;
	uint64_t home, cache;
};

static int
fake_measure(void *ctx, uint64_t *home, uint64_t *cache)
{
	const struct fake *f = ctx;

	*home = f->home;
	*cache = f->cache;
	return f->rc;
}

static void
test_watch(void)
{
	struct disk_watch w;
	struct fake f = { 0, 1u << 20, 1u << 20 };
	char why[256] = "";
	int64_t t = 1000;

	disk_watch_start(&w, 0, 0, 0, t);
	ok(disk_watch_deadline(&w) == -1, "no caps, no reserve: no watch");
	disk_watch_start(&w, 8u << 20, 8u << 20, 0, t);
	ok(disk_watch_deadline(&w) == t, "the first look is at once");
	ok(disk_watch_tick(&w, t, root, fake_measure, &f, why,
	    sizeof why) == 0, "under both caps: the lease goes on");
	ok(disk_watch_deadline(&w) > t, "the next look is later");
	ok(disk_watch_tick(&w, t, root, fake_measure, &f, why,
	    sizeof why) == 0, "before its time the watch does nothing");
	f.home = 9u << 20;
	t += DISK_WALK_MS + 1;
	ok(disk_watch_tick(&w, t, root, fake_measure, &f, why,
	    sizeof why) == 1 && strstr(why, "over --home-size 8 MiB"),
	    "past --home-size: ended (%s)", why);
	f.home = 0;
	f.cache = 9u << 20;
	t += DISK_WALK_MS + 1;
	ok(disk_watch_tick(&w, t, root, fake_measure, &f, why,
	    sizeof why) == 1 && strstr(why, "over --cache-size 8 MiB"),
	    "past --cache-size: ended (%s)", why);
	f.cache = 0;
	f.rc = -1;
	t += DISK_WALK_MS + 1;
	ok(disk_watch_tick(&w, t, root, fake_measure, &f, why,
	    sizeof why) == 1 && strstr(why, "cannot be measured"),
	    "what cannot be measured counts as past the caps (%s)", why);
}

static void
test_message(void)
{
	char err[256];

	disk_no_space(err, sizeof err, "/srv/state", "the lease home", ENOSPC);
	ok(strstr(err, "no space on the state volume /srv/state") != NULL,
	    "the message says no space and names the volume: %s", err);
	ok(disk_errno_full(ENOSPC) && disk_errno_full(EDQUOT) &&
	    !disk_errno_full(EACCES), "ENOSPC and EDQUOT are a full volume");
}

int
main(void)
{
	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	test_tree();
	test_deep();
	test_watch();
	test_message();
	fs_remove_tree(root);
	return tap_done();
}
