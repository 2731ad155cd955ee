/* jailview.h - what a jailed lease sees of the host's files: one list that
 * is both the ns root view (each entry bound read-only at its own path,
 * each symlink met on the way made again) and Landlock's read + execute
 * set in uid and ns modes.
 *
 * The list is minimal on purpose: the shell, env and the POSIX file and
 * text tools (coreutils' basics, sed, grep, find; no network tool, no
 * compiler), the loader's
 * directory (the C library and the system's shared libraries), CA
 * certificates, time zones, locales, the resolver's and the loader's
 * configuration files; then for each launcher its own files: the binary
 * (and the interpreter of a script), and its install prefix when that
 * prefix is its own (a JDK, npm's package directory), or, under a shared
 * prefix (/usr, /usr/local, /), only the prefix's lib/ and share/
 * entries named after it (node_modules, python3.11); then every extra
 * path as given (a directory of symlinks only, as its links). Not /usr,
 * not /usr/local, not the PATH directories. */
#ifndef AIRLOCK_JAILVIEW_H
#define AIRLOCK_JAILVIEW_H

#include <stddef.h>

#define JAIL_VIEW_PATHS_MAX 128	/* Landlock's list adds a few */
#define JAIL_VIEW_LINKS_MAX 64
#define JAIL_VIEW_DIRS_MAX 32
#define JAIL_VIEW_LAUNCHERS_MAX 16

struct jail_view {
	char *ro[JAIL_VIEW_PATHS_MAX];	/* real paths, files or directories,
					 * none inside another */
	unsigned char ro_dir[JAIL_VIEW_PATHS_MAX]; /* 1: ro[i] was a
					 * directory when the list was built */
	size_t nro;
	char *links[JAIL_VIEW_LINKS_MAX]; /* symlinks, at their real place
					 * (no symlink above them), none
					 * inside an ro entry */
	size_t nlinks;
	/* while building: directories met that are no symlink, and the
	 * path of the last ELF loader added: not looked at again */
	const char *dirs[JAIL_VIEW_DIRS_MAX];
	size_t ndirs;
	const char *loader;
	/* launchers' names under a shared prefix (its index), their
	 * entries there added once all are known */
	const char *named[JAIL_VIEW_LAUNCHERS_MAX];
	unsigned char named_prefix[JAIL_VIEW_LAUNCHERS_MAX];
	size_t nnamed;
	char buf[13312];		/* storage of the strings above */
	size_t len;
};

struct jail_view_spec {
	const char *path;		/* where launcher names are looked up */
	const char *const *launchers;	/* names on path, or absolute paths;
					 * one not found is skipped */
	size_t nlaunchers;
	const char *const *extra;	/* absolute paths, bound whole; each
					 * must exist */
	size_t nextra;
};

/* Build the list. 0, or -1 with a message (an extra path that is not
 * absolute or missing; a list too long). */
int jail_view_build(struct jail_view *v, const struct jail_view_spec *s,
    char *err, size_t errlen);

/* The ro entry that path (a real path) is or is inside; NULL if none. */
const char *jail_view_covered(const struct jail_view *v, const char *path);

#endif
