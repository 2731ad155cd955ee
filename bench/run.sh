#!/bin/sh
# bench/run.sh - `make bench`: what airlock's relay -> runner hop costs,
# measured against direct stdio and against a plain socat TCP hop in the
# same run on the same machine. Not a test: nothing here is asserted.
#
#   (a) MCP: the official SDK client (test/e2e/mcp_client.mjs --bench) calls
#       server-everything's echo tool: RTT p50/p90/p99, calls/s, 1 MiB echo.
#         direct   the client spawns `node server stdio`
#         socat    the client spawns `socat STDIO TCP:127.0.0.1:P`, and
#                  `socat TCP-LISTEN:P,fork EXEC:"node server stdio"` serves
#         airlock  the client spawns `airlock relay -- node server stdio`,
#                  `airlock runner --jail none` serves
#       "added" = hop - direct; printed ratios airlock_added / socat_added
#       for the p50 RTT (target <= 0.35) and the 1 MiB echo (target <= 0.5).
#       And the runner's lease process's CPU time per echo call
#       (bench/lease_cpu.py, from /proc/PID/schedstat): what a loaded
#       machine disturbs less than a round trip's time.
#   (b) no Node: build/test/helpers/pingpong (C) drives a `cat` the same
#       three ways: 16-byte line round trips, and a 64 MiB stream. The cat
#       is bench/cat.py under python3, because the runner's launcher guard
#       admits interpreters only (not /bin/cat); every path runs the same.
#   (c) start-up: pingpong firstbyte, the time from fork of the relay (or
#       socat) to the first byte it sends to a listener; and hyperfine (or a
#       shell loop) over one whole lease: cat.py with stdin at EOF, run
#       directly, behind socat, and behind relay -> runner.
#
# Every row runs with the same minimal environment (PATH with the system
# directories first, HOME, the AIRLOCK_* settings): the relay forwards its
# environment to the runner, which refuses keys its policy forbids
# (NODE_*, npm_config_*, ...), and all paths should see the same python3.
#
# Every path runs the same copies of the scripts (cat.py, server-everything)
# from a private scratch directory (scripts/scratch.sh): the runner runs a
# script only below a --script-dir, never from a package directory nor
# below a directory others can write.
#
# Knobs (environment): BENCH_ROUNDS (3; rows are interleaved, medians over
# rounds reported), BENCH_CALLS (2000), BENCH_BIG_RUNS (5), BENCH_PINGS
# (20000), BENCH_BULK (67108864), BENCH_FIRST (50), BENCH_LEASES (100);
# BENCH_SMOKE=1 makes every default tiny (one round: does each row run?);
# AIRLOCK (the binary, default ./airlock); AIRLOCK_B, another binary to
# compare it with (a build of an older commit): its own runner, and an
# airlock_b row beside each airlock row of (a) and (b), the two taking
# turns in going first, with the ratio of their added p50s. Raw lines go to
# build/bench/raw.txt (BENCH_OUT: another directory), the report (markdown)
# to stdout and build/bench/report.md. A row whose run fails is reported as an error,
# with no figure, and the script exits 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
AIRLOCK=${AIRLOCK:-$top/airlock}
AIRLOCK_B=${AIRLOCK_B:-}
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	set -- 1 20 1 200 1048576 3 3
else
	set -- 3 2000 5 20000 67108864 50 100
fi
ROUNDS=${BENCH_ROUNDS:-$1}
CALLS=${BENCH_CALLS:-$2}
BIG_RUNS=${BENCH_BIG_RUNS:-$3}
PINGS=${BENCH_PINGS:-$4}
BULK=${BENCH_BULK:-$5}
FIRST=${BENCH_FIRST:-$6}
LEASES=${BENCH_LEASES:-$7}
PINGPONG=$top/build/test/helpers/pingpong
export PATH="/usr/local/bin:/usr/bin:/bin:$PATH"
AIRLOCK_RUNNER='' AIRLOCK_SECRET_FILE=''
out=${BENCH_OUT:-$top/build/bench}
mkdir -p "$out"
raw=$out/raw.txt
errors=$out/errors.txt
: >"$raw"
: >"$errors"
. "$top/scripts/scratch.sh"
scratch_root airlock-bench || exit 1
work=$(mktemp -d "$SCRATCH_ROOT/airlock-bench.XXXXXX") || exit 1
chmod 711 "$work"
scripts=$work/scripts
mkdir "$scripts"
cp bench/cat.py "$scripts/"
CAT="python3 $scripts/cat.py"
socat_pids=

note() {
	echo "bench: $*" >&2
}

