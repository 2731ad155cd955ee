/* classfile_test.c - the class-file reader on real javac 17 output
 * (test/java/classes, from test/java/benign and test/java/hostile) and
 * on hand-built and hand-corrupted files: every truncation, every
 * malformed constant, every cross-reference of the wrong kind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sandbox/classfile.h"
#include "common/base/bounded_rw.h"
#include "tap.h"

static uint8_t file[1 << 20];

static size_t
load(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(file, 1, sizeof file, f);
	fclose(f);
	return n;
}

static int
scan(const uint8_t *b, size_t n)
{
	return classfile_scan(b, n, NULL, NULL, NULL, NULL, NULL);
}

/* --- real javac output ---------------------------------------------------- */

static const char *const real[] = {
	"benign/Tool.class", "benign/Tool$1.class", "benign/Tool$Counter.class",
	"benign/Tool$Kind.class", "benign/Tool$Shout.class",
	"benign/Tool$Token.class", "pkg/tool/util/Greeter.class",
	"Exit/Exit.class", "Handles/Handles.class",
	"InnerSpawn/InnerSpawn.class", "InnerSpawn/InnerSpawn$Helper.class",
	"LoadLib/LoadLib.class", "Loader/Loader.class",
	"MethodRef/MethodRef.class", "MethodRef/MethodRef$Exec.class",
	"NativeDecl/NativeDecl.class", "Net/Net.class",
	"ProcSpawn/ProcSpawn.class", "Reflect/Reflect.class",
	"RuntimeExec/RuntimeExec.class", "Threads/Threads.class",
	"UnsafeUse/UnsafeUse.class",
};

struct seen {
	int lambda_bootstrap, natives, classes, members, types;
	char last[256];
};

static int
record(void *ctx, const struct classfile_ref *r)
{
	struct seen *s = ctx;

	if (r->kind == CLASSFILE_REF_MEMBER && r->cls.len == 34 &&
	    memcmp(r->cls.p, "java/lang/invoke/LambdaMetafactory", 34) == 0)
		s->lambda_bootstrap++;
	s->natives += r->kind == CLASSFILE_REF_NATIVE;
	s->classes += r->kind == CLASSFILE_REF_CLASS;
	s->members += r->kind == CLASSFILE_REF_MEMBER;
	s->types += r->kind == CLASSFILE_REF_TYPE;
	return 0;
}

static int
stop_at_first(void *ctx, const struct classfile_ref *r)
{
	(void)r;
	(*(int *)ctx)++;
	return 1;
}

static void
test_real_files(void)
{
	int all = 1, truncations = 1, trailing = 1;
	char path[256];

	for (size_t i = 0; i < sizeof real / sizeof real[0]; i++) {
		struct classfile_info info;
		const char *why = NULL;
		size_t n, where;
		const char *base;

		snprintf(path, sizeof path, "test/java/classes/%s", real[i]);
		n = load(path);
		if (n == 0 || classfile_scan(file, n, NULL, NULL, &info, &why,
		    &where) != CLASSFILE_OK) {
			printf("# %s: %s at %zu\n", path, why ? why : "missing",
			    where);
			all = 0;
			continue;
		}
		/* this_class ends with the file's name without .class */
		base = strrchr(real[i], '/') + 1;
		if (info.major != 61 || info.this_class.len < strlen(base) - 6 ||
		    memcmp(info.this_class.p + info.this_class.len -
		    (strlen(base) - 6), base, strlen(base) - 6) != 0) {
			printf("# %s: version %u or name wrong\n", path,
			    info.major);
			all = 0;
		}
		for (size_t cut = 0; cut < n; cut++)
			if (scan(file, cut) != CLASSFILE_BAD) {
				printf("# %s cut at %zu parses\n", path, cut);
				truncations = 0;
				break;
			}
		file[n] = 0;
		if (scan(file, n + 1) != CLASSFILE_BAD)
			trailing = 0;
	}
	ok(all, "every class javac 17 produced for test/java parses");
	ok(truncations, "every truncation of every real class file is refused");
	ok(trailing, "one byte after the last attribute is refused");
}

