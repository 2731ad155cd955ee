/* javacheck_test.c - the Java denylist on real javac 17 output: every
 * hostile tool in test/java/hostile is refused naming its reference, the
 * benign ones pass, and with the rule taken out the same class passes
 * (the check is what refuses it). Plus the rule parser, the tree walk
 * (symlinks, strange files, empty output) and what it hands on. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sandbox/javacheck.h"
#include "tap.h"

static struct javacheck_policy def;
static char why[JAVACHECK_WHY_MAX];

static enum javacheck_status
tree(const struct javacheck_policy *p, const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	enum javacheck_status st;

	if (fd < 0) {
		snprintf(why, sizeof why, "cannot open %s", dir);
		return JAVACHECK_ERROR;
	}
	st = javacheck_tree(p, fd, NULL, why, sizeof why);
	close(fd);
	return st;
}

struct hostile {
	const char *dir;
	const char *want;	/* in why */
	const char *rule;	/* the one rule that refuses it, for A/B */
};

static const struct hostile hostile[] = {
	{ "ProcSpawn", "ProcSpawn.class references class "
	    "java.lang.ProcessBuilder (process spawning)",
	    "any java/lang/ProcessBuilder process spawning" },
	{ "RuntimeExec", "RuntimeExec.class references java.lang.Runtime.exec "
	    "(process spawning)", "call java/lang/Runtime.exec process spawning" },
	{ "Reflect", "Reflect.class references java.lang.Class.forName "
	    "(reflection)", "call java/lang/Class.forName reflection\n"
	    "call java/lang/Class.getConstructor reflection\n"
	    "any java/lang/reflect/ reflection" },
	{ "LoadLib", "LoadLib.class references java.lang.System.loadLibrary "
	    "(native library loading)",
	    "call java/lang/System.loadLibrary native library loading" },
	{ "Handles", "Handles.class references "
	    "java.lang.invoke.MethodHandles.lookup (method handles)",
	    "call java/lang/invoke/MethodHandles method handles" },
	{ "UnsafeUse", "UnsafeUse.class references sun.misc.Unsafe.getUnsafe "
	    "(JDK internals)", "any sun/ JDK internals" },
	{ "Loader", "Loader.class references java.lang.ClassLoader.<init> "
	    "(class loaders)", "any java/lang/ClassLoader class loaders" },
	{ "Net", "Net.class references class java.net.Socket (network)",
	    "any java/net/ network" },
	{ "Exit", "Exit.class references java.lang.System.exit (System.exit)",
	    "call java/lang/System.exit System.exit" },
	{ "Threads", "Threads.class references class java.lang.ThreadGroup "
	    "(thread groups)", "any java/lang/ThreadGroup thread groups" },
	{ "NativeDecl", "NativeDecl.class declares native method evil "
	    "(native code)", NULL },
	{ "InnerSpawn", "InnerSpawn$Helper.class references class "
	    "java.lang.ProcessBuilder (process spawning)",
	    "any java/lang/ProcessBuilder process spawning" },
	{ "MethodRef", "MethodRef.class references java.lang.Runtime.exec "
	    "(process spawning)", "call java/lang/Runtime.exec process spawning" },
};

/* A policy with one harmless rule: the "layer off" of the A/B tests. */
static const char off_text[] = "any org/nothing/ placeholder\n";

static void
test_hostile(void)
{
	struct javacheck_policy off, only;
	char dir[256], err[256];

	ok(javacheck_policy_parse(&off, off_text, sizeof off_text - 1, err,
	    sizeof err) == 0, "a one-rule policy parses");
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		const struct hostile *h = &hostile[i];
		enum javacheck_status st;

		snprintf(dir, sizeof dir, "test/java/classes/%s", h->dir);
		st = tree(&def, dir);
		ok(st == JAVACHECK_DENIED && strcmp(why, h->want) == 0,
		    "%s is refused: %s", h->dir, why);
		if (!h->rule) {	/* native methods: not a rule, always on */
			continue;
		}
		st = tree(&off, dir);
		ok(st == JAVACHECK_OK, "without its rule %s passes (so the rule "
		    "is what refuses it)", h->dir);
		ok(javacheck_policy_parse(&only, h->rule, strlen(h->rule), err,
		    sizeof err) == 0 && tree(&only, dir) == JAVACHECK_DENIED,
		    "its rule alone refuses %s", h->dir);
		javacheck_policy_free(&only);
	}
	javacheck_policy_free(&off);
}

