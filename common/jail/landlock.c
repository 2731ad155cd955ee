/* landlock.c - the Landlock ABI probe and the child's ruleset. */
#include "common/jail/landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The UAPI of Documentation/userspace-api/landlock.rst, ABI 1..7. */
#define LL_SYS_CREATE_RULESET 444
#define LL_SYS_ADD_RULE 445
#define LL_SYS_RESTRICT_SELF 446
#define LL_CREATE_RULESET_VERSION (1u << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_RULE_NET_PORT 2

#define LL_FS_EXECUTE (1ull << 0)
#define LL_FS_WRITE_FILE (1ull << 1)
#define LL_FS_READ_FILE (1ull << 2)
#define LL_FS_READ_DIR (1ull << 3)
#define LL_FS_REFER (1ull << 13)	/* ABI 2 */
#define LL_FS_TRUNCATE (1ull << 14)	/* ABI 3 */
#define LL_FS_IOCTL_DEV (1ull << 15)	/* ABI 5 */
#define LL_FS_ABI1 ((1ull << 13) - 1)	/* EXECUTE .. MAKE_SYM */

#define LL_NET_BIND_TCP (1ull << 0)	/* ABI 4 */
#define LL_NET_CONNECT_TCP (1ull << 1)

#define LL_SCOPE_ABSTRACT_UNIX (1ull << 0)	/* ABI 6 */
#define LL_SCOPE_SIGNAL (1ull << 1)

struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

struct ll_net_port {
	uint64_t allowed_access;
	uint64_t port;
};

static const struct {
	unsigned bit, abi;
	const char *name;
} features[] = {
	{ LANDLOCK_FEAT_FS, 1, "file-system rules" },
	{ LANDLOCK_FEAT_TRUNCATE, 3, "truncate control" },
	{ LANDLOCK_FEAT_BIND, 4, "TCP bind denial" },
	{ LANDLOCK_FEAT_CONNECT, 4, "TCP connect port allowlist" },
	{ LANDLOCK_FEAT_SCOPE_SIGNAL, 6, "signal scoping" },
	{ LANDLOCK_FEAT_SCOPE_ABSTRACT, 6, "abstract unix socket scoping" },
};

unsigned
landlock_abi(const char **why)
{
	long v = syscall(LL_SYS_CREATE_RULESET, NULL, 0,
	    LL_CREATE_RULESET_VERSION);

	if (v > 0)
		return (unsigned)v;
	if (why)
		*why = errno == EOPNOTSUPP ? "Landlock is built in but not "
		    "enabled (boot with lsm=...,landlock)" : errno == ENOSYS ?
		    "the kernel has no Landlock (needs 5.13 or newer, "
		    "CONFIG_SECURITY_LANDLOCK)" : errno == EPERM ?
		    "the Landlock syscalls are blocked (a seccomp profile?)" :
		    "the Landlock ABI probe failed";
	return 0;
}

unsigned
landlock_abi_needed(unsigned want)
{
	unsigned abi = 0;

	for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
		if ((want & features[i].bit) && features[i].abi > abi)
			abi = features[i].abi;
	return abi;
}

unsigned
landlock_missing(unsigned want, unsigned abi)
{
	unsigned miss = 0;

	for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
		if ((want & features[i].bit) && features[i].abi > abi)
			miss |= features[i].bit;
	return miss;
}

char *
landlock_feature_names(unsigned set, char *buf, size_t len)
{
	size_t off = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof features / sizeof features[0]; i++) {
		int n;

		if (!(set & features[i].bit))
			continue;
		n = snprintf(buf + off, len - off, "%s%s (ABI %u)",
		    off ? ", " : "", features[i].name, features[i].abi);
		if (n < 0 || (size_t)n >= len - off)
			break;
		off += (size_t)n;
	}
	return buf;
}

