/* jail_creds.c - a jailed child's ids and capabilities (jail_creds.h). */
#include "common/jail/jail_creds.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/base/fileio.h"

#define SECBITS_LOCKED 0xEBu	/* NOROOT, NO_SETUID_FIXUP off, KEEP_CAPS
				 * off, NO_CAP_AMBIENT_RAISE: all locked */

static int
caps_get(struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	return (int)syscall(SYS_capget, &h, d);
}

/* From capget(2), not /proc/self/status: nothing to parse, and no
 * "Groups:" line long enough to push CapEff out of a read. */
uint64_t
jail_caps_effective(void)
{
	struct __user_cap_data_struct d[2];

	if (caps_get(d) != 0)
		return 0;
	return (uint64_t)d[1].effective << 32 | d[0].effective;
}

static int
caps_set(uint64_t eff, uint64_t perm, uint64_t inh)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	d[0].effective = (uint32_t)eff;
	d[1].effective = (uint32_t)(eff >> 32);
	d[0].permitted = (uint32_t)perm;
	d[1].permitted = (uint32_t)(perm >> 32);
	d[0].inheritable = (uint32_t)inh;
	d[1].inheritable = (uint32_t)(inh >> 32);
	return (int)syscall(SYS_capset, &h, d);
}

/* Drop every capability for good: the bounding set and the securebits
 * lock need CAP_SETPCAP (held in ns mode inside the user namespace; in
 * uid mode only when the service has it); ambient and the three sets
 * need nothing. */
int
jail_caps_drop(int have_setpcap)
{
	if (have_setpcap) {
		if (caps_set(JAIL_CAP_BIT(CAP_SETPCAP),
		    JAIL_CAP_BIT(CAP_SETPCAP), 0) != 0)
			return -1;
		int c = 0;

		/* up to the first capability the kernel does not know
		 * (EINVAL): one call per capability, not a read and a drop */
		while (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) == 0)
			c++;
		if (c == 0 || errno != EINVAL)
			return -1;
		if (prctl(PR_SET_SECUREBITS, SECBITS_LOCKED, 0, 0, 0) != 0)
			return -1;
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0)
		return -1;
	return caps_set(0, 0, 0);
}

int
jail_caps_only(uint64_t keep)
{
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0)
		return -1;
	return caps_set(keep, keep, 0);
}

/* Root and capabilities must be gone for good. */
int
jail_creds_verify_dropped(uid_t uid, gid_t gid)
{
	struct __user_cap_data_struct d[2];
	uid_t r, e, s;
	gid_t gr, ge, gs;

	if (setresuid(0, 0, 0) == 0 || setresgid(0, 0, 0) == 0 ||
	    setuid(0) == 0) {
		errno = EPERM;
		return -1;
	}
	if (getresuid(&r, &e, &s) != 0 || r != uid || e != uid || s != uid ||
	    getresgid(&gr, &ge, &gs) != 0 || gr != gid || ge != gid ||
	    gs != gid || getgroups(0, NULL) != 0 || caps_get(d) != 0 ||
	    d[0].effective || d[1].effective || d[0].permitted ||
	    d[1].permitted || d[0].inheritable || d[1].inheritable ||
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_SETUID, 0, 0)
	    != 0) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

int
jail_creds_write_maps(uid_t uid, gid_t gid)
{
	char map[64];

	/* the maps of a non-dumpable process belong to root: become
	 * dumpable just long enough to write our own */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0)
		return -1;
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	if (file_write_str("/proc/self/setgroups", "deny") != 0 ||
	    file_write_str("/proc/self/uid_map", map) != 0)
		return -1;
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	if (file_write_str("/proc/self/gid_map", map) != 0)
		return -1;
	return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}
