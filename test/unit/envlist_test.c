/* envlist_test.c - the relay's forwarding list: the strict grammar of
 * AIRLOCK_ENV and --env, its refusals, duplicates across sources, the cap. */
#include <stdio.h>
#include <string.h>

#include "common/base/envlist.h"
#include "tap.h"

static struct envlist l;

static int
parse(const char *s, size_t n, char *err, size_t errlen)
{
	memset(&l, 0, sizeof l);
	return envlist_parse(&l, s, n, err, errlen);
}

static int
printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return 0;
	return 1;
}

/* Each list and what it gives: its keys (each followed by ','), or a
 * refusal whose message holds why. */
static const struct {
	const char *s;
	size_t n;
	const char *keys, *why;
} lists[] = {
	{ "", 0, "", NULL },
	{ "A", 1, "A,", NULL },
	{ "_", 1, "_,", NULL },
	{ "API_KEY,DB_URL", 14, "API_KEY,DB_URL,", NULL },
	{ "a1,_b2,C3", 9, "a1,_b2,C3,", NULL },
	{ "AIRLOCK", 7, "AIRLOCK,", NULL },
	{ "AIRLOCKX_Y", 10, "AIRLOCKX_Y,", NULL },
	{ ",", 1, NULL, "empty key" },
	{ "A,", 2, NULL, "empty key" },
	{ ",A", 2, NULL, "empty key" },
	{ "A,,B", 4, NULL, "empty key" },
	{ "A, B", 4, NULL, "0x20" },
	{ " A", 2, NULL, "0x20" },
	{ "A ", 2, NULL, "0x20" },
	{ "1A", 2, NULL, "0x31" },
	{ "A-B", 3, NULL, "0x2d" },
	{ "A=B", 3, NULL, "0x3d" },
	{ "A;B", 3, NULL, "0x3b" },
	{ "A\nB", 3, NULL, "0x0a" },
	{ "A\0B", 3, NULL, "0x00" },
	{ "\xc3\xa9", 2, NULL, "0xc3" },
	{ "A,A", 3, NULL, "A is named twice" },
	{ "A,B,A", 5, NULL, "A is named twice" },
	{ "AIRLOCK_SECRET", 14, NULL, "control variables" },
	{ "AIRLOCK_", 8, NULL, "control variables" },
	{ "X,AIRLOCK_RUNNER", 16, NULL, "control variables" },
};

static void
test_lists(void)
{
	char err[256], got[512];

	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		int rc;

		err[0] = '\0';
		rc = parse(lists[i].s, lists[i].n, err, sizeof err);
		if (lists[i].why) {
			ok(rc == -1 && strstr(err, lists[i].why) &&
			    printable(err), "refused (%s): %s", lists[i].why,
			    err);
			continue;
		}
		got[0] = '\0';
		for (size_t k = 0; k < l.n; k++) {
			strcat(got, l.key[k]);
			strcat(got, ",");
		}
		ok(rc == 0 && strcmp(got, lists[i].keys) == 0, "'%s' gives %s",
		    lists[i].s, lists[i].keys);
	}
	ok(parse("A,B", 3, err, sizeof err) == 0 && envlist_has(&l, "B", 1) &&
	    !envlist_has(&l, "C", 1) && !envlist_has(&l, "A,", 2),
	    "envlist_has finds exact names only");
}

static void
test_caps(void)
{
	char key[ENV_KEY_MAX + 2], err[256], name[16];

	memset(key, 'K', sizeof key);
	ok(parse(key, ENV_KEY_MAX, err, sizeof err) == 0 &&
	    strlen(l.key[0]) == ENV_KEY_MAX, "a %d-byte key is taken",
	    ENV_KEY_MAX);
	ok(parse(key, ENV_KEY_MAX + 1, err, sizeof err) == -1 &&
	    strstr(err, "at most") && !strchr(err, 'K'),
	    "a %d-byte key is refused without echoing it", ENV_KEY_MAX + 1);
	memset(&l, 0, sizeof l);
	for (int i = 0; i < ENVLIST_MAX; i++) {
		int n = snprintf(name, sizeof name, "K%d", i);

		if (envlist_add(&l, name, (size_t)n, err, sizeof err) != 0)
			break;
	}
	ok(l.n == ENVLIST_MAX, "%d keys fit", ENVLIST_MAX);
	ok(envlist_add(&l, "MORE", 4, err, sizeof err) == -1 &&
	    strstr(err, "more than"), "key %d is refused", ENVLIST_MAX + 1);
	/* both sources share one list: a key from --env then AIRLOCK_ENV */
	memset(&l, 0, sizeof l);
	ok(envlist_add(&l, "TOKEN", 5, err, sizeof err) == 0 &&
	    envlist_parse(&l, "X,TOKEN", 7, err, sizeof err) == -1 &&
	    strstr(err, "TOKEN is named twice"),
	    "a key named by --env and AIRLOCK_ENV is refused");
}

int
main(void)
{
	test_lists();
	test_caps();
	return tap_done();
}
