#!/bin/sh
# bench/cold.sh - what a cold `airlock sandbox run --lang exec -- /bin/true`
# (and then of `python3 -c pass`)
# adds (a one-off CLI: host probe, view, uid, cgroups, namespaces, mounts,
# Landlock, seccomp, teardown) against what bwrap adds for the same
# namespaces (user, pid, mount, ipc, uts, cgroup, net; read-only /usr,
# fresh /proc and /dev, tmpfs /tmp, uid 65534, clearenv), side by side in
# one run: rounds of every command once, the order rotated (bench/cold.py).
# Issue 24's goal: airlock's added time <= 1.5x bwrap's. Rows: bwrap in
# fresh cgroups (the sandbox's limits: what airlock's cgroups alone add),
# ns mode (the default) and uid mode, and `sandbox call` to a `sandbox
# serve` with an empty pool (no --warm: each call a cold execution in
# the ns jail the service set up at its start; the client's start and
# handshake are in its time, the service's CPU is not in its CPU);
# AIRLOCK_B=PATH adds these rows for another build (an A/B in the same
# run). Knobs: BENCH_RUNS (40), AIRLOCK;
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
serves=
trap 'for p in $serves; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
# uid ranges of our own (see bench/sandbox.sh)
BASE=$((7000000 + ($$ % 4000) * 1000))
BWRAP="bwrap --unshare-all --die-with-parent --new-session --ro-bind /usr /usr
 --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin
 --symlink usr/sbin /sbin --proc /proc --dev /dev --tmpfs /tmp --clearenv
 --uid 65534 --gid 65534 /bin/true"
head -c 48 /dev/urandom >"$W/secret"
chmod 600 "$W/secret"
: >"$W/tool"
# rows NAME BINARY N: its ns and uid rows, each with a state dir and the
# uids of block N and N+1 (a subshell runs it: no count survives), and its
# serve row (the service started below, in the background: a service that
# does not start leaves its calls, and so its row, failing)
rows() {
	n=$3
	for mode in ns uid; do
		echo "$1 $mode=$2 sandbox run --state-dir $W/st-$1-$mode --uid-range $((BASE + n * 100))-$((BASE + n * 100 + 99)) --jail $mode --lang exec -- /bin/true"
		n=$((n + 1))
	done
	echo "$1 serve, empty pool=$2 sandbox call --connect unix:$W/$1.sock --secret-file $W/secret --tenant bench --lang exec -- $W/tool"
}
# serve NAME BINARY UIDS: its service, /bin/true as what exec runs
serve() {
	"$2" sandbox serve --listen "unix:$W/$1.sock" --secret-file "$W/secret" \
		--state-dir "$W/st-$1-serve" --uid-range "$3" \
		--exec-interpreter /bin/true 2>"$W/$1.log" &
	serves="$serves $!"
	i=0
	while [ ! -S "$W/$1.sock" ] && [ $i -lt 100 ] && kill -0 $! 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
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
set -- "$@" $(rows airlock "$AIRLOCK" 0)
[ -n "${AIRLOCK_B:-}" ] && set -- "$@" $(rows airlock-B "$AIRLOCK_B" 2)
IFS=$old_ifs
serve airlock "$AIRLOCK" "$((BASE + 800))-$((BASE + 899))"
[ -n "${AIRLOCK_B:-}" ] && serve airlock-B "$AIRLOCK_B" "$((BASE + 900))-$((BASE + 999))"
echo "## cold sandbox run of /bin/true against bwrap ($RUNS rounds, medians; load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo
python3 bench/cold.py "$RUNS" "$@"
rc=$?
echo
# the issue's second figure: python3 -c pass, run the same three ways
# (an interpreter's start reads some hundred files through the view);
# the system's python3, the sandbox's default (a user's shim on PATH,
# pyenv's, is a script outside the view)
PY=/usr/bin/python3
set -- "plain python3 -c pass=$PY -c pass"
command -v bwrap >/dev/null 2>&1 &&
	set -- "$@" "bwrap=$(echo $BWRAP | sed "s| /bin/true\$| $PY -c pass|")"
for b in "airlock $AIRLOCK 4" ${AIRLOCK_B:+"airlock-B $AIRLOCK_B 5"}; do
	set -- $b "$@"
	name=$1 bin=$2 n=$3
	shift 3
	set -- "$@" "$name ns, python3 -c pass=$bin sandbox run --state-dir $W/st-$name-py --uid-range $((BASE + n * 100))-$((BASE + n * 100 + 99)) --jail ns --lang exec -- $PY -c pass"
done
echo "## cold sandbox run of python3 -c pass against bwrap ($RUNS rounds, medians)"
echo
python3 bench/cold.py "$RUNS" "$@" || rc=1
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
exit $rc
