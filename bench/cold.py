# cold.py - bench/cold.sh's driver: ROUNDS rounds, each running every
# command once (the order rotated each round, so a change of the
# machine's load falls on all of them alike); per command the median wall
# time (spawn to reaped) and the median CPU time (user + system of the
# command and every descendant it reaped, from wait4). A command that
# fails is an error row, with its exit status and stderr's end, and the
# script exits 1.
#
#   python3 bench/cold.py ROUNDS LABEL=COMMAND...   (COMMAND split on spaces)
#
# The first command is the baseline (plain /bin/true), the second the one
# compared against (bwrap): "added" is a median minus the baseline's, and
# the ratio is added / bwrap's added.
import os
import statistics
import sys
import time


def run(argv):
    """Wall and CPU seconds of one run, or an error string."""
    err_r, err_w = os.pipe()
    t0 = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[
        (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
        (os.POSIX_SPAWN_DUP2, err_w, 2)])
    os.close(err_w)
    tail = b""
    while True:
        chunk = os.read(err_r, 65536)
        if not chunk:
            break
        tail = (tail + chunk)[-300:]
    os.close(err_r)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        return "exit status %d: %s" % (os.waitstatus_to_exitcode(status),
                                       tail.decode(errors="replace").strip()
                                       .replace("\n", " ")[-200:])
    return wall, ru.ru_utime + ru.ru_stime


def main():
    rounds = int(sys.argv[1])
    cmds = [a.split("=", 1) for a in sys.argv[2:]]
    walls = {label: [] for label, _ in cmds}
    cpus = {label: [] for label, _ in cmds}
    errors = {}
    for r in range(rounds + 1):     # round 0 warms the page cache
        for i in range(len(cmds)):
            label, cmd = cmds[(i + r) % len(cmds)]
            if label in errors:
                continue
            got = run(cmd.split())
            if isinstance(got, str):
                errors[label] = got
            elif r > 0:
                walls[label].append(got[0])
                cpus[label].append(got[1])
    med = {label: (statistics.median(walls[label]) * 1000,
                   statistics.median(cpus[label]) * 1000)
           for label, _ in cmds if label not in errors and walls[label]}
    base, ref = cmds[0][0], cmds[1][0]
    print("| command | wall | added | x bwrap's added | CPU | added CPU | x bwrap's added CPU |")
    print("|---|---|---|---|---|---|---|")
    for label, _ in cmds:
        if label in errors:
            print("| %s | **error**: %s | - | - | - | - | - |"
                  % (label, errors[label]))
            continue
        w, c = med[label]
        cells = ["%.1f ms" % w, "-", "-", "%.1f ms" % c, "-", "-"]
        if base in med and label != base:
            aw, ac = w - med[base][0], c - med[base][1]
            cells[1], cells[4] = "%.1f ms" % aw, "%.1f ms" % ac
            if ref in med and med[ref][0] > med[base][0]:
                cells[2] = "%.2f" % (aw / (med[ref][0] - med[base][0]))
            if ref in med and med[ref][1] > med[base][1]:
                cells[5] = "%.2f" % (ac / (med[ref][1] - med[base][1]))
        print("| %s | %s |" % (label, " | ".join(cells)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