# error GROUP LABEL WHY: a row that did not run; in the report, exit 1
error() {
	note "$1/$2 failed: $3"
	echo "$1 $2 failed=1" >>"$raw"
	echo "- $1/$2: $3" >>"$errors"
}

cleanup() {
	for p in $socat_pids; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	command -v runner_stop >/dev/null 2>&1 && runner_stop >/dev/null 2>&1
	if [ -n "${B_PID:-}" ]; then
		kill "$B_PID" 2>/dev/null
		wait "$B_PID" 2>/dev/null
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
	node -e 'const s = require("net").createServer();
		s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });' 2>/dev/null ||
		python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# clean CMD...: CMD in the minimal environment every row gets.
clean() {
	env -i PATH="$PATH" HOME="$HOME" LANG=C.UTF-8 \
		AIRLOCK_RUNNER="$AIRLOCK_RUNNER" AIRLOCK_SECRET_FILE="$AIRLOCK_SECRET_FILE" \
		AIRLOCK_TENANT=bench AIRLOCK_REGISTRATION=bench "$@"
}

# socat_serve CMD: a socat listener on loopback that runs CMD for each
# connection; sets port. Waits (bounded: 5 s) until it listens.
socat_serve() {
	port=$(free_port)
	# Not through clean(): $! must be socat itself, not a subshell.
	env -i PATH="$PATH" HOME="$HOME" LANG=C.UTF-8 \
		socat "TCP-LISTEN:$port,bind=127.0.0.1,reuseaddr,fork" EXEC:"$1" \
		</dev/null >/dev/null 2>>"$work/socat.log" &
	socat_pids="$socat_pids $!"
	hex=$(printf '%04X' "$port")
	i=0
	while [ "$i" -lt 100 ] && ! awk -v a="0100007F:$hex" \
	    '$2 == a && $4 == "0A" { f = 1 } END { exit !f }' /proc/net/tcp; do
		sleep 0.05
		i=$((i + 1))
	done
}

# row GROUP LABEL CMD...: runs CMD (clean) and appends "GROUP LABEL" and
# the last line it printed (key=value pairs) to the raw file; an error when
# CMD fails or its last line is not such pairs.
row() {
	g=$1 l=$2
	shift 2
	clean "$@" >"$work/row.out" 2>"$work/row.err"
	rc=$?
	res=$(tail -n 1 "$work/row.out")
	if [ "$rc" = 0 ] && printf '%s\n' "$res" | grep -Eq '^([a-z_0-9]+=[^ ]+ ?)+$'; then
		echo "$g $l $res" >>"$raw"
	else
		error "$g" "$l" "exit $rc: $(cat "$work/row.out" "$work/row.err" |
			tail -n 3 | tr '\n' ' ')"
	fi
}

# hop FN: `FN airlock BINARY`, FN running the airlock row of a table
# with BINARY as the relay; with AIRLOCK_B also `FN airlock_b B` through
# runner B, the two taking turns in going first (by round, $r)
hop() {
	if [ -z "$AIRLOCK_B" ]; then
		"$1" airlock "$AIRLOCK"
		return
	fi
	if [ $((r % 2)) = 1 ]; then h_order="a b"; else h_order="b a"; fi
	for h_w in $h_order; do
		if [ "$h_w" = a ]; then
			"$1" airlock "$AIRLOCK"
			continue
		fi
		h_r=$AIRLOCK_RUNNER h_s=$AIRLOCK_SECRET_FILE
		AIRLOCK_RUNNER=$B_RUNNER AIRLOCK_SECRET_FILE=$B_SECRET
		"$1" airlock_b "$AIRLOCK_B"
		AIRLOCK_RUNNER=$h_r AIRLOCK_SECRET_FILE=$h_s
	done
}

# --- what is available --------------------------------------------------
have_node=0 have_socat=0 have_hyperfine=0
command -v socat >/dev/null 2>&1 && have_socat=1
command -v hyperfine >/dev/null 2>&1 && have_hyperfine=1
command -v python3 >/dev/null 2>&1 || note "python3 not found: the cat rows will fail"
if command -v node >/dev/null 2>&1; then
	if sh scripts/e2e-setup.sh --check >/dev/null 2>&1 || sh scripts/e2e-setup.sh >&2; then
		have_node=1
	else
		note "MCP packages could not be installed: skipping (a)"
	fi
else
	note "node not found: skipping (a)"
fi
[ "$have_socat" = 1 ] || note "socat not found (apt-get install socat): skipping the socat rows"
if [ ! -x "$PINGPONG" ]; then
	make -s build/test/helpers/pingpong >&2 || note "could not build $PINGPONG"
fi