static void
test_benign(void)
{
	struct javacheck_stats st;
	int fd = open("test/java/classes/benign", O_RDONLY | O_DIRECTORY);

	ok(javacheck_tree(&def, fd, &st, why, sizeof why) == JAVACHECK_OK,
	    "the benign tool (lambdas, records, enums, inner classes) passes "
	    "%s", why);
	ok(st.files == 6 && st.refs > 100, "all 6 of its class files were read "
	    "(%zu files, %zu references)", st.files, st.refs);
	close(fd);
	ok(tree(&def, "test/java/classes/pkg") == JAVACHECK_OK,
	    "a class in a package directory passes");
}

/* A method-handle-only reference: the rule for Runtime.exec catches
 * `Runtime.getRuntime()::exec`, which has no invoke instruction. */
static void
test_rules(void)
{
	static const char member[] = "call java/lang/Runtime.exec x\n";
	static const char nested[] = "any java/lang/ProcessB x\n";
	struct javacheck_policy p;
	char err[256];

	ok(javacheck_policy_parse(&p, member, sizeof member - 1, err,
	    sizeof err) == 0 && tree(&p, "test/java/classes/MethodRef") ==
	    JAVACHECK_DENIED, "a member rule catches a method reference");
	javacheck_policy_free(&p);
	/* class rules cover nested classes but are not prefixes */
	ok(javacheck_policy_parse(&p, nested, sizeof nested - 1, err,
	    sizeof err) == 0 && tree(&p, "test/java/classes/ProcSpawn") ==
	    JAVACHECK_OK, "a class rule is not a name prefix: java/lang/ProcessB "
	    "does not match java/lang/ProcessBuilder");
	javacheck_policy_free(&p);
}

struct parse_case {
	const char *text;
	int ok;
};

static void
test_parse(void)
{
	static const struct parse_case cases[] = {
		{ "any a/b/ r\n", 1 },
		{ "  call\ta/B.m   some reason  \r\n", 1 },
		{ "# only a comment\n\n", 0 },
		{ "", 0 },
		{ "deny a/b/ r\n", 0 },
		{ "any a/B.m r\n", 0 },		/* member rules need call */
		{ "call a/B. r\n", 0 },
		{ "call .m r\n", 0 },
		{ "call a/.m r\n", 0 },
		{ "call a/B.m.n r\n", 0 },
		{ "call a/B.m/n r\n", 0 },
		{ "any /a r\n", 0 },
		{ "any a//b r\n", 0 },
		{ "any a;b r\n", 0 },
		{ "any a/b\n", 0 },		/* no reason */
		{ "any a/b r\x01\n", 0 },
		{ "any a/b r\xc3\xa9\n", 0 },
		{ "any a/b r\nany c/d r", 1 },	/* no final newline */
	};
	struct javacheck_policy p;
	char err[256], big[200];
	int all = 1;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = javacheck_policy_parse(&p, cases[i].text,
		    strlen(cases[i].text), err, sizeof err);

		if ((rc == 0) != cases[i].ok) {
			printf("# '%s': %s\n", cases[i].text, rc ? err : "ok");
			all = 0;
		}
		if (rc == 0)
			javacheck_policy_free(&p);
	}
	ok(all, "%zu rule lines parsed or refused as they should be",
	    sizeof cases / sizeof cases[0]);
	memset(big, 'r', sizeof big);
	memcpy(big, "any a/b ", 8);
	big[sizeof big - 1] = '\0';
	ok(javacheck_policy_parse(&p, big, strlen(big), err, sizeof err) != 0,
	    "a reason over %d bytes is refused", JAVACHECK_REASON_MAX);
	ok(javacheck_policy_parse(&p, "any a/b r\nbad\n", 14, err,
	    sizeof err) != 0 && strstr(err, "line 2"), "errors name the "
	    "line: %s", err);
	ok(def.n > 50, "the built-in list has %zu rules", def.n);
}

