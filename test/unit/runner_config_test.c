/* runner_config_test.c - the runner's options from the command line and
 * --config text: values, one place per option, strictness with FILE:LINE,
 * the rules between options, and what a reload may change. */
#include <stdlib.h>
#include <string.h>

#include "common/base/xwrap.h"
#include "common/service/runner_config.h"
#include "tap.h"

static char err[640];

/* Set name=value as the command line would; 0 or -1. */
static int
cmd(struct runner_config *c, const char *name, const char *value)
{
	int o = optconfig_find(&runner_optconfig, name);

	return o < 0 ? -1 : runner_config_set(c, (size_t)o, value, 0, err,
	    sizeof err);
}

/* Apply text as the file "f.conf"; 0 or -1 with err. buf is leaked on
 * purpose: the config's strings point into it. */
static int
file(struct runner_config *c, const char *text)
{
	size_t len = strlen(text);
	char *buf = malloc(len + 1);

	memcpy(buf, text, len + 1);
	return runner_config_apply_text(c, "f.conf", buf, len, err,
	    sizeof err);
}

/* A command line that finishes: listen, jail none, a secret. */
static void
base(struct runner_config *c)
{
	runner_config_defaults(c);
	cmd(c, "listen", "unix:/x");
	cmd(c, "jail", "uid");
	cmd(c, "uid-range", "200000-200100");
	cmd(c, "secret-file", "/s");
}

static int
refused(struct runner_config *c, const char *text, const char *want)
{
	int rc = file(c, text);

	return rc == -1 && strcmp(err, want) == 0;
}

/* Files refused on top of base(): the text, the exact message. */
static const struct {
	const char *text, *want, *what;
} refusals[] = {
	{ "jail ns\n", "f.conf:1: --jail is on the command line too: give it "
	  "in one place", "an option on the command line and in the file" },
	{ "\n\nmemory 1G\n# x\nmemory 2G\n", "f.conf:5: --memory given twice "
	  "(first at line 3)", "a repeated scalar" },
	{ "listen unix:/y\n", "f.conf:1: --listen is on the command line too: "
	  "give it in one place", "a repeatable one on both too" },
	{ "max-lease-duration 31d\n", "f.conf:1: --max-lease-duration: '31d' "
	  "is not a duration from 1ms up to 30d (e.g. 12h, 7d)",
	  "a lease duration past 30 days" },
	{ "max-lease-duration 0\n", "f.conf:1: --max-lease-duration: '0' is "
	  "not a duration from 1ms up to 30d (e.g. 12h, 7d)",
	  "no lease duration of 0 (unlimited is not offered)" },
	{ "memroy 1G\n", "f.conf:1: unknown option 'memroy' (the file takes "
	  "the service's options of airlock runner --help, without dashes)",
	  "an unknown option" },
	{ "config /other\n", "f.conf:1: unknown option 'config' (the file "
	  "takes the service's options of airlock runner --help, without "
	  "dashes)", "--config is not an option of the file" },
	{ "memory\n", "f.conf:1: --memory needs a value", "a missing value" },
	{ "allow-bind yes\n", "f.conf:1: --allow-bind takes no value",
	  "a value on a flag" },
	{ "pids lots\n", "f.conf:1: --pids: 'lots' is not a count from 0 to "
	  "1000000", "a bad value names the flag" },
	{ "pids 1 2\n", "f.conf:1: text after the value ('2'): one value per "
	  "line, no quoting", "trailing junk" },
	{ "pids 1\n\xff\n", "f.conf:2: byte 0xff is not ASCII (values are "
	  "visible ASCII)", "a byte over 0x7e" },
};

