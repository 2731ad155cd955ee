/* cli_test.c - durations, sizes, counts, uid ranges: accepted and refused
 * forms; a repeatable option's cap. */
#include "common/base/cli.h"
#include "tap.h"

int
main(void)
{
	static const struct { const char *in; int rc; uint64_t ms; } d[] = {
		{ "250ms", 0, 250 }, { "5s", 0, 5000 }, { "5", 0, 5000 },
		{ "2m", 0, 120000 }, { "1h", 0, 3600000 },
		{ "30d", 0, 2592000000ull }, { "0s", -1, 0 }, { "", -1, 0 },
		{ "5x", -1, 0 }, { "-5s", -1, 0 }, { "5 s", -1, 0 },
		{ "99999999999999999999", -1, 0 }, { "4000d", -1, 0 },
	};
	static const struct { const char *in; int rc; uint64_t b; } z[] = {
		{ "512", 0, 512 }, { "64K", 0, 65536 }, { "256M", 0, 268435456 },
		{ "2G", 0, 2147483648ull }, { "0", -1, 0 }, { "1KB", -1, 0 },
		{ "M", -1, 0 }, { "99999999999T", -1, 0 },
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
		v = 0;
		ok(cli_duration_ms(d[i].in, &v) == d[i].rc &&
		    (d[i].rc || v == d[i].ms), "duration '%s'", d[i].in);
	}
	for (size_t i = 0; i < sizeof z / sizeof z[0]; i++) {
		v = 0;
		ok(cli_size_bytes(z[i].in, &v) == z[i].rc &&
		    (z[i].rc || v == z[i].b), "size '%s'", z[i].in);
	}
	ok(cli_count("7", 1, 10, &v) == 0 && v == 7, "count in range");
	ok(cli_count("0", 1, 10, &v) == -1, "count below range");
	ok(cli_count("11", 1, 10, &v) == -1, "count above range");
	ok(cli_count("3a", 1, 10, &v) == -1, "count with junk");
	{
		/* the top of uint64_t: each value in range is a count (the
		 * digit scan once refused the last six) */
		static const struct { const char *in; int rc; uint64_t v; }
		    top[] = {
			{ "18446744073709551609", 0, 18446744073709551609ull },
			{ "18446744073709551610", 0, 18446744073709551610ull },
			{ "18446744073709551615", 0, UINT64_MAX },
			{ "018446744073709551615", 0, UINT64_MAX },
			{ "18446744073709551616", -1, 0 },
			{ "18446744073709551620", -1, 0 },
			{ "99999999999999999999", -1, 0 },
		};

		for (size_t i = 0; i < sizeof top / sizeof *top; i++) {
			v = 7;
			ok(cli_count(top[i].in, 0, UINT64_MAX, &v) == top[i].rc &&
			    v == (top[i].rc ? 7 : top[i].v), "count '%s' with "
			    "max UINT64_MAX: %s", top[i].in, top[i].rc ?
			    "refused, untouched" : "accepted");
		}
		v = 7;
		ok(cli_size_bytes("18446744073709551615", &v) == 0 &&
		    v == UINT64_MAX, "size UINT64_MAX bytes");
		ok(cli_size_bytes("16777215T", &v) == 0 &&
		    v == 16777215ull << 40, "size 16777215T: the most in T");
		v = 7;
		ok(cli_size_bytes("16777216T", &v) == -1 && v == 7,
		    "size 16777216T (2^64): refused, untouched");
	}
	{
		static const char *const bad[] = { "5-1", "0-10", "+5-9",
			" 5-9", "5-9 ", "5--9", "5-+9", "5", "5-", "-9", "",
			"5-4294967294", "4294967301-4294967302",
			"18446744073709551621-9", "0x5-0x9", "5-9-10" };
		uint32_t a = 7, b = 7;

		for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
			ok(cli_uid_range(bad[i], &a, &b) == -1 && a == 7 &&
			    b == 7, "uid range '%s' refused", bad[i]);
		ok(cli_uid_range("200000-265535", &a, &b) == 0 &&
		    a == 200000 && b == 265535, "uid range accepted");
		ok(cli_uid_range("1-4294967293", &a, &b) == 0 && a == 1 &&
		    b == 4294967293u, "uid range up to CLI_UID_MAX");
		ok(cli_uid_range("9-9", &a, &b) == 0 && a == 9 && b == 9,
		    "a one-uid range");
	}
	{
		const char *list[2] = { NULL, NULL };
		size_t n = 0;

		ok(cli_append(list, &n, 2, "a") == 0 &&
		    cli_append(list, &n, 2, "b") == 0 && n == 2 &&
		    list[0][0] == 'a' && list[1][0] == 'b',
		    "a repeatable option keeps its values in order");
		ok(cli_append(list, &n, 2, "c") == -1 && n == 2 &&
		    list[1][0] == 'b', "one past its cap is refused, the list "
		    "untouched");
	}
	return tap_done();
}
