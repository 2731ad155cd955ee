#!/bin/sh
# all.sh - `make bench`: every bench/*.sh in turn, each one's output on the
# terminal and in build/bench/NAME.txt (BENCH_OUT: another directory), with
# the load average before each (the machine may be shared); at the end the
# scripts that failed, and exit 1 if any did. A row that did not run is an
# error, never a figure. BENCH_SMOKE=1 is passed on: one tiny round each
# (test/bench.test runs that in `make check`).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
out=${BENCH_OUT:-$top/build/bench}
export BENCH_OUT="$out"
mkdir -p "$out" || exit 1
# idle.sh last: its 1,000 relays leave the machine busy for a while after.
# A script not named here runs after them: none is ever left out.
order="run jail sandbox cold handshake egress lock idle"
for f in bench/*.sh; do
	name=$(basename "$f" .sh)
	case " all $order " in *" $name "*) ;; *) order="$order $name" ;; esac
done
failed=
for name in $order; do
	f=bench/$name.sh
	echo "== sh $f (load average $(cut -d' ' -f1-3 /proc/loadavg))"
	{ sh "$f" 2>&1; echo $? >"$out/$name.rc"; } | tee "$out/$name.txt"
	[ "$(cat "$out/$name.rc")" = 0 ] || failed="$failed $name"
	echo
done
echo "== done (load average $(cut -d' ' -f1-3 /proc/loadavg)); outputs in $out"
if [ -n "$failed" ]; then
	echo "bench: failed:$failed (their errors are above and in $out)"
	exit 1
fi
