/* classfile.c - strict class-file reader: validate everything, then
 * visit every reference (see classfile.h). */
#include "common/sandbox/classfile.h"

#include <stdlib.h>
#include <string.h>

#include "common/base/bounded_rw.h"

enum {
	TAG_UTF8 = 1, TAG_INTEGER = 3, TAG_FLOAT = 4, TAG_LONG = 5,
	TAG_DOUBLE = 6, TAG_CLASS = 7, TAG_STRING = 8, TAG_FIELDREF = 9,
	TAG_METHODREF = 10, TAG_IMETHODREF = 11, TAG_NAT = 12,
	TAG_MHANDLE = 15, TAG_MTYPE = 16, TAG_DYNAMIC = 17, TAG_INDY = 18,
	TAG_MODULE = 19, TAG_PACKAGE = 20
};

#define ACC_NATIVE 0x0100
#define ACC_MODULE 0x8000
#define ARRAY_DIMS_MAX 255	/* JVMS 4.3.2 */

/* One pool slot. tag 0: index 0 and the slot after a Long or Double,
 * which nothing may reference. */
struct entry {
	uint8_t tag;
	uint8_t kind;		/* MethodHandle reference_kind */
	uint16_t a, b;		/* index operands, by tag */
	uint32_t off;		/* Utf8: offset of the bytes in the file */
	uint16_t len;		/* Utf8: byte length */
};

struct parser {
	const uint8_t *buf;
	size_t len;
	struct rd r;
	struct entry *pool;
	uint16_t count;
	uint16_t major;
	uint16_t nbsm;		/* BootstrapMethods entries; 0 if absent */
	int have_bsm;
	const char *why;
	size_t where;
	classfile_visit_fn visit;	/* NULL while validating */
	void *ctx;
	struct classfile_info *info;
	struct classfile_str this_class;
	int stopped;
};

static int
fail(struct parser *p, const char *why)
{
	if (!p->why) {
		p->why = why;
		p->where = p->r.off;
	}
	return -1;
}

/* --- names and descriptors ---------------------------------------------- */

int
classfile_mutf8_valid(const uint8_t *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		uint8_t c = s[i];

		if (c >= 0x01 && c <= 0x7f) {
			i++;
		} else if (c >= 0xc0 && c <= 0xdf) {
			/* two bytes; overlong only as C0 80, the encoded NUL */
			if (n - i < 2 || (s[i + 1] & 0xc0) != 0x80)
				return 0;
			if (c < 0xc2 && !(c == 0xc0 && s[i + 1] == 0x80))
				return 0;
			i += 2;
		} else if (c >= 0xe0 && c <= 0xef) {
			if (n - i < 3 || (s[i + 1] & 0xc0) != 0x80 ||
			    (s[i + 2] & 0xc0) != 0x80)
				return 0;
			if (c == 0xe0 && s[i + 1] < 0xa0)
				return 0;	/* overlong */
			i += 3;		/* surrogates allowed: modified UTF-8 */
		} else {
			return 0;	/* 0x00, a lone continuation, 0xf0+ */
		}
	}
	return 1;
}

/* An unqualified name (JVMS 4.2.2); method names may also be <init> or
 * <clinit> and may not otherwise hold '<' or '>'. */
static int
unqualified_valid(const uint8_t *s, size_t n, int method)
{
	if (n == 0)
		return 0;
	if (method && ((n == 6 && memcmp(s, "<init>", 6) == 0) ||
	    (n == 8 && memcmp(s, "<clinit>", 8) == 0)))
		return 1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.' || s[i] == ';' || s[i] == '[' || s[i] == '/')
			return 0;
		if (method && (s[i] == '<' || s[i] == '>'))
			return 0;
	}
	return 1;
}

int
classfile_class_name_valid(const uint8_t *s, size_t n)
{
	size_t seg = 0;

	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.' || s[i] == ';' || s[i] == '[')
			return 0;
		if (s[i] == '/') {
			if (seg == 0)
				return 0;	/* leading or doubled '/' */
			seg = 0;
		} else {
			seg++;
		}
	}
	return seg > 0;		/* no trailing '/' */
}

