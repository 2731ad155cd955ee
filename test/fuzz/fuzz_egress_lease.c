/* fuzz_egress_lease.c - what common/egress/egress_lease.c reads from
 * outside, under arbitrary bytes: the runner's --egress-allow text
 * (egress_config_parse), one lease's list from it, its launcher and an
 * approval's own entries (egress_lease_rules), and the tenant's
 * environment the proxy variables are put into (egress_env). The first
 * byte picks which (and a launcher, and the room envp has); the rest is
 * the text: for a lease's list the operator's text, then after a 0xff
 * byte (which no list may hold) the approval's; for the environment its
 * NUL-separated entries.
 * --egress-allow: "none" is the empty list; otherwise accepted exactly
 * when no entry is empty, the text is at most EGRESS_ALLOW_TEXT_MAX
 * bytes and the entries other than the word launcher form a list
 * egress_allow_add takes, and then the list is those rules and the word
 * is noted exactly when it is one of the entries.
 * A lease's list: every rule of the operator's list, of the launcher's
 * hosts (when the operator's list names the word) and of the approval's,
 * and no other; at most EGRESS_ALLOW_MAX of them; a refusal says so.
 * The environment: the tenant's entries in their order but any setting
 * a proxy variable, then the proxy's, NULL-terminated; no room is -1. */
#include <string.h>

#include "common/egress/egress_allow.h"
#include "common/egress/egress_lease.h"
#include "fuzz.h"

#define ENVS_MAX 512

static const char *const launchers[] = { "npx", "uvx", "uv", "node",
	"python3", "", NULL, "npx" };

/* The proxy variables egress_env sets, by name. */
static const char *const proxy_keys[] = { "HTTPS_PROXY", "https_proxy",
	"HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY",
	"no_proxy", "npm_config_proxy", "npm_config_https_proxy",
	"PIP_PROXY", "NODE_USE_ENV_PROXY" };
#define NKEYS (sizeof proxy_keys / sizeof *proxy_keys)

static struct egress_allow model, lease;
static struct egress_config ec;

/* Every rule of sub is in a. */
static int
holds(const struct egress_allow *a, const struct egress_allow *sub)
{
	for (size_t i = 0; i < sub->n; i++)
		if (!egress_allow_match(a, &sub->rule[i]))
			return 0;
	return 1;
}

/* Every rule of a is in one of b, c, d. */
static int
only_from(const struct egress_allow *a, const struct egress_allow *b,
    const struct egress_allow *c, const struct egress_allow *d)
{
	for (size_t i = 0; i < a->n; i++)
		if (!egress_allow_match(b, &a->rule[i]) &&
		    !egress_allow_match(c, &a->rule[i]) &&
		    !egress_allow_match(d, &a->rule[i]))
			return 0;
	return 1;
}

/* data[0..size) as a C string into out (cap bytes): 0, or -1 when it
 * holds a NUL (a list never does) or does not fit. */
static int
cstr(const uint8_t *data, size_t size, char *out, size_t cap)
{
	if (size >= cap || memchr(data, 0, size))
		return -1;
	memcpy(out, data, size);
	out[size] = '\0';
	return 0;
}

/* The model of --egress-allow: 0 with the rules in model and the word in
 * *word, or -1. */
static int
model_config(const char *text, size_t len, int *word)
{
	static char rest[EGRESS_ALLOW_TEXT_MAX + 1];
	char err[256];
	size_t n = 0, i = 0;

	memset(&model, 0, sizeof model);
	*word = 0;
	if (len > EGRESS_ALLOW_TEXT_MAX)
		return -1;
	for (;;) {
		const char *comma = memchr(text + i, ',', len - i);
		size_t k = comma ? (size_t)(comma - text) : len;

		if (k == i)
			return -1;	/* an empty entry */
		if (k - i == 8 && memcmp(text + i, "launcher", 8) == 0) {
			*word = 1;
		} else {
			if (n)
				rest[n++] = ',';
			memcpy(rest + n, text + i, k - i);
			n += k - i;
		}
		if (!comma)
			break;
		i = k + 1;
	}
	return egress_allow_add(&model, rest, n, err, sizeof err);
}

static void
config_case(const uint8_t *data, size_t size)
{
	static char text[EGRESS_ALLOW_TEXT_MAX + 64];
	char err[256];
	int word, rc;

	if (cstr(data, size, text, sizeof text) != 0)
		return;
	rc = egress_config_parse(&ec, text, err, sizeof err);
	if (strcmp(text, "none") == 0) {
		FUZZ_ASSERT(rc == 0 && ec.base.n == 0 && !ec.launcher);
		return;
	}
	FUZZ_ASSERT(rc == model_config(text, size, &word));
	if (rc != 0) {
		FUZZ_ASSERT(strncmp(err, "--egress-allow: ", 16) == 0);
		return;
	}
	FUZZ_ASSERT(ec.launcher == word && ec.base.n == model.n);
	FUZZ_ASSERT(holds(&ec.base, &model) && holds(&model, &ec.base));
}

