/* fuzz_envpolicy.c - the env policy and builder over arbitrary maps.
 * Input: a flags byte, an envp-cap byte, a buffer-cap byte, then entries
 * "KEY=VALUE" separated by '\n' (values may hold NUL bytes). Invariants:
 * verdicts in range, the builder agrees with the check, and a built envp
 * holds PATH once, no forbidden or duplicate key, and the map byte-exact. */
#include <string.h>

#include "common/policy/envpolicy.h"
#include "fuzz.h"

#define MAP_MAX (ENV_COUNT_MAX + 4)

static struct env_entry map[MAP_MAX];
static char *envp[ENV_ENVP_CAP];
static char buf[ENV_BUF_CAP];

static void
check_reason(const struct env_result *r)
{
	size_t n = strnlen(r->reason, ENV_REASON_MAX);

	FUZZ_ASSERT(n > 0 && n < ENV_REASON_MAX);
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT(r->reason[i] >= 0x20 && r->reason[i] < 0x7f);
}

static int
is_base_key(const char *s, size_t n)
{
	return (n == 4 && (memcmp(s, "PATH", 4) == 0 ||
	    memcmp(s, "HOME", 4) == 0 || memcmp(s, "LANG", 4) == 0)) ||
	    (n == 6 && memcmp(s, "TMPDIR", 6) == 0);
}

static void
check_envp(size_t envc, size_t n, size_t envp_cap, size_t buf_cap)
{
	size_t paths = 0, first_map = envc - n;

	FUZZ_ASSERT(envc < envp_cap && envp[envc] == NULL);
	for (size_t i = 0; i < envc; i++) {
		const char *s = envp[i], *eq;
		size_t len, klen;

		FUZZ_ASSERT(s >= buf && s < buf + buf_cap);
		len = strnlen(s, buf_cap - (size_t)(s - buf));
		FUZZ_ASSERT(len < buf_cap - (size_t)(s - buf));
		eq = memchr(s, '=', len);
		FUZZ_ASSERT(eq != NULL);
		klen = (size_t)(eq - s);
		paths += klen == 4 && memcmp(s, "PATH", 4) == 0;
		if (i < first_map)
			FUZZ_ASSERT(is_base_key(s, klen));
		else
			FUZZ_ASSERT(envpolicy_check_key(s, klen, NULL) ==
			    ENV_OK && klen == map[i - first_map].key_len &&
			    memcmp(s, map[i - first_map].key, klen) == 0 &&
			    len - klen - 1 == map[i - first_map].value_len &&
			    memcmp(eq + 1, map[i - first_map].value,
			    len - klen - 1) == 0);
		for (size_t k = 0; k < i; k++)
			FUZZ_ASSERT(strncmp(envp[k], s, klen + 1) != 0);
	}
	FUZZ_ASSERT(paths == 1 && strncmp(envp[0], "PATH=", 5) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct env_base base = { "/usr/bin:/bin", "/home/l", NULL, NULL };
	struct env_result r1, r2;
	size_t n = 0, off = 3, envp_cap = ENV_ENVP_CAP, buf_cap = ENV_BUF_CAP;
	enum env_verdict v, b;
	const char *why;

	if (size < 3)
		return 0;
	if (data[0] & 1)
		base.lang = "C.UTF-8";
	if (data[0] & 2)
		base.tmpdir = "/tmp/l";
	if (data[0] & 4) {	/* small storage explores ENV_NO_SPACE */
		envp_cap = data[1] % 12;
		buf_cap = (size_t)data[2] * 4;
	}
	/* the raw bytes as one key, too */
	v = envpolicy_check_key((const char *)data + 3, size - 3, &why);
	FUZZ_ASSERT(v == ENV_OK || v == ENV_BAD_KEY || v == ENV_FORBIDDEN);
	FUZZ_ASSERT((v == ENV_FORBIDDEN) == (why != NULL));

	while (off < size && n < MAP_MAX) {
		const char *line = (const char *)data + off;
		const char *nl = memchr(line, '\n', size - off);
		size_t len = nl ? (size_t)(nl - line) : size - off;
		const char *eq = memchr(line, '=', len);

		map[n].key = line;
		map[n].key_len = eq ? (size_t)(eq - line) : len;
		map[n].value = eq ? eq + 1 : line + len;
		map[n].value_len = eq ? len - map[n].key_len - 1 : 0;
		n++;
		off += len + 1;
	}

	v = envpolicy_check(map, n, &r1);
	FUZZ_ASSERT((unsigned)v < ENV_VERDICT_COUNT && r1.verdict == v);
	FUZZ_ASSERT(v != ENV_NO_SPACE && v != ENV_BAD_BASE);
	FUZZ_ASSERT(v == ENV_OK || r1.index < n);
	check_reason(&r1);

	b = envpolicy_build(&base, map, n, envp, envp_cap, buf, buf_cap, &r2);
	FUZZ_ASSERT((unsigned)b < ENV_VERDICT_COUNT && r2.verdict == b);
	check_reason(&r2);
	if (v != ENV_OK)
		FUZZ_ASSERT(b == v && r2.index == r1.index);
	else
		FUZZ_ASSERT(b == ENV_OK || (b == ENV_NO_SPACE &&
		    (data[0] & 4)));
	if (b == ENV_OK)
		check_envp(r2.envc, n, envp_cap, buf_cap);
	else if (envp_cap > 0)
		FUZZ_ASSERT(envp[0] == NULL);
	return 0;
}
