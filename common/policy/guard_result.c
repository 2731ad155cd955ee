/* guard_result.c - the names of the guard's verdicts and the quoting of
 * a tenant's bytes into a refusal's reason. */
#include "common/policy/guard_result.h"

#include <string.h>

static const char *const verdict_names[GUARD_VERDICT_COUNT] = {
	"ok", "bad_argv", "bad_launcher", "inline_code", "stdin_program",
	"debugger", "forbidden_option", "unknown_option", "bad_value",
	"forbidden_command", "bad_subcommand", "no_command", "too_deep",
	"unpinned", "not_package",
};

const char *
guard_verdict_name(enum guard_verdict v)
{
	if ((unsigned)v >= GUARD_VERDICT_COUNT)
		return "unknown";
	return verdict_names[v];
}

char *
guard_quote(char *dst, size_t cap, const char *s, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t room = cap > 4 ? cap - 4 : 0;	/* keeps "..." and NUL */
	size_t o = 0, i;

	if (cap == 0)
		return dst;
	for (i = 0; s[i] != '\0' && i < max; i++) {
		unsigned char ch = (unsigned char)s[i];
		int plain = ch >= 0x20 && ch < 0x7f && ch != '\'' &&
		    ch != '"' && ch != '\\';

		if ((plain ? 1u : 4u) > room - o)
			break;
		if (plain) {
			dst[o++] = (char)ch;
		} else {
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[ch >> 4];
			dst[o++] = hex[ch & 15];
		}
	}
	/* s[i] is readable: every byte before it was not the terminator */
	if (s[i] != '\0' && cap >= 4) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
	return dst;
}
