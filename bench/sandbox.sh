#!/bin/sh
# bench/sandbox.sh - what one `airlock sandbox run` costs, against plain
# python3 and against bwrap with the equivalent namespaces, interleaved in
# the same run on the same machine; and Java compile + check + run against
# plain javac + java. Not a test: nothing here is asserted. Prints a
# markdown table and the ratios.
#
#   python  the trivial tool test/java/py/hello.py (JSON in, JSON out):
#     plain    /usr/bin/python3 -I hello.py
#     bwrap    the same in new user, pid, mount, ipc, uts, cgroup and net
#              namespaces, read-only /usr, fresh /proc and /dev, tmpfs /tmp,
#              the tool's directory bound at /work, uid 65534, clearenv
#     bwrap+cg that bwrap inside fresh cgroups with the sandbox's default
#              limits (test/helpers/cgrun: airlock's own cgroup code; on
#              v1 the task migration waits an RCU grace period), the
#              like-for-like peer of a sandbox that enforces limits
#     airlock  airlock sandbox run --lang python (ns jail: the same
#              namespaces, plus the cgroup limits, Landlock, seccomp, a
#              fresh uid and a tmpfs working directory per execution);
#              each run also sets the jail up (host probe, seccomp
#              compile, service cgroup) as a one-off CLI must
#     no-ll    the same with --landlock off (what Landlock costs)
#     serve    airlock sandbox call to a running airlock sandbox serve
#              (unix socket): the handshake, the request, one execution;
#              the service's jail set-up is paid once, at start
#     warm     the same call to a serve with --warm python=2: the jail and
#              the interpreter were prepared before the call
#     gateway  the same tool posted by curl to `airlock sandbox gateway`
#              (unix socket) in front of that warm serve, Piston's
#              POST /api/v2/execute: curl's start, the HTTP request, the
#              gateway's handshake and call, the JSON answer
#     gwclient the same request from one waiting HTTP client process
#              (bench/gwclient.py, after the rounds: a platform's client,
#              no client start), a connection per request
#   calls per second at saturation: BENCH_CALLS calls (60) from 4 clients
#     at once, to the cold serve and to the warm one
#   java    test/java/benign/Tool.java:
#     plain    javac -d DIR Tool.java && java -cp DIR Tool (default JVM
#              flags; the sandbox uses serial GC and C1 only)
#     airlock  airlock sandbox run --lang java (javac in the jail, every
#              class file checked, java)
#     jwarm    airlock sandbox call to a serve with --warm java=2: a JVM
#              waited in the slot with javac warmed up; it compiles (javax.
#              tools), airlock checks every class file, the same JVM runs
#              main. Each call is timed on a ready slot (the replacement
#              warms up in the background, between calls, untimed)
# Java runs get --timeout 60s --cpu-time 30s: the defaults (5 s, 2 s of
# CPU) are a tool's limits, and javac on a loaded machine takes more. Overhead = run - plain; the ratio airlock/bwrap compares the overheads
# (target: <= 1). Knobs: BENCH_RUNS (30), BENCH_JAVA_RUNS (5), AIRLOCK;
# BENCH_SMOKE=1 (one run each: does every row run?). A mode whose run
# fails is an error row, with why, and the script exits 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
AIRLOCK=${AIRLOCK:-$top/airlock}
CGRUN=$top/build/test/helpers/cgrun
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	set -- 1 1 4
else
	set -- 30 5 60
fi
RUNS=${BENCH_RUNS:-$1}
JRUNS=${BENCH_JAVA_RUNS:-$2}
CALLS=${BENCH_CALLS:-$3}
PY=/usr/bin/python3
# the sandbox refuses a state directory below one others can write
. "$top/scripts/scratch.sh"
scratch_root airlock-bench || exit 1
W=$(mktemp -d "$SCRATCH_ROOT/airlock-sbx-bench.XXXXXX") || exit 1
chmod 711 "$W"
SERVE=
WARM=
JWARM=
GATEWAY=
trap 'for p in $SERVE $WARM $JWARM $GATEWAY; do kill "$p" 2>/dev/null; done; rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
# uid ranges of our own: another service's executions (serve's below, or
# another checkout's tests) may hold uids of the default one
BASE=$((7000000 + ($$ % 4000) * 1000))
RUN_UIDS=$BASE-$((BASE + 399))
SERVE_UIDS=$((BASE + 400))-$((BASE + 699))
WARM_UIDS=$((BASE + 700))-$((BASE + 849))
JWARM_UIDS=$((BASE + 850))-$((BASE + 999))
cp test/java/py/hello.py "$W/"
echo '{"a": 1, "b": [1, 2, 3]}' >"$W/in.json"
ST=$W/state