/* What a descriptor walk reports for each class it names. */
struct desc_sink {
	struct parser *p;
	struct classfile_str desc;
};

static int emit(struct parser *p, enum classfile_ref_kind kind,
    struct classfile_str cls, struct classfile_str name,
    struct classfile_str desc);

/* One field type at s[*i..n). Class names go to sink (may be NULL).
 * -1 if malformed. */
static int
field_type(const uint8_t *s, size_t n, size_t *i, struct desc_sink *sink)
{
	size_t dims = 0, start;

	while (*i < n && s[*i] == '[') {
		if (++dims > ARRAY_DIMS_MAX)
			return -1;
		(*i)++;
	}
	if (*i >= n)
		return -1;
	switch (s[*i]) {
	case 'B': case 'C': case 'D': case 'F':
	case 'I': case 'J': case 'S': case 'Z':
		(*i)++;
		return 0;
	case 'L':
		start = ++*i;
		while (*i < n && s[*i] != ';')
			(*i)++;
		if (*i >= n || !classfile_class_name_valid(s + start,
		    *i - start))
			return -1;
		(*i)++;
		if (sink && emit(sink->p, CLASSFILE_REF_TYPE,
		    (struct classfile_str){ s + start, *i - 1 - start },
		    (struct classfile_str){ NULL, 0 }, sink->desc) != 0)
			return -2;	/* stopped */
		return 0;
	default:
		return -1;
	}
}

/* A whole field (method = 0) or method (method = 1) descriptor. Returns
 * 0, -1 if malformed, -2 if the visitor stopped. */
static int
descriptor(const uint8_t *s, size_t n, int method, struct desc_sink *sink)
{
	size_t i = 0;
	int rc;

	if (!method) {
		rc = field_type(s, n, &i, sink);
		return rc ? rc : i == n ? 0 : -1;
	}
	if (n == 0 || s[0] != '(')
		return -1;
	i = 1;
	while (i < n && s[i] != ')')
		if ((rc = field_type(s, n, &i, sink)) != 0)
			return rc;
	if (i >= n)
		return -1;
	i++;
	if (i < n && s[i] == 'V')
		return i + 1 == n ? 0 : -1;
	rc = field_type(s, n, &i, sink);
	return rc ? rc : i == n ? 0 : -1;
}

/* --- the pool ------------------------------------------------------------ */

static struct classfile_str
utf8(const struct parser *p, uint16_t idx)
{
	const struct entry *e = &p->pool[idx];

	return (struct classfile_str){ p->buf + e->off, e->len };
}

/* idx is a valid pool index holding tag. */
static int
is(const struct parser *p, uint16_t idx, uint8_t tag)
{
	return idx > 0 && idx < p->count && p->pool[idx].tag == tag;
}

