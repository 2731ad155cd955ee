#!/bin/sh
# lock.sh - what an approval of the exact npm tree costs a lease (docs/
# REVIEW.md "A runner's lock store"): connect time, from starting the
# process an MCP host spawns to the `initialize` reply, for
#   direct   node <bin> stdio, the installed tree's bin, no relay;
#   locked   relay -> runner (--jail uid, --lock-store), a version 3
#            token, the tree installed and sealed (its install by a first
#            lease is not counted): the seal checked, node started;
#   npx      relay -> runner (--jail uid, unit registration: its npx cache
#            warm after a first lease, not counted), npx -y PKG stdio,
#            today's path (without a lock).
# Medians in ms and the ratios locked/direct (the goal: <= 1.2) and
# npx/direct. Needs root and the npm registry (submit --lock resolves the
# tree; the locked runner installs it): without the registry the rows say
# so and are skipped.
#   sh bench/lock.sh            (BENCH_LOCK_N=15 leases a row)
#   BENCH_SMOKE=1 sh bench/lock.sh   (one lease a row: does each row run?)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
A=${AIRLOCK:-$top/airlock}
N=${BENCH_LOCK_N:-15}
[ "${BENCH_SMOKE:-0}" = 1 ] && N=1
PKG=@modelcontextprotocol/server-everything
VER=2026.8.31

[ "$(id -u)" -eq 0 ] || { echo "lock.sh: needs root (uids, jails)"; exit 1; }
[ -x "$A" ] || make airlock >/dev/null || exit 1
if ! timeout 30 npm view "$PKG@$VER" version >/dev/null 2>&1; then
	echo "== lock connect time: skipped (the npm registry is unreachable:"
	echo "   submit --lock and the first install need it)"
	exit 0
fi
. "$top/scripts/scratch.sh"
scratch_root airlock-bench || exit 1
W=$(mktemp -d "$SCRATCH_ROOT/airlock-bench-lock.XXXXXX") || exit 1
chmod 711 "$W"
RPID=
trap '[ -n "$RPID" ] && kill "$RPID" 2>/dev/null; rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
BASE=$((6000000 + ($$ % 4000) * 1000))
errors=0
export W A

"$A" review keygen --out "$W/keys" >/dev/null || exit 1
ID=$("$A" review submit --store "$W/store" --tenant t1 --registration ev \
	--source registry --lock --resolve-state-dir "$W/resolve" \
	--resolve-uid-range $((BASE + 900))-$((BASE + 910)) \
	-- npx -y "$PKG@$VER" stdio) || exit 1
"$A" review sign-revocations --store "$W/store" --key "$W/keys/review.key" >/dev/null
TOKEN=$("$A" review approve --store "$W/store" "$ID" --key "$W/keys/review.key" \
	--as bench --yes 2>/dev/null) || exit 1
head -c 48 /dev/urandom >"$W/secret"
chmod 600 "$W/secret"
export TOKEN

runner() {	# STATE [OPTIONS]: a uid-mode runner on $W/r.sock
	st=$W/$1
	shift
	mkdir -p "$st" && chmod 711 "$st"
	rm -f "$W/r.sock"
	PATH=/usr/local/bin:/usr/bin:/bin "$A" runner --listen "unix:$W/r.sock" \
		--secret-file "$W/secret" --jail uid \
		--uid-range "$BASE-$((BASE + 99))" --state-dir "$st" "$@" \
		2>>"$W/runner.log" &
	RPID=$!
	i=0
	while [ ! -S "$W/r.sock" ] && [ $i -lt 200 ] && kill -0 "$RPID" 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -S "$W/r.sock" ]
}
stop() { kill "$RPID" 2>/dev/null; wait "$RPID" 2>/dev/null; RPID=; }

