/* guardfs.h - the guard's file-system half, used by the runner: what the
 * pure guard (guard.h) cannot know without looking at the disk.
 *   - a --script-dir is a real directory only its owner can change;
 *   - each script path the guard accepted is, on disk, the canonical
 *     path of a regular file (no symlink, so it stays below its dir);
 *   - a launcher that looks a command word up on PATH gets a PATH of one
 *     directory holding only the launchers, so that word can only be a
 *     bin the launcher itself put first on PATH. */
#ifndef AIRLOCK_GUARDFS_H
#define AIRLOCK_GUARDFS_H

#include <stddef.h>

#include "common/policy/guard.h"

/* 0 when dir is a directory, realpath(dir) is dir itself, owned by root
 * or by us and writable by nobody else, and so is every directory above
 * it; else -1 and a message in err. */
int guardfs_script_dir_ok(const char *dir, char *err, size_t errlen);

/* 0 when every script res names (res from a GUARD_OK check of argv) is a
 * regular file whose realpath is the path as written; else -1 and a
 * message in err naming the argument. */
int guardfs_check_scripts(const struct guard_result *res,
    const char *const *argv, char *err, size_t errlen);

/* Make dir afresh holding one symlink per launcher the guard knows, and
 * sh (npm runs commands with it), that is found on path (the runner's
 * PATH), read-only (0555) to everyone; dir is then the PATH a lease gets
 * when guard_result.path_lookup is set. The new directory is built beside
 * dir and swapped in at once (RENAME_EXCHANGE), so a live runner sharing
 * the state directory never sees it missing or half made. check_only: it
 * is built and removed again, dir untouched. 0, or -1 and a message. */
int guardfs_launcher_dir(const char *dir, const char *path, int check_only,
    char *err, size_t errlen);

#endif