static int
read_pool(struct parser *p)
{
	uint16_t count;

	if (rd_u16(&p->r, &count) != 0)
		return fail(p, "truncated before the constant pool count");
	if (count == 0)
		return fail(p, "constant pool count is 0");
	/* every entry is at least 3 bytes: check before allocating */
	if ((size_t)(count - 1) > rd_left(&p->r) / 3)
		return fail(p, "constant pool count exceeds the file");
	p->pool = calloc(count, sizeof *p->pool);
	if (!p->pool)
		return -2;
	p->count = count;
	for (uint16_t i = 1; i < count; i++) {
		struct entry *e = &p->pool[i];
		const uint8_t *b;
		uint16_t len;

		if (rd_u8(&p->r, &e->tag) != 0)
			return fail(p, "constant pool truncated");
		switch (e->tag) {
		case TAG_UTF8:
			if (rd_u16(&p->r, &len) != 0 ||
			    rd_bytes(&p->r, len, &b) != 0)
				return fail(p, "Utf8 constant truncated");
			if (!classfile_mutf8_valid(b, len))
				return fail(p, "Utf8 constant is not "
				    "modified UTF-8");
			e->off = (uint32_t)(b - p->buf);
			e->len = len;
			break;
		case TAG_INTEGER:
		case TAG_FLOAT:
			if (rd_bytes(&p->r, 4, &b) != 0)
				return fail(p, "constant truncated");
			break;
		case TAG_LONG:
		case TAG_DOUBLE:
			if (rd_bytes(&p->r, 8, &b) != 0)
				return fail(p, "constant truncated");
			/* takes two slots; the second must exist */
			if (i + 1 >= count)
				return fail(p, "Long/Double in the last "
				    "constant pool slot");
			i++;	/* pool[i].tag stays 0: unusable */
			break;
		case TAG_CLASS:
		case TAG_STRING:
		case TAG_MTYPE:
			if (rd_u16(&p->r, &e->a) != 0)
				return fail(p, "constant truncated");
			break;
		case TAG_FIELDREF:
		case TAG_METHODREF:
		case TAG_IMETHODREF:
		case TAG_NAT:
		case TAG_DYNAMIC:
		case TAG_INDY:
			if (rd_u16(&p->r, &e->a) != 0 ||
			    rd_u16(&p->r, &e->b) != 0)
				return fail(p, "constant truncated");
			break;
		case TAG_MHANDLE:
			if (rd_u8(&p->r, &e->kind) != 0 ||
			    rd_u16(&p->r, &e->a) != 0)
				return fail(p, "constant truncated");
			break;
		case TAG_MODULE:
		case TAG_PACKAGE:
			return fail(p, "Module/Package constant (module-info "
			    "is not accepted)");
		default:
			return fail(p, "unknown constant pool tag");
		}
	}
	return 0;
}

/* A CONSTANT_Class's name: a class name, or an array descriptor. */
static int
class_entry_valid(const struct parser *p, uint16_t idx)
{
	struct classfile_str s = utf8(p, p->pool[idx].a);

	if (s.len > 0 && s.p[0] == '[')
		return descriptor(s.p, s.len, 0, NULL) == 0;
	return classfile_class_name_valid(s.p, s.len);
}

/* A NameAndType as used by a reference of kind tag; tag 0: the entry in
 * itself (each is checked so, and again for every use). */
static int
nat_valid(const struct parser *p, uint16_t idx, uint8_t tag)
{
	const struct entry *e = &p->pool[idx];
	struct classfile_str name = utf8(p, e->a), desc = utf8(p, e->b);
	int method = tag == TAG_METHODREF || tag == TAG_IMETHODREF ||
	    tag == TAG_INDY;

	if (tag == 0)	/* in itself: a name and either kind of descriptor */
		return unqualified_valid(name.p, name.len, 1) &&
		    (descriptor(desc.p, desc.len, 0, NULL) == 0 ||
		    descriptor(desc.p, desc.len, 1, NULL) == 0);
	if (descriptor(desc.p, desc.len, method, NULL) != 0)
		return 0;
	if (!unqualified_valid(name.p, name.len, tag != TAG_FIELDREF &&
	    tag != TAG_DYNAMIC))
		return 0;
	if (name.len > 0 && name.p[0] == '<') {
		/* only a Methodref may name <init>, returning void; nothing
		 * references <clinit> */
		if (tag != TAG_METHODREF || name.len != 6 ||
		    desc.p[desc.len - 1] != 'V')
			return 0;
	}
	return 1;
}

