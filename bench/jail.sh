#!/bin/sh
# jail.sh - what the jail costs: start overhead of /bin/true and
# `python3 -c pass` in each mode (and with Landlock on vs off, with and
# without cgroups) against no jail and against bubblewrap with the same
# namespaces in the same run; lease connect time through relay -> runner
# with each mode; and `npx -y` first vs repeat connect time per uid unit.
# Ratios are printed, never asserted. Needs root; bwrap and npm (with the
# registry reachable) are optional: their rows are skipped, saying so. A row
# whose runs fail prints "error:" and why, and the script exits 1.
#
#   sh bench/jail.sh                 (make airlock and the helpers first)
#   BENCH_JAIL_N=500 BENCH_PY_N=100 BENCH_LEASES=50 BENCH_NPX=0 sh bench/jail.sh
#   BENCH_SMOKE=1 sh bench/jail.sh   (tiny defaults, no npx: does each row run?)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
A=${AIRLOCK:-$top/airlock}
J=$top/build/test/helpers/jailrun
TOOL=$top/build/test/helpers/lease_tool
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	set -- 3 2 2 0
else
	set -- 300 50 30 1
fi
N=${BENCH_JAIL_N:-$1}
PN=${BENCH_PY_N:-$2}
LEASES=${BENCH_LEASES:-$3}
NPX=${BENCH_NPX:-$4}
PKG=${BENCH_NPX_PKG:-@modelcontextprotocol/server-everything@2026.8.31}
PY=/usr/bin/python3

[ "$(id -u)" -eq 0 ] || { echo "jail.sh: needs root (uids, namespaces, cgroups)"; exit 1; }
[ -x "$J" ] && [ -x "$A" ] && [ -x "$TOOL" ] ||
	make airlock build/test/helpers/jailrun build/test/helpers/lease_tool >/dev/null || exit 1
# a uid-mode runner refuses a state directory below one others can write
. "$top/scripts/scratch.sh"
scratch_root airlock-bench || exit 1
W=$(mktemp -d "$SCRATCH_ROOT/airlock-bench-jail.XXXXXX") || exit 1
chmod 711 "$W"
RPID=
trap '[ -n "$RPID" ] && kill "$RPID" 2>/dev/null; rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
errors=0
BASE=$((5000000 + ($$ % 4000) * 1000))
RANGE=$((BASE + 100))-$((BASE + 999))
mkdir -p "$W/bwh"

# jailrun: 16 uids, warmed below: a uid's first use ever scans /proc for
# strays of it, a one-time cost the steady state does not pay
JRANGE=$BASE-$((BASE + 15))
row() {	# LABEL MODE N [jailrun options] -- CMD...
	label=$1
	shift
	out=$("$J" --uid-range "$JRANGE" --state-dir "$W/st" "$@" 2>&1) || {
		printf '%-34s error: %s\n' "$label" "$out"
		errors=$((errors + 1))
		return
	}
	med=$(echo "$out" | sed -n 's/.*median_us=\([0-9]*\).*/\1/p')
	p90=$(echo "$out" | sed -n 's/.*p90_us=\([0-9]*\).*/\1/p')
	start=$(echo "$out" | sed -n 's/.*start_us=\([0-9]*\).*/\1/p')
	printf '%-34s %8d %8d %8d\n' "$label" "$med" "$p90" "$start"
	printf '%s|%s\n' "$label" "$med" >>"$W/results"
}

bwrap_args="--unshare-user --unshare-pid --unshare-ipc --unshare-uts
 --unshare-cgroup --die-with-parent --ro-bind /usr /usr --symlink usr/bin /bin
 --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/sbin /sbin
 --ro-bind /etc/ssl /etc/ssl --ro-bind /etc/resolv.conf /etc/resolv.conf
 --ro-bind /etc/hosts /etc/hosts --proc /proc --dev /dev --tmpfs /tmp
 --bind $W/bwh /home/airlock --chdir /home/airlock"

