/* guard_npmspec_test.c - npm package specs, one row per way
 * npm-package-arg reads a spec as something other than a registry
 * version (a file, tarball, directory, URL, git repository, alias or
 * protocol), each in the spellings its grammar allows, and the registry's
 * own forms that pass. The reason must name the class. */
#include <string.h>

#include "common/policy/guard.h"
#include "common/policy/guard_npmspec.h"
#include "tap.h"

struct spec_case {
	const char *spec;
	const char *why;	/* a word of the reason; NULL: accepted */
};

static const struct spec_case refused[] = {
	/* a protocol (npa's isURL, isFileSpec, isAliasSpec, hosted-git-info
	 * shortcuts), before or after the name's '@', any case */
	{ "file:../x", "protocol" },
	{ "FILE:x.tgz", "protocol" },
	{ "pkg@file:../x", "protocol" },
	{ "pkg@File:/abs", "protocol" },
	{ "http://h.example/x.tgz", "protocol" },
	{ "pkg@https://h.example/x", "protocol" },
	{ "pkg@HTTPS://h.example/x.tgz", "protocol" },
	{ "git+ssh://git@h.example:u/r.git", "protocol" },
	{ "git+https://h.example/u/r", "protocol" },
	{ "git+file:///srv/r", "protocol" },
	{ "git://h.example/u/r", "protocol" },
	{ "pkg@git+ssh://h.example/r", "protocol" },
	{ "pkg@git:h.example:r", "protocol" },
	{ "github:u/r", "protocol" },
	{ "pkg@github:u/r", "protocol" },
	{ "pkg@gitlab:u/r", "protocol" },
	{ "pkg@bitbucket:u/r", "protocol" },
	{ "pkg@gist:11081aaa281", "protocol" },
	{ "git@github.com:u/r", "protocol" },
	{ "pkg@git@h.example:u/r", "protocol" },
	{ "npm:other@1.0.0", "protocol" },
	{ "pkg@npm:other@1.0.0", "protocol" },
	{ "pkg@NPM:other", "protocol" },
	{ "@s/p@npm:@evil/x@1.0.0", "protocol" },
	{ "pkg@workspace:*", "protocol" },
	{ "pkg@link:../x", "protocol" },
	{ "pkg@portal:../x", "protocol" },
	{ "pkg@c:x", "protocol" },		/* a drive letter: a file */
	{ "pkg@semver:1.0.0", "protocol" },
	/* a git reference */
	{ "u/r#v1.0.0", "git reference" },
	{ "pkg@u/r#main", "git reference" },
	{ "pkg@1.0.0#x", "git reference" },
	/* percent-encoding: npa decodes file: and hosted paths */
	{ "pkg@%31.0.0", "percent" },
	{ "%40s%2fp@1.0.0", "percent" },
	{ "pkg@..%2fx", "percent" },
	/* white space (the registry form is trimmed), controls, non-ASCII */
	{ "pkg@ 1.0.0", "white space" },
	{ "pkg@1.0.0 ", "white space" },
	{ " pkg@1.0.0", "white space" },
	{ "pkg@1.0.0\t", "white space" },
	{ "pkg@1.0.0\n", "white space" },
	{ "pkg@1.0.0\v", "white space" },
	{ "pkg@\xc2\xa0" "1.0.0", "white space" },
	{ "pkg@1.0.0\x7f", "white space" },
	{ "", "white space" },
	/* paths (npa's isPosixFile and the '/' test) */
	{ "./x", "path" },
	{ "../x", "path" },
	{ ".", "path" },
	{ "..", "path" },
	{ "/x", "path" },
	{ "/srv/x.tgz", "path" },
	{ "~/x", "path" },
	{ "pkg@./x", "path" },
	{ "pkg@../x", "path" },
	{ "pkg@/x", "path" },
	{ "pkg@~/x", "path" },
	/* tarballs: any spec ending .tgz, .tar or .tar.gz, in any case,
	 * even one that is valid semver or a tag */
	{ "x.tgz", "tarball" },
	{ "x.TGZ", "tarball" },
	{ "x.tar", "tarball" },
	{ "x.Tar.Gz", "tarball" },
	{ "pkg@1.tgz", "tarball" },
	{ "pkg@1.TGZ", "tarball" },
	{ "pkg@1.tar", "tarball" },
	{ "pkg@1.tar.gz", "tarball" },
	{ "pkg@1.0.0-x.tgz", "tarball" },
	{ "pkg@1.0.0-rc.TaR", "tarball" },
	{ "pkg@latest.tgz", "tarball" },
	{ "@s/p@1.tgz", "tarball" },
	{ "@s/p.tar", "tarball" },
	{ "x.tgz@1.0.0", "tarball" },
	{ "x.TAR.gz@latest", "tarball" },
	{ "@s/x.Tgz@1.0.0", "tarball" },
	/* a hosted git shorthand: user/repo, as the name or the version */
	{ "u/r", "user/repo" },
	{ "u/r@1.0.0", "user/repo" },
	{ "pkg@u/r", "user/repo" },
	{ "pkg@u/r.git", "user/repo" },
	{ "@s/p/q", "user/repo" },
	{ "@s/p/q@1.0.0", "user/repo" },
	/* names npm refuses or that are not URL-safe */
	{ "_x@1.0.0", "package name" },
	{ "-x@1.0.0", "package name" },
	{ "node_modules@1.0.0", "package name" },
	{ "NODE_MODULES", "package name" },
	{ "favicon.ico@1.0.0", "package name" },
	{ "x+y@1.0.0", "package name" },
	{ "x!@1.0.0", "package name" },
	{ "a*b", "package name" },
	{ "~x", "package name" },
	{ "@/x@1.0.0", "package name" },
	{ "@s/@1.0.0", "package name" },
	{ "@s@1.0.0", "package name" },
	{ "@s", "package name" },
	{ "@.s/p", "package name" },
	{ "@s/.p", "package name" },
	{ "@s/_p", "package name" },
	/* versions that are none of the registry's forms */
	{ "pkg@", "version" },
	{ "pkg@1.0.0@2", "version" },
	{ "pkg@>1", "version" },
	{ "pkg@>=1.0.0", "version" },
	{ "pkg@*", "version" },
	{ "pkg@1||2", "version" },
	{ "pkg@1.0.0+build", "version" },
	{ "pkg@01.0.0", "version" },
	{ "pkg@1.2.3-01", "version" },
	{ "pkg@1.2.3-", "version" },
	{ "pkg@1.2.3-a..b", "version" },
	{ "pkg@^", "version" },
	{ "pkg@~", "version" },
	{ "pkg@^^1", "version" },
	{ "pkg@1.", "version" },
	{ "pkg@1.0.0.0", "version" },
	{ "pkg@-1", "version" },
	{ "pkg@_tag", "version" },
	{ "pkg@latest!", "version" },
	{ "pkg@it's", "version" },
	{ "pkg@$(id)", "version" },
	{ "pkg@1.x-beta", "version" },
};