static int
check_pool(struct parser *p)
{
	int rc = 0;

	for (uint16_t i = 1; i < p->count && rc == 0; i++) {
		const struct entry *e = &p->pool[i];

		switch (e->tag) {
		case TAG_CLASS:
			if (!is(p, e->a, TAG_UTF8) || !class_entry_valid(p, i))
				rc = fail(p, "bad Class constant");
			break;
		case TAG_STRING:
			if (!is(p, e->a, TAG_UTF8))
				rc = fail(p, "bad String constant");
			break;
		case TAG_MTYPE:
			if (p->major < 51 || !is(p, e->a, TAG_UTF8) ||
			    descriptor(p->buf + p->pool[e->a].off,
			    p->pool[e->a].len, 1, NULL) != 0)
				rc = fail(p, "bad MethodType constant");
			break;
		case TAG_FIELDREF:
		case TAG_METHODREF:
		case TAG_IMETHODREF:
			if (!is(p, e->a, TAG_CLASS) || !is(p, e->b, TAG_NAT))
				rc = fail(p, "bad member reference");
			break;
		case TAG_NAT:
			if (!is(p, e->a, TAG_UTF8) || !is(p, e->b, TAG_UTF8))
				rc = fail(p, "bad NameAndType constant");
			break;
		case TAG_DYNAMIC:
		case TAG_INDY:
			if (p->major < (e->tag == TAG_INDY ? 51 : 55) ||
			    !is(p, e->b, TAG_NAT))
				rc = fail(p, "bad (Invoke)Dynamic constant");
			break;
		case TAG_MHANDLE:
			if (p->major < 51 || e->kind < 1 || e->kind > 9)
				rc = fail(p, "bad MethodHandle constant");
			break;
		default:
			break;
		}
	}
	/* second round: what needs the first (kinds of referenced entries) */
	for (uint16_t i = 1; i < p->count && rc == 0; i++) {
		const struct entry *e = &p->pool[i];

		if (e->tag == TAG_FIELDREF || e->tag == TAG_METHODREF ||
		    e->tag == TAG_IMETHODREF) {
			if (!nat_valid(p, e->b, e->tag))
				rc = fail(p, "bad name or descriptor in a "
				    "member reference");
		} else if (e->tag == TAG_DYNAMIC || e->tag == TAG_INDY) {
			if (!nat_valid(p, e->b, e->tag))
				rc = fail(p, "bad name or descriptor in a "
				    "dynamic constant");
		} else if (e->tag == TAG_NAT) {
			if (!nat_valid(p, i, 0))
				rc = fail(p, "bad NameAndType descriptor");
		} else if (e->tag == TAG_MHANDLE) {
			const struct entry *t;
			struct classfile_str name;
			uint8_t k = e->kind;
			int okk;

			if (e->a == 0 || e->a >= p->count) {
				rc = fail(p, "bad MethodHandle reference");
				break;
			}
			t = &p->pool[e->a];
			if (k <= 4)
				okk = t->tag == TAG_FIELDREF;
			else if (k == 5 || k == 8)
				okk = t->tag == TAG_METHODREF;
			else if (k == 9)
				okk = t->tag == TAG_IMETHODREF;
			else
				okk = t->tag == TAG_METHODREF ||
				    (p->major >= 52 && t->tag == TAG_IMETHODREF);
			if (!okk) {
				rc = fail(p, "MethodHandle kind does not match "
				    "its reference");
				break;
			}
			if (k >= 5) {
				name = utf8(p, p->pool[t->b].a);
				if ((k == 8) != (name.len == 6 &&
				    memcmp(name.p, "<init>", 6) == 0))
					rc = fail(p, "MethodHandle names the "
					    "wrong method");
			}
		}
	}
	return rc;
}

/* --- the class body -------------------------------------------------------- */

static int
emit(struct parser *p, enum classfile_ref_kind kind, struct classfile_str cls,
    struct classfile_str name, struct classfile_str desc)
{
	struct classfile_ref r = { kind, cls, name, desc };

	if (!p->visit)
		return 0;
	if (p->info)
		p->info->refs++;
	if (p->visit(p->ctx, &r) != 0) {
		p->stopped = 1;
		return -1;
	}
	return 0;
}

