/* sbx_java_test.c - the Java stage's refusals before anything runs, without
 * root or a JDK: each is one stage record on stdout, read back with the
 * sandbox's own decoder (sbx_stage), and the stage returns without
 * compiling or touching the work directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sandbox/sbx_java.h"
#include "common/sandbox/sbx_stage.h"
#include "tap.h"

/* Run the stage on files with stdout on a pipe; the record it wrote is
 * decoded into s. Returns the stage's return value, or -99. */
static int
stage(char **files, size_t n, const char *denylist, struct sbx_stage *s)
{
	struct sbx_java_opts o = { .java_home = "/nonexistent-jdk",
		.heap = 64 << 20, .denylist = denylist, .files = files,
		.nfiles = n };
	uint8_t buf[4096];
	int fds[2], saved, rc;
	ssize_t got;
	size_t used;

	sbx_stage_init(s);
	fflush(stdout);
	if (pipe(fds) != 0 || (saved = dup(1)) < 0)
		return -99;
	dup2(fds[1], 1);
	close(fds[1]);
	rc = sbx_java_stage(&o);
	dup2(saved, 1);
	close(saved);
	got = read(fds[0], buf, sizeof buf);
	close(fds[0]);
	if (got <= 0 || sbx_stage_feed(s, buf, (size_t)got, &used) !=
	    SBX_STAGE_DONE || used != (size_t)got)
		return -99;
	return rc;
}

static int
says(const struct sbx_stage *s, const char *text)
{
	return memmem(s->detail, s->len, text, strlen(text)) != NULL;
}

int
main(void)
{
	static const char *const bad_entry[] = { "Main.jav", ".java",
		"1Main.java", "Ma-in.java", "Ma.in.java", "-Main.java",
		"Main.java ", "M\xc3\xa9in.java", "dir/Main.java" };
	static const char *const good_entry[] = { "Main.java", "_M$1.java",
		"a9.java" };
	char dir[] = "/tmp/airlock-sbx-java.XXXXXX";
	struct sbx_stage s;
	struct stat st;

	/* the stage works in its cwd: an empty one of our own */
	if (!mkdtemp(dir) || chdir(dir) != 0) {
		ok(0, "a temporary work directory");
		return tap_done();
	}
	for (size_t i = 0; i < sizeof bad_entry / sizeof bad_entry[0]; i++) {
		char *f[] = { (char *)bad_entry[i] };

		ok(stage(f, 1, NULL, &s) == 0 && s.status == SBX_STAGE_COMPILE &&
		    says(&s, "the first file must be NAME.java") &&
		    says(&s, bad_entry[i]), "entry '%s' refused by name",
		    bad_entry[i]);
	}
	for (size_t i = 0; i < sizeof good_entry / sizeof good_entry[0]; i++) {
		char *f[] = { (char *)good_entry[i], "-d.java" };

		ok(stage(f, 2, NULL, &s) == 0 && s.status == SBX_STAGE_COMPILE &&
		    says(&s, "may not start with '-'") && says(&s, "-d.java"),
		    "entry '%s' passes; a later '-d.java' is refused (javac "
		    "would read an option)", good_entry[i]);
	}
	{
		char *f[] = { "Main.java", "Util.java" };

		ok(stage(f, 2, "/nonexistent/deny.txt", &s) == 0 &&
		    s.status == SBX_STAGE_ERROR && says(&s, "Java denylist: "),
		    "an unreadable denylist fails closed: %.*s", (int)s.len,
		    s.detail);
	}
	ok(stat(".airlock", &st) != 0, "no refusal made the work directory");
	(void)!chdir("/");
	rmdir(dir);
	return tap_done();
}