static const struct spec_case accepted[] = {
	{ "left-pad", NULL },
	{ "left-pad@1.3.0", NULL },
	{ "pkg@1.0.0-beta.1", NULL },
	{ "pkg@0.0.0-rc-1.x", NULL },
	{ "pkg@^1.2.0", NULL },
	{ "pkg@~1.2", NULL },
	{ "pkg@1", NULL },
	{ "pkg@1.x", NULL },
	{ "pkg@1.2.X", NULL },
	{ "pkg@x", NULL },
	{ "pkg@^0.x", NULL },
	{ "pkg@latest", NULL },
	{ "pkg@next-2.x", NULL },
	{ "pkg@v1.2.3", NULL },
	{ "@modelcontextprotocol/server-everything@2025.1.1", NULL },
	{ "@Scope/Pkg@latest", NULL },
	{ "JSONStream@1.3.5", NULL },
	{ "lodash.merge@4.6.2", NULL },
	{ "a_b@1.0.0", NULL },
	{ "x.tgz.js@1.0.0", NULL },
	{ "tgz@1.0.0", NULL },
	{ "pkg@1.0.0-tgz", NULL },
};

static void
run(const struct spec_case *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = 99;
		const char *ver = "unset";
		const char *why = npmspec_refusal(t[i].spec, &len, &ver);
		char q[256];

		guard_quote(q, sizeof q, t[i].spec, 60);
		if (t[i].why)
			ok(why && strstr(why, t[i].why),
			    "refused: '%s' (%s): %s", q, t[i].why,
			    why ? why : "accepted");
		else
			ok(!why && len == strcspn(t[i].spec + 1, "@") + 1,
			    "accepted: '%s' (%s)", q, why ? why : "ok");
	}
}

static void
test_split(void)
{
	size_t n = 0;
	const char *ver = NULL;

	ok(!npmspec_refusal("@s/p@^1.2.0", &n, &ver) && n == 4 &&
	    strcmp(ver, "^1.2.0") == 0, "a scoped spec splits at its "
	    "version's '@'");
	ok(!npmspec_refusal("left-pad", &n, &ver) && n == 8 && ver == NULL,
	    "a spec without a version has none");
}

static void
test_exact(void)
{
	static const char *const exact[] = {
		"0.0.0", "1.2.3", "10.20.30", "1.2.3-beta.1", "1.2.3-0",
		"1.2.3-x-y.0.z", "2025.1.1",
	};
	static const char *const not_exact[] = {
		"1.2", "1", "v1.2.3", "=1.2.3", "^1.2.3", "~1.2.3", "1.2.x",
		"01.2.3", "1.02.3", "1.2.3+b", "1.2.3-01", "1.2.3-", "1.2.3-.a",
		"1.2.3.4", "latest", "", "1.2.3 ",
	};
	size_t i;
	int all;

	for (all = 1, i = 0; i < sizeof exact / sizeof exact[0]; i++)
		all &= npmspec_exact(exact[i]);
	ok(all, "x.y.z[-pre] is exact");
	for (all = 1, i = 0; i < sizeof not_exact / sizeof not_exact[0]; i++)
		all &= !npmspec_exact(not_exact[i]);
	ok(all, "ranges, tags, v/= prefixes, build metadata and leading "
	    "zeros are not exact");
}

int
main(void)
{
	run(refused, sizeof refused / sizeof refused[0]);
	run(accepted, sizeof accepted / sizeof accepted[0]);
	test_split();
	test_exact();
	return tap_done();
}