/* Report the classes of descriptor s (already validated). */
static int
emit_types(struct parser *p, struct classfile_str s, int method)
{
	struct desc_sink sink = { p, s };

	if (!p->visit)
		return 0;
	return descriptor(s.p, s.len, method, &sink) == 0 ? 0 : -1;
}

/* The BootstrapMethods attribute, exactly len bytes. */
static int
bootstrap_methods(struct parser *p, const uint8_t *b, uint32_t len)
{
	struct rd r = rd_init(b, len);
	uint16_t n, ref, nargs, arg;

	if (p->have_bsm)
		return fail(p, "two BootstrapMethods attributes");
	p->have_bsm = 1;
	if (rd_u16(&r, &n) != 0)
		return fail(p, "BootstrapMethods truncated");
	for (uint16_t i = 0; i < n; i++) {
		if (rd_u16(&r, &ref) != 0 || rd_u16(&r, &nargs) != 0)
			return fail(p, "BootstrapMethods truncated");
		if (!is(p, ref, TAG_MHANDLE))
			return fail(p, "bootstrap method is not a "
			    "MethodHandle");
		for (uint16_t j = 0; j < nargs; j++) {
			uint8_t t;

			if (rd_u16(&r, &arg) != 0)
				return fail(p, "BootstrapMethods truncated");
			t = arg > 0 && arg < p->count ? p->pool[arg].tag : 0;
			if (t != TAG_INTEGER && t != TAG_FLOAT &&
			    t != TAG_LONG && t != TAG_DOUBLE &&
			    t != TAG_CLASS && t != TAG_STRING &&
			    t != TAG_MHANDLE && t != TAG_MTYPE &&
			    t != TAG_DYNAMIC)
				return fail(p, "bootstrap argument is not "
				    "loadable");
		}
	}
	if (!rd_done(&r))
		return fail(p, "BootstrapMethods length mismatch");
	p->nbsm = n;
	return 0;
}

static int
attributes(struct parser *p, int class_level)
{
	uint16_t n, name;
	uint32_t len;
	const uint8_t *b;

	if (rd_u16(&p->r, &n) != 0)
		return fail(p, "attribute count truncated");
	for (uint16_t i = 0; i < n; i++) {
		struct classfile_str s;

		if (rd_u16(&p->r, &name) != 0 || rd_u32(&p->r, &len) != 0 ||
		    rd_bytes(&p->r, len, &b) != 0)
			return fail(p, "attribute truncated");
		if (!is(p, name, TAG_UTF8))
			return fail(p, "attribute name is not a Utf8 constant");
		s = utf8(p, name);
		if (class_level && !p->visit && s.len == 16 &&
		    memcmp(s.p, "BootstrapMethods", 16) == 0 &&
		    bootstrap_methods(p, b, len) != 0)
			return -1;
	}
	return 0;
}

/* Fields (method = 0) or methods (method = 1). */
static int
members(struct parser *p, int method)
{
	uint16_t n, flags, name, desc;

	if (rd_u16(&p->r, &n) != 0)
		return fail(p, method ? "method count truncated" :
		    "field count truncated");
	for (uint16_t i = 0; i < n; i++) {
		struct classfile_str sn, sd;

		if (rd_u16(&p->r, &flags) != 0 || rd_u16(&p->r, &name) != 0 ||
		    rd_u16(&p->r, &desc) != 0)
			return fail(p, "member truncated");
		if (!is(p, name, TAG_UTF8) || !is(p, desc, TAG_UTF8))
			return fail(p, "member name or descriptor is not a "
			    "Utf8 constant");
		sn = utf8(p, name);
		sd = utf8(p, desc);
		if (!p->visit && (!unqualified_valid(sn.p, sn.len, method) ||
		    descriptor(sd.p, sd.len, method, NULL) != 0))
			return fail(p, method ? "bad method name or "
			    "descriptor" : "bad field name or descriptor");
		if (emit_types(p, sd, method) != 0)
			return -1;
		if (method && (flags & ACC_NATIVE) && emit(p,
		    CLASSFILE_REF_NATIVE, p->this_class, sn, sd) != 0)
			return -1;
		if (attributes(p, 0) != 0)
			return -1;
	}
	if (p->info && p->visit) {
		if (method)
			p->info->methods = n;
		else
			p->info->fields = n;
	}
	return 0;
}