matrix() {	# RUNS CMD...
	n=$1
	shift
	printf '%-34s %8s %8s %8s\n' "" "p50 us" "p90 us" "start us"
	# warm the uid table and caches once
	"$J" --mode uid --uid-range "$JRANGE" --state-dir "$W/st" -n 40 -- "$@" >/dev/null 2>&1
	row "no jail (fork+exec)" --mode raw -n "$n" -- "$@"
	row "airlock none (dirs only)" --mode none -n "$n" -- "$@"
	row "airlock uid" --mode uid -n "$n" -- "$@"
	row "airlock uid, Landlock off" --mode uid --landlock off -n "$n" -- "$@"
	row "airlock uid + cgroup mem,pids" --mode uid --memory 1024 --pids 512 -n "$n" -- "$@"
	row "airlock ns" --mode ns -n "$n" -- "$@"
	row "airlock ns, Landlock off" --mode ns --landlock off -n "$n" -- "$@"
	row "airlock ns + cgroup mem,pids" --mode ns --memory 1024 --pids 512 -n "$n" -- "$@"
	if command -v bwrap >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		row "bwrap (same namespaces)" --mode raw -n "$n" -- bwrap $bwrap_args "$@"
	else
		echo "bwrap (same namespaces)            skipped: bwrap not installed"
	fi
}

ratio() {	# A B: A/B and A-B of two labelled medians
	a=$(awk -F'|' -v l="$1" '$1 == l { v = $2 } END { print v }' "$W/results")
	b=$(awk -F'|' -v l="$2" '$1 == l { v = $2 } END { print v }' "$W/results")
	if [ -n "$a" ] && [ -n "$b" ]; then
		awk -v a="$a" -v b="$b" -v la="$1" -v lb="$2" 'BEGIN {
			printf "  %-30s / %-26s = %.2fx (%+d us)\n", la, lb, a / b, a - b }'
	else
		printf '  %-30s / %-26s = not measured (a row above did not run)\n' "$1" "$2"
	fi
}

echo "== jail start + teardown, /bin/true ($N runs)"
: >"$W/results"
matrix "$N" /bin/true
echo "ratios:"
ratio "airlock uid" "no jail (fork+exec)"
ratio "airlock uid" "airlock uid, Landlock off"
ratio "airlock ns" "no jail (fork+exec)"
ratio "airlock ns" "bwrap (same namespaces)"
ratio "airlock ns, Landlock off" "bwrap (same namespaces)"
echo
echo "== jail start + teardown, python3 -c pass ($PN runs)"
: >"$W/results"
matrix "$PN" "$PY" -c pass
echo "ratios:"
ratio "airlock uid" "no jail (fork+exec)"
ratio "airlock ns" "no jail (fork+exec)"
ratio "airlock ns" "bwrap (same namespaces)"
echo

# --- lease connect time through relay -> runner -----------------------------
# the server: lease_tool as node, `node SCRIPTS/echo` echoing a line (the
# runner runs a script only below a --script-dir)
BIN=$W/bin
mkdir -p "$BIN" "$W/scripts"
chmod 755 "$BIN" "$W/scripts"
ln -s "$TOOL" "$BIN/node"
touch "$W/scripts/echo"
head -c 48 /dev/urandom >"$W/secret"
chmod 600 "$W/secret"

runner() {	# MODE [OPTIONS]: background runner on $W/r.sock
	m=$1
	shift
	rm -f "$W/r.sock"
	PATH=${RUNNER_PATH:-$BIN:/usr/bin:/bin} "$A" runner --listen "unix:$W/r.sock" \
		--secret-file "$W/secret" --jail "$m" --state-dir "$W/rs-$m" \
		--script-dir "$W/scripts" \
		$([ "$m" != none ] && echo --uid-range "$RANGE") "$@" \
		2>"$W/runner.log" &
	RPID=$!
	i=0
	while [ ! -S "$W/r.sock" ] && [ $i -lt 200 ] && kill -0 "$RPID" 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -S "$W/r.sock" ]
}
stop() { kill "$RPID" 2>/dev/null; wait "$RPID" 2>/dev/null; RPID=; }

# lease_row LABEL RUNNER_ARGS -- CONNECT_ARGS: one line, the figure or the
# error (the runner's refusal, or the relay's answer missing)
lease_row() {
	label=$1
	shift
	set -- "$@" --
	spec=
	while [ "$1" != -- ]; do spec="$spec $1"; shift; done
	shift
	# shellcheck disable=SC2086
	if ! runner $spec; then
		printf '  %-40s error: the runner did not start: %s\n' "$label" \
			"$(tail -n 2 "$W/runner.log" | tr '\n' ' ')"
		errors=$((errors + 1))
		stop
		return
	fi
	if ms=$(connect "$@" 2>"$W/connect.err"); then
		printf '  %-40s %s\n' "$label" "$ms"
	else
		printf '  %-40s error: %s; runner: %s\n' "$label" "$ms" \
			"$(tail -n 2 "$W/runner.log" | tr '\n' ' ')"
		errors=$((errors + 1))
	fi
	stop
}