static void
test_visit(void)
{
	struct seen s;
	struct classfile_info info;
	size_t n = load("test/java/classes/benign/Tool.class");
	int calls = 0;

	memset(&s, 0, sizeof s);
	ok(n > 0 && classfile_scan(file, n, record, &s, &info, NULL, NULL) ==
	    CLASSFILE_OK, "Tool.class visits");
	ok(s.lambda_bootstrap > 0, "its lambdas show LambdaMetafactory as a "
	    "member reference (%d)", s.lambda_bootstrap);
	ok(s.classes > 5 && s.members > 10 && s.types > 10 && s.natives == 0,
	    "classes %d, members %d, descriptor types %d", s.classes, s.members,
	    s.types);
	ok(info.refs == (size_t)(s.classes + s.members + s.types),
	    "info counts every visit (%zu)", info.refs);
	ok(info.this_class.len == 4 && memcmp(info.this_class.p, "Tool", 4) ==
	    0, "this_class is Tool");
	ok(classfile_scan(file, n, stop_at_first, &calls, NULL, NULL, NULL) ==
	    CLASSFILE_STOPPED && calls == 1, "a visitor can stop the walk");
	memset(&s, 0, sizeof s);
	n = load("test/java/classes/NativeDecl/NativeDecl.class");
	ok(n > 0 && classfile_scan(file, n, record, &s, NULL, NULL, NULL) ==
	    CLASSFILE_OK && s.natives == 1, "a native method is reported");
}

/* --- hand-built files --------------------------------------------------- */

/* A minimal class "A extends java/lang/Object" with extra pool entries
 * (count more slots, bytes raw) appended after the four it needs:
 *   #1 Utf8 A  #2 Class #1  #3 Utf8 java/lang/Object  #4 Class #3
 * then the body: access, this, super, interfaces, fields, methods, and
 * the class attributes given raw (count included). */
static size_t
build(uint8_t *out, size_t cap, uint16_t major, uint16_t count_extra,
    const void *extra, size_t extra_len, uint16_t access, const void *tail,
    size_t tail_len)
{
	struct wr w = wr_init(out, cap);

	wr_u32(&w, 0xcafebabe);
	wr_u16(&w, 0);
	wr_u16(&w, major);
	wr_u16(&w, (uint16_t)(5 + count_extra));
	wr_u8(&w, 1); wr_str16(&w, "A", 1);
	wr_u8(&w, 7); wr_u16(&w, 1);
	wr_u8(&w, 1); wr_str16(&w, "java/lang/Object", 16);
	wr_u8(&w, 7); wr_u16(&w, 3);
	wr_bytes(&w, extra, extra_len);
	wr_u16(&w, access);
	wr_u16(&w, 2);
	wr_u16(&w, 4);
	wr_u16(&w, 0);
	if (tail) {
		wr_bytes(&w, tail, tail_len);
	} else {
		wr_u16(&w, 0);	/* fields */
		wr_u16(&w, 0);	/* methods */
		wr_u16(&w, 0);	/* attributes */
	}
	return w.bad ? 0 : w.off;
}

static uint8_t hb[4096];

#define B(...) ((const uint8_t[]){ __VA_ARGS__ }), sizeof((const uint8_t[]){ __VA_ARGS__ })

struct pool_case {
	const char *name;
	uint16_t slots;
	const uint8_t *bytes;
	size_t len;
	int want_ok;
};