static int
body(struct parser *p)
{
	uint16_t access, this_idx, super_idx, nif, ifc;

	if (rd_u16(&p->r, &access) != 0 || rd_u16(&p->r, &this_idx) != 0 ||
	    rd_u16(&p->r, &super_idx) != 0 || rd_u16(&p->r, &nif) != 0)
		return fail(p, "class header truncated");
	if (access & ACC_MODULE)
		return fail(p, "module-info is not accepted");
	if (!is(p, this_idx, TAG_CLASS) || !is(p, super_idx, TAG_CLASS))
		return fail(p, "this_class or super_class is not a Class "
		    "constant");
	p->this_class = utf8(p, p->pool[this_idx].a);
	if (p->this_class.p[0] == '[' ||
	    p->pool[p->pool[super_idx].a].len == 0 ||
	    p->buf[p->pool[p->pool[super_idx].a].off] == '[')
		return fail(p, "this_class or super_class is an array");
	if (p->info) {
		p->info->access = access;
		p->info->this_class = p->this_class;
	}
	for (uint16_t i = 0; i < nif; i++)
		if (rd_u16(&p->r, &ifc) != 0 || !is(p, ifc, TAG_CLASS))
			return fail(p, "bad interface entry");
	if (members(p, 0) != 0 || members(p, 1) != 0 || attributes(p, 1) != 0)
		return -1;
	if (!rd_done(&p->r))
		return fail(p, "bytes after the last attribute");
	return 0;
}

/* After the body is read: dynamic constants need their bootstrap. */
static int
check_bootstraps(struct parser *p)
{
	for (uint16_t i = 1; i < p->count; i++) {
		const struct entry *e = &p->pool[i];

		if ((e->tag == TAG_INDY || e->tag == TAG_DYNAMIC) &&
		    e->a >= p->nbsm) {
			p->r.off = p->len;
			return fail(p, "dynamic constant names a missing "
			    "bootstrap method");
		}
	}
	return 0;
}

/* Element class of an array descriptor, or the name itself; empty for
 * primitive arrays. */
static struct classfile_str
element_class(struct classfile_str s)
{
	size_t i = 0;

	while (i < s.len && s.p[i] == '[')
		i++;
	if (i == 0)
		return s;
	if (i < s.len && s.p[i] == 'L')	/* L name ; (validated) */
		return (struct classfile_str){ s.p + i + 1, s.len - i - 2 };
	return (struct classfile_str){ s.p, 0 };
}

/* Can an 'L' after c start a class in descriptor or signature form? At
 * the start, or after what precedes a type in those grammars. */
static int
type_may_follow(uint8_t c)
{
	return c == '(' || c == ')' || c == '[' || c == '<' || c == ';' ||
	    c == '*' || c == '+' || c == '-' || c == ':' || c == '^';
}

/* Every class a Utf8 entry names in descriptor form ("Lname;", or
 * "Lname<" in a generic signature), wherever the entry is used: a
 * class written as an annotation's value (@A(X.class)) or an enum
 * constant's type is only such a string, never a Class constant, and so
 * is a generic Signature. A string literal of that shape counts too:
 * refusing it costs a tool nothing. */
static int
emit_embedded(struct parser *p, struct classfile_str s)
{
	static const struct classfile_str none = { NULL, 0 };

	for (size_t i = 0; i < s.len; i++) {
		size_t end = i + 1;

		if (s.p[i] != 'L' || (i > 0 && !type_may_follow(s.p[i - 1])))
			continue;
		while (end < s.len && s.p[end] != ';' && s.p[end] != '<')
			end++;
		if (end == s.len || !classfile_class_name_valid(s.p + i + 1,
		    end - i - 1))
			continue;
		if (emit(p, CLASSFILE_REF_TYPE, (struct classfile_str){
		    s.p + i + 1, end - i - 1 }, none, s) != 0)
			return -1;
	}
	return 0;
}

