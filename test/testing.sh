# testing.sh - one-line shell test cases, sourced by test/check.sh for each
# test/*.test file (toybox style).
#
#   testing NAME COMMAND EXPECTED_STDOUT INFILE STDIN
#       runs COMMAND with sh in a scratch directory holding INFILE as
#       ./input, STDIN on its standard input; passes when its standard
#       output equals EXPECTED_STDOUT (use "$(...)" to include the exit code,
#       or append '; echo $?' to COMMAND).
#   check NAME EXPECTED ACTUAL
#       for cases that need background processes: the .test file runs
#       the steps itself and passes what it observed
#   skip NAME REASON       record a case that cannot run here, and why
#   need_root NAME         returns 1 (and records a skip) unless root
#   need_cmd NAME CMD...   returns 1 unless every CMD is on PATH, having
#                          recorded why for the case NAME: a skip naming
#                          the package and `sh scripts/packages.sh install`
#                          (as root, where `make check` installs the list,
#                          a failure); a CMD that scripts/packages.list
#                          does not name always fails (a fresh machine
#                          would not have it)
#   have_cmd CMD           the same check, silent when CMD is merely absent
#   wait_for CMD           polls CMD (eval'd) every 0.05 s until it
#                          succeeds; 1 after 10 s (a bound for
#                          correctness, not speed)
#   gone PID               no process PID (killed and reaped)
#   alive PID              PID runs and is not a zombie
#   free_port              a free loopback TCP port, chosen by the kernel
#   start_runner [OPTIONS] starts $RUNNER_CMD OPTIONS, the service the
#                          cases talk to (a runner, `sandbox serve`), in
#                          the background: RUNNER_PID its pid, stderr
#                          appended to $LOG, PATH
#                          $RUNNER_PATH (default $BIN:/usr/bin:/bin), after
#                          removing a stale $SOCK; returns once $RUNNER_READY
#                          (eval'd; default: the socket $SOCK exists) holds,
#                          else shows the log's tail and returns 1.
#                          RUNNER_CMD is shell words expanded at each start,
#                          so a case varies it by a variable:
#                          RUNNER_CMD='"$AIRLOCK" runner --jail "$JAIL" ...'
#                          then JAIL=ns start_runner --pids 40
#   stop_runner            kills (TERM) and reaps it; nothing when none runs
#   HELD_STDIN             a FIFO this shell holds open (fd 5) and never
#                          writes: the stdin of a relay whose lease must
#                          stay until the test ends it (a server whose
#                          stdin reached EOF is ended after --kill-grace)
#   busy_relays N RELAY_CMD...
#                          N relays in a row, each still sending 2 MB of
#                          stdin when its lease ends (as an MCP client
#                          writes `initialize` at once); prints each exit
#                          status with how its error began, counted:
#                          "20 77 env;" when all 20 were refused for env
#
# Environment: AIRLOCK (the binary under test), RESULTS (the tally file),
# TESTDIR (a scratch directory removed afterwards), TESTROOT (where a test
# makes scratch directories of its own: as root, one only root can change).

: "${AIRLOCK:?}" "${RESULTS:?}" "${TESTDIR:?}"

record() {
	printf '%s\n' "$*" >>"$RESULTS"
}

testing() {
	t_name=$1 t_cmd=$2 t_want=$3
	t_dir=$TESTDIR/case
	rm -rf "$t_dir"
	mkdir -p "$t_dir"
	printf '%s' "$4" >"$t_dir/input"
	t_got=$(cd "$t_dir" && printf '%s' "$5" | sh -c "$t_cmd" 2>"$t_dir/stderr"; echo x)
	t_got=${t_got%x}
	if [ "$t_got" = "$t_want" ]; then
		echo "PASS: $t_name"
		record PASS
	else
		echo "FAIL: $t_name"
		echo "  command:  $t_cmd"
		printf '  expected: %s\n' "$t_want" | head -n 20
		printf '  got:      %s\n' "$t_got" | head -n 20
		sed 's/^/  stderr:   /' "$t_dir/stderr" | head -n 20
		record FAIL
	fi
}

check() {
	if [ "$3" = "$2" ]; then
		echo "PASS: $1"
		record PASS
	else
		echo "FAIL: $1"
		printf '  expected: %s\n  got:      %s\n' "$2" "$3"
		record FAIL
	fi
}

skip() {
	echo "SKIP: $1 ($2)"
	record SKIP
}

need_root() {
	[ "$(id -u)" -eq 0 ] && return 0
	skip "$1" "needs root"
	return 1
}

PACKAGES_LIST=${PACKAGES_LIST:-$(cd "$(dirname "$AIRLOCK")" && pwd)/scripts/packages.list}

# listed_cmd CMD: "USE PACKAGE" of the list's line naming CMD, or nothing
listed_cmd() {
	awk -v c="$1" '!/^#/ { for (i = 3; i <= NF; i++) if ($i == c) { print $1, $2; exit } }' \
		"$PACKAGES_LIST"
}