server=
if [ "$have_node" = 1 ]; then
	# a copy below the --script-dir, finding its dependencies through a link
	pkg=$top/build/node/node_modules/@modelcontextprotocol/server-everything
	cp -R "$pkg" "$scripts/server-everything"
	ln -s "$top/build/node/node_modules" "$scripts/node_modules"
	server=$scripts/server-everything/dist/index.js
fi
. "$top/test/e2e/runner.sh"
if runner_start "$AIRLOCK" "$work" --script-dir "$scripts"; then
	AIRLOCK_RUNNER="tcp://127.0.0.1:$RUNNER_PORT"
	AIRLOCK_SECRET_FILE=$RUNNER_SECRET
else
	# every airlock row then fails, each an error of its own
	error runner start "$(tail -n 3 "$RUNNER_LOG" | tr '\n' ' ')"
fi
B_RUNNER='' B_SECRET='' B_PID=''
if [ -n "$AIRLOCK_B" ]; then
	# runner_start sets RUNNER_*: A's are kept for runner_stop
	a_pid=$RUNNER_PID a_port=$RUNNER_PORT a_secret=$RUNNER_SECRET a_log=$RUNNER_LOG
	mkdir "$work/b"
	if runner_start "$AIRLOCK_B" "$work/b" --script-dir "$scripts"; then
		B_RUNNER="tcp://127.0.0.1:$RUNNER_PORT" B_SECRET=$RUNNER_SECRET
		B_PID=$RUNNER_PID
	else
		error runner_b start "$(tail -n 3 "$RUNNER_LOG" | tr '\n' ' ')"
	fi
	RUNNER_PID=$a_pid RUNNER_PORT=$a_port RUNNER_SECRET=$a_secret RUNNER_LOG=$a_log
fi
if [ "$have_socat" = 1 ]; then
	if [ "$have_node" = 1 ]; then
		socat_serve "node $server stdio"
		mcp_port=$port
	fi
	socat_serve "$CAT"
	cat_port=$port
fi

# --- machine ------------------------------------------------------------
{
	echo "## Machine"
	echo
	echo "- date: $(date -u +%Y-%m-%dT%H:%MZ); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- cpu: $(nproc) x $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "- kernel: $(uname -sr)"
	echo "- airlock: $("$AIRLOCK" --version 2>/dev/null | head -n 1) (runner --jail none)"
	[ -n "$AIRLOCK_B" ] && echo "- airlock_b: $AIRLOCK_B, $("$AIRLOCK_B" --version 2>/dev/null | head -n 1) (its own runner, --jail none)"
	echo "- node: $(node --version 2>/dev/null || echo none); python3: $(python3 -c 'import sys; print(sys.version.split()[0])' 2>/dev/null || echo none) ($(command -v python3)); socat: $(socat -V 2>/dev/null | sed -n 's/^socat version \([^ ]*\).*/\1/p'); hyperfine: $(hyperfine --version 2>/dev/null | cut -d' ' -f2)"
	[ "$have_node" = 1 ] && echo "- MCP: $(node -p 'const d = require(process.argv[1]).dependencies; Object.entries(d).map(([k, v]) => k + "@" + v).join(", ")' "$top/test/e2e/package.json")"
	echo "- rounds: $ROUNDS (medians over rounds); MCP calls: $CALLS, 1 MiB runs: $BIG_RUNS; pings: $PINGS; stream: $BULK bytes; first-byte runs: $FIRST; leases: $LEASES"
	echo
} >"$out/machine.md"

# --- (a) MCP ------------------------------------------------------------
if [ "$have_node" = 1 ]; then
	note "(a) MCP echo through the SDK: $ROUNDS rounds"
	mcp="node test/e2e/mcp_client.mjs --calls $CALLS --big-runs $BIG_RUNS --timeout 300"
	# shellcheck disable=SC2086
	mcp_row() { row mcp "$1" $mcp --bench "$1" -- "$2" relay -- node "$server" stdio; }
	# the lease process's CPU per call (bench/lease_cpu.py), by its runner
	cpu_row() {
		c_pid=$RUNNER_PID
		[ "$1" = airlock_b ] && c_pid=$B_PID
		row cpu "$1" python3 bench/lease_cpu.py "$CALLS" "$c_pid" -- \
			"$2" relay -- node "$server" stdio
	}
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		# shellcheck disable=SC2086
		row mcp direct $mcp --bench direct -- node "$server" stdio
		# shellcheck disable=SC2086
		[ "$have_socat" = 1 ] && row mcp socat $mcp --bench socat -- \
			socat STDIO "TCP:127.0.0.1:$mcp_port"
		hop mcp_row
		hop cpu_row
		r=$((r + 1))
	done