static void
test_pool_cases(void)
{
	/* Extra entries start at #5. */
	const struct pool_case cases[] = {
		{ "nothing extra", 0, NULL, 0, 1 },
		{ "Integer", 1, B(3, 0, 0, 0, 1), 1 },
		{ "Long takes two slots", 2, B(5, 0, 0, 0, 0, 0, 0, 0, 1), 1 },
		{ "Long in the last slot", 1, B(5, 0, 0, 0, 0, 0, 0, 0, 1), 0 },
		{ "Class -> slot after a Long", 3,
		    B(5, 0, 0, 0, 0, 0, 0, 0, 1, 7, 0, 6), 0 },
		{ "Class -> index 0", 1, B(7, 0, 0), 0 },
		{ "Class -> past the pool", 1, B(7, 0, 9), 0 },
		{ "Class -> a Class", 1, B(7, 0, 2), 0 },
		{ "Class -> itself", 1, B(7, 0, 5), 0 },
		{ "String -> Utf8", 1, B(8, 0, 1), 1 },
		{ "String -> Integer", 2, B(3, 0, 0, 0, 0, 8, 0, 5), 0 },
		{ "unknown tag 2", 1, B(2, 0, 0), 0 },
		{ "unknown tag 13", 1, B(13, 0, 0), 0 },
		{ "Module", 1, B(19, 0, 1), 0 },
		{ "Package", 1, B(20, 0, 1), 0 },
		{ "Utf8 with a NUL byte", 1, B(1, 0, 2, 'a', 0), 0 },
		{ "Utf8 with C0 80 (modified UTF-8 NUL)", 1,
		    B(1, 0, 3, 'a', 0xc0, 0x80), 1 },
		{ "Utf8 overlong C1 81", 1, B(1, 0, 2, 0xc1, 0x81), 0 },
		{ "Utf8 overlong E0 80 80", 1, B(1, 0, 3, 0xe0, 0x80, 0x80), 0 },
		{ "Utf8 four-byte form", 1, B(1, 0, 4, 0xf0, 0x9f, 0x98, 0x80),
		    0 },
		{ "Utf8 surrogate pair (modified UTF-8)", 1,
		    B(1, 0, 6, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80), 1 },
		{ "Utf8 truncated sequence", 1, B(1, 0, 2, 'a', 0xe2), 0 },
		{ "Utf8 lone continuation", 1, B(1, 0, 1, 0x80), 0 },
		{ "Utf8 length past the end", 1, B(1, 0xff, 0xff, 'a'), 0 },
		{ "class name with '.'", 2, B(1, 0, 3, 'a', '.', 'b', 7, 0, 5),
		    0 },
		{ "class name with '//'", 2,
		    B(1, 0, 4, 'a', '/', '/', 'b', 7, 0, 5), 0 },
		{ "class name ending '/'", 2, B(1, 0, 2, 'a', '/', 7, 0, 5), 0 },
		{ "array class [La/B;", 2,
		    B(1, 0, 5, '[', 'L', 'a', 'B', ';', 7, 0, 5), 1 },
		{ "array class [La/B (no ';')", 2,
		    B(1, 0, 4, '[', 'L', 'a', 'B', 7, 0, 5), 0 },
		{ "array class [X", 2, B(1, 0, 2, '[', 'X', 7, 0, 5), 0 },
		/* #5 Utf8 m  #6 Utf8 ()V  #7 NameAndType #5 #6 */
		{ "Methodref A.m()V", 4, B(1, 0, 1, 'm', 1, 0, 3, '(', ')', 'V',
		    12, 0, 5, 0, 6, 10, 0, 2, 0, 7), 1 },
		{ "Methodref with a class -> Utf8", 4, B(1, 0, 1, 'm', 1, 0, 3,
		    '(', ')', 'V', 12, 0, 5, 0, 6, 10, 0, 1, 0, 7), 0 },
		{ "Methodref with nat -> Class", 4, B(1, 0, 1, 'm', 1, 0, 3,
		    '(', ')', 'V', 12, 0, 5, 0, 6, 10, 0, 2, 0, 2), 0 },
		{ "Fieldref with a method descriptor", 4, B(1, 0, 1, 'm', 1, 0,
		    3, '(', ')', 'V', 12, 0, 5, 0, 6, 9, 0, 2, 0, 7), 0 },
		{ "Methodref named <clinit>", 4, B(1, 0, 8, '<', 'c', 'l', 'i',
		    'n', 'i', 't', '>', 1, 0, 3, '(', ')', 'V', 12, 0, 5, 0, 6,
		    10, 0, 2, 0, 7), 0 },
		{ "Methodref <init> returning I", 4, B(1, 0, 6, '<', 'i', 'n',
		    'i', 't', '>', 1, 0, 3, '(', ')', 'I', 12, 0, 5, 0, 6, 10, 0,
		    2, 0, 7), 0 },
		{ "Methodref named a.b", 4, B(1, 0, 3, 'a', '.', 'b', 1, 0, 3,
		    '(', ')', 'V', 12, 0, 5, 0, 6, 10, 0, 2, 0, 7), 0 },
		{ "descriptor (V)V", 3, B(1, 0, 1, 'm', 1, 0, 4, '(', 'V', ')',
		    'V', 12, 0, 5, 0, 6), 0 },
		{ "descriptor ()VV", 3, B(1, 0, 1, 'm', 1, 0, 4, '(', ')', 'V',
		    'V', 12, 0, 5, 0, 6), 0 },
		{ "descriptor (L;)V", 3, B(1, 0, 1, 'm', 1, 0, 5, '(', 'L', ';',
		    ')', 'V', 12, 0, 5, 0, 6), 0 },
		/* #8 MethodHandle kind K -> #7 (a Methodref) */
		{ "MethodHandle invokeStatic -> Methodref", 5, B(1, 0, 1, 'm', 1,
		    0, 3, '(', ')', 'V', 12, 0, 5, 0, 6, 10, 0, 2, 0, 7, 15, 6, 0,
		    8), 1 },
		{ "MethodHandle kind 0", 5, B(1, 0, 1, 'm', 1, 0, 3, '(', ')',
		    'V', 12, 0, 5, 0, 6, 10, 0, 2, 0, 7, 15, 0, 0, 8), 0 },
		{ "MethodHandle kind 10", 5, B(1, 0, 1, 'm', 1, 0, 3, '(', ')',
		    'V', 12, 0, 5, 0, 6, 10, 0, 2, 0, 7, 15, 10, 0, 8), 0 },
		{ "MethodHandle getField -> Methodref", 5, B(1, 0, 1, 'm', 1, 0,
		    3, '(', ')', 'V', 12, 0, 5, 0, 6, 10, 0, 2, 0, 7, 15, 1, 0,
		    8), 0 },
		{ "MethodHandle newInvokeSpecial -> m", 5, B(1, 0, 1, 'm', 1, 0,
		    3, '(', ')', 'V', 12, 0, 5, 0, 6, 10, 0, 2, 0, 7, 15, 8, 0,
		    8), 0 },
		{ "MethodHandle -> Utf8", 1, B(15, 6, 0, 1), 0 },
		{ "MethodType ()V", 2, B(1, 0, 3, '(', ')', 'V', 16, 0, 5), 1 },
		{ "MethodType I", 2, B(1, 0, 1, 'I', 16, 0, 5), 0 },
		/* InvokeDynamic with no BootstrapMethods attribute */
		{ "InvokeDynamic without bootstraps", 4, B(1, 0, 1, 'm', 1, 0, 3,
		    '(', ')', 'V', 12, 0, 5, 0, 6, 18, 0, 0, 0, 7), 0 },
	};
	int all = 1;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct pool_case *c = &cases[i];
		size_t n = build(hb, sizeof hb, 61, c->slots, c->bytes, c->len,
		    0x21, NULL, 0);
		const char *why = NULL;
		size_t where = 0;
		int st = classfile_scan(hb, n, NULL, NULL, NULL, &why, &where);

		if (n == 0 || (st == CLASSFILE_OK) != c->want_ok) {
			printf("# %s: got %d (%s), want %s\n", c->name, st,
			    why ? why : "-", c->want_ok ? "ok" : "bad");
			all = 0;
		}
	}
	ok(all, "%zu hand-built constant pools accepted or refused as they "
	    "should be", sizeof cases / sizeof cases[0]);
}