now_ns() { date +%s%N; }

# one_py MODE: one execution; its wall time in microseconds on stdout, or
# its exit status and stderr's tail in $W/err.MODE and status 1
one_py() {
	t0=$(now_ns)
	case $1 in
	plain) $PY -I "$W/hello.py" <"$W/in.json" >/dev/null 2>"$W/stderr" ;;
	bwrap | bwrapcg)
		wrap=
		[ "$1" = bwrapcg ] && wrap=$CGRUN
		$wrap bwrap --unshare-all --die-with-parent --new-session \
		--ro-bind /usr /usr --symlink usr/lib /lib \
		--symlink usr/lib64 /lib64 --symlink usr/bin /bin \
		--symlink usr/sbin /sbin --proc /proc --dev /dev --tmpfs /tmp \
		--bind "$W" /work --chdir /work --clearenv \
		--setenv PATH /usr/bin:/bin --setenv HOME /tmp \
		--setenv LANG C.UTF-8 --uid 65534 --gid 65534 \
		$PY -I hello.py <"$W/in.json" >"$W/bwrap.out" 2>"$W/stderr" ;;
	airlock) "$AIRLOCK" sandbox run --state-dir "$ST" --uid-range "$RUN_UIDS" --lang python \
		--input "$W/in.json" -- "$W/hello.py" >/dev/null 2>"$W/stderr" ;;
	nolandlock) "$AIRLOCK" sandbox run --state-dir "$ST" --uid-range "$RUN_UIDS" --landlock off \
		--lang python --input "$W/in.json" -- "$W/hello.py" \
		>/dev/null 2>"$W/stderr" ;;
	serve | warm) "$AIRLOCK" sandbox call --connect "unix:$W/$1.sock" \
		--secret-file "$W/secret" --tenant bench --lang python \
		--input "$W/in.json" -- "$W/hello.py" >/dev/null 2>"$W/stderr" ;;
	gateway) curl -s --unix-socket "$W/gw.sock" -o "$W/gw.out" \
		-H 'X-Airlock-Tenant: bench' -H 'Content-Type: application/json' \
		--data-binary "@$W/gw.json" http://gateway/api/v2/execute \
		2>"$W/stderr" && grep -q '"code":0' "$W/gw.out" ||
		{ head -c 300 "$W/gw.out" >>"$W/stderr"; false; } ;;
	esac
	timed $? "$t0" "$1"
}

# timed STATUS T0 MODE: the time since T0, or the failure noted for MODE
timed() {
	t1=$(now_ns)
	if [ "$1" != 0 ]; then
		echo "exit $1: $(tail -n 2 "$W/stderr" | tr '\n' ' ')" >"$W/err.$3"
		return 1
	fi
	echo $(((t1 - $2) / 1000))
}

one_java() {
	t0=$(now_ns)
	case $1 in
	plain) rm -rf "$W/jc" && mkdir "$W/jc" &&
		javac -d "$W/jc" test/java/benign/Tool.java 2>"$W/stderr" &&
		java -cp "$W/jc" Tool <"$W/in.json" >/dev/null 2>"$W/stderr" ;;
	airlock) "$AIRLOCK" sandbox run --state-dir "$ST" --uid-range "$RUN_UIDS" \
		--timeout 60s --cpu-time 30s --lang java \
		--input "$W/in.json" -- test/java/benign/Tool.java \
		>/dev/null 2>"$W/stderr" ;;
	jwarm) "$AIRLOCK" sandbox call --connect "unix:$W/jwarm.sock" \
		--secret-file "$W/secret" --tenant bench --lang java \
		--input "$W/in.json" -- test/java/benign/Tool.java \
		>/dev/null 2>"$W/stderr" ;;
	esac
	timed $? "$t0" "java$1"
}

