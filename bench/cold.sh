#!/bin/sh
# bench/cold.sh - what a cold `airlock sandbox run --lang exec -- /bin/true`
# adds (a one-off CLI: host probe, view, uid, cgroups, namespaces, mounts,
# Landlock, seccomp, teardown) against what bwrap adds for the same
# namespaces (user, pid, mount, ipc, uts, cgroup, net; read-only /usr,
# fresh /proc and /dev, tmpfs /tmp, uid 65534, clearenv), side by side in
# one run: rounds of every command once, the order rotated (bench/cold.py).
# Issue 24's goal: airlock's added time <= 1.5x bwrap's. Rows: bwrap in
# fresh cgroups (the sandbox's limits: what airlock's cgroups alone add),
# ns mode (the default) and uid mode; AIRLOCK_B=PATH adds both rows for another
# build (an A/B in the same run). Knobs: BENCH_RUNS (40), AIRLOCK;
# BENCH_SMOKE=1 (two rounds: does every row run?). Not a test: nothing is
# asserted; a row that fails is an error row and the script exits 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
AIRLOCK=${AIRLOCK:-$top/airlock}
RUNS=${BENCH_RUNS:-40}
[ "${BENCH_SMOKE:-0}" = 1 ] && RUNS=2
# the sandbox refuses a state directory below one others can write
. "$top/scripts/scratch.sh"
scratch_root airlock-bench || exit 1
W=$(mktemp -d "$SCRATCH_ROOT/airlock-cold-bench.XXXXXX") || exit 1
chmod 711 "$W"
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
# uid ranges of our own (see bench/sandbox.sh)
BASE=$((7000000 + ($$ % 4000) * 1000))
BWRAP="bwrap --unshare-all --die-with-parent --new-session --ro-bind /usr /usr
 --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin
 --symlink usr/sbin /sbin --proc /proc --dev /dev --tmpfs /tmp --clearenv
 --uid 65534 --gid 65534 /bin/true"
# rows NAME BINARY: its ns and uid rows, each with a state dir and uids
n=0
rows() {
	for mode in ns uid; do
		echo "$1 $mode=$2 sandbox run --state-dir $W/st-$1-$mode --uid-range $((BASE + n * 100))-$((BASE + n * 100 + 99)) --jail $mode --lang exec -- /bin/true"
		n=$((n + 1))
	done
}
set -- "plain /bin/true=/bin/true"
command -v bwrap >/dev/null 2>&1 &&
	set -- "$@" "bwrap=$(echo $BWRAP)"
# the like-for-like peer: that bwrap in fresh cgroups with the sandbox's
# default limits, made by airlock's own cgroup code (test/helpers/cgrun,
# as bench/sandbox.sh); a row for comparison, the ratios stay bwrap's
CGRUN=$top/build/test/helpers/cgrun
command -v bwrap >/dev/null 2>&1 && [ -x "$CGRUN" ] &&
	set -- "$@" "bwrap in fresh cgroups=$CGRUN -- $(echo $BWRAP)"
old_ifs=$IFS
IFS='
'
set -- "$@" $(rows airlock "$AIRLOCK")
[ -n "${AIRLOCK_B:-}" ] && set -- "$@" $(rows airlock-B "$AIRLOCK_B")
IFS=$old_ifs
echo "## cold sandbox run of /bin/true against bwrap ($RUNS rounds, medians; load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo
python3 bench/cold.py "$RUNS" "$@"
rc=$?
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
exit $rc
