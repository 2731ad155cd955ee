/* javacheck.h - the sandbox's Java reference check: every class file javac
 * produced is read by common/classfile and refused if it references
 * anything the denylist names. A hardening layer in front of the jail,
 * not the boundary: it keeps well-known escape hatches (process spawning,
 * reflection, method handles, Unsafe, native code, class loaders, the
 * network, System.exit, thread groups) from ever running.
 *
 * Denylist text, one rule per line ('#' starts a comment line):
 *     SCOPE TARGET REASON...
 *   TARGET  a/b/         a package prefix: every class below it
 *           a/b/C        a class and its nested classes (a/b/C$X)
 *           a/b/C.m      member m (any descriptor) referenced on a/b/C
 *   SCOPE   any          refuse any mention: Class constants (new,
 *                        checkcast, superclass, interfaces...), member
 *                        references on it, and every descriptor naming it
 *                        (field types, method parameters and results)
 *           call         refuse only member references (calls, field
 *                        accesses, method references) on it: for types
 *                        javac itself names in the code it generates
 *                        (the Lookup of a lambda's bootstrap method)
 *                        Member targets take only `call`. A member rule
 *                        matches the owner as the reference names it;
 *                        write them for final classes (or classes no
 *                        tool can extend), as the built-in list does.
 *   REASON  free text, printed when the rule refuses a class
 * A method declared `native` is always refused. The built-in list is
 * common/sandbox/java-deny.h (`airlock sandbox denylist` prints it). */
#ifndef AIRLOCK_JAVACHECK_H
#define AIRLOCK_JAVACHECK_H

#include <stddef.h>
#include <stdint.h>

#define JAVACHECK_RULES_MAX 1024
#define JAVACHECK_TARGET_MAX 255
#define JAVACHECK_REASON_MAX 127
#define JAVACHECK_TEXT_MAX (256u << 10)		/* denylist file size */
#define JAVACHECK_FILES_MAX 4096		/* class files per tree */
#define JAVACHECK_BYTES_MAX (64u << 20)		/* bytes per tree */
#define JAVACHECK_DEPTH_MAX 32			/* package nesting */
#define JAVACHECK_WHY_MAX 512

enum javacheck_scope { JAVACHECK_ANY, JAVACHECK_CALL };
enum javacheck_target { JAVACHECK_PACKAGE, JAVACHECK_CLASS,
	JAVACHECK_MEMBER };

struct javacheck_rule {
	uint8_t scope, target;
	uint16_t cls_len;		/* MEMBER: length of the class part */
	char pattern[JAVACHECK_TARGET_MAX + 1];
	char reason[JAVACHECK_REASON_MAX + 1];
};

struct javacheck_policy {
	struct javacheck_rule *rules;	/* owned; javacheck_policy_free */
	size_t n;
};

/* The built-in denylist text (common/sandbox/java-deny.h), NUL-terminated. */
extern const char javacheck_default_text[];

/* Parse a denylist (text[0..len), any bytes). Returns 0, or -1 with a
 * message naming the line in err. An empty list is refused: a check
 * with no rules is no check. */
int javacheck_policy_parse(struct javacheck_policy *pol, const char *text,
    size_t len, char *err, size_t errlen);
/* The built-in list; -1 only on allocation failure or a broken build. */
int javacheck_policy_default(struct javacheck_policy *pol, char *err,
    size_t errlen);
/* Read FILE (at most JAVACHECK_TEXT_MAX bytes) and parse it. */
int javacheck_policy_load(struct javacheck_policy *pol, const char *path,
    char *err, size_t errlen);
/* javacheck_policy_load, and on success the very bytes parsed (one read
 * of FILE) in *text, *text_len of them, a buffer the caller frees; on
 * failure *text is untouched. */
int javacheck_policy_load_text(struct javacheck_policy *pol,
    const char *path, char **text, size_t *text_len, char *err,
    size_t errlen);
void javacheck_policy_free(struct javacheck_policy *pol);

enum javacheck_status {
	JAVACHECK_OK,
	JAVACHECK_DENIED,	/* a rule matched: why names file and reference */
	JAVACHECK_BAD,		/* malformed class file, unexpected file, cap */
	JAVACHECK_ERROR		/* I/O or memory: errno-style failure */
};

/* Check one class file; name labels it in why (e.g. "Main.class"). why
 * gets a printable one-line explanation (non-ASCII bytes of the file
 * shown as '?'); whylen >= 1. */
enum javacheck_status javacheck_class(const struct javacheck_policy *pol,
    const char *name, const uint8_t *buf, size_t len, char *why,
    size_t whylen);

struct javacheck_stats {
	size_t files, bytes, refs;
};

/* Check every file below the directory dirfd (javac's -d output): each
 * must be a regular *.class file (directories are packages; anything
 * else, a symlink included, is JAVACHECK_BAD), within the caps above.
 * Entries are visited in sorted order, so the first refusal reported is
 * the same on every run. stats may be NULL. dirfd is not closed. */
enum javacheck_status javacheck_tree(const struct javacheck_policy *pol,
    int dirfd, struct javacheck_stats *stats, char *why, size_t whylen);

/* Gets the relative path (e.g. "pkg/A$1.class") and the bytes of a class
 * file that passed, in the visiting order; non-zero (with errno) stops
 * the walk with JAVACHECK_ERROR. */
typedef int (*javacheck_take_fn)(void *ctx, const char *path,
    const uint8_t *buf, size_t len);

/* javacheck_tree, and each file that passed goes to take: the very bytes
 * checked, read once (the sandbox packs them into the JVM's class path).
 * A refusal can come after some files were taken: the caller drops what
 * it took unless the result is JAVACHECK_OK. */
enum javacheck_status javacheck_tree_take(const struct javacheck_policy *pol,
    int dirfd, struct javacheck_stats *stats, char *why, size_t whylen,
    javacheck_take_fn take, void *ctx);

#endif