# jwarm_ready: wait (untimed, up to 5 minutes) until the warm Java service
# has a ready slot, so that a sample times a warm call, not a warm-up
jwarm_ready() {
	python3 -c 'import os, sys, time, urllib.request
for _ in range(1500):
    try:
        os.kill(int(sys.argv[2]), 0)
    except ProcessLookupError:
        sys.exit(1)	# the service is gone: no slot will come
    try:
        for l in urllib.request.urlopen(sys.argv[1], timeout=5).read().decode().splitlines():
            if l.startswith("airlock_sandbox_warm_slots_idle ") and float(l.split()[1]) >= 1:
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.2)
sys.exit(1)' "http://127.0.0.1:$JWARM_MPORT/metrics" "$JWARM"
}

# jwarm_wait MODE: before a warm Java sample, a ready slot; the row's
# error once none comes (the service gone, or 5 minutes)
jwarm_wait() {
	[ "$1" = jwarm ] && [ ! -f "$W/err.javajwarm" ] && ! jwarm_ready &&
		echo "no warm Java slot was ready (the service ended, or 5 minutes passed)" \
			>"$W/err.javajwarm"
	return 0
}

# sample KIND MODE: one run into $W/KIND.MODE; a failure is kept once, in
# $W/err.(java)MODE, and that mode gets no figure
sample() {
	[ -f "$W/err.${1#py}$2" ] && return 0
	if t=$("one_$1" "$2"); then
		echo "$t" >>"$W/$1.$2"
	else
		rm -f "$W/$1.$2"
	fi
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print 0;
	    else if (NR % 2) print v[(NR + 1) / 2];
	    else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

modes="plain airlock nolandlock"
if command -v bwrap >/dev/null 2>&1 && one_py bwrap >/dev/null &&
    [ -s "$W/bwrap.out" ]; then
	modes="$modes bwrap"
	if [ -x "$CGRUN" ] && one_py bwrapcg >/dev/null &&
	    [ -s "$W/bwrap.out" ]; then
		modes="$modes bwrapcg"
	else
		echo "(no writable cgroups for $CGRUN: no bwrap+cgroups row)"
	fi
else
	echo "(bwrap missing or unable to make namespaces here: no bwrap row)"
fi
rm -f "$W"/err.*	# the probes' failures only chose the rows
# the service: its jail is set up once, each call pays one execution
head -c 48 /dev/urandom >"$W/secret"
chmod 600 "$W/secret"
# listening SOCK PID WHAT LOG MODE: wait up to 10 s for PID to listen on
# SOCK; if it does not, MODE's error says so, with LOG's tail
listening() {
	i=0
	while [ ! -S "$1" ] && [ $i -lt 200 ] && kill -0 "$2" 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -S "$1" ] ||
		echo "$3 did not start: $(tail -n 2 "$4" | tr '\n' ' ')" >"$W/err.$5"
}
# start_serve MODE UIDS [OPTIONS]: a service on $W/MODE.sock, its pid in
# $MODE_pid; a service that does not start is MODE's error
start_serve() {
	sm=$1
	su=$2
	shift 2
	"$AIRLOCK" sandbox serve --listen "unix:$W/$sm.sock" --secret-file "$W/secret" \
		--state-dir "$W/state-$sm" --uid-range "$su" --tenant-concurrency 64 \
		"$@" 2>"$W/$sm.log" &
	eval "${sm}_pid=\$!"
	listening "$W/$sm.sock" "$(eval echo \$${sm}_pid)" "sandbox serve ($sm)" "$W/$sm.log" "$sm"
}
start_serve serve "$SERVE_UIDS"
SERVE=$serve_pid
start_serve warm "$WARM_UIDS" --warm python=2
WARM=$warm_pid
# the warm slots are prepared in the background: let both be ready
i=0
while [ ! -f "$W/err.warm" ] && [ "$(ls -d "$W"/state-warm/lease-* 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
modes="$modes serve warm"
# the gateway in front of the warm service, and the request it is posted
python3 -c 'import json, sys
print(json.dumps({"language": "python", "version": "*",
    "files": [{"name": "hello.py", "content": open(sys.argv[1]).read()}],
    "stdin": open(sys.argv[2]).read()}))' "$W/hello.py" "$W/in.json" >"$W/gw.json"
if command -v curl >/dev/null 2>&1; then
	"$AIRLOCK" sandbox gateway --listen "unix:$W/gw.sock" --connect "unix:$W/warm.sock" \
		--secret-file "$W/secret" 2>"$W/gateway.log" &
	GATEWAY=$!
	listening "$W/gw.sock" "$GATEWAY" "sandbox gateway" "$W/gateway.log" gateway
	modes="$modes gateway"
else
	echo "(curl missing: no gateway row)"
fi
# warm the page cache once
for m in $modes; do sample py "$m"; done
rm -f "$W"/py.*
i=0
while [ $i -lt "$RUNS" ]; do
	for m in $modes; do sample py "$m"; done
	i=$((i + 1))
done
# the gateway from a waiting client: its samples after the rounds, each
# after a pause that lets the warm slots be rebuilt
case " $modes " in *" gateway "*)
	modes="$modes gwclient"
	if [ ! -f "$W/err.gateway" ] &&
	    python3 bench/gwclient.py "$W/gw.sock" "$W/gw.json" "$RUNS" 0.2 \
	    >"$W/py.gwclient" 2>"$W/stderr"; then
		:
	else
		echo "bench/gwclient.py: $(tail -n 2 "$W/stderr" | tr '\n' ' ')" >"$W/err.gwclient"
	fi ;;
