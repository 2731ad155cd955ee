/* classfile.h - a strict reader of Java class files (JVMS 17, chapter 4)
 * for the sandbox's reference check (common/javacheck).
 *
 * A class can name another class, field or method only through its
 * constant pool: every invoke, field access, new, checkcast, ldc and
 * bootstrap method goes through a pool index. So the pool, plus the
 * descriptors of the class's own fields and methods and their access
 * flags, is the complete list of what the class can reach. This reader
 * walks all of it and hands each reference to a visitor.
 *
 * The file is hostile input. Every length is checked against what is
 * left before use; the pool index table is sized from the pool count,
 * which is checked against the bytes left (an entry is at least 3 bytes)
 * before anything is allocated. The whole file must be well formed
 * before the first reference is visited: magic, version, every pool
 * entry (tags, cross references and their kinds, strict modified UTF-8,
 * legal class and member names, descriptor grammar), the field, method
 * and attribute framing, and no byte after the last attribute. Anything
 * else is CLASSFILE_BAD: a file this reader cannot fully account for is
 * never passed. Attribute bodies (Code, BootstrapMethods, ...) are
 * framed, not interpreted: whatever they use is a pool index, and the
 * whole pool is visited whether used or not; a class an attribute names
 * only by a string (an annotation's class value, a generic Signature) is
 * found in that string: every Utf8 entry is searched for classes in
 * descriptor form. */
#ifndef AIRLOCK_CLASSFILE_H
#define AIRLOCK_CLASSFILE_H

#include <stddef.h>
#include <stdint.h>

#define CLASSFILE_SIZE_MAX (8u << 20)	/* larger files are refused */
#define CLASSFILE_MAJOR_MIN 45		/* JDK 1.1 */
#define CLASSFILE_MAJOR_MAX 65		/* Java 21; javac 17 writes 61 */

/* Bytes inside the file: modified UTF-8, not NUL-terminated. */
struct classfile_str {
	const uint8_t *p;
	size_t len;
};

enum classfile_ref_kind {
	/* CONSTANT_Class (array classes: the element class; primitive
	 * arrays are not reported): cls */
	CLASSFILE_REF_CLASS,
	/* CONSTANT_Fieldref / Methodref / InterfaceMethodref: cls (the
	 * owner as named, array owners reduced to the element class and
	 * primitive-array owners reported with an empty cls), name, desc */
	CLASSFILE_REF_MEMBER,
	/* a class named in a descriptor (NameAndType, MethodType, a
	 * declared field or method, or any Utf8 entry holding "Lname;" or
	 * "Lname<"): cls, and desc = the whole descriptor or string */
	CLASSFILE_REF_TYPE,
	/* a method this class declares native: cls = this class, name, desc */
	CLASSFILE_REF_NATIVE
};

struct classfile_ref {
	enum classfile_ref_kind kind;
	struct classfile_str cls, name, desc;
};

/* Return non-zero to stop the walk (classfile_scan then returns
 * CLASSFILE_STOPPED). */
typedef int (*classfile_visit_fn)(void *ctx, const struct classfile_ref *r);

struct classfile_info {
	uint16_t major, minor;
	uint16_t pool_count;		/* constant_pool_count as stored */
	uint16_t access;		/* the class's access_flags */
	struct classfile_str this_class;	/* internal name (a/b/C) */
	size_t fields, methods, refs;	/* refs: visitor calls made */
};

enum classfile_status {
	CLASSFILE_OK,
	CLASSFILE_BAD,		/* malformed or unsupported; see *why */
	CLASSFILE_STOPPED,	/* the visitor asked to stop */
	CLASSFILE_NOMEM
};

/* Validate buf[0..len) completely, then visit every reference (visit may
 * be NULL to validate only). info may be NULL. On CLASSFILE_BAD, *why (if
 * why is not NULL) is a static message and *where the byte offset at
 * which the problem was found. Pointers in the references and in info
 * point into buf. No state is kept between calls. */
enum classfile_status classfile_scan(const uint8_t *buf, size_t len,
    classfile_visit_fn visit, void *ctx, struct classfile_info *info,
    const char **why, size_t *where);

/* Helpers, exposed for tests and the checker. Each returns 1 or 0. */
/* Strict modified UTF-8 (JVMS 4.4.7): no 0x00 and no 0xF0-0xFF byte, no
 * overlong form except C0 80 (NUL), no truncated sequence. */
int classfile_mutf8_valid(const uint8_t *p, size_t n);
/* A binary class name in internal form (JVMS 4.2.1): a/b/C. */
int classfile_class_name_valid(const uint8_t *p, size_t n);

#endif