static void
test_header_cases(void)
{
	size_t n;
	uint8_t tail[64];
	struct wr w;

	n = build(hb, sizeof hb, 61, 0, "", 0, 0x21, NULL, 0);
	ok(n > 0 && scan(hb, n) == CLASSFILE_OK, "the minimal class parses");
	hb[0] = 0xca; hb[3] = 0xbf;
	ok(scan(hb, n) == CLASSFILE_BAD, "bad magic is refused");
	n = build(hb, sizeof hb, 66, 0, "", 0, 0x21, NULL, 0);
	ok(scan(hb, n) == CLASSFILE_BAD, "major 66 (after Java 21) is refused");
	n = build(hb, sizeof hb, 44, 0, "", 0, 0x21, NULL, 0);
	ok(scan(hb, n) == CLASSFILE_BAD, "major 44 is refused");
	n = build(hb, sizeof hb, 61, 0, "", 0, 0x21, NULL, 0);
	hb[5] = 1;	/* minor 1 with major 61 */
	ok(scan(hb, n) == CLASSFILE_BAD, "minor 1 with major 61 is refused");
	hb[4] = 0xff; hb[5] = 0xff;
	ok(scan(hb, n) == CLASSFILE_OK, "minor 0xffff (preview) is read");
	n = build(hb, sizeof hb, 61, 0, "", 0, 0x8000, NULL, 0);
	ok(scan(hb, n) == CLASSFILE_BAD, "ACC_MODULE (module-info) is refused");
	/* pool count 0 and a pool count the file cannot hold */
	n = build(hb, sizeof hb, 61, 0, "", 0, 0x21, NULL, 0);
	hb[8] = 0; hb[9] = 0;
	ok(scan(hb, n) == CLASSFILE_BAD, "constant pool count 0 is refused");
	hb[8] = 0xff; hb[9] = 0xff;
	ok(scan(hb, n) == CLASSFILE_BAD, "a pool count of 65535 in a %zu-byte "
	    "file is refused before allocating", n);
	/* this_class pointing at a Utf8 */
	n = build(hb, sizeof hb, 61, 0, "", 0, 0x21, NULL, 0);
	hb[n - 11] = 1;	/* this_class = #1 (Utf8) */
	ok(scan(hb, n) == CLASSFILE_BAD, "this_class -> Utf8 is refused");
	/* a field with a bad descriptor, then a good one */
	w = wr_init(tail, sizeof tail);
	wr_u16(&w, 1); wr_u16(&w, 0); wr_u16(&w, 1); wr_u16(&w, 1);
	wr_u16(&w, 0); wr_u16(&w, 0); wr_u16(&w, 0);
	n = build(hb, sizeof hb, 61, 0, "", 0, 0x21, tail, w.off);
	ok(scan(hb, n) == CLASSFILE_BAD, "a field with descriptor 'A' is "
	    "refused");
	/* a method whose attribute length runs past the end */
	w = wr_init(tail, sizeof tail);
	wr_u16(&w, 0); wr_u16(&w, 1);
	wr_u16(&w, 0x0100); wr_u16(&w, 5); wr_u16(&w, 6); wr_u16(&w, 1);
	wr_u16(&w, 5); wr_u32(&w, 0xffffff00); wr_u16(&w, 0);
	n = build(hb, sizeof hb, 61, 2, B(1, 0, 1, 'm', 1, 0, 3, '(', ')', 'V'),
	    0x21, tail, w.off);
	ok(scan(hb, n) == CLASSFILE_BAD, "an attribute length past the end is "
	    "refused");
	w = wr_init(tail, sizeof tail);
	wr_u16(&w, 0); wr_u16(&w, 1);
	wr_u16(&w, 0x0100); wr_u16(&w, 5); wr_u16(&w, 6); wr_u16(&w, 0);
	wr_u16(&w, 0);
	n = build(hb, sizeof hb, 61, 2, B(1, 0, 1, 'm', 1, 0, 3, '(', ')', 'V'),
	    0x21, tail, w.off);
	ok(scan(hb, n) == CLASSFILE_OK, "a native method m()V parses");
}