esac
have_java=
command -v javac >/dev/null 2>&1 && have_java=1
jmodes="plain airlock"
if [ -n "$have_java" ]; then
	JWARM_MPORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	start_serve jwarm "$JWARM_UIDS" --warm java=2 --log-format json \
		--metrics "127.0.0.1:$JWARM_MPORT"
	JWARM=$jwarm_pid
	# a service that did not start fails the row at once, not per sample
	[ -f "$W/err.jwarm" ] && cp "$W/err.jwarm" "$W/err.javajwarm"
	jmodes="$jmodes jwarm"
	for m in $jmodes; do
		jwarm_wait "$m"
		sample java "$m"
	done
	rm -f "$W"/java.*
	i=0
	while [ $i -lt "$JRUNS" ]; do
		for m in $jmodes; do
			jwarm_wait "$m"
			sample java "$m"
		done
		i=$((i + 1))
	done
fi

# figure MODE: the median of MODE's runs; nothing when it failed
figure() {
	[ -f "$W/err.$1" ] || [ ! -s "$W/$1" ] || median <"$W/$1"
}
p_plain=$(figure py.plain)
echo "## airlock sandbox: per-execution cost ($RUNS python runs, $JRUNS java runs; medians)"
echo
if [ -n "$p_plain" ]; then
	echo "python3 hello.py alone: $(awk -v p="$p_plain" 'BEGIN { printf "%.1f ms", p / 1000 }')."
else
	echo "python3 hello.py alone: **error**: $(cat "$W/err.plain")"
fi
echo
echo "| python hello.py | time | overhead | ratio to bwrap's overhead | ratio to bwrap+cgroups' overhead |"
echo "|---|---|---|---|---|"
p_bw=$(figure py.bwrap)
p_bwcg=$(figure py.bwrapcg)
# row LABEL MODE: the mode's median, its overhead and both ratios, or its
# error
row() {
	case " $modes " in *" $2 "*) ;; *) return 0 ;; esac
	if [ -f "$W/err.$2" ]; then
		echo "| $1 | **error**: $(cat "$W/err.$2") | - | - | - |"
		return
	fi
	awk -v l="$1" -v p="$p_plain" -v t="$(figure "py.$2")" \
	    -v b="$p_bw" -v c="$p_bwcg" 'BEGIN {
	    o = t - p
	    printf "| %s | %.1f ms | %s | %s | %s |\n", l, t / 1000,
	        (p != "" ? sprintf("%.1f ms", o / 1000) : "-"),
	        (p != "" && b > p ? sprintf("%.2f", o / (b - p)) : "-"),
	        (p != "" && c > p ? sprintf("%.2f", o / (c - p)) : "-") }'
}
row "bwrap, same namespaces" bwrap
row "bwrap, same namespaces, in fresh cgroups" bwrapcg
row "airlock sandbox run" airlock
row "airlock sandbox run --landlock off" nolandlock
row "airlock sandbox call -> serve" serve
row "airlock sandbox call -> serve --warm" warm
row "curl -> airlock sandbox gateway -> serve --warm" gateway
row "an HTTP client process -> airlock sandbox gateway -> serve --warm" gwclient
p_warm=$(figure py.warm)
p_gw=$(figure py.gwclient)
if [ -n "$p_plain" ] && [ -n "$p_warm" ]; then
	echo
	awk -v p="$p_plain" -v w="$p_warm" 'BEGIN {
	    printf "warm call / plain python3: ratio %.2f (the whole call: client start, handshake, upload, execution, result)\n", w / p }'
