#!/bin/sh
# egress.sh - what the egress proxy adds: per-connection latency (connect,
# CONNECT, 200, the server's first byte) and throughput on a 64 MiB
# download through it, against a direct connection to the same server,
# in the same run, on loopback (the proxy alone, test/helpers/
# egress_serve; in a lease the listener is on the lease's loopback the
# same way). Ratios are printed, never asserted.
#
#   sh bench/egress.sh             (make build/test/helpers/egress_serve)
#   BENCH_EGRESS_N=1000 BENCH_EGRESS_MIB=256 sh bench/egress.sh
#   BENCH_SMOKE=1 sh bench/egress.sh      (20 connections, 4 MiB)
# A failed connection or short download stops it with exit 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
S=$top/build/test/helpers/egress_serve
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	set -- 20 4
else
	set -- 300 64
fi
N=${BENCH_EGRESS_N:-$1}
MIB=${BENCH_EGRESS_MIB:-$2}
[ -x "$S" ] || make build/test/helpers/egress_serve >/dev/null || exit 1
W=$(mktemp -d /tmp/airlock-bench-egress.XXXXXX)
trap 'kill $UP_PID $PX_PID 2>/dev/null; rm -rf "$W"' EXIT INT TERM
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
UP=$(free_port)
PX=$(free_port)
# the upstream: "h" at once, then MIB MiB when the client sends "d"
python3 -c '
import socket, sys, threading
mib = int(sys.argv[2])
chunk = b"\0" * (1 << 20)
def serve(c):
    c.sendall(b"h")
    if c.recv(1) == b"d":
        for _ in range(mib):
            c.sendall(chunk)
    c.close()
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(128)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
' "$UP" "$MIB" &
UP_PID=$!
"$S" "$PX" "127.0.0.1:$UP" >"$W/ready" &
PX_PID=$!
# listening PORT: 127.0.0.1:PORT is in LISTEN state (no probe connection)
listening() {
	awk -v a="0100007F:$(printf '%04X' "$1")" '$2 == a && $4 == "0A" { f = 1 }
		END { exit !f }' /proc/net/tcp
}
i=0
until grep -q ready "$W/ready" 2>/dev/null && listening "$UP"; do
	i=$((i + 1))
	[ $i -gt 200 ] && { echo "egress: error: the proxy or the upstream did not start"; exit 1; }
	sleep 0.05
done
python3 - "$UP" "$PX" "$N" "$MIB" <<'PY'
import socket, sys, time
up, px, n, mib = (int(a) for a in sys.argv[1:])
def direct():
    s = socket.create_connection(("127.0.0.1", up))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s
def proxied():
    s = socket.create_connection(("127.0.0.1", px))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.sendall(b"CONNECT 127.0.0.1:%d HTTP/1.1\r\nHost: x\r\n\r\n" % up)
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 200"), head
    return s
def first_byte(open_):
    t = time.perf_counter()
    s = open_()
    assert s.recv(1) == b"h"
    dt = time.perf_counter() - t
    s.close()
    return dt
def download(open_):
    s = open_()
    assert s.recv(1) == b"h"
    t = time.perf_counter()
    s.sendall(b"d")
    got = 0
    while True:
        b = s.recv(1 << 20)
        if not b:
            break
        got += len(b)
    dt = time.perf_counter() - t
    s.close()
    assert got == mib << 20, got
    return dt
for f in (direct, proxied):	# warm up
    first_byte(f)
res = {}
for name, f in (("direct", direct), ("proxy", proxied)):
    lat = sorted(first_byte(f) for _ in range(n))
    dl = min(download(f) for _ in range(3))
    res[name] = (lat[n // 2], lat[n * 99 // 100], dl)
print("connection to first byte (median / p99, %d each), %d MiB download (best of 3):" % (n, mib))
for name in ("direct", "proxy"):
    med, p99, dl = res[name]
    print("  %-7s %7.0f us / %7.0f us   %7.1f MiB/s" % (name, med * 1e6, p99 * 1e6, mib / dl))
d, p = res["direct"], res["proxy"]
print("  proxy adds %.0f us per connection (median, x%.1f); throughput x%.2f of direct"
      % ((p[0] - d[0]) * 1e6, p[0] / d[0], d[2] / p[2]))
PY
