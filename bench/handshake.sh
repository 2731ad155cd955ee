#!/bin/sh
# handshake.sh - what the pre-auth process does per second: completed
# Noise handshakes per second (4 client processes, each connect +
# handshake + close in a loop, every one handed to the supervisor), and
# lease connect time (relay -> runner -> `node SCRIPT` -> exit status)
# without and under an unauthenticated flood from 8 loopback addresses
# (test/preauth_flood.py: idle, slow and garbage connections). Medians;
# the ratio is printed, never asserted.
#
#   sh bench/handshake.sh          (make airlock and the helpers first)
#   BENCH_HS_SECS=5 BENCH_LEASES=20 sh bench/handshake.sh
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
A=${AIRLOCK:-$top/airlock}
HS=$top/build/test/helpers/handshaker
SECS=${BENCH_HS_SECS:-5}
LEASES=${BENCH_LEASES:-20}
[ -x "$HS" ] && [ -x "$A" ] ||
	make airlock build/test/helpers/handshaker build/test/helpers/lease_tool >/dev/null || exit 1
W=$(mktemp -d /tmp/airlock-bench-hs.XXXXXX)
trap 'kill $RUNNER 2>/dev/null; rm -rf "$W"' EXIT INT TERM
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
sleep 0.5

out=$("$HS" "127.0.0.1:$PORT" "$W/secret" "$SECS" 4)
n=${out#handshakes=}
n=${n%% *}
echo "handshakes: $out in ${SECS}s = $((n / SECS))/s (4 clients)"

# median ms of LEASES leases, one after another
leases() {
	i=0
	while [ $i -lt "$LEASES" ]; do
		t0=$(date +%s%N)
		env -i AIRLOCK_SECRET_FILE="$W/secret" AIRLOCK_TENANT=t1 \
			AIRLOCK_REGISTRATION=r1 "$A" relay \
			--connect "127.0.0.1:$PORT" -- node "$W/scripts/exit" 0 </dev/null
		echo $((($(date +%s%N) - t0) / 1000))
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] / 1000 }'
}
quiet=$(leases)
python3 "$top/test/preauth_flood.py" flood 127.0.0.1 "$PORT" 600 \
	127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5,127.0.0.6,127.0.0.7,127.0.0.8,127.0.0.9 \
	>"$W/flood.out" &
FLOOD=$!
sleep 2
flooded=$(leases)
kill $FLOOD
wait $FLOOD 2>/dev/null
echo "lease connect, median of $LEASES: ${quiet} ms quiet, ${flooded} ms under the flood" \
	"(x$(awk -v a="$quiet" -v b="$flooded" 'BEGIN { printf "%.2f", b / a }'))"
echo "runner log lines: $(wc -l <"$W/log") (summaries: $(grep -c 'handshakes refused or failed' "$W/log"))"