fi
if [ -n "$p_plain" ] && [ -n "$p_gw" ]; then
	awk -v p="$p_plain" -v w="$p_gw" 'BEGIN {
	    printf "warm call through the gateway / plain python3: ratio %.2f (from a waiting HTTP client: HTTP, the gateway'"'"'s handshake and call, the JSON answer)\n", w / p }'
fi
# saturation: $CALLS calls from 4 clients at once, to each service
echo
for m in serve warm; do
	[ -f "$W/err.$m" ] && continue
	t0=$(now_ns)
	seq "$CALLS" | xargs -P 4 -I{} sh -c '"$1" sandbox call --connect "unix:$2/$3.sock" \
		--secret-file "$2/secret" --tenant "b{}" --lang python --input "$2/in.json" \
		-- "$2/hello.py" >/dev/null 2>>"$2/sat.err" || echo x >>"$2/sat.fail"' _ "$AIRLOCK" "$W" "$m"
	t1=$(now_ns)
	if [ -s "$W/sat.fail" ]; then
		echo "calls per second, $m: **error**: $(wc -l <"$W/sat.fail") of $CALLS calls failed: $(tail -n 1 "$W/sat.err")" 
		echo "saturation $m" >"$W/err.sat$m"
		rm -f "$W/sat.fail"
	else
		awk -v n="$CALLS" -v t="$((t1 - t0))" -v m="$m" -v c="$(nproc)" 'BEGIN {
		    printf "calls per second at saturation (%d calls, 4 clients, %d CPUs), %s: %.1f\n", n, c, m, n / (t / 1e9) }'
	fi
done
if [ -n "$have_java" ]; then
	echo
	j_plain=$(figure java.plain)
	j_air=$(figure java.airlock)
	if [ -n "$j_plain" ] && [ -n "$j_air" ]; then
		awk -v p="$j_plain" -v a="$j_air" 'BEGIN {
		    printf "Java Tool.java: plain javac + java %.1f ms; airlock sandbox run (javac in the jail, every class checked, java) %.1f ms: ratio %.2f\n",
		    p / 1000, a / 1000, a / p }'
	else
		for m in plain airlock; do
			[ -f "$W/err.java$m" ] &&
				echo "Java Tool.java, $m: **error**: $(cat "$W/err.java$m")"
		done
	fi
	j_warm=$(figure java.jwarm)
	if [ -n "$j_plain" ] && [ -n "$j_warm" ]; then
		awk -v p="$j_plain" -v w="$j_warm" -v n="$(grep -c '"start":"warm"' "$W/jwarm.log")" 'BEGIN {
		    printf "Java Tool.java, warm: airlock sandbox call -> serve --warm java=2 (a ready slot) %.1f ms: ratio to plain javac + java %.2f (goal <= 0.3); %d of the calls warm\n",
		    w / 1000, w / p, n }'
	elif [ -f "$W/err.javajwarm" ]; then
		echo "Java Tool.java, warm: **error**: $(cat "$W/err.javajwarm")"
	fi
else
	echo
	echo "Java: skipped, no javac (apt-get install openjdk-17-jdk-headless)."
fi
echo
echo "Machine: $(nproc) CPUs, $(uname -sr), python $($PY -c 'import sys; print(sys.version.split()[0])')$( [ -n "$have_java" ] && printf ', %s' "$(javac -version 2>&1)"); load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
if ls "$W"/err.* >/dev/null 2>&1; then
	echo
	echo "sandbox.sh: $(ls "$W"/err.* | wc -l) mode(s) failed (**error** above): no figure for them"
	exit 1
fi
