/* sbx_exec_test.c - the execution's pure part, without root: the Java
 * heap a memory limit gives. */
#include "common/sandbox/sbx_exec.h"
#include "tap.h"

#define MIB (1ull << 20)

int
main(void)
{
	static const struct {
		uint64_t memory, heap;
	} cases[] = {
		{ 0, 16 * MIB },		/* the floor */
		{ 16 * MIB, 16 * MIB },
		{ 32 * MIB, 16 * MIB },
		{ 64 * MIB, 32 * MIB },		/* half */
		{ 128 * MIB, 64 * MIB },	/* half == limit - 64 MiB */
		{ 129 * MIB, 65 * MIB },	/* limit - 64 MiB from here */
		{ 256 * MIB, 192 * MIB },
		{ 1024 * MIB, 960 * MIB },
		{ UINT64_MAX, UINT64_MAX - 64 * MIB },
	};
	uint64_t prev = 0;
	int mono = 1;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ok(sbx_java_heap(cases[i].memory) == cases[i].heap,
		    "memory %llu MiB: heap %llu MiB",
		    (unsigned long long)(cases[i].memory / MIB),
		    (unsigned long long)(sbx_java_heap(cases[i].memory) / MIB));
	for (uint64_t m = 0; m <= 4096 * MIB; m += MIB / 2) {
		uint64_t h = sbx_java_heap(m);

		mono &= h >= prev && (m < 32 * MIB || h < m);
		prev = h;
	}
	ok(mono, "the heap grows with the limit and stays below it from "
	    "32 MiB up");
	return tap_done();
}
