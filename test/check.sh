#!/bin/sh
# check.sh - run every test `make check` owns and end with one line
# "N passed, N failed, N skipped"; exit non-zero on any failure.
#   unit tests (TAP)  build/test/*_test
#   fuzz corpora      build/test/replay_NAME over test/fuzz/corpus/NAME
#   applet tests      test/*.test, one line per case (test/testing.sh)
# With arguments, only those: test files, unit binaries or replay binaries
# (sh test/check.sh test/jail.test build/test/jail_test).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
AIRLOCK=$top/airlock
# TESTROOT: where tests make their scratch directories, one the runner and
# the jail accept (scripts/scratch.sh).
. "$top/scripts/scratch.sh"
scratch_root airlock-check || exit 1
TESTROOT=$SCRATCH_ROOT
TESTDIR=$(mktemp -d "$TESTROOT/airlock-check.XXXXXX")
RESULTS=$TESTDIR/results
: >"$RESULTS"
PACKAGES_LIST=$top/scripts/packages.list
export AIRLOCK TESTDIR TESTROOT RESULTS PACKAGES_LIST
trap 'rm -rf "$TESTDIR"' EXIT
# interrupted: stop here (a trap on INT alone would go on to the next file)
trap 'exit 130' INT TERM

# run_tap NAME CMD...: one PASS/FAIL/SKIP per TAP line; a missing plan or a
# non-zero exit without a "not ok" (a crash) is a failure of its own.
run_tap() {
	name=$1
	shift
	"$@" >"$TESTDIR/tap" 2>&1
	rc=$?
	awk -v name="$name" -v rc="$rc" -v res="$RESULTS" '
	/^ok / && / # SKIP / { sub(/^ok [0-9]+ - /, ""); print "SKIP: " name ": " $0; print "SKIP" >> res; next }
	/^ok / { sub(/^ok [0-9]+ - /, ""); print "PASS: " name ": " $0; print "PASS" >> res; next }
	/^not ok / { sub(/^not ok [0-9]+ - /, ""); print "FAIL: " name ": " $0; print "FAIL" >> res; failed++; next }
	/^1\.\.[0-9]+$/ { plan = 1; next }
	/^#/ { print "  " $0; next }
	{ print "  " name ": " $0 }
	END {
		if (!plan || (rc != 0 && !failed)) {
			print "FAIL: " name ": exited " rc (plan ? "" : " without a TAP plan")
			print "FAIL" >> res
		}
	}' "$TESTDIR/tap"
}

# wanted PATH: true when PATH is one of the arguments (or there are none)
wanted() {
	[ -z "$SELECTED" ] && return 0
	case " $SELECTED " in *" $1 "*) return 0 ;; esac
	return 1
}
SELECTED="$*"

for t in build/test/*_test; do
	wanted "$t" || continue
	[ -x "$t" ] && run_tap "$(basename "$t")" "$t"
done

for r in build/test/replay_*; do
	wanted "$r" || continue
	[ -x "$r" ] || continue
	name=${r##*/replay_}
	if out=$("$r" "test/fuzz/corpus/$name" 2>&1); then
		echo "PASS: fuzz corpus $name: $out"
		echo PASS >>"$RESULTS"
	else
		echo "FAIL: fuzz corpus $name: $out"
		echo FAIL >>"$RESULTS"
	fi
done

for f in test/*.test; do
	wanted "$f" || continue
	[ -f "$f" ] || continue
	echo "== $f"
	# a test file that ends before its end (an unset variable under
	# set -u, an exit out of a case) has run only some of its cases: a
	# failure of its own. Its last line or a return reaches the marker.
	rm -f "$TESTDIR/ran-to-end"
	(. test/testing.sh && . "$f"; : >"$TESTDIR/ran-to-end")
	if [ ! -f "$TESTDIR/ran-to-end" ]; then
		echo "FAIL: $f: ended early: the cases after its last line above did not run"
		echo FAIL >>"$RESULTS"
	fi
done

passed=$(grep -c '^PASS' "$RESULTS")
failed=$(grep -c '^FAIL' "$RESULTS")
skipped=$(grep -c '^SKIP' "$RESULTS")
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