static uint64_t
fs_handled(unsigned abi, unsigned feat)
{
	uint64_t h = LL_FS_ABI1;

	if (abi >= 2)
		h |= LL_FS_REFER;
	if (abi >= 3 && (feat & LANDLOCK_FEAT_TRUNCATE))
		h |= LL_FS_TRUNCATE;
	if (abi >= 5)
		h |= LL_FS_IOCTL_DEV;
	return h;
}

/* Rights that apply to a non-directory: Landlock refuses the others. */
#define LL_FS_FILE_RIGHTS (LL_FS_EXECUTE | LL_FS_WRITE_FILE | \
	LL_FS_READ_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV)

static int
add_path(int ruleset, const char *path, uint64_t access, uint64_t handled)
{
	struct ll_path_beneath pb;
	struct stat st;
	/* openat: musl's open() adds an fcntl per O_CLOEXEC open, and a
	 * jail adds a rule per path of the view */
	int fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
	int rc;

	if (fd < 0)	/* missing or out of reach: only ever less access */
		return errno == ENOENT || errno == EACCES ? 0 : -1;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	pb.allowed_access = access & handled;
	if (!S_ISDIR(st.st_mode))
		pb.allowed_access &= LL_FS_FILE_RIGHTS;
	pb.parent_fd = fd;
	rc = (int)syscall(LL_SYS_ADD_RULE, ruleset, LL_RULE_PATH_BENEATH, &pb,
	    0);
	close(fd);
	return rc == 0 ? 0 : -1;
}

int
landlock_apply(const struct landlock_spec *s, const char **step)
{
	struct ll_ruleset_attr attr;
	size_t attr_len = sizeof attr;
	uint64_t ro = LL_FS_EXECUTE | LL_FS_READ_FILE | LL_FS_READ_DIR;
	int fd, e;

	memset(&attr, 0, sizeof attr);
	*step = "landlock-ruleset";
	if (s->abi == 0 || landlock_missing(s->features, s->abi)) {
		errno = EINVAL;	/* the caller promised features it lacks */
		return -1;
	}
	if (s->features & LANDLOCK_FEAT_FS)
		attr.handled_access_fs = fs_handled(s->abi, s->features);
	if (s->features & LANDLOCK_FEAT_BIND)
		attr.handled_access_net |= LL_NET_BIND_TCP;
	if (s->features & LANDLOCK_FEAT_CONNECT)
		attr.handled_access_net |= LL_NET_CONNECT_TCP;
	if (s->features & LANDLOCK_FEAT_SCOPE_SIGNAL)
		attr.scoped |= LL_SCOPE_SIGNAL;
	if (s->features & LANDLOCK_FEAT_SCOPE_ABSTRACT)
		attr.scoped |= LL_SCOPE_ABSTRACT_UNIX;
	/* older kernels reject a longer struct only if its tail is non-zero,
	 * but pass the size each ABI defined to be exact */
	if (s->abi < 4)
		attr_len = 8;
	else if (s->abi < 6)
		attr_len = 16;
	fd = (int)syscall(LL_SYS_CREATE_RULESET, &attr, attr_len, 0);
	if (fd < 0)
		return -1;
	*step = "landlock-rule";
	if (attr.handled_access_fs) {
		for (size_t i = 0; i < s->nro; i++)
			if (add_path(fd, s->ro[i], ro, attr.handled_access_fs))
				goto fail;
		for (size_t i = 0; i < s->nrw; i++)
			if (add_path(fd, s->rw[i], attr.handled_access_fs,
			    attr.handled_access_fs))
				goto fail;
	}
	if (attr.handled_access_net & LL_NET_CONNECT_TCP) {
		for (size_t i = 0; i < s->nports; i++) {
			struct ll_net_port np = { LL_NET_CONNECT_TCP,
				s->ports[i] };

			if (syscall(LL_SYS_ADD_RULE, fd, LL_RULE_NET_PORT, &np,
			    0) != 0)
				goto fail;
		}
	}
	*step = "landlock-restrict";
	if (syscall(LL_SYS_RESTRICT_SELF, fd, 0) != 0)
		goto fail;
	close(fd);
	return 0;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}