fi

# --- (b) no Node: cat ---------------------------------------------------
if [ -x "$PINGPONG" ]; then
	note "(b) line ping-pong and stream through cat.py: $ROUNDS rounds"
	# shellcheck disable=SC2086
	rtt_row() { row rtt "$1" "$PINGPONG" rtt -n "$PINGS" -- "$2" relay -- $CAT; }
	# shellcheck disable=SC2086
	bulk_row() { row bulk "$1" "$PINGPONG" bulk -b "$BULK" -- "$2" relay -- $CAT; }
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		# shellcheck disable=SC2086
		row rtt direct "$PINGPONG" rtt -n "$PINGS" -- $CAT
		[ "$have_socat" = 1 ] && row rtt socat "$PINGPONG" rtt -n "$PINGS" -- \
			socat STDIO "TCP:127.0.0.1:$cat_port"
		hop rtt_row
		# shellcheck disable=SC2086
		row bulk direct "$PINGPONG" bulk -b "$BULK" -- $CAT
		[ "$have_socat" = 1 ] && row bulk socat "$PINGPONG" bulk -b "$BULK" -- \
			socat STDIO "TCP:127.0.0.1:$cat_port"
		hop bulk_row
		r=$((r + 1))
	done
fi

# --- (c) start-up ---------------------------------------------------------
if [ -x "$PINGPONG" ]; then
	note "(c) start-up: fork to first byte on the wire, $FIRST times"
	# pingpong's own listener stands in for the runner (AIRLOCK_RUNNER, and
	# @ADDR@ for socat, name it); it takes the first byte and hangs up.
	[ "$have_socat" = 1 ] && row first socat "$PINGPONG" firstbyte -n "$FIRST" -- \
		socat STDIO TCP:@ADDR@
	# shellcheck disable=SC2086
	row first airlock "$PINGPONG" firstbyte -n "$FIRST" \
		-e AIRLOCK_RUNNER -- "$AIRLOCK" relay -- $CAT
fi
note "(c) one whole lease of cat.py with stdin at EOF, $LEASES times"
lease_direct=$CAT
lease_socat="socat /dev/null TCP:127.0.0.1:${cat_port:-0}"
lease_airlock="$AIRLOCK relay -- $CAT"
[ "$have_hyperfine" = 1 ] ||
	note "hyperfine not installed (apt-get install hyperfine): timing a shell loop"
for l in direct socat airlock; do
	[ "$l" = socat ] && [ "$have_socat" != 1 ] && continue
	eval "cmd=\$lease_$l"
	if [ "$have_hyperfine" = 1 ]; then
		# one hyperfine per path: a failing path is its own error
		if clean hyperfine -N --style none --warmup 5 --runs "$LEASES" \
		    --export-json "$work/lease.json" -n "$l" "$cmd" \
		    </dev/null >"$work/hyperfine.txt" 2>&1; then
			python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print("lease %s tool=hyperfine mean_ms=%.3f median_ms=%.3f stddev_ms=%.3f"
          % (r["command"], r["mean"] * 1e3, r["median"] * 1e3, r["stddev"] * 1e3))' \
				"$work/lease.json" >>"$raw" ||
				error lease "$l" "could not read hyperfine's JSON"
		else
			error lease "$l" "hyperfine: $(tail -n 3 "$work/hyperfine.txt" | tr '\n' ' ')"
		fi
		continue
	fi
	t0=$(date +%s%N)
	i=0
	while [ "$i" -lt "$LEASES" ]; do
		# shellcheck disable=SC2086
		clean $cmd >/dev/null 2>"$work/lease.err" </dev/null || break
		i=$((i + 1))
	done
	t1=$(date +%s%N)
	if [ "$i" -lt "$LEASES" ]; then
		error lease "$l" "run $((i + 1)) failed: $(tail -n 3 "$work/lease.err" | tr '\n' ' ')"
		continue
	fi
	echo "lease $l tool=loop mean_ms=$(awk -v a="$t0" -v b="$t1" -v n="$LEASES" \
		'BEGIN { printf "%.3f", (b - a) / n / 1e6 }')" >>"$raw"
done

awk -f bench/summary.awk "$raw" >"$out/results.md" || exit 1
if [ -s "$errors" ]; then
	{
		echo "## Errors"
		echo
		echo "These rows did not run, so they have no figures:"
		echo
		cat "$errors"
		echo
	} >>"$out/results.md"
fi
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)." >>"$out/results.md"
cat "$out/machine.md" "$out/results.md" >"$out/report.md"
cat "$out/report.md"
echo
echo "raw: $raw; report: $out/report.md"
[ ! -s "$errors" ]
