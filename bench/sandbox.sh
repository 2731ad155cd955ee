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
#   java    test/java/benign/Tool.java:
#     plain    javac -d DIR Tool.java && java -cp DIR Tool (default JVM
#              flags; the sandbox uses serial GC and C1 only)
#     airlock  airlock sandbox run --lang java (javac in the jail, every
#              class file checked, java)
# Overhead = run - plain; the ratio airlock/bwrap compares the overheads
# (target: <= 1). Knobs: BENCH_RUNS (30), BENCH_JAVA_RUNS (5), AIRLOCK.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
AIRLOCK=${AIRLOCK:-$top/airlock}
CGRUN=$top/build/test/helpers/cgrun
RUNS=${BENCH_RUNS:-30}
JRUNS=${BENCH_JAVA_RUNS:-5}
PY=/usr/bin/python3
W=$(mktemp -d /tmp/airlock-sbx-bench.XXXXXX)
chmod 711 "$W"
trap 'rm -rf "$W"' EXIT INT TERM
cp test/java/py/hello.py "$W/"
echo '{"a": 1, "b": [1, 2, 3]}' >"$W/in.json"
ST=$W/state

now_ns() { date +%s%N; }

# one_py MODE: one execution; its wall time in microseconds on stdout
one_py() {
	t0=$(now_ns)
	case $1 in
	plain) $PY -I "$W/hello.py" <"$W/in.json" >/dev/null ;;
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
		$PY -I hello.py <"$W/in.json" >"$W/bwrap.out" ;;
	airlock) "$AIRLOCK" sandbox run --state-dir "$ST" --lang python \
		--input "$W/in.json" -- "$W/hello.py" >/dev/null 2>&1 ;;
	nolandlock) "$AIRLOCK" sandbox run --state-dir "$ST" --landlock off \
		--lang python --input "$W/in.json" -- "$W/hello.py" \
		>/dev/null 2>&1 ;;
	serve) "$AIRLOCK" sandbox call --connect "unix:$W/sbx.sock" \
		--secret-file "$W/secret" --tenant bench --lang python \
		--input "$W/in.json" -- "$W/hello.py" >/dev/null 2>&1 ;;
	esac
	t1=$(now_ns)
	echo $(((t1 - t0) / 1000))
}

one_java() {
	t0=$(now_ns)
	case $1 in
	plain) rm -rf "$W/jc" && mkdir "$W/jc" &&
		javac -d "$W/jc" test/java/benign/Tool.java &&
		java -cp "$W/jc" Tool <"$W/in.json" >/dev/null ;;
	airlock) "$AIRLOCK" sandbox run --state-dir "$ST" --lang java \
		--input "$W/in.json" -- test/java/benign/Tool.java \
		>/dev/null 2>&1 ;;
	esac
	t1=$(now_ns)
	echo $(((t1 - t0) / 1000))
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print 0;
	    else if (NR % 2) print v[(NR + 1) / 2];
	    else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

modes="plain airlock"
if command -v bwrap >/dev/null 2>&1 && BWRAP_PROBE=1 one_py bwrap >/dev/null &&
    [ -s "$W/bwrap.out" ]; then
	modes="plain bwrap airlock nolandlock"
	if [ -x "$CGRUN" ] && BWRAP_PROBE=1 one_py bwrapcg >/dev/null &&
	    [ -s "$W/bwrap.out" ]; then
		modes="$modes bwrapcg"
	else
		echo "(no writable cgroups for $CGRUN: no bwrap+cgroups row)"
	fi
else
	echo "(bwrap missing or unable to make namespaces here: no bwrap row)"
fi
# the service: its jail is set up once, each call pays one execution
head -c 48 /dev/urandom >"$W/secret"
chmod 600 "$W/secret"
"$AIRLOCK" sandbox serve --listen "unix:$W/sbx.sock" --secret-file "$W/secret" \
	--state-dir "$W/state-serve" --tenant-concurrency 64 2>/dev/null &
SERVE=$!
trap 'kill $SERVE 2>/dev/null; wait $SERVE 2>/dev/null; rm -rf "$W"' EXIT INT TERM
i=0
while [ ! -S "$W/sbx.sock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
modes="$modes serve"
# warm the page cache once
for m in $modes; do one_py "$m" >/dev/null; done
i=0
while [ $i -lt "$RUNS" ]; do
	for m in $modes; do echo "$(one_py "$m")" >>"$W/py.$m"; done
	i=$((i + 1))
done
have_java=
command -v javac >/dev/null 2>&1 && have_java=1
if [ -n "$have_java" ]; then
	for m in plain airlock; do one_java "$m" >/dev/null; done
	i=0
	while [ $i -lt "$JRUNS" ]; do
		for m in plain airlock; do
			echo "$(one_java "$m")" >>"$W/java.$m"
		done
		i=$((i + 1))
	done
fi

p_plain=$(median <"$W/py.plain")
echo "## airlock sandbox: per-execution cost ($RUNS python runs, $JRUNS java runs; medians)"
echo
echo "python3 hello.py alone: $(awk -v p="$p_plain" 'BEGIN { printf "%.1f ms", p / 1000 }')."
echo
echo "| python hello.py | time | overhead | ratio to bwrap's overhead | ratio to bwrap+cgroups' overhead |"
echo "|---|---|---|---|---|"
p_bw=0
p_bwcg=0
[ -f "$W/py.bwrap" ] && p_bw=$(median <"$W/py.bwrap")
[ -f "$W/py.bwrapcg" ] && p_bwcg=$(median <"$W/py.bwrapcg")
# row LABEL MODE: the mode's median, its overhead and both ratios
row() {
	[ -f "$W/py.$2" ] || return 0
	awk -v l="$1" -v p="$p_plain" -v t="$(median <"$W/py.$2")" \
	    -v b="$p_bw" -v c="$p_bwcg" 'BEGIN {
	    o = t - p
	    printf "| %s | %.1f ms | %.1f ms | %s | %s |\n", l, t / 1000, o / 1000,
	        (b > p ? sprintf("%.2f", o / (b - p)) : "-"),
	        (c > p ? sprintf("%.2f", o / (c - p)) : "-") }'
}
row "bwrap, same namespaces" bwrap
row "bwrap, same namespaces, in fresh cgroups" bwrapcg
row "airlock sandbox run" airlock
row "airlock sandbox run --landlock off" nolandlock
row "airlock sandbox call -> serve" serve
if [ -n "$have_java" ]; then
	j_plain=$(median <"$W/java.plain")
	j_air=$(median <"$W/java.airlock")
	echo
	awk -v p="$j_plain" -v a="$j_air" 'BEGIN {
	    printf "Java Tool.java: plain javac + java %.1f ms; airlock sandbox run (javac in the jail, every class checked, java) %.1f ms: ratio %.2f\n",
	    p / 1000, a / 1000, a / p }'
fi
echo
echo "Machine: $(nproc) CPUs, $(uname -sr), python $($PY -c 'import sys; print(sys.version.split()[0])')$( [ -n "$have_java" ] && printf ', %s' "$(javac -version 2>&1)")."