# connect TENANT REG COUNT LINE ARGS...: median ms from starting the relay
# to the first line of the server's answer to LINE
connect() {
	python3 - "$@" <<'EOF'
import os, statistics, subprocess, sys, time
tenant, reg, count, line = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
args = sys.argv[5:]
env = {"AIRLOCK_SECRET_FILE": os.environ["W"] + "/secret",
       "AIRLOCK_RUNNER": "unix:" + os.environ["W"] + "/r.sock",
       "AIRLOCK_TENANT": tenant, "AIRLOCK_REGISTRATION": reg}
times = []
for i in range(count):
    t0 = time.monotonic()
    p = subprocess.Popen([os.environ["A"], "relay", "--"] + args, env=env,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdin.write((line + "\n").encode()); p.stdin.flush()
    got = p.stdout.readline()
    times.append((time.monotonic() - t0) * 1000)
    p.stdin.close(); p.terminate()
    err = p.stderr.read().decode(errors="replace").strip()
    p.wait()
    if not got:
        print("no answer from lease %d (relay: %s)" % (i + 1, err[-300:] or "nothing"))
        sys.exit(1)
print(" ".join("%.1f" % t for t in times) if count <= 5 else
      "%.2f" % statistics.median(times))
EOF
}
export W A

echo "== lease connect time: relay -> runner -> first echoed line ($LEASES leases, median ms)"
for spec in "none" "uid --memory 0 --pids 0 --shared-network" \
	"uid --memory 0 --pids 0" "uid" \
	"ns --memory 0 --pids 0 --shared-network" "ns --memory 0 --pids 0" "ns"; do
	# shellcheck disable=SC2086
	lease_row "--jail $spec (ms)" $spec -- t1 bench "$LEASES" hello node "$W/scripts/echo"
done
echo

if [ "$NPX" = 1 ] && command -v npx >/dev/null 2>&1 &&
	timeout 10 npm view "${PKG%@*}" version >/dev/null 2>&1; then
	INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'
	echo "== npx -y $PKG: connect time to the initialize reply, ms (leases in a row)"
	RUNNER_PATH=/usr/local/bin:/usr/bin:/bin
	export RUNNER_PATH
	lease_row "uid, unit registration (cache kept):" uid --uid-unit registration -- \
		t1 npxreg 4 "$INIT" npx -y "$PKG" stdio
	# what a uid change of that cache costs (the runner has stopped)
	cache=$(ls -d "$W"/rs-uid/cache/t1+npxreg/data 2>/dev/null)
	if [ -n "$cache" ]; then
		files=$(find "$cache" | wc -l)
		size=$(du -sh "$cache" | cut -f1)
		owner=$(stat -c %u:%g "$cache")
		t0=$(date +%s%N)
		chown -R 0:0 "$cache" && chown -R "$owner" "$cache"
		t1=$(date +%s%N)
		printf '  %-40s %s files, %s; chown -R twice: %d ms\n' \
			"the registration's cache:" "$files" "$size" $(((t1 - t0) / 2000000))
	fi
	lease_row "uid, unit lease (fresh uid, no cache):" uid --uid-unit lease -- \
		t1 npxlease 2 "$INIT" npx -y "$PKG" stdio
	lease_row "ns, unit registration (cache kept):" ns --uid-unit registration -- \
		t1 npxreg 3 "$INIT" npx -y "$PKG" stdio
	lease_row "none (HOME per lease: no cache):" none -- \
		t1 npxnone 2 "$INIT" npx -y "$PKG" stdio
else
	echo "== npx first vs repeat: skipped (BENCH_NPX=0, no npx, or the npm registry is unreachable)"
fi
if [ "$errors" -gt 0 ]; then
	echo "jail.sh: $errors row(s) did not run (error: above); their figures are missing"
	exit 1
fi