/* Edges of the text format the table above does not reach: caps, bytes
 * the lines may not hold, and the explicit length. */
static void
test_parse_edges(void)
{
	static char text[(JAVACHECK_RULES_MAX + 1) * 10 + 1];
	static const char tabs[] = "any a/b two\twords\n \t\r\n\r";
	struct javacheck_policy p;
	char err[256], line[JAVACHECK_TARGET_MAX + 16];
	size_t n = 0;

	for (size_t i = 0; i < JAVACHECK_RULES_MAX; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
		    "any a/b r\n");
	ok(javacheck_policy_parse(&p, text, n, err, sizeof err) == 0 &&
	    p.n == JAVACHECK_RULES_MAX, "%d rules are accepted",
	    JAVACHECK_RULES_MAX);
	javacheck_policy_free(&p);
	n += (size_t)snprintf(text + n, sizeof text - n, "any a/b r\n");
	ok(javacheck_policy_parse(&p, text, n, err, sizeof err) == -1 &&
	    strcmp(err, "line 1025: more than 1024 rules") == 0 && !p.rules &&
	    p.n == 0, "one more is refused and nothing kept: %s", err);

	memset(line, 'a', sizeof line);
	memcpy(line, "any ", 4);
	memcpy(line + 4 + JAVACHECK_TARGET_MAX, " r", 2);
	ok(javacheck_policy_parse(&p, line, 4 + JAVACHECK_TARGET_MAX + 2, err,
	    sizeof err) == 0 && strlen(p.rules[0].pattern) ==
	    JAVACHECK_TARGET_MAX, "a %d-byte target is accepted",
	    JAVACHECK_TARGET_MAX);
	javacheck_policy_free(&p);
	memcpy(line + 4 + JAVACHECK_TARGET_MAX, "a r", 3);
	ok(javacheck_policy_parse(&p, line, 4 + JAVACHECK_TARGET_MAX + 3, err,
	    sizeof err) == -1, "one byte more is refused");

	memset(line, 'r', sizeof line);
	memcpy(line, "any a/b ", 8);
	ok(javacheck_policy_parse(&p, line, 8 + JAVACHECK_REASON_MAX, err,
	    sizeof err) == 0 && strlen(p.rules[0].reason) ==
	    JAVACHECK_REASON_MAX, "a %d-byte reason is accepted",
	    JAVACHECK_REASON_MAX);
	javacheck_policy_free(&p);

	ok(javacheck_policy_parse(&p, "any a/b r\0x\n", 12, err,
	    sizeof err) == -1 && strstr(err, "line 1"), "a NUL in a line is "
	    "refused, not read as the end of the text");
	ok(javacheck_policy_parse(&p, "# a\0comment\nany a/b r\n", 22, err,
	    sizeof err) == -1, "so is a NUL in a comment");
	ok(javacheck_policy_parse(&p, "any a/b r\x7f\n", 11, err,
	    sizeof err) == -1, "a DEL in a reason is refused");
	ok(javacheck_policy_parse(&p, "any a/b r\rx\n", 12, err,
	    sizeof err) == -1, "a CR inside a line is refused");
	ok(javacheck_policy_parse(&p, tabs, sizeof tabs - 1, err,
	    sizeof err) == 0 && p.n == 1 && strcmp(p.rules[0].reason,
	    "two\twords") == 0, "a tab inside a reason is kept; blank and "
	    "bare-CR lines are skipped");
	javacheck_policy_free(&p);
	ok(javacheck_policy_parse(&p, "any a/b r\nbad line", 10, err,
	    sizeof err) == 0 && p.n == 1, "only len bytes are read");
	javacheck_policy_free(&p);
}