int
main(void)
{
	static struct runner_config c, old, new;

	base(&c);
	ok(file(&c, "# limits\nmemory 512M\npids 100\ncpu 0.5\n"
	    "allow npx,node\nallow-index https://r.example/\n"
	    "allow-index https://s.example/\nkill-grace 1s\n") == 0 &&
	    c.jail_cfg.limits.memory == 512ull << 20 &&
	    c.jail_cfg.limits.pids == 100 &&
	    c.jail_cfg.limits.cpu_millicpus == 500 &&
	    strcmp(c.allow, "npx,node") == 0 && c.nguard_items == 2 &&
	    c.grace_ms == 1000, "a file's values land where the flags' do");
	ok(runner_config_finish(&c, 0, err, sizeof err) == 0 &&
	    c.preauth_uid == 200000 && c.jail_cfg.uid_first == 200001,
	    "and the configuration finishes: %s", err);

	for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
		base(&c);
		ok(refused(&c, refusals[i].text, refusals[i].want), "%s: %s",
		    refusals[i].what, err);
	}

	runner_config_defaults(&c);
	ok(cmd(&c, "memory", "1G") == 0 && cmd(&c, "memory", "2G") == 0 &&
	    c.jail_cfg.limits.memory == 2ull << 30,
	    "on the command line the last wins, as before");

	/* what a reload may change */
	base(&old);
	file(&old, "memory 1G\nreview-pubkey /k\nscript-dir /srv/s\n");
	runner_config_finish(&old, 0, err, sizeof err);
	base(&new);
	file(&new, "memory 2G\nreview-pubkey /k2\nscript-dir /srv/s\n"
	    "max-leases 3\nallow npx\n");
	runner_config_finish(&new, 0, err, sizeof err);
	ok(runner_config_fixed_change(&old, &new) == NULL,
	    "limits, caps, the allowlist and the key's path reload");
	base(&new);
	file(&new, "memory 1G\nreview-pubkey /k\nscript-dir /srv/t\n");
	ok(runner_config_fixed_change(&old, &new) &&
	    strcmp(runner_config_fixed_change(&old, &new), "script-dir") == 0,
	    "a changed script dir needs a restart");
	base(&new);
	file(&new, "memory 1G\nscript-dir /srv/s\n");
	ok(runner_config_fixed_change(&old, &new) &&
	    strcmp(runner_config_fixed_change(&old, &new), "review-pubkey") ==
	    0, "approvals turned off needs a restart");
	base(&new);
	file(&new, "memory 1G\nreview-pubkey /k\nscript-dir /srv/s\n"
	    "state-dir /elsewhere\n");
	ok(runner_config_fixed_change(&old, &new) &&
	    strcmp(runner_config_fixed_change(&old, &new), "state-dir") == 0,
	    "a state dir added needs a restart");
	base(&new);
	file(&new, "memory 1G\nreview-pubkey /k\nscript-dir /srv/s\n"
	    "script-dir /srv/u\n");
	ok(runner_config_fixed_change(&old, &new) != NULL,
	    "a script dir added needs a restart");

	/* take_reloadable: the reloadable values, never the fixed ones */
	base(&new);
	file(&new, "memory 2G\nreview-pubkey /k2\nscript-dir /srv/s\n"
	    "max-leases 3\nmax-lease-duration 7d\n");
	runner_config_finish(&new, 0, err, sizeof err);
	ok(runner_config_fixed_change(&old, &new) == NULL,
	    "--max-lease-duration reloads");
	runner_config_take_reloadable(&old, &new);
	ok(old.max_lease_ms == 7ull * 86400000,
	    "a reload takes the new --max-lease-duration");
	ok(old.jail_cfg.limits.memory == 2ull << 30 && old.max_leases == 3 &&
	    strcmp(old.review_pubkey, "/k2") == 0 &&
	    old.jail_cfg.uid_first == 200001 && old.preauth_uid == 200000,
	    "a reload takes the new limits, cap and key path");

	/* the rules between options still hold with a file */
	base(&c);
	file(&c, "ping-interval 30s\n");
	ok(runner_config_finish(&c, 0, err, sizeof err) == EXIT_USAGE &&
	    strcmp(err, "--liveness-timeout must exceed --ping-interval") == 0,
	    "finish refuses a ping past liveness: %s", err);
	runner_config_defaults(&c);
	cmd(&c, "listen", "unix:/x");
	cmd(&c, "jail", "none");
	file(&c, "memory 0\n");
	ok(runner_config_finish(&c, 0, err, sizeof err) == EXIT_USAGE,
	    "--jail none refuses a limit from the file: %s", err);
	/* --require-lock and --prefetch: only with a lock store */
	base(&c);
	file(&c, "require-lock\n");
	ok(runner_config_finish(&c, 0, err, sizeof err) == EXIT_USAGE &&
	    strcmp(err, "--require-lock, --prefetch and --py-index go with "
	    "--lock-store") == 0, "--require-lock without --lock-store: %s",
	    err);
	base(&c);
	file(&c, "prefetch /t\n");
	ok(runner_config_finish(&c, 0, err, sizeof err) == EXIT_USAGE,
	    "--prefetch without --lock-store: %s", err);
	base(&c);
	file(&c, "py-index http://127.0.0.1:8000/\n");
	ok(runner_config_finish(&c, 0, err, sizeof err) == EXIT_USAGE,
	    "--py-index without --lock-store: %s", err);
	{
		static const char *const bad[] = {
			"ftp://pypi.org/simple/", "https://", "https:///simple",
			"https://user:pw@pypi.org/simple/",
			"https://pypi.org/simple/?x=1", "https://pypi.org/s#x",
			"https://pypi.org/a b", "https://pypi.org/\x7f",
			"pypi.org/simple/",
		};
		char line[128];

		for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
			base(&c);
			ok(cmd(&c, "py-index", bad[i]) != 0 && strncmp(err,
			    "--py-index '", 12) == 0, "--py-index %s refused: "
			    "%s", bad[i], err);
		}
		base(&c);
		snprintf(line, sizeof line, "review-pubkey /k\nlock-store /l\n"
		    "lock-uid-range 300000-300007\npy-index %s\n",
		    "http://127.0.0.1:8000/simple/");
		ok(file(&c, line) == 0 && runner_config_finish(&c, 0, err,
		    sizeof err) == 0 && strcmp(c.py_index,
		    "http://127.0.0.1:8000/simple/") == 0,
		    "--py-index with a lock store: %s", err);
	}
	/* the pre-auth process's uid is none of the installer's either
	 * (found by fuzz_runner_config: a --preauth-uid given was checked
	 * against --uid-range only) */
	base(&c);
	ok(file(&c, "review-pubkey /k\nlock-store /l\n"
	    "lock-uid-range 300000-300007\npreauth-uid 300003\n") == 0 &&
	    runner_config_finish(&c, 0, err, sizeof err) == EXIT_USAGE &&
	    strcmp(err, "--preauth-uid 300003 is in --lock-uid-range: the "
	    "installer's jails must never share the pre-auth process's uid") ==
	    0, "--preauth-uid in --lock-uid-range refused: %s", err);
	base(&c);
	ok(file(&c, "review-pubkey /k\nlock-store /l\n"
	    "lock-uid-range 300000-300007\npreauth-uid 300008\n") == 0 &&
	    runner_config_finish(&c, 0, err, sizeof err) == 0 &&
	    c.preauth_uid == 300008, "and taken just past it: %s", err);
	/* a lock range just below --uid-range: refused when the range's
	 * first uid became the pre-auth uid (one uid below the leases'),
	 * taken when --preauth-uid put it elsewhere (it was refused: the
	 * check assumed the range's first uid was always taken) */
	base(&c);
	ok(file(&c, "review-pubkey /k\nlock-store /l\n"
	    "lock-uid-range 199990-200000\n") == 0 &&
	    runner_config_finish(&c, 0, err, sizeof err) == EXIT_USAGE &&
	    strcmp(err, "--lock-uid-range must not overlap --uid-range (nor "
	    "its pre-auth uid)") == 0 && c.preauth_uid == 200000,
	    "a lock range ending on the pre-auth uid refused: %s", err);
	base(&c);
	ok(file(&c, "review-pubkey /k\nlock-store /l\n"
	    "lock-uid-range 199990-199999\n") == 0 &&
	    runner_config_finish(&c, 0, err, sizeof err) == 0,
	    "one ending under it taken: %s", err);
	base(&c);
	ok(file(&c, "review-pubkey /k\nlock-store /l\n"
	    "lock-uid-range 199990-199999\npreauth-uid 300000\n") == 0 &&
	    runner_config_finish(&c, 0, err, sizeof err) == 0 &&
	    c.jail_cfg.uid_first == 200000, "with --preauth-uid elsewhere, "
	    "a lock range ending under --uid-range taken: %s", err);
	base(&c);
	ok(file(&c, "review-pubkey /k\nlock-store /l\n"
	    "lock-uid-range 199990-200000\npreauth-uid 300000\n") == 0 &&
	    runner_config_finish(&c, 0, err, sizeof err) == EXIT_USAGE,
	    "... one reaching into --uid-range refused: %s", err);
	base(&c);
	ok(file(&c, "cpu nan\n") != 0 && strcmp(err, "f.conf:1: --cpu: 'nan' "
	    "is not a number of CPUs (e.g. 0.5, 2; 0 for none)") == 0,
	    "--cpu nan refused (it passed both range checks): %s", err);
	base(&c);
	ok(file(&c, "prefetch-jobs 17\n") != 0 && strcmp(err, "f.conf:1: "
	    "--prefetch-jobs: '17' is not a count from 1 to 16") == 0,
	    "--prefetch-jobs past 16: %s", err);
	base(&c);
	ok(file(&c, "review-pubkey /k\nlock-store /l\n"
	    "lock-uid-range 300000-300007\nrequire-lock\nprefetch /t\n"
	    "prefetch-jobs 3\n") == 0 && runner_config_finish(&c, 0, err,
	    sizeof err) == 0 && c.require_lock && c.prefetch_jobs == 3 &&
	    strcmp(c.prefetch, "/t") == 0, "with a lock store they apply: %s",
	    err);
	old = c;
	base(&new);
	file(&new, "review-pubkey /k\nlock-store /l\n"
	    "lock-uid-range 300000-300007\nrequire-lock\nprefetch /u\n");
	runner_config_finish(&new, 0, err, sizeof err);
	ok(runner_config_fixed_change(&old, &new) == NULL, "--prefetch and "
	    "--prefetch-jobs reload");
	runner_config_take_reloadable(&old, &new);
	ok(strcmp(old.prefetch, "/u") == 0 && old.prefetch_jobs == 2,
	    "a reload takes the new file and the default jobs");
	base(&new);
	file(&new, "review-pubkey /k\nlock-store /l\n"
	    "lock-uid-range 300000-300007\nprefetch /u\n");
	runner_config_finish(&new, 0, err, sizeof err);
	ok(runner_config_fixed_change(&c, &new) != NULL,
	    "--require-lock needs a restart");

	/* the network: each lease's own namespace unless --shared-network */
	base(&c);
	ok(runner_config_finish(&c, 0, err, sizeof err) == 0 &&
	    !c.shared_network && !c.egress_allow,
	    "by default: no --shared-network, the default list");
	base(&c);
	file(&c, "egress-ports 443\n");
	ok(runner_config_finish(&c, 0, err, sizeof err) == EXIT_USAGE &&
	    strstr(err, "add --shared-network") != NULL,
	    "--egress-ports alone is refused, naming --shared-network: %s",
	    err);
	base(&c);
	file(&c, "shared-network\negress-ports 443\n");
	ok(runner_config_finish(&c, 0, err, sizeof err) == 0,
	    "--egress-ports with --shared-network: %s", err);
	base(&c);
	file(&c, "shared-network\negress-allow none\n");
	ok(runner_config_finish(&c, 0, err, sizeof err) == EXIT_USAGE &&
	    strstr(err, "drop --shared-network") != NULL,
	    "--egress-allow with --shared-network is refused: %s", err);
	runner_config_defaults(&c);
	cmd(&c, "listen", "unix:/x");
	cmd(&c, "jail", "none");
	file(&c, "shared-network\n");
	ok(runner_config_finish(&c, 0, err, sizeof err) == EXIT_USAGE &&
	    strstr(err, "network options") != NULL,
	    "--jail none refuses --shared-network: %s", err);
	base(&old);
	file(&old, "egress-allow launcher,a.test:443\n");
	runner_config_finish(&old, 0, err, sizeof err);
	base(&new);
	runner_config_finish(&new, 0, err, sizeof err);
	ok(runner_config_fixed_change(&old, &new) == NULL,
	    "--egress-allow dropped by a reload: the default, no restart");
	base(&new);
	file(&new, "egress-allow launcher,a.test:443\nshared-network\n");
	ok(runner_config_fixed_change(&old, &new) &&
	    strcmp(runner_config_fixed_change(&old, &new), "shared-network")
	    == 0, "--shared-network added needs a restart");
	for (size_t i = 0; i < runner_noptions; i++)
		ok(optconfig_find(&runner_optconfig, runner_options[i].name) ==
		    (int)i, "option %s found", runner_options[i].name);
	return tap_done();
}
