/* fileio.h - whole-file reads with a size cap, and writes that a crash
 * can never leave half done: the old bytes or the new, never a mix. */
#ifndef AIRLOCK_FILEIO_H
#define AIRLOCK_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Read the regular file path (symlinks followed) as it is when opened
 * into a new buffer the caller frees; a NUL is appended but not counted
 * in *len. Returns 0, or -1 with errno (EFBIG: larger than cap, EINVAL:
 * not a regular file). */
int file_read(const char *path, size_t cap, uint8_t **buf, size_t *len);

/* file_read into first (first_len bytes) when the file and its NUL fit
 * there, else into a new buffer: *buf is first, or one the caller frees. */
int file_read_in(const char *path, size_t cap, uint8_t *first,
    size_t first_len, uint8_t **buf, size_t *len);

/* Replace path with data: write DIR/.NAME.tmp, fsync, rename over path,
 * fsync DIR. The caller serialises writers of one path (a lock).
 * Returns 0, or -1 with errno; path is unchanged on failure. */
int file_replace(const char *path, const void *data, size_t len,
    mode_t mode);

/* Create path with exactly mode and data; EEXIST if anything is there
 * (a symlink included). Returns 0, or -1 with errno and nothing left. */
int file_create(const char *path, const void *data, size_t len,
    mode_t mode);

/* Write all of data to fd, retrying short writes and EINTR: 0, or -1
 * with errno. */
int file_write_all(int fd, const void *data, size_t len);

/* fsync the directory holding path, so a rename or create is durable. */
int file_sync_dir(const char *path);

/* Kernel files (/proc, cgroupfs), also between fork and exec: only
 * open/read/write/close, no allocation. */

/* Read path into buf (at most len - 1 bytes, then a NUL): the length,
 * or -1 with errno. */
ssize_t file_read_small(const char *path, char *buf, size_t len);

/* Write s to the existing file path in one write(2), as the kernel
 * takes such values: 0, or -1 with errno (EIO for a short write). */
int file_write_str(const char *path, const char *s);

/* Read a kernel file whose size says 0 (/proc/self/mountinfo,
 * /proc/sysvipc/shm) to its end into a new buffer the caller frees, a NUL
 * appended but not counted in *len: 0, or -1 with errno (EFBIG: more than
 * cap bytes). Allocates: not between fork and exec. */
int file_read_kernel(const char *path, size_t cap, char **buf, size_t *len);

/* file_read_kernel starting in first (first_len bytes, the NUL
 * included), moving to a new buffer only when the text outgrows it (a
 * text of first_len - 1 bytes stays): *buf is first, or one the caller
 * frees. */
int file_read_kernel_in(const char *path, size_t cap, char *first,
    size_t first_len, char **buf, size_t *len);

#endif