/* Hand-corrupted copies of real javac output: test/java/corrupt/ holds
 * them as files (also the fuzz seeds); each must be refused. */
static void
test_corrupt_files(void)
{
	static const char *const names[] = {
		"count-too-big.class", "bad-utf8.class", "class-to-integer.class",
		"long-last-slot.class", "truncated-code.class",
		"trailing-byte.class", "bad-descriptor.class",
		"indy-no-bootstrap.class", "module-tag.class",
		"mhandle-kind.class",
	};
	char path[256];
	int all = 1;

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t n;

		snprintf(path, sizeof path, "test/java/corrupt/%s", names[i]);
		n = load(path);
		if (n == 0 || scan(file, n) != CLASSFILE_BAD) {
			printf("# %s: %s\n", path, n ? "accepted" : "missing");
			all = 0;
		}
	}
	ok(all, "every hand-corrupted class file in test/java/corrupt is "
	    "refused");
}

/* Flip each byte of a real file to a few values: never a crash, and the
 * result is stable (same verdict twice). */
/* Collects the classes of CLASSFILE_REF_TYPE visits, space-separated. */
static int
collect_types(void *ctx, const struct classfile_ref *r)
{
	char *out = ctx;
	size_t n = strlen(out);

	if (r->kind == CLASSFILE_REF_TYPE && n + r->cls.len + 2 < 512) {
		out[n] = ' ';
		memcpy(out + n + 1, r->cls.p, r->cls.len);
		out[n + 1 + r->cls.len] = '\0';
	}
	return 0;
}

