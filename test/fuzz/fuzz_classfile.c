/* fuzz_classfile.c - the class-file reader and the denylist check under
 * hostile bytes. Invariants: every reference points inside the input, a
 * class reference is a legal class name, validation is all-or-nothing
 * (a file that fails never had a reference visited), and the verdict of
 * the check agrees with the reader's. */
#include <string.h>

#include "common/sandbox/classfile.h"
#include "common/sandbox/javacheck.h"
#include "fuzz.h"

static const uint8_t *base;
static size_t base_len;
static size_t visits;

static int
inside(struct classfile_str s)
{
	return s.len == 0 || (s.p >= base && s.len <= base_len &&
	    (size_t)(s.p - base) <= base_len - s.len);
}

static int
visit(void *ctx, const struct classfile_ref *r)
{
	(void)ctx;
	visits++;
	FUZZ_ASSERT(inside(r->cls) && inside(r->name) && inside(r->desc));
	if (r->kind == CLASSFILE_REF_CLASS || r->kind == CLASSFILE_REF_TYPE)
		FUZZ_ASSERT(classfile_class_name_valid(r->cls.p, r->cls.len));
	if (r->kind == CLASSFILE_REF_MEMBER)
		FUZZ_ASSERT(r->name.len > 0 && r->desc.len > 0);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct javacheck_policy pol;
	static int loaded;
	struct classfile_info info;
	enum classfile_status st;
	enum javacheck_status js;
	char why[JAVACHECK_WHY_MAX], err[256];

	if (!loaded) {
		FUZZ_ASSERT(javacheck_policy_default(&pol, err, sizeof err) == 0);
		loaded = 1;
	}
	base = data;
	base_len = size;
	visits = 0;
	st = classfile_scan(data, size, NULL, NULL, NULL, NULL, NULL);
	FUZZ_ASSERT(st == CLASSFILE_OK || st == CLASSFILE_BAD);
	FUZZ_ASSERT(classfile_scan(data, size, visit, NULL, &info, NULL,
	    NULL) == st);
	FUZZ_ASSERT(st == CLASSFILE_OK || visits == 0);
	if (st == CLASSFILE_OK)
		FUZZ_ASSERT(info.refs == visits && inside(info.this_class));
	js = javacheck_class(&pol, "F.class", data, size, why, sizeof why);
	FUZZ_ASSERT(strlen(why) < sizeof why);
	FUZZ_ASSERT((st == CLASSFILE_BAD) == (js == JAVACHECK_BAD));
	return 0;
}