static int
visit_pool(struct parser *p)
{
	static const struct classfile_str none = { NULL, 0 };

	for (uint16_t i = 1; i < p->count; i++) {
		const struct entry *e = &p->pool[i];
		struct classfile_str cls;

		switch (e->tag) {
		case TAG_CLASS:
			cls = element_class(utf8(p, e->a));
			if (cls.len && emit(p, CLASSFILE_REF_CLASS, cls, none,
			    none) != 0)
				return -1;
			break;
		case TAG_FIELDREF:
		case TAG_METHODREF:
		case TAG_IMETHODREF:
			cls = element_class(utf8(p, p->pool[e->a].a));
			if (emit(p, CLASSFILE_REF_MEMBER, cls,
			    utf8(p, p->pool[e->b].a),
			    utf8(p, p->pool[e->b].b)) != 0)
				return -1;
			break;
		case TAG_NAT: {
			struct classfile_str d = utf8(p, e->b);

			if (emit_types(p, d, d.len && d.p[0] == '(') != 0)
				return -1;
			break;
		}
		case TAG_MTYPE:
			if (emit_types(p, utf8(p, e->a), 1) != 0)
				return -1;
			break;
		case TAG_UTF8:
			if (emit_embedded(p, utf8(p, i)) != 0)
				return -1;
			break;
		default:
			break;
		}
	}
	return 0;
}

enum classfile_status
classfile_scan(const uint8_t *buf, size_t len, classfile_visit_fn visit,
    void *ctx, struct classfile_info *info, const char **why, size_t *where)
{
	struct parser p;
	uint32_t magic;
	uint16_t minor, major;
	size_t body_off;
	int rc;
	enum classfile_status st = CLASSFILE_BAD;

	memset(&p, 0, sizeof p);
	p.buf = buf;
	p.len = len;
	p.r = rd_init(buf, len);
	p.info = info;
	if (info)
		memset(info, 0, sizeof *info);
	if (len > CLASSFILE_SIZE_MAX) {
		fail(&p, "class file too large");
		goto out;
	}
	if (rd_u32(&p.r, &magic) != 0 || magic != 0xcafebabeu) {
		fail(&p, "not a class file (magic)");
		goto out;
	}
	if (rd_u16(&p.r, &minor) != 0 || rd_u16(&p.r, &major) != 0) {
		fail(&p, "truncated version");
		goto out;
	}
	if (major < CLASSFILE_MAJOR_MIN || major > CLASSFILE_MAJOR_MAX ||
	    (major >= 56 && minor != 0 && minor != 0xffff)) {
		fail(&p, "unsupported class file version");
		goto out;
	}
	p.major = major;
	if (info) {
		info->major = major;
		info->minor = minor;
	}
	rc = read_pool(&p);
	if (rc == 0)
		rc = check_pool(&p);
	if (rc == -2) {
		st = CLASSFILE_NOMEM;
		goto out;
	}
	if (info)
		info->pool_count = p.count;
	body_off = p.r.off;
	if (rc != 0 || body(&p) != 0 || check_bootstraps(&p) != 0)
		goto out;
	/* valid: now the visit, pool first, then the body again */
	p.visit = visit;
	p.ctx = ctx;
	if (visit) {
		p.r.off = body_off;
		if (visit_pool(&p) != 0 || body(&p) != 0) {
			st = p.stopped ? CLASSFILE_STOPPED : CLASSFILE_BAD;
			goto out;
		}
	}
	st = CLASSFILE_OK;
out:
	if (st == CLASSFILE_BAD) {
		if (why)
			*why = p.why ? p.why : "malformed";
		if (where)
			*where = p.where;
	}
	free(p.pool);
	return st;
}
