#!/bin/sh
# handshake.sh - what the pre-auth process does per second: completed
# Noise handshakes per second (4 client processes, each connect +
# handshake + close in a loop, every one handed to the supervisor), and
# lease connect time (relay -> runner -> `node SCRIPT` -> exit status)
# without and under an unauthenticated flood from 8 loopback addresses of
# another local user
# (test/preauth_flood.py: idle, slow and garbage connections). Medians;
# the ratio is printed, never asserted. A step that fails says why, and the
# script exits 1.
#
#   sh bench/handshake.sh          (make airlock and the helpers first)
#   BENCH_HS_SECS=5 BENCH_LEASES=20 sh bench/handshake.sh
#   BENCH_SMOKE=1 sh bench/handshake.sh   (1 s, 3 leases: does it run?)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
A=${AIRLOCK:-$top/airlock}
HS=$top/build/test/helpers/handshaker
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	set -- 1 3
else
	set -- 5 20
fi
SECS=${BENCH_HS_SECS:-$1}
LEASES=${BENCH_LEASES:-$2}
[ -x "$HS" ] && [ -x "$A" ] ||
	make airlock build/test/helpers/handshaker build/test/helpers/lease_tool >/dev/null || exit 1
# the runner refuses a --script-dir below a directory others can write
. "$top/scripts/scratch.sh"
scratch_root airlock-bench || exit 1
W=$(mktemp -d "$SCRATCH_ROOT/airlock-bench-hs.XXXXXX") || exit 1
RUNNER= FLOOD=
trap 'kill $RUNNER $FLOOD 2>/dev/null; rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
fail() {
	echo "handshake: error: $*; runner: $(tail -n 2 "$W/log" | tr '\n' ' ')"
	exit 1
}
mkdir -p "$W/bin"
ln -s "$top/build/test/helpers/lease_tool" "$W/bin/node"
mkdir -p "$W/scripts"
touch "$W/scripts/exit"
head -c 48 /dev/urandom >"$W/secret"
chmod 600 "$W/secret"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PATH=$W/bin:/usr/bin:/bin "$A" runner --listen "127.0.0.1:$PORT" \
	--secret-file "$W/secret" --jail none --state-dir "$W/state" \
	--script-dir "$W/scripts" \
	--max-leases 256 --max-leases-per-tenant 256 2>"$W/log" &
RUNNER=$!
hex=$(printf '%04X' "$PORT")
i=0
until awk -v a="0100007F:$hex" '$2 == a && $4 == "0A" { f = 1 } END { exit !f }' \
    /proc/net/tcp; do
	kill -0 "$RUNNER" 2>/dev/null && [ $i -lt 200 ] || fail "the runner did not listen"
	sleep 0.05
	i=$((i + 1))
done

out=$("$HS" "127.0.0.1:$PORT" "$W/secret" "$SECS" 4 2>&1) || fail "handshaker: $out"
n=${out#handshakes=}
n=${n%% *}
[ "$n" -gt 0 ] 2>/dev/null || fail "no handshake completed: $out"
echo "handshakes: $out in ${SECS}s = $((n / SECS))/s (4 clients)"

# median ms of LEASES leases, one after another; 1 and why when one fails
leases() {
	i=0
	while [ $i -lt "$LEASES" ]; do
		t0=$(date +%s%N)
		env -i AIRLOCK_SECRET_FILE="$W/secret" AIRLOCK_TENANT=t1 \
			AIRLOCK_REGISTRATION=r1 "$A" relay \
			--connect "127.0.0.1:$PORT" -- node "$W/scripts/exit" 0 \
			</dev/null 2>"$W/relay.err" || {
			echo "lease $((i + 1)) failed: $(tail -n 2 "$W/relay.err" | tr '\n' ' ')"
			return 1
		}
		echo $((($(date +%s%N) - t0) / 1000)) >>"$W/times"
		i=$((i + 1))
	done
	sort -n "$W/times" | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] / 1000 }'
	rm -f "$W/times"
}
quiet=$(leases) || fail "quiet: $quiet"
# The flood comes from another local user where we can be one (uid 65534):
# the runner keys a local peer by its uid, so a flood from the relays' own
# uid would take their pre-auth places, not measure the flood's cost.
flooder="python3 $top/test/preauth_flood.py"
if [ "$(id -u)" = 0 ]; then
	chmod 711 "$W"
	install -m 644 "$top/test/preauth_flood.py" "$W/flood.py"
	flooder="setpriv --reuid 65534 --regid 65534 --clear-groups /usr/bin/python3 $W/flood.py"
fi
$flooder flood 127.0.0.1 "$PORT" 600 \
	127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5,127.0.0.6,127.0.0.7,127.0.0.8,127.0.0.9 \
	>"$W/flood.out" &
FLOOD=$!
sleep 2
flooded=$(leases) || fail "under the flood: $flooded"
kill $FLOOD
wait $FLOOD 2>/dev/null
FLOOD=
echo "lease connect, median of $LEASES: ${quiet} ms quiet, ${flooded} ms under the flood" \
	"(x$(awk -v a="$quiet" -v b="$flooded" 'BEGIN { printf "%.2f", b / a }'))"
echo "runner log lines: $(wc -l <"$W/log") (summaries: $(grep -c 'handshakes refused or failed' "$W/log"))"
