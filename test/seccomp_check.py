#!/usr/bin/env python3
"""seccomp_check.py - check airlock's exported Docker/OCI seccomp profile.

usage: seccomp_check.py OURS.json DOCKER.json LIST.txt [CAPS]

OURS.json    `airlock seccomp --export docker`
DOCKER.json  Docker's default profile (test/data/seccomp/)
LIST.txt     `airlock seccomp --program container --list` (tab-separated
             rules of the program the export is)
CAPS         the capabilities the container is given beyond airlock's
             usual three, comma-separated (the runner program's:
             CAP_SYS_ADMIN,CAP_NET_ADMIN); none by default

Prints one line per problem and exits 1, or prints "ok" and exits 0
(statistics go to stderr). Checks:
  1. the profile is well formed for runc/crun: ERRNO default, x86_64 only,
     no entry compares one argument twice (runc would OR them), and no
     syscall mixes an unconditional rule with conditional ones
     (libseccomp drops the conditional ones);
  2. every deny-set name of --list, the deny set the issue requires, and
     the argument rules (socket families, clone flags, ioctl requests,
     with and without high-bit garbage) are denied with their errno;
  3. never looser than Docker: every call the profile allows, Docker's
     profile allows too, to a container on x86_64 with no capabilities.

How Docker's entries are read for (3), i.e. what "Docker allows" means:
  - `includes.caps`: counted only when every capability named is in
    CAPS. Those calls are granted for a capability (CAP_SYS_ADMIN,
    CAP_SYS_PTRACE, ...) that airlock's deployments drop and that the
    jail never has, but for the runner given CAP_SYS_ADMIN.
  - `excludes.caps`: counted unless CAPS names one of them. They apply
    when the capability is absent, which is airlock's case (clone's
    CLONE_NEW* mask rule is one).
With CAP_SYS_ADMIN in CAPS, unshare, setns and mount leave the required
deny set (2): the runner program allows them, within RUNNER_CASES.
  - `includes.arches` counts only when it names amd64; an entry whose
    `excludes.arches` names amd64 is skipped.
  - `includes.minKernel`: counted when the running kernel is at least
    that version.
  - argument-conditional entries: our allowed set must lie inside
    Docker's. Proven when Docker allows the name unconditionally, when a
    Docker entry has exactly our conditions, or when each of our
    conditions is an equality and a Docker entry that tests only those
    arguments accepts those values. Anything else fails as unproven.
"""
import json
import os
import platform
import sys

ERRNO = {"EPERM": 1, "ENOSYS": 38}
M64 = (1 << 64) - 1