# connect WARM COUNT REG ARGV...: median ms from the start of ARGV (with
# the relay's environment, the token when REG is "ev") to the first line
# of its stdout, the initialize reply; WARM leases first, not counted
connect() {
	python3 - "$@" <<'PY'
import os, statistics, subprocess, sys, time
warm, count, reg = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
args = sys.argv[4:]
W = os.environ["W"]
env = {"AIRLOCK_SECRET_FILE": W + "/secret", "AIRLOCK_RUNNER": "unix:" + W + "/r.sock",
       "AIRLOCK_TENANT": "t1", "AIRLOCK_REGISTRATION": reg, "PATH": "/usr/bin:/bin"}
if reg == "ev":
    env["AIRLOCK_APPROVAL"] = os.environ["TOKEN"]
init = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n'
times = []
for i in range(warm + count):
    t0 = time.monotonic()
    p = subprocess.Popen(args, env=env, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(init.encode()); p.stdin.flush()
    got = p.stdout.readline()
    ms = (time.monotonic() - t0) * 1000
    p.stdin.close(); p.terminate()
    err = p.stderr.read().decode(errors="replace").strip()
    p.wait()
    if b'"result"' not in got:
        print("no initialize reply from lease %d (%s)" % (i + 1, err[-300:] or "nothing"))
        sys.exit(1)
    if i >= warm:
        times.append(ms)
print("%.1f" % statistics.median(times))
PY
}

# row LABEL FIGURE_VAR CONNECT_ARGS...
row() {
	label=$1 var=$2
	shift 2
	if ms=$(connect "$@"); then
		printf '  %-46s %s\n' "$label" "$ms"
		eval "$var=\$ms"
	else
		printf '  %-46s error: %s; runner: %s\n' "$label" "$ms" \
			"$(tail -n 2 "$W/runner.log" | tr '\n' ' ')"
		errors=$((errors + 1))
		eval "$var="
	fi
}

echo "== lock connect time: start to the initialize reply, $PKG@$VER ($N leases a row, median ms)"
locked= direct= npx=
if runner st-lock --review-pubkey "$W/keys/review.pub" \
	--revocations "$W/store/revoked" --lock-store "$W/store/locks" \
	--lock-uid-range $((BASE + 920))-$((BASE + 927)); then
	row "locked: relay -> runner, installed tree" locked 1 "$N" ev \
		"$A" relay -- npx -y "$PKG@$VER" stdio
	stop
	# the runner's own part of it: the lock read and the seal checked
	sed -n 's/.*runs=locked_tree lock_ms=\([0-9]*\).*/\1/p' "$W/runner.log" |
		tail -n "$N" | sort -n | awk '{ v[NR] = $1 } END { if (NR)
		printf "    of which the lock and seal check (runner): %d ms median\n",
		v[int((NR + 1) / 2)] }'
	printf '    the tree: %s entries\n' "$(find "$W"/st-lock/trees/*/ | wc -l)"
else
	echo "  locked: error: the runner did not start: $(tail -n 2 "$W/runner.log")"
	errors=$((errors + 1))
fi
bin=$(ls "$W"/st-lock/trees/*/node_modules/$PKG/dist/index.js 2>/dev/null | head -n 1)
if [ -n "$bin" ]; then
	row "direct: node <bin> stdio (the same tree)" direct 1 "$N" none \
		node "$bin" stdio
else
	echo "  direct: error: no installed tree to start"
	errors=$((errors + 1))
fi
if runner st-npx; then
	row "npx: relay -> runner, npx -y (cache warm)" npx 1 "$N" npx \
		"$A" relay -- npx -y "$PKG@$VER" stdio
	stop
else
	echo "  npx: error: the runner did not start"
	errors=$((errors + 1))
fi
ratio() {	# NAME A B
	if [ -n "$2" ] && [ -n "$3" ]; then
		awk -v a="$2" -v b="$3" -v n="$1" 'BEGIN { printf "- %s = %.2f\n", n, a / b }'
	fi
}
ratio "locked / direct (goal <= 1.2)" "$locked" "$direct"
ratio "npx / direct" "$npx" "$direct"
ratio "npx / locked" "$npx" "$locked"
if [ "$errors" -gt 0 ]; then
	echo "lock.sh: $errors row(s) did not run (error: above)"
	exit 1
fi