/* A class written only as a string (an annotation's class value, a
 * generic signature) is reported: every Utf8 entry is searched. */
static void
test_embedded_types(void)
{
	static const char *const strs[] = {
		"Ljava/lang/ProcessBuilder;",		/* @A(ProcessBuilder.class) */
		"[[Ljava/lang/Runtime;",		/* an array class value */
		"Ljava/util/List<Ljava/net/Socket;>;",	/* a Signature */
		"<T:Ljava/lang/Thread;>()TT;",		/* a method Signature */
		"XLjava/io/File;",			/* 'L' inside a word */
		"Ljava/io/NoEnd",			/* no ';' */
		"L;", "Ljava//Bad;",			/* not class names */
	};
	uint8_t extra[512];
	char got[512] = "";
	size_t off = 0, n;

	for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
		size_t len = strlen(strs[i]);

		extra[off++] = 1;
		extra[off++] = (uint8_t)(len >> 8);
		extra[off++] = (uint8_t)len;
		memcpy(extra + off, strs[i], len);
		off += len;
	}
	n = build(hb, sizeof hb, 61, sizeof strs / sizeof *strs, extra, off,
	    0x21, NULL, 0);
	ok(n > 0 && classfile_scan(hb, n, collect_types, got, NULL, NULL,
	    NULL) == CLASSFILE_OK && strcmp(got, " java/lang/ProcessBuilder "
	    "java/lang/Runtime java/util/List java/net/Socket "
	    "java/lang/Thread") == 0, "classes in Utf8 entries in descriptor "
	    "or signature form are reported, nothing else (%s)", got);
}

static void
test_mutations(void)
{
	size_t n = load("test/java/classes/benign/Tool$Token.class");
	static const uint8_t vals[] = { 0x00, 0x01, 0x07, 0x0c, 0x12, 0x7f,
		0x80, 0xff };
	long accepted = 0, total = 0;

	for (size_t i = 0; i < n; i++) {
		uint8_t save = file[i];

		for (size_t v = 0; v < sizeof vals; v++) {
			int a, b;

			if (vals[v] == save)
				continue;
			file[i] = vals[v];
			a = scan(file, n);
			b = scan(file, n);
			if (a != b) {
				ok(0, "verdict changes between runs at byte %zu",
				    i);
				return;
			}
			accepted += a == CLASSFILE_OK;
			total++;
		}
		file[i] = save;
	}
	ok(total > 0, "%ld single-byte mutations read without a crash (%ld "
	    "still well formed)", total, accepted);
}

static void
test_names(void)
{
	ok(classfile_class_name_valid((const uint8_t *)"a/b/C$D", 7),
	    "a/b/C$D is a class name");
	ok(!classfile_class_name_valid((const uint8_t *)"", 0),
	    "the empty name is not");
	ok(!classfile_class_name_valid((const uint8_t *)"/a", 2),
	    "/a is not");
	ok(!classfile_class_name_valid((const uint8_t *)"a;b", 3),
	    "a;b is not");
	ok(classfile_mutf8_valid((const uint8_t *)"\xc0\x80", 2),
	    "C0 80 is modified UTF-8");
	ok(!classfile_mutf8_valid((const uint8_t *)"\xe0\x9f\xbf", 3),
	    "E0 9F BF (overlong) is not");
}

int
main(void)
{
	test_real_files();
	test_visit();
	test_pool_cases();
	test_embedded_types();
	test_header_cases();
	test_corrupt_files();
	test_mutations();
	test_names();
	return tap_done();
}
