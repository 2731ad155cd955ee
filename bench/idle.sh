#!/bin/sh
# idle.sh - capacity: N concurrent idle leases (default 1000) on one
# runner, each a small child (test/helpers/lease_tool sleeping) behind its
# own relay, and what the runner's side costs per idle lease: the PSS of
# the runner's process tree (supervisor, pre-auth, handlers; the children
# are not the runner's cost) divided by N, its task count, and how long the
# N leases took to come up, and the kernel's own memory they hold (slab,
# per-CPU, kernel stacks and page tables of the whole host, before and
# after: a network namespace per lease is mostly there; other work on the
# host moves it too). Numbers are printed, never asserted; when the
# runner or a lease does not come up, it says why and exits 1.
#
#   sh bench/idle.sh                      (make airlock and the helpers first)
#   BENCH_IDLE_N=200 BENCH_IDLE_JAIL=uid sh bench/idle.sh
#   BENCH_IDLE_ARGS=--shared-network BENCH_IDLE_JAIL=uid sh bench/idle.sh
#   BENCH_SMOKE=1 sh bench/idle.sh        (10 leases: does it run?)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
A=${AIRLOCK:-$top/airlock}
N=${BENCH_IDLE_N:-1000}
[ "${BENCH_SMOKE:-0}" = 1 ] && N=${BENCH_IDLE_N:-10}
MODE=${BENCH_IDLE_JAIL:-none}
TOOL=$top/build/test/helpers/lease_tool
[ -x "$A" ] && [ -x "$TOOL" ] || make airlock build/test/helpers/lease_tool >/dev/null || exit 1
# the runner refuses a --script-dir below a directory others can write
. "$top/scripts/scratch.sh"
scratch_root airlock-bench || exit 1
W=$(mktemp -d "$SCRATCH_ROOT/airlock-bench-idle.XXXXXX") || exit 1
chmod 711 "$W"
mkdir -p "$W/bin" "$W/sc"
ln -s "$TOOL" "$W/bin/node"
touch "$W/sc/sleep"
head -c 48 /dev/urandom >"$W/secret"
chmod 600 "$W/secret"
RUNNER= relays=
# the relays first (each lease ends with its connection), then the runner,
# which stops its leases' children
cleanup() {
	for p in $relays; do kill "$p" 2>/dev/null; done
	for p in $relays; do wait "$p" 2>/dev/null; done
	[ -n "$RUNNER" ] && kill -INT "$RUNNER" 2>/dev/null && wait "$RUNNER" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

BASE=$((8000000 + ($$ % 4000) * 2000))
jail_args="--jail none"
[ "$MODE" != none ] && jail_args="--jail $MODE --uid-range $BASE-$((BASE + N + 99)) --uid-unit lease --memory 0 --pids 0 ${BENCH_IDLE_ARGS:-}"
PATH=$W/bin:/usr/bin:/bin "$A" runner --listen "unix:$W/r.sock" \
	--secret-file "$W/secret" --state-dir "$W/state" --script-dir "$W/sc" \
	--max-leases $((N + 50)) --max-leases-per-tenant $((N + 50)) \
	--max-conns-per-peer $((N + 50)) $jail_args 2>"$W/runner.log" &
RUNNER=$!
i=0
while [ ! -S "$W/r.sock" ] && [ $i -lt 200 ] && kill -0 "$RUNNER" 2>/dev/null; do
	sleep 0.05
	i=$((i + 1))
done
if [ ! -S "$W/r.sock" ]; then
	echo "idle: error: the runner did not start: $(tail -n 3 "$W/runner.log" | tr '\n' ' ')"
	exit 1
fi

# runner_pss: the PSS (KiB) of the runner and its descendants that are
# airlock processes (not the leases' children)
runner_pss() {
	python3 - "$RUNNER" <<'EOF'
import os, sys
root = int(sys.argv[1])
kids = {}
for p in os.listdir("/proc"):
    if not p.isdigit():
        continue
    try:
        st = open(f"/proc/{p}/stat").read()
        ppid = int(st.rsplit(")", 1)[1].split()[1])
        kids.setdefault(ppid, []).append(int(p))
    except OSError:
        pass
todo, total, tasks = [root], 0, 0
while todo:
    p = todo.pop()
    try:
        exe = os.readlink(f"/proc/{p}/exe")
    except OSError:
        exe = ""
    if p != root and not exe.endswith("/airlock"):
        continue
    try:
        for line in open(f"/proc/{p}/smaps_rollup"):
            if line.startswith("Pss:"):
                total += int(line.split()[1])
        tasks += 1
    except OSError:
        pass
    todo += kids.get(p, [])
print(total, tasks)
EOF
}

# kernel_kib: slab, per-CPU, kernel stacks and page tables, host-wide
kernel_kib() {
	awk '/^(Slab|Percpu|KernelStack|PageTables):/ { k += $2 } END { print k }' /proc/meminfo
}

read -r idle_pss idle_tasks <<EOF
$(runner_pss)
EOF
idle_kernel=$(kernel_kib)
# the relays' stdin: open and silent (a server whose stdin reached EOF is
# ended after --kill-grace)
mkfifo "$W/held"
exec 5<>"$W/held"
t0=$(date +%s%N)
k=0
while [ $k -lt "$N" ]; do
	env -i AIRLOCK_SECRET_FILE="$W/secret" AIRLOCK_RUNNER="unix:$W/r.sock" \
		AIRLOCK_TENANT=t AIRLOCK_REGISTRATION=r \
		"$A" relay -- node "$W/sc/sleep" <"$W/held" >/dev/null 2>>"$W/relay.err" &
	relays="$relays $!"
	k=$((k + 1))
done
# a relay that gave up wrote why: one is enough to stop waiting
while [ "$(grep -c 'lease spawned' "$W/runner.log")" -lt "$N" ]; do
	sleep 0.2
	if [ -s "$W/relay.err" ] || ! kill -0 "$RUNNER" 2>/dev/null ||
	    [ $(( ($(date +%s%N) - t0) / 1000000000 )) -gt 600 ]; then
		echo "idle: error: $(grep -c 'lease spawned' "$W/runner.log") of $N leases came up;" \
			"relay: $(head -n 2 "$W/relay.err" | tr '\n' ' ')" \
			"runner: $(grep -v 'lease spawned' "$W/runner.log" | tail -n 2 | tr '\n' ' ')"
		exit 1
	fi
done
t1=$(date +%s%N)
sleep 2
read -r pss tasks <<EOF
$(runner_pss)
EOF
kernel=$(kernel_kib)
echo "idle leases: $N ($MODE ${BENCH_IDLE_ARGS:-}), up in $(( (t1 - t0) / 1000000 )) ms"
echo "runner before: PSS ${idle_pss} KiB, ${idle_tasks} airlock processes"
echo "runner with $N idle leases: PSS ${pss} KiB, ${tasks} airlock processes"
echo "per idle lease: $(( (pss - idle_pss) / N )) KiB PSS"
echo "kernel (slab, per-CPU, stacks, page tables) per idle lease: $(( (kernel - idle_kernel) / N )) KiB"