have_cmd() {
	if [ -z "$(listed_cmd "$1")" ]; then
		echo "FAIL: a test calls '$1', which scripts/packages.list does not name"
		record FAIL
		return 1
	fi
	command -v "$1" >/dev/null 2>&1
}

need_cmd() {
	nc_name=$1
	shift
	for nc_c; do
		[ -n "$(listed_cmd "$nc_c")" ] || { have_cmd "$nc_c"; return 1; }
		command -v "$nc_c" >/dev/null 2>&1 && continue
		set -- $(listed_cmd "$nc_c")
		if [ "$1" = none ]; then
			skip "$nc_name" "$nc_c is not installed: Debian 12 has no $2 package and its registry is not reachable here"
		elif [ "$(id -u)" -eq 0 ]; then
			echo "FAIL: $nc_name ($nc_c is not installed: package $2; sh scripts/packages.sh install)"
			record FAIL
		else
			skip "$nc_name" "$nc_c is not installed: package $2; as root: sh scripts/packages.sh install"
		fi
		return 1
	done
}

wait_for() {
	wf_i=0
	while ! eval "$1" >/dev/null 2>&1; do
		wf_i=$((wf_i + 1))
		[ $wf_i -gt 200 ] && return 1
		sleep 0.05
	done
}

# gone PID: PID has ended. No pid is not "gone": a process the test
# never learnt of fails the case (under set -u an unset $1 would end the
# whole test silently).
gone() { [ -n "${1:-}" ] && ! kill -0 "$1" 2>/dev/null; }

HELD_STDIN=$TESTDIR/held-stdin
export HELD_STDIN
[ -p "$HELD_STDIN" ] || mkfifo "$HELD_STDIN"
exec 5<>"$HELD_STDIN"

alive() {
	al_st=$(cut -d' ' -f3 "/proc/${1:-none}/stat" 2>/dev/null)
	[ -n "$al_st" ] && [ "$al_st" != Z ] && [ "$al_st" != X ]
}

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

start_runner() {
	eval "set -- $RUNNER_CMD \"\$@\""
	[ -n "${SOCK:-}" ] && rm -f "$SOCK"
	PATH=${RUNNER_PATH:-$BIN:/usr/bin:/bin} "$@" 2>>"$LOG" &
	RUNNER_PID=$!
	wait_for "${RUNNER_READY:-[ -S \"\$SOCK\" ]}" && return 0
	echo "  runner did not start:"
	tail -n 5 "$LOG"
	return 1
}

stop_runner() {
	[ -n "${RUNNER_PID:-}" ] || return 0
	kill "$RUNNER_PID" 2>/dev/null
	wait "$RUNNER_PID" 2>/dev/null
	RUNNER_PID=
}

busy_relays() {
	br_n=$1
	shift
	br_i=0
	while [ $br_i -lt "$br_n" ]; do
		head -c 2000000 /dev/zero | "$@" >/dev/null 2>"$TESTDIR/busy.err"
		br_rc=$?
		br_why=$(sed -n -e 's/.*runner refused the request: \([a-z_]*\):.*/\1/p' \
			-e 's/.*connection to the runner lost.*/lost/p' \
			"$TESTDIR/busy.err")
		echo "$br_rc ${br_why:-none}"
		br_i=$((br_i + 1))
	done | sort | uniq -c | sed 's/^ *//' | tr '\n' ';'
}

# cgroup_private: this shell moves into a group of its own (cgtest-*)
# in each cgroup v1 hierarchy of memory, pids, cpu and cpuacct, so that
# the services it starts make their groups there: their sweep of dead
# services' groups (common/jail/cgroup.c) then sees only this test's,
# never a concurrent checkout's (an older airlock locks none of its own).
# "echo 0" moves the writer: this shell, also in a subshell (where $$ is
# the parent's). CG_PRIVATE: the directories. cgroup_private_end moves
# back and removes them.
cgroup_private() {
	CG_PRIVATE= CG_HOME=
	cp_name=cgtest-$$-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	for cp_c in memory pids cpu cpuacct; do
		cp_own=$(sed -n "s/^[0-9]*:$cp_c:\(.*\)\$/\1/p" /proc/self/cgroup)
		cp_dir=/sys/fs/cgroup/$cp_c${cp_own%/}
		[ -n "$cp_own" ] && [ -d "$cp_dir" ] || continue
		mkdir "$cp_dir/$cp_name" && echo 0 >"$cp_dir/$cp_name/cgroup.procs" || return 1
		CG_PRIVATE="$CG_PRIVATE $cp_dir/$cp_name"
		CG_HOME="$CG_HOME $cp_dir"
	done
}
cgroup_private_end() {
	for cp_dir in $CG_HOME; do
		echo 0 >"$cp_dir/cgroup.procs"
		# what a failed case left below it is the test's own too
		find "$cp_dir/$cp_name" -depth -mindepth 1 -type d -exec rmdir {} + 2>/dev/null
		wait_for "rmdir '$cp_dir/$cp_name'"
	done
}
