/* main.c - the multi-call entry point: dispatch on basename(argv[0]), then
 * on argv[1]; plus the built-ins --help, --list, --version, install-links. */
#include <errno.h>
#include <limits.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/xwrap.h"

#include "applets/applet.h"

struct applet {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv);
};

static const struct applet applet_table[] = {
#define APPLET(name, summary) { #name, summary, name##_main },
#include "applets/applets.h"
#undef APPLET
	{ NULL, NULL, NULL }
};

static const struct applet *
applet_find(const char *name)
{
	for (const struct applet *a = applet_table; a->name; a++)
		if (strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

static void
print_list(FILE *out)
{
	for (const struct applet *a = applet_table; a->name; a++)
		fprintf(out, "%-10s %s\n", a->name, a->summary);
}

static int
print_help(void)
{
	printf("usage: airlock APPLET [ARGS...]   or   APPLET [ARGS...] "
	    "(through a link named APPLET)\n"
	    "       airlock --list | --version | --help\n"
	    "       airlock install-links DIR [TARGET]\n\n"
	    "Run code the platform did not write away from its secrets.\n\n"
	    "Applets:\n");
	print_list(stdout);
	printf("\n'airlock APPLET --help' describes each applet.\n"
	    "install-links makes one symlink per applet in DIR pointing at\n"
	    "TARGET (default: this binary) and never replaces anything else.\n\n"
	    "Exit codes (a relay or sandbox passes its child's own status "
	    "through;\nsignal N: 128+N):\n");
	for (const struct exit_code_desc *e = exit_code_table; e->meaning; e++)
		printf("  %3d  %s\n", e->code, e->meaning);
	return EXIT_OK;
}

static int
print_version(void)
{
	const struct scmp_version *v = seccomp_version();

	printf("airlock %s\n", AIRLOCK_VERSION);
	printf("libseccomp %u.%u.%u (Debian source %s)\n", v->major, v->minor,
	    v->micro, SECCOMP_DEB_VERSION);
	printf("BearSSL (Debian source %s)\n", BEARSSL_DEB_VERSION);
	return EXIT_OK;
}

/* 1 if path is a symlink whose target is exactly target, else 0. */
static int
is_own_link(const char *path, const char *target)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof buf);

	return n >= 0 && (size_t)n == strlen(target) &&
	    memcmp(buf, target, (size_t)n) == 0;
}

static int
install_links(int argc, char **argv)
{
	char target[PATH_MAX], path[PATH_MAX];
	const struct applet *a;
	struct stat st;

	if (argc < 2 || argc > 3)
		die(EXIT_USAGE, "usage: airlock install-links DIR [TARGET]");
	if (argc == 3) {
		snprintf(target, sizeof target, "%s", argv[2]);
	} else {
		ssize_t n = readlink("/proc/self/exe", target, sizeof target - 1);

		if (n < 0)
			die_errno(EXIT_OSERR, "cannot find this binary's path "
			    "(/proc/self/exe); give TARGET");
		target[n] = '\0';
	}
	/* Check every name first, so a refusal leaves DIR unchanged. */
	for (a = applet_table; a->name; a++) {
		if ((size_t)snprintf(path, sizeof path, "%s/%s", argv[1],
		    a->name) >= sizeof path)
			die(EXIT_USAGE, "path too long: %s/%s", argv[1], a->name);
		if (lstat(path, &st) == 0 && !is_own_link(path, target))
			die(EXIT_NOPERM, "refusing to replace %s: it is not a "
			    "link to %s", path, target);
		if (lstat(path, &st) != 0 && errno != ENOENT)
			die_errno(EXIT_OSERR, "cannot inspect %s", path);
	}
	for (a = applet_table; a->name; a++) {
		snprintf(path, sizeof path, "%s/%s", argv[1], a->name);
		if (is_own_link(path, target))
			continue;
		if (symlink(target, path) != 0)
			die_errno(EXIT_OSERR, "cannot create %s", path);
		printf("%s -> %s\n", path, target);
	}
	return EXIT_OK;
}

static int
unknown_applet(const char *name)
{
	log_msg(LOG_ERROR, "unknown applet '%s'; the applets are:", name);
	print_list(stderr);
	return EXIT_UNKNOWN_APPLET;
}

int
main(int argc, char **argv)
{
	const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;
	const struct applet *a;

	base = base ? base + 1 : argc > 0 ? argv[0] : "airlock";
	if ((a = applet_find(base))) {
		log_init(a->name);
		return a->main(argc, argv);
	}
	log_init("airlock");
	/* a link named neither like an applet nor like airlock itself */
	if (strncmp(base, "airlock", 7) != 0)
		return unknown_applet(base);
	if (argc < 2) {
		print_help();
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return print_help();
	if (strcmp(argv[1], "--version") == 0)
		return print_version();
	if (strcmp(argv[1], "--list") == 0) {
		print_list(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "install-links") == 0)
		return install_links(argc - 1, argv + 1);
	if ((a = applet_find(argv[1]))) {
		log_init(a->name);
		return a->main(argc - 1, argv + 1);
	}
	return unknown_applet(argv[1]);
}