/* javacheck_policy_load: the file's size cap and its messages. */
static void
test_load(void)
{
	static char text[JAVACHECK_TEXT_MAX + 1];
	char d[] = "/tmp/javacheck-load.XXXXXX", path[512], err[512],
	    want[600];
	struct javacheck_policy p;
	char *got = NULL;
	size_t got_len = 0;
	FILE *f;

	if (!mkdtemp(d)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/deny", d);
	ok(javacheck_policy_load(&p, path, err, sizeof err) == -1 &&
	    snprintf(want, sizeof want, "%s: No such file or directory",
	    path) > 0 && strcmp(err, want) == 0, "a missing file: %s", err);
	/* one rule, then comment lines up to exactly the cap */
	memset(text, '#', sizeof text);
	memcpy(text, "any a/b r\n", 10);
	for (size_t i = 100; i < JAVACHECK_TEXT_MAX; i += 100)
		text[i - 1] = '\n';
	text[JAVACHECK_TEXT_MAX - 1] = '\n';
	f = fopen(path, "w");
	fwrite(text, 1, JAVACHECK_TEXT_MAX, f);
	fclose(f);
	ok(javacheck_policy_load(&p, path, err, sizeof err) == 0 && p.n == 1,
	    "a file of exactly %u bytes is read", JAVACHECK_TEXT_MAX);
	javacheck_policy_free(&p);
	ok(javacheck_policy_load_text(&p, path, &got, &got_len, err,
	    sizeof err) == 0 && p.n == 1 && got_len == JAVACHECK_TEXT_MAX &&
	    memcmp(got, text, got_len) == 0,
	    "load_text hands back the bytes it parsed");
	javacheck_policy_free(&p);
	free(got);
	got = NULL;
	f = fopen(path, "a");
	fputc('#', f);
	fclose(f);
	ok(javacheck_policy_load(&p, path, err, sizeof err) == -1 &&
	    snprintf(want, sizeof want, "%s: over %u bytes", path,
	    JAVACHECK_TEXT_MAX) > 0 && strcmp(err, want) == 0,
	    "one byte more is refused: %s", err);
	ok(javacheck_policy_load_text(&p, path, &got, &got_len, err,
	    sizeof err) == -1 && got == NULL, "... and no text handed back");
	f = fopen(path, "w");
	fputs("any a/b r\nany a//b r\n", f);
	fclose(f);
	ok(javacheck_policy_load(&p, path, err, sizeof err) == -1 &&
	    snprintf(want, sizeof want, "%s: line 2: ", path) > 0 &&
	    strncmp(err, want, strlen(want)) == 0, "a parse error names the "
	    "file and the line: %s", err);
	ok(javacheck_policy_load_text(&p, path, &got, &got_len, err,
	    sizeof err) == -1 && got == NULL,
	    "... and load_text hands back no text for it");
	unlink(path);
	rmdir(d);
}

static void
test_tree_files(void)
{
	char d[] = "/tmp/javacheck-test.XXXXXX", path[512];
	FILE *f;
	int fd;

	if (!mkdtemp(d)) {
		ok(0, "mkdtemp");
		return;
	}
	ok(tree(&def, d) == JAVACHECK_BAD && strstr(why, "no class file"),
	    "an empty output is refused: %s", why);
	snprintf(path, sizeof path, "%s/Tool.class", d);
	ok(symlink("/etc/passwd", path) == 0 && tree(&def, d) ==
	    JAVACHECK_BAD, "a symlink is refused: %s", why);
	unlink(path);
	snprintf(path, sizeof path, "%s/notes.txt", d);
	f = fopen(path, "w");
	fputs("hi", f);
	fclose(f);
	ok(tree(&def, d) == JAVACHECK_BAD && strstr(why, "notes.txt"),
	    "a file that is not a class file is refused: %s", why);
	unlink(path);
	snprintf(path, sizeof path, "%s/Bad.class", d);
	f = fopen(path, "w");
	fputs("\xca\xfe\xba\xbe", f);
	fclose(f);
	ok(tree(&def, d) == JAVACHECK_BAD && strstr(why, "Bad.class: "
	    "malformed"), "a malformed class file is refused: %s", why);
	unlink(path);
	snprintf(path, sizeof path, "%s/fifo.class", d);
	ok(mkfifo(path, 0600) == 0 && tree(&def, d) == JAVACHECK_BAD,
	    "a fifo named .class is refused without blocking: %s", why);
	unlink(path);
	fd = open(d, O_RDONLY | O_DIRECTORY);
	close(fd);
	rmdir(d);
}

struct taken {
	char paths[8][64];
	size_t n;
	int same;		/* each buffer equals the file on disk */
	int fail_at;		/* return -1 at this call (1-based), or 0 */
	const char *dir;
};

static int
take(void *ctx, const char *path, const uint8_t *buf, size_t len)
{
	struct taken *t = ctx;
	char full[512];
	uint8_t disk[8192];
	FILE *f;
	size_t n;

	if (t->n == 8)
		return -1;
	snprintf(t->paths[t->n++], sizeof t->paths[0], "%s", path);
	if (t->fail_at && (int)t->n == t->fail_at) {
		errno = ENOSPC;
		return -1;
	}
	snprintf(full, sizeof full, "%s/%s", t->dir, path);
	f = fopen(full, "rb");
	n = f ? fread(disk, 1, sizeof disk, f) : 0;
	if (f)
		fclose(f);
	if (n != len || memcmp(disk, buf, len) != 0)
		t->same = 0;
	return 0;
}

static enum javacheck_status
tree_take(const char *dir, struct taken *t)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	enum javacheck_status st;

	t->dir = dir;
	t->same = 1;
	st = javacheck_tree_take(&def, fd, NULL, why, sizeof why, take, t);
	close(fd);
	return st;
}

