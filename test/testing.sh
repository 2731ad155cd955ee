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
#
# Environment: AIRLOCK (the binary under test), RESULTS (the tally file),
# TESTDIR (a scratch directory removed afterwards).

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