/* The launcher's hosts, and an approval's entries, parsed alone. */
static void
rules_case(const char *launcher, const uint8_t *data, size_t size)
{
	static struct egress_allow hosts, extra;
	static char text[EGRESS_ALLOW_TEXT_MAX + 64];
	const uint8_t *sep = memchr(data, 0xff, size);
	size_t lt = sep ? (size_t)(sep - data) : size;
	const char *xp = sep ? (const char *)sep + 1 : "";
	size_t xl = sep ? size - lt - 1 : 0;
	const char *h;
	char err[256];
	int hosts_ok, extra_ok;

	if (cstr(data, lt, text, sizeof text) != 0)
		return;
	if (egress_config_parse(&ec, lt ? text : NULL, err, sizeof err) != 0)
		return;
	h = launcher && ec.launcher ? egress_launcher_hosts(launcher) : "";
	memset(&hosts, 0, sizeof hosts);
	memset(&extra, 0, sizeof extra);
	hosts_ok = egress_allow_add(&hosts, h, strlen(h), err, sizeof err) ==
	    0;
	extra_ok = egress_allow_add(&extra, xp, xl, err, sizeof err) == 0;
	FUZZ_ASSERT(hosts_ok);	/* the launchers' own lists are lists */
	if (egress_lease_rules(&ec, launcher, xp, xl, &lease, err,
	    sizeof err) != 0) {
		FUZZ_ASSERT(strncmp(err, "the lease's egress list: ", 25) == 0);
		/* refused: the approval's entries, or more than the cap */
		FUZZ_ASSERT(!extra_ok || ec.base.n + hosts.n + extra.n >
		    EGRESS_ALLOW_MAX);
		return;
	}
	FUZZ_ASSERT(extra_ok && lease.n <= EGRESS_ALLOW_MAX);
	FUZZ_ASSERT(lease.n <= ec.base.n + hosts.n + extra.n);
	FUZZ_ASSERT(holds(&lease, &ec.base) && holds(&lease, &hosts) &&
	    holds(&lease, &extra));
	FUZZ_ASSERT(only_from(&lease, &ec.base, &hosts, &extra));
}

static int
proxy_entry(const char *kv)
{
	for (size_t i = 0; i < NKEYS; i++) {
		size_t k = strlen(proxy_keys[i]);

		if (strncmp(kv, proxy_keys[i], k) == 0 && kv[k] == '=')
			return 1;
	}
	return 0;
}

static void
env_case(unsigned room, const uint8_t *data, size_t size)
{
	static char copy[70000 + 1];
	static char *envp[ENVS_MAX + NKEYS + 8];
	static const char *want[ENVS_MAX];
	size_t n = 0, kept = 0, at = 0, cap;
	int rc;

	if (size >= sizeof copy)
		return;
	memcpy(copy, data, size);
	copy[size] = '\0';
	while (at < size && n < ENVS_MAX) {
		envp[n] = copy + at;
		if (!proxy_entry(envp[n]))
			want[kept++] = envp[n];
		at += strlen(copy + at) + 1;
		n++;
	}
	if (at < size)
		return;		/* more entries than modelled */
	envp[n] = NULL;
	/* room for all, or a little short of it */
	cap = kept + NKEYS + 1 + (room % 4) - 2;
	if (cap < n + 1)
		cap = n + 1;	/* what the caller's array holds already */
	rc = egress_env(envp, cap);
	if (cap < kept + NKEYS + 1) {
		FUZZ_ASSERT(rc == -1);
		return;
	}
	FUZZ_ASSERT(rc == 0);
	for (size_t i = 0; i < kept; i++)
		FUZZ_ASSERT(envp[i] == want[i]);
	/* then each proxy variable once */
	for (size_t i = 0; i < NKEYS; i++) {
		size_t k = strlen(proxy_keys[i]), times = 0;

		for (size_t e = kept; e < kept + NKEYS; e++)
			times += strncmp(envp[e], proxy_keys[i], k) == 0 &&
			    envp[e][k] == '=';
		FUZZ_ASSERT(times == 1);
	}
	FUZZ_ASSERT(envp[kept + NKEYS] == NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0] & 3) {
	case 0:
	case 3:
		config_case(data + 1, size - 1);
		break;
	case 1:
		rules_case(launchers[data[0] >> 2 & 7], data + 1, size - 1);
		break;
	default:
		env_case(data[0] >> 2, data + 1, size - 1);
	}
	return 0;
}