/* What the sandbox packs into the JVM's class path is exactly what
 * passed: every file, its path below the tree, its very bytes. */
static void
test_take(void)
{
	struct taken t;

	memset(&t, 0, sizeof t);
	ok(tree_take("test/java/classes/benign", &t) == JAVACHECK_OK &&
	    t.n == 6 && t.same && strcmp(t.paths[0], "Tool$1.class") == 0,
	    "take gets each of the 6 files that passed, with their bytes, "
	    "in sorted order");
	memset(&t, 0, sizeof t);
	ok(tree_take("test/java/classes/pkg", &t) == JAVACHECK_OK && t.n == 1 &&
	    strchr(t.paths[0], '/') != NULL && t.same,
	    "a class in a package is taken by its path (%s)", t.paths[0]);
	memset(&t, 0, sizeof t);
	ok(tree_take("test/java/classes/InnerSpawn", &t) == JAVACHECK_DENIED &&
	    t.n == 0, "a refused file is never taken (InnerSpawn$Helper "
	    "comes first and is refused)");
	memset(&t, 0, sizeof t);
	t.fail_at = 2;
	ok(tree_take("test/java/classes/benign", &t) == JAVACHECK_ERROR &&
	    t.n == 2 && strstr(why, "No space left"),
	    "a failing take stops the walk as an error: %s", why);
}

int
main(void)
{
	char err[256];

	if (javacheck_policy_default(&def, err, sizeof err) != 0) {
		ok(0, "the built-in denylist parses: %s", err);
		return tap_done();
	}
	ok(1, "the built-in denylist parses");
	test_hostile();
	test_benign();
	test_rules();
	test_parse();
	test_parse_edges();
	test_load();
	test_tree_files();
	test_take();
	javacheck_policy_free(&def);
	return tap_done();
}