CLONE_NEW = {
    "CLONE_NEWNS": 0x00020000, "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000, "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000, "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}
AF = {"AF_UNIX": 1, "AF_INET": 2, "AF_INET6": 10, "AF_NETLINK": 16,
      "AF_PACKET": 17, "AF_VSOCK": 40}
TIOCSTI, TIOCLINUX, TCGETS = 0x5412, 0x541C, 0x5401

# The deny set of the issue (name, errno name).
REQUIRED = [(n, "EPERM") for n in (
    "unshare setns mount umount2 pivot_root fsopen fsconfig fsmount fspick "
    "move_mount open_tree mount_setattr bpf perf_event_open io_uring_setup "
    "io_uring_enter io_uring_register userfaultfd kexec_load "
    "kexec_file_load init_module finit_module delete_module keyctl add_key "
    "request_key ptrace process_vm_readv process_vm_writev kcmp "
    "pidfd_getfd fanotify_init fanotify_mark name_to_handle_at "
    "open_by_handle_at reboot swapon swapoff sethostname setdomainname "
    "syslog acct quotactl quotactl_fd settimeofday clock_settime "
    "clock_adjtime adjtimex iopl ioperm vhangup").split()]
REQUIRED.append(("clone3", "ENOSYS"))

# (name, args, expected): "allow" or an errno name.
ARG_CASES = [("socket", {0: AF["AF_PACKET"]}, "EPERM"),
             ("socket", {0: (1 << 32) | AF["AF_PACKET"]}, "EPERM"),
             ("socket", {0: (0xffffffff << 32) | AF["AF_PACKET"]}, "EPERM"),
             ("socket", {0: AF["AF_VSOCK"]}, "EPERM"),
             ("socket", {0: (1 << 32) | AF["AF_VSOCK"]}, "EPERM"),
             ("socket", {0: AF["AF_INET"], 2: 0}, "allow"),
             ("socket", {0: AF["AF_INET6"], 2: 0}, "allow"),
             ("socket", {0: AF["AF_UNIX"], 2: 0}, "allow"),
             ("socket", {0: AF["AF_NETLINK"], 2: 0}, "allow"),
             ("ioctl", {1: TIOCSTI}, "EPERM"),
             ("ioctl", {1: (1 << 32) | TIOCSTI}, "EPERM"),
             ("ioctl", {1: (0xffffffff << 32) | TIOCSTI}, "EPERM"),
             ("ioctl", {1: TIOCLINUX}, "EPERM"),
             ("ioctl", {1: TCGETS}, "allow"),
             ("ioctl", {1: (0xffffffff << 32) | 0x80045430}, "allow"),
             ("clone", {0: 0x3D0F00}, "allow"),
             ("clone", {0: 0x01200011}, "allow")]
for flag, bit in CLONE_NEW.items():
    ARG_CASES.append(("clone", {0: bit | 17}, "EPERM"))
    ARG_CASES.append(("clone", {0: bit | 0x3D0F00}, "EPERM"))


def kernel_at_least(version):
    want = [int(x) for x in version.split(".")[:2]]
    have = platform.release().split("-")[0].split(".")[:2]
    try:
        return [int(x) for x in have] >= want
    except ValueError:
        return False


# The capabilities beyond SETUID, SETGID, KILL (main sets it from CAPS).
CAPS = set()

# The runner program (CAPS with CAP_SYS_ADMIN): a lease's namespaces only.
RUNNER_ALLOWED = {"unshare", "setns", "mount"}
RUNNER_CASES = [
    ("unshare", {0: CLONE_NEW["CLONE_NEWNET"]}, "allow"),
    ("unshare", {0: CLONE_NEW["CLONE_NEWNS"] | CLONE_NEW["CLONE_NEWIPC"]
                 | CLONE_NEW["CLONE_NEWPID"]}, "allow"),
    ("unshare", {0: CLONE_NEW["CLONE_NEWUSER"]}, "EPERM"),
    ("unshare", {0: CLONE_NEW["CLONE_NEWUSER"] | CLONE_NEW["CLONE_NEWNET"]},
     "EPERM"),
    ("unshare", {0: CLONE_NEW["CLONE_NEWUTS"]}, "EPERM"),
    ("unshare", {0: CLONE_NEW["CLONE_NEWCGROUP"]}, "EPERM"),
    ("unshare", {0: (1 << 32) | CLONE_NEW["CLONE_NEWNET"]}, "ENOSYS"),
    ("setns", {1: CLONE_NEW["CLONE_NEWNET"]}, "allow"),
    ("setns", {1: CLONE_NEW["CLONE_NEWUSER"]}, "ENOSYS"),
    ("setns", {1: 0}, "ENOSYS"),
]


def docker_applies(entry):
    """Does a Docker entry apply on amd64 to a container with CAPS?"""
    inc = entry.get("includes") or {}
    exc = entry.get("excludes") or {}
    if inc.get("caps") and not set(inc["caps"]) <= CAPS:
        return False
    if exc.get("caps") and set(exc["caps"]) & CAPS:
        return False
    if inc.get("arches") and "amd64" not in inc["arches"]:
        return False
    if exc.get("arches") and "amd64" in exc["arches"]:
        return False
    if inc.get("minKernel") and not kernel_at_least(inc["minKernel"]):
        return False
    return True


def cond_true(cond, args):
    v = args.get(cond["index"], 0) & M64
    a, b = cond["value"], cond.get("valueTwo", 0)
    op = cond["op"]
    return {"SCMP_CMP_EQ": v == a, "SCMP_CMP_NE": v != a,
            "SCMP_CMP_LT": v < a, "SCMP_CMP_LE": v <= a,
            "SCMP_CMP_GT": v > a, "SCMP_CMP_GE": v >= a,
            "SCMP_CMP_MASKED_EQ": (v & a) == b}[op]


def outcome(entry):
    if entry["action"] == "SCMP_ACT_ALLOW":
        return "allow"
    return "errno %d" % entry.get("errnoRet", 1)


def entries_for(profile, name, docker=False):
    return [e for e in profile["syscalls"]
            if name in e.get("names", [])
            and (not docker or docker_applies(e))]


def evaluate(profile, name, args, docker=False):
    """libseccomp's answer: an unconditional rule wins; else the matching
    conditional rules (which must agree); else the default."""
    rules = entries_for(profile, name, docker)
    uncond = [outcome(e) for e in rules if not e.get("args")]
    if uncond:
        return uncond[0] if len(set(uncond)) == 1 else "conflict"
    hits = {outcome(e) for e in rules
            if all(cond_true(c, args) for c in e["args"])}
    if len(hits) > 1:
        return "conflict"
    if hits:
        return hits.pop()
    return "errno %d" % profile.get("defaultErrnoRet", 1)


def want(expected):
    return "allow" if expected == "allow" else "errno %d" % ERRNO[expected]


def check_form(ours, problems):
    if ours.get("defaultAction") != "SCMP_ACT_ERRNO":
        problems.append("defaultAction is %r, not SCMP_ACT_ERRNO"
                        % ours.get("defaultAction"))
    if ours.get("architectures") != ["SCMP_ARCH_X86_64"]:
        problems.append("architectures is %r" % ours.get("architectures"))
    by_name = {}
    for e in ours["syscalls"]:
        if e["action"] not in ("SCMP_ACT_ALLOW", "SCMP_ACT_ERRNO"):
            problems.append("%s: unexpected action %s"
                            % (e["names"], e["action"]))
        idx = [c["index"] for c in e.get("args") or []]
        if len(idx) != len(set(idx)):
            problems.append("%s: compares one argument twice" % e["names"])
        for n in e["names"]:
            by_name.setdefault(n, []).append(e)
    for n, es in by_name.items():
        if len(es) > 1 and any(not e.get("args") for e in es):
            problems.append("%s: an unconditional rule next to others" % n)
    return by_name


def check_denied(ours, lines, problems):
    denied = 0
    for f in lines:
        if f[0] == "deny":
            name, err = f[1], f[2]
            got = evaluate(ours, name, {})
            if got != want(err):
                problems.append("deny-set %s: profile gives %s, not %s"
                                % (name, got, err))
            denied += 1
        elif f[0] == "args" and f[2] == "deny":
            if not any(e["action"] == "SCMP_ACT_ERRNO"
                       for e in entries_for(ours, f[1])):
                problems.append("%s: argument deny rule missing" % f[1])
    runner = "CAP_SYS_ADMIN" in CAPS
    for name, err in REQUIRED:
        if runner and name in RUNNER_ALLOWED:
            continue
        got = evaluate(ours, name, {})
        if got != want(err):
            problems.append("required %s: profile gives %s, not %s"
                            % (name, got, err))
    for name, args, expected in ARG_CASES + (RUNNER_CASES if runner
                                             else []):
        got = evaluate(ours, name, args)
        if got != want(expected):
            problems.append("%s%r: profile gives %s, not %s"
                            % (name, args, got, expected))
    return denied


def docker_allows_cond(docker, name, entry):
    """Is everything `entry` (one of our conditional allows) allows also
    allowed by Docker? See the module docstring for the rule."""
    rules = entries_for(docker, name, docker=True)
    allows = [e for e in rules if e["action"] == "SCMP_ACT_ALLOW"]
    if any(not e.get("args") for e in allows):
        return True
    ours = sorted((c["index"], c["op"], c["value"], c.get("valueTwo", 0))
                  for c in entry["args"])
    for e in allows:
        theirs = sorted((c["index"], c["op"], c["value"],
                         c.get("valueTwo", 0)) for c in e["args"])
        if theirs == ours:
            return True
    if all(c["op"] == "SCMP_CMP_EQ" for c in entry["args"]):
        fixed = {c["index"]: c["value"] for c in entry["args"]}
        for e in allows:
            if all(c["index"] in fixed for c in e["args"]) and \
                    all(cond_true(c, fixed) for c in e["args"]):
                return True
    return False


def check_subset(ours, docker, problems):
    uncond = conditional = 0
    for e in ours["syscalls"]:
        if e["action"] != "SCMP_ACT_ALLOW":
            continue
        for name in e["names"]:
            if not e.get("args"):
                uncond += 1
                if evaluate(docker, name, {}, docker=True) != "allow" or \
                        any(d.get("args") for d in
                            entries_for(docker, name, docker=True)):
                    problems.append("%s: allowed here, not unconditionally "
                                    "by Docker" % name)
            else:
                conditional += 1
                if not docker_allows_cond(docker, name, e):
                    problems.append("%s %r: allowed here, not provably by "
                                    "Docker" % (name, e["args"]))
    return uncond, conditional


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 64
    if len(argv) == 5:
        CAPS.update(c for c in argv[4].split(",") if c)
    with open(argv[1]) as f:
        ours = json.load(f)
    with open(argv[2]) as f:
        docker = json.load(f)
    with open(argv[3]) as f:
        lines = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    problems = []
    check_form(ours, problems)
    denied = check_denied(ours, lines, problems)
    uncond, conditional = check_subset(ours, docker, problems)
    docker_uncond = {n for e in docker["syscalls"]
                     if docker_applies(e) and not e.get("args")
                     and e["action"] == "SCMP_ACT_ALLOW"
                     for n in e["names"]}
    print("%s: %d allowed unconditionally (Docker: %d names, on amd64 "
          "with %s, many of them 32-bit only), %d argument "
          "allow rules, %d denied names"
          % (os.path.basename(argv[1]), uncond, len(docker_uncond),
             ",".join(sorted(CAPS)) or "no capabilities", conditional,
             denied), file=sys.stderr)
    seen = set()
    for p in problems:
        if p not in seen:
            print(p)
            seen.add(p)
    if problems:
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
